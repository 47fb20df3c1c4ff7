// GPU code without a GPU (--gpu-codegen-only): the bundled examples moved to cuda print what
// they print on the CPU, while every compiled graph is generated as CUDA and compiled to PTX
// for sm_90 whose entries are exactly the source's kernels; and the plain messages when no
// CUDA device can be used.
#include <gtest/gtest.h>

#include <filesystem>
#include <regex>
#include <set>

#include "runtime/cuda_driver.h"
#include "core/device_context.h"
#include "test_support.h"
#include "toolchain/cuda/cuda_compiler.h"

namespace fs = std::filesystem;
using namespace fusescope;
using namespace fusescope::test;

namespace {

#define SKIP_WITHOUT_NVRTC()                                                                           \
    if (!CudaCompiler::available()) GTEST_SKIP() << "no CUDA toolkit: " << CudaCompiler::unavailableReason()

std::set<std::string> matches(const std::string& text, const std::regex& pattern) {
    std::set<std::string> found;
    for (std::sregex_iterator it(text.begin(), text.end(), pattern), end; it != end; ++it) found.insert((*it)[1]);
    return found;
}

}  // namespace

TEST(GpuCodegen, ExamplesOnCudaPrintTheirCpuOutputAndCompileEveryGraphToPtx) {
    SKIP_WITHOUT_NVRTC();
    int graphs = 0;
    for (const fs::path example : exampleScripts()) {
        SCOPED_TRACE(example.filename().string());
        std::string script = writeTempFile(example.filename().string(), onCudaByDefault(readFile(example.string())));
        fs::path debug = fs::path(script).parent_path() / ("debug_" + example.stem().string());
        auto r = runCli({"run", script, "--gpu-codegen-only", "--backend", "inductor", "--debug-dir", debug.string()});
        ASSERT_EQ(r.exitCode, 0) << r.err;
        EXPECT_EQ(withoutCudaDevice(r.out), readFile(sourcePath("tests/golden/examples/" + example.stem().string() + ".out")));
        EXPECT_EQ(r.err.find("WON'T CONVERT"), std::string::npos) << r.err;
        if (!fs::exists(debug)) continue;  // nothing compiled (07 only explains)
        for (const auto& folder : fs::directory_iterator(debug)) {
            SCOPED_TRACE(folder.path().filename().string());
            EXPECT_FALSE(fs::exists(folder.path() / "output_code.cpp")) << "a graph of cuda tensors compiled for the CPU";
            std::string cu = readFile((folder.path() / "output_code.cu").string());
            std::string ptx = readFile((folder.path() / "output_code.ptx").string());
            EXPECT_NE(ptx.find("\n.target sm_90\n"), std::string::npos);
            std::set<std::string> kernels = matches(cu, std::regex(R"(extern "C" __global__ void (?:__launch_bounds__\(\d+\) )?(\w+)\()"));
            EXPECT_EQ(matches(ptx, std::regex(R"(\.visible \.entry (\w+)\()")), kernels);
            ++graphs;
        }
    }
    EXPECT_GE(graphs, 20);
}

// Training with tensors moved to cuda explicitly (no default device): each constant a
// derivative makes (an arange, zeros, a mask) is made on the gradients' device, or the
// device check refuses the mix as PyTorch's does.
TEST(GpuCodegen, TrainingWithTensorsMovedToCudaPrintsTheCpuOutput) {
    SKIP_WITHOUT_NVRTC();
    auto cuda = runCli({"run", deviceScript("training_on_device", false), "--gpu-codegen-only"});
    ASSERT_EQ(cuda.exitCode, 0) << cuda.err;
    auto cpu = runCli({"run", deviceScript("training_on_device", true)});
    ASSERT_EQ(cpu.exitCode, 0) << cpu.err;
    EXPECT_NE(cuda.out.find("device='cuda:0'"), std::string::npos) << cuda.out;
    EXPECT_EQ(deviceNeutral(cuda.out), deviceNeutral(cpu.out));
}

TEST(GpuCodegen, TheArchitectureCanBeChosen) {
    SKIP_WITHOUT_NVRTC();
    std::string script = writeTempFile("arch.py", R"(import torch
@torch.compile
def f(x):
    return (x * 2).sin()
print(f(torch.ones(4, device="cuda")))
)");
    fs::path debug = fs::path(script).parent_path() / "debug";
    auto r = runCli({"run", script, "--gpu-codegen-only", "--cuda-arch", "sm_80", "--debug-dir", debug.string()});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_EQ(r.out, "tensor([0.9093, 0.9093, 0.9093, 0.9093], device='cuda:0')\n");
    EXPECT_NE(readFile((debug / "f_0_0" / "output_code.ptx").string()).find("\n.target sm_80\n"), std::string::npos);

    auto bad = runCli({"run", script, "--gpu-codegen-only", "--cuda-arch", "hopper"});
    EXPECT_EQ(bad.exitCode, 2);
    EXPECT_NE(bad.err.find("--cuda-arch takes a GPU architecture like sm_90, not 'hopper'"), std::string::npos) << bad.err;
}

TEST(GpuCodegen, WithoutTheFlagACudaTensorNeedsAGpuAndFailsWithTheReason) {
    std::string script = writeTempFile("needs_gpu.py", "import torch\nprint(torch.cuda.is_available())\nx = torch.ones(2).cuda()\n");
    auto r = runCli({"run", script});
    if (cudaDriverStatus().devices > 0) {  // the GPU runtime runs it (gpu_runtime_test)
        EXPECT_EQ(r.exitCode, 0) << r.err;
        EXPECT_EQ(r.out, "True\n");
        return;
    }
    std::cout << "this machine has no CUDA device: " << cudaDriverStatus().reason << "\n";
    EXPECT_EQ(r.exitCode, 1);
    EXPECT_EQ(r.out, "False\n");
    EXPECT_NE(r.err.find("needs_gpu.py:3:5: error: RuntimeError: "), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("run with --gpu-codegen-only to run cuda tensors on the CPU"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find(cudaDriverStatus().reason), std::string::npos) << r.err;
    EXPECT_TRUE(cudaDriverStatus().reason.rfind("no CUDA driver found (", 0) == 0 ||
                cudaDriverStatus().reason.rfind("no CUDA device", 0) == 0)
        << cudaDriverStatus().reason;
}

TEST(GpuCodegen, CudaTensorsBehaveAsInPyTorch) {
    SessionOptions options;
    options.gpuCodegenOnly = true;
    ScriptRun run = runScriptWith(R"(import torch
print(torch.cuda.is_available(), torch.cuda.device_count())
x = torch.arange(3.0, device="cuda")
print(x.device, x.is_cuda, x.cpu().device, x.to("cpu").is_cuda)
y = x * 2 + torch.tensor(1.0)
print(y, y.sum().item())
print(torch.zeros_like(x).device, torch.ones(2).device)
torch.set_default_device("cuda")
print(torch.ones(2).device, torch.get_default_device())
torch.ones(2, device="cpu") + x[:2]
)",
                                  options);
    EXPECT_EQ(run.out,
              "True 1\n"
              "cuda:0 True cpu False\n"
              "tensor([1., 3., 5.], device='cuda:0') 9.0\n"
              "cuda:0 cpu\n"
              "cuda:0 cuda:0\n");
    EXPECT_EQ(run.error, "script.py:10:1: error: RuntimeError: Expected all tensors to be on the same device, but found at "
                         "least two devices, cpu and cuda:0!");
}

TEST(GpuCodegen, AGuardOnTheDeviceRecompilesForTheCpu) {
    SKIP_WITHOUT_NVRTC();
    SessionOptions options;
    options.gpuCodegenOnly = true;
    options.backendOverride = "inductor";
    ScriptRun run = runScriptWith(R"(import torch
@torch.compile
def f(x):
    return x.relu() + 1
print(f(torch.ones(2, device="cuda")))
print(f(torch.ones(2)))
)",
                                  options, "script.py");
    ASSERT_EQ(run.error, "");
    EXPECT_EQ(run.out, "tensor([2., 2.], device='cuda:0')\ntensor([2., 2.])\n");
    auto sources = run.eventsOf<KernelSourceEvent>();
    ASSERT_EQ(sources.size(), 2u);
    EXPECT_EQ(sources[0].language, "cuda");
    EXPECT_EQ(sources[0].arch, "sm_90");
    EXPECT_NE(sources[0].artifacts["ptx"].find(".entry " + sources[0].kernels.at(0) + "("), std::string::npos);
    EXPECT_EQ(sources[1].language, "cpp");
    auto guards = run.eventsOf<GuardsEvent>();
    ASSERT_EQ(guards.size(), 2u);
    EXPECT_NE(guards[0].guards.at(0).find("device=cuda:0"), std::string::npos) << guards[0].guards.at(0);
}

TEST(GpuCodegen, ACompiledCallMixingDevicesRaisesWhereEagerWould) {
    SessionOptions options;
    options.gpuCodegenOnly = true;
    ScriptRun run = runScriptWith(R"(import torch
@torch.compile
def f(a, b, s):
    c = a * s
    return c + b
x = torch.ones(3, device="cuda")
print(f(x, x, torch.tensor(2.0)))
f(x, torch.ones(3), torch.tensor(2.0))
)",
                                  options, "script.py");
    EXPECT_EQ(run.out, "tensor([3., 3., 3.], device='cuda:0')\n");
    EXPECT_EQ(run.error, "script.py:5:12: error: RuntimeError: Expected all tensors to be on the same device, but found at "
                         "least two devices, cuda:0 and cpu!");
}

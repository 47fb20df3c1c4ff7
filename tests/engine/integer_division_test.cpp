// The minimum integer divided by -1: the CPU's divide instruction traps on it (SIGFPE), so
// eager kernels and generated code (C++ and CUDA) negate with wrap-around instead, giving
// what PyTorch prints: the minimum again for // and trunc division, 0 for % and remainder.
#include <gtest/gtest.h>

#include <filesystem>

#include "test_support.h"
#include "toolchain/cuda/cuda_compiler.h"

namespace fs = std::filesystem;
using namespace fusescope;
using namespace fusescope::test;

namespace {

// The same divisions on int64 and int32, eager and (with `compiled`) in one compiled graph.
std::string divisions(bool compiled) {
    std::string body = R"(import torch
a = torch.tensor([-9223372036854775807 - 1, 7, -7])
b = torch.tensor([-1, -1, 2])
c = torch.tensor([-2147483648, 5], dtype=torch.int32)
d = torch.tensor([-1, -1], dtype=torch.int32)
def f(x, y):
    return x // y, x % y, torch.remainder(x, y), torch.div(x, y, rounding_mode='floor'), torch.div(x, y, rounding_mode='trunc')
)";
    if (compiled) body += "f = torch.compile(f, backend='inductor')\n";
    return body + "for r in f(a, b) + f(c, d):\n    print(r)\n";
}

const char* const kPyTorchPrints = R"(tensor([-9223372036854775808,                   -7,                   -4])
tensor([0, 0, 1])
tensor([0, 0, 1])
tensor([-9223372036854775808,                   -7,                   -4])
tensor([-9223372036854775808,                   -7,                   -3])
tensor([-2147483648,          -5], dtype=torch.int32)
tensor([0, 0], dtype=torch.int32)
tensor([0, 0], dtype=torch.int32)
tensor([-2147483648,          -5], dtype=torch.int32)
tensor([-2147483648,          -5], dtype=torch.int32)
)";

}  // namespace

TEST(IntegerDivision, MinimumByMinusOneEagerlyWrapsAsPyTorch) {
    ScriptRun run = runScript(divisions(false));
    EXPECT_EQ(run.error, "");
    EXPECT_EQ(run.out, kPyTorchPrints);
}

TEST(IntegerDivision, MinimumByMinusOneInGeneratedCppWrapsAsPyTorch) {
    SKIP_WITHOUT_CPP_JIT();
    ScriptRun run = runScript(divisions(true));
    EXPECT_EQ(run.error, "");
    EXPECT_EQ(run.out, kPyTorchPrints);
    EXPECT_EQ(run.compiles, 2);  // int64 and int32: both ran generated code
    EXPECT_EQ(run.logs.find("WON'T CONVERT"), std::string::npos) << run.logs;
}

TEST(IntegerDivision, GeneratedCudaDividesByMinusOneWithoutTheDivideInstruction) {
    if (!CudaCompiler::available()) GTEST_SKIP() << "no CUDA toolkit: " << CudaCompiler::unavailableReason();
    std::string script = divisions(true);
    script.insert(std::string("import torch\n").size(), "torch.set_default_device('cuda')\n");
    std::string path = writeTempFile("divide.py", script);
    fs::path debug = fs::path(path).parent_path() / "divide_debug";
    ProcessResult r = runCli({"run", path, "--gpu-codegen-only", "--backend", "inductor", "--debug-dir", debug.string()});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    int kernels = 0;
    for (const auto& folder : fs::directory_iterator(debug)) {
        std::string cu = readFile((folder.path() / "output_code.cu").string());
        EXPECT_NE(cu.find("if (b == -1) return fs_negate_wrapping(a);"), std::string::npos);
        EXPECT_NE(cu.find("= fs_floordiv("), std::string::npos);
        EXPECT_NE(readFile((folder.path() / "output_code.ptx").string()).find(".visible .entry"), std::string::npos);
        ++kernels;
    }
    EXPECT_EQ(kernels, 2);
}

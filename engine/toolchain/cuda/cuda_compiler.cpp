#include "toolchain/cuda/cuda_compiler.h"

#include <chrono>
#include <cstdio>
#include <fstream>
#include <memory>
#include <regex>
#include <sstream>
#include <vector>

#include <fmt/format.h>
#include <unistd.h>

#include "toolchain/cuda/shared_library.h"

namespace fusescope {

namespace {

// The few entry points we use, declared as nvrtc.h and nvJitLink.h declare them (C ABI);
// their handles are opaque pointers and their results ints (0 = success).
using Handle = void*;
struct Nvrtc {
    SharedLibrary library{cudaLibraryCandidates({"libnvrtc.so", "libnvrtc.so.13", "libnvrtc.so.12"})};
    const char* (*errorString)(int) = library.function<const char* (*)(int)>("nvrtcGetErrorString");
    int (*create)(Handle*, const char*, const char*, int, const char* const*, const char* const*) =
        library.function<int (*)(Handle*, const char*, const char*, int, const char* const*, const char* const*)>(
            "nvrtcCreateProgram");
    int (*compile)(Handle, int, const char* const*) = library.function<int (*)(Handle, int, const char* const*)>("nvrtcCompileProgram");
    int (*logSize)(Handle, size_t*) = library.function<int (*)(Handle, size_t*)>("nvrtcGetProgramLogSize");
    int (*log)(Handle, char*) = library.function<int (*)(Handle, char*)>("nvrtcGetProgramLog");
    int (*ptxSize)(Handle, size_t*) = library.function<int (*)(Handle, size_t*)>("nvrtcGetPTXSize");
    int (*ptx)(Handle, char*) = library.function<int (*)(Handle, char*)>("nvrtcGetPTX");
    int (*destroy)(Handle*) = library.function<int (*)(Handle*)>("nvrtcDestroyProgram");

    bool complete() const { return errorString && create && compile && logSize && log && ptxSize && ptx && destroy; }
};

struct NvJitLink {
    static constexpr int kInputPtx = 2;  // NVJITLINK_INPUT_PTX
    SharedLibrary library{cudaLibraryCandidates({"libnvJitLink.so", "libnvJitLink.so.13", "libnvJitLink.so.12"})};
    int (*create)(Handle*, unsigned, const char**) = library.function<int (*)(Handle*, unsigned, const char**)>("nvJitLinkCreate");
    int (*addData)(Handle, int, const void*, size_t, const char*) =
        library.function<int (*)(Handle, int, const void*, size_t, const char*)>("nvJitLinkAddData");
    int (*finish)(Handle) = library.function<int (*)(Handle)>("nvJitLinkComplete");
    int (*cubinSize)(Handle, size_t*) = library.function<int (*)(Handle, size_t*)>("nvJitLinkGetLinkedCubinSize");
    int (*cubin)(Handle, void*) = library.function<int (*)(Handle, void*)>("nvJitLinkGetLinkedCubin");
    int (*errorLogSize)(Handle, size_t*) = library.function<int (*)(Handle, size_t*)>("nvJitLinkGetErrorLogSize");
    int (*errorLog)(Handle, char*) = library.function<int (*)(Handle, char*)>("nvJitLinkGetErrorLog");
    int (*destroy)(Handle*) = library.function<int (*)(Handle*)>("nvJitLinkDestroy");

    bool complete() const { return create && addData && finish && cubinSize && cubin && errorLogSize && errorLog && destroy; }
};

const Nvrtc& nvrtc() {
    static const Nvrtc library;
    return library;
}

const NvJitLink& nvJitLink() {
    static const NvJitLink library;
    return library;
}

std::string textOf(int (*sizeOf)(Handle, size_t*), int (*read)(Handle, char*), Handle h) {
    size_t size = 0;
    if (sizeOf(h, &size) != 0 || size == 0) return "";
    std::string text(size, '\0');
    if (read(h, text.data()) != 0) return "";
    while (!text.empty() && text.back() == '\0') text.pop_back();
    return text;
}

// PTX to a cubin for `arch`; "" when nvJitLink is missing or fails (the PTX still stands).
std::string linkCubin(const std::string& ptx, const std::string& arch, std::string& log) {
    const NvJitLink& link = nvJitLink();
    if (!link.complete()) return "";
    std::string archOption = "-arch=" + arch;
    const char* options[] = {archOption.c_str()};
    Handle h = nullptr;
    if (link.create(&h, 1, options) != 0) return "";
    std::unique_ptr<void, void (*)(void*)> guard(h, [](void* p) { nvJitLink().destroy(&p); });
    std::string cubin;
    if (link.addData(h, NvJitLink::kInputPtx, ptx.data(), ptx.size(), "module.ptx") == 0 && link.finish(h) == 0) {
        size_t size = 0;
        if (link.cubinSize(h, &size) == 0 && size > 0) {
            cubin.resize(size);
            if (link.cubin(h, cubin.data()) != 0) cubin.clear();
        }
    }
    if (cubin.empty()) log += "nvJitLink: " + textOf(link.errorLogSize, link.errorLog, h);
    return cubin;
}

// The cubin's SASS through the toolkit's nvdisasm, or "" without it.
std::string disassemble(const std::string& cubin) {
    std::string nvdisasm = cudaToolPath("nvdisasm");
    if (cubin.empty() || nvdisasm.empty()) return "";
    char path[] = "/tmp/fusescope-cubin-XXXXXX";
    int fd = mkstemp(path);
    if (fd < 0) return "";
    close(fd);
    std::ofstream(path, std::ios::binary) << cubin;
    std::string sass;
    if (FILE* pipe = popen(fmt::format("'{}' -c -g '{}' 2>&1", nvdisasm, path).c_str(), "r")) {
        char buffer[4096];
        for (size_t n; (n = fread(buffer, 1, sizeof buffer, pipe)) > 0;) sass.append(buffer, n);
        if (pclose(pipe) != 0) sass.clear();
    }
    unlink(path);
    return sass;
}

}  // namespace

bool CudaCompiler::validArch(const std::string& arch) {
    static const std::regex pattern("sm_[0-9]{2,3}[af]?");
    return std::regex_match(arch, pattern);
}

bool CudaCompiler::available() { return nvrtc().complete(); }

std::string CudaCompiler::unavailableReason() {
    if (available()) return "";
    const Nvrtc& n = nvrtc();
    if (!n.library.loaded())
        return "NVRTC not found (the CUDA toolkit's libnvrtc.so; set CUDA_HOME to the toolkit): " + n.library.error();
    return "NVRTC at " + n.library.path() + " lacks entry points Fusescope needs";
}

CudaModuleCode CudaCompiler::compile(const std::string& source, const std::string& fileName, const std::string& arch,
                                     bool withSass) {
    if (!available()) throw Error("cannot compile CUDA code: " + unavailableReason());
    const Nvrtc& n = nvrtc();
    auto start = std::chrono::steady_clock::now();
    Handle program = nullptr;
    if (int rc = n.create(&program, source.c_str(), fileName.c_str(), 0, nullptr, nullptr); rc != 0)
        throw Error(fmt::format("NVRTC cannot create a program: {}", n.errorString(rc)));
    std::unique_ptr<void, void (*)(void*)> guard(program, [](void* p) { nvrtc().destroy(&p); });
    std::string archOption = "--gpu-architecture=" + arch;
    const char* options[] = {archOption.c_str(), "-lineinfo", "--std=c++17"};
    int rc = n.compile(program, 3, options);
    CudaModuleCode code;
    code.arch = arch;
    code.log = textOf(n.logSize, n.log, program);
    if (rc != 0)
        throw CudaCompileError(fmt::format("NVRTC ({}) failed to compile {}:\n{}", n.errorString(rc), fileName, code.log));
    code.ptx = textOf(n.ptxSize, n.ptx, program);
    code.cubin = linkCubin(code.ptx, arch, code.log);
    code.compileSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (withSass) code.sass = disassemble(code.cubin);
    return code;
}

}  // namespace fusescope

#pragma once
// Generated CUDA C++ to PTX with NVRTC, and the PTX to a cubin for one GPU architecture with
// nvJitLink; both libraries are opened at run time from the CUDA toolkit, and neither
// needs a GPU, so GPU code can be generated and read on any machine with the toolkit. The
// SASS is disassembled from the cubin when the toolkit has nvdisasm.

#include <string>

#include "core/error.h"

namespace fusescope {

struct CudaModuleCode {
    std::string arch;          // sm_90
    std::string ptx;
    std::string cubin;         // empty without nvJitLink
    std::string sass;          // empty without nvdisasm
    std::string log;           // NVRTC's warnings
    double compileSeconds = 0; // NVRTC and nvJitLink together
};

// NVRTC's diagnostics (file(line): error: ..., with the line and a caret).
class CudaCompileError : public Error {
public:
    using Error::Error;
};

class CudaCompiler {
public:
    static constexpr const char* kDefaultArch = "sm_90";  // H100 / H200

    // sm_ then a compute capability (80, 90, 90a, 100f, ...).
    static bool validArch(const std::string& arch);
    static bool available();                 // NVRTC was found
    static std::string unavailableReason();  // why not; "" when available

    // Compiles `source` (named `fileName` in diagnostics and line info) for `arch` (sm_XX),
    // with -lineinfo; `withSass`: also disassemble the cubin (a run of nvdisasm, which an
    // eager op's kernels, shown nowhere, skip). Throws CudaCompileError on a compile error,
    // Error without NVRTC.
    static CudaModuleCode compile(const std::string& source, const std::string& fileName,
                                  const std::string& arch = kDefaultArch, bool withSass = true);
};

}  // namespace fusescope

#pragma once
// The CUDA driver (libcuda.so.1), opened at run time so one binary runs on machines with
// and without a GPU; probed once per process.

#include <string>

namespace fusescope {

struct CudaDriverStatus {
    int devices = 0;     // GPUs the driver sees
    std::string reason;  // why there is none: "no CUDA driver found (...)", "no CUDA device"; "" with one
};

const CudaDriverStatus& cudaDriverStatus();

}  // namespace fusescope

// The inductor backend's CUDA kernels on the GPU: per workload the compiled call's time
// (CUDA events around a batch of calls, median of the batches), the bandwidth it reaches,
// its share of the device's copy bandwidth (cuMemcpyDtoD, bytes read + written, measured in
// the same run), and its relative error against eager on the CPU. Compare with
// bench/scripts/torch_compile_gpu.py run on the same GPU. Usage: bench_gpu [batches [name-part]];
// with a name part, only the workloads whose names contain it.

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "backends/backend.h"
#include "graph/graph_interpreter.h"
#include "core/device_context.h"
#include "core/random.h"
#include "runtime/cuda_allocator.h"
#include "runtime/cuda_driver.h"
#include "toolchain/cuda/cuda_compiler.h"
#include "workloads.h"

using namespace fusescope;
using namespace fusescope::bench;

namespace {

// Median milliseconds per call of `f`, timed with CUDA events over `batches` batches of
// `calls` calls each, after a warm-up batch.
template <class F>
double medianMs(int batches, int calls, F&& f) {
    const CudaApi& cuda = cudaApi();
    CudaEvent start, stop;
    cudaCheck(cuda.cuEventCreate(&start, 0), "cuEventCreate");
    cudaCheck(cuda.cuEventCreate(&stop, 0), "cuEventCreate");
    for (int i = 0; i < calls; ++i) f();
    std::vector<double> times;
    for (int b = 0; b < batches; ++b) {
        cudaCheck(cuda.cuEventRecord(start, nullptr), "cuEventRecord");
        for (int i = 0; i < calls; ++i) f();
        cudaCheck(cuda.cuEventRecord(stop, nullptr), "cuEventRecord");
        cudaCheck(cuda.cuEventSynchronize(stop), "cuEventSynchronize");
        float ms = 0;
        cudaCheck(cuda.cuEventElapsedTime(&ms, start, stop), "cuEventElapsedTime");
        times.push_back(ms / calls);
    }
    cuda.cuEventDestroy(start);
    cuda.cuEventDestroy(stop);
    std::sort(times.begin(), times.end());
    return times[times.size() / 2];
}

// Bytes per second of a device-to-device copy of 1 GiB, counting bytes read and written.
double copyBandwidth(int batches) {
    const size_t bytes = size_t(1) << 30;
    auto& allocator = CudaCachingAllocator::instance();
    CudaDevicePtr src = allocator.allocate(bytes), dst = allocator.allocate(bytes);
    cudaCheck(cudaApi().cuMemsetD8(src, 1, bytes), "cuMemsetD8");
    double ms = medianMs(batches, 10, [&] { cudaCheck(cudaApi().cuMemcpyDtoD(dst, src, bytes), "cuMemcpyDtoD"); });
    allocator.release(src);
    allocator.release(dst);
    return 2.0 * bytes / (ms * 1e-3);
}

// ||got - expected|| / ||expected|| over every output element.
double relativeError(const std::vector<Tensor>& got, const std::vector<Tensor>& expected) {
    double diff = 0, norm = 0;
    for (size_t o = 0; o < got.size(); ++o)
        for (int64_t i = 0; i < expected[o].numel(); ++i) {
            double e = expected[o].readDouble(i), g = got[o].readDouble(i);
            diff += (g - e) * (g - e);
            norm += e * e;
        }
    return norm > 0 ? std::sqrt(diff / norm) : std::sqrt(diff);
}

}  // namespace

int main(int argc, char** argv) {
    int batches = argc > 1 ? std::atoi(argv[1]) : 9;
    std::string only = argc > 2 ? argv[2] : "";
    if (cudaDriverStatus().devices == 0 || !CudaCompiler::available()) {
        std::printf("%s: nothing to measure\n",
                    cudaDriverStatus().devices == 0 ? cudaDriverStatus().reason.c_str() : CudaCompiler::unavailableReason().c_str());
        return 0;
    }
    DeviceContext devices;
    devices.cudaUnavailableReason = "";
    DeviceContextScope scope(devices);
    const Device gpu{Device::Kind::Cuda, 0};
    manualSeed(0);
    std::vector<Workload> workloads;
    workloads.push_back(pointwiseChain(64 << 20, false));
    workloads.push_back(pointwiseChain(64 << 20, true));
    workloads.push_back(unary("softmax 8192x8192", "softmax", {8192, 8192}, {Argument::value(IValue(int64_t{-1}))}, 8.0 * 8192 * 8192));
    workloads.push_back(unary("softmax 65536x1024", "softmax", {65536, 1024}, {Argument::value(IValue(int64_t{-1}))}, 8.0 * 65536 * 1024));
    workloads.push_back(layerNorm(65536, 1024));
    workloads.push_back(unary("sum over 256M f32", "sum", {256 << 20}, {}, 4.0 * (256 << 20)));
    workloads.push_back(linearGelu(8192, 1024, 1024));
    std::erase_if(workloads, [&](const Workload& w) { return w.name.find(only) == std::string::npos; });

    const CudaApi& cuda = cudaApi();
    double copy = copyBandwidth(batches);
    std::printf("%s (%s, %d SMs); copy bandwidth (cuMemcpyDtoD, read + write): %.0f GB/s\n\n", cuda.deviceName.c_str(),
                cuda.arch.c_str(), cuda.multiprocessors, copy / 1e9);
    std::printf("%-48s %12s %9s %8s %10s\n", "workload", "compiled ms", "GB/s", "of copy", "rel. error");
    for (auto& w : workloads) {
        std::vector<Tensor> expected = runGraphEagerly(*w.graph, w.inputs);  // on the CPU
        for (const Tensor& t : w.inputs) t.setDevice(gpu);
        CompileRequest request{"0/0", "bench", "__compiled_fn_0", nullptr, nullptr};
        request.device = gpu;
        CompiledGraph compiled = inductorBackend().compile(w.graph, request);
        double error = relativeError(compiled(w.inputs), expected);
        double ms = medianMs(batches, 20, [&] { compiled(w.inputs); });
        double gbs = w.bytes / (ms * 1e-3);
        std::printf("%-48s %12.3f %9.0f %7.0f%% %10.1e\n", w.name.c_str(), ms, gbs / 1e9, 100 * gbs / copy, error);
    }
    return 0;
}

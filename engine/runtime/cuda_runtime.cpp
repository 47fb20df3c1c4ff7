#include "runtime/cuda_runtime.h"

#include <algorithm>
#include <map>
#include <optional>

#include <fmt/format.h>

#include "lower/blas_layout.h"
#include "profile/profiler.h"
#include "runtime/cuda_allocator.h"
#include "runtime/cuda_blas.h"
#include "runtime/cuda_memory.h"
#include "runtime/graph_call.h"

namespace fusescope {

struct CudaGraphRunner::Step {
    CudaLaunchStep plan;
    CudaFunction function = nullptr;  // null for an extern kernel
    const Buffer* externBuffer = nullptr;
};

namespace {

// Enough blocks to fill every multiprocessor several times over; grid-stride loops cover
// the rest, so a huge tensor does not mean a huge grid.
constexpr int64_t kCudaMaxGridBlocks = 0x7fffffff;  // gridDim.x's limit

int64_t gridFor(int64_t work, int64_t perBlock) {
    int64_t wanted = (work + perBlock - 1) / perBlock;
    return std::clamp<int64_t>(wanted, 1, static_cast<int64_t>(cudaApi().multiprocessors) * 32);
}

// A pointwise kernel's grid covers its elements, kCudaPointwiseElementsPerThread per thread
// (a block per tile, as Triton's kernels take, rather than a grid-stride loop over a grid
// sized to the GPU). Each thread then makes one unrolled group of loads.
int64_t pointwiseGrid(int64_t elements) {
    const int64_t perBlock = int64_t(kCudaPointwiseThreads) * kCudaPointwiseElementsPerThread;
    return std::clamp<int64_t>((elements + perBlock - 1) / perBlock, 1, kCudaMaxGridBlocks);
}

CudaGemmOperand gemmOperand(const ExternOperand& op, CudaDevicePtr base, DType dtype, bool batched,
                            const SymbolValues& symbols) {
    std::optional<BlasLayout> layout = blasLayout(op.view);
    if (!layout) throw Error("internal error: extern kernel operand " + op.buffer + " is not BLAS-readable");
    CudaGemmOperand out;
    out.data = base + static_cast<CudaDevicePtr>(evaluate(op.view.offset, symbols)) * dtypeSize(dtype);
    out.transpose = layout->transpose;
    out.leadingDim = evaluate(layout->leadingDim, symbols);
    out.batchStride = batched ? evaluate(op.view.stride[0], symbols) : 0;
    return out;
}

}  // namespace

// Device times of the plan's steps, when the profiler is on: an event pair around each
// step, read after the call (waiting for the GPU) and reported on the GPU's track.
class CudaGraphRunner::KernelTimer {
public:
    explicit KernelTimer(size_t steps) : events_(2 * steps + 1) {
        const CudaApi& cuda = cudaApi();
        for (auto& e : events_) cudaCheck(cuda.cuEventCreate(&e, 0), "cuEventCreate");
        // The host time of the first event: the GPU's times are read relative to it.
        cudaCheck(cuda.cuEventRecord(events_[0], nullptr), "cuEventRecord");
        cudaCheck(cuda.cuEventSynchronize(events_[0]), "cuEventSynchronize");
        hostNs_ = Profiler::nowNs();
    }
    ~KernelTimer() {
        for (auto& e : events_) cudaApi().cuEventDestroy(e);
    }
    void begin(size_t step) { cudaCheck(cudaApi().cuEventRecord(events_[1 + 2 * step], nullptr), "cuEventRecord"); }
    void end(size_t step) { cudaCheck(cudaApi().cuEventRecord(events_[2 + 2 * step], nullptr), "cuEventRecord"); }

    void report(const std::vector<Step>& steps, const GraphTraceName& name, int device, int64_t launchId) {
        const CudaApi& cuda = cudaApi();
        cudaCheck(cuda.cuEventSynchronize(events_.back()), "cuEventSynchronize");
        auto at = [&](CudaEvent e) {
            float ms = 0;
            cudaCheck(cuda.cuEventElapsedTime(&ms, events_[0], e), "cuEventElapsedTime");
            return hostNs_ + static_cast<int64_t>(ms * 1e6);
        };
        for (size_t i = 0; i < steps.size(); ++i) {
            TraceRecord r;
            r.category = TraceCategory::Kernel;
            r.name = steps[i].plan.kernel;
            r.beginNs = at(events_[1 + 2 * i]);
            r.endNs = at(events_[2 + 2 * i]);
            r.tid = gpuTrackTid(device);
            r.kernelBackend = "cuda";
            r.kernelFile = name.graphName + ".cu";
            r.compileId = name.compileId;
            r.flowId = launchId;
            r.buffers = steps[i].plan.computes;
            Profiler::record(std::move(r));
        }
    }

private:
    std::vector<CudaEvent> events_;
    int64_t hostNs_ = 0;
};

CudaGraphRunner::CudaGraphRunner(const LoweredGraph& graph, const std::vector<CudaLaunchStep>& plan, const std::string& image,
                                 Device device, GraphTraceName traceName)
    : graph_(graph), device_(device), statusSites_(graphStatusSites(graph)), traceName_(std::move(traceName)) {
    const CudaApi& cuda = cudaApi();
    cudaCheck(cuda.cuModuleLoadData(&module_, image.c_str()), "cuModuleLoadData");
    size_t statusBytes = 0;
    if (cuda.cuModuleGetGlobal(&status_, &statusBytes, module_, "fs_status") != 0) status_ = 0;
    for (const auto& launch : plan) {
        Step step{launch};
        if (launch.kind == CudaLaunchStep::Kind::Extern) {
            step.externBuffer = graph_.findBuffer(launch.computes.at(0));
            loadCublas();
        } else {
            cudaCheck(cuda.cuModuleGetFunction(&step.function, module_, launch.kernel.c_str()), "cuModuleGetFunction");
        }
        steps_.push_back(std::move(step));
    }
}

CudaGraphRunner::~CudaGraphRunner() {
    if (module_) cudaApi().cuModuleUnload(module_);
}

std::vector<Tensor> CudaGraphRunner::operator()(const std::vector<Tensor>& inputs) const {
    const CudaApi& cuda = cudaApi();
    SymbolValues symbols = symbolValues(graph_.symbols, inputs);
    std::vector<int64_t> sizeArgs;
    for (const auto& s : graph_.symbols) sizeArgs.push_back(evaluate(symbols[s.name], {}));

    // Every buffer the plan names: inputs (uploaded if stale), outputs (tensors that keep
    // their device memory), and intermediates (returned to the cache after the call).
    std::map<std::string, CudaDevicePtr> address;
    for (const auto& in : graph_.inputs) address[in.name] = cudaDataPtr(inputs.at(in.placeholder));
    std::map<std::string, Tensor> outputs;
    for (const auto& o : graph_.outputs)
        if (!address.count(o.buffer) && !outputs.count(o.buffer)) {
            const FixedLayout& layout = graph_.layoutOf(o.buffer);
            Tensor t = cudaResultTensor(shapeNumel(evaluate(layout.size, symbols)), layout.dtype, device_);
            outputs[o.buffer] = t;
            address[o.buffer] = cudaDataPtr(t);
        }
    std::vector<CudaDevicePtr> intermediates;
    std::function<CudaDevicePtr(const std::string&)> bufferAddress = [&](const std::string& name) {
        auto it = address.find(name);
        if (it != address.end()) return it->second;
        const FixedLayout& layout = graph_.layoutOf(name);
        size_t bytes = static_cast<size_t>(shapeNumel(evaluate(layout.size, symbols))) * dtypeSize(layout.dtype);
        CudaDevicePtr p = CudaCachingAllocator::instance().allocate(bytes);
        intermediates.push_back(p);
        return address[name] = p;
    };
    struct ReleaseIntermediates {
        std::vector<CudaDevicePtr>& blocks;
        // Kernels still running on the default stream may read them: the caching allocator
        // hands a block out again only to work queued behind them on the same stream.
        ~ReleaseIntermediates() {
            for (CudaDevicePtr p : blocks) CudaCachingAllocator::instance().release(p);
        }
    } release{intermediates};

    if (status_ && statusSites_.any()) cudaCheck(cuda.cuMemsetD8(status_, 0, sizeof(int)), "cuMemsetD8");
    {
        // An eager op's launches are a runtime call inside the op's span, as in PyTorch's traces.
        RecordScope span(traceName_.eagerOp ? TraceCategory::CpuOp : TraceCategory::UserAnnotation,
                         traceName_.eagerOp ? "cudaLaunchKernel" : graphCallSpanName(traceName_));
        TraceRecord* r = span.record();
        if (!traceName_.eagerOp) describeGraphCall(r, traceName_, inputs);
        std::optional<KernelTimer> timer;
        if (r) timer.emplace(steps_.size());
        for (size_t i = 0; i < steps_.size(); ++i) {
            if (timer) timer->begin(i);
            launch(steps_[i], symbols, sizeArgs, bufferAddress);
            if (timer) timer->end(i);
        }
        if (timer) timer->report(steps_, traceName_, std::max(device_.index, 0), r->rfId);
    }
    if (status_ && statusSites_.any()) {
        int flag = 0;
        cudaCheck(cuda.cuMemcpyDtoH(&flag, status_, sizeof flag), "cuMemcpyDtoH");
        if (flag) statusSites_.raise(flag);
    }
    for (auto& [name, t] : outputs) markDeviceWritten(t);
    return graphOutputs(graph_.outputs, graph_.inputs, outputs, inputs, symbols);
}

void CudaGraphRunner::launch(const Step& step, const SymbolValues& symbols, const std::vector<int64_t>& sizeArgs,
                             const std::function<CudaDevicePtr(const std::string&)>& bufferAddress) const {
    const CudaLaunchStep& plan = step.plan;
    if (step.externBuffer) {
        const Buffer& b = *step.externBuffer;
        Shape size = evaluate(b.layout.size, symbols);
        size_t n = size.size();
        bool batched = b.externKernel == ExternKernelKind::Bmm;
        CudaGemmOperand a = gemmOperand(b.operands[0], bufferAddress(b.operands[0].buffer), b.layout.dtype, batched, symbols);
        CudaGemmOperand w = gemmOperand(b.operands[1], bufferAddress(b.operands[1].buffer), b.layout.dtype, batched, symbols);
        int64_t k = evaluate(b.operands[0].view.size.back(), symbols);
        cudaGemm(b.layout.dtype, batched ? size[0] : 1, size[n - 2], size[n - 1], k, a, w, bufferAddress(b.name));
        return;
    }
    int64_t elements = evaluate(plan.elements, symbols);
    if (elements == 0) return;
    std::vector<CudaDevicePtr> pointers;
    size_t buffers = plan.args.size() - sizeArgs.size();
    for (size_t i = 0; i < buffers; ++i) pointers.push_back(bufferAddress(plan.args[i]));
    std::vector<void*> params;
    for (auto& p : pointers) params.push_back(&p);
    for (const auto& v : sizeArgs) params.push_back(const_cast<int64_t*>(&v));
    int64_t blocks, threads;
    if (plan.kind == CudaLaunchStep::Kind::Pointwise) {
        threads = kCudaPointwiseThreads;
        blocks = pointwiseGrid(elements);
    } else if (plan.splitRow) {
        threads = kCudaReductionThreads;
        blocks = cudaSplitBlocks(evaluate(plan.reductionElements, symbols));
    } else {
        threads = plan.threads ? plan.threads : cudaReductionThreads(evaluate(plan.reductionElements, symbols));
        // A persistent row is short work: a block for each (measured 3-6% faster than
        // blocks taking several rows in turn, whose phases cannot overlap).
        blocks = plan.threads ? std::min<int64_t>(elements, kCudaMaxGridBlocks) : gridFor(elements, 1);
    }
    cudaCheck(cudaApi().cuLaunchKernel(step.function, unsigned(blocks), 1, 1, unsigned(threads), 1, 1, 0, nullptr, params.data(),
                                       nullptr),
              plan.kernel.c_str());
}

}  // namespace fusescope

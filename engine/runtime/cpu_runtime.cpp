#include "runtime/cpu_runtime.h"

#include <atomic>
#include <utility>

#include "core/error.h"
#include "ops/blas_gemm.h"
#include "ops/convolution_kernel.h"
#include "profile/profiler.h"
#include "profile/trace_args.h"
#include "runtime/graph_call.h"
#include "toolchain/cpp_jit.h"

namespace fusescope {

namespace {

// The graph call running on this thread, for the kernel spans its wrapper reports.
struct ActiveCall {
    const CpuGraphRunner* runner;
    const SymbolValues* symbols;
    int64_t launchId;  // rf_id of the graph call's span: the kernels' flow source
};
thread_local const ActiveCall* activeCall = nullptr;

std::atomic<const char*> running{nullptr};  // runningGeneratedCode()

void fsTraceEnd(void* span) { delete static_cast<RecordScope*>(span); }

}  // namespace

void* fsTraceBegin(int call, int nbuffers, void* const* buffers) {
    if (!Profiler::active() || !activeCall) return nullptr;
    const CpuGraphRunner& runner = *activeCall->runner;
    const auto& info = runner.tracedCalls_.at(static_cast<size_t>(call));
    auto span = std::make_unique<RecordScope>(TraceCategory::Kernel, info.name);
    TraceRecord* r = span->record();
    if (!r) return nullptr;
    r->kernelBackend = "cpp";
    r->kernelFile = runner.module_->sourcePath.empty() ? runner.traceName_.graphName + ".cpp" : runner.module_->sourcePath;
    r->compileId = runner.traceName_.compileId;
    r->flowId = activeCall->launchId;
    r->buffers = info.computes;
    auto values = [](const std::vector<IndexExpr>& exprs) {
        std::vector<int64_t> out;
        for (const IndexExpr& e : exprs) out.push_back(evaluate(e, *activeCall->symbols));
        return out;
    };
    for (int i = 0; i < nbuffers && static_cast<size_t>(i) < info.buffers.size(); ++i) {
        const FixedLayout& layout = info.buffers[static_cast<size_t>(i)];
        appendTraceBuffer(r->inputs, buffers[i], values(layout.size), values(layout.stride), layout.dtype);
    }
    return span.release();
}

const char* runningGeneratedCode() { return running.load(std::memory_order_relaxed); }

void registerCpuRuntimeSymbols(const DeviceAllocator& allocator) {
    if (!CppJit::available()) return;
    CppJit& jit = CppJit::instance();
    jit.defineSymbol("fs_alloc", reinterpret_cast<void*>(allocator.allocate));
    jit.defineSymbol("fs_free", reinterpret_cast<void*>(allocator.release));
    jit.defineSymbol("fs_gemm", reinterpret_cast<void*>(&blasGemm));
    jit.defineSymbol("fs_convolution", reinterpret_cast<void*>(&fsConvolution));
    jit.defineSymbol("fs_trace_begin", reinterpret_cast<void*>(&fsTraceBegin));
    jit.defineSymbol("fs_trace_end", reinterpret_cast<void*>(&fsTraceEnd));
}

CpuGraphRunner::CpuGraphRunner(const LoweredGraph& graph, const RenderedModule& generated, std::shared_ptr<CompiledModule> module,
                               GraphTraceName traceName, std::map<std::string, int> inPlace)
    : inputs_(graph.inputs), outputs_(graph.outputs), symbols_(graph.symbols), inPlace_(std::move(inPlace)),
      module_(std::move(module)), traceName_(std::move(traceName)) {
    for (const auto& call : generated.tracedCalls) {
        TracedCallInfo info{call.name, {}, call.computes};
        for (const auto& b : call.buffers) info.buffers.push_back(graph.layoutOf(b));
        tracedCalls_.push_back(std::move(info));
    }
    for (const auto& name : generated.outputBuffers) outputBuffers_.push_back({name, graph.layoutOf(name)});
    call_ = reinterpret_cast<CallFn>(module_->symbol("call"));
    crashLabel_ = traceName_.eagerOp ? "the kernel of eager op " + traceName_.graphName
                                     : "graph " + traceName_.graphName + " (compile " + traceName_.compileId + ")";
    statusSites_ = graphStatusSites(graph);
}

std::vector<Tensor> CpuGraphRunner::operator()(const std::vector<Tensor>& inputs) const {
    SymbolValues symbols = symbolValues(symbols_, inputs);
    std::vector<void*> in;
    for (const auto& t : inputs) in.push_back(t.dataPtr());
    std::map<std::string, Tensor> buffers, writtenInto;
    std::vector<void*> out;
    for (const auto& [name, layout] : outputBuffers_) {
        Shape sizes = evaluate(layout.size, symbols);
        if (const Tensor* input = inPlaceTarget(name, layout, sizes, inputs, symbols)) {
            writtenInto[name] = *input;
            out.push_back(input->dataPtr());
            continue;
        }
        Tensor storage = Tensor::uninitialized({shapeNumel(sizes)}, layout.dtype);
        buffers[name] = storage;
        out.push_back(storage.dataPtr());
    }
    std::vector<int64_t> sizeArgs;
    for (const auto& s : symbols_) sizeArgs.push_back(evaluate(symbols[s.name], {}));
    int status;
    {
        RecordScope span(TraceCategory::UserAnnotation, graphCallSpanName(traceName_));
        TraceRecord* r = span.record();
        describeGraphCall(r, traceName_, inputs);
        ActiveCall active{this, &symbols, r ? r->rfId : 0};
        const ActiveCall* outer = std::exchange(activeCall, &active);
        const char* caller = running.exchange(crashLabel_.c_str(), std::memory_order_relaxed);
        status = call_(in.data(), out.data(), sizeArgs.data());
        running.store(caller, std::memory_order_relaxed);
        activeCall = outer;
    }
    if (status != 0) statusSites_.raise(status);

    return graphOutputs(outputs_, inputs_, buffers, inputs, symbols, writtenInto);
}

const Tensor* CpuGraphRunner::inPlaceTarget(const std::string& buffer, const FixedLayout& layout, const Shape& sizes,
                                            const std::vector<Tensor>& inputs, const SymbolValues& symbols) const {
    auto it = inPlace_.find(buffer);
    if (it == inPlace_.end()) return nullptr;
    const Tensor& input = inputs.at(static_cast<size_t>(it->second));
    if (!input.defined() || input.dtype() != layout.dtype || input.sizes() != sizes ||
        input.strides() != evaluate(layout.stride, symbols) || !input.storage())
        return nullptr;
    // Another input seeing the same memory would read the new values.
    for (size_t i = 0; i < inputs.size(); ++i)
        if (static_cast<int>(i) != it->second && inputs[i].defined() && inputs[i].storage() == input.storage()) return nullptr;
    return &input;
}

}  // namespace fusescope

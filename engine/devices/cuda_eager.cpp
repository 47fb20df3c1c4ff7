#include "devices/cuda_eager.h"

#include <algorithm>
#include <map>
#include <mutex>

#include <fmt/format.h>

#include "core/device_context.h"
#include "decompose/decompose.h"
#include "decompose/graph_builder.h"
#include "devices/device_backend.h"
#include "lower/lowering.h"
#include "runtime/cuda_driver.h"
#include "runtime/cuda_memory.h"

namespace fusescope {

namespace {

// Compiled signatures kept at most; later new signatures compute on the host. Each holds a
// loaded CUDA module, and a script that makes endless signatures (a new constant each call)
// would otherwise keep compiling.
constexpr size_t kMaxEagerGpuSignatures = 1024;

// How one signature runs: its compiled graph, or on the host (empty) and why.
struct EagerKernel {
    CompiledGraph run;
    std::string onHostBecause;
    size_t order = 0;  // when it was first seen
};

struct EagerKernelCache {
    std::mutex mutex;
    std::map<std::string, EagerKernel> bySignature;
};

EagerKernelCache& cache() {
    static EagerKernelCache c;
    return c;
}

bool isInPlace(const OpDef& op) { return baseOpName(op.name).ends_with("_"); }
bool hasOut(const BoundArgs& args) { return std::find(args.names.begin(), args.names.end(), "out") != args.names.end(); }

// The functional op an in-place one computes (add_ -> add, clamp_.Tensor -> clamp.Tensor),
// when it takes the same arguments.
const OpDef* functionalOf(const OpDef& inPlace, const BoundArgs& args) {
    std::string name = inPlace.name;
    name.erase(baseOpName(name).size() - 1, 1);
    const OpDef* functional = OpRegistry::instance().find(name);
    if (!functional || !functional->infer) return nullptr;
    const ParsedSchema& schema = OpRegistry::instance().parsed(*functional);  // cached: this runs per call
    if (schema.params.size() != args.names.size()) return nullptr;
    for (size_t i = 0; i < args.names.size(); ++i)
        if (schema.params[i].name != args.names[i]) return nullptr;
    return functional;
}

// A Python number the binding wrapped as a 0-dim tensor: a constant of the op's graph
// (compiled graphs see it so too), so each new value is a new signature.
bool isWrappedNumber(const IValue& v) { return v.isTensor() && v.toTensor().defined() && v.toTensor().impl()->wrappedNumber; }

IValue numberOf(const Tensor& wrapped) {
    switch (wrapped.dtype()) {
        case DType::Bool: return IValue(wrapped.item() != 0);
        case DType::Int64: return IValue(*wrapped.data<int64_t>());
        default: return IValue(wrapped.item());
    }
}

// The tensors of an argument, in order (a Tensor[] argument holds several).
void collectTensors(const IValue& v, std::vector<Tensor>& out) {
    if (isWrappedNumber(v)) return;
    if (v.isTensor()) {
        if (v.toTensor().defined()) out.push_back(v.toTensor());
    } else if (v.isSequence()) {
        for (const IValue& item : v.toSequence()->items) collectTensors(item, out);
    }
}

void appendSignature(const IValue& v, std::string& key) {
    if (isWrappedNumber(v)) {
        appendSignature(numberOf(v.toTensor()), key);
    } else if (v.isTensor()) {
        const Tensor& t = v.toTensor();
        if (!t.defined()) {
            key += "undefined";
            return;
        }
        key += fmt::format("{}{}/{}@{}", dtypeName(t.dtype()), fmt::join(t.sizes(), ","), fmt::join(t.strides(), ","),
                           t.device().str());
    } else if (v.isSequence()) {
        key += v.toSequence()->isTuple ? "(" : "[";
        for (const IValue& item : v.toSequence()->items) {
            appendSignature(item, key);
            key += ",";
        }
        key += v.toSequence()->isTuple ? ")" : "]";
    } else if (v.isNone()) {
        key += "None";
    } else if (v.isBool()) {
        key += v.toBool() ? "True" : "False";
    } else if (v.isInt()) {
        key += fmt::format("{}i", v.toInt());
    } else if (v.isDouble()) {
        key += fmt::format("{}f", v.toDouble());  // shortest text that reads back the same double
    } else if (v.isString()) {
        key += "'" + v.toString() + "'";
    } else if (v.isDType()) {
        key += dtypeName(v.toDType());
    } else if (v.isDevice()) {
        key += v.toDevice().str();
    }
}

std::string signatureOf(const OpDef& op, const BoundArgs& args) {
    std::string key = op.name;
    for (size_t i = 0; i < args.size(); ++i) {
        key += ";" + args.names[i] + "=";
        appendSignature(args.at(i), key);
    }
    return key;
}

// The graph argument for a bound value: each tensor becomes the next placeholder.
Argument graphArgument(const IValue& v, GraphBuilder& b, int& placeholders) {
    if (isWrappedNumber(v)) return Argument::value(numberOf(v.toTensor()));
    if (v.isTensor() && v.toTensor().defined()) {
        const Tensor& t = v.toTensor();
        TensorMeta meta{t.sizes(), t.strides(), t.dtype(), std::vector<std::string>(t.sizes().size())};
        return Argument::ref(b.placeholder(fmt::format("L['arg{}']", placeholders++), meta));
    }
    if (v.isSequence()) {
        std::vector<Argument> items;
        for (const IValue& item : v.toSequence()->items) items.push_back(graphArgument(item, b, placeholders));
        return Argument::sequence(std::move(items), v.toSequence()->isTuple);
    }
    return Argument::value(v);
}

// The op alone as a graph: its tensors are the inputs, its tensor results the outputs.
// Every argument goes by name, so the graph's call binds to this very overload.
std::shared_ptr<Graph> oneOpGraph(const OpDef& op, const BoundArgs& args, size_t results) {
    auto graph = std::make_shared<Graph>();
    GraphBuilder b(*graph);
    int placeholders = 0;
    ArgumentKwargs kwargs;
    for (size_t i = 0; i < args.size(); ++i) kwargs.emplace_back(args.names[i], graphArgument(args.at(i), b, placeholders));
    Node* call = b.call(op.name, {}, std::move(kwargs));
    std::vector<Argument> outputs;
    if (call->returnsTuple)
        for (size_t i = 0; i < results; ++i) outputs.push_back(Argument::ref(call, static_cast<int>(i)));
    else
        outputs.push_back(Argument::ref(call));
    graph->setOutputs(std::move(outputs));
    return graph;
}

std::string graphNameOf(const OpDef& op) {
    std::string name = "eager_" + op.name;
    std::replace(name.begin(), name.end(), '.', '_');
    return name;
}

// The op's graph compiled for the device, or why it computes on the host: no lowering,
// no CUDA extern kernel, a result that is an input or a view of one (eager's may be a fresh
// tensor there, and the graph's would alias the input), generated code that did not compile.
EagerKernel compileOneOp(const OpDef& op, const BoundArgs& args, size_t results, const Device& device) {
    ScheduledGraph g;
    try {
        g.graph = oneOpGraph(op, args, results);
        g.transformed = decomposeForInductor(*g.graph);
        g.lowered = lowerGraph(*g.transformed);
    } catch (const Error& e) {
        return {nullptr, fmt::format("not lowered: {}", e.what())};
    }
    for (const Buffer& b : g.lowered.buffers)
        if (b.kind == Buffer::Kind::Extern && b.externKernel != ExternKernelKind::Mm && b.externKernel != ExternKernelKind::Bmm)
            return {nullptr, fmt::format("no CUDA extern kernel for {}", externKernelName(b.externKernel))};
    for (const OutputSpec& o : g.lowered.outputs)
        if (!g.lowered.findBuffer(o.buffer)) return {nullptr, "a result is an input or a view of one"};
    g.lowered.setDevice(device);
    g.schedule = schedule(g.lowered);
    CompileRequest request;
    request.graphName = graphNameOf(op);
    request.device = device;
    request.eagerOp = true;
    try {
        return {compileOnDevice(cudaDevice(), g, request), ""};
    } catch (const ScriptError& e) {
        return {nullptr, fmt::format("generated code did not compile: {}", e.what())};
    }
}

// Same dtype, sizes and strides (a stride along a dim of one element or fewer is never used).
bool sameLayout(const Tensor& a, const Tensor& b) {
    if (a.dtype() != b.dtype() || a.sizes() != b.sizes()) return false;
    for (int64_t d = 0; d < a.dim(); ++d)
        if (a.sizes()[d] > 1 && a.strides()[d] != b.strides()[d]) return false;
    return true;
}

// An in-place op: its functional op's kernels write a fresh result, copied into `self` on
// the device. `self` must be contiguous (the copy is one block of bytes) and keep its
// dtype and sizes; else, and for an in-place op without a functional twin, the host
// computes it (and raises eager's errors).
std::optional<IValue> runInPlaceOnGpu(const OpDef& op, const BoundArgs& args, const Device& device) {
    const OpDef* functional = functionalOf(op, args);
    if (!functional || !op.infer || !args.size() || !args.at(0).isTensor()) return std::nullopt;
    const Tensor& self = args.at(0).toTensor();
    if (!self.defined() || self.device() != device || !self.isContiguous()) return std::nullopt;
    try {
        op.infer(args);  // eager's checks of the in-place op (a result type self cannot hold)
    } catch (const ScriptError&) {
        return std::nullopt;
    }
    std::optional<IValue> computed = runEagerOpOnGpu(*functional, args, device);
    if (!computed || !computed->isTensor()) return std::nullopt;
    const Tensor& result = computed->toTensor();
    if (result.dtype() != self.dtype() || result.sizes() != self.sizes()) return std::nullopt;
    if (size_t bytes = self.numel() * dtypeSize(self.dtype()))
        cudaCheck(cudaApi().cuMemcpyDtoD(cudaDataPtr(self), cudaDataPtr(result), bytes), "cuMemcpyDtoD");
    markDeviceWritten(self);
    return IValue(self);
}

}  // namespace

std::optional<IValue> runEagerOpOnGpu(const OpDef& op, const BoundArgs& args, const Device& device) {
    if (device.kind != Device::Kind::Cuda || !cudaKernelsRunOnGpu() || hasOut(args)) return std::nullopt;
    if (isInPlace(op)) return runInPlaceOnGpu(op, args, device);
    if ((!op.lowering && !op.decomposition) || !op.infer) return std::nullopt;
    std::vector<Tensor> inputs;
    for (const IValue& v : args.values_) collectTensors(v, inputs);
    for (const Tensor& t : inputs)
        if (t.device() != device) return std::nullopt;  // a CPU 0-dim tensor among them (not a Python number)
    // Eager's results, as meta tensors: the layout the GPU's must have.
    IValue expected = op.infer(args);
    std::vector<Tensor> expectedTensors;
    if (expected.isTensor()) {
        expectedTensors.push_back(expected.toTensor());
    } else if (expected.isSequence()) {
        for (const IValue& item : expected.toSequence()->items) {
            if (!item.isTensor()) return std::nullopt;
            expectedTensors.push_back(item.toTensor());
        }
    }
    if (expectedTensors.empty()) return std::nullopt;

    EagerKernelCache& c = cache();
    std::string key = signatureOf(op, args);
    CompiledGraph run;
    {
        std::lock_guard lock(c.mutex);
        auto it = c.bySignature.find(key);
        if (it == c.bySignature.end()) {
            if (c.bySignature.size() >= kMaxEagerGpuSignatures) return std::nullopt;
            EagerKernel compiled = compileOneOp(op, args, expectedTensors.size(), device);
            compiled.order = c.bySignature.size();
            it = c.bySignature.emplace(key, std::move(compiled)).first;
        }
        run = it->second.run;
    }
    if (!run) return std::nullopt;
    std::vector<Tensor> outputs = run(inputs);
    bool matches = outputs.size() == expectedTensors.size();
    for (size_t i = 0; matches && i < outputs.size(); ++i) matches = sameLayout(outputs[i], expectedTensors[i]);
    if (!matches) {  // the compiled graph chose another layout: this signature computes on the host from now on
        std::lock_guard lock(c.mutex);
        c.bySignature[key].run = nullptr;
        c.bySignature[key].onHostBecause = "the compiled result's layout differs from eager's";
        return std::nullopt;
    }
    if (expected.isTensor()) return IValue(outputs[0]);
    IValueList items(outputs.begin(), outputs.end());
    return expected.toSequence()->isTuple ? IValue::tuple(std::move(items)) : IValue::list(std::move(items));
}

std::vector<EagerGpuVerdict> eagerGpuVerdicts() {
    std::lock_guard lock(cache().mutex);
    std::vector<EagerGpuVerdict> verdicts(cache().bySignature.size());
    for (const auto& [key, kernel] : cache().bySignature)
        verdicts[kernel.order] = {key.substr(0, key.find(';')), kernel.onHostBecause};
    return verdicts;
}

}  // namespace fusescope

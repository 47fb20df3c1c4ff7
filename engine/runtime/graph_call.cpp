#include "runtime/graph_call.h"

#include "profile/trace_args.h"

namespace fusescope {

SymbolValues symbolValues(const std::vector<SymbolSource>& symbols, const std::vector<Tensor>& inputs) {
    SymbolValues values;
    for (const auto& s : symbols) {
        const Tensor& input = inputs.at(s.placeholder);
        values[s.name] = IndexExpr(s.stride ? input.strides().at(s.dim) : input.sizes().at(s.dim));
    }
    return values;
}

int64_t evaluate(const IndexExpr& e, const SymbolValues& symbols) {
    auto v = e.substitute(symbols).constant();
    if (!v) throw Error("internal error: size " + e.str() + " depends on an unknown symbol");
    return *v;
}

Shape evaluate(const std::vector<IndexExpr>& values, const SymbolValues& symbols) {
    Shape out;
    for (const auto& v : values) out.push_back(evaluate(v, symbols));
    return out;
}

namespace {

SourceLocation integerDivisionSite(const LoweredGraph& graph) {
    for (const auto& b : graph.buffers)
        for (const auto& op : b.body.ops)
            if ((op.kind == LoopOpKind::FloorDiv || op.kind == LoopOpKind::Mod || op.kind == LoopOpKind::TruncDiv) &&
                !isFloating(op.dtype))
                for (const Node* origin : b.origins)
                    if (!origin->meta.empty() && !isFloating(origin->meta[0].dtype) &&
                        (origin->target == "remainder" || origin->target == "floor_divide" || origin->target == "div") &&
                        origin->where.known())
                        return origin->where;
    return {};
}

// The first op whose indices a kernel checks, and where it is.
std::pair<SourceLocation, std::string> indexCheckSite(const LoweredGraph& graph) {
    for (const auto& b : graph.buffers)
        for (const auto& op : b.body.ops)
            if (op.kind == LoopOpKind::CheckIndex)
                for (const Node* origin : b.origins)
                    if ((origin->target == "embedding" || origin->target == "index_select" || origin->target == "gather") &&
                        origin->where.known())
                        return {origin->where, origin->target};
    return {};
}

}  // namespace

GraphStatusSites graphStatusSites(const LoweredGraph& graph) {
    auto [index, indexOp] = indexCheckSite(graph);
    return {integerDivisionSite(graph), index, indexOp};
}

void GraphStatusSites::raise(int status) const {
    // gather: what torch.compile's generated code raises (eager's message names the index).
    if (status == 2 && indexOp == "gather") throw ScriptError("RuntimeError", "index out of bounds", index);
    if (status == 2) throw ScriptError("IndexError", "index out of range in self", index);
    throw ScriptError("RuntimeError", "ZeroDivisionError", division);
}

std::vector<Tensor> graphOutputs(const std::vector<OutputSpec>& outputs, const std::vector<InputBuffer>& inputBuffers,
                                 const std::map<std::string, Tensor>& buffers, const std::vector<Tensor>& inputs,
                                 const SymbolValues& symbols, const std::map<std::string, Tensor>& writtenInto) {
    std::vector<Tensor> results;
    for (const auto& o : outputs) {
        Shape sizes = evaluate(o.view.size, symbols), strides = evaluate(o.view.stride, symbols);
        int64_t offset = evaluate(o.view.offset, symbols);
        if (auto it = buffers.find(o.buffer); it != buffers.end()) {
            results.push_back(it->second.asStrided(sizes, strides, offset));
            continue;
        }
        if (auto it = writtenInto.find(o.buffer); it != writtenInto.end()) {
            results.push_back(it->second.asStrided(sizes, strides, it->second.storageOffset() + offset));
            continue;
        }
        for (const auto& input : inputBuffers)
            if (input.name == o.buffer) {
                const Tensor& t = inputs.at(input.placeholder);
                results.push_back(t.asStrided(sizes, strides, t.storageOffset() + offset));
            }
    }
    return results;
}

std::string graphCallSpanName(const GraphTraceName& name) { return "## Call CompiledFxGraph " + name.graphName + " ##"; }

void describeGraphCall(TraceRecord* r, const GraphTraceName& name, const std::vector<Tensor>& inputs) {
    if (!r) return;
    r->compileId = name.compileId;
    for (const auto& t : inputs) appendTraceArg(r->inputs, IValue(t));
}

}  // namespace fusescope

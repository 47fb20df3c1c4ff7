#include "lower/lowering.h"

#include <algorithm>
#include <set>
#include <stdexcept>

#include <fmt/format.h>

#include "lower/blas_layout.h"
#include "lower/lowering_context.h"
#include "lower/op_lowering.h"

namespace fusescope {

int LValue::load(LoopBodyBuilder& b, const std::vector<IndexExpr>& index) const {
    if (storageBacked()) return b.load(buffer, view.indexOf(index).simplify(b.ranges()), dtype);
    return inner(b, index);
}

LValue LoweringArgs::fromTensor(const Tensor& t) const {
    if (auto it = values_.find(t.impl()); it != values_.end()) return *it->second;
    if (t.isMeta() || t.numel() != 1 || t.dim() != 0)
        throw LoweringUnsupported("a constant tensor argument (only Python numbers are inlined)");
    LValue v;
    v.dtype = t.dtype();
    v.wrappedNumber = t.isWrappedNumber();
    double value = t.item();
    DType dtype = t.dtype();
    v.scalar = value;
    v.inner = [value, dtype](LoopBodyBuilder& b, const std::vector<IndexExpr>&) { return b.constant(value, dtype); };
    return v;
}

LValue LoweringArgs::tensor(std::string_view name) const {
    const IValue& v = bound_[name];
    if (v.isNumber()) {
        // A Python number in a Scalar slot (clamp's min): a constant like a wrapped number.
        DType dtype = v.isBool() ? DType::Bool : v.isInt() ? DType::Int64 : DType::Float64;
        Tensor t = Tensor::scalar(v.toDouble(), dtype);
        t.impl()->wrappedNumber = true;
        return fromTensor(t);
    }
    return fromTensor(bound_.tensor(name));
}

std::vector<LValue> LoweringArgs::tensors(std::string_view name) const {
    std::vector<LValue> out;
    for (const auto& item : bound_[name].toSequence()->items) out.push_back(fromTensor(item.toTensor()));
    return out;
}

int64_t normalizeDim(int64_t dim, size_t rank) {
    int64_t r = std::max<int64_t>(static_cast<int64_t>(rank), 1);
    return dim < 0 ? dim + r : dim;
}

std::vector<IndexExpr> broadcastIndex(const std::vector<IndexExpr>& index, const std::vector<IndexExpr>& sizes) {
    std::vector<IndexExpr> out(sizes.size());
    size_t shift = index.size() - sizes.size();
    for (size_t d = 0; d < sizes.size(); ++d) out[d] = sizes[d] == IndexExpr(1) ? IndexExpr(0) : index[d + shift];
    return out;
}

const TensorMeta& LoweringContext::meta(size_t result) const { return node->meta.at(result); }

namespace {

std::vector<IndexExpr> sizesOf(const TensorMeta& m) {
    std::vector<IndexExpr> out;
    for (size_t d = 0; d < m.sizes.size(); ++d)
        out.push_back(d < m.symbols.size() && !m.symbols[d].empty() ? IndexExpr::parse(m.symbols[d]) : IndexExpr(m.sizes[d]));
    return out;
}

bool hasSymbols(const TensorMeta& m) {
    return std::any_of(m.symbols.begin(), m.symbols.end(), [](const std::string& s) { return !s.empty(); });
}

std::vector<IndexExpr> stridesOf(const TensorMeta& m) {
    // A placeholder capture did not describe the strides of: contiguous where it is now.
    if (m.strideSymbols.empty() && hasSymbols(m) && m.strides == fusescope::contiguousStrides(m.sizes))
        return contiguousStrides(sizesOf(m));
    std::vector<IndexExpr> out;
    for (size_t d = 0; d < m.strides.size(); ++d)
        out.push_back(d < m.strideSymbols.size() && !m.strideSymbols[d].empty() ? IndexExpr::parse(m.strideSymbols[d])
                                                                                 : IndexExpr(m.strides[d]));
    return out;
}

// Non-overlapping and dense: some permutation of the dims is contiguous.
bool isDense(const Shape& sizes, const Shape& strides) {
    std::vector<size_t> order(sizes.size());
    for (size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::sort(order.begin(), order.end(), [&](size_t a, size_t b) { return strides[a] < strides[b]; });
    int64_t expected = 1;
    for (size_t d : order) {
        if (sizes[d] == 1) continue;
        if (strides[d] != expected) return false;
        expected *= sizes[d];
    }
    return true;
}

std::vector<IndexExpr> constants(const Shape& values) { return std::vector<IndexExpr>(values.begin(), values.end()); }

void checkDtype(DType t) {
    if (t == DType::Float16 || t == DType::BFloat16 || isComplex(t))
        throw LoweringUnsupported(fmt::format("{} tensors (the CPU code generator handles float32/64, int32/64 and bool)",
                                              dtypeName(t)));
}

}  // namespace

std::vector<IndexExpr> LoweringContext::outputSizes(size_t result) const { return sizesOf(meta(result)); }

FixedLayout LoweringContext::contiguousLayout(const std::vector<IndexExpr>& sizes, DType dtype) const {
    checkDtype(dtype);
    FixedLayout l;
    l.dtype = dtype;
    l.size = sizes;
    l.stride = contiguousStrides(sizes);
    return l;
}

FixedLayout LoweringContext::orderedLayout(const std::vector<IndexExpr>& sizes, DType dtype, const std::vector<size_t>& order) const {
    FixedLayout l = contiguousLayout(sizes, dtype);
    IndexExpr stride(1);
    for (size_t i = order.size(); i-- > 0;) {
        l.stride[order[i]] = stride;
        stride = stride * sizes[order[i]];
    }
    return l;
}

std::vector<size_t> memoryOrderOf(const FixedLayout& layout) {
    const size_t rank = layout.size.size();
    std::vector<size_t> order(rank);
    for (size_t d = 0; d < rank; ++d) order[d] = d;
    std::vector<int64_t> stride(rank), size(rank);
    for (size_t d = 0; d < rank; ++d) {
        auto k = layout.stride[d].constant(), n = layout.size[d].constant();
        if (!k || !n) return {};
        stride[d] = *k, size[d] = *n;
    }
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return stride[a] > stride[b]; });
    int64_t expected = 1;
    for (size_t i = rank; i-- > 0;) {
        if (size[order[i]] != 1 && stride[order[i]] != expected) return {};
        expected *= size[order[i]];
    }
    for (size_t d = 0; d < rank; ++d)
        if (order[d] != d) return order;
    return {};
}

void LoweringContext::unsupported(const std::string& what) const { throw LoweringUnsupported(what); }

LValue LoweringContext::lazy(std::vector<IndexExpr> sizes, DType dtype,
                             std::function<int(LoopBodyBuilder&, const std::vector<IndexExpr>&)> inner,
                             const std::vector<LValue>& from) const {
    LValue v;
    v.sizes = std::move(sizes);
    v.dtype = dtype;
    v.inner = std::move(inner);
    for (const auto& f : from) {
        v.reads += f.storageBacked() ? 1 : f.reads;
        v.ops += f.storageBacked() ? 0 : f.ops;
        if (f.storageBacked()) continue;  // a buffer's work was done where it was written
        for (const Node* n : f.origins)
            if (std::find(v.origins.begin(), v.origins.end(), n) == v.origins.end()) v.origins.push_back(n);
    }
    if (node && std::find(v.origins.begin(), v.origins.end(), node) == v.origins.end()) v.origins.push_back(node);
    for (const auto& f : from)
        if (!f.memoryOrder.empty() && f.sizes == v.sizes) {
            v.memoryOrder = f.memoryOrder;
            break;
        }
    ++v.ops;
    return v;
}

namespace {

std::vector<std::string> varNames(size_t n, size_t first = 0) {
    std::vector<std::string> out;
    for (size_t i = 0; i < n; ++i) out.push_back(fmt::format("z{}", first + i));
    return out;
}

LValue storageValue(const Buffer& buffer, std::vector<const Node*> origins) {
    LValue v;
    v.sizes = buffer.layout.size;
    v.dtype = buffer.layout.dtype;
    v.buffer = buffer.name;
    v.view = buffer.layout;
    v.origins = std::move(origins);
    v.reads = 1;
    return v;
}

}  // namespace

LValue LoweringContext::realize(const LValue& value, const FixedLayout* layout, std::string reason) {
    if (value.storageBacked() && !layout) return value;
    if (layout && layout->size.size() != value.sizes.size())
        throw std::logic_error("realize: a layout of rank " + std::to_string(layout->size.size()) + " for a value of rank " +
                               std::to_string(value.sizes.size()));
    Buffer buffer;
    buffer.name = newBufferName();
    buffer.realizedBecause = std::move(reason);
    const bool ordered = !layout && value.memoryOrder.size() == value.sizes.size();
    const std::vector<size_t> order = ordered ? value.memoryOrder : std::vector<size_t>{};
    buffer.layout = layout ? *layout : order.empty() ? contiguousLayout(value.sizes, value.dtype)
                                                     : orderedLayout(value.sizes, value.dtype, order);
    checkDtype(buffer.layout.dtype);
    buffer.origins = value.origins;
    buffer.ranges = value.sizes;
    for (size_t i = 0; i < order.size(); ++i) buffer.ranges[i] = value.sizes[order[i]];
    LoopBodyBuilder b(varNames(value.sizes.size()), buffer.ranges, 0);
    std::vector<IndexExpr> index = b.varExprs();
    if (!order.empty()) {  // loop i runs over dim order[i]
        std::vector<IndexExpr> loops = index;
        for (size_t i = 0; i < order.size(); ++i) index[order[i]] = loops[i];
    }
    int v = value.load(b, index);
    b.store(buffer.name, buffer.layout.indexOf(index), b.toDtype(v, buffer.layout.dtype));
    buffer.body = simplifyLoops(b.finish());
    out_.addBuffer(std::move(buffer));
    LValue stored = storageValue(out_.buffers.back(), value.origins);
    stored.memoryOrder = order;
    return stored;
}

LValue LoweringContext::reduce(const LValue& input, std::vector<int64_t> dims, bool keepdim, ReductionKind type,
                               DType outDtype) {
    size_t rank = input.sizes.size();
    if (dims.empty())
        for (size_t d = 0; d < rank; ++d) dims.push_back(static_cast<int64_t>(d));
    std::set<size_t> reduced;
    for (int64_t d : dims) reduced.insert(static_cast<size_t>(normalizeDim(d, rank)));

    std::vector<IndexExpr> pointwiseSizes, reductionSizes, outSizes;
    for (size_t d = 0; d < rank; ++d) {
        if (reduced.count(d)) {
            reductionSizes.push_back(input.sizes[d]);
            if (keepdim) outSizes.push_back(IndexExpr(1));
        } else {
            pointwiseSizes.push_back(input.sizes[d]);
            outSizes.push_back(input.sizes[d]);
        }
    }
    Buffer buffer;
    buffer.name = newBufferName();
    buffer.layout = contiguousLayout(outSizes, outDtype);
    LValue from = lazy({}, input.dtype, nullptr, {input});
    buffer.origins = from.origins;
    buffer.ranges = pointwiseSizes;
    buffer.reductionRanges = reductionSizes;
    buffer.reductionKind = type;
    buffer.realizedBecause = "a reduction";

    std::vector<IndexExpr> ranges = pointwiseSizes;
    ranges.insert(ranges.end(), reductionSizes.begin(), reductionSizes.end());
    LoopBodyBuilder b(varNames(ranges.size()), ranges, reductionSizes.size());
    std::vector<IndexExpr> vars = b.varExprs();
    std::vector<IndexExpr> inIndex, outIndex;
    size_t p = 0, r = pointwiseSizes.size();
    for (size_t d = 0; d < rank; ++d) {
        if (reduced.count(d)) {
            inIndex.push_back(vars[r++]);
            if (keepdim) outIndex.push_back(IndexExpr(0));
        } else {
            inIndex.push_back(vars[p]);
            outIndex.push_back(vars[p++]);
        }
    }
    int v = input.load(b, inIndex);
    bool accumulates = type == ReductionKind::Sum || type == ReductionKind::Prod;
    if (accumulates) v = b.toDtype(v, outDtype);
    if (type == ReductionKind::Any || type == ReductionKind::All) v = b.toDtype(v, DType::Bool);
    int result = b.reduction(outDtype, b.dtypeOf(v), type, v);
    b.storeReduction(buffer.name, buffer.layout.indexOf(outIndex), result);
    buffer.body = simplifyLoops(b.finish());
    out_.addBuffer(std::move(buffer));
    return storageValue(out_.buffers.back(), out_.buffers.back().origins);
}

LValue LoweringContext::blasOperand(const LValue& value) {
    if (value.dtype != DType::Float32 && value.dtype != DType::Float64)
        unsupported(fmt::format("matrix products of {} tensors (BLAS takes float32/float64)", dtypeName(value.dtype)));
    if (value.storageBacked() && blasLayout(value.view)) return value;
    FixedLayout layout = contiguousLayout(value.sizes, value.dtype);
    return realize(value, &layout, "an operand of a matrix product (BLAS reads row- or column-major storage)");
}

LValue LoweringContext::extern_(ExternKernelKind kernel, std::vector<LValue> operands, FixedLayout layout, std::vector<int64_t> args) {
    Buffer buffer;
    buffer.kind = Buffer::Kind::Extern;
    buffer.realizedBecause = fmt::format("the result of extern kernel {}", externKernelName(kernel));
    buffer.name = newBufferName();
    buffer.layout = std::move(layout);
    buffer.externKernel = kernel;
    buffer.externArgs = std::move(args);
    buffer.origins = lazy({}, buffer.layout.dtype, nullptr, operands).origins;
    for (const auto& op : operands) buffer.operands.push_back(ExternOperand{op.buffer, op.view});
    out_.addBuffer(std::move(buffer));
    LValue result = storageValue(out_.buffers.back(), {node});
    result.memoryOrder = memoryOrderOf(result.view);
    return result;
}

namespace {

bool isSymInt(const Argument& a) { return a.kind == Argument::Kind::NodeRef && !a.node->symbolicScalar.empty(); }

// Graph values a node's arguments refer to, as meta tensors for binding.
class ArgumentBinder {
public:
    ArgumentBinder(const std::map<const Node*, std::vector<LValue>>& values, const Node& node)
        : values_(values), node_(node), sizesFromMeta_(takesSizesFromMeta(node)) {}
    // Argument `position` of the node: a SymInt length that the rule takes from the result's
    // meta (narrow's, in a dynamic graph's backward of a cat) binds as any int.
    IValue argument(size_t position, const Argument& a) {
        if (isSymInt(a) && node_.target == "narrow" && position == 3) return IValue(int64_t{-1});
        return (*this)(a);
    }
    IValue operator()(const Argument& a) {
        switch (a.kind) {
        case Argument::Kind::Constant: return a.constant;
        case Argument::Kind::List:
        case Argument::Kind::Tuple: {
            IValueList items;
            for (const auto& item : a.items) {
                // A SymInt in the sizes of an op whose rule takes its sizes from the result's
                // meta (expand(g, [s77, 3]) in a dynamic graph's backward): any int binds.
                items.push_back(isSymInt(item) && sizesFromMeta_ ? IValue(int64_t{-1}) : (*this)(item));
            }
            return a.kind == Argument::Kind::Tuple ? IValue::tuple(items) : IValue::list(items);
        }
        case Argument::Kind::NodeRef: break;
        }
        size_t result = a.outputIndex < 0 ? 0 : static_cast<size_t>(a.outputIndex);
        Tensor t;
        if (!a.node->symbolicScalar.empty()) {  // a SymInt operand: as a Python int, computed from the symbols
            t = Tensor::emptyMeta({}, {}, DType::Int64);
            t.impl()->wrappedNumber = true;
        } else {
            const TensorMeta& m = a.node->meta.at(result);
            t = Tensor::emptyMeta(m.sizes, m.strides, m.dtype);
        }
        keep_.push_back(t);
        map_[t.impl()] = &values_.at(a.node).at(result);
        return IValue(t);
    }
    std::map<const TensorImpl*, const LValue*> map() const { return map_; }

private:
    // The ops whose lowering rule reads the result's sizes from its meta, never its size
    // arguments (opdefs/views.cpp, creation.cpp).
    static bool takesSizesFromMeta(const Node& node) {
        static const std::set<std::string> ops = {"expand", "view", "reshape", "zeros", "ones"};
        return ops.count(node.target) > 0;
    }
    const std::map<const Node*, std::vector<LValue>>& values_;
    const Node& node_;
    const bool sizesFromMeta_;
    std::vector<Tensor> keep_;
    std::map<const TensorImpl*, const LValue*> map_;
};

// A SymInt the graph computes with (x.sum(0) * x.shape[0]): its expression over the size
// symbols, computed where it is read (Inductor's index_expr), a Python int to type promotion.
LValue symIntValue(const Node& node, const LoweredGraph& graph) {
    if (node.target.starts_with("sym_float") || node.target == "item")
        throw LoweringUnsupported(fmt::format("{} (node {}): a Python float computed in the graph", node.target, node.name));
    const IndexExpr value = IndexExpr::parse(node.symbolicScalar);
    for (const std::string& symbol : value.symbols())
        if (std::none_of(graph.symbols.begin(), graph.symbols.end(), [&](const SymbolSource& s) { return s.name == symbol; }))
            throw LoweringUnsupported(fmt::format("{} (node {}): {} is no input's size", node.target, node.name, symbol));
    LValue v;
    v.dtype = DType::Int64;
    v.wrappedNumber = true;
    v.ops = 1;
    v.inner = [value](LoopBodyBuilder& b, const std::vector<IndexExpr>&) { return b.indexExpr(value, DType::Int64); };
    return v;
}

std::map<const Node*, int> userCounts(const Graph& graph) {
    std::map<const Node*, int> users;
    std::function<void(const Argument&)> count = [&](const Argument& a) {
        if (a.kind == Argument::Kind::NodeRef) ++users[a.node];
        for (const auto& item : a.items) count(item);
    };
    for (const auto& n : graph.nodes()) {
        if (!n->symbolicScalar.empty()) continue;  // reading a size loads nothing
        for (const auto& a : n->args) count(a);
        for (const auto& [k, a] : n->kwargs) count(a);
    }
    for (const auto& a : graph.outputs()) count(a);
    return users;
}

// Nodes whose value a matrix product reads, directly or through views: the product needs it
// in memory, so a second user might as well read that memory than compute it again (and a
// transposed use -- a weight's gradient -- is then a transposed BLAS operand, not a copy).
std::set<const Node*> matrixProductOperands(const Graph& graph) {
    static const std::set<std::string> products = {"mm", "bmm", "addmm", "baddbmm"};
    static const std::set<std::string> views = {"reshape", "view", "t", "transpose", "permute", "contiguous",
                                                "unsqueeze", "squeeze", "expand"};
    std::set<const Node*> operands;
    std::function<void(const Argument&)> mark = [&](const Argument& a) {
        if (a.kind != Argument::Kind::NodeRef || !operands.insert(a.node).second) return;
        if (views.count(a.node->target) && !a.node->args.empty()) mark(a.node->args[0]);
    };
    for (const auto& n : graph.nodes())
        if (products.count(n->target))
            for (const auto& a : n->args) mark(a);
    return operands;
}

// Why inductor's limits make a lazy value with `users` users a buffer ("" when it stays
// inlined), in the order inductor checks them.
std::string realizeReason(const LValue& v, int users, const InductorConfig& c) {
    if (users > 1 && v.reads > c.realizeReadsThreshold)
        return fmt::format("read by {} users, and one element loads {} values (realize_reads_threshold = {})", users, v.reads,
                           c.realizeReadsThreshold);
    if (users > 1 && v.ops > c.realizeOpcountThreshold)
        return fmt::format("read by {} users, and one element computes {} ops (realize_opcount_threshold = {})", users, v.ops,
                           c.realizeOpcountThreshold);
    if (v.reads > c.realizeAccReadsThreshold)
        return fmt::format("one element loads {} values (realize_acc_reads_threshold = {})", v.reads, c.realizeAccReadsThreshold);
    if (v.ops > kLargeInlinedBodyOps) return fmt::format("one element computes {} ops (more than {})", v.ops, kLargeInlinedBodyOps);
    return "";
}

}  // namespace

LoweredGraph lowerGraph(const Graph& graph, const CompileSettings& settings) {
    LoweredGraph out;
    LoweringContext ctx(out, settings);
    std::map<const Node*, std::vector<LValue>> values;
    std::map<const Node*, int> users = userCounts(graph);
    std::set<const Node*> productOperands = matrixProductOperands(graph);
    const OpRegistry& registry = OpRegistry::instance();

    int placeholder = 0;
    for (const auto& node : graph.nodes()) {
        if (node->op == NodeOp::Placeholder) {
            const TensorMeta& m = node->meta.at(0);
            InputBuffer in;
            in.name = fmt::format("arg{}_1", placeholder);
            in.placeholder = placeholder;
            in.node = node.get();
            in.layout.dtype = m.dtype;
            checkDtype(m.dtype);
            in.layout.size = sizesOf(m);
            in.layout.stride = stridesOf(m);
            // Each symbol is read from the first input whose size (or stride) it is.
            auto addSymbols = [&](const std::vector<std::string>& symbols, bool ofStrides) {
                for (size_t d = 0; d < symbols.size(); ++d) {
                    const std::string& s = symbols[d];
                    bool known = std::any_of(out.symbols.begin(), out.symbols.end(), [&](const SymbolSource& x) { return x.name == s; });
                    if (!s.empty() && !known && IndexExpr::parse(s) == IndexExpr::symbol(s))
                        out.symbols.push_back(SymbolSource{s, placeholder, static_cast<int>(d), ofStrides});
                }
            };
            addSymbols(m.symbols, false);
            addSymbols(m.strideSymbols, true);
            LValue v;
            v.sizes = in.layout.size;
            v.dtype = m.dtype;
            v.buffer = in.name;
            v.view = in.layout;
            v.reads = 1;
            values[node.get()] = {v};
            out.inputs.push_back(std::move(in));
            ++placeholder;
            continue;
        }
        if (node->op != NodeOp::CallFunction && node->op != NodeOp::CallMethod) continue;
        if (!node->symbolicScalar.empty()) {
            values[node.get()] = {symIntValue(*node, out)};
            continue;
        }
        ctx.node = node.get();
        try {
            ArgumentBinder bind(values, *node);
            IValueList args;
            for (size_t i = 0; i < node->args.size(); ++i) args.push_back(bind.argument(i, node->args[i]));
            Kwargs kwargs;
            for (const auto& [k, a] : node->kwargs) kwargs.emplace_back(k, bind(a));
            auto [def, bound] = registry.resolve(node->target, args, kwargs);
            if (!def->lowering) throw LoweringUnsupported(fmt::format("{} ({})", def->name, def->runsEagerlyBecause));
            std::vector<LValue> results = def->lowering->rule(ctx, LoweringArgs(bound, bind.map()));
            for (auto& r : results) {
                checkDtype(r.dtype);
                if (r.storageBacked()) continue;
                std::string reason = realizeReason(r, users[node.get()], settings.inductor);
                if (reason.empty() && users[node.get()] > 1 && productOperands.count(node.get()))
                    reason = fmt::format("read by {} users, one of them a matrix product that reads it from memory",
                                         users[node.get()]);
                if (!reason.empty()) r = ctx.realize(r, nullptr, std::move(reason));
            }
            values[node.get()] = std::move(results);
        } catch (const Error& e) {
            // Anything a rule could not handle (an argument form it did not expect) is a gap
            // in the lowering, never a script error: the graph then runs eagerly.
            throw LoweringUnsupported(fmt::format("{} (node {}, {})", e.what(), node->name,
                                                  node->where.known() ? node->where.str() : "unknown line"),
                                      node->where);
        }
    }

    ctx.node = nullptr;
    for (const auto& a : graph.outputs()) {
        if (a.kind != Argument::Kind::NodeRef) throw LoweringUnsupported("a graph output that is not a tensor");
        size_t result = a.outputIndex < 0 ? 0 : static_cast<size_t>(a.outputIndex);
        LValue v = values.at(a.node).at(result);
        const TensorMeta& m = a.node->meta.at(result);
        const bool eagerStrides = !hasSymbols(m) && isDense(m.sizes, m.strides);
        // A buffer laid out in another order than row-major (a channels-last convolution's
        // output), or a view of one, whose strides are not eager's is copied into eager's
        // strides: callers see the strides eager gives.
        auto reordered = [&](const std::string& name) {
            for (const Buffer& b : out.buffers)
                if (b.name == name) return !memoryOrderOf(b.layout).empty();
            return false;
        };
        const bool otherOrder = v.storageBacked() && eagerStrides && v.view.stride != constants(m.strides) && reordered(v.buffer);
        if (!v.storageBacked() || otherOrder) {
            FixedLayout layout = ctx.contiguousLayout(v.sizes, v.dtype);
            if (eagerStrides) layout.stride = constants(m.strides);
            v = ctx.realize(v, &layout, "a graph output");
        }
        out.outputs.push_back(OutputSpec{v.buffer, v.view});
    }
    return out;
}

}  // namespace fusescope

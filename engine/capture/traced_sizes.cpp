// SymInts while a compiled function is traced, as PyTorch's Dynamo makes them: a size of a
// dynamic dim read into a Python int (x.shape[0], x.size(1)) is a graph node
// (aten.sym_size.int), and so is int arithmetic on it (+ - * //), so that the graph computes
// it for every size its guards admit and the code does not recompile per size. A comparison
// is answered for this call and guarded (L['x'].size()[1] <= 8); any other use reads it as a
// plain int, which specializes it (a guard on its size), as PyTorch does.
#include <algorithm>
#include <functional>
#include <map>
#include <set>
#include <unordered_map>

#include <fmt/format.h>

#include "capture/tracer.h"
#include "lower/index_expr.h"

namespace fusescope {

// A SymInt of one of the tracer's graphs: the node computing it and what it computes.
class TracedSize : public SymbolicInt {
public:
    TracedSize(int64_t hint, std::weak_ptr<Tracer*> tracer, uint64_t generation, Node* node, SizeExpressionPtr expression)
        : SymbolicInt(hint), tracer_(std::move(tracer)), generation_(generation), node_(node), expression_(std::move(expression)) {}

    void specialize() const override {
        std::shared_ptr<Tracer*> tracer = tracer_.lock();
        // Read by the instruction that broke the graph (print(n)), which runs eagerly: Dynamo
        // hands it the graph's value, unguarded.
        if (!tracer || (*tracer)->pendingResume_) return;
        for (const SizeExpression* size : expression_->leaves()) {
            if (const auto* origin = (*tracer)->symbolOrigin(size->symbol))
                (*tracer)->specializeDim(size->source, size->dim, size->symbol, origin->size);
            else (*tracer)->specializeInt(size->symbol);
        }
    }
    // Its node, while `tracer` is tracing the graph that holds it.
    Node* nodeIn(const Tracer& tracer) const {
        std::shared_ptr<Tracer*> owner = tracer_.lock();
        return owner && *owner == &tracer && generation_ == tracer.graphGeneration_ ? node_ : nullptr;
    }
    const SizeExpressionPtr& expression() const { return expression_; }
    bool sameAs(const SymbolicInt& other) const override {
        const auto* size = dynamic_cast<const TracedSize*>(&other);
        return size && !tracer_.owner_before(size->tracer_) && !size->tracer_.owner_before(tracer_) &&
               expression_->str() == size->expression_->str();
    }

private:
    std::weak_ptr<Tracer*> tracer_;
    uint64_t generation_;
    Node* node_;
    SizeExpressionPtr expression_;
};

namespace {

const TracedSize* tracedSizeOf(const Value& value) {
    const SymbolicIntPtr* symbolic = value.symbolic();
    return symbolic ? dynamic_cast<const TracedSize*>(symbolic->get()) : nullptr;
}

}  // namespace

namespace {

// Whether `node` is a SymInt every reader of which takes it as an operand of arithmetic or a
// comparison (x.sum(0) * x.shape[0]), or computes another such SymInt: the lowering computes it
// from the size symbols where it is used (lower/lowering.cpp), as Inductor's index_expr does.
bool computedFromSymbols(const Graph& graph, const Node& node) {
    static const std::set<std::string> operandOf = {"add", "sub", "rsub", "mul", "div", "true_divide", "floor_divide", "remainder",
                                                     "pow", "eq", "ne", "lt", "le", "gt", "ge", "maximum", "minimum"};
    if (node.symbolicScalar.empty() || (node.target != "sym_size" && !node.target.starts_with("sym_")) ||
        node.target.starts_with("sym_float"))
        return false;
    std::function<bool(const Argument&)> refers = [&](const Argument& a) {
        return (a.kind == Argument::Kind::NodeRef && a.node == &node) || std::any_of(a.items.begin(), a.items.end(), refers);
    };
    if (std::any_of(graph.outputs().begin(), graph.outputs().end(), refers)) return false;  // a graph output: a Python int
    for (const auto& reader : graph.nodes()) {
        auto nested = [&](const Argument& a) {
            return std::any_of(a.items.begin(), a.items.end(), [&](const Argument& item) { return item.kind == Argument::Kind::NodeRef && item.node == &node; });
        };
        bool reads = false;
        for (const Argument& a : reader->args) {
            if (nested(a)) return false;  // a size in a list (torch.ones((n,))): not a number operand
            reads = reads || (a.kind == Argument::Kind::NodeRef && a.node == &node);
        }
        for (const auto& [name, a] : reader->kwargs)
            if (nested(a) || (a.kind == Argument::Kind::NodeRef && a.node == &node)) return false;
        if (reads && !operandOf.count(reader->target) && !computedFromSymbols(graph, *reader)) return false;
    }
    return true;
}

}  // namespace

std::string symbolicScalarNodes(const Graph& graph) {
    for (const auto& node : graph.nodes())
        if (!node->symbolicScalar.empty() && !computedFromSymbols(graph, *node))
            return fmt::format("{} (node {}) {}", node->target, node->name,
                               OpRegistry::instance().find(node->target)->runsEagerlyBecause);
    return "";
}

Node* Tracer::nodeOf(const SymbolicInt& value) const {
    const auto* size = dynamic_cast<const TracedSize*>(&value);
    return size ? size->nodeIn(*this) : nullptr;
}

namespace {

// Whether dim `d` of `meta` is symbolic (a meta whose sizes were not followed has no symbols).
bool symbolicDim(const TensorMeta& meta, size_t d) { return d < meta.symbols.size() && !meta.symbols[d].empty(); }

// A view or reshape whose result has at most one symbolic dim (and no empty one) gets the
// same result for every size from its meta, that dim -1: numel fixes it.
std::optional<IValue> sizesFromMeta(const Node& node) {
    if ((node.target != "view" && node.target != "reshape") || node.meta.size() != 1 || node.args.empty()) return std::nullopt;
    const TensorMeta& meta = node.meta[0];
    Shape sizes = meta.sizes;
    int symbolic = 0;
    for (size_t d = 0; d < sizes.size(); ++d) {
        if (symbolicDim(meta, d)) sizes[d] = -1, ++symbolic;
        else if (sizes[d] == 0) return std::nullopt;
    }
    if (symbolic > 1) return std::nullopt;
    return IValue::intList(sizes);
}

// A slice to a SymInt end whose result is its input's whole static dim (the end guarded past
// it: Tracer::guardEndPastDim) ends at that dim's size for every end its guards admit.
std::optional<IValue> wholeDimEnd(const Node& node) {
    if (node.target != "slice" || node.args.size() != 5 || node.args[3].kind != Argument::Kind::NodeRef ||
        node.args[0].kind != Argument::Kind::NodeRef || node.args[1].kind != Argument::Kind::Constant || node.meta.size() != 1)
        return std::nullopt;
    const Node& self = *node.args[0].node;
    const size_t output = static_cast<size_t>(std::max(node.args[0].outputIndex, 0));
    if (output >= self.meta.size() || !node.args[1].constant.isInt()) return std::nullopt;
    const TensorMeta &in = self.meta[output], &out = node.meta[0];
    int64_t dim = node.args[1].constant.toInt();
    if (dim < 0) dim += static_cast<int64_t>(in.sizes.size());
    const size_t d = static_cast<size_t>(dim);
    if (dim < 0 || d >= in.sizes.size() || d >= out.sizes.size() || symbolicDim(in, d) || symbolicDim(out, d) || in.sizes[d] != out.sizes[d])
        return std::nullopt;
    return IValue(in.sizes[d]);
}

}  // namespace

std::shared_ptr<Graph> withSizesFromMeta(const Graph& graph) {
    auto copy = rewriteGraph(graph, [](const Node& n, Graph& g, const ArgumentRemap& remap) -> std::optional<Argument> {
        if (std::optional<IValue> end = wholeDimEnd(n)) {
            Node* c = g.addCopyOf(n, remap);
            c->args[3] = Argument::value(*end);
            return Argument::ref(c);
        }
        std::optional<IValue> sizes = sizesFromMeta(n);
        if (!sizes) return std::nullopt;
        Node* c = g.addCopyOf(n, remap);
        c->args = {c->args[0], Argument::value(*sizes)};
        c->kwargs.clear();
        return Argument::ref(c);
    });
    copy->removeUnused([](const Node& n) { return !n.symbolicScalar.empty(); });
    return copy;
}

SizeExpressionPtr Tracer::expressionOf(const Value& value) const {
    if (const TracedSize* size = tracedSizeOf(value)) return size->nodeIn(*this) ? size->expression() : nullptr;
    if (value.isBool()) return SizeExpression::constantOf(value.asBool() ? 1 : 0);
    if (value.isInt()) return SizeExpression::constantOf(value.asInt());
    return nullptr;
}

SymbolicIntPtr Tracer::tracedSize(const std::string& op, const std::string& operatorSymbol, IValueList args,
                                   const std::string& symbol, SizeExpressionPtr expression) {
    const OpDef& def = *OpRegistry::instance().find(op);
    const Kwargs kwargs;
    const CallStyle style = operatorSymbol.empty() ? CallStyle::TorchFunction : CallStyle::Operator;
    OpCall call{def, args, kwargs, style, operatorSymbol, interp_.currentSite(), this};
    IValue value = captureOp(call);
    Node* node = graph_->nodes().back().get();
    node->symbolicScalar = symbol;
    return std::make_shared<TracedSize>(value.toInt(), self_, graphGeneration_, node, std::move(expression));
}

SymbolicIntPtr Tracer::symbolicSize(const Tensor& t, int64_t dim) {
    if (dim < 0 || dim >= t.dim()) return nullptr;
    std::string symbol;
    if (auto lazy = lazy_.find(t.impl()); lazy != lazy_.end()) {
        if (!notSymbolic_.empty()) {
            // The graph's sizes stopped being followed (notSymbolic_): this size may depend on
            // any symbol, so all are fixed, and another size recompiles, saying so.
            for (const SymbolOrigin origin : sizeSymbols_)  // a copy: specializing may add to them
                if (!specializedSymbols_.count(origin.name)) specializeDim(origin.source, origin.dim, origin.name, origin.size);
            return nullptr;
        }
        const Node* node = lazy->second.node;
        const size_t output = static_cast<size_t>(std::max(lazy->second.outputIndex, 0));
        if (output < node->meta.size() && static_cast<size_t>(dim) < node->meta[output].symbols.size())
            symbol = node->meta[output].symbols[static_cast<size_t>(dim)];
    } else {
        auto sources = tensorSources_.find(t.impl());
        if (sources == tensorSources_.end()) return nullptr;
        // Dynamo wraps an input at its first read: lifted now, its dim is symbolic from here.
        if (!lifted_.count(t.impl()) && !dimBecomesDynamic(t, sources->second.front(), static_cast<size_t>(dim)))
            return nullptr;
        Tensor meta;
        liftTensor(t, meta);
        auto lifted = lifted_.find(t.impl());
        if (lifted == lifted_.end()) return nullptr;
        symbol = lifted->second.placeholder->meta[0].symbols[static_cast<size_t>(dim)];
    }
    // A symbol itself (s77), not an expression of one (2*s77): a size of an input's dim.
    const SymbolOrigin* origin = symbolOrigin(symbol);
    if (symbol.empty() || !origin || specializedSymbols_.count(symbol)) return nullptr;
    if (!lazy_.count(t.impl())) {  // an input's size read as a SymInt: Dynamo guards the input's type too
        Guard type;
        type.kind = Guard::Kind::TypeMatch;
        type.source = tensorSources_.at(t.impl()).front();
        type.typeName = "Tensor";
        addGuard(std::move(type));
    }
    return tracedSize("sym_size", "", {IValue(t), IValue(dim)}, symbol,
                      SizeExpression::size(symbol, origin->source, origin->dim));
}

namespace {

// L['n'], L['sizes'][1]: an int Dynamo makes dynamic (not an nn.Module's attribute, which it keeps static).
bool argumentOrItsItem(const Source& source) {
    const Source* s = &source;
    while (s->kind == Source::Kind::Item) s = s->base.get();
    return s->kind == Source::Kind::Local;
}

}  // namespace

// Dynamo's automatic dynamic for ints: an int argument seen with another value by an earlier
// compile is a SymInt (guarded by its type only), read from the size of a one-element input
// expanded to it, so each graph that uses it computes it on every call.
std::optional<Value> Tracer::symbolicInput(const Value& value) {
    if (std::holds_alternative<double>(value.v)) return symbolicFloatInput(value);
    if (!std::holds_alternative<int64_t>(value.v) || !argumentOrItsItem(*value.source)) return std::nullopt;
    const std::string source = value.source->str();
    auto known = intInputs_.find(source);
    if (known != intInputs_.end() && nodeOf(*known->second.symint)) return Value(known->second.symint);
    const int64_t n = std::get<int64_t>(value.v);
    const std::string seenKey = "int " + source;  // beside the tensors' sizes
    if (ctx_.recording) liftedSizes_[seenKey] = {n};
    if (known == intInputs_.end()) {
        if (!notSymbolic_.empty() || n < 2 || n > (int64_t{1} << 40)) return std::nullopt;
        if (!ctx_.allDynamic) {  // dynamic=True: every int input is; else one whose value changed since a compile
            if (!ctx_.automaticDynamic || !ctx_.seenSizes) return std::nullopt;
            auto seen = ctx_.seenSizes->find(seenKey);
            if (seen == ctx_.seenSizes->end() || seen->second.size() != 1 || seen->second[0] == n) return std::nullopt;
        }
    }
    const std::string symbol = known != intInputs_.end() ? known->second.symbol : symbolNames_.next(source);
    Tensor carrier = Tensor::empty({1}, DType::Bool).asStrided({n}, {0}, 0);
    addScalarInput(value.source, carrier, {symbol});
    SymbolicIntPtr symint = tracedSize("sym_size", "", {IValue(carrier), IValue(int64_t{0})}, symbol,
                                       SizeExpression::size(symbol, value.source, -1));
    if (known == intInputs_.end())
        log("dynamic", fmt::format("create_symbol {} = {} for {} [-int_oo, int_oo] {}", symbol, n, source, userCodeNote()));
    intInputs_[source] = IntInput{symbol, value.source, n, symint};
    Guard type;
    type.kind = Guard::Kind::TypeMatch;
    type.source = value.source;
    type.typeName = "int";
    addGuard(std::move(type));
    return Value(symint);
}

// PyTorch checks a new tensor's contiguity (_prims_common's is_contiguous), which asks whether
// each size is 0 or 1: a dynamic int made a size is so specialized to be neither.
void Tracer::guardIntSizes(const Node& node) {
    if (!ctx_.recording || intInputs_.empty()) return;
    for (const TensorMeta& meta : node.meta)
        for (const std::string& symbol : meta.symbols) {
            auto input = std::find_if(intInputs_.begin(), intInputs_.end(), [&](const auto& e) { return e.second.symbol == symbol; });
            if (input == intInputs_.end() || specializedSymbols_.count(symbol)) continue;
            Guard g = sizeRelation(SizeExpression::size(symbol, input->second.source, -1), CompareOperator::GtE,
                                   SizeExpression::constantOf(2));
            g.madeIn = "_prims_common/__init__.py:322 in is_contiguous";
            addGuard(std::move(g));
        }
}

Node* Tracer::addScalarInput(const SourcePtr& source, const Tensor& carrier, std::vector<std::string> symbols) {
    Node* node = graph_->addPlaceholder(source->str(), TensorMeta{carrier.sizes(), carrier.strides(), carrier.dtype(), std::move(symbols)});
    node->where = interp_.currentLocation();
    node->sourceLine = currentLine();
    node->stack = interp_.tracedStack();
    node->inlineDepth = interp_.stack().back().inlineDepth;
    try {
        if (notSymbolic_.empty()) symbolic_.addInput(node, carrier);
    } catch (const SymbolicSizesUnsupported& e) {
        notSymbolic_ = e.what();
    }
    lifted_[carrier.impl()] = Lifted{node, Tensor::emptyMeta(carrier.sizes(), carrier.strides(), carrier.dtype()), source->str()};
    inputs_.push_back(carrier);
    inputsFrom_.push_back(InputLink{});
    // Its value is one the call read, which a direct call's snapshots match.
    if (ctx_.direct) ctx_.direct->scalarInput(carrier, *source);
    return node;
}

void Tracer::specializeInt(const std::string& symbol) {
    auto input = std::find_if(intInputs_.begin(), intInputs_.end(), [&](const auto& e) { return e.second.symbol == symbol; });
    if (input == intInputs_.end() || !specializedSymbols_.insert(symbol).second) return;
    const IntInput& in = input->second;
    addGuard(sizeRelation(SizeExpression::size(symbol, in.source, -1), CompareOperator::Eq, SizeExpression::constantOf(in.value)));
}

std::optional<Value> Tracer::symbolicArithmetic(BinaryOperator op, const Value& left, const Value& right) {
    if (left.symbolicFloat() || right.symbolicFloat()) return symbolicFloatArithmetic(op, left, right);
    static const std::map<BinaryOperator, std::string> ops = {
        {BinaryOperator::Add, "sym_add"}, {BinaryOperator::Sub, "sym_sub"}, {BinaryOperator::Mult, "sym_mul"},
        {BinaryOperator::FloorDiv, "sym_floordiv"}};
    auto named = ops.find(op);
    if (named == ops.end()) return std::nullopt;
    SizeExpressionPtr a = expressionOf(left), b = expressionOf(right);
    if (!a || !b || (!a->leaf() && !b->leaf())) return std::nullopt;
    if (op == BinaryOperator::FloorDiv && !b->leaf() && b->constant == 0) return std::nullopt;  // Python's error
    // n * 1, n + 0, n - 0, n // 1: n itself, no node (as sympy simplifies them)
    const int64_t identity = op == BinaryOperator::Mult || op == BinaryOperator::FloorDiv ? 1 : 0;
    if (!b->leaf() && b->constant == identity) return left;
    if (!a->leaf() && a->constant == identity && (op == BinaryOperator::Mult || op == BinaryOperator::Add)) return right;
    SizeExpressionPtr result = SizeExpression::combine(op, a, b);
    if (!result) return std::nullopt;
    return Value(tracedSize(named->second, binaryOperatorSymbol(op), {toIValue(left), toIValue(right)}, result->str(), result));
}

// The guard that `lhs relation rhs` holds, in sympy's form: the size on the left, bounds
// inclusive (s <= 4 for s < 5), an upper bound joined to the size's range (2 <= s <= 4).
Guard Tracer::sizeRelation(SizeExpressionPtr lhs, CompareOperator relation, SizeExpressionPtr rhs) {
    if (!lhs->leaf() && mirrored(relation) != relation) {
        std::swap(lhs, rhs);
        relation = mirrored(relation);
    }
    if (lhs->op == SizeExpression::Op::Size && rhs->op == SizeExpression::Op::Constant) {
        if (relation == CompareOperator::Lt) relation = CompareOperator::LtE, rhs = SizeExpression::constantOf(rhs->constant - 1);
        if (relation == CompareOperator::Gt) relation = CompareOperator::GtE, rhs = SizeExpression::constantOf(rhs->constant + 1);
    }
    const SizeExpression* size = lhs->leaf() ? lhs->leaf() : rhs->leaf();
    Guard g;
    g.kind = Guard::Kind::SizeRelation;
    g.source = size->source;
    g.dim = size->dim;
    g.lhs = lhs;
    g.rhs = rhs;
    g.relation = relation;
    if (relation != CompareOperator::LtE || lhs->op != SizeExpression::Op::Size || rhs->op != SizeExpression::Op::Constant) return g;
    // keepGuard puts it in the range's place; a lower bound raised before (5 <= s) is its own.
    for (const Guard& range : guards_)
        if (range.kind == Guard::Kind::DimAtLeast && range.source->str() == g.source->str() && range.dim == g.dim) {
            g.count = range.count;
            g.lowerBoundComment = madeAt(range) + kFirstUseNote;
            break;
        }
    if (const Guard* raised = raisedBound(g.source->str(), g.dim); raised && g.count > 0) {
        g.count = raised->rhs->constant;
        g.lowerBoundComment = relationComment(*raised);
    }
    return g;
}

void Tracer::guardEndWithin(const IValue& end, const Tensor& self, int64_t dim) {
    const SymbolicInt* symbolic = end.symbolic();
    const auto* size = symbolic ? dynamic_cast<const TracedSize*>(symbolic) : nullptr;
    if (dim < 0) dim += self.dim();
    if (!size || dim < 0 || dim >= self.dim()) return;
    if (!size->expression()->ofOneSize()) return size->specialize();  // a guard evaluates one size
    Guard g = sizeRelation(size->expression(), CompareOperator::LtE, SizeExpression::constantOf(self.sizes()[static_cast<size_t>(dim)]));
    g.madeIn = "_subclasses/fake_impls.py:1519 in _compute_slice_index";
    addGuard(std::move(g));
}

void Tracer::guardIndexWithin(const Node& node, const IValueList& args) {
    if (node.target != "select" || args.size() != 3 || !args[1].isInt() || !args[2].isInt() || args[2].symbolic() ||
        node.args[0].kind != Argument::Kind::NodeRef)
        return;
    const Node& selected = *node.args[0].node;
    const size_t output = static_cast<size_t>(std::max(node.args[0].outputIndex, 0));
    if (output >= selected.meta.size()) return;
    const TensorMeta& meta = selected.meta[output];
    int64_t dim = args[1].toInt();
    if (dim < 0) dim += static_cast<int64_t>(meta.symbols.size());
    if (dim < 0 || static_cast<size_t>(dim) >= meta.symbols.size() || meta.symbols[static_cast<size_t>(dim)].empty()) return;
    const int64_t index = args[2].toInt(), needed = index < 0 ? -index : index + 1;
    SizeExpressionPtr size = sizeExpressionOf(IndexExpr::parse(meta.symbols[static_cast<size_t>(dim)]));
    if (!size || needed <= 2) return;  // a dynamic size is at least 2 already
    Guard g = sizeRelation(SizeExpression::constantOf(needed), CompareOperator::LtE, size);
    g.madeIn = "_subclasses/fake_impls.py:868 in meta_select";
    addGuard(std::move(g));
}

bool Tracer::guardEndPastDim(const Node& node, const IValueList& args, const IValueList& metaArgs) {
    if (node.target != "slice" || args.size() != 5 || node.args[0].kind != Argument::Kind::NodeRef || !metaArgs[0].isTensor() ||
        !args[1].isInt() || !args[2].isInt() || args[2].toInt() != 0 || !args[4].isInt() || args[4].toInt() != 1)
        return false;
    const auto* end = dynamic_cast<const TracedSize*>(args[3].symbolic());
    const Tensor& self = metaArgs[0].toTensor();
    int64_t dim = args[1].toInt();
    if (dim < 0) dim += self.dim();
    if (!end || !end->nodeIn(*this) || !end->expression()->ofOneSize() || dim < 0 || dim >= self.dim()) return false;
    const Node& sliced = *node.args[0].node;
    const size_t output = static_cast<size_t>(std::max(node.args[0].outputIndex, 0));
    const bool staticDim = output < sliced.meta.size() && static_cast<size_t>(dim) < sliced.meta[output].symbols.size() &&
                           sliced.meta[output].symbols[static_cast<size_t>(dim)].empty();
    const int64_t extent = self.sizes()[static_cast<size_t>(dim)];
    if (!staticDim || end->hint <= extent) return false;
    Guard g = sizeRelation(end->expression(), CompareOperator::GtE, SizeExpression::constantOf(extent + 1));
    g.madeIn = "_subclasses/fake_impls.py:1519 in _compute_slice_index";
    addGuard(std::move(g));
    return true;
}

std::optional<bool> Tracer::symbolicCompare(CompareOperator op, const Value& left, const Value& right) {
    if (left.symbolicFloat() || right.symbolicFloat()) return symbolicFloatCompare(op, left, right);
    SizeExpressionPtr a = expressionOf(left), b = expressionOf(right);
    if (!a || !b || (!a->leaf() && !b->leaf())) return std::nullopt;
    if (a->str() == b->str() && (op == CompareOperator::Eq || op == CompareOperator::NotEq))
        return op == CompareOperator::Eq;  // the same size: so for every call, unguarded
    const SizeExpression* size = a->leaf() ? a->leaf() : b->leaf();
    if (!a->ofOneSize() || !b->ofOneSize() || (b->leaf() && b->leaf()->symbol != size->symbol)) return std::nullopt;
    auto hint = [](const Value& v) { return v.isBool() ? int64_t{v.asBool()} : v.symbolic() ? (*v.symbolic())->hint : v.asInt(); };
    std::optional<bool> answer;
    switch (op) {
    case CompareOperator::Eq:
    case CompareOperator::NotEq:
    case CompareOperator::Lt:
    case CompareOperator::LtE:
    case CompareOperator::Gt:
    case CompareOperator::GtE: answer = compareNumbers(op, hint(left), hint(right)); break;
    default: return std::nullopt;
    }
    addGuard(sizeRelation(a, *answer ? op : negated(op), b));
    return answer;
}

}  // namespace fusescope

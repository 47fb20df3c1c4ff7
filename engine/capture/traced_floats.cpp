// SymFloats while a compiled function is traced, as PyTorch 2.15's Dynamo makes them: a float
// the code reads (an argument, a global, an attribute) whose value changed since an earlier
// compile is dynamic on the recompile (every float at once under dynamic=True). It enters the
// graph as an f64[] input, where an op first uses it, whose item() the ops read as their
// scalar, so one graph serves every value: guarded by its type and not NaN (ShapeEnv's NaN
// specialization) instead of its value. Python arithmetic on it (+ - * /, unary -) stays in the graph;
// a comparison with a number is answered for this call and guarded (L['t'] > 1.0, L['t'] != 0.0).
// Any other read (a Python computation, an op whose result's size it sets) specializes it: its
// value guarded, as Dynamo's restart with the float specialized does.
#include <cmath>
#include <cstring>
#include <map>
#include <set>

#include <fmt/format.h>

#include "capture/tracer.h"
#include "core/tensor_format.h"

namespace fusescope {

// A SymFloat of one of the tracer's graphs: a float input (its node made where first used) or
// arithmetic on such (its node made at once), and the inputs it depends on.
class TracedFloat : public SymbolicFloat {
public:
    TracedFloat(double hint, std::weak_ptr<Tracer*> tracer, uint64_t generation, Node* node, std::set<std::string> sources,
                std::string symbol)
        : SymbolicFloat(hint), tracer_(std::move(tracer)), generation_(generation), node_(node), sources_(std::move(sources)),
          symbol_(std::move(symbol)) {}

    void specialize() const override {
        std::shared_ptr<Tracer*> tracer = tracer_.lock();
        // Read by the instruction that broke the graph (print(x)), which runs eagerly: unguarded.
        if (!tracer || (*tracer)->pendingResume_) return;
        for (const std::string& source : sources_) (*tracer)->specializeFloat(source);
    }
    // Whether `tracer` traces the graph that holds it.
    bool ofGraphOf(const Tracer& tracer) const {
        std::shared_ptr<Tracer*> owner = tracer_.lock();
        return owner && *owner == &tracer && generation_ == tracer.graphGeneration_;
    }
    // Its node, while `tracer` traces the graph that holds it: an input's made on first use.
    Node* nodeIn(Tracer& tracer) const {
        if (!ofGraphOf(tracer)) return nullptr;
        if (!node_) node_ = tracer.floatInputNode(*sources_.begin(), hint, symbol_);
        return node_;
    }
    const std::set<std::string>& sources() const { return sources_; }
    const std::string& symbol() const { return symbol_; }

private:
    std::weak_ptr<Tracer*> tracer_;
    uint64_t generation_;
    mutable Node* node_;
    std::set<std::string> sources_;
    std::string symbol_;  // zf6, or what arithmetic computes ("zf6 / 2")
};

namespace {

// A float as the automatic-dynamic record keeps values (beside the tensors' sizes): its bits,
// 0.0 and -0.0 alike as Python compares them. The record's -1 ("changed") is a NaN's bits,
// never a recorded float's: a NaN input is specialized.
int64_t seenFloat(double x) {
    if (x == 0) x = 0;
    int64_t bits = 0;
    std::memcpy(&bits, &x, sizeof bits);
    return bits;
}

const TracedFloat* tracedFloatOf(const Value& value) {
    const SymbolicFloatPtr* symbolic = value.symbolicFloat();
    return symbolic ? dynamic_cast<const TracedFloat*>(symbolic->get()) : nullptr;
}

// A plain Python number (not a bool, nor symbolic) as a float; nullopt for anything else.
std::optional<double> plainNumber(const Value& v) {
    if (v.symbolic() || v.symbolicFloat() || v.isBool()) return std::nullopt;
    if (v.isInt()) return static_cast<double>(v.asInt());
    if (v.isFloat()) return v.asFloat();
    return std::nullopt;
}

}  // namespace

Node* Tracer::nodeOf(const SymbolicFloat& value) {
    const auto* traced = dynamic_cast<const TracedFloat*>(&value);
    return traced ? traced->nodeIn(*this) : nullptr;
}

std::optional<Value> Tracer::symbolicFloatInput(const Value& value) {
    const Source::Kind kind = value.source->kind;
    if (kind != Source::Kind::Local && kind != Source::Kind::Global && kind != Source::Kind::Attr && kind != Source::Kind::Item)
        return std::nullopt;
    const std::string source = value.source->str();
    auto known = floatInputs_.find(source);
    if (known != floatInputs_.end()) {
        if (known->second.specialized) return std::nullopt;
        const auto* traced = dynamic_cast<const TracedFloat*>(known->second.symfloat.get());
        if (traced && traced->nodeIn(*this)) return Value(known->second.symfloat);
    }
    const double x = std::get<double>(value.v);
    const std::string seenKey = "float " + source;
    if (ctx_.recording) liftedSizes_[seenKey] = {seenFloat(x)};
    if (known == floatInputs_.end()) {
        if (std::isnan(x) || std::isinf(x)) return std::nullopt;  // ShapeEnv cannot reason about them: a constant
        if (!ctx_.allDynamic) {  // dynamic=True: every float input is; else one whose value changed since a compile
            if (!ctx_.automaticDynamic || !ctx_.seenSizes) return std::nullopt;
            auto seen = ctx_.seenSizes->find(seenKey);
            if (seen == ctx_.seenSizes->end() || seen->second.size() != 1 || seen->second[0] == seenFloat(x)) return std::nullopt;
            log("dynamic", fmt::format("marking {} as dynamic (from automatic dynamic/PGO)", source));
        }
    }
    const std::string symbol = known != floatInputs_.end() ? known->second.symbol : symbolNames_.next(source, "zf");
    auto symfloat = std::make_shared<TracedFloat>(x, self_, graphGeneration_, nullptr, std::set<std::string>{source}, symbol);
    if (known == floatInputs_.end())
        log("dynamic", fmt::format("create_symbol {} = {} for {} [-oo, oo] {}", symbol, formatPythonFloat(x), source, userCodeNote()));
    floatInputs_[source] = FloatInput{symbol, value.source, x, symfloat, false};
    Guard type;
    type.kind = Guard::Kind::TypeMatch;
    type.source = value.source;
    type.typeName = "float";
    addGuard(std::move(type));
    Guard notNan;
    notNan.kind = Guard::Kind::FloatNotNan;
    notNan.source = value.source;
    addGuard(std::move(notNan));
    return Value(symfloat);
}

// The f64[] input carrying the float read through `source`, and the item() that reads it.
Node* Tracer::floatInputNode(const std::string& source, double value, const std::string& symbol) {
    const Tensor carrier = Tensor::scalar(value, DType::Float64);
    addScalarInput(floatInputs_.at(source).source, carrier, {});
    const OpDef& item = *OpRegistry::instance().find("item");
    const IValueList args{IValue(carrier)};
    const Kwargs kwargs;
    captureOp(OpCall{item, args, kwargs, CallStyle::Method, "", interp_.currentSite(), this});
    Node* node = graph_->nodes().back().get();
    node->symbolicScalar = symbol;
    return node;
}

void Tracer::specializeFloat(const std::string& source) {
    auto input = floatInputs_.find(source);
    if (input == floatInputs_.end() || input->second.specialized) return;
    input->second.specialized = true;
    dropGuards(source, {Guard::Kind::TypeMatch, Guard::Kind::FloatNotNan, Guard::Kind::FloatRelation});
    Value constant(input->second.value);
    constant.source = input->second.source;
    onInputUse(constant);
}

// Ops whose result's size a scalar argument sets (torch.arange(0, x)): its meta holds for one
// value only, so a SymFloat there is read as the plain float it is now.
void Tracer::specializeSizingFloats(const OpCall& call) {
    if (floatInputs_.empty()) return;  // the common case: no SymFloat in this trace
    const std::string_view name = baseOpName(call.op.name);
    if (name != "arange" && name != "range") return;
    for (const IValue& a : call.args)
        if (a.symbolicFloat()) a.toDouble();
    for (const auto& [kw, a] : call.kwargs)
        if (a.symbolicFloat()) a.toDouble();
}

std::optional<Value> Tracer::symbolicFloatArithmetic(BinaryOperator op, const Value& left, const Value& right) {
    static const std::map<BinaryOperator, std::string> ops = {{BinaryOperator::Add, "sym_float_add"},
                                                              {BinaryOperator::Sub, "sym_float_sub"},
                                                              {BinaryOperator::Mult, "sym_float_mul"},
                                                              {BinaryOperator::Div, "sym_float_truediv"}};
    auto named = ops.find(op);
    if (named == ops.end()) return std::nullopt;
    std::set<std::string> sources;
    std::vector<std::string> operands;
    double hints[2] = {0, 0};
    const Value* values[2] = {&left, &right};
    for (int i = 0; i < 2; ++i) {
        if (const TracedFloat* traced = tracedFloatOf(*values[i])) {
            if (!traced->nodeIn(*this)) return std::nullopt;  // one of an earlier graph: specialized
            sources.insert(traced->sources().begin(), traced->sources().end());
            operands.push_back(traced->symbol());
            hints[i] = traced->hint;
        } else if (std::optional<double> number = plainNumber(*values[i])) {
            operands.push_back(valueRepr(*values[i]));
            hints[i] = *number;
        } else {
            return std::nullopt;
        }
    }
    if (op == BinaryOperator::Div && hints[1] == 0) return std::nullopt;  // Python's ZeroDivisionError, from the plain path
    const IValueList args{toIValue(left), toIValue(right)};
    const Kwargs kwargs;
    IValue result = captureOp(OpCall{*OpRegistry::instance().find(named->second), args, kwargs, CallStyle::Operator,
                                     binaryOperatorSymbol(op), interp_.currentSite(), this});
    Node* node = graph_->nodes().back().get();
    const std::string symbol = fmt::format("{} {} {}", operands[0], binaryOperatorSymbol(op), operands[1]);
    node->symbolicScalar = symbol;
    return Value(std::make_shared<TracedFloat>(result.toDouble(), self_, graphGeneration_, node, std::move(sources), symbol));
}

std::optional<Value> Tracer::symbolicNegative(const Value& value) {
    const TracedFloat* traced = tracedFloatOf(value);
    if (!traced || !traced->nodeIn(*this)) return std::nullopt;
    const IValueList args{toIValue(value)};
    const Kwargs kwargs;
    IValue result = captureOp(OpCall{*OpRegistry::instance().find("sym_float_neg"), args, kwargs, CallStyle::Operator, "-",
                                     interp_.currentSite(), this});
    Node* node = graph_->nodes().back().get();
    const std::string symbol = "-" + traced->symbol();
    node->symbolicScalar = symbol;
    return Value(std::make_shared<TracedFloat>(result.toDouble(), self_, graphGeneration_, node, traced->sources(), symbol));
}

std::optional<bool> Tracer::symbolicFloatCompare(CompareOperator op, const Value& left, const Value& right) {
    if (op != CompareOperator::Eq && op != CompareOperator::NotEq && mirrored(op) == op) return std::nullopt;  // is, in
    const TracedFloat* traced = tracedFloatOf(left);
    const Value* other = &right;
    if (!traced) traced = tracedFloatOf(right), other = &left, op = mirrored(op);  // the float on the left, as sympy prints it
    std::optional<double> bound = plainNumber(*other);
    // Against a number, a float input itself: anything else is read as the float it is now.
    if (!traced || !bound || traced->sources().size() != 1 || traced->symbol() != floatInputs_.at(*traced->sources().begin()).symbol ||
        !traced->nodeIn(*this))
        return std::nullopt;
    FloatInput& input = floatInputs_.at(*traced->sources().begin());
    const bool answer = compareNumbers(op, traced->hint, *bound);
    if (!input.foundEqual) guardFloatRelation(input, answer ? op : negated(op), *bound, "");
    return answer;
}

std::optional<Value> Tracer::floatReadByOp(const Value& value, const std::string& madeIn) {
    const TracedFloat* traced = tracedFloatOf(value);
    if (!traced || traced->sources().size() != 1 || !traced->ofGraphOf(*this)) return std::nullopt;
    FloatInput& input = floatInputs_.at(*traced->sources().begin());
    if (traced->symbol() != input.symbol) return std::nullopt;  // arithmetic on it: read as a number, specialized
    if (!input.foundEqual) guardFloatRelation(input, CompareOperator::Eq, traced->hint, madeIn);
    // AOT Autograd's tensorify pass finds the graph reading it and restarts the trace.
    if (ctx_.backend && ctx_.backend->throughAot()) floatsReadByOps_ = true;
    return Value(traced->hint);
}

// `input` <relation> `bound`, made in `madeIn` ("" for Dynamo's own evaluate_expr).
void Tracer::guardFloatRelation(FloatInput& input, CompareOperator relation, double bound, const std::string& madeIn) {
    Guard g;
    g.kind = Guard::Kind::FloatRelation;
    g.source = input.source;
    g.relation = relation;
    g.bound = bound;
    if (!madeIn.empty()) g.madeIn = madeIn;
    // Found equal, the symbol is that constant from here on (ShapeEnv's replacement): no NaN
    // guard, and the relations it made before hold for the constant, trivially.
    if (g.relation == CompareOperator::Eq) {
        input.foundEqual = true;
        dropGuards(g.source->str(), {Guard::Kind::FloatNotNan});
        for (size_t i = guards_.size(); i-- > 0;) {
            const Guard& earlier = guards_[i];
            if (earlier.kind == Guard::Kind::FloatRelation && earlier.source->str() == g.source->str() &&
                compareNumbers(earlier.relation, g.bound, earlier.bound))
                eraseGuard(&earlier);
        }
    }
    addGuard(std::move(g));
}

}  // namespace fusescope

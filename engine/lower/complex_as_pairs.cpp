#include "lower/complex_as_pairs.h"

#include <fmt/format.h>

#include "core/complex_parts.h"
#include "decompose/graph_copy.h"
#include "decompose/rewrite.h"
#include "lower/lowering.h"
#include "ops/complex_formulas.h"
#include "ops/kernel_support.h"

namespace fusescope {

namespace {

TensorMeta pairsMeta(const TensorMeta& m) {
    TensorMeta p = m;
    p.dtype = complexValueType(m.dtype);
    p.sizes.push_back(2);
    for (int64_t& s : p.strides) s *= 2;
    p.strides.push_back(1);
    if (!p.symbols.empty()) p.symbols.push_back("");
    return p;
}

const TensorMeta& metaOf(const Argument& a) { return a.node->meta.at(a.outputIndex < 0 ? 0 : static_cast<size_t>(a.outputIndex)); }

bool touchesComplex(const Node& n) {
    bool complex = std::any_of(n.meta.begin(), n.meta.end(), [](const TensorMeta& m) { return isComplex(m.dtype); });
    forEachRef(n, [&](const Argument& a) { complex = complex || isComplex(metaOf(a).dtype); });
    return complex;
}

Argument number(int64_t v) { return constant(IValue(v)); }

// One complex op of the captured graph as real ops on pairs. `r` holds the new graph's
// arguments (pairs for complex ones) and the captured call's bound values (complex metas).
class ComplexRule {
public:
    explicit ComplexRule(Rewrite& r) : r_(r) {}

private:
    using Parts = ComplexParts<Argument>;
    // The eager forms' formulas (ops/complex_formulas.h), emitted into the graph.
    auto emitter() {
        return [this](const std::string& op, std::initializer_list<Argument> args) { return r_.call(op, std::vector<Argument>(args)); };
    }
    Argument product(const Parts& x, const Parts& y, const std::string& op) { return stack(complexProduct(x, y, op, emitter())); }
    Argument quotient(const Parts& x, const Parts& y) {
        if (y.re.kind != Argument::Kind::NodeRef) refuse("divided by a Python number");
        return stack(complexQuotient(x, y, emitter()));
    }

public:
    Argument apply(std::string_view op) {
        if (op == "view_as_complex" || op == "view_as_real") return arg("self");  // both are the pairs
        if (op == "real" || op == "imag") return part(arg("self"), op == "imag");
        if (op == "mul") return product(parts("self"), parts("other"), "mul");
        if (op == "mm" || op == "bmm" || op == "matmul") return product(parts(name(0)), parts(name(1)), std::string(op));
        if (op == "add" || op == "sub") {
            Parts x = parts("self"), y = parts("other", true);
            ArgumentKwargs alpha{{"alpha", constant(r_.bound["alpha"])}};
            return stack(r_.call(std::string(op), {x.re, y.re}, alpha), r_.call(std::string(op), {x.im, y.im}, alpha));
        }
        if (op == "div" && r_.bound["rounding_mode"].isNone()) return quotient(parts("self"), parts("other"));
        if (op == "neg" || op == "clone" || op == "contiguous") return r_.call(std::string(op), {arg("self")});
        if (op == "abs") return absolute(parts("self"));
        if (op == "eq" || op == "ne") {
            Parts x = parts("self"), y = parts("other");
            std::string each(op);
            return r_.call(op == "eq" ? "logical_and" : "logical_or", {r_.call(each, {x.re, y.re}), r_.call(each, {x.im, y.im})});
        }
        if (op == "view" || op == "reshape" || op == "expand") return r_.call(std::string(op), {arg("self"), withPairDim(arg(name(1)))});
        if (op == "flatten") return r_.call("flatten", {arg("self"), dim("start_dim"), dim("end_dim")});
        if (op == "unsqueeze") return r_.call("unsqueeze", {arg("self"), dim("dim", 1)});
        if (op == "transpose") return r_.call("transpose", {arg("self"), dim("dim0"), dim("dim1")});
        if (op == "select") return r_.call("select", {arg("self"), dim("dim"), arg("index")});
        if (op == "slice")
            return r_.call("slice", {arg("self"), dim("dim"), constant(r_.bound["start"]), constant(r_.bound["end"]), constant(r_.bound["step"])});
        if (op == "squeeze") {  // the pairs dim (size 2) is never squeezed
            if (r_.bound["dim"].isNone()) return r_.call("squeeze", {arg("self")});
            return r_.call("squeeze", {arg("self"), constant(IValue::intList(dims("dim")))});
        }
        if (op == "permute") {
            std::vector<int64_t> dims = this->dims("dims");
            dims.push_back(rank());
            return r_.call("permute", {arg("self"), constant(IValue::intList(dims))});
        }
        if ((op == "sum" || op == "mean") && r_.bound["dtype"].isNone()) {
            std::vector<int64_t> dims = reducedDims(r_.bound["dim"], static_cast<size_t>(rank()));
            return r_.call(std::string(op), {arg("self"), constant(IValue::intList(dims)), constant(r_.bound["keepdim"])});
        }
        if (op == "cat" || op == "stack") {
            std::vector<Argument> pairs;
            for (const IValue& t : r_.bound["tensors"].toSequence()->items)
                if (!isComplex(t.toTensor().dtype())) refuse("joins a real tensor to complex ones");
            for (const Argument& t : arg("tensors").items) pairs.push_back(t);
            int64_t rank = r_.bound["tensors"].toSequence()->items.at(0).toTensor().dim() + (op == "stack");
            return r_.call(std::string(op), {Argument::sequence(pairs, false), number(wrapDim(r_.bound.integer("dim"), rank))});
        }
        refuse("has no real form here");
    }

private:
    [[noreturn]] void refuse(const std::string& why) const {
        throw LoweringUnsupported(fmt::format("{} of complex tensors {} (it runs eagerly)", r_.opName(), why));
    }
    const std::string& name(size_t i) const { return r_.bound.names.at(i); }
    Argument arg(const std::string& param) const { return *r_.maybeTensor(param); }
    bool complex(const std::string& param) const {
        const IValue& v = r_.bound[param];
        return v.isTensor() && isComplex(v.toTensor().dtype());
    }
    int64_t rank() const { return r_.bound.tensor("self").dim(); }
    // A dim of the complex tensor, wrapped, for its pairs (whose extra dim is last).
    Argument dim(const std::string& param, int64_t extra = 0) const { return number(wrapDim(r_.bound.integer(param), rank() + extra)); }
    std::vector<int64_t> dims(const std::string& param) const {
        std::vector<int64_t> out;
        for (int64_t d : r_.bound.ints(param)) out.push_back(wrapDim(d, rank()));
        return out;
    }
    Argument part(const Argument& pairs, int k) { return r_.call("select", {pairs, number(-1), number(k)}); }
    Argument stack(const Argument& re, const Argument& im) { return r_.call("stack", {Argument::sequence({re, im}, false), number(-1)}); }
    Argument stack(const Parts& p) { return stack(p.re, p.im); }

    // A real operand is a complex one with imaginary part 0, as PyTorch converts it; a
    // Python number only where the op takes one (`numberAllowed`).
    Parts parts(const std::string& param, bool numberAllowed = true) {
        Argument a = arg(param);
        if (complex(param)) return {part(a, 0), part(a, 1)};
        if (a.kind == Argument::Kind::NodeRef) return {a, r_.call("zeros_like", {a})};
        if (!numberAllowed) refuse("with a Python number operand");
        return {a, constant(IValue(0.0))};
    }


    // In double, rounded once: the eager form.
    Argument absolute(const Parts& x) {
        DType type = complexValueType(r_.bound.tensor("self").dtype());
        Argument re = r_.call("to", {x.re, constant(IValue(DType::Float64))}), im = r_.call("to", {x.im, constant(IValue(DType::Float64))});
        Argument sum = r_.call("add", {r_.call("mul", {re, re}), r_.call("mul", {im, im})});
        return r_.call("to", {r_.call("sqrt", {sum}), constant(IValue(type))});
    }

    // A size list for the pairs: the complex sizes and 2.
    static Argument withPairDim(Argument sizes) {
        if (sizes.kind == Argument::Kind::Constant) {
            std::vector<int64_t> ints = sizes.constant.toIntList();
            ints.push_back(2);
            return constant(IValue::intList(ints));
        }
        sizes.items.push_back(number(2));
        return sizes;
    }

    Rewrite& r_;
};

class PairsRewriter {
public:
    explicit PairsRewriter(const Graph& graph) : graph_(graph), builder_(*out_.graph) {}

    PairsGraph run() {
        for (const auto& n : graph_.nodes()) {
            if (n->op == NodeOp::Placeholder) {
                const TensorMeta& m = n->meta.at(0);
                Node* p = builder_.placeholder(n->target, isComplex(m.dtype) ? pairsMeta(m) : m, n->name);
                p->capturedName = n->name;
                values_[{n.get(), -1}] = Argument::ref(p);
                out_.complexInputs.push_back(isComplex(m.dtype));
            } else if (n->op != NodeOp::Output) {
                if (touchesComplex(*n)) rewrite(*n);
                else copyCall(builder_, *n, values_);
            }
        }
        std::vector<Argument> outputs;
        for (const Argument& a : graph_.outputs()) {
            outputs.push_back(mapped(a, values_));
            out_.complexOutputs.push_back(a.kind == Argument::Kind::NodeRef && isComplex(metaOf(a).dtype));
        }
        out_.graph->setOutputs(std::move(outputs));
        return std::move(out_);
    }

private:
    // The captured call's arguments as values: meta tensors of its inputs' (complex) metas.
    const IValue* capturedValue(const Node* n) {
        auto [it, added] = captured_.try_emplace(n);
        if (added) {
            IValueList metas;
            for (const TensorMeta& m : n->meta) metas.emplace_back(Tensor::emptyMeta(m.sizes, m.strides, m.dtype));
            it->second = n->returnsTuple ? IValue::tuple(metas) : metas.at(0);
        }
        return &it->second;
    }

    void rewrite(const Node& n) {
        if (n.returnsTuple) throw LoweringUnsupported(fmt::format("{} of complex tensors has several results (it runs eagerly)", n.target));
        auto valueOf = [this](const Argument& a) { return *argumentValue(a, [this](const Node* x) { return capturedValue(x); }); };
        IValueList args;
        std::vector<Argument> newArgs;
        for (const Argument& a : n.args) args.push_back(valueOf(a)), newArgs.push_back(mapped(a, values_));
        Kwargs kwargs;
        ArgumentKwargs newKwargs;
        for (const auto& [k, a] : n.kwargs) kwargs.emplace_back(k, valueOf(a)), newKwargs.emplace_back(k, mapped(a, values_));
        auto [def, bound] = OpRegistry::instance().resolve(n.target, args, kwargs);
        Rewrite r(builder_, n, *def, std::move(bound), newArgs, newKwargs, hooks_);
        values_[{&n, -1}] = ComplexRule(r).apply(baseOpName(def->name));
    }

    const Graph& graph_;
    PairsGraph out_{std::make_shared<Graph>(), {}, {}};
    GraphBuilder builder_;
    ValueMap values_;
    std::map<const Node*, IValue> captured_;
    const TestHooks hooks_{};
};

}  // namespace

std::optional<PairsGraph> graphWithComplexAsPairs(const Graph& graph) {
    bool any = std::any_of(graph.nodes().begin(), graph.nodes().end(), [](const auto& n) {
        return std::any_of(n->meta.begin(), n->meta.end(), [](const TensorMeta& m) { return isComplex(m.dtype); });
    });
    if (!any) return std::nullopt;
    return PairsRewriter(graph).run();
}

CompiledGraph withComplexBoundary(const PairsGraph& pairs, CompiledGraph compiled) {
    return [inputs = pairs.complexInputs, outputs = pairs.complexOutputs, compiled](const std::vector<Tensor>& given) {
        std::vector<Tensor> args = given;
        for (size_t i = 0; i < args.size() && i < inputs.size(); ++i)
            if (inputs[i]) args[i] = complexAsPairs(args[i]);
        std::vector<Tensor> results = compiled(args);
        for (size_t i = 0; i < results.size() && i < outputs.size(); ++i)
            if (outputs[i]) results[i] = pairsAsComplex(results[i].strides().back() == 1 ? results[i] : contiguousCopy(results[i]));
        return results;
    };
}

}  // namespace fusescope

// What a compiling backend gets for a graph that reads SymFloats, as Inductor's
// tensorify_python_scalars pass makes it: each float input is its f64[] tensor, Python float
// arithmetic on it is f64[] tensor arithmetic (the same IEEE double operations), and an
// elementwise op reading it as its scalar operand reads that tensor converted to the op's
// compute type instead (float for a half result, as PyTorch computes a scalar operand), so the
// kernels take the float as an input and one compiled graph serves every value.
#include <unordered_set>

#include "capture/tracer.h"

namespace fusescope {

namespace {

struct Refused {};  // a SymFloat read in a way the pass does not rewrite

const std::unordered_set<std::string> kScalarOperandOps = {"add", "sub", "mul", "div"};

DType computeType(DType t) { return t == DType::Float16 || t == DType::BFloat16 ? DType::Float32 : t; }

Node* addTensorNode(Graph& g, const Node& from, NodeOp op, const std::string& target, CallStyle style,
                    std::vector<Argument> args, std::vector<std::pair<std::string, Argument>> kwargs, DType dtype) {
    Node* n = g.addCall(op, target, style, std::move(args), std::move(kwargs));
    n->meta.push_back(TensorMeta{{}, {}, dtype, {}});
    n->copyProvenance(from);
    return n;
}

}  // namespace

std::shared_ptr<Graph> withFloatsAsTensors(const Graph& graph) {
    auto floatScalar = [](const Node& n) { return !n.symbolicScalar.empty() && (n.target == "item" || n.target.starts_with("sym_float_")); };
    if (std::none_of(graph.nodes().begin(), graph.nodes().end(), [&](const auto& n) { return floatScalar(*n); })) return nullptr;
    std::unordered_set<const Node*> tensors;  // nodes of the copy holding a float as an f64[] tensor
    auto isTensorFloat = [&](const Argument& a) { return a.kind == Argument::Kind::NodeRef && tensors.count(a.node); };
    std::function<bool(const Argument&)> readsFloat = [&](const Argument& a) {
        return isTensorFloat(a) || std::any_of(a.items.begin(), a.items.end(), readsFloat);
    };
    try {
        return rewriteGraph(graph, [&](const Node& n, Graph& g, const ArgumentRemap& remap) -> std::optional<Argument> {
            if (floatScalar(n) && n.target == "item") {  // the input's own tensor
                Argument carrier = remap(n.args.at(0));
                tensors.insert(carrier.node);
                return carrier;
            }
            if (floatScalar(n) && n.target == "sym_float_neg") {
                Node* t = addTensorNode(g, n, NodeOp::CallFunction, "neg", CallStyle::TorchFunction, {remap(n.args.at(0))}, {},
                                        DType::Float64);
                tensors.insert(t);
                return Argument::ref(t);
            }
            if (floatScalar(n)) {  // sym_float_add, ...: the same arithmetic on f64[] tensors
                Argument a = remap(n.args.at(0)), b = remap(n.args.at(1));
                if (!isTensorFloat(a)) {  // a number on the left: made a tensor, the operation kept as written
                    a = Argument::ref(addTensorNode(g, n, NodeOp::CallFunction, "full", CallStyle::TorchFunction,
                                                    {Argument::value(IValue::tuple({})), a},
                                                    {{"dtype", Argument::value(IValue(DType::Float64))}}, DType::Float64));
                }
                const std::string op = n.target.substr(std::string("sym_float_").size());
                Node* t = addTensorNode(g, n, NodeOp::CallFunction, op == "truediv" ? "div" : op, CallStyle::Operator,
                                        {a, b}, {}, DType::Float64);
                t->operatorSymbol = n.operatorSymbol;
                tensors.insert(t);
                return Argument::ref(t);
            }
            std::vector<Argument> args;
            for (const Argument& a : n.args) args.push_back(remap(a));
            bool reads = std::any_of(args.begin(), args.end(), readsFloat);
            for (const auto& [name, a] : n.kwargs) reads = reads || readsFloat(remap(a));
            if (!reads) return std::nullopt;
            const bool scalarOperand = kScalarOperandOps.count(n.target) && args.size() == 2 && n.kwargs.empty() &&
                                       n.meta.size() == 1 && isFloating(n.meta[0].dtype) &&
                                       std::none_of(args.begin(), args.end(), [&](const Argument& a) { return !isTensorFloat(a) && readsFloat(a); });
            if (!scalarOperand) throw Refused{};
            const DType compute = computeType(n.meta[0].dtype);
            std::unordered_map<const Node*, Argument> converted;  // made before the op that reads them
            for (const Argument& a : args)
                if (isTensorFloat(a) && compute != DType::Float64 && !converted.count(a.node))
                    converted[a.node] = Argument::ref(addTensorNode(g, n, NodeOp::CallMethod, "to", CallStyle::Method,
                                                                    {a, Argument::value(IValue(compute))}, {}, compute));
            return Argument::ref(g.addCopyOf(n, [&](const Argument& a) {
                Argument r = remap(a);
                auto c = isTensorFloat(r) ? converted.find(r.node) : converted.end();
                return c == converted.end() ? r : c->second;
            }));
        });
    } catch (const Refused&) {
        return nullptr;
    }
}

}  // namespace fusescope

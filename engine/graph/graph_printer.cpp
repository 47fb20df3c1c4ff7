#include "graph/graph_printer.h"

#include <algorithm>
#include <array>
#include <limits>
#include <map>
#include <optional>
#include <cctype>

#include <fmt/format.h>

#include "core/tensor_format.h"

namespace fusescope {

std::string dtypeAbbreviation(DType dtype) {
    switch (dtype) {
    case DType::Bool: return "b8";
    case DType::Int32: return "i32";
    case DType::Int64: return "i64";
    case DType::Float16: return "f16";
    case DType::BFloat16: return "bf16";
    case DType::Float32: return "f32";
    case DType::Float64: return "f64";
    case DType::Complex64: return "c64";
    case DType::Complex128: return "c128";
    }
    return "?";
}

std::string placeholderName(const std::string& source) {
    std::string name;
    for (char c : source) {
        char lower = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        if (std::isalnum(static_cast<unsigned char>(c))) name += lower;
        else if (name.empty() || name.back() != '_') name += '_';
    }
    if (name.empty() || std::isdigit(static_cast<unsigned char>(name[0]))) name = "_" + name;
    if (name.back() != '_') name += '_';
    return name;
}

std::string pythonOperatorName(const std::string& opName) {
    static const std::map<std::string, std::string> names = {
        {"div", "truediv"}, {"logical_and", "and_"}, {"logical_or", "or_"}, {"logical_xor", "xor"},
        {"logical_not", "invert"}, {"sym_add", "add"}, {"sym_sub", "sub"}, {"sym_mul", "mul"}, {"sym_floordiv", "floordiv"},
        {"sym_float_neg", "neg"}, {"sym_float_add", "add"}, {"sym_float_sub", "sub"}, {"sym_float_mul", "mul"}, {"sym_float_truediv", "truediv"}};
    auto it = names.find(opName);
    return it == names.end() ? opName : it->second;
}

std::string opDisplayName(const Node& node) {
    switch (node.style) {
    case CallStyle::Operator: return "<built-in function " + pythonOperatorName(node.target) + ">";
    case CallStyle::TorchFunction: return "<built-in method " + node.target + " of type object>";
    case CallStyle::Functional: return "<function " + node.target + ">";
    case CallStyle::Method: return "<method '" + node.target + "' of 'torch._C.TensorBase' objects>";
    }
    return node.target;
}

std::string constantRepr(const IValue& value) {
    struct Visitor {
        std::string operator()(const None&) const { return "None"; }
        std::string operator()(bool b) const { return b ? "True" : "False"; }
        std::string operator()(int64_t i) const { return std::to_string(i); }
        std::string operator()(const SymbolicIntPtr& i) const { return std::to_string(i->hint); }  // never in a graph
        std::string operator()(const SymbolicFloatPtr& d) const { return formatPythonFloat(d->hint); }  // nor this
        std::string operator()(double d) const { return formatPythonFloat(d); }
        std::string operator()(const std::string& s) const { return "'" + s + "'"; }
        std::string operator()(const Tensor& t) const { return "<tensor " + TensorMeta{t.sizes(), t.strides(), t.dtype(), {}}.str() + ">"; }
        std::string operator()(DType d) const { return std::string(dtypeName(d)); }
        std::string operator()(const Device& d) const { return "device(type='" + d.str() + "')"; }
        std::string operator()(const std::shared_ptr<IValue::Sequence>& seq) const {
            std::vector<std::string> parts;
            for (const auto& item : seq->items) parts.push_back(constantRepr(item));
            std::string inner = fmt::format("{}", fmt::join(parts, ", "));
            if (!seq->isTuple) return "[" + inner + "]";
            return parts.size() == 1 ? "(" + inner + ",)" : "(" + inner + ")";
        }
    };
    return std::visit(Visitor{}, value.v);
}

std::string argumentCode(const Argument& arg) {
    switch (arg.kind) {
    case Argument::Kind::NodeRef:
        return arg.outputIndex < 0 ? arg.node->name : fmt::format("{}[{}]", arg.node->name, arg.outputIndex);
    case Argument::Kind::Constant: return constantRepr(arg.constant);
    case Argument::Kind::List:
    case Argument::Kind::Tuple: {
        std::vector<std::string> parts;
        for (const auto& item : arg.items) parts.push_back(argumentCode(item));
        std::string inner = fmt::format("{}", fmt::join(parts, ", "));
        if (arg.kind == Argument::Kind::List) return "[" + inner + "]";
        return parts.size() == 1 ? "(" + inner + ",)" : "(" + inner + ")";
    }
    }
    return "?";
}

namespace {

std::string callArguments(const Node& node, size_t firstArg) {
    std::vector<std::string> parts;
    for (size_t i = firstArg; i < node.args.size(); ++i) parts.push_back(argumentCode(node.args[i]));
    for (const auto& [name, arg] : node.kwargs) parts.push_back(name + " = " + argumentCode(arg));
    return fmt::format("{}", fmt::join(parts, ", "));
}

std::string functionTarget(const Node& node) {
    switch (node.style) {
    case CallStyle::TorchFunction:
        // The one op that lives outside the torch namespace (seed 000's realize).
        if (node.target == "sym_size") return "torch.ops.aten.sym_size.int";
        return node.target == "realize" ? "torch._inductor.test_operators.realize" : "torch." + node.target;
    case CallStyle::Functional: return "torch.nn.functional." + node.target;
    case CallStyle::Method: return node.target;
    case CallStyle::Operator: return "operator." + pythonOperatorName(node.target);
    }
    return node.target;
}

std::string outputTuple(const Graph& graph) {
    Argument out = Argument::sequence(graph.outputs(), true);
    return argumentCode(out);
}

}  // namespace

std::string opcodeName(NodeOp op) {
    switch (op) {
    case NodeOp::Placeholder: return "placeholder";
    case NodeOp::CallFunction: return "call_function";
    case NodeOp::CallMethod: return "call_method";
    case NodeOp::Output: return "output";
    }
    return "?";
}

namespace {

// x[:, 1:] for slice(x, 1, 1, INT64_MAX, 1) and x[:, 2] for select(x, 1, 2), as the script
// spelled them; null when the arguments are not plain constants.
std::optional<std::string> indexingCode(const Node& node) {
    bool isSlice = node.target == "slice" && node.args.size() == 5;
    bool isSelect = node.target == "select" && node.args.size() == 3;
    if ((!isSlice && !isSelect) || !node.kwargs.empty()) return std::nullopt;
    for (size_t i = 1; i < node.args.size(); ++i)
        if (node.args[i].kind != Argument::Kind::Constant || !node.args[i].constant.isInt()) return std::nullopt;
    auto arg = [&](size_t i) { return node.args[i].constant.toInt(); };
    std::string index;
    for (int64_t d = 0; d < arg(1); ++d) index += ":, ";
    if (isSelect) return argumentCode(node.args[0]) + "[" + index + std::to_string(arg(2)) + "]";
    std::string start = arg(2) == 0 ? "" : std::to_string(arg(2));
    std::string end = arg(3) == std::numeric_limits<int64_t>::max() ? "" : std::to_string(arg(3));
    std::string step = arg(4) == 1 ? "" : ":" + std::to_string(arg(4));
    return argumentCode(node.args[0]) + "[" + index + start + ":" + end + step + "]";
}

}  // namespace

std::string nodeCode(const Node& node) {
    if (node.op == NodeOp::Placeholder) return node.target;
    if (auto indexing = indexingCode(node)) return *indexing;
    if (node.style == CallStyle::Operator && !node.operatorSymbol.empty()) {
        if (node.args.size() == 1) return node.operatorSymbol + argumentCode(node.args[0]);
        if (node.args.size() == 2 && node.kwargs.empty())
            return argumentCode(node.args[0]) + " " + node.operatorSymbol + " " + argumentCode(node.args[1]);
    }
    if (node.style == CallStyle::Method && !node.args.empty())
        return argumentCode(node.args[0]) + "." + node.target + "(" + callArguments(node, 1) + ")";
    return functionTarget(node) + "(" + callArguments(node, 0) + ")";
}

std::string graphReadable(const Graph& graph) {
    std::string params;
    for (Node* p : graph.placeholders())
        params += fmt::format(", {}: \"{}\"", p->name, p->meta.empty() ? "" : p->meta[0].str());
    std::string out = "class GraphModule(torch.nn.Module):\n";
    out += "    def forward(self" + params + "):\n";
    std::string lastComment;
    for (const auto& n : graph.nodes()) {
        if (n->op == NodeOp::Placeholder) continue;
        std::string comment = fmt::format("# File: {}:{} in {}, code: {}", n->where.file, n->where.line,
                                          n->stack.empty() ? "<module>" : n->stack.back().function,
                                          n->sourceLine);
        if (comment != lastComment) {
            out += "\n        " + comment + "\n";
            lastComment = comment;
        }
        std::string annotation;
        if (n->meta.size() == 1 && !n->returnsTuple) annotation = ": \"" + n->meta[0].str() + "\"";
        if (!n->symbolicScalar.empty()) annotation = ": \"Sym(" + n->symbolicScalar + ")\"";
        out += "        " + n->name + annotation + " = " + nodeCode(*n) + "\n";
    }
    out += "        return " + outputTuple(graph) + "\n";
    return out;
}

namespace {

// Python code making a random input like `meta` (contiguous).
std::string inputMaker(const TensorMeta& meta) {
    std::string sizes = "[" + fmt::format("{}", fmt::join(meta.sizes, ", ")) + "]";
    if (meta.dtype == DType::Bool) return fmt::format("torch.randint(0, 2, {}).bool()", sizes);
    if (isIntegral(meta.dtype)) return fmt::format("torch.randint(0, 10, {}, dtype={})", sizes, dtypeName(meta.dtype));
    return fmt::format("torch.randn({}, dtype={})", sizes, dtypeName(meta.dtype));
}

}  // namespace

std::string graphRunnable(const Graph& graph, const std::string& graphName) {
    std::vector<std::string> params, makers;
    for (Node* p : graph.placeholders()) {
        params.push_back(p->name);
        makers.push_back(p->meta.empty() ? "None" : inputMaker(p->meta[0]));
    }
    std::string out = fmt::format("# {}: the captured graph with inputs of its shapes and dtypes; runs under\n"
                                  "# Fusescope (fusescope-cli run) and real PyTorch alike.\n"
                                  "import torch\nfrom torch._inductor import test_operators\n\n\n",
                                  graphName);
    out += fmt::format("def forward({}):\n", fmt::join(params, ", "));
    for (const auto& n : graph.nodes()) {
        if (n->op == NodeOp::Placeholder) continue;
        out += fmt::format("    # {}:{}: {}\n", n->where.file, n->where.line, n->sourceLine);
        out += "    " + n->name + " = " + nodeCode(*n) + "\n";
    }
    out += "    return " + outputTuple(graph) + "\n\n\n";
    out += "torch.manual_seed(0)\n";
    out += fmt::format("inputs = [{}]\n", fmt::join(makers, ", "));
    std::vector<std::string> args;
    for (size_t i = 0; i < params.size(); ++i) args.push_back(fmt::format("inputs[{}]", i));
    out += fmt::format("outputs = forward({})\n", fmt::join(args, ", "));
    out += "for out in outputs:\n    print(out.shape, out.dtype)\n";
    return out;
}

std::string graphTabular(const Graph& graph) {
    std::vector<std::array<std::string, 5>> rows;
    for (const auto& n : graph.nodes()) {
        std::string target;
        if (n->op == NodeOp::Placeholder) target = n->target;
        else if (n->style == CallStyle::Operator) target = opDisplayName(*n);
        else target = functionTarget(*n);
        std::vector<std::string> args;
        for (const auto& a : n->args) args.push_back(argumentCode(a));
        std::string argText = n->op == NodeOp::Placeholder ? "()"
                              : args.size() == 1 ? "(" + args[0] + ",)"
                                                 : "(" + fmt::format("{}", fmt::join(args, ", ")) + ")";
        std::vector<std::string> kwargs;
        for (const auto& [name, a] : n->kwargs) kwargs.push_back("'" + name + "': " + argumentCode(a));
        rows.push_back({opcodeName(n->op), n->name, target, argText,
                        "{" + fmt::format("{}", fmt::join(kwargs, ", ")) + "}"});
    }
    rows.push_back({"output", "output", "output", "(" + outputTuple(graph) + ",)", "{}"});
    std::array<std::string, 5> header = {"opcode", "name", "target", "args", "kwargs"};
    std::array<size_t, 5> width{};
    for (size_t c = 0; c < 5; ++c) {
        width[c] = header[c].size();
        for (const auto& r : rows) width[c] = std::max(width[c], r[c].size());
    }
    auto line = [&](const std::array<std::string, 5>& cells) {
        std::string s;
        for (size_t c = 0; c < 5; ++c) {
            std::string cell = cells[c];
            if (c < 4) cell.resize(width[c], ' ');
            s += cell + (c < 4 ? "  " : "");
        }
        while (!s.empty() && s.back() == ' ') s.pop_back();
        return s + "\n";
    };
    std::string out = line(header);
    std::array<std::string, 5> rule;
    for (size_t c = 0; c < 5; ++c) rule[c] = std::string(width[c], '-');
    out += line(rule);
    for (const auto& r : rows) out += line(r);
    return out;
}

}  // namespace fusescope

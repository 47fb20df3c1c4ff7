#include "codegen/common/loop_statements.h"

#include <algorithm>
#include <cmath>
#include <map>

#include <fmt/format.h>

namespace fusescope {

namespace {

const std::map<std::string, std::string>& infixOps() {
    static const std::map<std::string, std::string> ops = {
        {"add", "+"}, {"sub", "-"}, {"mul", "*"}, {"truediv", "/"}, {"eq", "=="}, {"ne", "!="}, {"lt", "<"}, {"le", "<="},
        {"gt", ">"}, {"ge", ">="}, {"logical_and", "&&"}, {"logical_or", "||"}, {"logical_xor", "!="},
        {"bitwise_and", "&"}, {"bitwise_or", "|"}, {"bitwise_xor", "^"}};
    return ops;
}

}  // namespace

std::string cLiteral(double v, DType t) {
    switch (t) {
    case DType::Bool: return v != 0 ? "true" : "false";
    case DType::Int32:
    case DType::Int64: return fmt::format("{}L", static_cast<int64_t>(v));
    default: break;
    }
    bool f32 = t != DType::Float64;
    if (std::isnan(v)) return f32 ? "__builtin_nanf(\"\")" : "__builtin_nan(\"\")";
    if (std::isinf(v)) return fmt::format("{}{}", v < 0 ? "-" : "", f32 ? "__builtin_inff()" : "__builtin_inf()");
    std::string s = f32 ? fmt::format("{}", static_cast<float>(v)) : fmt::format("{}", v);
    if (s.find_first_of(".e") == std::string::npos) s += ".0";
    return f32 ? s + "f" : s;
}

std::string reductionInit(const std::string& type, DType t) {
    if (type == "sum") return cLiteral(0, t);
    if (type == "prod") return cLiteral(1, t);
    if (type == "any") return "false";
    if (type == "all") return "true";
    bool isMax = type == "max" || type == "argmax";
    if (isFloating(t)) return cLiteral(isMax ? -INFINITY : INFINITY, t);
    if (t == DType::Bool) return isMax ? "false" : "true";
    if (t == DType::Int32) return isMax ? "(-2147483647 - 1)" : "2147483647";
    return isMax ? "(-9223372036854775807L - 1)" : "9223372036854775807L";
}

std::string reductionCombine(const std::string& type, const std::string& acc, const std::string& v) {
    if (type == "sum") return fmt::format("{} + {}", acc, v);
    if (type == "prod") return fmt::format("{} * {}", acc, v);
    if (type == "max") return fmt::format("fs_maximum({}, {})", acc, v);
    if (type == "min") return fmt::format("fs_minimum({}, {})", acc, v);
    if (type == "any") return fmt::format("{} || {}", acc, v);
    return fmt::format("{} && {}", acc, v);  // all
}

std::string memberPrefix(int member) { return fmt::format("m{}_", member); }

std::string loopStatements(const LoopBody& body, const std::string& prefix, const std::string& pad, std::string* reduced) {
    std::string out;
    auto v = [&](const LoopOp& op, size_t i) { return prefix + body.ops[op.args[i]].name; };
    for (const auto& op : body.ops) {
        std::string name = prefix + op.name;
        std::string type = dtypeCType(op.dtype);
        if (op.op == "get_index") {
            out += fmt::format("{}int64_t {} = {};\n", pad, name, body.indices[op.index].cstr());
        } else if (op.op == "load") {
            out += fmt::format("{}{} {} = {}[{}];\n", pad, type, name, op.buffer, v(op, 0));
        } else if (op.op == "masked_load") {
            out += fmt::format("{}{} {} = {} ? {}[{}] : {}(0);\n", pad, type, name, v(op, 1), op.buffer, v(op, 0), type);
        } else if (op.op == "store") {
            out += fmt::format("{}{}[{}] = {};\n", pad, op.buffer, v(op, 0), v(op, 1));
        } else if (op.op == "constant") {
            out += fmt::format("{}{} {} = {};\n", pad, type, name, cLiteral(op.value, op.dtype));
        } else if (op.op == "index_expr") {
            out += fmt::format("{}{} {} = ({}){};\n", pad, type, name, type, v(op, 0));
        } else if (op.op == "to_dtype") {
            std::string x = v(op, 0);
            out += fmt::format("{}{} {} = {};\n", pad, type, name, op.dtype == DType::Bool ? x + " != 0" : "(" + type + ")" + x);
        } else if (op.op == "reduction" && reduced) {
            *reduced = v(op, 0);
        } else if (op.op == "reduction") {
            // Over a single element (the reduced dims had size 1): the value itself.
            bool arg = op.reductionType == "argmax" || op.reductionType == "argmin";
            out += fmt::format("{}{} {} = {};\n", pad, type, name, arg ? "0L" : "(" + type + ")" + v(op, 0));
        } else if (op.op == "store_reduction" && !reduced) {
            out += fmt::format("{}{}[{}] = {};\n", pad, op.buffer, v(op, 0), v(op, 1));
        } else if (op.op == "store_reduction") {
            // written by the reduction loop
        } else if (op.op == "where") {
            out += fmt::format("{}{} {} = {} ? {} : {};\n", pad, type, name, v(op, 0), v(op, 1), v(op, 2));
        } else if (op.op == "neg") {
            out += fmt::format("{}{} {} = -{};\n", pad, type, name, v(op, 0));
        } else if (op.op == "reciprocal") {
            out += fmt::format("{}{} {} = {} / {};\n", pad, type, name, cLiteral(1, op.dtype), v(op, 0));
        } else if (op.op == "square") {
            out += fmt::format("{}{} {} = {} * {};\n", pad, type, name, v(op, 0), v(op, 0));
        } else if (op.op == "logical_not") {
            out += fmt::format("{}bool {} = !{};\n", pad, name, v(op, 0));
        } else if (op.op == "bitwise_not") {
            out += fmt::format("{}{} {} = {}{};\n", pad, type, name, op.dtype == DType::Bool ? "!" : "~", v(op, 0));
        } else if (auto it = infixOps().find(op.op); it != infixOps().end()) {
            out += fmt::format("{}{} {} = {} {} {};\n", pad, type, name, v(op, 0), it->second, v(op, 1));
        } else {
            std::string args;
            for (size_t i = 0; i < op.args.size(); ++i) args += (i ? ", " : "") + v(op, i);
            out += fmt::format("{}{} {} = fs_{}({});\n", pad, type, name, op.op, args);
        }
    }
    return out;
}

const LoopOp& storeOpOf(const LoopBody& body) {
    return *std::find_if(body.ops.begin(), body.ops.end(),
                         [](const LoopOp& o) { return o.op == "store" || o.op == "store_reduction"; });
}

const LoopOp& reductionOpOf(const LoopBody& body) {
    return *std::find_if(body.ops.begin(), body.ops.end(), [](const LoopOp& o) { return o.op == "reduction"; });
}

KernelBuffers kernelBuffers(const KernelGroup& kernel) {
    KernelBuffers out;
    for (const auto& body : kernel.bodies)
        for (const auto& op : body.ops) {
            if (op.buffer.empty()) continue;
            if (std::find(out.names.begin(), out.names.end(), op.buffer) == out.names.end()) out.names.push_back(op.buffer);
            if (op.op == "store" || op.op == "store_reduction") out.written.insert(op.buffer);
        }
    return out;
}

namespace {

// What the kernel computes and where it came from, as comment lines: per member its buffer,
// layout, graph nodes and ops; then the script lines.
void addProvenanceComments(const KernelGroup& kernel, KernelCode& out) {
    std::set<std::string> lines;
    for (int m = 0; m < static_cast<int>(kernel.nodes.size()); ++m) {
        const SchedulerNode* n = kernel.nodes[m];
        std::string nodes, ops;
        for (const Node* o : n->buffer->origins) {
            nodes += (nodes.empty() ? "" : ", ") + o->name;
            ops += (ops.empty() ? "" : ", ") + o->target;
        }
        out.add(fmt::format("// {}: {} {}; graph nodes: {}; ops: {}\n", n->name, n->isReduction() ? "reduction" : "pointwise",
                            n->buffer->layout.str(), nodes, ops),
                m);
        for (const Node* o : n->buffer->origins)
            if (o->where.known()) lines.insert(fmt::format("//   {}:{}: {}\n", o->where.file, o->where.line, o->sourceLine));
    }
    for (const auto& l : lines) out.add(l, KernelCode::kAllMembers);
}

}  // namespace

KernelCode startKernel(const KernelGroup& kernel, const LoweredGraph& graph, const std::string& declaration,
                       const std::string& name, const char* restrictQualifier) {
    KernelBuffers buffers = kernelBuffers(kernel);
    std::string params;
    for (const auto& b : buffers.names) {
        std::string type = dtypeCType(graph.layoutOf(b).dtype);
        params += fmt::format("{}{}{}* {} {}", params.empty() ? "" : ", ", buffers.written.count(b) ? "" : "const ", type,
                              restrictQualifier, b);
    }
    for (const auto& s : graph.symbols) params += fmt::format("{}int64_t {}", params.empty() ? "" : ", ", s.name);
    KernelCode out;
    out.buffers = buffers.names;
    addProvenanceComments(kernel, out);
    out.add(fmt::format("{} {}({}) {{\n", declaration, name, params), KernelCode::kAllMembers);
    return out;
}

}  // namespace fusescope

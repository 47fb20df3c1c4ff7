// One C++ function per kernel group. The loop nest is the group's iteration: pointwise
// dims outside (the outermost one in parallel through OpenMP when the work is large),
// then per member either its statements directly (a pointwise member over the outer dims),
// a vectorisable inner loop (a pointwise member over every dim), or a reduction loop with
// 16 independent accumulator lanes, which the compiler keeps in vector registers.

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <set>

#include <fmt/format.h>

#include "codegen/cpp/cpp_codegen.h"

namespace fusescope {

namespace {

constexpr int kLanes = 16;
constexpr int64_t kParallelWork = 1 << 15;  // elements below which threads cost more than they save
constexpr int64_t kChunk = 4096;            // elements a thread takes at a time from a flat loop

std::string literal(double v, DType t) {
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

const std::map<std::string, std::string>& infixOps() {
    static const std::map<std::string, std::string> ops = {
        {"add", "+"}, {"sub", "-"}, {"mul", "*"}, {"truediv", "/"}, {"eq", "=="}, {"ne", "!="}, {"lt", "<"}, {"le", "<="},
        {"gt", ">"}, {"ge", ">="}, {"logical_and", "&&"}, {"logical_or", "||"}, {"logical_xor", "!="},
        {"bitwise_and", "&"}, {"bitwise_or", "|"}, {"bitwise_xor", "^"}};
    return ops;
}

std::string reductionInit(const std::string& type, DType t) {
    if (type == "sum") return literal(0, t);
    if (type == "prod") return literal(1, t);
    if (type == "any") return "false";
    if (type == "all") return "true";
    bool isMax = type == "max" || type == "argmax";
    if (isFloating(t)) return literal(isMax ? -INFINITY : INFINITY, t);
    if (t == DType::Bool) return isMax ? "false" : "true";
    if (t == DType::Int32) return isMax ? "(-2147483647 - 1)" : "2147483647";
    return isMax ? "(-9223372036854775807L - 1)" : "9223372036854775807L";
}

std::string combine(const std::string& type, const std::string& acc, const std::string& v) {
    if (type == "sum") return fmt::format("{} + {}", acc, v);
    if (type == "prod") return fmt::format("{} * {}", acc, v);
    if (type == "max") return fmt::format("fs_maximum({}, {})", acc, v);
    if (type == "min") return fmt::format("fs_minimum({}, {})", acc, v);
    if (type == "any") return fmt::format("{} || {}", acc, v);
    return fmt::format("{} && {}", acc, v);  // all
}

// Each member's variables carry its own prefix so fused members never clash.
std::string memberPrefix(int member) { return fmt::format("m{}_", member); }

class KernelWriter {
public:
    KernelWriter(const KernelGroup& k, const LoweredGraph& g) : k_(k), g_(g) {}

    // The kernel's code, each line tagged with the member it computes (kAllMembers for the
    // loop nest and the parts every member shares).
    CppKernel write(const std::string& name) {
        collectBuffers();
        std::string params;
        for (const auto& b : buffers_) {
            std::string type = dtypeCType(g_.layoutOf(b).dtype);
            params += fmt::format("{}{}{}* __restrict {}", params.empty() ? "" : ", ", written_.count(b) ? "" : "const ", type, b);
        }
        for (const auto& s : g_.symbols) params += fmt::format("{}int64_t {}", params.empty() ? "" : ", ", s.name);
        CppKernel out;
        out.buffers = buffers_;
        provenance(out);
        out.add(fmt::format("extern \"C\" void {}({}) {{\n", name, params), CppKernel::kAllMembers);
        size_t p = k_.pointwiseSizes.size();
        IndexExpr work = product(k_.pointwiseSizes) * product(k_.reductionSizes);
        std::string parallelIf = fmt::format("if(parallel: {} >= {})", work.cstr(), kParallelWork);
        std::string indent = "    ";
        // A flat pointwise loop is split in chunks: threads take chunks, each a vector loop.
        size_t depth = p + (p == 1 && k_.reductionSizes.empty() ? 1 : 0);
        std::string nest;
        for (size_t d = 0; d < p; ++d) {
            std::string pad = indent + std::string(4 * d, ' ');
            bool outer = d == 0, inner = d + 1 == p && k_.reductionSizes.empty();
            if (depth > p) {
                std::string n = k_.pointwiseSizes[0].cstr();
                nest += fmt::format("{}#pragma omp parallel for {}\n", pad, parallelIf);
                nest += fmt::format("{}for (int64_t chunk = 0; chunk < {}; chunk += {}) {{\n", pad, n, kChunk);
                nest += fmt::format("{}    int64_t chunk_end = chunk + {} < {} ? chunk + {} : {};\n", pad, kChunk, n, kChunk, n);
                nest += fmt::format("{}    #pragma omp simd\n", pad);
                nest += fmt::format("{}    for (int64_t c0 = chunk; c0 < chunk_end; ++c0) {{\n", pad);
                continue;
            }
            if (outer) nest += pad + "#pragma omp parallel for " + parallelIf + "\n";
            else if (inner) nest += pad + "#pragma omp simd\n";
            nest += fmt::format("{}for (int64_t c{} = 0; c{} < {}; ++c{}) {{\n", pad, d, d, k_.pointwiseSizes[d].cstr(), d);
        }
        out.add(nest, CppKernel::kAllMembers);
        // Pure pointwise: every member inside the innermost loop; else each member's own loops.
        for (int m = 0; m < static_cast<int>(k_.nodes.size()); ++m) {
            if (k_.reductionSizes.empty()) {
                prefix_ = memberPrefix(m);
                out.add(statements(k_.bodies[m], indent + std::string(4 * depth, ' '), nullptr), m);
            } else {
                out.add(member(m, indent + std::string(4 * p, ' ')), m);
            }
        }
        std::string close;
        for (size_t d = depth; d-- > 0;) close += indent + std::string(4 * d, ' ') + "}\n";
        out.add(close + "}\n", CppKernel::kAllMembers);
        return out;
    }

private:
    // What the kernel computes and where it came from: graph nodes, ops and script lines.
    void provenance(CppKernel& out) const {
        std::set<std::string> lines;
        for (int m = 0; m < static_cast<int>(k_.nodes.size()); ++m) {
            const SchedulerNode* n = k_.nodes[m];
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
        for (const auto& l : lines) out.add(l, CppKernel::kAllMembers);
    }

    void collectBuffers() {
        for (const auto& body : k_.bodies)
            for (const auto& op : body.ops) {
                if (op.buffer.empty()) continue;
                if (std::find(buffers_.begin(), buffers_.end(), op.buffer) == buffers_.end()) buffers_.push_back(op.buffer);
                if (op.op == "store" || op.op == "store_reduction") written_.insert(op.buffer);
            }
    }

    // The body's ops as statements; a reduction op's value is returned through `reduced`
    // (its name) instead of being accumulated here.
    std::string statements(const LoopBody& body, const std::string& pad, std::string* reduced) {
        std::string out;
        auto v = [&](const LoopOp& op, size_t i) { return prefix_ + body.ops[op.args[i]].name; };
        for (const auto& op : body.ops) {
            std::string name = prefix_ + op.name;
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
                out += fmt::format("{}{} {} = {};\n", pad, type, name, literal(op.value, op.dtype));
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
                out += fmt::format("{}{} {} = {} / {};\n", pad, type, name, literal(1, op.dtype), v(op, 0));
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

    const LoopOp& storeOp(const LoopBody& body) const {
        return *std::find_if(body.ops.begin(), body.ops.end(),
                             [](const LoopOp& o) { return o.op == "store" || o.op == "store_reduction"; });
    }

    // One member inside the outer (pointwise) loops of a reduction group.
    std::string member(size_t m, const std::string& pad) {
        const LoopBody& body = k_.bodies[m];
        prefix_ = memberPrefix(m);
        size_t p = k_.pointwiseSizes.size();
        if (body.vars.size() == p) return statements(body, pad, nullptr);  // pointwise over the outer dims only
        const SchedulerNode* node = k_.nodes[m];
        std::vector<size_t> rdims;
        for (size_t d = p; d < body.vars.size(); ++d) rdims.push_back(d);
        if (!node->isReduction()) {
            std::string out;
            std::string inner = pad;
            for (size_t i = 0; i < rdims.size(); ++i) {
                if (i + 1 == rdims.size()) out += inner + "#pragma omp simd\n";
                out += fmt::format("{}for (int64_t {} = 0; {} < {}; ++{}) {{\n", inner, body.vars[rdims[i]], body.vars[rdims[i]],
                                   body.ranges[rdims[i]].cstr(), body.vars[rdims[i]]);
                inner += "    ";
            }
            out += statements(body, inner, nullptr);
            for (size_t i = rdims.size(); i-- > 0;) out += pad + std::string(4 * i, ' ') + "}\n";
            return out;
        }
        return reduction(body, pad, rdims);
    }

    std::string reduction(const LoopBody& body, const std::string& pad, const std::vector<size_t>& rdims) {
        const LoopOp* red = nullptr;
        for (const auto& op : body.ops)
            if (op.op == "reduction") red = &op;
        const LoopOp& store = storeOp(body);
        std::string type = dtypeCType(red->dtype);
        std::string acc = prefix_ + "acc";
        std::string out = fmt::format("{}{{\n", pad);
        std::string in = pad + "    ";
        bool arg = red->reductionType == "argmax" || red->reductionType == "argmin";
        bool lanes = !arg && rdims.size() == 1;
        std::string srcType = dtypeCType(red->srcDtype);
        // The reduced value at given reduction indices, as a lambda so the lane loop and the
        // tail share one body.
        std::string params;
        for (size_t d : rdims) params += (params.empty() ? "" : ", ") + std::string("int64_t ") + body.vars[d];
        std::string value;
        std::string stmts = statements(body, in + "    ", &value);
        out += fmt::format("{}auto {}value = [&]({}) -> {} {{\n{}{}    return {};\n{}}};\n", in, prefix_, params, srcType, stmts, in,
                           value, in);
        std::string init = reductionInit(red->reductionType, red->srcDtype);
        if (arg) {
            // First index of the extreme value; NaN counts as the extreme, as in PyTorch.
            const std::string& r = body.vars[rdims[0]];
            std::string better = red->reductionType == "argmax" ? ">" : "<";
            out += fmt::format("{}{} {}best = {};\n{}int64_t {} = 0;\n", in, srcType, prefix_, init, in, acc);
            out += fmt::format("{}for (int64_t {} = 0; {} < {}; ++{}) {{\n", in, r, r, body.ranges[rdims[0]].cstr(), r);
            out += fmt::format("{}    {} v = {}value({});\n", in, srcType, prefix_, r);
            out += fmt::format("{}    if (!fs_isnan({}best) && (fs_isnan(v) || v {} {}best)) {{ {}best = v; {} = {}; }}\n", in, prefix_,
                               better, prefix_, prefix_, acc, r);
            out += in + "}\n";
        } else if (lanes) {
            const std::string& r = body.vars[rdims[0]];
            std::string range = body.ranges[rdims[0]].cstr();
            out += fmt::format("{}{} {}lanes[{}];\n", in, type, prefix_, kLanes);
            out += fmt::format("{}for (int l = 0; l < {}; ++l) {}lanes[l] = {};\n", in, kLanes, prefix_, init);
            out += fmt::format("{}int64_t {}base = 0;\n", in, prefix_);
            out += fmt::format("{}for (; {}base + {} <= {}; {}base += {}) {{\n", in, prefix_, kLanes, range, prefix_, kLanes);
            out += fmt::format("{}    for (int l = 0; l < {}; ++l) {}lanes[l] = {};\n", in, kLanes, prefix_,
                               combine(red->reductionType, prefix_ + "lanes[l]", prefix_ + "value(" + prefix_ + "base + l)"));
            out += in + "}\n";
            out += fmt::format("{}{} {} = {};\n", in, type, acc, init);
            out += fmt::format("{}for (int l = 0; l < {}; ++l) {} = {};\n", in, kLanes, acc, combine(red->reductionType, acc, prefix_ + "lanes[l]"));
            out += fmt::format("{}for (int64_t {} = {}base; {} < {}; ++{}) {} = {};\n", in, r, prefix_, r, range, r, acc,
                               combine(red->reductionType, acc, prefix_ + "value(" + r + ")"));
        } else {
            out += fmt::format("{}{} {} = {};\n", in, type, acc, init);
            std::string inner = in;
            std::string call;
            for (size_t d : rdims) {
                out += fmt::format("{}for (int64_t {} = 0; {} < {}; ++{}) {{\n", inner, body.vars[d], body.vars[d], body.ranges[d].cstr(),
                                   body.vars[d]);
                call += (call.empty() ? "" : ", ") + body.vars[d];
                inner += "    ";
            }
            out += fmt::format("{}{} = {};\n", inner, acc, combine(red->reductionType, acc, prefix_ + "value(" + call + ")"));
            for (size_t i = rdims.size(); i-- > 0;) out += in + std::string(4 * i, ' ') + "}\n";
        }
        std::string index = body.indices[body.ops[store.args[0]].index].cstr();
        out += fmt::format("{}{}[{}] = {};\n{}}}\n", in, store.buffer, index, acc, pad);
        return out;
    }

    const KernelGroup& k_;
    const LoweredGraph& g_;
    std::vector<std::string> buffers_;
    std::set<std::string> written_;
    std::string prefix_;
};

}  // namespace

void CppKernel::add(const std::string& text, int member) {
    code += text;
    lineMembers.insert(lineMembers.end(), std::count(text.begin(), text.end(), '\n'), member);
}

CppKernel cppKernel(const KernelGroup& kernel, const std::string& name, const LoweredGraph& graph) {
    return KernelWriter(kernel, graph).write(name);
}

}  // namespace fusescope

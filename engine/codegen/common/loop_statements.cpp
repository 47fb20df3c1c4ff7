#include "codegen/common/loop_statements.h"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "core/error.h"

namespace fusescope {

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

std::string reductionInit(ReductionKind type, DType t) {
    bool isMax = false;
    switch (type) {
    case ReductionKind::Sum: return cLiteral(0, t);
    case ReductionKind::Prod: return cLiteral(1, t);
    case ReductionKind::Any: return "false";
    case ReductionKind::All: return "true";
    case ReductionKind::Max:
    case ReductionKind::ArgMax: isMax = true; break;
    case ReductionKind::Min:
    case ReductionKind::ArgMin: break;
    }
    if (isFloating(t)) return cLiteral(isMax ? -INFINITY : INFINITY, t);
    if (t == DType::Bool) return isMax ? "false" : "true";
    if (t == DType::Int32) return isMax ? "(-2147483647 - 1)" : "2147483647";
    return isMax ? "(-9223372036854775807L - 1)" : "9223372036854775807L";
}

std::string reductionCombine(ReductionKind type, const std::string& acc, const std::string& v) {
    switch (type) {
    case ReductionKind::Sum: return fmt::format("{} + {}", acc, v);
    case ReductionKind::Prod: return fmt::format("{} * {}", acc, v);
    case ReductionKind::Max: return fmt::format("fs_maximum({}, {})", acc, v);
    case ReductionKind::Min: return fmt::format("fs_minimum({}, {})", acc, v);
    case ReductionKind::Any: return fmt::format("{} || {}", acc, v);
    case ReductionKind::All: return fmt::format("{} && {}", acc, v);
    case ReductionKind::ArgMax:
    case ReductionKind::ArgMin: break;  // they keep the best value and its index (the kernels' arg loops)
    }
    throw Error(fmt::format("internal error: {} has no combining step", reductionName(type)));
}

std::string memberPrefix(int member) { return fmt::format("m{}_", member); }

namespace {

// One op of a body as a statement (none for a store_reduction the reduction loop writes).
// Structural ops are spelled here; math ops assign the C expression of their loop-op row
// (lower/loop_ops.h): an operator or the prelude's fs_<name> helper.
std::string statement(const LoopBody& body, const LoopOp& op, const std::string& prefix, const std::string& pad,
                      std::string* reduced, const LoadSpelling* spellLoad, const StoreSpelling* spellStore) {
    auto v = [&](size_t i) { return prefix + body.ops[op.args[i]].name; };
    std::string name = prefix + op.name;
    std::string type = dtypeCType(op.dtype);
    auto assign = [&](const std::string& expression) { return fmt::format("{}{} {} = {};\n", pad, type, name, expression); };
    if (isMathOp(op.kind)) {
        std::vector<std::string> args;
        for (size_t i = 0; i < op.args.size(); ++i) args.push_back(v(i));
        return assign(spellMathOp(op.kind, args));
    }
    switch (op.kind) {
    case LoopOpKind::GetIndex: return fmt::format("{}int64_t {} = {};\n", pad, name, body.indices[op.index].cstr());
    case LoopOpKind::Load: {
        std::string plain = fmt::format("{}[{}]", op.buffer, v(0));
        const LoopOp& index = body.ops[op.args[0]];
        if (!spellLoad || index.kind != LoopOpKind::GetIndex) return assign(plain);
        return assign((*spellLoad)(op.buffer, body.indices[index.index], plain));
    }
    case LoopOpKind::MaskedLoad: return assign(fmt::format("{} ? {}[{}] : {}(0)", v(1), op.buffer, v(0), type));
    case LoopOpKind::Store: {
        std::string plain = fmt::format("{}[{}]", op.buffer, v(0));
        const LoopOp& index = body.ops[op.args[0]];
        if (spellStore && index.kind == LoopOpKind::GetIndex) plain = (*spellStore)(op.buffer, body.indices[index.index], plain);
        return fmt::format("{}{} = {};\n", pad, plain, v(1));
    }
    case LoopOpKind::StoreReduction:
        if (reduced) return "";  // written by the reduction loop
        return fmt::format("{}{}[{}] = {};\n", pad, op.buffer, v(0), v(1));
    case LoopOpKind::Constant: return assign(cLiteral(op.value, op.dtype));
    case LoopOpKind::IndexExpr: return assign(fmt::format("({}){}", type, v(0)));
    case LoopOpKind::ToDtype: return assign(op.dtype == DType::Bool ? v(0) + " != 0" : "(" + type + ")" + v(0));
    case LoopOpKind::Reduction:
        if (reduced) {
            *reduced = v(0);
            return "";
        }
        // Over a single element (the reduced dims had size 1): the value itself.
        return assign(isArgReduction(op.reductionKind) ? "0L" : "(" + type + ")" + v(0));
    default: break;  // math ops, spelled above
    }
    throw Error(fmt::format("internal error: no C spelling for loop op {}", loopOpName(op.kind)));
}

}  // namespace

namespace {

// Per op of the body: whether it reads nothing the loops change (Hoisting).
std::vector<bool> loopInvariant(const LoopBody& body, const std::set<std::string>& written, const std::vector<std::string>& varying) {
    const std::vector<std::string>& vars = varying.empty() ? body.vars : varying;
    std::vector<bool> invariant(body.ops.size(), false);
    auto argsInvariant = [&](const LoopOp& op) {
        return std::all_of(op.args.begin(), op.args.end(), [&](size_t a) { return invariant[a]; });
    };
    for (size_t i = 0; i < body.ops.size(); ++i) {
        const LoopOp& op = body.ops[i];
        switch (op.kind) {
        case LoopOpKind::Constant: invariant[i] = true; break;
        case LoopOpKind::GetIndex:
            invariant[i] = std::none_of(vars.begin(), vars.end(), [&](const std::string& v) { return body.indices[op.index].uses(v); });
            break;
        case LoopOpKind::Load: invariant[i] = !written.count(op.buffer) && argsInvariant(op); break;
        case LoopOpKind::ToDtype: invariant[i] = argsInvariant(op); break;
        default: invariant[i] = isMathOp(op.kind) && isFloating(op.dtype) && argsInvariant(op); break;
        }
    }
    return invariant;
}

// The ops that go before the loops: invariant floating math over a load (math over constants
// alone the compiler folds where it stands; a constant moved out of the loop would be read
// from memory there, turning `x / 1024.0f` into a division), and what they read, which the
// loop keeps its own copy of (same names, inner scope) where it reads them too.
struct HoistPlan {
    std::vector<bool> before;  // written before the loops (the moved math and its operands)
    std::vector<bool> inLoop;  // written in the loop (all but the moved math and what only it reads)
};
HoistPlan hoistPlan(const LoopBody& body, const std::set<std::string>& written, const std::vector<std::string>& varying) {
    std::vector<bool> invariant = loopInvariant(body, written, varying);
    const size_t n = body.ops.size();
    std::vector<bool> readsLoad(n, false), moved(n, false), usedInLoop(n, false);
    for (size_t i = 0; i < n; ++i) {
        const LoopOp& op = body.ops[i];
        readsLoad[i] = op.kind == LoopOpKind::Load || std::any_of(op.args.begin(), op.args.end(), [&](size_t a) { return readsLoad[a]; });
        moved[i] = invariant[i] && isMathOp(op.kind) && readsLoad[i];
    }
    HoistPlan plan{std::vector<bool>(n, false), std::vector<bool>(n, false)};
    for (size_t i = 0; i < n; ++i) usedInLoop[i] = isStoreOp(body.ops[i].kind) || body.ops[i].kind == LoopOpKind::Reduction;
    for (size_t i = n; i-- > 0;) {  // users come after their operands: mark backwards
        if (moved[i]) plan.before[i] = true;
        if (plan.before[i])
            for (size_t a : body.ops[i].args) plan.before[a] = true;
        if (!moved[i] && (usedInLoop[i] || plan.inLoop[i])) {
            plan.inLoop[i] = true;
            for (size_t a : body.ops[i].args) plan.inLoop[a] = !moved[a];
        }
    }
    return plan;
}

}  // namespace

std::string loopStatements(const LoopBody& body, const std::string& prefix, const std::string& pad, std::string* reduced,
                           const LoadSpelling* spellLoad, const StoreSpelling* spellStore, Hoisting* hoist) {
    HoistPlan plan = hoist ? hoistPlan(body, hoist->written, hoist->varying)
                           : HoistPlan{std::vector<bool>(body.ops.size(), false), std::vector<bool>(body.ops.size(), true)};
    std::string out;
    for (size_t i = 0; i < body.ops.size(); ++i) {
        if (plan.before[i]) hoist->statements += statement(body, body.ops[i], prefix, hoist->pad, reduced, spellLoad, spellStore);
        if (plan.inLoop[i]) out += statement(body, body.ops[i], prefix, pad, reduced, spellLoad, spellStore);
    }
    return out;
}

const LoopOp& storeOpOf(const LoopBody& body) {
    return *std::find_if(body.ops.begin(), body.ops.end(), [](const LoopOp& o) { return isStoreOp(o.kind); });
}

const LoopOp& reductionOpOf(const LoopBody& body) {
    return *std::find_if(body.ops.begin(), body.ops.end(), [](const LoopOp& o) { return o.kind == LoopOpKind::Reduction; });
}

KernelBuffers kernelBuffers(const KernelGroup& kernel) {
    KernelBuffers out;
    for (const auto& body : kernel.bodies)
        for (const auto& op : body.ops) {
            if (op.buffer.empty()) continue;
            if (std::find(out.names.begin(), out.names.end(), op.buffer) == out.names.end()) out.names.push_back(op.buffer);
            if (isStoreOp(op.kind)) out.written.insert(op.buffer);
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
                       const std::string& name, const char* restrictQualifier, const std::set<std::string>& mayAlias) {
    KernelBuffers buffers = kernelBuffers(kernel);
    std::string params;
    for (const auto& b : buffers.names) {
        std::string type = dtypeCType(graph.layoutOf(b).dtype);
        params += fmt::format("{}{}{}* {}{}", params.empty() ? "" : ", ", buffers.written.count(b) ? "" : "const ", type,
                              mayAlias.count(b) ? "" : std::string(restrictQualifier) + " ", b);
    }
    for (const auto& s : graph.symbols) params += fmt::format("{}int64_t {}", params.empty() ? "" : ", ", s.name);
    KernelCode out;
    out.buffers = buffers.names;
    addProvenanceComments(kernel, out);
    out.add(fmt::format("{} {}({}) {{\n", declaration, name, params), KernelCode::kAllMembers);
    return out;
}

}  // namespace fusescope

#include "lower/loop_body.h"

#include <algorithm>
#include <cmath>
#include <map>

#include <fmt/format.h>

#include "core/error.h"
#include "core/tensor_format.h"

namespace fusescope {

std::string pythonFloat(double v) {
    if (std::isnan(v)) return "nan";
    if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
    return formatPythonFloat(v);
}

std::string dtypeCType(DType t) {
    switch (t) {
    case DType::Bool: return "bool";
    case DType::Int32: return "int32_t";
    case DType::Int64: return "int64_t";
    case DType::Float64: return "double";
    default: return "float";
    }
}

VarRanges LoopBody::varRanges() const {
    VarRanges r;
    for (size_t i = 0; i < vars.size(); ++i) r[vars[i]] = ranges[i];
    return r;
}

const IndexExpr* LoopBody::indexOf(const LoopOp& op) const {
    const LoopOp& index = ops[op.args[0]];
    return index.kind == LoopOpKind::GetIndex ? &indices[index.index] : nullptr;
}

std::vector<std::pair<std::string, std::vector<IndexExpr>>> LoopBody::loads() const {
    std::vector<std::pair<std::string, std::vector<IndexExpr>>> out;
    for (const auto& op : ops) {
        if (!isLoadOp(op.kind)) continue;
        auto it = std::find_if(out.begin(), out.end(), [&](const auto& e) { return e.first == op.buffer; });
        if (it == out.end()) it = out.insert(out.end(), {op.buffer, {}});
        const IndexExpr* index = indexOf(op);
        if (index && std::find(it->second.begin(), it->second.end(), *index) == it->second.end()) it->second.push_back(*index);
    }
    return out;
}

namespace {

std::string constantText(double value, DType dtype) {
    if (dtype == DType::Bool) return value != 0 ? "True" : "False";
    if (isFloating(dtype)) return pythonFloat(value);
    return fmt::format("{}", static_cast<int64_t>(value));
}

std::string opCall(const LoopBody& body, const LoopOp& op) {
    auto arg = [&](size_t i) { return body.ops[op.args[i]].name; };
    switch (op.kind) {
    case LoopOpKind::GetIndex: return fmt::format("self.get_index('index{}')", op.index);
    case LoopOpKind::Load: return fmt::format("ops.load('{}', {})", op.buffer, arg(0));
    case LoopOpKind::MaskedLoad: return fmt::format("ops.masked_load('{}', {}, mask={})", op.buffer, arg(0), arg(1));
    case LoopOpKind::Store: return fmt::format("ops.store('{}', {}, {}, None)", op.buffer, arg(0), arg(1));
    case LoopOpKind::StoreReduction: return fmt::format("ops.store_reduction('{}', {}, {})", op.buffer, arg(0), arg(1));
    case LoopOpKind::Constant: return fmt::format("ops.constant({}, {})", constantText(op.value, op.dtype), dtypeName(op.dtype));
    case LoopOpKind::IndexExpr: return fmt::format("ops.index_expr({}, {})", arg(0), dtypeName(op.dtype));
    case LoopOpKind::ToDtype:
        return fmt::format("ops.to_dtype({}, {}, src_dtype={})", arg(0), dtypeName(op.dtype), dtypeName(op.srcDtype));
    case LoopOpKind::Reduction:
        return fmt::format("ops.reduction({}, {}, '{}', {})", dtypeName(op.dtype), dtypeName(op.srcDtype),
                           reductionName(op.reductionKind), arg(0));
    default: break;  // a math op: ops.<name>(args)
    }
    std::string args;
    for (size_t i = 0; i < op.args.size(); ++i) args += (i ? ", " : "") + arg(i);
    return fmt::format("ops.{}({})", loopOpName(op.kind), args);
}

}  // namespace

std::string LoopBody::str(const std::string& bufferName) const {
    std::string ranges_;
    for (size_t i = 0; i < vars.size(); ++i) ranges_ += fmt::format("{}{}: {}", i ? ", " : "", vars[i], ranges[i].str());
    std::string out = fmt::format("class {}_loop_body:\n    var_ranges = {{{}}}\n", bufferName, ranges_);
    for (size_t i = 0; i < indices.size(); ++i) out += fmt::format("    index{} = {}\n", i, indices[i].str());
    out += "    def body(self, ops):\n";
    for (const auto& op : ops) out += fmt::format("        {} = {}\n", op.name, opCall(*this, op));
    out += fmt::format("        return {}", ops.empty() ? "None" : ops.back().name);
    return out;
}

LoopBodyBuilder::LoopBodyBuilder(std::vector<std::string> vars, std::vector<IndexExpr> ranges, size_t reductionVars) {
    body_.vars = std::move(vars);
    body_.ranges = std::move(ranges);
    body_.reductionVars = reductionVars;
}

std::vector<IndexExpr> LoopBodyBuilder::varExprs() const {
    std::vector<IndexExpr> out;
    for (const auto& v : body_.vars) out.push_back(IndexExpr::symbol(v));
    return out;
}

int LoopBodyBuilder::add(LoopOp op, DType type) {
    // FX-style names: the first "load", then "load_1", "load_2".
    int& used = kindCounts_[static_cast<size_t>(op.kind)];
    op.name = used == 0 ? std::string(loopOpName(op.kind)) : fmt::format("{}_{}", loopOpName(op.kind), used);
    ++used;
    body_.ops.push_back(std::move(op));
    types_.push_back(type);
    return static_cast<int>(body_.ops.size()) - 1;
}

int LoopBodyBuilder::getIndex(const IndexExpr& index) {
    auto it = std::find(body_.indices.begin(), body_.indices.end(), index);
    int slot = static_cast<int>(it - body_.indices.begin());
    if (it == body_.indices.end()) body_.indices.push_back(index);
    LoopOp op;
    op.kind = LoopOpKind::GetIndex;
    op.index = slot;
    return add(std::move(op), DType::Int64);
}

int LoopBodyBuilder::load(const std::string& buffer, const IndexExpr& index, DType dtype) {
    LoopOp op;
    op.kind = LoopOpKind::Load;
    op.buffer = buffer;
    op.args = {getIndex(index)};
    op.dtype = dtype;
    return add(std::move(op), dtype);
}

int LoopBodyBuilder::loadAt(const std::string& buffer, int position, DType dtype) {
    LoopOp op;
    op.kind = LoopOpKind::Load;
    op.buffer = buffer;
    op.args = {position};
    op.dtype = dtype;
    return add(std::move(op), dtype);
}

int LoopBodyBuilder::maskedLoad(const std::string& buffer, const IndexExpr& index, int mask, DType dtype) {
    LoopOp op;
    op.kind = LoopOpKind::MaskedLoad;
    op.buffer = buffer;
    op.args = {getIndex(index), mask};
    op.dtype = dtype;
    return add(std::move(op), dtype);
}

int LoopBodyBuilder::constant(double value, DType dtype) {
    LoopOp op;
    op.kind = LoopOpKind::Constant;
    op.value = value;
    op.dtype = dtype;
    return add(std::move(op), dtype);
}

int LoopBodyBuilder::indexExpr(const IndexExpr& index, DType dtype) {
    LoopOp op;
    op.kind = LoopOpKind::IndexExpr;
    op.args = {getIndex(index)};
    op.dtype = dtype;
    return add(std::move(op), dtype);
}

int LoopBodyBuilder::toDtype(int x, DType dtype) {
    if (types_.at(x) == dtype) return x;
    LoopOp op;
    op.kind = LoopOpKind::ToDtype;
    op.args = {x};
    op.dtype = dtype;
    op.srcDtype = types_.at(x);
    return add(std::move(op), dtype);
}

int LoopBodyBuilder::call(LoopOpKind kind, std::vector<int> args, DType resultType) {
    LoopOp op;
    op.kind = kind;
    op.args = std::move(args);
    op.dtype = resultType;
    return add(std::move(op), resultType);
}

int LoopBodyBuilder::reduction(DType dtype, DType srcDtype, ReductionKind type, int value) {
    LoopOp op;
    op.kind = LoopOpKind::Reduction;
    op.args = {value};
    op.dtype = dtype;
    op.srcDtype = srcDtype;
    op.reductionKind = type;
    return add(std::move(op), dtype);
}

int LoopBodyBuilder::store(const std::string& buffer, const IndexExpr& index, int value) {
    return addStore(LoopOpKind::Store, buffer, index, value);
}

int LoopBodyBuilder::storeReduction(const std::string& buffer, const IndexExpr& index, int value) {
    return addStore(LoopOpKind::StoreReduction, buffer, index, value);
}

int LoopBodyBuilder::addStore(LoopOpKind kind, const std::string& buffer, const IndexExpr& index, int value) {
    LoopOp op;
    op.kind = kind;
    op.buffer = buffer;
    int slot = getIndex(index);
    op.args = {slot, value};
    op.dtype = types_.at(value);
    return add(std::move(op), types_.at(value));
}

namespace {

// Applies a variable substitution to every index and installs new vars and ranges.
LoopBody reindex(const LoopBody& body, const std::map<std::string, IndexExpr>& values, std::vector<std::string> vars,
                 std::vector<IndexExpr> ranges, size_t reductionVars) {
    LoopBody out = body;
    out.vars = std::move(vars);
    out.ranges = std::move(ranges);
    out.reductionVars = reductionVars;
    VarRanges r = out.varRanges();
    for (auto& index : out.indices) index = index.substitute(values, r);
    return out;
}

// Whether loop dims a and a+1 can become one: every index uses them as c*(r*za + za+1).
bool mergeable(const LoopBody& body, size_t a) {
    const std::string& outer = body.vars[a];
    const std::string& inner = body.vars[a + 1];
    for (const auto& index : body.indices) {
        auto co = index.linearCoefficient(outer);
        auto ci = index.linearCoefficient(inner);
        if (!co || !ci || *co != *ci * body.ranges[a + 1]) return false;
    }
    return true;
}

}  // namespace

LoopBody simplifyLoops(const LoopBody& input) {
    LoopBody body = input;
    size_t pointwise = body.vars.size() - body.reductionVars;
    size_t reduction = body.reductionVars;
    // Size-1 dims contribute nothing.
    std::map<std::string, IndexExpr> values;
    std::vector<std::string> vars;
    std::vector<IndexExpr> ranges;
    for (size_t i = 0; i < body.vars.size(); ++i) {
        if (body.ranges[i] == IndexExpr(1)) {
            values[body.vars[i]] = IndexExpr(0);
            (i < input.vars.size() - input.reductionVars ? pointwise : reduction) -= 1;
            continue;
        }
        vars.push_back(body.vars[i]);
        ranges.push_back(body.ranges[i]);
    }
    body = reindex(body, values, vars, ranges, reduction);
    // Merge from the innermost pair outwards, never across the pointwise/reduction boundary.
    for (bool merged = body.vars.size() >= 2; merged;) {
        merged = false;
        for (size_t a = body.vars.size() - 1; a-- > 0;) {
            if (a + 1 == pointwise) continue;
            if (!mergeable(body, a)) continue;
            std::map<std::string, IndexExpr> sub{{body.vars[a], IndexExpr(0)}};
            std::vector<std::string> v = body.vars;
            std::vector<IndexExpr> r = body.ranges;
            r[a + 1] = r[a] * r[a + 1];
            v.erase(v.begin() + a);
            r.erase(r.begin() + a);
            (a < pointwise ? pointwise : reduction) -= 1;
            body = reindex(body, sub, v, r, reduction);
            merged = true;
            break;
        }
    }
    // Rename to z0, z1, ... in order.
    std::map<std::string, IndexExpr> rename;
    std::vector<std::string> names;
    for (size_t i = 0; i < body.vars.size(); ++i) {
        names.push_back(fmt::format("z{}", i));
        rename[body.vars[i]] = IndexExpr::symbol("t~" + names.back());
    }
    body = reindex(body, rename, body.vars, body.ranges, reduction);
    std::map<std::string, IndexExpr> finalNames;
    for (const auto& n : names) finalNames["t~" + n] = IndexExpr::symbol(n);
    return reindex(body, finalNames, names, body.ranges, reduction);
}

std::optional<LoopBody> splitLoops(const LoopBody& body, const std::vector<IndexExpr>& sizes, size_t reductionSizes,
                                   const std::string& prefix) {
    std::vector<std::string> names;
    for (size_t i = 0; i < sizes.size(); ++i) names.push_back(fmt::format("{}{}", prefix, i));
    std::map<std::string, IndexExpr> values;
    size_t next = 0;
    size_t bodyPointwise = body.vars.size() - body.reductionVars;
    size_t groupPointwise = sizes.size() - reductionSizes;
    for (size_t d = 0; d < body.vars.size(); ++d) {
        // A reduction dim must split into reduction entries only.
        if (d == bodyPointwise && body.reductionVars > 0 && next != groupPointwise) return std::nullopt;
        size_t first = next;
        IndexExpr covered(1);
        while (next < sizes.size() && covered != body.ranges[d]) covered = covered * sizes[next++];
        if (covered != body.ranges[d]) return std::nullopt;
        IndexExpr combined;
        for (size_t k = first; k < next; ++k) {
            IndexExpr stride(1);
            for (size_t j = k + 1; j < next; ++j) stride = stride * sizes[j];
            combined = combined + IndexExpr::symbol(names[k]) * stride;
        }
        values[body.vars[d]] = combined;
    }
    if (next != sizes.size()) return std::nullopt;
    return reindex(body, values, names, sizes, reductionSizes);
}

}  // namespace fusescope

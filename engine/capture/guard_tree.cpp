#include "capture/guard_tree.h"

#include <algorithm>
#include <climits>
#include <functional>
#include <map>
#include <memory>
#include <set>
#include <tuple>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "capture/symbol_names.h"
#include "script/object_model.h"
#include "script/ast.h"

namespace fusescope {

namespace {

// Whether a dict key is a constant Dynamo names a value by (d['k'], d[1]); another (a tensor)
// names it by its position, d[list(dict.keys(d))[0]].
bool constantKey(const Value& key) { return key.isString() || key.isNumber() || key.isNone(); }

// A dict key as a DictGuardManager's pairs are matched by it: a string key as it is, another
// constant by its repr, any other by its position.
std::string orderedKeyName(const Value& key, int64_t position) {
    if (key.isString()) return key.asString();
    return constantKey(key) ? valueRepr(key) : "#" + std::to_string(position);
}

// One GuardManager: the value a source names, how it is read from its parent's, its leaf guards
// and the managers of what is read from it.
struct Manager {
    std::string source;    // "L['x']", "G", "G['w']"
    std::string accessor;  // "FrameLocalsGuardAccessor(key='x', framelocals_idx=0)"; empty for the root
    std::string type;      // "<class 'torch.Tensor'>"
    std::vector<std::string> leaves;  // "TENSOR_MATCH: check_tensor(...)"
    std::vector<std::size_t> guards;  // the indices of the guards its leaves check
    std::vector<std::unique_ptr<Manager>> children;
    std::string key;  // read from its parent by this key (DictGetItemGuardAccessor), as orderedKeyName() names it
    // A dict whose keys are guarded in order (Dynamo's DictGuardManager): its keys, and the
    // user line that walked it; its children print as key/value pairs by index.
    std::vector<std::string> orderedKeys;
    std::vector<std::pair<std::string, std::string>> orderedKeyReprs;  // each key's repr and type name
    std::string orderMadeAt;
    bool ordered = false;  // a DictGuardManager (its keys guarded in order; an empty dict has none)
    bool keysGuarded = true;  // false: its values are guarded by position only (an nn.Module's hooks)

    Manager& child(const std::string& childSource, const std::string& how, const std::string& childType, const std::string& byKey = "") {
        for (auto& c : children)
            if (c->source == childSource) return *c;
        children.push_back(std::make_unique<Manager>(Manager{childSource, how, childType, {}, {}, {}, byKey, {}, {}, {}, false, true}));
        return *children.back();
    }
};

}  // namespace

int guardSourceRank(const Source& source, const GuardTreeScope& scope) {
    std::vector<const Source*> chain;
    for (const Source* s = &source; s; s = s->base.get()) {
        chain.push_back(s);
        if (s->kind == Source::Kind::GlobalWeakRef) break;  // a global of Dynamo's own
    }
    const int global = chain.back()->kind == Source::Kind::Global || chain.back()->kind == Source::Kind::GlobalWeakRef ? 1 : 0;
    int rank = global;
    for (auto s = chain.rbegin(); s != chain.rend(); ++s) {
        const Value* value = scope.resolve(**s);
        const auto* instance = value ? value->as<InstanceObject>() : nullptr;
        if (!instance || !instance->cls->isNnModule()) continue;
        // torch.nn's containers (Sequential, ModuleList, ...) count as the script's (builder.py wrap_module)
        if (instance->cls->module.starts_with("torch.") && instance->cls->module != "torch.nn.modules.container") rank = 14 + global;
        else if (rank < 12) rank = 12 + global;
    }
    return rank;
}

namespace {

// Whether the nearest nn.Module the way to `source` passes through is one of torch.nn's own.
bool heldByTorchModule(const Source& source, const GuardTreeScope& scope) {
    for (const Source* s = source.base.get(); s; s = s->base.get()) {
        const Value* value = scope.resolve(*s);
        const auto* instance = value ? value->as<InstanceObject>() : nullptr;
        if (instance && instance->cls->isNnModule()) return instance->cls->module.starts_with("torch.");
    }
    return false;
}

// Dynamo's guard sort key (torch/_guards.py Guard.sort_key): by guard source, then the source's
// name by length and text, then the guard builder method's line in guards.py.
std::tuple<int, std::size_t, std::string, int> sortKey(const Guard& g, const GuardTreeScope& scope) {
    static const std::map<Guard::Kind, int> builderLine = {
        {Guard::Kind::NoHasattr, 2402}, {Guard::Kind::Hasattr, 2402}, {Guard::Kind::NotNone, 2792}, {Guard::Kind::TypeMatch, 2497}, {Guard::Kind::DictContains, 2586}, {Guard::Kind::IdMatch, 2745},
        {Guard::Kind::Constant, 2984},  {Guard::Kind::Length, 3281},       {Guard::Kind::TensorMatch, 3883}};
    auto line = builderLine.find(g.kind);
    // A list's or tuple's type is matched by SEQUENCE_LENGTH, beside its length
    const bool sequenceType = g.kind == Guard::Kind::TypeMatch && (g.typeName == "tuple" || g.typeName == "list");
    // An attribute absent from an object's __dict__ is Dynamo's NOT_PRESENT_IN_GENERIC_DICT, a
    // guard on the object itself (its name is the object's)
    const bool notInGenericDict = g.kind == Guard::Kind::DictContains && g.source->kind == Source::Kind::ObjectDict;
    const Source& named = notInGenericDict ? *g.source->base : *g.source;
    const std::string name = named.str();  // a function's, not its __code__'s (Dynamo's guard.name)
    // The TYPE_MATCH type(t) asks for (no user line made it) Dynamo installs as it builds the
    // others: after them.
    const bool asBuilt = g.kind == Guard::Kind::TypeMatch && g.userStack.empty() && g.createdBy.empty();
    return {guardSourceRank(named, scope), name.size(), name,
            asBuilt ? INT_MAX : notInGenericDict ? 2462 : sequenceType ? builderLine.at(Guard::Kind::Length) : line == builderLine.end() ? 0 : line->second};
}

// A stride that follows the sizes (L['x'].stride()[0] == L['x'].size()[1]): ShapeEnv's guard on
// the input's own layout, printed with the input's other layout guards.
bool isLayoutStride(const Guard& g) { return g.kind == Guard::Kind::StrideRelation && g.madeIn.empty(); }

// A leaf's text after its code: padded to 60 columns, then the user line that made it (PyTorch's
// get_verbose_code_part).
std::string verbose(const std::string& code, const Guard& g, const std::string& given = "") {
    const std::string where = madeAt(g);
    std::string text = fmt::format("{:<60}{}", code, where.empty() ? "" : "  # " + where);
    const std::string hint = withClosureHint(g, given);
    if (!hint.empty()) text += " (HINT: " + hint + ")";
    return text;
}

// A class's type: type, but for torch's tensor classes, which have metaclasses of their own.
std::string metaclassOf(const std::string& className) {
    if (className == "torch.Tensor" || className == "torch.distributed.tensor.DTensor") return "torch._C._TensorMeta";
    if (className == "torch.nn.parameter.Parameter") return "torch.nn.parameter._ParameterMeta";
    return "type";
}

std::string typeOf(const Value* value) {
    if (!value) return "<class 'NoneType'>";
    if (value->isTensor()) return value->asTensor().impl()->isParameter ? "<class 'torch.nn.parameter.Parameter'>" : "<class 'torch.Tensor'>";
    return pythonClassName(*value);
}

// The tensor's dispatch keys as the guard saw them: its backend's, and autocast's where it was on.
std::string tensorMatch(const Guard& g, const Value* value, const GuardedGlobalState& state) {
    const bool cuda = g.device.kind == Device::Kind::Cuda;
    const std::string backend = cuda ? "CUDA" : "CPU";
    const bool autocast = cuda ? state.autocastCuda.enabled : state.autocastCpu.enabled;
    const bool parameter = value && value->isTensor() && value->asTensor().impl()->isParameter;
    return fmt::format("check_tensor({}, {}, DispatchKeySet({}, BackendSelect, ADInplaceOrView, Autograd{}{}), {}, device={}, "
                       "requires_grad={}, size={}, stride={})",
                       g.source->str(), parameter ? "Parameter" : "Tensor", backend, backend, autocast ? ", Autocast" + backend : "",
                       dtypeName(g.dtype),
                       cuda ? std::to_string(g.device.index) : "None", g.requiresGrad ? "True" : "False", optionalList(g.sizes),
                       optionalList(g.strides));
}

// The leaf guards PyTorch adds for one of ours, in its order.
std::vector<std::string> leavesOf(const Guard& g, const Value* value, const GuardedGlobalState& state) {
    const std::string s = g.source->str();
    switch (g.kind) {
    case Guard::Kind::TensorMatch: {
        std::vector<std::string> out = {"TENSOR_MATCH: " + verbose(tensorMatch(g, value, state), g)};
        const std::vector<int64_t> marked = value && value->isTensor() ? value->asTensor().impl()->dynamoDynamicDims : std::vector<int64_t>{};
        for (const char* marking : {"_dynamo_dynamic_indices", "_dynamo_weak_dynamic_indices", "_dynamo_unbacked_indices",
                                    "_dynamo_strict_unbacked_indices", "_dynamo_static_indices"}) {
            std::string code = fmt::format("hasattr({}, '{}') == False", s, marking);
            if (marking == std::string_view("_dynamo_dynamic_indices") && !marked.empty())  // torch._dynamo.mark_dynamic's dims
                code = fmt::format("((getattr({0}, '{1}', set()).issubset({{{2}}})) if hasattr({0}, '{1}') else True)", s, marking,
                                   fmt::join(marked, ", "));
            out.push_back("DIMENSION_DYNAMIC_MARKING_GUARD: " + verbose(code, g));
        }
        return out;
    }
    case Guard::Kind::TypeMatch: {
        std::string type = value ? typeOf(value) : "<class '" + g.typeName + "'>";
        return {"TYPE_MATCH: " + verbose(fmt::format("___check_type_id({}, {}), type={}", s, typeId(type), type), g,
                                         "type " + (!value ? g.typeName : value->isTensor() && value->asTensor().impl()->isParameter ? "Parameter"
                                                                                                                       : pythonTypeName(*value)))};
    }
    case Guard::Kind::Constant: {
        const char* kind = g.constant.isNone()   ? "NONE_MATCH"
                           : !g.constant.isBool() ? "EQUALS_MATCH"
                           : g.constant.asBool()  ? "TRUE_MATCH"
                                                  : "FALSE_MATCH";
        return {std::string(kind) + ": " + verbose(g.code(), g, g.moduleInt ? kModuleIntHint : "")};
    }
    case Guard::Kind::Length: return {(g.typeName == "dict" ? "DICT_LENGTH: " : "LENGTH_CHECK: ") + verbose(g.code(), g)};
    case Guard::Kind::DictContains: return {"DICT_CONTAINS: " + verbose(g.code(), g, g.hint())};
    case Guard::Kind::NoHasattr: return {"NO_HASATTR: " + verbose(g.code(), g)};
    case Guard::Kind::NotNone: return {"NOT_NONE: " + verbose(g.code(), g)};
    case Guard::Kind::IdMatch: return {"ID_MATCH: " + verbose(g.code(), g)};
    default: return {};
    }
}

// One shape guard at the root's end: its code, and its comment (where the size was first used,
// or compared, as ShapeEnv words it).
struct ShapeLine {
    std::string code, comment;
    std::string python;  // its code in the shape guard function, where that differs (a range's bounds joined by and)
};

ShapeLine shapeLine(const Guard& g) {
    const std::string where = madeAt(g);
    const std::string firstUse = kFirstUseNote;
    switch (g.kind) {
    case Guard::Kind::DimAtLeast: return {g.code(), where + firstUse};
    case Guard::Kind::StrideRelation:
        if (g.relation == CompareOperator::GtE) return {g.code(), where + firstUse};
        return {g.code(), strideComment(g)};
    case Guard::Kind::FloatNotNan: return {g.code(), "implicit guard for float input due to NaN specialization in the framework"};
    case Guard::Kind::FloatRelation: return {g.code(), fmt::format("{} ({})", where, g.madeIn)};
    case Guard::Kind::SizeRelation:
        if (g.count > 0)
            return {g.code(), relationComment(g),
                    fmt::format("{} <= {} and {} <= {}", g.count, g.lhs->str(true), g.lhs->str(true), g.rhs->str(true))};
        return {g.code(), relationComment(g)};
    default: return {g.code(), where};
    }
}

// The shape guards in ShapeEnv's order: per input tensor (as lifted), each dim equal to an
// earlier one's, then each stride that is a product of dynamic sizes; then the guards the
// traced code made; then each symbol's range (a float's: not NaN), in the order of the symbols.
std::vector<ShapeLine> shapeLines(const std::vector<Guard>& guards) {
    // Each dynamic dim's symbol (named as PyTorch names them) and the source sympy prints for it.
    SymbolNames names;
    std::map<std::pair<std::string, int64_t>, std::pair<std::string, std::string>> symbols;
    for (const Guard& g : guards) {
        if (g.kind != Guard::Kind::TensorMatch) continue;
        for (size_t d = 0; d < g.sizes.size(); ++d) {
            if (g.sizes[d]) continue;
            std::string size = fmt::format("{}.size()[{}]", g.source->str(), d);
            symbols[{g.source->str(), static_cast<int64_t>(d)}] = {names.next(size), size};
        }
    }
    for (const Guard& g : guards)  // a dim sharing another's symbol prints as that one
        if (g.kind == Guard::Kind::DimsMatch)
            if (auto other = symbols.find({g.otherSource->str(), g.otherDim}); other != symbols.end())
                symbols[{g.source->str(), g.dim}].second = other->second.second;
    std::vector<ShapeLine> lines;
    for (const Guard& t : guards) {
        if (t.kind != Guard::Kind::TensorMatch) continue;
        const std::string s = t.source->str();
        for (const Guard& g : guards)
            if (g.kind == Guard::Kind::DimsMatch && g.source->str() == s)
                lines.push_back({g.code(), fmt::format("(unknown var {}, please file a bug)", symbols[{s, g.dim}].first)});
        for (const Guard& g : guards)
            if (isLayoutStride(g) && g.source->str() == s) lines.push_back({g.code(), strideComment(g)});
    }
    // A range's lower bound raised by a comparison (5 <= x.size()[0]) is the range's guard, in
    // the range's place.
    std::map<std::pair<std::string, int64_t>, const Guard*> raised;
    for (const Guard& g : guards)
        if (g.kind == Guard::Kind::DimAtLeast) raised[{g.source->str(), g.dim}] = nullptr;
    for (const Guard& g : guards)
        if (raisesLowerBound(g) && raised.count({g.source->str(), g.dim}))
            raised[{g.source->str(), g.dim}] = &g;
    auto raising = [&](const Guard& g) {
        auto r = raised.find({g.source->str(), g.dim});
        return r != raised.end() && r->second == &g;
    };
    for (const Guard& g : guards)
        if ((g.kind == Guard::Kind::SizeRelation && g.count == 0 && !raising(g)) || g.kind == Guard::Kind::DimEquals ||
            g.kind == Guard::Kind::FloatRelation || (g.kind == Guard::Kind::StrideRelation && !isLayoutStride(g) && g.relation != CompareOperator::GtE)) {
            lines.push_back(shapeLine(g));
            // A float found equal to a constant is replaced by it, and ShapeEnv produces the guard again for the replacement.
            if (g.kind == Guard::Kind::FloatRelation && g.relation == CompareOperator::Eq) lines.push_back(shapeLine(g));
        }
    // A stride symbol's range comes after its tensor's sizes' (ShapeEnv makes the symbols in that
    // order).
    std::vector<std::pair<std::string, ShapeLine>> ranges;  // (the tensor of a size's range, the line)
    for (const Guard& g : guards) {
        if (g.kind == Guard::Kind::DimAtLeast)
            if (auto r = raised.find({g.source->str(), g.dim}); r != raised.end() && r->second) {
                ranges.emplace_back(g.source->str(), shapeLine(*r->second));
                continue;
            }
        if ((g.kind == Guard::Kind::SizeRelation && g.count > 0) || g.kind == Guard::Kind::DimAtLeast || g.kind == Guard::Kind::FloatNotNan)
            ranges.emplace_back(g.source->str(), shapeLine(g));
    }
    for (const Guard& g : guards) {
        if (g.kind != Guard::Kind::StrideRelation || g.relation != CompareOperator::GtE) continue;
        auto lastSize = std::find_if(ranges.rbegin(), ranges.rend(), [&](const auto& r) { return r.first == g.source->str(); });
        ranges.insert(lastSize.base(), {"", shapeLine(g)});
    }
    for (auto& [tensor, line] : ranges) lines.push_back(std::move(line));
    return lines;
}

class TreeBuilder {
public:
    explicit TreeBuilder(const GuardTreeScope& scope) : scope_(scope) {
        root_.source = "RootGuardManager";
        root_.leaves = {
            "LAMBDA_GUARD: torch._functorch.aot_autograd.utils.top_saved_tensors_hooks ids == None  # "
            "_dynamo/output_graph.py:1235 in init_ambient_guards",
            "GLOBAL_STATE: ___check_global_state() against " + globalStateJson(scope.state),
            "TORCH_FUNCTION_MODE_STACK: ___check_torch_function_mode_stack()",
            fmt::format("DEFAULT_DEVICE: {:<60}  # _dynamo/output_graph.py:1222 in init_ambient_guards", "utils_device.CURRENT_DEVICE == None"),
        };
    }

    void add(const Guard& g, std::size_t index) {
        const Value* value = scope_.resolve(*g.source);
        // A callee's manager has PyTorch's type for it (F.relu is a function there, whatever
        // Fusescope writes it in); a function's code is read from it by CodeGuardAccessor.
        const bool callee = g.kind == Guard::Kind::IdMatch && g.typeName != "module";
        const std::string calleeType = g.classObject ? "<class '" + metaclassOf(g.typeName) + "'>" : "<class '" + g.typeName + "'>";
        Manager* at = &managerOf(*g.source, callee ? calleeType : "");
        if (g.ofCode) at = &at->child(g.guardedName(), "CodeGuardAccessor", "<class 'code'>");
        if (g.kind == Guard::Kind::Hasattr) {  // its GetAttrGuardAccessor checks it, named by the object's source as Dynamo names it
            const std::string& name = g.constant.asString();
            at->child(g.source->str(), fmt::format("GetAttrGuardAccessor({})", name), typeOf(scope_.resolve(*attrSource(g.source, name))));
            return;
        }
        Manager& m = *at;
        m.guards.push_back(index);
        if (g.kind == Guard::Kind::KeyOrder) {
            m.orderedKeys.clear();
            m.orderedKeyReprs.clear();
            makeDictManager(m, *sequenceItems(g.constant), !g.keysUnguarded);
            const std::string where = madeAt(g);
            m.orderMadeAt = where.empty() ? "" : "  # " + where;
            return;
        }
        // a DictGuardManager checks its type and length itself
        if (m.ordered && (g.kind == Guard::Kind::TypeMatch || (g.kind == Guard::Kind::Length && value && value->as<DictObject>()))) return;
        for (std::string& leaf : leavesOf(g, value, scope_.state)) m.leaves.push_back(std::move(leaf));
        if (g.kind == Guard::Kind::TensorMatch && mayAlias(*g.source, value)) tensors_.push_back({g.source->str(), &m});
    }

    // OBJECT_ALIASING, installed after the other guards: in full under the first way to the
    // object, by name under the other.
    void addAliasing(const Guard& g) {
        const std::string leaf = relational("OBJECT_ALIASING: " + verbose(g.code(), g));
        managerOf(*g.source).leaves.push_back(leaf);
        managerOf(*g.otherSource).leaves.push_back(leaf);
    }

    // Dynamo's NO_TENSOR_ALIASING leaves out parameters and what torch.nn's own modules hold
    // (a BatchNorm's running_mean): cheaper guards, for a rare unsoundness it accepts.
    bool mayAlias(const Source& source, const Value* value) const {
        return !(value && value->isTensor() && value->asTensor().impl()->isParameter) && !heldByTorchModule(source, scope_);
    }

    // Dynamo's NO_TENSOR_ALIASING: one relational guard over every tensor input, printed in
    // full under the first tensor's manager and by name under the others.
    void finishAliasing() {
        if (tensors_.size() < 2) return;
        std::vector<std::string> names;
        for (const auto& [name, manager] : tensors_) names.push_back(name);
        const std::string leaf = relational(fmt::format("NO_TENSOR_ALIASING: check_no_aliasing({})", fmt::join(names, ", ")));
        for (const auto& [name, manager] : tensors_) manager->leaves.push_back(leaf);
    }

    std::string text(const std::vector<ShapeLine>& epilogue) const {
        std::string out = "\nTREE_GUARD_MANAGER:\n+- RootGuardManager\n";
        printedRelations_.clear();
        print(root_, 1, out);
        for (const ShapeLine& line : epilogue) out += fmt::format("+- LAMBDA_GUARD: {}  # {}\n", line.code, line.comment);
        return out;
    }

    // The guards in the order the tree checks them.
    std::vector<std::size_t> checkOrder() const {
        std::vector<std::size_t> out;
        checkOrder(root_, out);
        return out;
    }

private:
    static std::string globalStateJson(const GuardedGlobalState& s) {
        // c10's ScalarType numbers of autocast's dtypes; device types cpu, cuda, then eight others.
        auto scalarType = [](DType t) { return t == DType::Float16 ? 5 : t == DType::BFloat16 ? 15 : 6; };
        std::vector<int> dtypes = {scalarType(s.autocastCpu.dtype), scalarType(s.autocastCuda.dtype), 5, 15, 5, 5, 15, 15, 5, 5};
        std::vector<std::string> enabled(10, "false");
        enabled[0] = s.autocastCpu.enabled ? "true" : "false";
        enabled[1] = s.autocastCuda.enabled ? "true" : "false";
        return fmt::format("{{\"allow_bf16_reduce\":0,\"allow_fp16_reduce\":0,\"allow_tf32\":false,\"autocast_state\":{{\"cached_enabled\":"
                           "true,\"dtype\":[{}],\"enabled\":[{}]}},\"cuda_matmul_precision\":0,\"default_dtype\":6,"
                           "\"deterministic_algorithms\":false,\"deterministic_algorithms_warn_only\":false,\"grad_mode\":{},"
                           "\"num_threads\":{},\"torch_function\":true,\"torch_function_all_disabled\":false}}",
                           fmt::join(dtypes, ","), fmt::join(enabled, ","), s.gradMode ? "true" : "false", s.numThreads);
    }

    // A dict whose values are read by their keys' positions: Dynamo's DictGuardManager, its
    // values printed as key/value pairs (the keys themselves guarded only by a KeyOrder guard).
    static void makeDictManager(Manager& m, const ValueList& keys, bool keysGuarded) {
        for (const Value& key : keys) {
            m.orderedKeys.push_back(orderedKeyName(key, static_cast<int64_t>(m.orderedKeys.size())));
            m.orderedKeyReprs.push_back({constantKey(key) ? valueRepr(key) : "", pythonTypeName(key)});
        }
        m.ordered = true;
        m.keysGuarded = keysGuarded;
        std::erase_if(m.leaves, [](const std::string& leaf) { return leaf.starts_with("TYPE_MATCH") || leaf.starts_with("DICT_LENGTH"); });
    }

    Manager& managerOf(const Source& source, const std::string& typeOverride = "") {
        const std::string type = typeOverride.empty() ? typeOf(scope_.resolve(source)) : typeOverride;
        switch (source.kind) {
        case Source::Kind::Local: {
            auto at = std::find(scope_.frameLocals.begin(), scope_.frameLocals.end(), source.name);
            long index = at == scope_.frameLocals.end() ? -1 : at - scope_.frameLocals.begin();
            return root_.child(source.str(), fmt::format("FrameLocalsGuardAccessor(key='{}', framelocals_idx={})", source.name, index), type);
        }
        case Source::Kind::Global:  // the builtins are a dict Dynamo keeps as a global of its own
            return root_.child("G", "GlobalsGuardAccessor", "<class 'dict'>")
                .child(source.str(), fmt::format("DictGetItemGuardAccessor('{}')", source.name),
                       source.name.starts_with("__builtins_dict__") ? "<class 'dict'>" : type);
        case Source::Kind::Item: {
            const Source& of = *source.base;
            if (of.kind == Source::Kind::Attr && of.name == "__defaults__")  // a function's default, by Dynamo's own accessor
                return managerOf(*of.base)
                    .child(of.base->str(), "FuncDefaultsGuardAccessor", "<class 'tuple'>")
                    .child(source.str(), fmt::format("GetItemGuardAccessor({})", source.index), type);
            if (of.kind == Source::Kind::Attr && of.name == "__closure__")  // a cell of a function's closure
                return managerOf(of).child(source.str(), fmt::format("TupleGetItemGuardAccessor({})", source.index), "<class 'cell'>");
            const Value* base = scope_.resolve(*source.base);
            const bool tuple = base && pythonTypeName(*base) == "tuple";
            return managerOf(*source.base).child(source.str(), fmt::format("{}GetItemGuardAccessor({})", tuple ? "Tuple" : "List", source.index), type);
        }
        case Source::Kind::Attr: {
            if (source.name == "__closure__") return managerOf(*source.base).child(source.str(), "ClosureGuardAccessor", "<class 'tuple'>");
            if (source.name == "__mro__" && source.base->kind == Source::Kind::Type)
                return managerOf(*source.base).child(source.str(), "TypeMROGuardAccessor", "<class 'tuple'>");
            if (const Value* tensor = source.name == "grad" ? scope_.resolve(*source.base) : nullptr; tensor && tensor->isTensor())
                return managerOf(*source.base).child(source.str(), "GradGuardAccessor(grad)", type);
            // An nn.Module's own attribute (its _modules, _parameters, training) is read from its
            // __dict__, as Dynamo reads it to skip Module.__getattr__.
            const Value* base = scope_.resolve(*source.base);
            const auto* module = base ? base->as<InstanceObject>() : nullptr;
            if (module && module->cls->isNnModule() && module->dict->findString(source.name))
                return managerOf(*source.base)
                    .child(source.base->str() + ".__dict__", "GetGenericDictGuardAccessor", "<class 'dict'>")
                    .child(source.str(), fmt::format("DictGetItemGuardAccessor('{}')", source.name), type, source.name);
            return managerOf(*source.base).child(source.str(), fmt::format("GetAttrGuardAccessor({})", source.name), type);
        }
        case Source::Kind::Key:
            return managerOf(*source.base).child(source.str(), fmt::format("DictGetItemGuardAccessor('{}')", source.name), type, source.name);
        case Source::Kind::ObjectDict:
            return managerOf(*source.base).child(source.str(), "GetGenericDictGuardAccessor", "<class 'dict'>");
        case Source::Kind::Type: return managerOf(*source.base).child(source.str(), "TypeGuardAccessor", "<class 'type'>");
        case Source::Kind::TypeDict:
            return managerOf(*source.base).child(source.str(), "TypeDictGuardAccessor", "<class 'dict'>");
        case Source::Kind::IntKey:
            return managerOf(*source.base)
                .child(source.str(), fmt::format("DictGetItemGuardAccessor({})", source.index), type, std::to_string(source.index));
        case Source::Kind::GlobalWeakRef:
            return root_.child("G", "GlobalsGuardAccessor", "<class 'dict'>")
                .child(source.str(), fmt::format("GlobalWeakRefGuardAccessor({})", source.name), type);
        case Source::Kind::KeyAt: {  // a value of a DictGuardManager, under its key's position
            const Value* base = scope_.resolve(*source.base);
            const auto* dict = base ? base->as<DictObject>() : nullptr;
            const bool known = dict && source.index >= 0 && source.index < static_cast<int64_t>(dict->items.size());
            const std::string key = known ? orderedKeyName(dict->items[static_cast<size_t>(source.index)].first, source.index) : "";
            Manager& of = managerOf(*source.base);
            if (known && !of.ordered) {
                ValueList keys;
                for (const auto& item : dict->items) keys.push_back(item.first);
                makeDictManager(of, keys, false);
            }
            return of.child(source.str(), "DictGetItemGuardAccessor", type, key);
        }
        }
        return root_;
    }

    static std::string indent(int depth) {
        std::string prefix;
        for (int i = 0; i < depth; ++i) prefix += "| ";
        return prefix;
    }

    // A guard over several managers (NO_TENSOR_ALIASING, OBJECT_ALIASING): under each, printed
    // in full where the tree first shows it and by its name elsewhere, as Dynamo prints it.
    static std::string relational(const std::string& leaf) { return kRelational + leaf; }
    std::string printed(const std::string& leaf) const {
        if (!leaf.starts_with(kRelational)) return leaf;
        const std::string full = leaf.substr(1);
        return printedRelations_.insert(full).second ? full : full.substr(0, full.find(':'));
    }

    void print(const Manager& m, int depth, std::string& out) const {
        const std::string prefix = indent(depth);
        for (const std::string& leaf : m.leaves) out += prefix + "+- " + printed(leaf) + "\n";
        printPairs(m, depth, out);  // a DictGuardManager's pairs come before what is read from it otherwise (a default_factory)
        for (const auto& c : m.children) {
            const bool inOrder = m.ordered && !c->key.empty();
            if (inOrder) continue;  // printed as a key/value pair below
            out += fmt::format("{}+- {}: source={}, accessed_by={}, type={}, tag_safe=(False, False)\n", prefix,
                               c->ordered ? "DictGuardManager" : "GuardManager", c->source, c->accessor, c->type);
            print(*c, depth + 1, out);
        }
    }

    // The guards in the order the tree checks them: a manager's own, then its children's
    // (a DictGuardManager's values by their keys' order).
    void checkOrder(const Manager& m, std::vector<std::size_t>& out) const {
        out.insert(out.end(), m.guards.begin(), m.guards.end());
        for (const auto& c : m.children)
            if (!(m.ordered && !c->key.empty())) checkOrder(*c, out);
        for (const std::string& key : m.orderedKeys)
            for (const auto& c : m.children)
                if (c->key == key) checkOrder(*c, out);
    }

    // A DictGuardManager's values, each under its key's index and an EQUALS_MATCH on the key.
    void printPairs(const Manager& m, int depth, std::string& out) const {
        for (std::size_t index = 0; index < m.orderedKeys.size(); ++index) {
            auto value = std::find_if(m.children.begin(), m.children.end(), [&](const auto& c) { return c->key == m.orderedKeys[index]; });
            if (value == m.children.end()) continue;
            const std::string key = fmt::format("list(dict.keys({}))[{}]", m.source, index);
            out += fmt::format("{}+- KeyValueManager pair at index={}\n", indent(depth), index);
            if (m.keysGuarded) {
                const auto& [keyRepr, keyType] = m.orderedKeyReprs[index];
                out += fmt::format("{}+- KeyManager: GuardManager: source={}, type=<class '{}'>, tag_safe=(False, False)\n", indent(depth + 1), key,
                                   keyType);
                out += fmt::format("{}+- EQUALS_MATCH: {:<60}{}\n", indent(depth + 2), fmt::format("{} == {}", key, keyRepr), m.orderMadeAt);
            }
            // named by its key where that is a constant, as Dynamo names a value; else by the key's position
            const std::string& keyRepr = m.orderedKeyReprs[index].first;
            const std::string valueSource = keyRepr.empty() ? fmt::format("{}[{}]", m.source, key) : fmt::format("{}[{}]", m.source, keyRepr);
            out += fmt::format("{}+- ValueManager: {}: source={}, type={}, tag_safe=(False, False)\n", indent(depth + 1),
                               (*value)->ordered ? "DictGuardManager" : "GuardManager", valueSource, (*value)->type);
            print(**value, depth + 2, out);
        }
    }

    static constexpr char kRelational = '\x01';
    const GuardTreeScope& scope_;
    Manager root_;
    mutable std::set<std::string> printedRelations_;
    std::vector<std::pair<std::string, Manager*>> tensors_;
};

}  // namespace

namespace {

// The tree of the guards, with the object-aliasing ones (returned apart: they print under
// two managers) and the shape guards (checked after the tree) left out.
struct BuiltTree {
    std::unique_ptr<TreeBuilder> tree;
    std::vector<std::size_t> aliasing, shape;
};

BuiltTree buildTree(const std::vector<Guard>& guards, const GuardTreeScope& scope) {
    BuiltTree built{std::make_unique<TreeBuilder>(scope), {}, {}};
    std::vector<std::size_t> sorted;
    for (std::size_t i = 0; i < guards.size(); ++i)
        if (guards[i].kind == Guard::Kind::ObjectAliasing) built.aliasing.push_back(i);
        else if (isShapeGuard(guards[i])) built.shape.push_back(i);
        else sorted.push_back(i);
    std::stable_sort(sorted.begin(), sorted.end(), [&](std::size_t a, std::size_t b) { return sortKey(guards[a], scope) < sortKey(guards[b], scope); });
    std::stable_sort(built.aliasing.begin(), built.aliasing.end(), [&](std::size_t a, std::size_t b) {
        const std::string x = guards[a].otherSource->str(), y = guards[b].otherSource->str();
        return std::pair(x.size(), x) < std::pair(y.size(), y);
    });
    for (std::size_t i : sorted) built.tree->add(guards[i], i);
    return built;
}

}  // namespace

std::string guardTreeText(const std::vector<Guard>& guards, const GuardTreeScope& scope) {
    BuiltTree built = buildTree(guards, scope);
    for (std::size_t i : built.aliasing) built.tree->addAliasing(guards[i]);
    built.tree->finishAliasing();
    return built.tree->text(shapeLines(guards));
}

std::vector<std::size_t> guardCheckOrder(const std::vector<Guard>& guards, const GuardTreeScope& scope) {
    BuiltTree built = buildTree(guards, scope);
    std::vector<std::size_t> order = built.tree->checkOrder();
    order.insert(order.end(), built.aliasing.begin(), built.aliasing.end());
    order.insert(order.end(), built.shape.begin(), built.shape.end());
    return order;
}

std::vector<std::string> shapeGuardCodes(const std::vector<Guard>& guards) {
    std::vector<std::string> codes;
    for (const ShapeLine& line : shapeLines(guards)) codes.push_back(line.python.empty() ? line.code : line.python);
    return codes;
}

std::vector<std::string> frameLocalNames(const std::vector<Param>& params, std::size_t localCount,
                                         const std::vector<std::string>& freeVariables) {
    std::vector<std::string> names;
    for (ParamKind kind : {ParamKind::PositionalOnly, ParamKind::Positional, ParamKind::KeywordOnly, ParamKind::VarArgs, ParamKind::VarKeywords})
        for (const Param& p : params)
            if (p.kind == kind) names.push_back(p.name);
    names.resize(std::max(names.size(), localCount));
    names.insert(names.end(), freeVariables.begin(), freeVariables.end());
    return names;
}

}  // namespace fusescope

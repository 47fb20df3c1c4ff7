#include "capture/guard.h"

#include <algorithm>
#include <cmath>
#include <regex>

#include <fmt/format.h>

#include "core/tensor_format.h"
#include "script/object_model.h"

namespace fusescope {

const char* const kModuleIntHint =
    "torch.compile considers integer attributes of the nn.Module to be static. If you are observing recompilation, you might want "
    "to make this integer dynamic using torch._dynamo.config.allow_unspec_int_on_nn_module = True, or convert this integer into a "
    "tensor.";

namespace {

// PyTorch's get_verbose_code_part: the code padded to 60 columns, then the innermost user
// frame that made the guard ("  # return x + n  # rc.py:5 in g") and its hint, and its user
// stack trace.
std::string failedCode(const Guard& g, const std::string& code, std::string hint = "") {
    if (g.userStack.empty()) return code;
    const std::string where = madeAt(g);
    if (g.moduleInt) hint = kModuleIntHint;
    hint = withClosureHint(g, hint);
    std::string text = fmt::format("{:<60}{}{}\nUser stack trace:", code, where.empty() ? "" : "  # " + where,
                                   hint.empty() ? "" : fmt::format(" (HINT: {})", hint));
    for (const StackFrame& f : g.userStack) {
        text += fmt::format("\n  File \"{}\", line {}, in {}", f.file, f.line, f.function);
        if (!f.sourceLine.empty()) text += "\n    " + f.sourceLine;
    }
    return text;
}

std::string failedCode(const Guard& g) { return g.userStack.empty() ? g.str() : failedCode(g, g.code()); }

// A shape-environment guard's failure, as PyTorch's ShapeEnv words it: the code, then where
// the traced code compared the size; a range's lower bound joined to it says where the size
// was first used too.
std::string failedRelation(const Guard& g) { return fmt::format("{}  # {}", g.code(), relationComment(g)); }

std::string sizeExpr(const Guard& g) { return fmt::format("{}.size()[{}]", g.source->str(), g.dim); }

// An object's id() as the guard compares it: its address, or its function's code's.
uintptr_t objectId(const Value& value, bool ofCode) {
    if (value.isTensor()) return reinterpret_cast<uintptr_t>(value.asTensor().impl());
    if (!value.isObject()) return 0;
    if (ofCode)
        if (auto* fn = value.as<FunctionObject>()) return reinterpret_cast<uintptr_t>(fn->code());
    return reinterpret_cast<uintptr_t>(value.asObject().get());
}

bool sameConstant(const Value& a, const Value& b) {
    return pythonTypeName(a) == pythonTypeName(b) && valuesEqual(a, b);
}

}  // namespace

uint64_t typeId(const std::string& typeName) { return 0x7f0000000000ull + (std::hash<std::string>{}(typeName) & 0xffffffffffull); }

bool isShapeGuard(const Guard& g) { return g.typeLabel() == "SHAPE_ENV"; }

std::string strideComment(const Guard& g) {
    if (g.madeIn.empty()) return fmt::format("(unknown source {}.stride()[{}], please file a bug)", g.source->str(), g.dim);
    const std::string where = madeAt(g);
    return where.empty() ? "(" + g.madeIn + ")" : fmt::format("{} ({})", where, g.madeIn);
}

const char* const kFirstUseNote =
    " (user code shown is first use of this value--the guard itself is not due user code but due to 0/1 specialization in the "
    "framework; to avoid specialization try torch._dynamo.decorators.mark_unbacked(tensor, dim))";

bool raisesLowerBound(const Guard& g) {
    return g.kind == Guard::Kind::SizeRelation && g.count == 0 && g.relation == CompareOperator::GtE && g.lhs->op == SizeExpression::Op::Size &&
           g.rhs->op == SizeExpression::Op::Constant;
}

std::string relationComment(const Guard& g) {
    const std::string where = madeAt(g);
    const std::string compared = where.empty() ? "(" + g.madeIn + ")" : fmt::format("{} ({})", where, g.madeIn);
    if (g.count == 0) return compared;
    return fmt::format("{} and {}", g.lowerBoundComment, compared);
}

std::string madeAt(const Guard& g) {
    // PyTorch's uninteresting_files: its frames of its own wrappers (compiling a torch.nn
    // module through external_utils.py's inner) and polyfills are passed over.
    auto made = std::find_if(g.userStack.rbegin(), g.userStack.rend(), [](const StackFrame& f) {
        return f.file != "torch/_dynamo/external_utils.py" && !f.file.starts_with("torch/_dynamo/polyfills/");
    });
    if (made == g.userStack.rend()) return "";
    return fmt::format("{}  # {}:{} in {}", made->sourceLine, made->file, made->line, made->function);
}

std::string optionalList(const std::vector<std::optional<int64_t>>& values) {
    std::vector<std::string> parts;
    for (const auto& v : values) parts.push_back(v ? std::to_string(*v) : "None");
    return "[" + fmt::format("{}", fmt::join(parts, ", ")) + "]";
}

std::string recompileReason(const std::string& compileId, const std::string& failure) {
    static const std::regex localScope(R"(L\[\s*['"](.*?)['"]\s*\])");
    return std::regex_replace(compileId + ": " + failure, localScope, "$1");
}

std::string pythonClassName(const Value& value) {
    if (auto* instance = value.as<InstanceObject>()) return "<class '" + instance->cls->displayName() + "'>";
    std::string name = pythonTypeName(value);
    if (name == "Tensor") return "<class 'torch.Tensor'>";
    if (name == "OrderedDict" || name == "defaultdict" || name == "deque") return "<class 'collections." + name + "'>";
    if (name == "dtype") return "<class 'torch.dtype'>";
    if (name == "Size") return "<class 'torch.Size'>";
    return "<class '" + name + "'>";
}

std::string Guard::code() const {
    std::string s = source->str();
    switch (kind) {
    case Kind::TensorMatch:
        return fmt::format("check_tensor({}, {}, device={}, requires_grad={}, size={}, stride={})", s,
                           dtypeName(dtype), device.str(), requiresGrad ? "True" : "False", optionalList(sizes),
                           optionalList(strides));
    case Kind::TypeMatch: return fmt::format("___check_type_id({}, {})", s, typeName);
    case Kind::Constant:
        if (constant.isNone()) return s + " is None";
        return fmt::format("{} == {}", s, valueRepr(constant));
    case Kind::Length: return count == 0 ? "not " + s : fmt::format("len({}) == {}", s, count);
    case Kind::DimAtLeast: return fmt::format("{} <= {}", count, sizeExpr(*this));
    case Kind::DimEquals: return fmt::format("{} == {}", sizeExpr(*this), count);
    case Kind::DimsMatch:
        return fmt::format("{} == {}.size()[{}]", sizeExpr(*this), otherSource->str(), otherDim);
    case Kind::DictContains: return fmt::format("{}___dict_contains({}, {})", count ? "" : "not ", valueRepr(constant), s);
    case Kind::NoHasattr: return fmt::format("not hasattr({}, {})", s, valueRepr(constant));
    case Kind::Hasattr: return fmt::format("hasattr({}, {})", s, valueRepr(constant));
    case Kind::NotNone: return s + " is not None";
    case Kind::IdMatch:
        return fmt::format("___check_obj_id({}, {}), type=<class '{}'>", guardedName(), objectId(constant, ofCode), ofCode ? "code" : typeName);
    case Kind::ObjectAliasing: return fmt::format("{} is {}", s, otherSource->str());
    case Kind::KeyOrder: return fmt::format("list(dict.keys({})) == {}", s, valueRepr(constant));
    case Kind::FloatNotNan: return fmt::format("not math.isnan({})", s);
    case Kind::FloatRelation: return fmt::format("{} {} {}", s, compareOperatorSymbol(relation), formatPythonFloat(bound));
    case Kind::StrideRelation: {
        const std::string stride = fmt::format("{}.stride()[{}]", s, dim);
        if (relation == CompareOperator::GtE) return fmt::format("{} <= {}", count, stride);
        return fmt::format("{} {} {}", stride, compareOperatorSymbol(relation), productText);
    }
    case Kind::SizeRelation:
        if (count > 0) return fmt::format("{} <= {} <= {}", count, lhs->str(true), rhs->str(true));
        if (relation == CompareOperator::GtE && rhs->op == SizeExpression::Op::Constant)
            return fmt::format("{} <= {}", rhs->str(true), lhs->str(true));
        return fmt::format("{} {} {}", lhs->str(true), compareOperatorSymbol(relation), rhs->str(true));
    }
    return s;
}

std::string Guard::guardedName() const { return ofCode ? source->str() + ".__code__" : source->str(); }

std::string withClosureHint(const Guard& g, const std::string& hint) {
    const Source& s = *g.source;
    if (s.kind != Source::Kind::Attr || s.name != "cell_contents" || !s.base || s.base->kind != Source::Kind::Item) return hint;
    const std::string closure = fmt::format("guard on \"{}\"{}", s.base->name, g.ofCode ? ".__code__" : "");
    return hint.empty() ? closure : closure + ", " + hint;
}

std::string Guard::hint() const {
    if (kind != Kind::DictContains || source->kind == Source::Kind::ObjectDict) return "";
    return count ? fmt::format("Dictionary {} must contain key {}; Dynamo specialized the compiled code on this key being present.",
                               source->str(), valueRepr(constant))
                 : fmt::format("Dictionary {} must not contain key {}; Dynamo specialized the compiled code on this key being absent.",
                               source->str(), valueRepr(constant));
}

std::string Guard::str() const {
    std::string c = code();
    if (createdBy.empty()) return c;
    return fmt::format("{:<60}  # {}", c, createdBy);
}

std::string Guard::typeLabel() const {
    switch (kind) {
    case Kind::TensorMatch: return "TENSOR_MATCH";
    case Kind::TypeMatch: return "TYPE_MATCH";
    case Kind::Constant: return "CONSTANT_MATCH";
    case Kind::Length: return typeName == "dict" ? "DICT_LENGTH" : "SEQUENCE_LENGTH";
    case Kind::DimAtLeast:
    case Kind::DimEquals:
    case Kind::DimsMatch:
    case Kind::SizeRelation:
    case Kind::FloatNotNan:
    case Kind::FloatRelation:
    case Kind::StrideRelation: return "SHAPE_ENV";
    case Kind::DictContains: return "DICT_CONTAINS";
    case Kind::NoHasattr: return "NO_HASATTR";
    case Kind::Hasattr: return "HASATTR";
    case Kind::NotNone: return "NOT_NONE";
    case Kind::IdMatch: return "ID_MATCH";
    case Kind::ObjectAliasing: return "OBJECT_ALIASING";
    case Kind::KeyOrder: return "DICT_KEYS_MATCH";
    }
    return "?";
}

// What differs between the tensor TENSOR_MATCH expects and `t`, in PyTorch's words.
std::optional<std::string> Guard::tensorMismatch(const Tensor& t) const {
    const std::string s = source->str();
    Device actualDevice = t.isMeta() ? Device::meta() : t.device();
    if (actualDevice.kind != device.kind)
        return fmt::format("tensor '{}' dispatch key set mismatch. expected {}, actual {}", s, device.str(),
                           actualDevice.str());
    if (t.dtype() != dtype)
        return fmt::format("tensor '{}' dtype mismatch. expected {}, actual {}", s, dtypeScalarName(dtype),
                           dtypeScalarName(t.dtype()));
    if (actualDevice.index != device.index)
        return fmt::format("tensor '{}' Device index mismatch. expected {}, actual {}", s, device.index,
                           actualDevice.index);
    if (t.requiresGrad() != requiresGrad)
        return fmt::format("tensor '{}' requires_grad mismatch. expected requires_grad={}", s, requiresGrad ? 1 : 0);
    if (t.dim() != static_cast<int64_t>(sizes.size()))
        return fmt::format("tensor '{}' rank mismatch. expected {}, actual {}", s, sizes.size(), t.dim());
    for (size_t i = 0; i < sizes.size(); ++i)
        if (sizes[i] && *sizes[i] != t.sizes()[i])
            return fmt::format("tensor '{}' size mismatch at index {}. expected {}, actual {}", s, i, *sizes[i],
                               t.sizes()[i]);
    for (size_t i = 0; i < strides.size(); ++i)  // a symbolic one is its StrideRelation guards'
        if (strides[i] && *strides[i] != t.strides()[i] && t.sizes()[i] > 1)
            return fmt::format("tensor '{}' stride mismatch at index {}. expected {}, actual {}", s, i, *strides[i],
                               t.strides()[i]);
    return std::nullopt;
}

std::optional<std::string> Guard::check(const Value* value, const Value* other) const {
    if (!value) return failedCode(*this);
    const std::string s = source->str();
    switch (kind) {
    case Kind::TensorMatch: {
        if (!value->isTensor())
            return fmt::format("expected type of '{}' to be <class 'torch.Tensor'>, but found {}", s, pythonClassName(*value));
        std::optional<std::string> failure = tensorMismatch(value->asTensor());
        if (failure && value->asTensor().impl()->isParameter)
            *failure += ". Guard failed on a parameter, consider using torch._dynamo.config.force_parameter_static_shapes = False "
                        "to allow dynamism on parameters.";
        return failure;
    }
    case Kind::TypeMatch: {
        auto* instance = value->as<InstanceObject>();
        if (classObject ? instance && instance->cls == classObject : pythonTypeName(*value) == typeName) return std::nullopt;
        // PyTorch 2.15's words: the expected type's id and class, the type's name as the hint
        auto* expected = dynamic_cast<const ClassObject*>(classObject.get());
        const std::string name = expected ? expected->name : typeName;
        const std::string cls = fmt::format("<class '{}'>", expected ? expected->displayName() : typeName);
        return failedCode(*this, fmt::format("___check_type_id({}, {}), type={}", s, typeId(cls), cls), "type " + name);
    }
    case Kind::Constant:
        if (!sameConstant(*value, constant)) return failedCode(*this);
        return std::nullopt;
    case Kind::Length: {
        const ValueList* items = sequenceItems(*value);
        auto* dict = value->as<DictObject>();
        int64_t n = items ? static_cast<int64_t>(items->size()) : dict ? static_cast<int64_t>(dict->items.size()) : -1;
        if (n != count) return failedCode(*this);
        return std::nullopt;
    }
    case Kind::IdMatch:
        if (objectId(*value, ofCode) != objectId(constant, ofCode)) return failedCode(*this);
        return std::nullopt;
    case Kind::KeyOrder: {  // as Dynamo's DictGuardManager words it: the length, then each key by index
        auto* dict = value->as<DictObject>();
        const ValueList& keys = *sequenceItems(constant);
        if (!dict) return failedCode(*this);
        if (dict->items.size() != keys.size()) return fmt::format("len({}) != {}", s, keys.size());
        for (size_t i = 0; i < keys.size() && !keysUnguarded; ++i)
            if (!sameConstant(dict->items[i].first, keys[i]))
                return failedCode(*this, fmt::format("list(dict.keys({}))[{}] == {}", s, i, valueRepr(keys[i])));
        return std::nullopt;
    }
    case Kind::ObjectAliasing: {
        // A module and the view of it its own globals are read through are one module.
        auto* module = value->as<ModuleObject>();
        auto* otherModule = other ? other->as<ModuleObject>() : nullptr;
        const bool sameModule = module && otherModule && (module == otherModule || (!module->name.empty() && module->name == otherModule->name));
        const bool same = sameModule ||
                          (other && (value->isTensor() ? other->isTensor() && value->asTensor().impl() == other->asTensor().impl()
                                                       : value->isObject() && other->isObject() && value->asObject() == other->asObject()));
        if (!same) return failedCode(*this);
        return std::nullopt;
    }
    case Kind::DictContains: {
        auto* dict = value->as<DictObject>();
        if (!dict || (dict->find(constant) != nullptr) != (count != 0)) return userStack.empty() ? str() : failedCode(*this, code(), hint());
        return std::nullopt;
    }
    case Kind::NotNone:
        if (value->isNone()) return failedCode(*this);
        return std::nullopt;
    case Kind::NoHasattr:
    case Kind::Hasattr: {  // read as Python's hasattr would, without running the object's code
        auto* instance = value->as<InstanceObject>();
        const std::string& name = constant.asString();
        const bool has = instance && (instance->dict->findString(name) || instance->cls->lookup(name));
        if (has != (kind == Kind::Hasattr)) return failedCode(*this);
        return std::nullopt;
    }
    case Kind::DimAtLeast:
    case Kind::DimEquals: {
        if (!value->isTensor() || value->asTensor().dim() <= dim) return failedCode(*this);
        int64_t size = value->asTensor().sizes()[static_cast<size_t>(dim)];
        bool ok = kind == Kind::DimAtLeast ? size >= count : size == count;
        if (!ok) return failedCode(*this);
        return std::nullopt;
    }
    case Kind::SizeRelation: {
        const bool ofInt = dim < 0;  // a guard on an int argument made dynamic
        if (ofInt ? !value->isInt() || value->isBool() : !value->isTensor() || value->asTensor().dim() <= dim) return failedCode(*this);
        int64_t size = ofInt ? value->asInt() : value->asTensor().sizes()[static_cast<size_t>(dim)];
        // A product of the tensor's sizes (a compile's guard: L['x'].size()[1]*L['x'].size()[0] <= 4096)
        // reads each; every leaf is a size of `source`.
        auto sizeOf = [&](const SizeExpression& leaf) -> std::optional<int64_t> {
            if (ofInt || leaf.dim == dim) return size;
            const Tensor& t = value->asTensor();
            if (leaf.dim < 0 || leaf.dim >= t.dim()) return std::nullopt;
            return t.sizes()[static_cast<size_t>(leaf.dim)];
        };
        std::optional<int64_t> a = lhs->evaluate(sizeOf), b = rhs->evaluate(sizeOf);
        if (!a || !b || !compareNumbers(relation, *a, *b) || size < count) return failedRelation(*this);
        return std::nullopt;
    }
    case Kind::StrideRelation: {
        if (!value->isTensor() || value->asTensor().dim() <= dim) return failedCode(*this);
        const Tensor& t = value->asTensor();
        int64_t expected = relation == CompareOperator::GtE ? count : product.constant;
        for (const TensorProduct::Factor& f : product.factors) {
            if (f.dim >= t.dim()) return failedCode(*this);
            expected *= (f.stride ? t.strides() : t.sizes())[static_cast<size_t>(f.dim)];
        }
        if (compareNumbers(relation, t.strides()[static_cast<size_t>(dim)], expected)) return std::nullopt;
        if (relation == CompareOperator::GtE) return failedCode(*this);
        return fmt::format("{}  # {}", code(), strideComment(*this));
    }
    case Kind::FloatNotNan:
        if (!value->isFloat() || std::isnan(value->asFloat())) return failedCode(*this);
        return std::nullopt;
    case Kind::FloatRelation:
        if (!value->isFloat() || !compareNumbers(relation, value->asFloat(), bound)) return failedRelation(*this);
        return std::nullopt;
    case Kind::DimsMatch: {
        auto sizeOf = [](const Value* v, int64_t d) -> std::optional<int64_t> {
            if (!v || !v->isTensor() || v->asTensor().dim() <= d) return std::nullopt;
            return v->asTensor().sizes()[static_cast<size_t>(d)];
        };
        auto a = sizeOf(value, dim), b = sizeOf(other, otherDim);
        if (!a || !b || *a != *b) return failedCode(*this);
        return std::nullopt;
    }
    }
    return std::nullopt;
}

}  // namespace fusescope

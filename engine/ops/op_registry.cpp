#include "ops/op_registry.h"

#include <algorithm>
#include <cctype>
#include <set>

#include <fmt/format.h>

#include "core/error.h"
#include "core/grad_mode.h"
#include "ops/kernel_support.h"
#include "ops/op_registration.h"

namespace fusescope {

// ---------------------------------------------------------------------------------------
// Schema parsing

namespace {

std::string_view trim(std::string_view s) {
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
    return s;
}

// Splits on commas outside brackets.
std::vector<std::string_view> splitTopLevel(std::string_view s) {
    std::vector<std::string_view> parts;
    int depth = 0;
    std::size_t start = 0;
    for (std::size_t i = 0; i < s.size(); ++i) {
        char c = s[i];
        if (c == '(' || c == '[') ++depth;
        if (c == ')' || c == ']') --depth;
        if (c == ',' && depth == 0) {
            parts.push_back(trim(s.substr(start, i - start)));
            start = i + 1;
        }
    }
    if (!trim(s.substr(start)).empty()) parts.push_back(trim(s.substr(start)));
    return parts;
}

IValue parseDefault(std::string_view text, const std::string& type) {
    if (text == "None") return None{};
    if (text == "True") return true;
    if (text == "False") return false;
    if (text.size() >= 2 && (text.front() == '\'' || text.front() == '"')) return std::string(text.substr(1, text.size() - 2));
    if (text.front() == '[') {
        std::vector<int64_t> ints;
        for (std::string_view item : splitTopLevel(text.substr(1, text.size() - 2))) ints.push_back(std::stoll(std::string(item)));
        return IValue::intList(ints);
    }
    std::string s(text);
    bool isFloatText = s.find_first_of(".eE") != std::string::npos && s.find("0x") == std::string::npos;
    if (type == "float" || isFloatText) return std::stod(s);
    return static_cast<int64_t>(std::stoll(s));
}

}  // namespace

ParsedSchema parseSchema(std::string_view schema) {
    ParsedSchema out;
    std::size_t open = schema.find('(');
    std::size_t arrow = schema.rfind("->");
    std::size_t close = schema.rfind(')', arrow);
    if (open == std::string_view::npos || close == std::string_view::npos || arrow == std::string_view::npos)
        throw Error(fmt::format("malformed op schema '{}'", schema));
    out.name = std::string(trim(schema.substr(0, open)));
    out.returns = std::string(trim(schema.substr(arrow + 2)));
    bool kwOnly = false;
    for (std::string_view part : splitTopLevel(schema.substr(open + 1, close - open - 1))) {
        if (part == "*") {
            kwOnly = true;
            continue;
        }
        SchemaParam p;
        p.kwOnly = kwOnly;
        std::string_view decl = part;
        if (std::size_t eq = part.find('='); eq != std::string_view::npos) {
            decl = trim(part.substr(0, eq));
            p.hasDefault = true;
        }
        std::size_t space = decl.rfind(' ');
        if (space == std::string_view::npos) throw Error(fmt::format("malformed parameter '{}' in schema '{}'", part, schema));
        std::string type(trim(decl.substr(0, space)));
        p.name = std::string(trim(decl.substr(space + 1)));
        if (!type.empty() && type.back() == '?') {
            p.optional = true;
            type.pop_back();
        }
        // "int[2]" is an int list of a fixed length; binding treats it as any int list.
        if (std::size_t br = type.find('['); br != std::string::npos) type = type.substr(0, br) + "[]";
        p.type = type;
        if (p.hasDefault) p.defaultValue = parseDefault(trim(part.substr(part.find('=') + 1)), type);
        out.params.push_back(std::move(p));
    }
    return out;
}

std::string_view baseOpName(std::string_view name) { return name.substr(0, name.find('.')); }

// ---------------------------------------------------------------------------------------
// BoundArgs

const IValue& BoundArgs::operator[](std::string_view name) const {
    for (std::size_t i = 0; i < names.size(); ++i)
        if (names[i] == name) return values_[i];
    throw Error(fmt::format("{}(): no parameter named '{}'", opName, name));
}

const Tensor& BoundArgs::tensor(std::string_view name) const {
    const IValue& v = (*this)[name];
    if (!v.isTensor()) throw ScriptError("TypeError", fmt::format("{}(): argument '{}' must be Tensor", opName, name));
    return v.toTensor();
}

double BoundArgs::number(std::string_view name) const {
    const IValue& v = (*this)[name];
    if (!v.isNumber()) throw ScriptError("TypeError", fmt::format("{}(): argument '{}' must be a number", opName, name));
    return v.toDouble();
}

int64_t BoundArgs::integer(std::string_view name) const {
    const IValue& v = (*this)[name];
    if (!v.isInt() && !v.isBool()) throw ScriptError("TypeError", fmt::format("{}(): argument '{}' must be int", opName, name));
    return v.toInt();
}

bool BoundArgs::flag(std::string_view name) const {
    const IValue& v = (*this)[name];
    if (!v.isBool()) throw ScriptError("TypeError", fmt::format("{}(): argument '{}' must be bool", opName, name));
    return v.toBool();
}

std::vector<int64_t> BoundArgs::ints(std::string_view name) const {
    const IValue& v = (*this)[name];
    if (v.isNone()) return {};
    return v.toIntList();
}

// ---------------------------------------------------------------------------------------
// Binding

namespace {

std::string pythonTypeName(const IValue& v) {
    if (v.isNone()) return "NoneType";
    if (v.isBool()) return "bool";
    if (v.isInt()) return "int";
    if (v.isDouble()) return "float";
    if (v.isString()) return "str";
    if (v.isTensor()) return "Tensor";
    if (v.isDType()) return "torch.dtype";
    if (v.isDevice()) return "torch.device";
    return v.toSequence()->isTuple ? "tuple" : "list";
}

std::string typeDisplay(const SchemaParam& p) {
    if (p.type == "Tensor[]") return "tuple of Tensors";
    if (p.type == "int[]") return "tuple of ints";
    if (p.type == "Scalar") return "Number";
    if (p.type == "ScalarType") return "torch.dtype";
    if (p.type == "Device") return "torch.device";
    return p.type;
}

// Whether binding `args` and `kwargs` to `params` would pass a tensor as a Scalar.
bool readsTensorAsScalar(const std::vector<SchemaParam>& params, const IValueList& args, const Kwargs& kwargs) {
    for (std::size_t i = 0; i < args.size() && i < params.size(); ++i)
        if (params[i].type == "Scalar" && args[i].isTensor()) return true;
    for (const auto& [name, value] : kwargs) {
        auto it = std::find_if(params.begin(), params.end(), [&](const SchemaParam& p) { return p.name == name; });
        if (it != params.end() && it->type == "Scalar" && value.isTensor()) return true;
    }
    return false;
}

// Converts a value to a parameter's type; nullopt when it does not fit.
std::optional<IValue> convertArg(const SchemaParam& p, const IValue& v) {
    if (v.isNone()) {
        if (p.optional || p.type == "Any") return v;
        return std::nullopt;
    }
    const std::string& t = p.type;
    if (t == "Any") return v;
    if (t == "Tensor") {
        if (v.isTensor()) return v;
        if (v.isNumber()) return IValue(wrapScalar(v));
        return std::nullopt;
    }
    if (t == "Tensor[]") {
        if (!v.isSequence()) return std::nullopt;
        for (const IValue& item : v.toSequence()->items)
            if (!item.isTensor()) return std::nullopt;
        return v;
    }
    if (t == "Scalar") {
        if (v.isNumber()) return v;
        if (v.isTensor() && v.toTensor().numel() == 1 && v.toTensor().dim() == 0 && !v.toTensor().isMeta()) {
            const Tensor& s = v.toTensor();
            // Read as a number, it would lose its gradient without a word.
            if (s.requiresGrad() && gradEnabled())
                throw ScriptError("RuntimeError", fmt::format("Fusescope cannot differentiate with respect to '{}' here: it is read as a "
                                                              "number (a Scalar), and a tensor that requires grad would lose its gradient",
                                                              p.name));
            if (s.dtype() == DType::Bool) return IValue(s.item() != 0.0);
            if (isIntegral(s.dtype())) return IValue(s.readInt64(0));
            return IValue(s.item());
        }
        return std::nullopt;
    }
    if (t == "int") {
        if (v.isInt()) return v;
        return std::nullopt;
    }
    if (t == "float") {
        if (v.isDouble() || v.isInt()) return IValue(v.toDouble());
        return std::nullopt;
    }
    if (t == "bool") {
        if (v.isBool()) return v;
        return std::nullopt;
    }
    if (t == "int[]") {
        if (v.isInt()) return IValue::intList({v.toInt()});
        if (!v.isSequence()) return std::nullopt;
        for (const IValue& item : v.toSequence()->items)
            if (!item.isInt()) return std::nullopt;
        return v;
    }
    if (t == "str") {
        if (v.isString()) return v;
        return std::nullopt;
    }
    if (t == "ScalarType") {
        if (v.isDType()) return v;
        return std::nullopt;
    }
    if (t == "Device") {
        if (v.isDevice()) return v;
        if (v.isString()) {
            if (auto d = Device::parse(v.toString())) return IValue(*d);
            throw ScriptError("RuntimeError",
                              fmt::format("Expected one of cpu, cuda, meta device type at start of device string: {}", v.toString()));
        }
        return std::nullopt;
    }
    return v;  // unknown types (MemoryFormat, Layout, ...) pass through unchecked
}

bool containsMeta(const IValue& v) {
    if (v.isTensor()) return v.toTensor().defined() && v.toTensor().isMeta();
    if (v.isDevice()) return v.toDevice().isMeta();
    if (v.isSequence())
        return std::any_of(v.toSequence()->items.begin(), v.toSequence()->items.end(), containsMeta);
    return false;
}

}  // namespace

bool hasMetaArgument(const BoundArgs& bound) { return std::any_of(bound.values_.begin(), bound.values_.end(), containsMeta); }


BoundArgs OpRegistry::bind(const OpDef& op, const IValueList& argsIn, const Kwargs& kwargs) const {
    const ParsedSchema& schema = parsed(op);
    const auto& params = schema.params;
    std::string display(baseOpName(op.name));
    BoundArgs out;
    out.opName = display;
    out.names.reserve(params.size());
    for (const SchemaParam& p : params) out.names.push_back(p.name);
    std::vector<std::optional<IValue>> slots(params.size());

    std::size_t nPositional = 0;
    while (nPositional < params.size() && !params[nPositional].kwOnly) ++nPositional;

    // Varargs: ones(2, 3) / x.view(2, 3) / x.permute(1, 0) pack trailing ints into the last
    // positional int[] parameter, as PyTorch's argument parser does.
    const IValueList* args = &argsIn;
    IValueList packed;
    if (nPositional > 0 && params[nPositional - 1].type == "int[]" && argsIn.size() > nPositional) {
        std::size_t first = nPositional - 1;
        bool allInts = std::all_of(argsIn.begin() + static_cast<std::ptrdiff_t>(first), argsIn.end(),
                                   [](const IValue& v) { return v.isInt(); });
        if (allInts) {
            packed.assign(argsIn.begin(), argsIn.begin() + static_cast<std::ptrdiff_t>(first));
            packed.push_back(IValue::list(IValueList(argsIn.begin() + static_cast<std::ptrdiff_t>(first), argsIn.end())));
            args = &packed;
        }
    }

    if (args->size() > nPositional) {
        std::size_t required = 0;
        for (std::size_t i = 0; i < nPositional; ++i)
            if (!params[i].hasDefault) ++required;
        std::string takes = required == nPositional ? std::to_string(nPositional)
                                                    : fmt::format("from {} to {}", required, nPositional);
        throw ScriptError("TypeError", fmt::format("{}() takes {} positional argument{} but {} {} given", display, takes,
                                                   nPositional == 1 ? "" : "s", args->size(),
                                                   args->size() == 1 ? "was" : "were"));
    }
    auto typeError = [&](const SchemaParam& p, const IValue& v, std::optional<std::size_t> position) {
        std::string where = position ? fmt::format(" (position {})", *position + 1) : std::string();
        return ScriptError("TypeError", fmt::format("{}(): argument '{}'{} must be {}, not {}", display, p.name, where,
                                                    typeDisplay(p), pythonTypeName(v)));
    };
    for (std::size_t i = 0; i < args->size(); ++i) {
        auto converted = convertArg(params[i], (*args)[i]);
        if (!converted) throw typeError(params[i], (*args)[i], i);
        slots[i] = std::move(*converted);
    }
    for (const auto& [name, value] : kwargs) {
        auto it = std::find_if(params.begin(), params.end(), [&](const SchemaParam& p) { return p.name == name; });
        if (it == params.end())
            throw ScriptError("TypeError", fmt::format("{}() got an unexpected keyword argument '{}'", display, name));
        std::size_t index = static_cast<std::size_t>(it - params.begin());
        if (slots[index])
            throw ScriptError("TypeError", fmt::format("{}() got multiple values for argument '{}'", display, name));
        auto converted = convertArg(*it, value);
        if (!converted) throw typeError(*it, value, std::nullopt);
        slots[index] = std::move(*converted);
    }
    out.values_.reserve(params.size());
    for (std::size_t i = 0; i < params.size(); ++i) {
        if (!slots[i]) {
            if (!params[i].hasDefault)
                throw ScriptError("TypeError", fmt::format("{}() missing required argument '{}'", display, params[i].name));
            slots[i] = params[i].defaultValue;
        }
        out.values_.push_back(std::move(*slots[i]));
    }
    return out;
}

// ---------------------------------------------------------------------------------------
// Registry

const OpRegistry& OpRegistry::instance() {
    static const OpRegistry registry = [] {
        OpRegistry r;
        registerAllOps(r);
        return r;
    }();
    return registry;
}

OpDef& OpRegistry::definition(std::string_view name) {
    auto it = ops_.find(name);
    if (it == ops_.end()) throw Error(fmt::format("op definition names an op that does not exist: '{}'", name));
    return it->second;
}

std::vector<std::string> OpRegistry::allNames() const {
    std::vector<std::string> out;
    for (const auto& [name, _] : ops_) out.push_back(name);
    std::sort(out.begin(), out.end());
    return out;
}

std::vector<std::string> OpRegistry::incompleteDefinitions() const {
    std::vector<std::string> out;
    for (const auto& [name, op] : ops_)
        if (!op.lowering && op.runsEagerlyBecause.empty()) out.push_back(name + ": no lowering and no reason to run eagerly");
    std::sort(out.begin(), out.end());
    return out;
}

OpDef& OpRegistry::add(OpDef op) {
    ParsedSchema schema = parseSchema(op.schema);
    if (schema.name != op.name) throw Error(fmt::format("op '{}' has a schema named '{}'", op.name, schema.name));
    std::string name = op.name;
    if (ops_.count(name)) throw Error(fmt::format("op '{}' registered twice", name));
    OpDef& entry = ops_.emplace(name, std::move(op)).first->second;
    overloads_[std::string(baseOpName(name))].push_back(&entry);
    schemas_.emplace(&entry, std::move(schema));
    return entry;
}

const OpDef* OpRegistry::find(std::string_view name) const {
    if (auto it = ops_.find(name); it != ops_.end()) return &it->second;
    if (const auto* candidates = overloadsOf(name)) return candidates->front();
    return nullptr;
}

std::vector<std::string> OpRegistry::names() const {
    std::vector<std::string> out;
    for (const auto& [base, _] : overloads_) out.push_back(base);
    std::sort(out.begin(), out.end());
    return out;
}

const std::vector<const OpDef*>* OpRegistry::overloadsOf(std::string_view baseName) const {
    auto it = overloads_.find(baseName);
    return it == overloads_.end() ? nullptr : &it->second;
}

std::vector<const OpDef*> OpRegistry::overloads(std::string_view baseName) const {
    const auto* candidates = overloadsOf(baseName);
    return candidates ? *candidates : std::vector<const OpDef*>{};
}

const ParsedSchema& OpRegistry::parsed(const OpDef& op) const {
    if (auto it = schemas_.find(&op); it != schemas_.end()) return it->second;
    throw Error(fmt::format("op '{}' is not registered", op.name));
}

std::pair<const OpDef*, BoundArgs> OpRegistry::resolve(std::string_view name, const IValueList& args,
                                                       const Kwargs& kwargs) const {
    if (name.find('.') != std::string_view::npos)
        if (auto it = ops_.find(name); it != ops_.end()) return {&it->second, bind(it->second, args, kwargs)};
    const auto* overloadList = overloadsOf(name);
    if (!overloadList) throw ScriptError("AttributeError", fmt::format("module 'torch' has no attribute '{}'", name));
    const auto& candidates = *overloadList;
    // As PyTorch's argument parser orders overloads: one that takes a 0-dim tensor as a
    // Tensor comes before one that would read it as a Scalar (clamp.Tensor before clamp).
    // Two passes over the list, not a reordered copy: this is every eager call's path.
    auto readsScalar = [&](const OpDef* op) { return candidates.size() > 1 && readsTensorAsScalar(parsed(*op).params, args, kwargs); };
    std::optional<ScriptError> firstError;
    std::optional<ScriptError> fittingError;  // from an overload that accepts this many arguments
    for (bool scalarPass : {false, true})
        for (const OpDef* op : candidates) {
            if (readsScalar(op) != scalarPass) continue;
            try {
                return {op, bind(*op, args, kwargs)};
            } catch (const ScriptError& e) {
                if (!firstError) firstError = e;
                std::string_view msg = e.what();
                if (!fittingError && msg.find("positional argument") == std::string_view::npos &&
                    msg.find("unexpected keyword") == std::string_view::npos)
                    fittingError = e;
            }
        }
    throw fittingError ? *fittingError : *firstError;
}

IValue OpRegistry::run(const OpDef& op, const BoundArgs& bound) const {
    bool meta = hasMetaArgument(bound);
    const auto& fn = meta ? op.infer : op.kernel;
    if (!fn) throw ScriptError("RuntimeError", fmt::format("{}: no {} implementation", op.name, meta ? "meta" : "CPU"));
    return fn(bound);
}

}  // namespace fusescope

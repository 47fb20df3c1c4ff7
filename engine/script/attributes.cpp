// Attribute access on non-tensor values: modules, records, and the methods of list, dict
// and str that scripts use.
#include <algorithm>
#include <cctype>
#include <cmath>

#include <fmt/format.h>

#include <map>
#include <optional>

#include "script/interpreter.h"
#include "script/set_operations.h"
#include "script/types/method_table.h"
#include "script/torch_names.h"

namespace fusescope {

namespace {

Value boundMethod(const std::string& name, const Value& self,
                  std::function<Value(Interpreter&, const Value&, CallArgs&)> fn) {
    Value captured = self;
    return makeBuiltin(name, [captured, fn](Interpreter& in, CallArgs& args) { return fn(in, captured, args); });
}

// The attributes of the object model's own objects: bound methods, properties, builtin types.
std::optional<Value> objectModelAttribute(const Value& object, const std::string& name) {
    if (auto* bound = object.as<BoundMethodObject>()) {
        if (name == "__self__") return bound->self;
        if (name == "__func__") return bound->function;
        if (auto* fn = bound->function.as<FunctionObject>()) {
            if (name == "__name__") return Value(fn->name);
            if (name == "__qualname__") return Value(fn->qualname);
        }
        return std::nullopt;
    }
    if (auto* p = object.as<PropertyObject>()) {
        if (name == "fget") return p->getter;
        if (name == "fset") return p->setter;
        if (name == "fdel") return p->deleter;
        if (name != "getter" && name != "setter" && name != "deleter") return std::nullopt;
        PropertyObject copy = *p;
        return makeBuiltin("property." + name, [copy, name](Interpreter& in, CallArgs& a) {
            expectArgs(in, a, 1, 1, name);
            auto replaced = std::make_shared<PropertyObject>(copy);
            (name == "getter" ? replaced->getter : name == "setter" ? replaced->setter : replaced->deleter) = a.args[0];
            return Value(ObjectPtr(replaced));
        });
    }
    if (auto* t = object.as<TypeObject>()) {
        if (name == "__name__" || name == "__qualname__") return Value(t->name);
        return std::nullopt;
    }
    if (auto* cm = object.as<ClassMethodObject>(); cm && name == "__func__") return cm->function;
    if (auto* sm = object.as<StaticMethodObject>(); sm && name == "__func__") return sm->function;
    return std::nullopt;
}

// str.format: {} / {0} / {name}, each with an optional !r / !s and :spec.
std::string formatString(Interpreter& in, const std::string& s, const CallArgs& a) {
    std::string out;
    size_t next = 0;
    for (size_t i = 0; i < s.size(); ++i) {
        char c = s[i];
        if ((c == '{' || c == '}') && i + 1 < s.size() && s[i + 1] == c) {
            out += c;
            ++i;
            continue;
        }
        if (c != '{') {
            out += c;
            continue;
        }
        size_t close = s.find('}', i);
        if (close == std::string::npos) in.fail("ValueError", "Single '{' encountered in format string");
        std::string field = s.substr(i + 1, close - i - 1);
        i = close;
        std::string spec, conversion;
        if (size_t colon = field.find(':'); colon != std::string::npos) spec = field.substr(colon + 1), field.resize(colon);
        if (size_t bang = field.find('!'); bang != std::string::npos) conversion = field.substr(bang + 1), field.resize(bang);
        Value value;
        if (field.empty()) {
            if (next >= a.args.size()) in.fail("IndexError", "Replacement index " + std::to_string(next) + " out of range for positional args tuple");
            value = a.args[next++];
        } else if (std::isdigit(static_cast<unsigned char>(field[0]))) {
            size_t index = std::stoul(field);
            if (index >= a.args.size()) in.fail("IndexError", "Replacement index " + field + " out of range for positional args tuple");
            value = a.args[index];
        } else {
            const Value* kw = a.kwarg(field);
            if (!kw) in.raise("KeyError", {Value(field)});
            value = *kw;
        }
        if (conversion == "r") value = Value(in.repr(value));
        else if (conversion == "s") value = Value(in.str(value));
        out += spec.empty() ? in.str(value) : formatWithSpec(value, spec);
    }
    return out;
}

Value stringMethod(Interpreter& interp, const Value& self, const std::string& name) {
    const std::string s = self.asString();
    auto bind = [&](auto fn) { return boundMethod("str." + name, self, fn); };
    if (name == "join")
        return bind([s](Interpreter& in, const Value&, CallArgs& a) {
            expectArgs(in, a, 1, 1, "join");
            std::string out;
            bool first = true;
            for (const Value& v : in.iterate(a.args[0])) {
                if (!v.isString()) in.fail("TypeError", "sequence item: expected str instance, " + pythonTypeName(v) + " found");
                if (!first) out += s;
                out += v.asString();
                first = false;
            }
            return Value(out);
        });
    if (name == "upper" || name == "lower" || name == "strip")
        return bind([s, name](Interpreter&, const Value&, CallArgs&) {
            std::string out = s;
            if (name == "upper") std::transform(out.begin(), out.end(), out.begin(), ::toupper);
            else if (name == "lower") std::transform(out.begin(), out.end(), out.begin(), ::tolower);
            else {
                size_t b = out.find_first_not_of(" \t\n\r");
                size_t e = out.find_last_not_of(" \t\n\r");
                out = b == std::string::npos ? "" : out.substr(b, e - b + 1);
            }
            return Value(out);
        });
    if (name == "startswith" || name == "endswith" || name == "removeprefix" || name == "removesuffix")
        return bind([s, name](Interpreter& in, const Value&, CallArgs& a) {
            expectArgs(in, a, 1, 1, name);
            const std::string& p = a.args[0].asString();
            bool atStart = name == "startswith" || name == "removeprefix";
            bool r = atStart ? s.rfind(p, 0) == 0 : s.size() >= p.size() && s.compare(s.size() - p.size(), p.size(), p) == 0;
            if (name == "startswith" || name == "endswith") return Value(r);
            if (!r) return Value(s);
            return Value(atStart ? s.substr(p.size()) : s.substr(0, s.size() - p.size()));
        });
    if (name == "replace")
        return bind([s](Interpreter& in, const Value&, CallArgs& a) {
            expectArgs(in, a, 2, 2, "replace");
            const std::string& from = a.args[0].asString();
            const std::string& to = a.args[1].asString();
            if (from.empty()) return Value(s);
            std::string out;
            size_t pos = 0;
            for (size_t hit; (hit = s.find(from, pos)) != std::string::npos; pos = hit + from.size())
                out += s.substr(pos, hit - pos) + to;
            return Value(out + s.substr(pos));
        });
    if (name == "format")
        return bind([s](Interpreter& in, const Value&, CallArgs& a) { return Value(formatString(in, s, a)); });
    if (name == "partition" || name == "rpartition")
        return bind([s, name](Interpreter& in, const Value&, CallArgs& a) {
            expectArgs(in, a, 1, 1, name);
            const std::string& sep = a.args[0].asString();
            if (sep.empty()) in.fail("ValueError", "empty separator");
            size_t at = name == "partition" ? s.find(sep) : s.rfind(sep);
            if (at == std::string::npos)
                return name == "partition" ? makeTuple({Value(s), Value(""), Value("")}) : makeTuple({Value(""), Value(""), Value(s)});
            return makeTuple({Value(s.substr(0, at)), Value(sep), Value(s.substr(at + sep.size()))});
        });
    if (name == "lstrip" || name == "rstrip")
        return bind([s, name](Interpreter& in, const Value&, CallArgs& a) {
            expectArgs(in, a, 0, 1, name);
            std::string chars = a.args.empty() || a.args[0].isNone() ? std::string(" \t\n\r\f\v") : a.args[0].asString();
            if (name == "lstrip") {
                size_t b = s.find_first_not_of(chars);
                return Value(b == std::string::npos ? std::string() : s.substr(b));
            }
            size_t e = s.find_last_not_of(chars);
            return Value(e == std::string::npos ? std::string() : s.substr(0, e + 1));
        });
    if (name == "find" || name == "rfind" || name == "index" || name == "count")
        return bind([s, name](Interpreter& in, const Value&, CallArgs& a) {
            expectArgs(in, a, 1, 1, name);
            const std::string& sub = a.args[0].asString();
            if (name == "find") return Value(s.find(sub) == std::string::npos ? int64_t{-1} : static_cast<int64_t>(s.find(sub)));
            if (name == "index") {
                if (s.find(sub) == std::string::npos) in.fail("ValueError", "substring not found");
                return Value(static_cast<int64_t>(s.find(sub)));
            }
            if (name == "rfind") return Value(s.rfind(sub) == std::string::npos ? int64_t{-1} : static_cast<int64_t>(s.rfind(sub)));
            if (sub.empty()) return Value(static_cast<int64_t>(s.size() + 1));
            int64_t n = 0;
            for (size_t at = s.find(sub); at != std::string::npos; at = s.find(sub, at + sub.size())) ++n;
            return Value(n);
        });
    if (name == "isdigit" || name == "isalpha" || name == "isspace")
        return bind([s, name](Interpreter&, const Value&, CallArgs&) {
            auto test = name == "isdigit" ? ::isdigit : name == "isalpha" ? ::isalpha : ::isspace;
            return Value(!s.empty() && std::all_of(s.begin(), s.end(), [&](char c) { return test(static_cast<unsigned char>(c)) != 0; }));
        });
    if (name == "ljust" || name == "rjust")
        return bind([s, name](Interpreter& in, const Value&, CallArgs& a) {
            expectArgs(in, a, 1, 2, name);
            int64_t width = a.args[0].asInt();
            std::string fill = a.args.size() > 1 ? a.args[1].asString() : " ";
            if (static_cast<int64_t>(s.size()) >= width || fill.size() != 1) return Value(s);
            std::string pad(static_cast<size_t>(width) - s.size(), fill[0]);
            return Value(name == "ljust" ? s + pad : pad + s);
        });
    if (name == "splitlines")
        return bind([s](Interpreter&, const Value&, CallArgs&) {
            ValueList lines;
            size_t start = 0;
            for (size_t i = 0; i < s.size(); ++i)
                if (s[i] == '\n') lines.push_back(Value(s.substr(start, i - start))), start = i + 1;
            if (start < s.size()) lines.push_back(Value(s.substr(start)));
            return makeList(lines);
        });
    if (name == "split")
        return bind([s](Interpreter&, const Value&, CallArgs& a) {
            ValueList parts;
            if (a.args.empty() || a.args[0].isNone()) {
                size_t i = 0;
                while (i < s.size()) {
                    while (i < s.size() && isspace(static_cast<unsigned char>(s[i]))) ++i;
                    size_t j = i;
                    while (j < s.size() && !isspace(static_cast<unsigned char>(s[j]))) ++j;
                    if (j > i) parts.push_back(Value(s.substr(i, j - i)));
                    i = j;
                }
                return makeList(parts);
            }
            const std::string sep = a.args[0].asString();
            size_t pos = 0;
            for (size_t hit; (hit = s.find(sep, pos)) != std::string::npos; pos = hit + sep.size())
                parts.push_back(Value(s.substr(pos, hit - pos)));
            parts.push_back(Value(s.substr(pos)));
            return makeList(parts);
        });
    interp.fail("AttributeError", "'str' object has no attribute '" + name + "'");
}

// An OptimizedModule is a module whose one child is the model, `_orig_mod`, so the names it
// lists start with that child's (the familiar "_orig_mod." of a compiled model's
// checkpoint); every other attribute is the model's own.
std::optional<Value> optimizedModuleNames(Interpreter& interp, const Value& model, const std::string& name, const SourceLocation& where) {
    bool stateDict = name == "state_dict";
    if (!stateDict && name != "named_parameters" && name != "named_buffers") return std::nullopt;
    Value method = interp.getAttribute(model, name, where);
    return makeBuiltin(name, [method, stateDict](Interpreter& in, CallArgs& a) {
        CallArgs call = a;
        std::string prefix;
        for (auto it = call.kwargs.begin(); it != call.kwargs.end(); ++it)
            if (it->first == "prefix") {
                prefix = valueStr(it->second);
                call.kwargs.erase(it);
                break;
            }
        // state_dict's prefix ends with its dot; named_*'s is joined with one.
        prefix = stateDict ? prefix + "_orig_mod." : (prefix.empty() ? "" : prefix + ".") + "_orig_mod";
        call.kwargs.emplace_back("prefix", Value(prefix));
        return in.call(method, call);
    });
}

}  // namespace

Value Interpreter::getAttribute(const Value& object, const std::string& name, const SourceLocation& where) {
    try {
        if (object.isTensor()) return tensorAttribute(*this, object, name, where);
        if (object.as<InstanceObject>()) return instanceAttribute(object, name);
        if (object.as<ClassObject>()) return classAttribute(object, name);
        if (auto* super = object.as<SuperObject>()) return superAttribute(*super, name);
        if (auto* compiled = object.as<CompiledFunctionObject>(); compiled && compiled->isModule) {  // OptimizedModule
            if (name == "_orig_mod") return compiled->boundSelf;
            if (auto names = optimizedModuleNames(*this, compiled->boundSelf, name, where)) return *names;
            return getAttribute(compiled->boundSelf, name, where);
        }
        if (auto v = objectModelAttribute(object, name)) return *v;
        // A list's, dict's or set's method reads or changes it.
        if (object.as<SetObject>() || object.as<ListObject>() || object.as<DictObject>()) {
            if (tracer_) tracer_->onObjectTouch(object);
            noteStoredInto(object.asObject());
        }
        if (object.as<SetObject>()) return setMethods().attribute(*this, object, name);
        if (auto* m = object.as<ModuleObject>()) {
            auto it = m->attrs.find(name);
            if (it != m->attrs.end()) return it->second;
            std::vector<std::string_view> ours;
            for (const auto& [attr, value] : m->attrs)
                if (!attr.starts_with("_")) ours.push_back(attr);
            fail("AttributeError", "module '" + m->name + "' has no attribute '" + name + "'" + missingAttributeNote(m->name, name, ours));
        }
        auto boundAttribute = [&](const auto& attrs) -> std::optional<Value> {
            auto it = attrs.find(name);
            if (it == attrs.end()) return std::nullopt;
            auto* method = it->second.template as<MethodObject>();
            if (!method) return it->second;
            return makeBuiltin(method->name, [self = object.asObject(), call = method->call](Interpreter& in, CallArgs& a) {
                return call(in, a, self);
            });
        };
        if (auto v = gradFnAttribute(object, name)) return *v;
        if (auto* r = object.as<RecordObject>())
            if (auto v = boundAttribute(r->attrs)) return *v;
        if (auto* c = object.as<ContextManagerObject>())
            if (auto v = boundAttribute(c->attrs)) return *v;
        if (object.as<ListObject>() && !object.as<DictViewObject>()) return listMethods().attribute(*this, object, name);
        if (object.as<TupleObject>())
            if (auto method = tupleMethods().bind(object, name)) return *method;
        if (object.as<DictObject>()) return dictMethods().attribute(*this, object, name);
        if (object.isString()) return stringMethod(*this, object, name);
        if (object.isDType()) {
            if (name == "is_floating_point") return Value(isFloating(object.asDType()));
            if (name == "itemsize") return Value(static_cast<int64_t>(dtypeSize(object.asDType())));
        }
        if (object.isDevice()) {
            Device d = object.asDevice();
            if (name == "type") return Value(Device{d.kind, -1}.str());
            if (name == "index") return d.index < 0 ? Value() : Value(int64_t{d.index});
        }
        if (auto* fn = object.as<FunctionObject>()) {
            if (fn->attributes)
                if (Value* v = fn->attributes->findString(name)) return *v;
            if (name == "__name__") return Value(fn->name);
            if (name == "__qualname__") return Value(fn->qualname);
            if (name == "__module__") return Value("__main__");
        }
        if (object.isFloat() && name == "is_integer") {
            double d = object.asFloat();
            return makeBuiltin("float.is_integer", [d](Interpreter&, CallArgs&) { return Value(std::isfinite(d) && std::trunc(d) == d); });
        }
        fail("AttributeError", "'" + pythonTypeName(object) + "' object has no attribute '" + name + "'");
    } catch (Error& e) {
        e.setWhereIfUnknown(where);
        throw;
    }
}

}  // namespace fusescope

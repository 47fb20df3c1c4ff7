// The object model's types: instances, classes, super, functions, bound methods,
// properties, builtin type objects, classmethod and staticmethod.
#include <set>
#include <fmt/format.h>

#include "script/interpreter.h"
#include "script/set_operations.h"
#include "script/types/method_table.h"
#include "script/types/type_slots.h"
#include "script/types/union_type.h"

namespace fusescope {

namespace {

// A bound method's __name__ and __qualname__ are its function's.
template <bool kQualified>
Value boundMethodName(Interpreter& in, const Value& self) {
    const auto* fn = self.as<BoundMethodObject>()->function.as<FunctionObject>();
    if (!fn) in.fail("AttributeError", std::string("'method' object has no attribute '") + (kQualified ? "__qualname__'" : "__name__'"));
    return Value(kQualified ? fn->qualname : fn->name);
}

const PropertyObject& propertyOf(const Value& self) { return *self.as<PropertyObject>(); }

// property.getter(f) / setter(f) / deleter(f): a copy of the property with that function.
template <Value PropertyObject::*kFunction>
Value withFunction(Interpreter&, const Value& self, CallArgs& a) {
    auto replaced = std::make_shared<PropertyObject>(propertyOf(self));
    (*replaced).*kFunction = a.args[0];
    return Value(ObjectPtr(replaced));
}

Value wrappedFunction(Interpreter&, const Value& self) {
    if (auto* cm = self.as<ClassMethodObject>()) return cm->function;
    return self.as<StaticMethodObject>()->function;
}

const GetterTable& boundMethodGetters() {
    static const GetterTable table({
        {"__self__", [](Interpreter&, const Value& self) { return self.as<BoundMethodObject>()->self; }},
        {"__func__", [](Interpreter&, const Value& self) { return self.as<BoundMethodObject>()->function; }},
        {"__name__", boundMethodName<false>},
        {"__qualname__", boundMethodName<true>},
    });
    return table;
}

const GetterTable& propertyGetters() {
    static const GetterTable table({
        {"fget", [](Interpreter&, const Value& self) { return propertyOf(self).getter; }},
        {"fset", [](Interpreter&, const Value& self) { return propertyOf(self).setter; }},
        {"fdel", [](Interpreter&, const Value& self) { return propertyOf(self).deleter; }},
    });
    return table;
}

const MethodTable& propertyMethods() {
    static const MethodTable table("property", {
        {"getter", withFunction<&PropertyObject::getter>, 1, 1},
        {"setter", withFunction<&PropertyObject::setter>, 1, 1},
        {"deleter", withFunction<&PropertyObject::deleter>, 1, 1},
    });
    return table;
}

const GetterTable& builtinTypeGetters() {
    static const GetterTable table({
        {"__name__", [](Interpreter&, const Value& self) { return Value(self.as<TypeObject>()->name); }},
        {"__qualname__", [](Interpreter&, const Value& self) { return Value(self.as<TypeObject>()->name); }},
        {"__module__", [](Interpreter&, const Value& self) { return Value(self.as<TypeObject>()->module); }},
    });
    return table;
}

// fn.__name__ = "x" renames the function everywhere (functools.wraps does it); a string only.
template <std::string FunctionObject::*kName>
void renameFunction(Interpreter& in, const Value& self, const Value& value) {
    if (!value.isString())
        in.fail("TypeError", std::string(kName == &FunctionObject::name ? "__name__" : "__qualname__") + " must be set to a string object");
    definitionsChanged();
    self.as<FunctionObject>()->*kName = value.asString();
}

const std::vector<Param>& parametersOf(const FunctionObject& fn) { return fn.def ? fn.def->params : fn.lambda->params; }

// The defaults of the positional parameters (a tuple) or of the keyword-only ones (a dict),
// None when there are none: Python's __defaults__ and __kwdefaults__.
template <bool kKeywordOnly>
Value defaultsOf(const FunctionObject& fn) {
    if (!kKeywordOnly && fn.assignedDefaults) return fn.assignedDefaults->empty() ? Value() : makeTuple(*fn.assignedDefaults);
    ValueList positional;
    auto keywordOnly = std::make_shared<DictObject>();
    size_t next = 0;
    for (const Param& p : parametersOf(fn)) {
        if (!p.defaultValue) continue;
        if (p.kind == ParamKind::KeywordOnly) keywordOnly->set(Value(p.name), fn.defaults[next++]);
        else positional.push_back(fn.defaults[next++]);
    }
    if (kKeywordOnly) return keywordOnly->items.empty() ? Value() : Value(ObjectPtr(keywordOnly));
    return positional.empty() ? Value() : makeTuple(std::move(positional));
}

template <bool kKeywordOnly>
Value functionDefaults(Interpreter&, const Value& self) {
    return defaultsOf<kKeywordOnly>(*self.as<FunctionObject>());
}

}  // namespace

const Value& FunctionObject::defaultsTuple() const {
    if (!defaultsKnown) defaultsValue = defaultsOf<false>(*this), defaultsKnown = true;
    return defaultsValue;
}

namespace {

void setFunctionDefaults(Interpreter& in, const Value& self, const Value& value) {
    const ValueList* items = value.as<TupleObject>() ? &value.as<TupleObject>()->items : nullptr;
    if (!items && !value.isNone()) in.fail("TypeError", "__defaults__ must be set to a tuple object");
    self.as<FunctionObject>()->assignedDefaults = items ? *items : ValueList{};
    self.as<FunctionObject>()->defaultsKnown = false;
}

// fn.__code__: what inspect reads of a code object (its parameters, flags, name and place).
Value functionCode(Interpreter&, const Value& self) {
    const auto& fn = *self.as<FunctionObject>();
    constexpr int64_t kOptimized = 0x1, kNewLocals = 0x2, kVarArgs = 0x4, kVarKeywords = 0x8, kNested = 0x10, kGenerator = 0x20;
    int64_t positionalOnly = 0, positional = 0, keywordOnly = 0, flags = kOptimized | kNewLocals;
    ValueList names, starred;  // CPython's order: positional, keyword-only, then *args, **kwargs
    for (const Param& p : parametersOf(fn)) {
        switch (p.kind) {
            case ParamKind::PositionalOnly: ++positionalOnly; [[fallthrough]];
            case ParamKind::Positional: ++positional; break;
            case ParamKind::KeywordOnly: ++keywordOnly; break;
            case ParamKind::VarArgs: flags |= kVarArgs; break;
            case ParamKind::VarKeywords: flags |= kVarKeywords; break;
        }
        (p.kind == ParamKind::VarArgs || p.kind == ParamKind::VarKeywords ? starred : names).push_back(Value(p.name));
    }
    names.insert(names.end(), starred.begin(), starred.end());
    if (fn.closure) flags |= kNested;
    if (fn.def && fn.def->isGenerator) flags |= kGenerator;
    auto code = std::make_shared<RecordObject>();
    code->type = "code";
    const SourceLocation& where = fn.def ? fn.def->loc : fn.lambda->loc;
    code->text = fmt::format("<code object {} at 0x0, file \"{}\", line {}>", fn.name, where.file, where.line);
    code->attrs = {{"co_argcount", Value(positional)},
                   {"co_posonlyargcount", Value(positionalOnly)},
                   {"co_kwonlyargcount", Value(keywordOnly)},
                   {"co_nlocals", Value(static_cast<int64_t>(names.size()))},
                   {"co_varnames", makeTuple(names)},
                   {"co_flags", Value(flags)},
                   {"co_name", Value(fn.def ? fn.def->name : std::string("<lambda>"))},
                   {"co_qualname", Value(fn.qualname)},
                   {"co_filename", Value(where.file)},
                   {"co_firstlineno", Value(static_cast<int64_t>(where.line))}};
    return Value(ObjectPtr(code));
}

// fn.__dict__: the def's own attributes, made on first use (functools.wraps updates it).
const std::shared_ptr<DictObject>& ownAttributes(Interpreter& in, FunctionObject& fn) {
    if (!fn.attributes) {
        fn.attributes = std::make_shared<DictObject>();
        in.noteStoredInto(fn.attributes);
    }
    return fn.attributes;
}
Value functionDict(Interpreter& in, const Value& self) { return Value(ObjectPtr(ownAttributes(in, *self.as<FunctionObject>()))); }

// fn.attr = value (its name and qualname are getter rows' setters).
void setFunctionAttribute(Interpreter& in, const Value& self, const std::string& name, const Value& value) {
    definitionsChanged();
    ownAttributes(in, *self.as<FunctionObject>())->set(Value(name), value.unsourced());
}

// __doc__, __module__ and __annotations__: what was stored (functools.wraps copies them),
// else the def's own.
const Value* storedAttribute(const Value& self, const char* name) {
    const auto& fn = *self.as<FunctionObject>();
    return fn.attributes ? fn.attributes->findString(name) : nullptr;
}
template <const char* kName>
void storeAttribute(Interpreter& in, const Value& self, const Value& value) {
    setFunctionAttribute(in, self, kName, value);
}
constexpr char kDoc[] = "__doc__", kModule[] = "__module__", kAnnotations[] = "__annotations__";

Value functionDoc(Interpreter&, const Value& self) {
    if (const Value* stored = storedAttribute(self, kDoc)) return *stored;
    const auto& fn = *self.as<FunctionObject>();
    auto doc = fn.def ? docstring(fn.def->body) : std::nullopt;
    return doc ? Value(*doc) : Value();
}
Value functionModule(Interpreter&, const Value& self) {  // its module's __name__
    if (const Value* stored = storedAttribute(self, kModule)) return *stored;
    const auto& fn = *self.as<FunctionObject>();
    if (fn.globals)
        if (auto it = fn.globals->vars.find("__name__"); it != fn.globals->vars.end()) return it->second;
    return Value("__main__");
}
Value functionAnnotations(Interpreter&, const Value& self) {  // the parser does not keep them
    if (const Value* stored = storedAttribute(self, kAnnotations)) return *stored;
    return Value(ObjectPtr(std::make_shared<DictObject>()));
}

const GetterTable& functionGetters() {
    static const GetterTable table({
        {"__name__", [](Interpreter&, const Value& self) { return Value(self.as<FunctionObject>()->name); }, renameFunction<&FunctionObject::name>},
        {"__qualname__", [](Interpreter&, const Value& self) { return Value(self.as<FunctionObject>()->qualname); },
         renameFunction<&FunctionObject::qualname>},
        {"__module__", functionModule, storeAttribute<kModule>},
        {"__doc__", functionDoc, storeAttribute<kDoc>},
        {"__annotations__", functionAnnotations, storeAttribute<kAnnotations>},
        {"__defaults__", functionDefaults<false>, setFunctionDefaults},
        {"__kwdefaults__", functionDefaults<true>},
        {"__code__", functionCode},
        {"__dict__", functionDict},
        {"__closure__", [](Interpreter& in, const Value& self) { return in.closureOf(*self.as<FunctionObject>()); }},
    });
    return table;
}

const GetterTable& wrappedFunctionGetters() {
    static const GetterTable table({{"__func__", wrappedFunction}});
    return table;
}

// A def's own attributes (fn.attr = value), after what every function has (its getters,
// data descriptors in CPython).
Value functionAttribute(Interpreter& in, const Value& self, std::string_view name) {
    const auto* fn = self.as<FunctionObject>();
    if (fn->attributes)
        if (Value* v = fn->attributes->findString(std::string(name))) return *v;
    in.fail("AttributeError", fmt::format("'function' object has no attribute '{}'", name));
}

// len(obj): its __len__, a non-negative int.
int64_t instanceLength(Interpreter& in, const Value& self) {
    auto n = in.callSpecial(self, "__len__", {});
    if (!n) in.fail("TypeError", "object of type '" + pythonTypeName(self) + "' has no len()");
    if (!n->isInt() && !n->isBool()) in.fail("TypeError", "'" + pythonTypeName(*n) + "' object cannot be interpreted as an integer");
    int64_t length = n->isBool() ? n->asBool() : n->asInt();
    if (length < 0) in.fail("ValueError", "__len__() should return >= 0");
    return length;
}

// bool(obj): its __bool__, else its __len__, else true.
bool instanceTruth(Interpreter& in, const Value& self) {
    if (auto b = in.callSpecial(self, "__bool__", {})) {
        if (!b->isBool()) in.fail("TypeError", "__bool__ should return bool, returned " + pythonTypeName(*b));
        return b->asBool();
    }
    if ((*instanceClass(self))->lookup("__len__")) return instanceLength(in, self) != 0;
    return true;
}

// x in obj: its __contains__, else its items searched.
bool instanceContains(Interpreter& in, const Value& self, const Value& item) {
    if (auto contains = in.callSpecial(self, "__contains__", {item})) return in.truthy(*contains);
    bool found = false;
    in.forEachItem(self, [&](const Value& v) {
        found = valuesEqual(v, item);
        return !found;
    });
    return found;
}

// for item in obj: its __iter__, then the iterator's __next__ until StopIteration (an
// iterator of another type walks as that type walks).
void instanceIterate(Interpreter& in, const Value& self, const ItemVisitor& visit) {
    std::optional<Value> iterator = in.callSpecial(self, "__iter__", {});
    if (!iterator) in.fail("TypeError", "'" + pythonTypeName(self) + "' object is not iterable");
    if (const ClassPtr* cls = in.tracer() ? instanceClass(self) : nullptr) {  // a class iterated through its metaclass has none
        const Value* method = (*cls)->lookup("__iter__");
        in.noteLoopIterator(self, *iterator, method ? method->as<FunctionObject>() : nullptr);
    }
    if (!iterator->as<InstanceObject>()) return in.forEachItem(*iterator, visit);
    while (true) {
        std::optional<Value> item;
        try {
            item = in.callSpecial(*iterator, "__next__", {});
        } catch (const ScriptError& e) {
            if (!in.matchesException(e, "StopIteration")) throw;
            return;
        }
        if (!item) in.fail("TypeError", "iter() returned non-iterator of type '" + pythonTypeName(*iterator) + "'");
        if (!visit(*item)) return;
    }
}

// obj.__class__, obj.__dict__ (sourced from obj while tracing: L['self'].__dict__).
const GetterTable& instanceGetters() {
    static const GetterTable table({
        {"__class__", [](Interpreter& in, const Value& self) {
             Value cls(ObjectPtr(*instanceClass(self)));
             if (!in.tracer() || !self.source || !self.as<InstanceObject>()) return cls;
             return in.loaded(in.withSource(cls, attrSource(self.source, "__class__")));  // a class read: matched by id
         }},
        {"__dict__", [](Interpreter& in, const Value& self) {
             if (const ClassObject& cls = *self.as<InstanceObject>()->cls; cls.slotNames)
                 in.fail("AttributeError", "'" + cls.name + "' object has no attribute '__dict__'");
             Value dict = self.as<InstanceObject>()->dictValue();
             if (in.tracer() && self.source) dict.source = objectDictSource(self.source);
             return dict;
         }},
    });
    return table;
}

const ClassObject& classOf(const Value& self) { return *self.as<ClassObject>(); }

const GetterTable& classGetters() {
    static const GetterTable table({
        {"__name__", [](Interpreter& in, const Value& self) {  // read off a traced class: type(L['x']).__name__
             Value name(classOf(self).name);
             return in.tracer() && self.source ? in.withSource(name, attrSource(self.source, "__name__")) : name;
         }},
        {"__qualname__", [](Interpreter&, const Value& self) { return Value(classOf(self).qualname); }},
        {"__mro__", [](Interpreter&, const Value& self) {
             ValueList mro;
             for (ClassObject* c : classOf(self).mro) mro.push_back(Value(c->shared_from_this()));
             return makeTuple(mro);
         }},
        {"__bases__", [](Interpreter&, const Value& self) {
             ValueList bases;
             for (const auto& b : classOf(self).bases) bases.push_back(Value(ObjectPtr(b)));
             return makeTuple(bases);
         }},
        {"__dict__", [](Interpreter&, const Value& self) { return Value(ObjectPtr(classOf(self).dict)); }},
    });
    return table;
}

// hash(obj): its __hash__'s int as returned (-1 taken as -2, as CPython's); a class that
// defines __eq__ without __hash__ has a None __hash__ (script/classes.cpp): unhashable.
int64_t instanceHash(Interpreter& in, const Value& self) {
    const Value* method = (*instanceClass(self))->lookup("__hash__");
    if (!method || method->isNone()) unhashable(in, self);
    Value hash = *in.callSpecial(self, "__hash__", {});
    if (!hash.isInt() && !hash.isBool()) in.fail("TypeError", "__hash__ method should return an integer");
    const int64_t h = hash.isBool() ? hash.asBool() : hash.asInt();
    return h == -1 ? -2 : h;
}

}  // namespace

// Instances, classes and super() look along the MRO (script/classes.cpp).
const TypeSlots* InstanceObject::slots() const {
    static const TypeSlots type{
        .name = "object",
        .getters = &instanceGetters(),
        .getattr = [](Interpreter& in, const Value& self, std::string_view name) { return in.instanceAttribute(self, std::string(name)); },
        .iterate = instanceIterate,
        .setattr = [](Interpreter& in, const Value& self, const std::string& name, const Value& value) {
            in.instanceSetAttribute(self, name, value);
        },
        .delattr = [](Interpreter& in, const Value& self, const std::string& name) { in.instanceDeleteAttribute(self, name); },
        .binary = [](Interpreter& in, BinaryOperator op, const Value& left, const Value& right) { return in.binaryDunder(op, left, right); },
        .compare = [](Interpreter& in, CompareOperator op, const Value& left, const Value& right) { return in.compareDunder(op, left, right); },
        .hash = instanceHash,
        .getitem = [](Interpreter& in, const Value& self, const Value& index) {
            if (auto item = in.callSpecial(self, "__getitem__", {index})) return *item;
            in.fail("TypeError", "'" + pythonTypeName(self) + "' object is not subscriptable");
        },
        .setitem = [](Interpreter& in, const Value& self, const Value& index, const Value& value) {
            if (!in.callSpecial(self, "__setitem__", {index, value}))
                in.fail("TypeError", "'" + pythonTypeName(self) + "' object does not support item assignment");
        },
        .delitem = [](Interpreter& in, const Value& self, const Value& index) {
            if (!in.callSpecial(self, "__delitem__", {index}))
                in.fail("TypeError", "'" + pythonTypeName(self) + "' object doesn't support item deletion");
        },
        .length = instanceLength,
        .truth = instanceTruth,
        .contains = instanceContains,
        .call = [](Interpreter& in, const Value& self, CallArgs& args) { return in.callInstance(self, args); },
        .unary = [](Interpreter& in, UnaryOperator op, const Value& self) { return in.unaryDunder(op, self); },
        .inplace = [](Interpreter& in, BinaryOperator op, const Value& self, const Value& other) { return in.inplaceDunder(op, self, other); },
        .repr = [](const Value& self) { return instanceText(self.asObject(), false); },  // __repr__
        .str = [](const Value& self) { return instanceText(self.asObject(), true); }};    // __str__, else __repr__
    return &type;
}
// A class's special methods are its metaclass's (callSpecial finds them): iter(C), len(C), C[k]
// (else its __class_getitem__), C(...), repr(C), bool(C).
Value classItem(Interpreter& in, const Value& self, const Value& index) {
    if (auto item = in.callSpecial(self, "__getitem__", {index})) return *item;
    if (const Value* hook = classOf(self).lookup("__class_getitem__")) {
        CallArgs a{.args = {index}, .kwargs = {}, .where = in.currentLocation()};
        return in.call(in.bindDescriptor(*hook, self, std::static_pointer_cast<ClassObject>(self.asObject())), a);
    }
    in.fail("TypeError", "'type' object is not subscriptable");
}

Value callClassObject(Interpreter& in, const Value& self, CallArgs& args) {
    auto cls = std::static_pointer_cast<ClassObject>(self.asObject());
    const ClassObject* definer = nullptr;
    const Value* hook = cls->metaclass ? cls->metaclass->lookup("__call__", &definer) : nullptr;
    if (hook && definer != in.typeClass().get()) return in.call(in.bindDescriptor(*hook, self, cls->metaclass), args);
    return in.callClass(cls, args);
}

std::string classText(const Value& self, bool asStr) {
    const auto& cls = classOf(self);
    if (cls.metaclass && cls.interpreter) {
        std::optional<Value> text = asStr ? cls.interpreter->callSpecial(self, "__str__", {}) : std::nullopt;
        if (!text) text = cls.interpreter->callSpecial(self, "__repr__", {});
        if (text && text->isString()) return text->asString();
        if (text) cls.interpreter->fail("TypeError", "__repr__ returned non-string (type " + pythonTypeName(*text) + ")");
    }
    return "<class '" + cls.displayName() + "'>";
}

// A class's attributes are its dict's, then its metaclass's; a store changes what scripts
// rarely change once made.
const TypeSlots* ClassObject::slots() const {
    static const TypeSlots type{
        .name = "type",
        .getters = &classGetters(),
        .getattr = [](Interpreter& in, const Value& self, std::string_view name) { return in.classAttribute(self, std::string(name)); },
        .iterate = instanceIterate,
        .setattr = [](Interpreter&, const Value& self, const std::string& name, const Value& value) {
            self.as<ClassObject>()->dict->set(Value(name), value.unsourced());
            definitionsChanged();
        },
        .delattr = [](Interpreter& in, const Value& self, const std::string& name) {
            definitionsChanged();
            const auto& cls = *self.as<ClassObject>();
            if (!cls.dict->erase(Value(name))) in.fail("AttributeError", "type object '" + cls.name + "' has no attribute '" + name + "'");
        },
        .binary = typeUnion,
        .getitem = classItem,
        .length = instanceLength,
        .truth = [](Interpreter& in, const Value& self) {
            auto b = in.callSpecial(self, "__bool__", {});
            return !b || in.truthy(*b);
        },
        .contains = instanceContains,
        .call = callClassObject,
        .repr = [](const Value& self) { return classText(self, false); },
        .str = [](const Value& self) { return classText(self, true); }};
    return &type;
}
const TypeSlots* SuperObject::slots() const {
    static const TypeSlots type{.name = "super", .getattr = [](Interpreter& in, const Value& self, std::string_view name) {
        return in.superAttribute(*self.as<SuperObject>(), std::string(name));
    }};
    return &type;
}
const TypeSlots* FunctionObject::slots() const {
    static const TypeSlots type{.name = "function",
                                .getters = &functionGetters(),
                                .getattr = functionAttribute,
                                .setattr = setFunctionAttribute,
                                .call = [](Interpreter& in, const Value& self, CallArgs& args) {
                                    return in.callScriptFunction(*self.as<FunctionObject>(), args);
                                },
                                .repr = [](const Value& self) { return fmt::format("<function {} at {}>", self.as<FunctionObject>()->qualname, fmt::ptr(self.asObject().get())); }};
    return &type;
}
const TypeSlots* BoundMethodObject::slots() const {
    static const TypeSlots type{.name = "method", .getters = &boundMethodGetters(), .call = [](Interpreter& in, const Value& self, CallArgs& args) {
                                    const auto& bound = *self.as<BoundMethodObject>();
                                    args.args.insert(args.args.begin(), bound.self);
                                    return in.call(bound.function, args);
                                },
                                .repr = [](const Value& self) {
                                    const auto& bound = *self.as<BoundMethodObject>();
                                    const auto* fn = bound.function.as<FunctionObject>();
                                    return "<bound method " + (fn ? fn->qualname : valueRepr(bound.function)) + " of " + valueRepr(bound.self) + ">";
                                }};
    return &type;
}
const TypeSlots* PropertyObject::slots() const {
    static const TypeSlots type{.name = "property", .getters = &propertyGetters(), .methods = &propertyMethods()};
    return &type;
}
const TypeSlots* TypeObject::slots() const {
    static const TypeSlots type{.name = "type", .getters = &builtinTypeGetters(),
                                .getattr = [](Interpreter& in, const Value& self, std::string_view name) {
                                    const auto& type = *self.as<TypeObject>();
                                    if (auto it = type.attrs.find(name); it != type.attrs.end()) return it->second;
                                    in.fail("AttributeError", fmt::format("type object '{}' has no attribute '{}'", type.name, name));
                                },
                                .binary = typeUnion,
                                // list[int] (PEP 585), as annotations write it: Fusescope checks no
                                // annotation, so the alias is the type itself.
                                .getitem = [](Interpreter& in, const Value& self, const Value&) -> Value {
                                    static const std::set<std::string, std::less<>> generic = {"dict", "frozenset", "list", "set", "tuple", "type"};
                                    if (!generic.count(self.as<TypeObject>()->name)) in.fail("TypeError", "'type' object is not subscriptable");
                                    return self;
                                },
                                .call = [](Interpreter& in, const Value& self, CallArgs& args) {
                                    const auto& type = *self.as<TypeObject>();
                                    if (!type.construct) in.fail("TypeError", "cannot create '" + type.name + "' instances");
                                    return type.construct(in, args);
                                },
                                .repr = [](const Value& self) {
                                    return "<class '" + self.as<TypeObject>()->qualifiedName() + "'>";
                                }};
    return &type;
}
const Value* CellObject::contents() const {
    if (!scope) return nullptr;
    auto found = scope->vars.find(name);
    return found == scope->vars.end() ? nullptr : &found->second;
}
const TypeSlots* CellObject::slots() const {
    static const GetterTable getters({
        {"cell_contents", [](Interpreter& in, const Value& self) {
             const Value* contents = self.as<CellObject>()->contents();
             if (!contents) in.fail("ValueError", "Cell is empty");
             return contents->unsourced();
         }},
    });
    static const TypeSlots type{.name = "cell", .getters = &getters, .repr = [](const Value& self) {
        const Value* contents = self.as<CellObject>()->contents();
        auto address = [](const Value& v) { return fmt::ptr(v.isObject() ? static_cast<const void*>(v.asObject().get()) : &v); };
        return fmt::format("<cell at {}: {}>", address(self),
                           contents ? fmt::format("{} object at {}", pythonTypeName(*contents), address(*contents)) : "empty");
    }};
    return &type;
}
const TypeSlots* ClassMethodObject::slots() const {
    static const TypeSlots type{.name = "classmethod", .getters = &wrappedFunctionGetters()};
    return &type;
}
const TypeSlots* StaticMethodObject::slots() const {
    static const TypeSlots type{.name = "staticmethod", .getters = &wrappedFunctionGetters()};
    return &type;
}

}  // namespace fusescope

// The builtins of the object model: the class `object` and its methods, type, super,
// property, classmethod, staticmethod, getattr/setattr/hasattr/delattr, isinstance,
// issubclass, callable, iter/next, vars, id, hash, set and NotImplemented.
#include <set>

#include <fmt/format.h>

#include "script/interpreter.h"
#include "script/python_hash.h"
#include "script/set_operations.h"
#include "script/trace_hooks.h"
#include "script/types/method_table.h"
#include "script/types/type_slots.h"
#include "script/types/globals_dict.h"
#include "script/types/iterator_types.h"

namespace fusescope {

namespace {

const std::string& attributeName(Interpreter& in, const Value& v, const char* fn) {
    if (!v.isString()) in.fail("TypeError", std::string(fn) + "(): attribute name must be string, not '" + pythonTypeName(v) + "'");
    return v.asString();
}

ClassPtr makeObjectClass(Interpreter& interp) {
    auto object = std::make_shared<ClassObject>();
    object->name = object->qualname = "object";
    object->module = "builtins";
    object->interpreter = &interp;
    object->mro = {object.get()};
    auto& d = *object->dict;
    d.set(Value("__init__"), makeMethod("object.__init__", [](Interpreter& in, CallArgs& a, const ObjectPtr&) {
        if (!a.args.empty() || !a.kwargs.empty())
            in.fail("TypeError", "object.__init__() takes exactly one argument (the instance to initialize)");
        return Value();
    }));
    auto create = std::make_shared<StaticMethodObject>();
    create->function = makeBuiltin("object.__new__", [](Interpreter& in, CallArgs& a) {
        auto* cls = a.args.empty() ? nullptr : a.args[0].as<ClassObject>();
        if (!cls) in.fail("TypeError", "object.__new__(X): X is not a type object");
        return in.newInstance(std::static_pointer_cast<ClassObject>(a.args[0].asObject()));
    });
    d.set(Value("__new__"), Value(ObjectPtr(create)));
    auto initSubclass = std::make_shared<ClassMethodObject>();
    initSubclass->function = makeBuiltin("object.__init_subclass__", [](Interpreter& in, CallArgs& a) {
        auto* cls = a.args.empty() ? nullptr : a.args[0].as<ClassObject>();
        if (cls && !a.kwargs.empty()) in.fail("TypeError", cls->name + ".__init_subclass__() takes no keyword arguments");
        return Value();
    });
    d.set(Value("__init_subclass__"), Value(ObjectPtr(initSubclass)));
    d.set(Value("__setattr__"), makeMethod("object.__setattr__", [](Interpreter& in, CallArgs& a, const ObjectPtr& self) {
        expectArgs(in, a, 2, 2, "__setattr__");
        in.genericSetAttribute(Value(self), attributeName(in, a.args[0], "setattr"), a.args[1]);
        return Value();
    }));
    d.set(Value("__delattr__"), makeMethod("object.__delattr__", [](Interpreter& in, CallArgs& a, const ObjectPtr& self) {
        expectArgs(in, a, 1, 1, "__delattr__");
        in.genericDeleteAttribute(Value(self), attributeName(in, a.args[0], "delattr"));
        return Value();
    }));
    d.set(Value("__getattribute__"), makeMethod("object.__getattribute__", [](Interpreter& in, CallArgs& a, const ObjectPtr& self) {
        expectArgs(in, a, 1, 1, "__getattribute__");
        return in.getAttribute(Value(self), attributeName(in, a.args[0], "getattr"), in.currentLocation());
    }));
    d.set(Value("__repr__"), makeMethod("object.__repr__", [](Interpreter&, CallArgs&, const ObjectPtr& self) {
        auto* instance = dynamic_cast<InstanceObject*>(self.get());
        std::string name = instance ? instance->cls->displayName() : self->typeName();
        return Value(fmt::format("<{} object at {}>", name, fmt::ptr(self.get())));
    }));
    d.set(Value("__str__"), makeMethod("object.__str__", [](Interpreter& in, CallArgs&, const ObjectPtr& self) {
        return Value(in.repr(Value(self)));
    }));
    d.set(Value("__eq__"), makeMethod("object.__eq__", [](Interpreter& in, CallArgs& a, const ObjectPtr& self) {
        expectArgs(in, a, 1, 1, "__eq__");
        if (a.args[0].isObject() && a.args[0].asObject() == self) return Value(true);
        return in.builtin("NotImplemented");
    }));
    d.set(Value("__ne__"), makeMethod("object.__ne__", [](Interpreter& in, CallArgs& a, const ObjectPtr& self) {
        expectArgs(in, a, 1, 1, "__ne__");
        Value equal = *in.callSpecial(Value(self), "__eq__", {a.args[0]});
        if (equal.isObject() && equal.asObject() == in.builtin("NotImplemented").asObject()) return equal;
        return Value(!in.truthy(equal));
    }));
    d.set(Value("__hash__"), makeMethod("object.__hash__", [](Interpreter&, CallArgs&, const ObjectPtr& self) {
        return Value(python_hash::ofAddress(self.get()));
    }));
    return object;
}

Value makeProperty(Value getter, Value setter, Value deleter) {
    auto p = std::make_shared<PropertyObject>();
    p->getter = std::move(getter);
    p->setter = std::move(setter);
    p->deleter = std::move(deleter);
    return Value(ObjectPtr(p));
}

}  // namespace

ClassPtr addObjectModelBuiltins(Interpreter& interp, std::map<std::string, Value, std::less<>>& b) {
    ClassPtr object = makeObjectClass(interp);
    b["object"] = Value(ObjectPtr(object));
    auto notImplemented = std::make_shared<RecordObject>();
    notImplemented->type = "NotImplementedType";
    notImplemented->text = "NotImplemented";
    b["NotImplemented"] = Value(ObjectPtr(notImplemented));
    addExceptionClasses(interp, object, b);

    b["type"] = makeType("type", [](Interpreter& in, CallArgs& a) -> Value {
        if (a.args.size() == 1) {
            Value type = in.typeOf(a.args[0]);
            // Traced, a script object's class is read from it: type(G['net']), as Dynamo's call_type sources it
            if (in.tracer() && a.args[0].source && type.as<ClassObject>()) return in.withSource(type, typeSource(a.args[0].source));
            if (in.tracer() && a.args[0].source && a.args[0].isTensor() && in.runningTracedCode()) in.tracer()->onTensorTypeRead(a.args[0]);
            return type;
        }
        if (a.args.size() != 3) in.fail("TypeError", "type() takes 1 or 3 arguments");
        const ValueList* bases = sequenceItems(a.args[1]);
        if (!a.args[0].isString() || !bases || !a.args[2].as<DictObject>()) in.fail("TypeError", "type() takes a name, a tuple of bases and a dict");
        if (ClassPtr metaclass = in.metaclassFor(std::nullopt, *bases)) return in.callClass(metaclass, a);  // the bases' metaclass
        return in.newClassOf(in.typeClass(), a);
    });
    b["super"] = makeType("super", [](Interpreter& in, CallArgs& a) { return in.makeSuper(a); });
    b["property"] = makeType("property", [](Interpreter& in, CallArgs& a) {
        expectArgs(in, a, 0, 4, "property");
        auto arg = [&](size_t i, const char* name) {
            if (const Value* v = a.kwarg(name)) return *v;
            return i < a.args.size() ? a.args[i] : Value();
        };
        return makeProperty(arg(0, "fget"), arg(1, "fset"), arg(2, "fdel"));
    });
    b["classmethod"] = makeType("classmethod", [](Interpreter& in, CallArgs& a) {
        expectArgs(in, a, 1, 1, "classmethod");
        auto cm = std::make_shared<ClassMethodObject>();
        cm->function = a.args[0];
        return Value(ObjectPtr(cm));
    });
    b["staticmethod"] = makeType("staticmethod", [](Interpreter& in, CallArgs& a) {
        expectArgs(in, a, 1, 1, "staticmethod");
        auto sm = std::make_shared<StaticMethodObject>();
        sm->function = a.args[0];
        return Value(ObjectPtr(sm));
    });
    b["getattr"] = makeBuiltin("getattr", [](Interpreter& in, CallArgs& a) {
        expectArgs(in, a, 2, 3, "getattr");
        const std::string& name = attributeName(in, a.args[1], "getattr");
        if (a.args.size() == 2) return in.getAttribute(a.args[0], name, in.currentLocation());
        try {  // read once (a property runs once), guarded as Dynamo's hasattr-then-read
            Value value = in.getAttribute(a.args[0], name, in.currentLocation());
            if (TraceHooks* tracer = in.tracer()) tracer->onHasAttribute(a.args[0], name, true);
            return value;
        } catch (const ScriptError& e) {
            if (!in.matchesException(e, "AttributeError")) throw;
            if (TraceHooks* tracer = in.tracer()) tracer->onHasAttribute(a.args[0], name, false);
            return a.args[2];
        }
    });
    b["setattr"] = makeBuiltin("setattr", [](Interpreter& in, CallArgs& a) {
        expectArgs(in, a, 3, 3, "setattr");
        in.setAttribute(a.args[0], attributeName(in, a.args[1], "setattr"), a.args[2]);
        return Value();
    });
    b["delattr"] = makeBuiltin("delattr", [](Interpreter& in, CallArgs& a) {
        expectArgs(in, a, 2, 2, "delattr");
        in.deleteAttribute(a.args[0], attributeName(in, a.args[1], "delattr"));
        return Value();
    });
    b["hasattr"] = makeBuiltin("hasattr", [](Interpreter& in, CallArgs& a) {
        expectArgs(in, a, 2, 2, "hasattr");
        const std::string& name = attributeName(in, a.args[1], "hasattr");
        const bool found = in.hasAttribute(a.args[0], name);
        if (TraceHooks* tracer = in.tracer()) tracer->onHasAttribute(a.args[0], name, found);
        return Value(found);
    });
    b["isinstance"] = makeBuiltin("isinstance", [](Interpreter& in, CallArgs& a) {
        expectArgs(in, a, 2, 2, "isinstance");
        if (TraceHooks* tracer = in.tracer()) {  // Dynamo realizes both: the object's type, the classes by id
            const Value& object = a.args[0];
            if (object.source) {
                tracer->onInputUse(object);
                if (object.as<TupleObject>() || object.as<ListObject>()) tracer->onLengthUse(object);
            }
            const Value& classes = a.args[1];
            if (classes.as<TupleObject>())
                for (const Value& cls : classes.as<TupleObject>()->items) tracer->onCalleeUse(cls);
            else
                tracer->onCalleeUse(classes);
        }
        return Value(in.isInstance(a.args[0], a.args[1]));
    });
    b["issubclass"] = makeBuiltin("issubclass", [](Interpreter& in, CallArgs& a) {
        expectArgs(in, a, 2, 2, "issubclass");
        return Value(in.isSubclass(a.args[0], a.args[1]));
    });
    b["callable"] = makeBuiltin("callable", [](Interpreter& in, CallArgs& a) {
        expectArgs(in, a, 1, 1, "callable");
        const Value& v = a.args[0];
        if (const ClassPtr* cls = instanceClass(v)) return Value((*cls)->lookup("__call__") != nullptr);
        return Value(v.as<FunctionObject>() || v.as<BuiltinFunction>() || v.as<TypeObject>() || v.as<ClassObject>() ||
                     v.as<BoundMethodObject>() || v.as<CompiledFunctionObject>() || v.as<MethodObject>());
    });
    b["iter"] = makeBuiltin("iter", [](Interpreter& in, CallArgs& a) {
        expectArgs(in, a, 1, 2, "iter");
        const Value& v = a.args[0];
        if (a.args.size() == 2) return callableIterator(in, v, a.args[1]);
        return iteratorOf(in, v);
    });
    // next(it) runs the iterator's own __next__ where it has one (a generator's StopIteration
    // carries its return value); next(it, default) ends in the default.
    b["next"] = makeBuiltin("next", [](Interpreter& in, CallArgs& a) {
        expectArgs(in, a, 1, 2, "next");
        const Value& v = a.args[0];
        if (in.tracer()) in.tracer()->onObjectTouch(v);
        if (const TypeSlots* slots = slotsOf(v); slots && slots->next) {
            const NativeMethod* own = slots->methods ? slots->methods->find("__next__") : nullptr;
            if (own && a.args.size() == 1) {
                CallArgs none;
                return own->call(in, v, none);
            }
            if (std::optional<Value> item = slots->next(in, v)) return *item;
            if (a.args.size() == 2) return a.args[1];
            in.raise("StopIteration", {});
        }
        if (a.args.size() == 1) {
            if (auto r = in.callSpecial(v, "__next__", {})) return *r;
        } else {
            try {
                if (auto r = in.callSpecial(v, "__next__", {})) return *r;
            } catch (const ScriptError& e) {
                if (!in.matchesException(e, "StopIteration")) throw;
                return a.args[1];
            }
        }
        in.fail("TypeError", "'" + pythonTypeName(v) + "' object is not an iterator");
    });
    b["globals"] = makeBuiltin("globals", [](Interpreter& in, CallArgs& a) {
        expectArgs(in, a, 0, 0, "globals");
        return makeGlobalsDict(in);
    });
    b["vars"] = makeBuiltin("vars", [](Interpreter& in, CallArgs& a) {
        expectArgs(in, a, 1, 1, "vars");
        if (auto* instance = a.args[0].as<InstanceObject>()) return Value(ObjectPtr(instance->dict));
        if (auto* cls = a.args[0].as<ClassObject>()) return Value(ObjectPtr(cls->dict));
        in.fail("TypeError", "vars() argument must have __dict__ attribute");
    });
    // dir(x): the sorted names x answers: its own, its class's along the MRO, its type's tables.
    b["dir"] = makeBuiltin("dir", [](Interpreter& in, CallArgs& a) {
        expectArgs(in, a, 1, 1, "dir");
        const Value& x = a.args[0];
        std::set<std::string> names;
        auto addKeys = [&](const DictObject& dict) {
            for (const auto& [key, value] : dict.items)
                if (key.isString()) names.insert(key.asString());
        };
        const ClassObject* cls = x.as<ClassObject>();
        if (auto* instance = x.as<InstanceObject>()) {
            addKeys(*instance->dict);
            cls = instance->cls.get();
        }
        if (cls)
            for (const ClassObject* base : cls->mro) addKeys(*base->dict);
        if (auto* module = x.as<ModuleObject>()) {
            for (const auto& [name, value] : module->attrs) names.insert(name);
            if (module->globals)
                for (const auto& [name, value] : module->globals->vars) names.insert(name);
        }
        if (auto* fn = x.as<FunctionObject>(); fn && fn->attributes) addKeys(*fn->attributes);
        const TypeSlots* type = slotsOf(x);
        if (type->getters)
            for (const auto& getter : type->getters->getters()) names.insert(std::string(getter.name));
        if (type->methods)
            for (const auto& method : type->methods->methods()) names.insert(std::string(method.name));
        ValueList sorted;
        for (const std::string& name : names) sorted.emplace_back(name);
        return makeList(std::move(sorted));
    });
    b["id"] = makeBuiltin("id", [](Interpreter& in, CallArgs& a) {
        expectArgs(in, a, 1, 1, "id");
        const Value& v = a.args[0];
        const void* p = v.isObject() ? static_cast<const void*>(v.asObject().get())
                        : v.isTensor() ? static_cast<const void*>(v.asTensor().impl())
                                       : static_cast<const void*>(&v);
        return Value(static_cast<int64_t>(reinterpret_cast<intptr_t>(p)));
    });
    b["hash"] = makeBuiltin("hash", [](Interpreter& in, CallArgs& a) {
        expectArgs(in, a, 1, 1, "hash");
        return Value(hashOf(in, a.args[0]));
    });
    b["set"] = makeType("set", [](Interpreter& in, CallArgs& a) {
        expectArgs(in, a, 0, 1, "set");
        auto set = std::make_shared<SetObject>();
        if (!a.args.empty()) setUpdate(in, *set, a.args[0]);
        return Value(ObjectPtr(set));
    });
    b["frozenset"] = makeType("frozenset", [](Interpreter& in, CallArgs& a) {
        expectArgs(in, a, 0, 1, "frozenset");
        if (!a.args.empty() && a.args[0].as<FrozenSetObject>()) return a.args[0];
        auto set = std::make_shared<FrozenSetObject>();
        if (!a.args.empty()) setUpdate(in, *set, a.args[0]);
        return Value(ObjectPtr(set));
    });
    b["slice"] = makeType("slice", [](Interpreter& in, CallArgs& a) {
        expectArgs(in, a, 1, 3, "slice");
        auto s = std::make_shared<SliceObject>();
        if (a.args.size() == 1) s->stop = a.args[0];
        else s->start = a.args[0], s->stop = a.args[1];
        if (a.args.size() == 3) s->step = a.args[2];
        return Value(ObjectPtr(s));
    });
    return object;
}

// The class `type` as script metaclasses derive from it: type.__new__ makes a class whose type
// is the metaclass given, type.__init__ takes what a class statement passes, and
// type.__call__ makes an instance as calling a class does.
ClassPtr makeTypeClass(Interpreter& interp, const ClassPtr& object) {
    ClassPtr type = builtinClass(interp, "type", object);
    auto& d = *type->dict;
    auto create = std::make_shared<StaticMethodObject>();
    create->function = makeBuiltin("type.__new__", [](Interpreter& in, CallArgs& a) {
        auto* meta = a.args.empty() ? nullptr : a.args[0].as<ClassObject>();
        if (!meta || !meta->isSubclassOf(*in.typeClass())) in.fail("TypeError", "type.__new__(X): X is not a subtype of type");
        CallArgs rest = a;
        rest.args.erase(rest.args.begin());
        return in.newClassOf(std::static_pointer_cast<ClassObject>(a.args[0].asObject()), rest);
    });
    d.set(Value("__new__"), Value(ObjectPtr(create)));
    d.set(Value("__init__"), makeMethod("type.__init__", [](Interpreter&, CallArgs&, const ObjectPtr&) { return Value(); }));
    d.set(Value("__call__"), makeMethod("type.__call__", [](Interpreter& in, CallArgs& a, const ObjectPtr& self) {
        if (!dynamic_cast<ClassObject*>(self.get())) in.fail("TypeError", "descriptor '__call__' requires a 'type' object");
        return in.callClass(std::static_pointer_cast<ClassObject>(self), a);
    }));
    return type;
}

Value makeCollectionsModule() {
    auto module = std::make_shared<ModuleObject>();
    module->name = "_collections";
    module->attrs["OrderedDict"] = makeType("OrderedDict", [](Interpreter& in, CallArgs& a) {
        expectArgs(in, a, 0, 1, "OrderedDict");
        auto d = std::make_shared<OrderedDictObject>();
        updateDict(in, *d, a);
        return Value(ObjectPtr(d));
    }, "collections");
    // defaultdict(default_factory=None, /, [mapping or pairs], **kwargs)
    module->attrs["defaultdict"] = makeType("defaultdict", [](Interpreter& in, CallArgs& a) {
        auto d = std::make_shared<DefaultDictObject>();
        if (!a.args.empty()) {
            d->defaultFactory = a.args[0];
            if (!d->defaultFactory.isNone() && !slotsOf(d->defaultFactory)->call && !instanceClass(d->defaultFactory))
                in.fail("TypeError", "first argument must be callable or None");
            a.args.erase(a.args.begin());
        }
        expectArgs(in, a, 0, 1, "defaultdict");
        updateDict(in, *d, a);
        return Value(ObjectPtr(d));
    }, "collections");
    return Value(ObjectPtr(module));
}

}  // namespace fusescope

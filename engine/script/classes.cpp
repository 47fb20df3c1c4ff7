// Classes and instances: class statements, attribute access through the MRO with
// descriptors, construction, special methods, repr/str and type checks.
#include <algorithm>
#include <tuple>

#include <fmt/format.h>

#include "core/grad_mode.h"
#include "script/graph_break_kinds.h"
#include "script/interpreter.h"
#include "script/types/type_slots.h"

namespace fusescope {

namespace {

// What __slots__ lets a class's instances hold (ClassObject::slotNames): the names every
// class along the MRO but object declares, or null when one declares none or "__dict__".
std::shared_ptr<const std::set<std::string>> declaredSlots(const ClassObject& cls) {
    auto names = std::make_shared<std::set<std::string>>();
    for (const ClassObject* c : cls.mro) {
        if (c->isBuiltin()) {  // object has no __dict__; an exception class has one
            if (c->name != "object") return nullptr;
            continue;
        }
        const Value* slots = c->dict->findString("__slots__");
        if (!slots) return nullptr;
        ValueList items{*slots};  // one name
        if (const ValueList* sequence = sequenceItems(*slots)) items = *sequence;
        else if (auto* dict = slots->as<DictObject>()) {  // names and their docstrings
            items.clear();
            for (const auto& entry : dict->items) items.push_back(entry.first);
        } else if (!slots->isString()) {
            return nullptr;  // an iterator: not followed, so not enforced
        }
        for (const Value& item : items) {
            if (!item.isString()) continue;
            if (item.asString() == "__dict__") return nullptr;
            names->insert(item.asString());
        }
    }
    return names;
}

[[noreturn]] void noAttribute(Interpreter& in, const Value& object, const std::string& name) {
    in.fail("AttributeError", "'" + pythonTypeName(object) + "' object has no attribute '" + name + "'");
}

}  // namespace

// ---------------------------------------------------------------------- class creation

ClassPtr Interpreter::makeClass(const std::string& name, const std::string& qualname, const ValueList& bases,
                                std::shared_ptr<DictObject> dict) {
    auto cls = std::make_shared<ClassObject>();
    cls->name = name;
    cls->qualname = qualname;
    cls->interpreter = this;
    cls->module = globals_->vars.count("__name__") && globals_->vars.at("__name__").isString()
                      ? globals_->vars.at("__name__").asString()
                      : "__main__";
    cls->dict = std::move(dict);
    // As type.__new__ does: __new__ is a static method and __init_subclass__ a class method.
    if (Value* fn = cls->dict->findString("__new__"); fn && fn->as<FunctionObject>()) {
        auto sm = std::make_shared<StaticMethodObject>();
        sm->function = *fn;
        *fn = Value(ObjectPtr(sm));
    }
    if (Value* fn = cls->dict->findString("__init_subclass__"); fn && fn->as<FunctionObject>()) {
        auto cm = std::make_shared<ClassMethodObject>();
        cm->function = *fn;
        *fn = Value(ObjectPtr(cm));
    }
    for (const Value& base : bases) {
        if (base.as<ClassObject>()) {
            cls->bases.push_back(std::static_pointer_cast<ClassObject>(base.asObject()));
            continue;
        }
        if (auto* t = base.as<TypeObject>(); t && t->name == "type") {  // a metaclass
            cls->bases.push_back(typeClass_);
            continue;
        }
        if (auto* t = base.as<TypeObject>())
            fail("NotImplementedError", "subclassing the builtin type '" + t->name + "' is not supported by Fusescope");
        fail("TypeError", "bases must be types, not '" + pythonTypeName(base) + "'");
    }
    for (size_t i = 0; i < cls->bases.size(); ++i)
        for (size_t j = 0; j < i; ++j)
            if (cls->bases[i] == cls->bases[j]) fail("TypeError", "duplicate base class " + cls->bases[i]->name);
    if (cls->bases.empty() && objectClass_) cls->bases.push_back(objectClass_);
    cls->mro = c3Linearization(*cls);
    cls->slotNames = declaredSlots(*cls);
    if (cls->dict->findString("__getattribute__"))  // it would not be called: refused, not ignored
        fail("NotImplementedError", "a class defining __getattribute__ is not supported by Fusescope yet (__getattr__ is)");
    if (!cls->dict->findString("__module__")) cls->dict->set(Value("__module__"), Value(cls->module));
    if (!cls->dict->findString("__doc__")) cls->dict->set(Value("__doc__"), Value());  // as CPython's type_new
    // As CPython's type_new: __qualname__ is the class's own (type.__qualname__), out of its
    // dict, so its instances have none.
    if (const Value* own = cls->dict->findString("__qualname__")) {
        if (!own->isString()) fail("TypeError", "type __qualname__ must be a str, not " + pythonTypeName(*own));
        cls->qualname = own->asString();
        cls->dict->erase(Value("__qualname__"));
    }
    // As in Python: a class that defines equality but no hash makes its instances unhashable.
    if (cls->dict->findString("__eq__") && !cls->dict->findString("__hash__")) cls->dict->set(Value("__hash__"), Value());
    objectDicts_.push_back(cls->dict);
    return cls;
}

// The metaclass a class statement uses: the explicit one, else the most derived of its bases'
// (null: type), with CPython's TypeError when neither derives from the other.
ClassPtr Interpreter::metaclassFor(const std::optional<Value>& explicitMetaclass, const ValueList& bases) {
    ClassPtr winner;
    if (explicitMetaclass) {
        auto* t = explicitMetaclass->as<TypeObject>();
        auto* m = explicitMetaclass->as<ClassObject>();
        if (!(t && t->name == "type") && !(m && m->isSubclassOf(*typeClass_)))
            fail("NotImplementedError", "a metaclass that is not type or a subclass of it (here a '" + pythonTypeName(*explicitMetaclass) +
                                            "') is not supported by Fusescope");
        if (m) winner = std::static_pointer_cast<ClassObject>(explicitMetaclass->asObject());
    }
    for (const Value& base : bases) {
        auto* cls = base.as<ClassObject>();
        const ClassPtr candidate = cls ? cls->metaclass : nullptr;
        if (!candidate || (winner && winner->isSubclassOf(*candidate))) continue;
        if (winner && !candidate->isSubclassOf(*winner))
            fail("TypeError", "metaclass conflict: the metaclass of a derived class must be a (non-strict) subclass of the metaclasses of all its bases");
        winner = candidate;
    }
    return winner;
}

Value Interpreter::newClassOf(const ClassPtr& metaclass, CallArgs& args) {
    const ValueList* bases = args.args.size() == 3 ? sequenceItems(args.args[1]) : nullptr;
    const auto* ns = args.args.size() == 3 ? args.args[2].as<DictObject>() : nullptr;
    if (!bases || !ns || !args.args[0].isString()) fail("TypeError", "type.__new__() takes a name, a tuple of bases and a dict");
    auto dict = std::make_shared<DictObject>(*ns);
    const std::string& name = args.args[0].asString();
    const Value* qualname = dict->findString("__qualname__");
    ClassPtr cls = makeClass(name, qualname && qualname->isString() ? qualname->asString() : name, *bases, dict);
    if (metaclass != typeClass_) cls->metaclass = metaclass;
    CallArgs subclassArgs{.args = {}, .kwargs = args.kwargs, .where = args.where};
    initSubclass(cls, subclassArgs);
    return Value(ObjectPtr(cls));
}

Value Interpreter::applyDecorators(Value target, const std::vector<ExprPtr>& decorators) {
    std::vector<Value> evaluated;
    for (const auto& d : decorators) evaluated.push_back(eval(*d));
    for (size_t i = decorators.size(); i-- > 0;) {
        CallArgs args;
        args.args.push_back(target);
        args.where = decorators[i]->loc;
        target = call(evaluated[i], args);
    }
    return target;
}

Interpreter::Flow Interpreter::execClassDef(const ClassDef& def) {
    ValueList bases;
    for (const auto& b : def.bases) bases.push_back(eval(*b));
    CallArgs subclassArgs{.args = {}, .kwargs = {}, .where = def.loc};  // the class keywords go to __init_subclass__
    std::optional<Value> explicitMetaclass;
    for (const auto& k : def.keywords) {  // (the parser refuses `**kwargs` here)
        if (k.name == "metaclass") explicitMetaclass = eval(*k.value);
        else subclassArgs.kwargs.emplace_back(k.name, eval(*k.value));
    }
    ClassPtr metaclass = metaclassFor(explicitMetaclass, bases);
    if (metaclass && metaclass->lookup("__prepare__"))
        fail("NotImplementedError", "a metaclass's __prepare__ is not supported by Fusescope yet (a class body's namespace is a dict)");
    auto body = std::make_shared<Scope>();
    body->parent = current_;
    body->classCell = std::make_shared<ClassCell>();
    std::string qualname = qualifiedName(def.name);
    {
        ScopePtr saved = current_;
        const Frame& outer = stack_.back();
        stack_.push_back(Frame{.function = def.name, .where = def.loc, .traced = outer.traced,
                               .inlineDepth = outer.inlineDepth, .qualname = qualname, .self = Value()});
        current_ = body;
        struct Restore {
            Interpreter& self;
            ScopePtr saved;
            ~Restore() {
                self.current_ = saved;
                self.stack_.pop_back();
            }
        } restore{*this, saved};
        if (auto doc = docstring(def.body)) store("__doc__", Value(*doc));
        if (exec(def.body) != Flow::Normal) fail("SyntaxError", "'return', 'break' or 'continue' in a class body");
    }
    stack_.back().where = def.loc;
    auto dict = std::make_shared<DictObject>();
    dict->set(Value("__qualname__"), Value(qualname));
    for (const std::string& name : body->definitionOrder) {
        auto it = body->vars.find(name);
        if (it != body->vars.end()) dict->set(Value(name), it->second.unsourced());
    }
    body->vars.clear();
    Value made;
    if (metaclass) {  // metaclass(name, bases, namespace, **keywords), as type.__call__ does it
        CallArgs args{.args = {Value(def.name), makeTuple(bases), Value(ObjectPtr(dict))}, .kwargs = subclassArgs.kwargs, .where = def.loc};
        made = callClass(metaclass, args);
    } else {
        ClassPtr cls = makeClass(def.name, qualname, bases, dict);
        initSubclass(cls, subclassArgs);
        made = Value(ObjectPtr(cls));
    }
    if (made.as<ClassObject>()) body->classCell->cls = std::static_pointer_cast<ClassObject>(made.asObject());
    store(def.name, applyDecorators(made, def.decorators));
    return Flow::Normal;
}

// ------------------------------------------------------------------------ construction

Value Interpreter::newInstance(const ClassPtr& cls) {
    auto instance = std::make_shared<InstanceObject>();
    instance->cls = cls;
    if (objectDicts_.size() >= 4096 && (objectDicts_.size() & (objectDicts_.size() - 1)) == 0)
        std::erase_if(objectDicts_, [](const auto& weak) { return weak.expired(); });
    objectDicts_.push_back(instance->dict);
    return Value(ObjectPtr(instance));
}

Value Interpreter::callInstance(const Value& instance, CallArgs& args) {
    const ClassPtr& cls = *instanceClass(instance);
    const Value* method = cls->lookup("__call__");
    if (!method) fail("TypeError", "'" + pythonTypeName(instance) + "' object is not callable");
    // A library class Dynamo does not trace (nn.LSTM, ...) says why in _dynamo_refusal():
    // the graph breaks at the call, which runs eagerly, as PyTorch's does.
    if (tracer_)
        if (const Value* refusal = cls->lookup("_dynamo_refusal")) {
            CallArgs none{.args = {}, .kwargs = {}, .where = args.where};
            TraceHooks* tracing = tracer_;
            tracer_ = nullptr;  // it reads configuration, not the traced program
            struct Restore {
                Interpreter& self;
                TraceHooks* tracer;
                ~Restore() { self.tracer_ = tracer; }
            } restore{*this, tracing};
            Value reason = call(bindDescriptor(*refusal, instance, cls), none);
            if (reason.isString()) {
                tracing->onRefusedModuleCall(instance, args.args);
                tracing->graphBreak(graph_breaks::refusedModuleCall(
                    reason.asString(), instance.source ? instance.source->str() : pythonTypeName(instance)));
                return call(bindDescriptor(*method, instance, cls), args);
            }
        }
    if (tracer_ && cls->isNnModule()) return callTracedModule(instance, cls, *method, args);
    return call(bindDescriptor(*method, instance, cls), args);
}

namespace {

// The hook dicts Dynamo reads to decide whether a module call runs its forward straight, in
// its order; it reads them by rules of their own wherever the traced code reads them.
constexpr std::string_view kCallHookDicts[] = {"_backward_hooks",  "_backward_pre_hooks", "_forward_hooks", "_forward_hooks_with_kwargs",
                                               "_forward_pre_hooks", "_forward_pre_hooks_with_kwargs"};

bool isConstant(const Value& v) { return v.isNone() || v.isNumber() || v.isString(); }

bool isCallHookDict(std::string_view name) { return std::find(std::begin(kCallHookDicts), std::end(kCallHookDicts), name) != std::end(kCallHookDicts); }

}  // namespace

// A module call as Dynamo traces it (UnspecializedNNModuleVariable.call_function): a module
// that keeps Module's __call__ and has no hooks has its forward inlined straight, with no frames
// of Module's own; otherwise Module.__call__ runs as the Python it is (its lines PyTorch's).
Value Interpreter::callTracedModule(const Value& instance, const ClassPtr& cls, const Value& method, CallArgs& args) {
    const auto& object = *instance.as<InstanceObject>();
    const ClassObject& base = *cls->nnModuleBase();
    const Value* forward = cls->lookup("forward");
    const bool modulesOwnCall = &method == base.dict->findString("__call__") && cls->lookup("_call_impl") == base.dict->findString("_call_impl") &&
                                !object.dict->findString("forward") && forward && forward->as<FunctionObject>();
    bool hooks = !modulesOwnCall;  // or what stands for them: a call of the class's own
    for (std::string_view name : kCallHookDicts) {
        if (hooks) break;
        const Value* dict = object.dict->findString(name);
        if (dict && instance.source) tracer_->onModuleHooksRead(withSource(*dict, attrSource(instance.source, std::string(name))));
        hooks = dict && dict->as<DictObject>() && !dict->as<DictObject>()->items.empty();
    }
    hooks = tracer_->onNnModuleCall(!hooks) || hooks;
    if (!hooks) {
        Value forward = instanceAttribute(instance, "forward");
        guardDefaults(forward, args);
        return call(forward, args);
    }
    Value call = instanceAttribute(instance, "__call__");
    if (object.dict->findString("forward") == nullptr && instance.source) guardNotShadowed(object, instance.source, "forward");
    return this->call(call, args);
}

// The nearest base's __init_subclass__, bound to the new class, given the class keywords.
void Interpreter::initSubclass(const ClassPtr& cls, CallArgs& args) {
    for (size_t i = 1; i < cls->mro.size(); ++i) {
        const Value* hook = cls->mro[i]->dict->findString("__init_subclass__");
        if (!hook) continue;
        call(bindDescriptor(*hook, Value(ObjectPtr(cls)), cls), args);
        return;
    }
}

Value Interpreter::callClass(const ClassPtr& cls, CallArgs& args) {
    const ClassObject* definer = nullptr;
    Value instance;
    if (const Value* create = cls->lookup("__new__", &definer); create && definer != objectClass_.get()) {
        CallArgs newArgs = args;
        newArgs.args.insert(newArgs.args.begin(), Value(ObjectPtr(cls)));
        instance = call(bindDescriptor(*create, Value(ObjectPtr(cls)), cls), newArgs);
        // As type.__call__: __init__ runs only on an instance of the class called.
        if (!isInstance(instance, Value(ObjectPtr(cls)))) return instance;
    } else {
        instance = newInstance(cls);
    }
    const Value* init = cls->lookup("__init__", &definer);
    if (definer == objectClass_.get()) {
        if (!args.args.empty() || !args.kwargs.empty()) fail("TypeError", cls->name + "() takes no arguments");
        return instance;
    }
    Value result = call(bindDescriptor(*init, instance, cls), args);
    if (!result.isNone()) fail("TypeError", "__init__() should return None, not '" + pythonTypeName(result) + "'");
    return instance;
}

// -------------------------------------------------------------------- attribute access

Value Interpreter::bindDescriptor(const Value& attr, const Value& self, const ClassPtr& cls) {
    if (attr.as<FunctionObject>()) {
        auto bound = std::make_shared<BoundMethodObject>();
        bound->self = self;
        bound->function = attr;
        return Value(ObjectPtr(bound));
    }
    if (auto* native = attr.as<MethodObject>()) {
        if (!self.isObject()) fail("TypeError", "descriptor '" + native->name + "' needs an object");
        return makeBuiltin(native->name, [self = self.asObject(), call = native->call](Interpreter& in, CallArgs& a) {
            return call(in, a, self);
        });
    }
    if (auto* cm = attr.as<ClassMethodObject>()) {
        auto bound = std::make_shared<BoundMethodObject>();
        bound->self = Value(ObjectPtr(cls));
        bound->function = cm->function;
        return Value(ObjectPtr(bound));
    }
    if (auto* sm = attr.as<StaticMethodObject>()) return sm->function;
    if (auto* p = attr.as<PropertyObject>()) {
        if (p->getter.isNone()) fail("AttributeError", "property of '" + cls->name + "' object has no getter");
        CallArgs a;
        a.args.push_back(self);
        return call(p->getter, a);
    }
    return attr;
}

void Interpreter::guardNotShadowed(const InstanceObject& instance, const SourcePtr& source, std::string_view name) {
    Value dict = instance.dictValue();
    dict.source = objectDictSource(source);
    tracer_->onContainsUse(dict, Value(std::string(name)), false);
}

Value Interpreter::instanceAttribute(const Value& object, const std::string& name) {
    auto* instance = object.as<InstanceObject>();
    const ClassPtr& cls = instance->cls;
    const ClassObject* definer = nullptr;
    const Value* classAttr = cls->lookup(name, &definer);
    if (classAttr && classAttr->as<PropertyObject>()) return bindDescriptor(*classAttr, object, cls);
    if (Value* own = instance->dict->findString(name)) {
        if (!tracer_ || !object.source) return *own;
        Value sourced = withSource(*own, attrSource(object.source, name));
        // A constant handed on to an inlined function (evalCall): guarded where that function reads it.
        const bool constant = own->isNumber() || own->isString() || own->isNone() || (own->as<TupleObject>() && !own->as<SizeObject>());
        if (constant && lazyRead_.first == instance && lazyRead_.second == name) return sourced;
        if (isCallHookDict(name) && cls->isNnModule()) tracer_->onModuleHooksRead(sourced);
        return loaded(std::move(sourced));
    }
    if (classAttr) {
        // A method found on the class: the trace holds while no instance attribute shadows
        // it (Dynamo guards a called module's forward so, and methods the script or torch.nn's
        // own code calls).
        if (tracer_ && object.source && classAttr->as<FunctionObject>() &&
            (name == "forward" || isScriptFile(currentLocation().file) || torchModuleOfFrame())) {
            guardNotShadowed(*instance, object.source, name);
            tracer_->onInheritedMethod(object, *definer, name);
        } else if (tracer_ && object.source && isConstant(*classAttr) && cls->isNnModule() && tracesRunningLine()) {
            // A constant of an nn.Module's class (Module._compiled_call_impl = None): Dynamo reads
            // it from the class along the MRO that defines it, while nothing before it shadows it.
            guardNotShadowed(*instance, object.source, name);
            tracer_->onInheritedMethod(object, *definer, name);
            const auto position = static_cast<size_t>(std::find(cls->mro.begin(), cls->mro.end(), definer) - cls->mro.begin());
            SourcePtr held = keySource(typeDictSource(mroEntrySource(object.source, position)), name);
            return loaded(withSource(*classAttr, tracer_->mroOwnerSource(*definer, name, held)));
        }
        return bindDescriptor(*classAttr, object, cls);
    }
    if (const Value* hook = cls->lookup("__getattr__")) {
        CallArgs a;
        a.args.push_back(Value(name));
        return call(bindDescriptor(*hook, object, cls), a);
    }
    noAttribute(*this, object, name);
}

Value Interpreter::classAttribute(const Value& object, const std::string& name) {
    ClassPtr cls = std::static_pointer_cast<ClassObject>(object.asObject());
    const Value* attr = cls->lookup(name);
    if (!attr && cls->metaclass)  // the metaclass's methods and properties, bound to the class
        if (const Value* meta = cls->metaclass->lookup(name)) return bindDescriptor(*meta, object, cls->metaclass);
    if (!attr) fail("AttributeError", "type object '" + cls->name + "' has no attribute '" + name + "'");
    if (auto* cm = attr->as<ClassMethodObject>()) {
        auto bound = std::make_shared<BoundMethodObject>();
        bound->self = object;
        bound->function = cm->function;
        return Value(ObjectPtr(bound));
    }
    if (auto* sm = attr->as<StaticMethodObject>()) return sm->function;
    if (auto* native = attr->as<MethodObject>()) {
        // Unbound: the instance comes first, as with object.__setattr__(self, name, value).
        return makeBuiltin(native->name, [call = native->call, name = native->name](Interpreter& in, CallArgs& a) {
            if (a.args.empty() || !a.args[0].isObject())
                in.fail("TypeError", "descriptor '" + name + "' needs an argument");
            ObjectPtr self = a.args[0].asObject();
            a.args.erase(a.args.begin());
            return call(in, a, self);
        });
    }
    return *attr;
}

Value Interpreter::superAttribute(const SuperObject& super, const std::string& name) {
    const ClassPtr* selfClass = instanceClass(super.self);
    ClassPtr cls = selfClass ? *selfClass : std::static_pointer_cast<ClassObject>(super.self.asObject());
    // super() in a metaclass's method, whose self is a class: the metaclass's MRO, bound as an
    // instance's.
    if (!selfClass && cls->metaclass && cls->metaclass->isSubclassOf(*super.after)) selfClass = &cls->metaclass;
    if (selfClass) cls = *selfClass;
    const auto& mro = cls->mro;
    auto start = std::find(mro.begin(), mro.end(), super.after.get());
    if (start != mro.end()) ++start;
    for (auto it = start; it != mro.end(); ++it) {
        const Value* attr = (*it)->dict->findString(name);
        if (!attr) continue;
        if (!selfClass) {  // super() in a classmethod: functions stay unbound
            if (attr->as<ClassMethodObject>()) return bindDescriptor(*attr, super.self, cls);
            if (auto* sm = attr->as<StaticMethodObject>()) return sm->function;
            return *attr;
        }
        return bindDescriptor(*attr, super.self, cls);
    }
    fail("AttributeError", "'super' object has no attribute '" + name + "'");
}

void Interpreter::setAttribute(const Value& object, const std::string& name, const Value& value) {
    const TypeSlots* type = touchedSlots(object);
    if (const NativeGetter* row = type->getters ? type->getters->find(name) : nullptr; row && row->set)
        return row->set(*this, object, value);
    if (!type->setattr) fail("AttributeError", "'" + pythonTypeName(object) + "' object attribute '" + name + "' is read-only");
    type->setattr(*this, object, name, value);
}

void Interpreter::instanceSetAttribute(const Value& object, const std::string& name, const Value& value) {
    auto* instance = object.as<InstanceObject>();
    const ClassObject* definer = nullptr;
    const Value* hook = instance->cls->lookup("__setattr__", &definer);
    if (hook && definer != objectClass_.get()) {
        CallArgs a;
        a.args = {Value(name), value};
        call(bindDescriptor(*hook, object, instance->cls), a);
        return;
    }
    genericSetAttribute(object, name, value);
}

namespace {

// When `name` is a property of the instance's class: calls its setter (with `value`) or
// deleter (without), failing as Python does when it has none, and returns true.
bool runPropertyAccessor(Interpreter& in, const Value& object, const std::string& name, const Value* value) {
    const auto* instance = object.as<InstanceObject>();
    const Value* attr = instance->cls->lookup(name);
    const PropertyObject* property = attr ? attr->as<PropertyObject>() : nullptr;
    if (!property) return false;
    const Value& accessor = value ? property->setter : property->deleter;
    if (accessor.isNone())
        in.fail("AttributeError", "property '" + name + "' of '" + instance->cls->name + "' object has no " + (value ? "setter" : "deleter"));
    CallArgs a;
    a.args = {object};
    if (value) a.args.push_back(*value);
    in.call(accessor, a);
    return true;
}

}  // namespace

void Interpreter::genericSetAttribute(const Value& object, const std::string& name, const Value& value) {
    auto* instance = object.as<InstanceObject>();
    if (!instance) fail("TypeError", "object.__setattr__() needs an instance of a script class");
    if (runPropertyAccessor(*this, object, name, &value)) return;
    if (const auto& slots = instance->cls->slotNames; slots && !slots->count(name))
        fail("AttributeError", "'" + instance->cls->name + "' object has no attribute '" + name + "'");
    instance->dict->set(Value(name), value.unsourced());
}

void Interpreter::deleteAttribute(const Value& object, const std::string& name) {
    const TypeSlots* type = touchedSlots(object);
    if (!type || !type->delattr) fail("AttributeError", "cannot delete attribute '" + name + "' of '" + pythonTypeName(object) + "' object");
    type->delattr(*this, object, name);
}

void Interpreter::instanceDeleteAttribute(const Value& object, const std::string& name) {
    auto* instance = object.as<InstanceObject>();
    const ClassObject* definer = nullptr;
    const Value* hook = instance->cls->lookup("__delattr__", &definer);
    if (hook && definer != objectClass_.get()) {
        CallArgs a;
        a.args = {Value(name)};
        call(bindDescriptor(*hook, object, instance->cls), a);
        return;
    }
    genericDeleteAttribute(object, name);
}

void Interpreter::genericDeleteAttribute(const Value& object, const std::string& name) {
    auto* instance = object.as<InstanceObject>();
    if (!instance) fail("TypeError", "object.__delattr__() needs an instance of a script class");
    if (!runPropertyAccessor(*this, object, name, nullptr) && !instance->dict->erase(Value(name))) noAttribute(*this, object, name);
}

bool Interpreter::hasAttribute(const Value& object, const std::string& name) {
    try {
        getAttribute(object, name, currentLocation());
        return true;
    } catch (const ScriptError& e) {
        if (!matchesException(e, "AttributeError")) throw;
        return false;
    }
}

Value Interpreter::makeSuper(const CallArgs& args) {
    auto super = std::make_shared<SuperObject>();
    if (args.args.size() == 2) {
        auto* cls = args.args[0].as<ClassObject>();
        if (!cls) fail("TypeError", "super() argument 1 must be a type, not " + pythonTypeName(args.args[0]));
        super->after = std::static_pointer_cast<ClassObject>(args.args[0].asObject());
        super->self = args.args[1];
    } else if (args.args.empty()) {
        const FunctionObject* fn = stack_.back().callee;
        const std::vector<Param>* params = !fn ? nullptr : fn->def ? &fn->def->params : &fn->lambda->params;
        auto self = !params || params->empty() ? current_->vars.end() : current_->vars.find(params->front().name);
        if (self == current_->vars.end()) fail("RuntimeError", "super(): no arguments");
        ClassPtr cls = fn->classCell ? fn->classCell->cls.lock() : nullptr;
        if (!cls) fail("RuntimeError", "super(): __class__ cell not found");
        super->after = cls;
        super->self = self->second;
    } else {
        fail("TypeError", fmt::format("super() takes 0 or 2 arguments ({} given)", args.args.size()));
    }
    const ClassPtr* selfClass = instanceClass(super->self);
    auto* selfAsClass = super->self.as<ClassObject>();
    bool related = selfClass ? (*selfClass)->isSubclassOf(*super->after)
                             : selfAsClass && (selfAsClass->isSubclassOf(*super->after) ||
                                               (selfAsClass->metaclass && selfAsClass->metaclass->isSubclassOf(*super->after)));
    if (!related) fail("TypeError", "super(type, obj): obj must be an instance or subtype of type");
    return Value(ObjectPtr(super));
}

// ---------------------------------------------------------------------- special methods

std::optional<Value> Interpreter::callSpecial(const Value& object, std::string_view name, ValueList args) {
    const ClassPtr* instanceType = instanceClass(object);
    auto* cls = object.as<ClassObject>();
    const ClassPtr& type = instanceType ? *instanceType : cls && cls->metaclass ? cls->metaclass : objectClass_;
    if (!instanceType && !(cls && cls->metaclass)) return std::nullopt;
    const ClassObject* definer = nullptr;
    const Value* attr = type->lookup(name, &definer);
    if (!attr || (cls && (definer == typeClass_.get() || definer == objectClass_.get()))) return std::nullopt;
    // An nn.Module's special method (a Sequential's __iter__) holds while no instance attribute
    // shadows it, as Dynamo guards it.
    if (tracer_ && object.source && instanceType && (*instanceType)->isNnModule() && attr->as<FunctionObject>())
        guardNotShadowed(*object.as<InstanceObject>(), object.source, name);
    CallArgs a;
    a.args = std::move(args);
    a.where = currentLocation();
    return call(bindDescriptor(*attr, object, type), a);
}

std::string Interpreter::repr(const Value& value) {
    if (!value.as<InstanceObject>()) return valueRepr(value);
    NestingGuard nesting("while getting the repr of an object");
    Value text = *callSpecial(value, "__repr__", {});
    if (!text.isString()) fail("TypeError", "__repr__ returned non-string (type " + pythonTypeName(text) + ")");
    return text.asString();
}

std::string Interpreter::str(const Value& value) {
    if (!value.as<InstanceObject>()) return valueStr(value);
    NestingGuard nesting("while getting the str of an object");
    Value text = *callSpecial(value, "__str__", {});
    if (!text.isString()) fail("TypeError", "__str__ returned non-string (type " + pythonTypeName(text) + ")");
    return text.asString();
}

bool instanceEquals(const Value& a, const Value& b) {
    const ClassPtr* cls = instanceClass(a) ? instanceClass(a) : instanceClass(b);
    Interpreter& interp = *(*cls)->interpreter;
    return interp.truthy(interp.evalCompare(CompareOperator::Eq, a, b, interp.currentSite()));
}

std::string instanceText(const ObjectPtr& instance, bool asStr) {
    auto* object = static_cast<InstanceObject*>(instance.get());
    Interpreter& interp = *object->cls->interpreter;
    return asStr ? interp.str(Value(instance)) : interp.repr(Value(instance));
}

namespace {

struct Dunder {
    const char* name;
    const char* reflected;
};

std::optional<Dunder> dunderFor(BinaryOperator op) {
    switch (op) {
    case BinaryOperator::Add: return Dunder{"__add__", "__radd__"};
    case BinaryOperator::Sub: return Dunder{"__sub__", "__rsub__"};
    case BinaryOperator::Mult: return Dunder{"__mul__", "__rmul__"};
    case BinaryOperator::MatMult: return Dunder{"__matmul__", "__rmatmul__"};
    case BinaryOperator::Div: return Dunder{"__truediv__", "__rtruediv__"};
    case BinaryOperator::FloorDiv: return Dunder{"__floordiv__", "__rfloordiv__"};
    case BinaryOperator::Mod: return Dunder{"__mod__", "__rmod__"};
    case BinaryOperator::Pow: return Dunder{"__pow__", "__rpow__"};
    case BinaryOperator::BitAnd: return Dunder{"__and__", "__rand__"};
    case BinaryOperator::BitOr: return Dunder{"__or__", "__ror__"};
    case BinaryOperator::BitXor: return Dunder{"__xor__", "__rxor__"};
    case BinaryOperator::LShift: return Dunder{"__lshift__", "__rlshift__"};
    case BinaryOperator::RShift: return Dunder{"__rshift__", "__rrshift__"};
    }
    return std::nullopt;
}

std::optional<Dunder> dunderFor(CompareOperator op) {
    switch (op) {
    case CompareOperator::Eq: return Dunder{"__eq__", "__eq__"};
    case CompareOperator::NotEq: return Dunder{"__ne__", "__ne__"};
    case CompareOperator::Lt: return Dunder{"__lt__", "__gt__"};
    case CompareOperator::LtE: return Dunder{"__le__", "__ge__"};
    case CompareOperator::Gt: return Dunder{"__gt__", "__lt__"};
    case CompareOperator::GtE: return Dunder{"__ge__", "__le__"};
    default: return std::nullopt;
    }
}

}  // namespace

std::optional<Value> Interpreter::reflectedDunder(const Value& left, const Value& right, const char* name,
                                                  const char* reflected) {
    const Value& notImplemented = builtins_.at("NotImplemented");
    for (auto [self, other, method] : {std::tuple{&left, &right, name}, std::tuple{&right, &left, reflected}}) {
        auto r = callSpecial(*self, method, {*other});
        if (r && !(r->isObject() && r->asObject() == notImplemented.asObject())) return r;
    }
    return std::nullopt;
}

std::optional<Value> Interpreter::binaryDunder(BinaryOperator op, const Value& left, const Value& right) {
    auto dunder = dunderFor(op);
    return reflectedDunder(left, right, dunder->name, dunder->reflected);
}

std::optional<Value> Interpreter::inplaceDunder(BinaryOperator op, const Value& self, const Value& other) {
    std::string name = dunderFor(op)->name;  // __add__ -> __iadd__
    auto r = callSpecial(self, name.insert(2, "i"), {other});
    if (r && r->isObject() && r->asObject() == builtins_.at("NotImplemented").asObject()) return std::nullopt;
    return r;
}

std::optional<Value> Interpreter::unaryDunder(UnaryOperator op, const Value& self) {
    const char* name = op == UnaryOperator::USub ? "__neg__" : op == UnaryOperator::UAdd ? "__pos__" : "__invert__";
    return callSpecial(self, name, {});
}

std::optional<Value> Interpreter::compareDunder(CompareOperator op, const Value& left, const Value& right) {
    auto dunder = dunderFor(op);
    if (!dunder) return std::nullopt;
    if (auto r = reflectedDunder(left, right, dunder->name, dunder->reflected)) return r;
    // object's own == and != are identity.
    bool same = left.isObject() && right.isObject() && left.asObject() == right.asObject();
    if (op == CompareOperator::Eq) return Value(same);
    if (op == CompareOperator::NotEq) return Value(!same);
    return std::nullopt;
}

// ------------------------------------------------------------------------- type checks

Value Interpreter::typeOf(const Value& value) {
    if (const ClassPtr* cls = instanceClass(value)) return Value(ObjectPtr(*cls));
    if (auto* cls = value.as<ClassObject>()) return cls->metaclass ? Value(ObjectPtr(cls->metaclass)) : builtins_.at("type");
    if (value.isTensor()) {
        auto& torch = rootModules_.at("torch").as<ModuleObject>()->attrs;
        if (value.asTensor().impl()->isParameter) return torch.at("nn").as<ModuleObject>()->attrs.at("Parameter");
        return torch.at("Tensor");
    }
    std::string name = pythonTypeName(value);
    if (auto it = builtins_.find(name); it != builtins_.end() && it->second.as<TypeObject>()) return it->second;
    // collections' OrderedDict and defaultdict, torch's Size, dtype and device: the classes their
    // modules have (type(d)() makes one; type(torch.float32) is torch.dtype)
    for (const char* module : {"_collections", "torch"})
        if (const Value* made = rootModules_.at(module).as<ModuleObject>()->find(name); made && made->as<TypeObject>()) return *made;
    Value& type = unnamedTypes_[name];
    if (type.isNone()) {
        auto made = std::make_shared<TypeObject>();
        made->name = name;
        type = Value(ObjectPtr(made));
    }
    return type;
}

bool Interpreter::isSubclass(const Value& cls, const Value& type) {
    if (const ValueList* types = sequenceItems(type)) {
        for (const Value& t : *types)
            if (isSubclass(cls, t)) return true;
        return false;
    }
    if (auto* u = type.as<UnionTypeObject>()) {
        for (const Value& t : u->members)
            if (isSubclass(cls, t)) return true;
        return false;
    }
    auto* target = type.as<ClassObject>();
    auto* targetType = type.as<TypeObject>();
    if (!target && !targetType) fail("TypeError", "issubclass() arg 2 must be a class, a tuple of classes, or a union");
    if (target == objectClass_.get() || (targetType && targetType->name == "object")) return true;
    if (target && target->metaclass)  // the metaclass's __subclasscheck__ (abc.ABCMeta's)
        if (auto answer = callSpecial(type, "__subclasscheck__", {cls})) return truthy(*answer);
    if (auto* c = cls.as<ClassObject>()) {
        if (targetType && targetType->name == "type") return c->isSubclassOf(*typeClass_);  // a metaclass
        return target && c->isSubclassOf(*target);
    }
    if (auto* t = cls.as<TypeObject>()) {
        if (!targetType) return false;
        return t->name == targetType->name || (targetType->name == "int" && t->name == "bool") ||
               (targetType->name == "tuple" && t->name == "Size") || (targetType->name == "dict" && (t->name == "OrderedDict" || t->name == "defaultdict")) ||
               (targetType->name == "Tensor" && (t->name == "Parameter" || t->name == "DTensor"));
    }
    fail("TypeError", "issubclass() arg 1 must be a class");
}

bool Interpreter::isInstance(const Value& value, const Value& type) {
    if (const ValueList* types = sequenceItems(type)) {
        for (const Value& t : *types)
            if (isInstance(value, t)) return true;
        return false;
    }
    if (auto* u = type.as<UnionTypeObject>()) {
        for (const Value& t : u->members)
            if (isInstance(value, t)) return true;
        return false;
    }
    if (!type.as<ClassObject>() && !type.as<TypeObject>())
        fail("TypeError", "isinstance() arg 2 must be a type, a tuple of types, or a union");
    if (auto* t = type.as<TypeObject>(); t && t->name == "type") return value.as<ClassObject>() || value.as<TypeObject>();
    Value valueType = typeOf(value);
    if (valueType.isObject() && valueType.asObject() == type.asObject()) return true;
    if (auto* cls = type.as<ClassObject>(); cls && cls->metaclass)
        if (auto answer = callSpecial(type, "__instancecheck__", {value})) return truthy(*answer);  // abc.ABCMeta's
    return isSubclass(valueType, type);
}

}  // namespace fusescope

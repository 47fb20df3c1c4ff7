// The methods of dict (CPython's Objects/dictobject.c method table). Reading a dict's items
// while tracing goes through Interpreter::dictItem, so they are sourced and guarded.
#include "script/interpreter.h"
#include "script/set_operations.h"
#include "script/types/method_table.h"
#include "script/types/type_slots.h"

namespace fusescope {

namespace {

DictObject& dictOf(const Value& self) { return *self.as<DictObject>(); }

enum class View { Keys, Values, Items };

// d.keys(), d.values(), d.items(): a snapshot that prints as Python's view.
template <View kView>
Value dictView(Interpreter& in, const Value& self, CallArgs&) {
    if (in.tracer() && self.source) in.tracer()->onDictWalk(self);  // a trace that walked it saw these keys
    DictObject& dict = dictOf(self);
    auto out = std::make_shared<DictViewObject>();
    const char* kind = kView == View::Keys ? "keys" : kView == View::Values ? "values" : "items";
    out->kind = std::string(dynamic_cast<OrderedDictObject*>(&dict) ? "odict_" : "dict_") + kind;
    out->dict = std::dynamic_pointer_cast<const DictObject>(self.asObject());
    for (size_t i = 0; i < dict.items.size(); ++i) {
        const auto& [k, v] = dict.items[i];
        Value item = in.dictItem(self, k, v, i);
        out->items.push_back(kView == View::Keys ? k : kView == View::Values ? item : makeTuple({k, item}));
    }
    return Value(ObjectPtr(out));
}

Value dictGet(Interpreter& in, const Value& self, CallArgs& a) {
    requireHashable(in, a.args[0]);
    if (Value* v = dictOf(self).find(a.args[0])) return a.args[0].isString() ? in.dictItem(self, a.args[0].asString(), *v) : *v;
    return a.args.size() > 1 ? a.args[1] : Value();
}

Value dictPop(Interpreter& in, const Value& self, CallArgs& a) {
    requireHashable(in, a.args[0]);
    if (Value* found = dictOf(self).find(a.args[0])) {
        Value v = *found;
        dictOf(self).erase(a.args[0]);
        return v;
    }
    if (a.args.size() > 1) return a.args[1];
    in.raise("KeyError", {a.args[0]});
}

Value dictSetdefault(Interpreter& in, const Value& self, CallArgs& a) {
    requireHashable(in, a.args[0]);
    if (Value* v = dictOf(self).find(a.args[0])) return *v;
    Value v = a.args.size() > 1 ? a.args[1] : Value();
    dictOf(self).set(a.args[0], v);
    return v;
}

Value dictCopy(Interpreter&, const Value& self, CallArgs&) { return Value(ObjectPtr(std::make_shared<DictObject>(dictOf(self)))); }

Value dictClear(Interpreter&, const Value& self, CallArgs&) {
    dictOf(self).clear();
    return Value();
}

Value dictUpdate(Interpreter& in, const Value& self, CallArgs& a) {
    updateDict(in, dictOf(self), a);
    return Value();
}

}  // namespace

void updateDict(Interpreter& in, DictObject& d, const CallArgs& a) {
    if (!a.args.empty()) {
        if (auto* other = a.args[0].as<DictObject>()) {
            for (const auto& [k, v] : other->items) d.set(k, v);
        } else {
            for (const Value& pair : in.iterate(a.args[0])) {
                ValueList kv = in.iterate(pair);
                if (kv.size() != 2) in.fail("ValueError", "dictionary update sequence element has wrong length");
                requireHashable(in, kv[0]);
                d.set(kv[0], kv[1]);
            }
        }
    }
    for (const auto& [k, v] : a.kwargs) d.set(Value(k), v);
}

const MethodTable& dictMethods() {
    static const MethodTable table("dict", {
        {"keys", dictView<View::Keys>, 0, kAnyArgs},
        {"values", dictView<View::Values>, 0, kAnyArgs},
        {"items", dictView<View::Items>, 0, kAnyArgs},
        {"get", dictGet, 1, 2},
        {"pop", dictPop, 1, 2},
        {"setdefault", dictSetdefault, 1, 2},
        {"copy", dictCopy, 0, kAnyArgs},
        {"clear", dictClear, 0, kAnyArgs},
        {"update", dictUpdate, 0, 1},
    });
    return table;
}


// d[key]: a string key's item read while tracing is sourced and guarded (Interpreter::dictItem);
// an object's (a tensor's) by the key's position.
Value dictGetItem(Interpreter& in, const Value& self, const Value& key) {
    requireHashable(in, key);
    Value* v = dictOf(self).find(key);
    if (!v) in.raise("KeyError", {key});
    if (key.isString()) return in.dictItem(self, key.asString(), *v);
    if (key.isNumber() || key.isNone() || !in.tracer() || !self.source) return *v;
    const auto& items = dictOf(self).items;
    for (size_t i = 0; i < items.size(); ++i)
        if (&items[i].second == v) return in.dictItem(self, key, *v, i);
    return *v;
}

void dictSetItem(Interpreter& in, const Value& self, const Value& key, const Value& value) {
    requireHashable(in, key);
    if (in.tracer() && self.source) in.tracer()->onDictWrite(self);
    dictOf(self).set(key, value);
    in.noteStoredInto(self.asObject());
}

void dictDeleteItem(Interpreter& in, const Value& self, const Value& key) {
    requireHashable(in, key);
    if (!dictOf(self).erase(key)) in.raise("KeyError", {key});
}

}  // namespace fusescope

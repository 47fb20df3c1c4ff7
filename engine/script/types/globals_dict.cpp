// globals(): the running module's namespace as a dict whose reads and writes go to the
// module's variables (`globals()[fn.__name__] = fn` defines a global, as in PyTorch's
// optimizer.py). Its keys are listed sorted: a module's variables keep no insertion order.

#include <algorithm>

#include "script/types/globals_dict.h"

#include "script/graph_break_kinds.h"
#include "script/interpreter.h"
#include "script/set_operations.h"
#include "script/types/type_slots.h"

namespace fusescope {

namespace {

std::unordered_map<std::string, Value>& variablesOf(const Value& self) { return self.as<GlobalsDictObject>()->scope->vars; }

const std::string& keyName(Interpreter& in, const Value& key) {
    if (!key.isString()) in.raise("KeyError", {key});  // a module's variables are all named by strings
    return key.asString();
}

ValueList sortedKeys(const Value& self) {
    std::vector<std::string> names;
    for (const auto& [name, value] : variablesOf(self)) names.push_back(name);
    std::sort(names.begin(), names.end());
    return ValueList(names.begin(), names.end());
}

Value getItem(Interpreter& in, const Value& self, const Value& key) {
    auto& vars = variablesOf(self);
    auto found = vars.find(keyName(in, key));
    if (found == vars.end()) in.raise("KeyError", {key});
    return found->second;
}

Value getOr(Interpreter&, const Value& self, CallArgs& a) {
    auto& vars = variablesOf(self);
    auto found = a.args[0].isString() ? vars.find(a.args[0].asString()) : vars.end();
    return found != vars.end() ? found->second : a.args.size() > 1 ? a.args[1] : Value();
}

ValueList valuesOf(const Value& self) {
    ValueList values;
    for (const Value& key : sortedKeys(self)) values.push_back(variablesOf(self).at(key.asString()));
    return values;
}

Value itemsOf(Interpreter&, const Value& self, CallArgs&) {
    ValueList pairs;
    for (const Value& key : sortedKeys(self)) pairs.push_back(makeTuple({key, variablesOf(self).at(key.asString())}));
    return makeList(std::move(pairs));
}

const MethodTable& globalsMethods() {
    static const MethodTable table(
        "dict",
        {
            {"get", getOr, 1, 2},
            {"keys", [](Interpreter&, const Value& self, CallArgs&) { return makeList(sortedKeys(self)); }},
            {"values", [](Interpreter&, const Value& self, CallArgs&) { return makeList(valuesOf(self)); }},
            {"items", itemsOf},
            {"setdefault", [](Interpreter& in, const Value& self, CallArgs& a) {
                 auto [at, added] = variablesOf(self).try_emplace(keyName(in, a.args[0]), a.args.size() > 1 ? a.args[1] : Value());
                 if (added) definitionsChanged();
                 return at->second;
             }, 1, 2},
            {"pop", [](Interpreter& in, const Value& self, CallArgs& a) {
                 auto& vars = variablesOf(self);
                 auto found = a.args[0].isString() ? vars.find(a.args[0].asString()) : vars.end();
                 if (found == vars.end()) {
                     if (a.args.size() > 1) return a.args[1];
                     in.raise("KeyError", {a.args[0]});
                 }
                 Value value = found->second;
                 vars.erase(found);
                 definitionsChanged();
                 return value;
             }, 1, 2},
            {"copy", [](Interpreter& in, const Value& self, CallArgs&) {
                 auto copy = std::make_shared<DictObject>();
                 (void)in;
                 for (const Value& key : sortedKeys(self)) copy->set(key, variablesOf(self).at(key.asString()));
                 return Value(ObjectPtr(copy));
             }},
        });
    return table;
}

}  // namespace

Value makeGlobalsDict(Interpreter& in) {
    if (in.tracer() && in.runningTracedCode())  // its reads would hold no sources, so no guards
        in.tracer()->graphBreak(graph_breaks::fusescopeOnly("globals()", "a module's namespace read as a dict is not traced"));
    auto made = std::make_shared<GlobalsDictObject>();
    made->scope = in.currentGlobals();
    return Value(ObjectPtr(made));
}

const TypeSlots* GlobalsDictObject::slots() const {
    static const TypeSlots type{
        .name = "dict",
        .methods = &globalsMethods(),
        .items = [](Interpreter&, const Value& self) { return sortedKeys(self); },
        .hash = unhashable,
        .getitem = getItem,
        .setitem = [](Interpreter& in, const Value& self, const Value& key, const Value& value) {
            variablesOf(self)[keyName(in, key)] = value.unsourced();
            definitionsChanged();
        },
        .delitem = [](Interpreter& in, const Value& self, const Value& key) {
            if (!variablesOf(self).erase(keyName(in, key))) in.raise("KeyError", {key});
            definitionsChanged();
        },
        .length = [](Interpreter&, const Value& self) { return static_cast<int64_t>(variablesOf(self).size()); },
        .contains = [](Interpreter&, const Value& self, const Value& key) {
            return key.isString() && variablesOf(self).count(key.asString()) > 0;
        },
        .repr = [](const Value& self) {
            std::string text;
            for (const Value& key : sortedKeys(self))
                text += (text.empty() ? "" : ", ") + valueRepr(key) + ": " + valueRepr(variablesOf(self).at(key.asString()));
            return "{" + text + "}";
        }};
    return &type;
}

}  // namespace fusescope

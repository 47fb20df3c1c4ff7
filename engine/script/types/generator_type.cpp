// The generator type: next, send, throw and close (script/generator.h runs them).
#include "script/generator.h"
#include "script/object_model.h"
#include "script/types/type_slots.h"

namespace fusescope {

namespace {

GeneratorObject& generatorOf(const Value& self) { return *self.as<GeneratorObject>(); }

// The next yielded value, or StopIteration carrying what the generator returned.
Value resumeOrStop(Interpreter& in, const Value& self, Value sent, std::exception_ptr thrown = nullptr) {
    GeneratorObject& gen = generatorOf(self);
    std::optional<Value> item = in.resumeGenerator(gen, std::move(sent), std::move(thrown));
    if (item) return *item;
    Value returned = std::exchange(gen.returned, Value());
    in.raise("StopIteration", returned.isNone() ? ValueList{} : ValueList{returned});
}

// throw(exception) / throw(type[, value]): the exception raised at the generator's yield.
Value throwInto(Interpreter& in, const Value& self, CallArgs& a) {
    Value exception = a.args[0];
    if (exception.as<ClassObject>()) {
        CallArgs args;
        if (a.args.size() > 1 && !a.args[1].isNone()) args.args.push_back(a.args[1]);
        exception = in.call(exception, args);
    }
    const ClassPtr* cls = instanceClass(exception);
    if (!cls || !(*cls)->isSubclassOf(*in.exceptionClass("BaseException")))
        in.fail("TypeError", "exceptions must be classes or instances deriving from BaseException, not " + pythonTypeName(exception));
    auto thrown = std::make_exception_ptr(RaisedException((*cls)->name, in.str(exception), in.currentLocation(), exception));
    return resumeOrStop(in, self, Value(), thrown);
}

const MethodTable& generatorMethods() {
    static const MethodTable table(
        "generator",
        {
            {"__next__", [](Interpreter& in, const Value& self, CallArgs&) { return resumeOrStop(in, self, Value()); }},
            {"send", [](Interpreter& in, const Value& self, CallArgs& a) { return resumeOrStop(in, self, a.args[0]); }, 1, 1},
            {"throw", throwInto, 1, 3},
            {"close",
             [](Interpreter& in, const Value& self, CallArgs&) {
                 in.closeGenerator(generatorOf(self));
                 return Value();
             }},
            {"__iter__", [](Interpreter&, const Value& self, CallArgs&) { return self; }},
        });
    return table;
}

const GetterTable& generatorGetters() {
    static const GetterTable table({
        {"__name__", [](Interpreter&, const Value& self) { return Value(generatorOf(self).name); }},
        {"__qualname__", [](Interpreter&, const Value& self) { return Value(generatorOf(self).qualname); }},
        {"gi_running",
         [](Interpreter&, const Value& self) { return Value(generatorOf(self).state == GeneratorObject::State::Running); }},
    });
    return table;
}

// A loop's next item; at the end what the generator returned is dropped (a loop ignores it).
std::optional<Value> nextItem(Interpreter& in, const Value& self) {
    GeneratorObject& gen = generatorOf(self);
    std::optional<Value> item = in.resumeGenerator(gen, Value());
    if (!item) gen.returned = Value();
    return item;
}

}  // namespace

const TypeSlots* GeneratorObject::slots() const {
    static const TypeSlots type{.name = "generator", .getters = &generatorGetters(), .methods = &generatorMethods(), .next = nextItem,
                                .repr = [](const Value& self) { return self.as<GeneratorObject>()->reprText(); }};
    return &type;
}

}  // namespace fusescope

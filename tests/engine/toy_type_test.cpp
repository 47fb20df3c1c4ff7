// A builtin type added the way docs/architecture.md says ("Adding a builtin type"): an
// Object subclass naming one TypeSlots, whose tables and slots are all its behaviour. The
// interpreter has no code for it, yet attributes, methods, operators, comparisons,
// subscripts, len, truth, `in` and calls all reach it.
#include <gtest/gtest.h>

#include "script/interpreter.h"
#include "script/parser.h"
#include "script/types/method_table.h"
#include "script/types/type_slots.h"

namespace fusescope {
namespace {

// A tally: a count that bump(n) raises.
struct Tally : Object {
    int64_t count = 0;
    std::string typeName() const override { return "Tally"; }
    const TypeSlots* slots() const override;
};

int64_t countOf(const Value& v) { return v.as<Tally>()->count; }

Value tallyOf(int64_t count) {
    auto tally = std::make_shared<Tally>();
    tally->count = count;
    return Value(ObjectPtr(tally));
}

const TypeSlots* Tally::slots() const {
    static const GetterTable getters({{"count", [](Interpreter&, const Value& self) { return Value(countOf(self)); }}});
    static const MethodTable methods("Tally", {{"bump",
                                                [](Interpreter&, const Value& self, CallArgs& a) {
                                                    self.as<Tally>()->count += a.args.empty() ? 1 : a.args[0].asInt();
                                                    return self;
                                                },
                                                0, 1}});
    static const TypeSlots type{
        .name = "Tally",
        .getters = &getters,
        .methods = &methods,
        // tally + n and n + tally; anything else is NotImplemented.
        .binary = [](Interpreter&, BinaryOperator op, const Value& left, const Value& right) -> std::optional<Value> {
            const Value& tally = left.as<Tally>() ? left : right;
            const Value& other = left.as<Tally>() ? right : left;
            if (op != BinaryOperator::Add || !other.isInt()) return std::nullopt;
            return tallyOf(countOf(tally) + other.asInt());
        },
        .compare = [](Interpreter&, CompareOperator op, const Value& left, const Value& right) -> std::optional<Value> {
            if (op != CompareOperator::Eq || !left.as<Tally>() || !right.as<Tally>()) return std::nullopt;
            return Value(countOf(left) == countOf(right));
        },
        .getitem = [](Interpreter&, const Value& self, const Value& index) { return Value(countOf(self) * index.asInt()); },
        .length = [](Interpreter&, const Value& self) { return countOf(self); },
        .truth = [](Interpreter&, const Value& self) { return countOf(self) != 0; },
        .contains = [](Interpreter&, const Value& self, const Value& item) { return item.isInt() && item.asInt() <= countOf(self); },
        .call = [](Interpreter&, const Value& self, CallArgs&) { return Value(countOf(self) * 100); },
    };
    return &type;
}

class CapturingHost : public ScriptHost {
public:
    std::string out;
    void writeStdout(const std::string& text) override { out += text; }
    Value callCompiled(Interpreter&, CompiledFunctionObject&, CallArgs&) override { throw Error("not in this test"); }
    Value explain(Interpreter&, const Value&, CallArgs&) override { throw Error("not in this test"); }
    void resetDynamo() override {}
    std::string setCompileStance(const std::string& stance) override { return stance; }
    void setLogs(const CallArgs&) override {}
};

TEST(ToyType, EverySlotOfANewBuiltinTypeIsReachedFromAScript) {
    auto module = parseScript(R"(
t = Tally()
print(bool(t), len(t), t == Tally())
t.bump().bump(4)
print(t.count, len(t), bool(t), t[3], (t + 1).count, (2 + t).count, t(), 5 in t, 6 in t, t == Tally())
for attempt in [lambda: t - 1, lambda: t < t]:
    try:
        attempt()
    except TypeError as e:
        print(e)
try:
    t.nope
except AttributeError as e:
    print(e)
)",
                              "toy.py");
    CapturingHost host;
    Interpreter interp(*module, host);
    interp.defineBuiltin("Tally", makeBuiltin("Tally", [](Interpreter&, CallArgs&) { return tallyOf(0); }));
    interp.run();
    EXPECT_EQ(host.out,
              "False 0 True\n"
              "5 5 True 15 6 7 500 True False False\n"
              "unsupported operand type(s) for -: 'Tally' and 'int'\n"
              "'<' not supported between instances of 'Tally' and 'Tally'\n"
              "'Tally' object has no attribute 'nope'\n");
}

}  // namespace
}  // namespace fusescope

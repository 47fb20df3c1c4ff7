// Every slot call goes through Interpreter::touchedSlots, so the capture layer hears of each
// object a compiled function reads or changes (TraceHooks::onObjectTouch), whatever its type:
// what keeps a compiled call's direct runs (capture/direct_call.h) from returning a stale
// result. This test walks the slot table of a value of each builtin type: for each slot the
// type has, it makes the interpreter use that slot on the value and checks the hook heard
// of it.
#include <gtest/gtest.h>

#include <functional>
#include <set>

#include "script/interpreter.h"
#include "script/parser.h"
#include "script/set_operations.h"
#include "script/types/type_slots.h"

namespace fusescope {
namespace {

class TouchRecorder : public TraceHooks {
public:
    std::set<const Object*> touched;
    void onObjectTouch(const Value& object) override { touched.insert(object.asObject().get()); }

    IValue captureOp(const OpCall&) override { throw Error("no ops in this test"); }
    bool isLazy(const Tensor&) const override { return false; }
    Device deviceOf(const Tensor& t) const override { return t.device(); }
    void graphBreak(const GraphBreak&) override {}
    std::string computationTrace(const Tensor&) const override { return ""; }
    std::string producingOp(const Tensor&) const override { return ""; }
    void onStatement(const Stmt&) override {}
    void onInputUse(const Value&) override {}
    void onLengthUse(const Value&) override {}
    void onContainsUse(const Value&, const Value&, bool) override {}
    void onSizeUse(const Tensor&, int64_t) override {}
};

class QuietHost : public ScriptHost {
public:
    void writeStdout(const std::string&) override {}
    Value callCompiled(Interpreter&, CompiledFunctionObject&, CallArgs&) override { throw Error("not in this test"); }
    Value explain(Interpreter&, const Value&, CallArgs&) override { throw Error("not in this test"); }
    void resetDynamo() override {}
    std::string setCompileStance(const std::string& stance) override { return stance; }
    void setLogs(const CallArgs&) override {}
};

// A slot of TypeSlots and how a script reaches it.
struct SlotUse {
    const char* slot;
    std::function<bool(const TypeSlots&)> has;
    std::function<void(Interpreter&, const Value&)> use;
};

// The name a type's attribute slots answer first: a getter's, a method's, else any.
std::string someAttribute(const TypeSlots& type) {
    if (type.getters && !type.getters->getters().empty()) return std::string(type.getters->getters().front().name);
    if (type.methods && !type.methods->methods().empty()) return std::string(type.methods->methods().front().name);
    return "missing";
}

const std::vector<SlotUse>& slotUses() {
    static const CallSite site;
    static const SourceLocation here{"slot_touch_test", 1, 1};
    static const std::vector<SlotUse> uses = {
        {"getters, methods, getattr", [](const TypeSlots& t) { return t.getters || t.methods || t.getattr; },
         [](Interpreter& in, const Value& v) { in.getAttribute(v, someAttribute(*slotsOf(v)), here); }},
        {"items, iterate, next", [](const TypeSlots& t) { return t.items || t.iterate || t.next; },
         [](Interpreter& in, const Value& v) { in.forEachItem(v, [](const Value&) { return false; }); }},
        {"items (copied)", [](const TypeSlots& t) { return t.items && !t.next; }, [](Interpreter& in, const Value& v) { in.iterate(v); }},
        {"getitem", [](const TypeSlots& t) { return t.getitem != nullptr; },
         [](Interpreter& in, const Value& v) { in.evalSubscript(v, Value(int64_t{0})); }},
        {"length", [](const TypeSlots& t) { return t.length != nullptr; }, [](Interpreter& in, const Value& v) { in.length(v); }},
        {"truth", [](const TypeSlots& t) { return t.truth != nullptr; }, [](Interpreter& in, const Value& v) { in.truthy(v); }},
        {"contains", [](const TypeSlots& t) { return t.contains != nullptr; },
         [](Interpreter& in, const Value& v) { in.evalCompare(CompareOperator::In, Value(int64_t{1}), v, site); }},
        {"compare", [](const TypeSlots& t) { return t.compare != nullptr; },
         [](Interpreter& in, const Value& v) { in.evalCompare(CompareOperator::Lt, Value(int64_t{1}), v, site); }},
        {"hash", [](const TypeSlots& t) { return t.hash != nullptr; }, [](Interpreter& in, const Value& v) { hashOf(in, v); }},
        {"binary", [](const TypeSlots& t) { return t.binary != nullptr; },
         [](Interpreter& in, const Value& v) { in.evalBinary(BinaryOperator::Sub, Value(int64_t{1}), v, site); }},
        {"concat", [](const TypeSlots& t) { return t.concat != nullptr; },
         [](Interpreter& in, const Value& v) { in.evalBinary(BinaryOperator::Add, v, v, site); }},
        {"repeat", [](const TypeSlots& t) { return t.repeat != nullptr; },
         [](Interpreter& in, const Value& v) { in.evalBinary(BinaryOperator::Mult, Value(int64_t{2}), v, site); }},
        {"unary", [](const TypeSlots& t) { return t.unary != nullptr; },
         [](Interpreter& in, const Value& v) { in.evalUnary(UnaryOperator::USub, v, site); }},
        {"call", [](const TypeSlots& t) { return t.call != nullptr; },
         [](Interpreter& in, const Value& v) {
             CallArgs none;
             in.call(v, none);
         }},
        // The changes come last: each changes the value the rows above read.
        {"inplace", [](const TypeSlots& t) { return t.inplace != nullptr; },
         [](Interpreter& in, const Value& v) { in.evalInPlace(BinaryOperator::Add, v, v, site); }},
        {"setitem", [](const TypeSlots& t) { return t.setitem != nullptr; },
         [](Interpreter& in, const Value& v) { in.assignSubscript(v, Value(int64_t{0}), Value(int64_t{5})); }},
        {"delitem", [](const TypeSlots& t) { return t.delitem != nullptr; },
         [](Interpreter& in, const Value& v) { in.deleteSubscript(v, Value(int64_t{0})); }},
        {"setattr", [](const TypeSlots& t) { return t.setattr != nullptr; },
         [](Interpreter& in, const Value& v) { in.setAttribute(v, "tag", Value(int64_t{1})); }},
        {"delattr", [](const TypeSlots& t) { return t.delattr != nullptr; },
         [](Interpreter& in, const Value& v) { in.deleteAttribute(v, "tag"); }},
    };
    return uses;
}

// A value of each builtin type a script makes, with a user class having every dunder.
const char* kSamples = R"(
import math
class Box:
    def __init__(self):
        self.items = [1, 2]
    def __len__(self):
        return len(self.items)
    def __getitem__(self, i):
        return self.items[i]
    def __setitem__(self, i, v):
        self.items[i] = v
    def __delitem__(self, i):
        del self.items[i]
    def __iter__(self):
        return iter(self.items)
    def __contains__(self, x):
        return x in self.items
    def __lt__(self, other):
        return False
    def __hash__(self):
        return 7
    def __add__(self, other):
        return self
    def __rsub__(self, other):
        return self
    def __iadd__(self, other):
        return self
    def __neg__(self):
        return self
    def __bool__(self):
        return True
    def __call__(self):
        return 1
def numbers():
    yield 1
    yield 2
d = {0: 1, 1: 2}
samples = [[1, 2], (1, 2), {0: 1, 1: 2}, {1, 2}, range(3), slice(1, 2), Box(), Box, numbers(), iter([1, 2]),
           map(abs, [1, 2]), zip([1], [2]), enumerate([1]), d.keys(), d.values(), d.items(), numbers, Box().__len__,
           len, math, ValueError('x'), property(lambda self: 1), staticmethod(len), classmethod(len)]
)";

TEST(SlotTouch, EverySlotOfEveryBuiltinTypeTellsTheTracerOfTheValueItUses) {
    auto module = parseScript(kSamples, "samples.py");
    QuietHost host;
    Interpreter interp(*module, host);
    interp.run();
    const ValueList samples = *sequenceItems(*interp.global("samples"));
    TouchRecorder recorder;
    std::set<std::string> typesWalked;
    int used = 0;
    for (const Value& sample : samples) {
        const TypeSlots& type = *slotsOf(sample);
        typesWalked.insert(pythonTypeName(sample));
        for (const SlotUse& use : slotUses()) {
            if (!use.has(type)) continue;
            recorder.touched.clear();
            interp.setTracer(&recorder);
            try {
                use.use(interp, sample);
            } catch (const Error&) {
                // What the slot does with these arguments is not the point: only that it was reached through touchedSlots.
            }
            interp.setTracer(nullptr);
            ++used;
            EXPECT_TRUE(recorder.touched.count(sample.asObject().get()))
                << "the " << use.slot << " slot of a '" << pythonTypeName(sample) << "' was used without telling the tracer";
        }
    }
    EXPECT_EQ(typesWalked.size(), samples.size()) << "two samples of one type";
    EXPECT_GE(used, 100) << "fewer slots walked than the samples' types have";
}

}  // namespace
}  // namespace fusescope

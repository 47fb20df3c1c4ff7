// Builtin types' methods as data (script/types/method_table.h): each row of a type's table is
// an attribute of its values, called with its argument count checked first.
#include <gtest/gtest.h>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "script/types/method_table.h"
#include "script/types/type_slots.h"
#include "script/set_object.h"
#include "test_support.h"

namespace fusescope::test {
namespace {

// A script that reads every method of `table` from `value` and calls none.
std::string readsEveryMethod(const MethodTable& table, const std::string& value) {
    std::vector<std::string> names;
    for (const NativeMethod& m : table.methods()) names.push_back(fmt::format("'{}'", m.name));
    return fmt::format("import torch\nv = {}\nprint([type(getattr(v, n)).__name__ for n in [{}]])\n", value, fmt::join(names, ", "));
}

TEST(MethodTable, EveryRowIsAMethodOfItsTypesValues) {
    for (const auto& [table, value] : {std::pair{&listMethods(), "[3, 1, 2]"}, std::pair{&tupleMethods(), "(3, 1)"},
                                       std::pair{&dictMethods(), "{'a': 1}"}, std::pair{&setMethods(), "{1, 2}"},
                                       std::pair{&strMethods(), "'text'"}, std::pair{&tensorMethods(), "torch.ones(2)"}}) {
        ScriptRun run = runScript(readsEveryMethod(*table, value));
        ASSERT_EQ(run.error, "") << value;
        std::vector<std::string> kinds(table->methods().size(), "'builtin_function_or_method'");
        EXPECT_EQ(run.out, fmt::format("[{}]\n", fmt::join(kinds, ", "))) << value;
    }
    EXPECT_EQ(listMethods().methods().size(), 11u);
    EXPECT_EQ(dictMethods().methods().size(), 9u);
    EXPECT_EQ(setMethods().methods().size(), 17u);
    EXPECT_EQ(strMethods().methods().size(), 35u);
    EXPECT_EQ(runScript("[].push(1)\n").error, "script.py:1:1: error: AttributeError: 'list' object has no attribute 'push'");
}

TEST(MethodTable, ArgumentCountsAreCheckedBeforeTheCall) {
    // The wording is ours for now (CPython's differs per method: "list.append() takes exactly one argument").
    EXPECT_EQ(runScript("[].append()\n").error, "script.py:1:1: error: TypeError: append() takes 1 argument(s) (0 given)");
    EXPECT_EQ(runScript("(1,).index(1, 2, 3)\n").error, "script.py:1:1: error: TypeError: index() takes 1 argument(s) (3 given)");
    EXPECT_EQ(runScript("xs = [3, 1, 2]\nxs.sort(reverse=True)\nxs.insert(-1, 9)\nprint(xs, xs.pop(0), xs.index(9), (1, 1).count(1))\n").out,
              "[2, 9, 1] 3 1 2\n");
}

TEST(MethodTable, EveryTensorGetterIsAnAttributeOfATensor) {
    std::vector<std::string> names;
    for (const NativeGetter& g : tensorGetters().getters()) names.push_back(fmt::format("'{}'", g.name));
    // A complex tensor: it has every attribute (a real one has no .imag).
    ScriptRun run = runScript(fmt::format("import torch\nv = torch.complex(torch.ones(2, 3), torch.ones(2, 3))\n"
                                          "print([type(getattr(v, n)).__name__ for n in [{}]])\n", fmt::join(names, ", ")));
    EXPECT_EQ(run.out, "['Size', 'dtype', 'device', 'int', 'bool', 'bool', 'int', 'NoneType', 'NoneType', 'Tensor', 'bool', 'bool', 'bool', 'bool', "
                       "'bool', 'Tensor', 'Tensor', 'Tensor', 'Tensor']\n") << run.error;
}

TEST(MethodTable, DTypesDevicesAndFloatsReadTheirRows) {
    EXPECT_EQ(runScript("import torch\nprint(torch.float16.itemsize, torch.int32.is_floating_point, torch.device('cuda', 1).type, "
                        "torch.device('cpu').index, (2.0).is_integer(), (2.5).is_integer())\n").out,
              "2 False cuda None True False\n");
}

// Bound methods, properties, classmethod, staticmethod and builtin types read their rows as
// CPython 3.11 does.
TEST(MethodTable, TheObjectModelsObjectsReadTheirRows) {
    ScriptRun run = runScript(
        "class A:\n"
        "    @property\n"
        "    def x(self):\n"
        "        return 1\n"
        "    def m(self):\n"
        "        pass\n"
        "    @classmethod\n"
        "    def c(cls):\n"
        "        pass\n"
        "    @staticmethod\n"
        "    def s():\n"
        "        pass\n"
        "p, a = A.__dict__['x'], A()\n"
        "print(a.m.__name__, a.m.__qualname__, a.m.__self__ is a, a.m.__func__ is A.m, p.fget.__name__, p.fset,\n"
        "      p.setter(lambda s, v: None).fset is not None)\n"
        "print(A.__dict__['c'].__func__.__name__, A.__dict__['s'].__func__.__name__, int.__name__, list.__qualname__)\n"
        "A.m.__name__ = 'renamed'\n"
        "print(A.m.__name__, A.m.__qualname__, A.m.__module__, (lambda: 0).__name__)\n");
    EXPECT_EQ(run.out, "m A.m True True x None True\nc s int list\nrenamed A.m __main__ <lambda>\n") << run.error;
}

// Every value names its type's slots: objects through Object::slots() (a plain object's by
// default), None, str, bool, int, float, dtype and device by kind.
TEST(TypeSlots, EachConvertedTypeNamesItsSlots) {
    auto nameOf = [](const Value& v) { return std::string(slotsOf(v)->name); };
    EXPECT_EQ(nameOf(makeList({})), "list");
    EXPECT_EQ(nameOf(makeTuple({})), "tuple");
    EXPECT_EQ(nameOf(Value(ObjectPtr(std::make_shared<DictObject>()))), "dict");
    EXPECT_EQ(nameOf(Value(ObjectPtr(std::make_shared<OrderedDictObject>()))), "OrderedDict");  // a dict's, but its own repr
    EXPECT_EQ(nameOf(Value(ObjectPtr(std::make_shared<SizeObject>()))), "Size");
    EXPECT_EQ(nameOf(Value(ObjectPtr(std::make_shared<SetObject>()))), "set");
    EXPECT_EQ(nameOf(Value(ObjectPtr(std::make_shared<DictViewObject>()))), "dict view");  // a list inside, not a list
    EXPECT_EQ(nameOf(Value(ObjectPtr(std::make_shared<ModuleObject>()))), "module");
    EXPECT_EQ(nameOf(Value(ObjectPtr(std::make_shared<FunctionObject>()))), "function");
    EXPECT_EQ(nameOf(Value(ObjectPtr(std::make_shared<RangeObject>()))), "range");
    EXPECT_EQ(nameOf(Value(ObjectPtr(std::make_shared<EllipsisObject>()))), "ellipsis");
    EXPECT_EQ(nameOf(Value(ObjectPtr(std::make_shared<IteratorObject>()))), "iterator");
    EXPECT_EQ(nameOf(Value("s")), "str");
    EXPECT_EQ(nameOf(Value(1.5)), "float");
    EXPECT_EQ(nameOf(Value(DType::Float32)), "dtype");
    EXPECT_EQ(nameOf(Value(Device::cpu())), "device");
    EXPECT_EQ(nameOf(Value(int64_t{1})), "int");
    EXPECT_EQ(nameOf(Value(true)), "bool");
    EXPECT_EQ(nameOf(Value()), "NoneType");
    EXPECT_EQ(runScript("print(range(1, 9, 2).start, range(1, 9, 2).stop, range(1, 9, 2).step, slice(3).stop)\n").out, "1 9 2 3\n");
    EXPECT_EQ(runScript("class A:\n    pass\nA().nope\n").error, "script.py:3:1: error: AttributeError: 'A' object has no attribute 'nope'");
    EXPECT_EQ(runScript("{1}.nope\n").error, "script.py:1:1: error: AttributeError: 'set' object has no attribute 'nope'");
    EXPECT_EQ(runScript("import torch\ntorch.float32.nope\n").error, "script.py:2:1: error: AttributeError: 'dtype' object has no attribute 'nope'");
    // The tensor's slots end with the ops that are methods; its own error keeps the read's column.
    EXPECT_EQ(runScript("import torch\nx = torch.ones(2)\nprint(x.view(1, 2).shape)\ny = x.nope\n").error,
              "script.py:4:7: error: AttributeError: 'Tensor' object has no attribute 'nope'");
}

// str.strip took no characters to strip before its row was written (it ignored them).
TEST(MethodTable, StrStripTakesTheCharactersToStripAsPython) {
    EXPECT_EQ(runScript("print('xxhix'.strip('x'), '  a  '.strip(), 'abcba'.strip('ab'), '--'.strip('-') == '')\n").out, "hi a c True\n");
}

}  // namespace
}  // namespace fusescope::test

// The doctor's advice for recompiles: `fusescope-cli run --report` gives each recompile the
// change that avoids it, and applying the advice (mark_dynamic) leaves no recompile.
#include <gtest/gtest.h>

#include "observe/recompile_fixes.h"
#include "test_support.h"

using namespace fusescope::test;

namespace {

// Two calls with a size change; `before_first_call` goes right before the first call.
std::string sizeChange(const std::string& beforeFirstCall) {
    return "import torch\n"
           "\n"
           "@torch.compile(backend=\"eager\")\n"
           "def scale(x):\n"
           "    return x * 2\n"
           "\n"
           "x = torch.ones(8)\n" +
           beforeFirstCall +
           "print(scale(x).shape)\n"
           "print(scale(torch.ones(9)).shape)\n"
           "print(scale(torch.ones(10)).shape)\n";
}

}  // namespace

TEST(RecompileDoctor, TheReportGivesEachRecompileItsFix) {
    const std::string script = writeTempFile("size_change.py", sizeChange(""));
    ProcessResult run = runCli({"run", script, "--report"});
    ASSERT_EQ(run.exitCode, 0) << run.err;
    // The report goes to stderr: stdout stays what the program prints.
    EXPECT_NE(run.err.find("  0/1: 1 graph, 1 op, 0 graph breaks, 2 guards\n"
                           "       recompiled because 0/0: tensor 'x' size mismatch at index 0. expected 8, actual 9\n"
                           "       guard made at line 5: check_tensor(L['x'], torch.float32, device=cpu, requires_grad=False, "
                           "size=[8], stride=[1])  # return x * 2\n"
                           "       fix: the size of x's dim 0 changed (8 to 9): mark it dynamic before the first call, "
                           "`torch._dynamo.mark_dynamic(x, 0)`, or compile with `dynamic=True`; without either, this "
                           "recompile makes the dim dynamic and later sizes reuse it\n"
                           "       edit: before " + script + ":8, add `torch._dynamo.mark_dynamic(x, 0)`\n"),
              std::string::npos)
        << run.err;
    EXPECT_NE(run.err.find("Total: 2 compiles, 1 recompile,"), std::string::npos) << run.err;
}

// The advice applied: the dim is dynamic from the first compile, and no size recompiles (as
// PyTorch 2.15 runs this program: one compile).
TEST(RecompileDoctor, MarkDynamicAsAdvisedLeavesNoRecompile) {
    const std::string script = writeTempFile("size_change.py", sizeChange("torch._dynamo.mark_dynamic(x, 0)\n"));
    ProcessResult run = runCli({"run", script, "--report", "--logs", "recompiles,dynamic"});
    ASSERT_EQ(run.exitCode, 0) << run.err;
    EXPECT_EQ(run.out, "torch.Size([8])\ntorch.Size([9])\ntorch.Size([10])\n");
    EXPECT_NE(run.err.find("Total: 1 compile, 0 recompiles,"), std::string::npos) << run.err;
    EXPECT_NE(run.err.find("create_symbol s77 = 8 for L['x'].size()[0] [2, int_oo] return x * 2  # " + script + ":5 in scale\n"),
              std::string::npos)
        << run.err;
    EXPECT_EQ(run.err.find("marking L['x'] as dynamic"), std::string::npos) << "marked by the script, not by a recompile";
    EXPECT_EQ(run.err.find("Recompiling"), std::string::npos) << run.err;
}

TEST(RecompileDoctor, MarkDynamicRefusesADimOutOfRange) {
    const std::string script = writeTempFile("bad_dim.py", "import torch\ntorch._dynamo.mark_dynamic(torch.ones(2, 3), 2)\n");
    ProcessResult run = runCli({"run", script});
    EXPECT_EQ(run.exitCode, 1);
    EXPECT_NE(run.err.find("IndexError: Dimension out of range (expected to be in range of [-2, 1], but got 2)"), std::string::npos)
        << run.err;
}

// Each recompile reason PyTorch 2.15 gives, with the change that avoids it.
TEST(RecompileDoctor, EachKindOfGuardFailureHasItsFix) {
    using fusescope::recompileFix;
    EXPECT_EQ(recompileFix("0/0: tensor 'x' dtype mismatch. expected Float, actual Half"),
              "x's dtype changed (Float to Half): each dtype compiles once; convert x to one dtype before the call");
    EXPECT_EQ(recompileFix("0/0: tensor 'm._parameters['bias']' size mismatch at index 0. expected 3, actual 5. Guard failed on "
                           "a parameter, consider using torch._dynamo.config.force_parameter_static_shapes = False to allow "
                           "dynamism on parameters."),
              "m._parameters['bias'] is a parameter (or buffer), whose sizes stay static: a module whose m._parameters['bias'] "
              "has another size (3 to 5 at dim 0) compiles again; to share one dynamic graph, set "
              "`torch._dynamo.config.force_parameter_static_shapes = False` before the first call");
    EXPECT_EQ(recompileFix("0/0: tensor 'x' rank mismatch. expected 2, actual 3"),
              "x's number of dims changed (2 to 3): each rank compiles once; reshape x to one rank before the call");
    EXPECT_EQ(recompileFix("0/1: tensor 'w' stride mismatch at index 0. expected 4, actual 1"),
              "w's layout changed (a transposed or sliced view): pass `w.contiguous()`");
    EXPECT_EQ(recompileFix("0/0: tensor 'x' requires_grad mismatch. expected requires_grad=0"),
              "x.requires_grad changed: each setting compiles once; call it with the same requires_grad");
    EXPECT_EQ(recompileFix("0/0: expected type of 'b' to be <class 'torch.Tensor'>, but found <class 'int'>"),
              "b was passed as another type (<class 'int'> where the compile had <class 'torch.Tensor'>): pass the same "
              "type on every call");
    EXPECT_EQ(recompileFix("0/1: ___check_type_id(pad, 140025035846464), type=<class 'list'>  # if isinstance(pad, tuple):  "
                           "# s.py:4 in f (HINT: type list)"),
              "pad was passed as another type than the compile's <class 'list'>: pass the same type on every call");
    EXPECT_EQ(recompileFix("0/0: len(ys) == 2                                                 # for y in ys:  # s.py:4 in f"),
              "the length of ys changed: keep it fixed, or pass its items as one tensor (`torch.stack`)");
    EXPECT_EQ(recompileFix("0/0: n == 1                                                   # return x + n  # s.py:8 in g"),
              "n is a Python value the graph holds as the constant 1: another value recompiles; if it changes from call "
              "to call, pass it as a tensor (`torch.tensor(...)`)");
    const std::string dynamicAfter = ": this recompile makes it dynamic (a graph input guarded by its type), so later values "
                                     "reuse the recompiled graph; to skip this recompile too, compile with `dynamic=True`";
    EXPECT_EQ(recompileFix("0/0: factor == 2.0                                              # return x * factor  # s.py:3 in f"),
              "factor is a Python number the graph held as the constant 2.0" + dynamicAfter);
    EXPECT_EQ(recompileFix("0/0: n == 12                                                  # return x + n  # s.py:8 in g"),
              "n is a Python number the graph held as the constant 12" + dynamicAfter);
    EXPECT_EQ(recompileFix("0/0: GLOBAL_STATE changed: grad_mode "),
              "it was called under another grad mode than the compile's: call it under the same `torch.no_grad()` "
              "setting, or expect one compile for each");
    EXPECT_EQ(recompileFix("0/0: BACKEND_MATCH failure: torch.compile detected different backend callables."),
              "the function is compiled by two backends: compile it once and reuse the compiled function");
    EXPECT_EQ(recompileFix("0/0: self.training == True                                     # x = self.drop(x)  # m.py:9 in forward"), "")
        << "no advice where a module's own state changed";
    EXPECT_EQ(recompileFix("0/0: something else"), "");
}

// The advice as an edit (what the workbench applies in one click): the line before the first
// call, indented as it, marks the variable passed for x dynamic; applied, the program runs
// with one compile.
TEST(RecompileDoctor, ASizeRecompileCarriesTheEditThatAvoidsIt) {
    const std::string script = sizeChange("");
    ScriptRun run = runScript(script, "", "size_change.py");
    ASSERT_EQ(run.error, "");
    auto recompiles = run.eventsOf<fusescope::RecompileEvent>();
    ASSERT_EQ(recompiles.size(), 1u);
    const fusescope::SourceInsert& fix = recompiles[0].fix;
    EXPECT_EQ(fix.file, "size_change.py");
    EXPECT_EQ(fix.line, 8);
    EXPECT_EQ(fix.text, "torch._dynamo.mark_dynamic(x, 0)\n");

    std::string fixed = script;
    size_t lineStart = 0;
    for (int line = 1; line < fix.line; ++line) lineStart = fixed.find('\n', lineStart) + 1;
    fixed.insert(lineStart, fix.text);
    ScriptRun again = runScript(fixed, "", "size_change.py");
    ASSERT_EQ(again.error, "");
    EXPECT_EQ(again.out, run.out);
    EXPECT_EQ(again.compiles, 1);
    EXPECT_TRUE(again.eventsOf<fusescope::RecompileEvent>().empty());
}

// A module's first call, inside a function body: the argument after self, indented as the
// call's statement.
TEST(RecompileDoctor, TheEditOfAModuleCallIsIndentedAsItsStatement) {
    ScriptRun run = runScript("import torch\n"
                              "model = torch.compile(torch.nn.Linear(4, 2), backend=\"eager\")\n"
                              "def main():\n"
                              "    batch = torch.ones(3, 4)\n"
                              "    print(model(batch).shape)\n"
                              "    print(model(torch.ones(5, 4)).shape)\n"
                              "main()\n");
    ASSERT_EQ(run.error, "");
    auto recompiles = run.eventsOf<fusescope::RecompileEvent>();
    ASSERT_EQ(recompiles.size(), 1u);
    EXPECT_EQ(recompiles[0].fix.line, 5);
    EXPECT_EQ(recompiles[0].fix.text, "    torch._dynamo.mark_dynamic(batch, 0)\n");
}

// The first call passed an expression, not a variable: no edit, the advice stays words.
TEST(RecompileDoctor, NoEditWhereTheFirstCallPassedNoVariable) {
    ScriptRun run = runScript("import torch\n"
                              "f = torch.compile(lambda x: x * 2, backend=\"eager\")\n"
                              "for n in [2, 3]:\n"
                              "    print(f(torch.ones(n)).shape)\n");
    ASSERT_EQ(run.error, "");
    auto recompiles = run.eventsOf<fusescope::RecompileEvent>();
    ASSERT_EQ(recompiles.size(), 1u);
    EXPECT_EQ(recompiles[0].fix.text, "");
}

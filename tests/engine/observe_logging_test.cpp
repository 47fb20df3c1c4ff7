// The logging system: trace_source with inline depths, artifact selection, the CLI's
// FUSESCOPE_LOGS / FUSESCOPE_LOGS_OUT handling and exit codes.
#include <gtest/gtest.h>

#include "observe/log_registry.h"
#include "test_support.h"

using fusescope::test::readFile;
using fusescope::test::runCli;
using fusescope::test::runScript;
using fusescope::test::writeTempFile;

TEST(TraceSource, ShowsOnlyTracedLinesWithInlineDepth) {
    auto run = runScript(R"(import torch

def fn3(x):
    return x * 4

def fn2(x):
    x = fn3(x)
    return x * 3

@torch.compile(backend="eager")
def fn1(x):
    if x.shape[0] > 1:
        x = fn2(x)
    else:
        x = x - 1
    return x * 2

print(fn1(torch.ones(2)))
)",
                         "trace_source");
    ASSERT_EQ(run.error, "");
    EXPECT_EQ(run.out, "tensor([24., 24.])\n");
    EXPECT_EQ(run.logs,
              "[0/0] [__trace_source] TRACE starts_line script.py:12 in fn1\n    if x.shape[0] > 1:\n"
              "[0/0] [__trace_source] TRACE starts_line script.py:13 in fn1\n    x = fn2(x)\n"
              "[0/0] [__trace_source] TRACE starts_line script.py:7 in fn2 (inline depth: 1)\n    x = fn3(x)\n"
              "[0/0] [__trace_source] TRACE starts_line script.py:4 in fn3 (inline depth: 2)\n    return x * 4\n"
              "[0/0] [__trace_source] TRACE starts_line script.py:8 in fn2 (inline depth: 1)\n    return x * 3\n"
              "[0/0] [__trace_source] TRACE starts_line script.py:16 in fn1\n    return x * 2\n");
}

TEST(TraceCall, MarksTheOperatorUnderTheSourceLine) {
    auto run = runScript(R"(import torch

@torch.compile(backend="eager")
def fn(x):
    x = x * 2
    torch._dynamo.graph_break()
    return torch.relu(x * 3)

fn(torch.ones(2))
)",
                         "trace_call");
    // PyTorch 2.15's words and markers (after the break, the code runs as Dynamo's resume
    // function, a frame of its own: 1/0); PyTorch logs the first call twice, as it traces the
    // frame again after the break.
    EXPECT_EQ(run.logs,
              "[0/0] [__trace_call] TRACE FX call mul from script.py:5 in fn (fn)\n    x = x * 2\n        ~~^~~\n"
              "[1/0] [__trace_call] TRACE FX call mul from script.py:7 in torch_dynamo_resume_in_fn_at_6 (fn)\n"
              "    return torch.relu(x * 3)\n"
              "                      ~~^~~\n"
              "[1/0] [__trace_call] TRACE FX call relu from script.py:7 in torch_dynamo_resume_in_fn_at_6 (fn)\n"
              "    return torch.relu(x * 3)\n"
              "           ~~~~~~~~~~^^^^^^^\n");
}

TEST(LogSettings, ComponentLevelsAndArtifacts) {
    using namespace fusescope;
    LogSettings s = LogSettings::parse("+dynamo,recompiles_verbose, -inductor");
    EXPECT_TRUE(s.componentEnabled("dynamo", LogLevel::Debug));
    EXPECT_FALSE(s.componentEnabled("inductor", LogLevel::Warning));
    EXPECT_TRUE(s.componentEnabled("aot", LogLevel::Warning));
    EXPECT_FALSE(s.componentEnabled("aot", LogLevel::Info));
    EXPECT_TRUE(s.artifactEnabled("recompiles_verbose"));
    EXPECT_TRUE(s.artifactEnabled("graph_breaks"));   // comes with +dynamo
    EXPECT_FALSE(s.artifactEnabled("trace_source"));  // verbose artifacts don't
    EXPECT_THROW(LogSettings::parse("+graph"), Error);
}

TEST(LogSettings, SetLogsFromAScript) {
    auto run = runScript(R"(import torch
import logging

torch._logging.set_logs(graph_breaks=True)

@torch.compile(backend="eager")
def fn(x):
    torch._dynamo.graph_break()
    return x + 1

fn(torch.ones(1))
torch._logging.set_logs(graph=5)
)");
    EXPECT_NE(run.logs.find("[__graph_breaks] Graph break in user code at script.py:8"), std::string::npos) << run.logs;
    EXPECT_EQ(run.error, "script.py:12:1: error: ValueError: Expected bool to enable artifact graph, received 5");
}

TEST(Cli, UnknownLogNameExitsTwoListingValidNames) {
    std::string script = writeTempFile("ok.py", "print(1)\n");
    auto r = runCli({"run", script}, {"FUSESCOPE_LOGS=recompiles,bogus"});
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_EQ(r.out, "");
    EXPECT_EQ(r.err,
              "fusescope-cli: error: invalid log setting 'bogus': must be a comma-separated list of component names "
              "(optionally prefixed with + or -) or artifact names.\n"
              "Valid names: dynamo, aot, inductor, graph, graph_code, graph_breaks, guards, verbose_guards, recompiles, "
              "recompiles_verbose, trace_source, trace_call, dynamic, aot_graphs, aot_joint_graph, realize, ir_pre_fusion, "
              "ir_post_fusion, schedule, fusion, output_code, perf_hints\n");
    auto flag = runCli({"run", script, "--logs", "nope"});
    EXPECT_EQ(flag.exitCode, 2);
}

TEST(Cli, LogsOutFileEqualsStderr) {
    std::string script = writeTempFile("recompile.py", R"(import torch

@torch.compile(backend="eager")
def fn(a):
    return a.sum()

print(fn(torch.ones(5)))
print(fn(torch.ones(6)))
)");
    std::string logFile = writeTempFile("logs.txt", "stale");
    auto r = runCli({"run", script}, {"FUSESCOPE_LOGS=+dynamo,recompiles", "FUSESCOPE_LOGS_OUT=" + logFile});
    EXPECT_EQ(r.exitCode, 0);
    EXPECT_EQ(r.out, "tensor(5.)\ntensor(6.)\n");
    EXPECT_NE(r.err.find("[0/1] [__recompiles] Recompiling function fn in "), std::string::npos) << r.err;
    EXPECT_EQ(readFile(logFile), r.err);
}

// sys.exit ends the run as Python's does: its status, no error printed (a text is printed
// and the status is 1).
TEST(Cli, SysExitEndsTheRunWithItsStatus) {
    const std::pair<const char*, int> cases[] = {{"sys.exit()", 0}, {"sys.exit(3)", 3}, {"raise SystemExit(0)", 0}, {"exit(4)", 4}, {"quit()", 0}};
    for (const auto& [line, status] : cases) {
        SCOPED_TRACE(line);
        auto r = runCli({"run", writeTempFile("exits.py", std::string("import sys\nprint('before')\n") + line + "\nprint('after')\n")});
        EXPECT_EQ(r.exitCode, status);
        EXPECT_EQ(r.out, "before\n");
        EXPECT_EQ(r.err, "");
    }
    auto text = runCli({"run", writeTempFile("exits.py", "import sys\nsys.exit('bad config')\n")});
    EXPECT_EQ(text.exitCode, 1);
    EXPECT_EQ(text.err, "bad config\n");
}

TEST(Cli, ScriptErrorExitsOneWithFileLineColumn) {
    std::string script = writeTempFile("bad.py", "import torch\nx = torch.ones(2)\ny = x.frobnicate(3)\n");
    auto r = runCli({"run", script});
    EXPECT_EQ(r.exitCode, 1);
    EXPECT_EQ(r.err, script + ":3:7: error: AttributeError: 'Tensor' object has no attribute 'frobnicate'\n");
    std::string numpy = writeTempFile("np.py", "import torch\nimport numpy\n");
    auto n = runCli({"run", numpy});
    EXPECT_EQ(n.exitCode, 1);
    // zlib is among them where the engine was built with zlib.
    const std::string start = numpy + ":2:8: error: ModuleNotFoundError: No module named 'numpy' (Fusescope scripts import "
                                           "torch, __future__, abc, argparse, ast, base64, binascii, collections, contextlib, copy, "
                                           "dataclasses, enum, functools, gzip, inspect, itertools, json, logging, math, numbers, operator, os, "
                                           "pickle, posixpath, random, re, safetensors, string, struct, sys, tempfile, time, typing, warnings";
    EXPECT_EQ(n.err.substr(0, start.size()), start);
    EXPECT_TRUE(n.err.ends_with(" and their own modules beside them)\n")) << n.err;
}

// What re's engine cannot match as Python does is refused, at the line that compiles it.
TEST(Cli, RegularExpressionsFusescopeCannotMatchAreRefused) {
    std::string script = writeTempFile("lookbehind.py", "import re\nprint(re.search(r'(?<=a)b', 'ab'))\n");
    auto r = runCli({"run", script});
    EXPECT_EQ(r.exitCode, 1);
    EXPECT_EQ(r.err, script + ":2:1: error: re.error: lookbehind assertions (?<=...) and (?<!...) are not supported by "
                                "Fusescope's re at position 0\n");
}

TEST(Cli, BadUsageExitsTwo) {
    EXPECT_EQ(runCli({}).exitCode, 2);
    EXPECT_EQ(runCli({"frob"}).exitCode, 2);
    EXPECT_EQ(runCli({"run"}).exitCode, 2);
    EXPECT_EQ(runCli({"run", "/nonexistent/script.py"}).exitCode, 2);
    EXPECT_EQ(runCli({"run", "x.py", "--backend"}).exitCode, 2);
    auto help = runCli({"--help"});
    EXPECT_EQ(help.exitCode, 0);
    EXPECT_NE(help.out.find("usage: fusescope-cli run SCRIPT"), std::string::npos);
    auto runHelp = runCli({"run", "--help"});  // asks for the usage, not a run of a script named --help
    EXPECT_EQ(runHelp.exitCode, 0);
    EXPECT_EQ(runHelp.out, help.out);
}

TEST(Cli, EventsFileHoldsOneJsonObjectPerLine) {
    std::string script = writeTempFile("events.py", R"(import torch

@torch.compile(backend="eager")
def fn(a):
    return a * 2

fn(torch.ones(2))
)");
    std::string events = writeTempFile("events.jsonl", "");
    auto r = runCli({"run", script, "--events", events});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    std::string text = readFile(events);
    EXPECT_NE(text.find("{\"compile_id\":\"0/0\""), std::string::npos) << text;
    EXPECT_NE(text.find("\"type\":\"graph_captured\""), std::string::npos);
    EXPECT_NE(text.find("\"type\":\"guards\""), std::string::npos);
}

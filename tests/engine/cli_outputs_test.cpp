// What fusescope-cli owes a user whatever goes wrong around a run: an output that cannot be
// written whole is an error (exit 1), a folder is not a script, and Ctrl+C or SIGTERM stops
// the run where it is, says where, and still writes the bundle and events asked for.
#include <signal.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <thread>

#include <fmt/format.h>
#include <csignal>

#include <gtest/gtest.h>

#include "bundle/bundle_reader.h"
#include "bundle/zip_archive.h"
#include "test_support.h"

namespace fs = std::filesystem;
using namespace fusescope;
using namespace fusescope::test;

namespace {

// Whether process pid has a handler installed for `signal` (/proc's SigCgt mask).
bool catches(int pid, int signal) {
    std::ifstream status("/proc/" + std::to_string(pid) + "/status");
    for (std::string line; std::getline(status, line);)
        if (line.rfind("SigCgt:", 0) == 0) return (std::stoull(line.substr(7), nullptr, 16) >> (signal - 1)) & 1;
    return false;
}

// 2**40 additions in one eager op: hours of work, unless the op notices it was stopped.
const char* const kLongSum = "import torch\nprint('started')\ntotal = torch.ones(1).expand(2**40).sum()\nprint('never')\n";

}  // namespace

TEST(CliOutputs, AnOutputThatCannotBeWrittenWholeIsAnError) {
    std::string script = writeTempFile("outputs.py", "print('hello')\n");
    ProcessResult events = runCli({"run", script, "--events", "/dev/full"});
    EXPECT_EQ(events.exitCode, 1);
    EXPECT_EQ(events.err,
              "fusescope-cli: error: cannot write events file '/dev/full': No space left on device (it is incomplete)\n");

    std::string compiled = writeTempFile("logged.py", "import torch\n@torch.compile(backend='eager')\ndef f(x):\n    return x + 1\n"
                                                     "f(torch.ones(2))\nf(torch.ones(3))\n");
    ProcessResult logs = runCli({"run", compiled, "--logs", "recompiles", "--logs-out", "/dev/full"});
    EXPECT_EQ(logs.exitCode, 1);
    EXPECT_NE(logs.err.find("fusescope-cli: error: cannot write log file '/dev/full': "), std::string::npos) << logs.err;

    std::string err = writeTempFile("stdout.err", "");
    EXPECT_EQ(waitCli(startCli({"run", script}, "/dev/full", err)), 1);
    EXPECT_EQ(readFile(err),
              "fusescope-cli: error: cannot write the script's output (stdout): No space left on device (it is incomplete)\n");
}

// An output is never the script, another output, or (for a bundle, renamed into place) a
// device node or pipe: each is refused before the run, leaving what is there as it was.
TEST(CliOutputs, AnOutputThatWouldDestroyAnotherFileIsRefused) {
    const std::string source = "print('hello')\n";
    std::string script = writeTempFile("precious.py", source);
    for (const char* option : {"--events", "--logs-out", "--bundle"}) {
        SCOPED_TRACE(option);
        if (std::string(option) == "--bundle" && !zipAvailable()) continue;  // refused first for want of libzip
        ProcessResult r = runCli({"run", script, option, script});
        EXPECT_EQ(r.exitCode, 2);
        EXPECT_EQ(r.out, "");
        EXPECT_EQ(r.err, fmt::format("fusescope-cli: error: {} {}: that is the input {}, which writing would destroy\n", option, script, script));
        EXPECT_EQ(readFile(script), source);
    }
    std::string shared = writeTempFile("shared.out", "");
    ProcessResult both = runCli({"run", script, "--events", shared, "--logs-out", shared});
    EXPECT_EQ(both.exitCode, 2);
    EXPECT_EQ(both.err, fmt::format("fusescope-cli: error: --events and --logs-out name one file ({}): give each its own\n", shared));

    if (!zipAvailable()) return;
    fs::path pipe = fs::path(testing::TempDir()) / "bundle.pipe";
    fs::remove(pipe);
    ASSERT_EQ(mkfifo(pipe.c_str(), 0600), 0);
    ProcessResult toPipe = runCli({"run", script, "--bundle", pipe.string()});
    EXPECT_EQ(toPipe.exitCode, 2);
    EXPECT_EQ(toPipe.err, fmt::format("fusescope-cli: error: --bundle {}: not a regular file; give a file's path\n", pipe.string()));
    EXPECT_TRUE(fs::is_fifo(pipe));
    fs::remove(pipe);
}

// On a full file system the error names the cause, whatever ran after the failed write
// (which used to leave errno at "No such file or directory").
TEST(CliOutputs, AFullDiskIsSaidAsSuch) {
    fs::path tiny = fs::path(testing::TempDir()) / "tiny-file-system";
    fs::create_directories(tiny);
    if (mount("tmpfs", tiny.c_str(), "tmpfs", 0, "size=64k") != 0)
        GTEST_SKIP() << "cannot mount a small tmpfs here (" << std::strerror(errno) << "): a full disk cannot be made";
    std::ofstream((tiny / "fill").string()) << std::string(80 << 10, 'x');
    std::string script = writeTempFile("full_disk.py", "import torch\nprint(torch.ones(3))\n");
    ProcessResult r = runCli({"run", script, "--events", (tiny / "events.jsonl").string(), "--logs", "output_code", "--logs-out",
                              (tiny / "logs.txt").string()});
    umount(tiny.c_str());
    EXPECT_EQ(r.exitCode, 1);
    EXPECT_NE(r.err.find("cannot write events file '" + (tiny / "events.jsonl").string() + "': No space left on device (it is incomplete)"),
              std::string::npos)
        << r.err;
}

// What the script printed before a crash in generated code reaches a pipe (it used to die
// in the process's buffer), and the crash is said in words, naming the graph, before the
// process dies by the signal.
TEST(CliOutputs, WhatWasPrintedBeforeACrashIsKept) {
    SKIP_WITHOUT_CPP_JIT();
    std::string script = writeTempFile("crashes.py", "import torch\nprint('before the crash')\n@torch.compile\ndef f(x):\n"
                                                     "    return x.sin() + 1\nprint(f(torch.ones(3)))\n");
    ProcessResult r = runCli({"run", script, "--test-hook", "crash-in-generated-code"}, {"ASAN_OPTIONS=handle_segv=0:detect_leaks=0"});
    EXPECT_EQ(r.exitCode, 128 + SIGSEGV);
    EXPECT_EQ(r.out, "before the crash\n");
    EXPECT_EQ(r.err, "fusescope-cli: error: the generated code of graph __compiled_fn_0 (compile 0/0) crashed (SIGSEGV), a "
                     "Fusescope bug. `--backend aot_eager` runs the script without generated code; `--debug-dir DIR` keeps "
                     "each graph and its C++ to report it.\n");
}

// A "script" without end (/dev/zero) is refused at a size no script reaches, not read
// until memory runs out.
TEST(CliOutputs, AScriptWithoutEndIsRefusedAtItsSizeLimit) {
    ProcessResult r = runCli({"run", "/dev/zero"});
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_EQ(r.err, "fusescope-cli: error: cannot read script '/dev/zero': it holds more than 64 MiB, the most a script may\n");
}

TEST(CliOutputs, AnUnwritableDebugTraceIsOneWarningAndExitOne) {
    SKIP_WITHOUT_CPP_JIT();
    std::string script = writeTempFile("debug.py", "import torch\n@torch.compile\ndef f(x):\n    return x.sin() + 1\nf(torch.ones(4))\n");
    ProcessResult r = runCli({"run", script, "--debug-dir", "/proc/no-such-folder/debug"});
    EXPECT_EQ(r.exitCode, 1) << r.err;
    const std::string failure = "cannot write the debug trace to /proc/no-such-folder/debug/f_0_0: No such file or directory";
    EXPECT_EQ(r.err, "[0/0] [inductor] WARNING: " + failure + "\nfusescope-cli: error: " + failure + "\n");
}

TEST(CliOutputs, AFolderIsNotAScript) {
    std::string folder = fs::path(writeTempFile("marker", "")).parent_path().string();
    for (const char* command : {"run", "minify"}) {
        ProcessResult r = runCli({command, folder});
        EXPECT_EQ(r.exitCode, 2) << command;
        EXPECT_EQ(r.err, "fusescope-cli: error: cannot open script '" + folder + "': is a directory\n") << command;
    }
}

TEST(CliOutputs, CtrlCStopsALongEagerOpSaysWhereAndStillWritesTheBundleAndEvents) {
    std::string script = writeTempFile("long.py", kLongSum);
    fs::path dir = fs::path(script).parent_path();
    std::string out = (dir / "long.out").string(), err = (dir / "long.err").string();
    std::string events = (dir / "long.jsonl").string(), bundle = (dir / "long.fscope").string();
    std::vector<std::string> args = {"run", script, "--events", events};
    if (zipAvailable()) args.insert(args.end(), {"--bundle", bundle});
    int pid = startCli(args, out, err);
    for (int i = 0; i < 300 && !catches(pid, SIGINT); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(100));
    std::this_thread::sleep_for(std::chrono::milliseconds(1500));  // well into the sum, on a loaded machine too
    kill(pid, SIGINT);
    EXPECT_EQ(waitCli(pid), 130);  // 128 + SIGINT, before the child's 60 s alarm
    EXPECT_EQ(readFile(out), "started\n");
    EXPECT_EQ(readFile(err), script + ":3:9: error: KeyboardInterrupt: the run was cancelled\n"
                             "fusescope-cli: stopped by SIGINT (Ctrl+C); the outputs asked for are written\n");
    EXPECT_NE(readFile(events).find("\"type\":\"error\""), std::string::npos);
    if (zipAvailable()) {
        Bundle b = readBundle(bundle);
        EXPECT_EQ(b.script, kLongSum);
        EXPECT_EQ(b.events.back()["type"], "error");
    }
}

TEST(CliOutputs, SigtermStopsTheRunToo) {
    std::string script = writeTempFile("term.py", kLongSum);
    std::string out = script + ".out", err = script + ".err";
    int pid = startCli({"run", script}, out, err);
    for (int i = 0; i < 300 && !catches(pid, SIGTERM); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(100));
    std::this_thread::sleep_for(std::chrono::milliseconds(1500));
    kill(pid, SIGTERM);
    EXPECT_EQ(waitCli(pid), 128 + SIGTERM);
    EXPECT_NE(readFile(err).find("fusescope-cli: stopped by SIGTERM"), std::string::npos) << readFile(err);
}

// --timeout stops a run as Ctrl+C does: at its next statement (a loop) or a long eager
// op's next block, saying where, with the outputs still written; exit status 124. A run
// that ends sooner is not held up by it, and a bad value is a usage error.
// A compiled kernel that never returns polls no cancel: --timeout's cancel cannot stop it,
// so 10 s later the process ends there with timeout(1)'s status, saying what it did.
TEST(CliOutputs, ARunThatIgnoresTheTimeoutsCancelIsEndedTenSecondsLater) {
    auto started = std::chrono::steady_clock::now();
    // 3 s: the compile is done (it polls the cancel too) and the kernel is spinning.
    ProcessResult r = runCli({"run", sourcePath("tests/golden/inductor/seed000_fn.py"), "--timeout", "3", "--test-hook",
                              "hang-in-generated-code"});
    auto took = std::chrono::steady_clock::now() - started;
    EXPECT_EQ(r.exitCode, 124) << r.err;
    EXPECT_NE(r.err.find("fusescope-cli: error: the run did not stop within 10 s of its --timeout; ended without writing its "
                         "outputs\n"),
              std::string::npos) << r.err;
    EXPECT_GE(took, std::chrono::seconds(13));
    EXPECT_LT(took, std::chrono::seconds(60));
}

// A script that allocates 4 GB in 4 MB tensors, under a 256 MiB limit: the allocation past
// the limit fails as PyTorch's does, at its line, after what the script printed before.
TEST(CliOutputs, AMemoryLimitTurnsEndlessAllocationIntoTheScriptsErrorAtItsLine) {
#if defined(__SANITIZE_ADDRESS__)
    GTEST_SKIP() << "an AddressSanitizer build applies no memory limit";
#endif
    std::string hog = writeTempFile("hog.py", "import torch\nprint('before')\nkept = []\nfor i in range(1000):\n"
                                              "    kept.append(torch.ones(1000000))\nprint('all kept')\n");
    ProcessResult r = runCli({"run", hog, "--memory-limit", "256"});
    EXPECT_EQ(r.exitCode, 1) << r.err;
    EXPECT_EQ(r.out, "before\n");
    EXPECT_NE(r.err.find("hog.py:5:17: error: RuntimeError: DefaultCPUAllocator: not enough memory: you tried to allocate 4000000 bytes.\n"),
              std::string::npos) << r.err;

    for (const char* bad : {"0", "-5", "lots", "12MB"}) {
        ProcessResult usage = runCli({"run", hog, "--memory-limit", bad});
        EXPECT_EQ(usage.exitCode, 2) << bad;
        EXPECT_EQ(usage.err.rfind("fusescope-cli: error: --memory-limit takes a number of MiB above 0, not '" + std::string(bad) + "'\n", 0), 0u)
            << usage.err;
    }
}

TEST(CliOutputs, TimeoutStopsTheRunWhereItIsAndStillWritesTheEvents) {
    std::string loop = writeTempFile("forever.py", "print('started')\nn = 0\nwhile True:\n    n += 1\n");
    std::string events = loop + ".jsonl";
    ProcessResult r = runCli({"run", loop, "--timeout", "0.5", "--events", events});
    EXPECT_EQ(r.exitCode, 124) << r.err;
    EXPECT_EQ(r.out, "started\n");
    EXPECT_NE(r.err.find(": error: KeyboardInterrupt: the run was cancelled\n"
                         "fusescope-cli: stopped by --timeout 0.5 s; the outputs asked for are written\n"),
              std::string::npos) << r.err;
    EXPECT_NE(readFile(events).find("\"type\":\"error\""), std::string::npos);

    ProcessResult longOp = runCli({"run", writeTempFile("long_op.py", kLongSum), "--timeout", "1"});
    EXPECT_EQ(longOp.exitCode, 124) << longOp.err;
    EXPECT_NE(longOp.err.find(":3:9: error: KeyboardInterrupt"), std::string::npos) << longOp.err;

    auto started = std::chrono::steady_clock::now();
    ProcessResult quick = runCli({"run", writeTempFile("quick.py", "print(1 + 1)\n"), "--timeout", "600"});
    EXPECT_EQ(quick.exitCode, 0) << quick.err;
    EXPECT_EQ(quick.out, "2\n");
    EXPECT_LT(std::chrono::steady_clock::now() - started, std::chrono::seconds(60));

    for (const char* bad : {"0", "-1", "abc", "5s", "nan"}) {
        ProcessResult usage = runCli({"run", loop, "--timeout", bad});
        EXPECT_EQ(usage.exitCode, 2) << bad;
        EXPECT_EQ(usage.err.rfind("fusescope-cli: error: --timeout takes a number of seconds above 0, not '" + std::string(bad) + "'\n", 0), 0u)
            << usage.err;
    }
}

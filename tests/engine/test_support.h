#pragma once
// Helpers shared by the engine test executables.

#include <optional>
#include <string>
#include <vector>

#include "observe/event.h"
#include "session/script_session.h"
#include "toolchain/cpp_jit.h"

namespace fusescope::test {

struct ProcessResult {
    int exitCode = -1;
    std::string out;
    std::string err;
};

// The result of running a script in-process through a ScriptSession.
struct ScriptRun {
    std::string out;             // what the script printed
    std::string logs;            // the formatted log lines, as the CLI prints them
    std::vector<Event> events;   // the whole event stream
    std::string error;           // describeError() of a script error, or ""
    int compiles = 0;
    int directCalls = 0;         // cache hits that ran their graph without the Python (direct_call.h)

    template <class T>
    std::vector<T> eventsOf() const {
        std::vector<T> found;
        for (const auto& e : events)
            if (const auto* t = std::get_if<T>(&e)) found.push_back(*t);
        return found;
    }
};

// Runs source as file `fileName` with FUSESCOPE_LOGS-style settings `logSpec`.
ScriptRun runScript(const std::string& source, const std::string& logSpec = "",
                    const std::string& fileName = "script.py");
// The same with every session option (trace, backend, debug dir, ...).
ScriptRun runScriptWith(const std::string& source, SessionOptions options, const std::string& fileName = "script.py");

// A script body run twice after `import torch`: with COMPILE = torch.compile, and with
// COMPILE a function returning what it is given (eager). Tests compare the two outputs.
struct CompiledAndEager {
    ScriptRun compiled, eager;
};
CompiledAndEager runCompiledAndEager(const std::string& body, const std::string& logSpec = "");
// Both ran without error and printed the same (something).
void expectSameOutput(const CompiledAndEager& runs);

// Runs build/bin/fusescope-cli with args; env entries are "NAME=value" added to the
// environment of the child. stdin is /dev/null. A child still running after timeoutSeconds
// is killed by SIGALRM (exit code 128 + 14).
ProcessResult runCli(const std::vector<std::string>& args, const std::vector<std::string>& env = {},
                     unsigned timeoutSeconds = 60);
// The same in two steps, for a test that acts on the child while it runs: startCli
// returns the child's pid (stdout and stderr go to the named files), waitCli its exit code.
int startCli(const std::vector<std::string>& args, const std::string& outPath, const std::string& errPath,
             const std::vector<std::string>& env = {}, unsigned timeoutSeconds = 60);
int waitCli(int pid);
// Path of the built fusescope-cli.
std::string cliPath();

// Writes text to a fresh file in a per-test temporary directory (a name may have folders)
// and returns its path.
std::string writeTempFile(const std::string& name, const std::string& text);
std::string readFile(const std::string& path);
// Sets an environment variable for a scope, restoring what it was (or its absence) after.
class ScopedEnv {
public:
    ScopedEnv(const char* name, const char* value);
    ~ScopedEnv();
    ScopedEnv(const ScopedEnv&) = delete;
    ScopedEnv& operator=(const ScopedEnv&) = delete;

private:
    std::string name_;
    std::optional<std::string> previous_;
};
// An artifact's log ("graph_breaks", "recompiles") in a CLI run's stderr, as
// tests/scripts/reference/regenerate.py keeps PyTorch's: the text after each line's prefix,
// paths cut to file names, ids left out, addresses masked.
std::string logText(const std::string& err, const std::string& artifact);
// How many times `what` occurs in `text` (overlapping ones included).
int countOccurrences(const std::string& text, const std::string& what);
// Path of a file in the source tree, e.g. sourcePath("resources/examples/x.py").
std::string sourcePath(const std::string& relative);
// The bundled example scripts (resources/examples/*.py), sorted.
std::vector<std::string> exampleScripts();
// Those and the examples of several files (resources/examples/<name>/main.py), sorted by
// exampleName: the golden output is tests/golden/examples/<exampleName>.out.
std::vector<std::string> examplePrograms();
std::string exampleName(const std::string& program);  // "01_quickstart", "17_multi_file"
// A script with every tensor on cuda: the default device set right after `import torch`.
std::string onCudaByDefault(std::string script);
// What a CPU run prints: the device suffix of printed tensors taken out (PyTorch wraps it
// onto its own line when the values are long).
std::string withoutCudaDevice(const std::string& out);
// Output compared across devices: the device suffix taken out and a tensor's trailing
// `grad_fn=`/`requires_grad=` put back on its line (the suffix's length moves where
// PyTorch wraps them). Both sides go through it.
std::string deviceNeutral(const std::string& out);
// tests/scripts/devices/NAME.py, as written (its tensors moved to cuda) and with
// `DEVICE = "cpu"`.
std::string deviceScript(const std::string& name, bool onCpu);

}  // namespace fusescope::test

// For tests that need generated C++ to be compiled and run: builds without LLVM skip them,
// saying why.
#define SKIP_WITHOUT_CPP_JIT()                                                                    \
    if (!::fusescope::CppJit::available())                                                        \
    GTEST_SKIP() << ::fusescope::CppJit::unavailableReason() << ": generated C++ is not compiled"

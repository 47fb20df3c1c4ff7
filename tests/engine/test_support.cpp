#include "test_support.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <regex>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "session/script_session.h"

namespace fusescope::test {

namespace fs = std::filesystem;

namespace {

// One folder per test process, removed when the process exits (only by the process that
// made it: a forked child leaves it to its parent).
class TempDir {
public:
    TempDir() : owner_(getpid()), path_(fs::temp_directory_path() / ("fusescope-test-" + std::to_string(owner_))) {
        fs::create_directories(path_);
    }
    ~TempDir() {
        std::error_code ignored;
        if (getpid() == owner_) fs::remove_all(path_, ignored);
    }
    const fs::path& path() const { return path_; }

private:
    pid_t owner_;
    fs::path path_;
};

const fs::path& tempDir() {
    static TempDir dir;
    return dir.path();
}

}  // namespace

// What differs between two runs of a program in a guards log (regenerate.py's mask_guards):
// objects' and types' ids, the thread count, how long the guards took to check, whether the
// shape guard function's closure names __builtins__.
static std::string maskGuardRun(const std::string& line) {
    static const std::regex ids(R"((___check_(?:obj|type)_id\(.*?, )[0-9]+\))"), threads(R"("num_threads":[0-9]+)"),
        latency(R"(Guard eval latency = [0-9.]+ us)"), optimizer(R"(__optimizer_[0-9]+_[0-9]+_c)"), installed(R"('_[0-9]+_c([0-9]+)')");
    std::string out = std::regex_replace(line, ids, "$1...)");
    out = std::regex_replace(out, optimizer, "__optimizer_..._..._c");
    out = std::regex_replace(out, installed, "'_..._c$1'");
    if (auto at = out.find("math, torch, __builtins__, "); at != std::string::npos) out.erase(at + 13, 14);
    out = std::regex_replace(out, threads, "\"num_threads\":N");
    return std::regex_replace(out, latency, "Guard eval latency = ... us");
}

// Fusescope prefixes only a message's first line
// ("[0/0] [__recompiles] Recompiling ..."); the lines continuing it are its own: for
// recompiles the indented ones, for graph_breaks those up to the blank line ending its user
// code traceback, for any artifact those up to the next log record.
std::string logText(const std::string& err, const std::string& artifact) {
    static const std::regex path(R"((?:[^\s"/`]*/)+([^\s"/`]+\.py))"), package(R"(/[^\s()]*/site-packages/)"),
        id(R"( \(id=0x[0-9a-f]+\))"), address(R"( at 0x[0-9a-f]+)");
    // Another log record ("[0/0] [inductor] WARNING: ...") or a Python warning
    // ("nn.py:131: UserWarning: ...", which PyTorch's log does not hold) ends a message's lines.
    static const std::regex otherRecord(R"(^\[[0-9]+/[0-9]+\] \[|^[^ ]+\.py:[0-9]+: [A-Za-z]*Warning: )");
    const std::string prefix = "[__" + artifact + "] ";
    std::istringstream lines(err);
    std::string out;
    bool inMessage = false, inTraceback = false;
    for (std::string line; std::getline(lines, line);) {
        std::size_t at = line.find(prefix);
        if (at != std::string::npos) {
            line = line.substr(at + prefix.size());
            inMessage = true;
            inTraceback = false;
        } else if (!inMessage || (artifact == "recompiles" && line.rfind("    ", 0) != 0) || std::regex_search(line, otherRecord)) {
            inMessage = false;
            continue;
        }
        if (artifact == "graph_breaks") {
            if (line == "User code traceback:") inTraceback = true;
            else if (inTraceback && line.empty()) inMessage = false;
        }
        line = std::regex_replace(std::regex_replace(line, path, "$1"), package, "");
        line = std::regex_replace(std::regex_replace(line, id, ""), address, " at 0x...");
        out += maskGuardRun(line) + "\n";  // a recompile reason can name an id too
    }
    return out;
}

std::string readFile(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw std::runtime_error("cannot read " + path);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

ScopedEnv::ScopedEnv(const char* name, const char* value) : name_(name) {
    if (const char* was = std::getenv(name)) previous_ = was;
    setenv(name, value, 1);
}

ScopedEnv::~ScopedEnv() {
    if (previous_) setenv(name_.c_str(), previous_->c_str(), 1);
    else unsetenv(name_.c_str());
}

int countOccurrences(const std::string& text, const std::string& what) {
    int count = 0;
    for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++count;
    return count;
}

std::string writeTempFile(const std::string& name, const std::string& text) {
    fs::path p = tempDir() / name;
    fs::create_directories(p.parent_path());  // "pkg/__init__.py": a package of a test's program
    std::ofstream(p, std::ios::binary) << text;
    return p.string();
}

std::string sourcePath(const std::string& relative) {
    return (fs::path(FUSESCOPE_SOURCE_DIR) / relative).string();
}

std::vector<std::string> exampleScripts() {
    std::vector<std::string> scripts;
    for (const auto& entry : std::filesystem::directory_iterator(sourcePath("resources/examples")))
        if (entry.path().extension() == ".py") scripts.push_back(entry.path().string());
    std::sort(scripts.begin(), scripts.end());
    return scripts;
}

std::vector<std::string> examplePrograms() {
    std::vector<std::string> programs = exampleScripts();
    for (const auto& entry : std::filesystem::directory_iterator(sourcePath("resources/examples")))
        if (entry.is_directory() && fs::is_regular_file(entry.path() / "main.py")) programs.push_back((entry.path() / "main.py").string());
    std::sort(programs.begin(), programs.end(), [](const auto& a, const auto& b) { return exampleName(a) < exampleName(b); });
    return programs;
}

std::string exampleName(const std::string& program) {
    fs::path path(program);
    return path.filename() == "main.py" ? path.parent_path().filename().string() : path.stem().string();
}

std::string onCudaByDefault(std::string script) {
    const std::string import = "import torch\n";
    size_t at = script.rfind(import, 0) == 0 ? 0 : script.find("\n" + import) + 1;
    return script.insert(at + import.size(), "torch.set_default_device(\"cuda\")\n");
}

std::string withoutCudaDevice(const std::string& out) {
    return std::regex_replace(out, std::regex(R"(,\s*device='cuda:0')"), "");
}

std::string deviceNeutral(const std::string& out) {
    return std::regex_replace(withoutCudaDevice(out), std::regex(R"(,\n\s+(grad_fn|requires_grad)=)"), ", $1=");
}

std::string deviceScript(const std::string& name, bool onCpu) {
    std::string script = readFile(sourcePath("tests/scripts/devices/" + name + ".py"));
    if (onCpu) script = std::regex_replace(script, std::regex(R"(\nDEVICE = "cuda"\n)"), "\nDEVICE = \"cpu\"\n");
    return writeTempFile(name + (onCpu ? "_cpu.py" : ".py"), script);
}

ScriptRun runScript(const std::string& source, const std::string& logSpec, const std::string& fileName) {
    SessionOptions options;
    options.logs = LogSettings::parse(logSpec);
    return runScriptWith(source, std::move(options), fileName);
}

ScriptRun runScriptWith(const std::string& source, SessionOptions options, const std::string& fileName) {
    ScriptSession session(std::move(options));
    ScriptRun run;
    session.bus().subscribe([&](const Event& event) {
        run.events.push_back(event);
        if (const auto* log = std::get_if<LogEvent>(&event)) run.logs += log->formatted() + "\n";
        if (const auto* out = std::get_if<ScriptOutputEvent>(&event)) run.out += out->text;
    });
    try {
        session.run(source, fileName);
    } catch (const Error& e) {
        run.error = describeError(e);
    }
    run.compiles = session.compileCount();
    run.directCalls = session.directCallCount();
    return run;
}

CompiledAndEager runCompiledAndEager(const std::string& body, const std::string& logSpec) {
    return {runScript("import torch\nCOMPILE = torch.compile\n" + body, logSpec),
            runScript("import torch\ndef COMPILE(f):\n    return f\n" + body, logSpec)};
}

void expectSameOutput(const CompiledAndEager& runs) {
    ASSERT_EQ(runs.compiled.error, "");
    ASSERT_EQ(runs.eager.error, "");
    EXPECT_EQ(runs.compiled.out, runs.eager.out);
    EXPECT_NE(runs.compiled.out, "");
}

std::string cliPath() { return FUSESCOPE_CLI; }

int startCli(const std::vector<std::string>& args, const std::string& outPath, const std::string& errPath,
             const std::vector<std::string>& env, unsigned timeoutSeconds) {
    pid_t pid = fork();
    if (pid < 0) throw std::runtime_error("fork failed");
    if (pid == 0) {
        for (const auto& e : env) putenv(strdup(e.c_str()));
        freopen("/dev/null", "r", stdin);
        freopen(outPath.c_str(), "w", stdout);
        freopen(errPath.c_str(), "w", stderr);
        alarm(timeoutSeconds);  // a hung child dies of SIGALRM: exit code 142, never a hung test
        std::vector<char*> argv;
        std::string cli = FUSESCOPE_CLI;
        argv.push_back(cli.data());
        std::vector<std::string> copy = args;
        for (auto& a : copy) argv.push_back(a.data());
        argv.push_back(nullptr);
        execv(cli.c_str(), argv.data());
        _exit(127);
    }
    return pid;
}

int waitCli(int pid) {
    int status = 0;
    waitpid(pid, &status, 0);
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

ProcessResult runCli(const std::vector<std::string>& args, const std::vector<std::string>& env, unsigned timeoutSeconds) {
    static int counter = 0;
    std::string outPath = (tempDir() / ("out" + std::to_string(++counter))).string();
    std::string errPath = outPath + ".err";
    ProcessResult r;
    r.exitCode = waitCli(startCli(args, outPath, errPath, env, timeoutSeconds));
    r.out = readFile(outPath);
    r.err = readFile(errPath);
    return r;
}

}  // namespace fusescope::test

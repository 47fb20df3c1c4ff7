// Compile at model scale: generated graphs of 1k to 50k ops in four shapes, each compiled
// cold by a fresh `fusescope-cli run` (its own empty kernel cache), reporting wall time and
// peak memory (the child's maximum resident set). Linear growth shows as a steady time per
// 1k ops; each size's ratio is against the family's smallest graph in the same run.
//
// usage: bench_compile_scale [SIZES...]      (default: 1000 5000 20000 50000)

#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;

// A graph family: its inputs, one loop iteration's body (`opsPerIteration` ops), what it returns.
struct Family {
    const char* name;
    int opsPerIteration;
    const char* inputs;
    const char* body;
    const char* result;
};

const std::vector<Family> kFamilies = {
    {"pointwise chain", 3, "x = torch.linspace(-1.0, 1.0, 1024)\ny = torch.linspace(0.0, 0.5, 1024)",
     "        x = torch.sin(x) * 1.01 + y", "x"},
    {"chain + reductions", 6,
     "x = torch.linspace(-1.0, 1.0, 1024).reshape(16, 64)\ny = torch.linspace(0.0, 0.5, 1024).reshape(16, 64)",
     "        x = torch.tanh(x * 1.01 + y)\n        x = x - x.amax(1, keepdim=True) * 0.5", "x"},
    {"fan-out of one input", 3, "x = torch.linspace(-1.0, 1.0, 1024)\ny = torch.zeros(1024)",
     "        y = y + torch.cos(x * (0.001 * i))", "y"},
    {"residual blocks", 6,
     "x = torch.linspace(-1.0, 1.0, 1024).reshape(16, 64)\ny = torch.linspace(-0.1, 0.1, 4096).reshape(64, 64)",
     "        x = x + torch.tanh(torch.mm(x - x.mean(1, keepdim=True), y) * 0.05)", "x"},
};

std::string script(const Family& f, int ops) {
    std::ostringstream s;
    s << "import torch\n\n" << f.inputs << "\n\n@torch.compile\ndef f(x, y):\n    for i in range(" << ops / f.opsPerIteration
      << "):\n" << f.body << "\n    return " << f.result << "\n\nprint(f(x, y).sum())\n";
    return s.str();
}

struct Measured {
    double seconds = 0;
    double peakMiB = 0;
    long ops = 0;  // as the compile report counts them
    bool ok = false;
};

// Runs the CLI on `path` with an empty kernel cache; its stdout and stderr go to `out`.
Measured runCold(const fs::path& path, const fs::path& cacheDir, const fs::path& out) {
    fs::remove_all(cacheDir);
    fs::create_directories(cacheDir);
    std::fflush(stdout);  // or the child's freopen writes what is buffered a second time
    auto start = std::chrono::steady_clock::now();
    pid_t pid = fork();
    if (pid == 0) {
        setenv("FUSESCOPE_CACHE_DIR", cacheDir.c_str(), 1);
        if (!freopen(out.c_str(), "w", stdout) || dup2(fileno(stdout), STDERR_FILENO) < 0) _exit(126);  // the report is on stderr
        execl(FUSESCOPE_CLI, FUSESCOPE_CLI, "run", path.c_str(), "--report", static_cast<char*>(nullptr));
        _exit(127);
    }
    int status = 0;
    rusage usage{};
    wait4(pid, &status, 0, &usage);
    Measured m;
    m.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    m.peakMiB = usage.ru_maxrss / 1024.0;
    m.ok = WIFEXITED(status) && WEXITSTATUS(status) == 0;
    std::ifstream report(out);
    std::string text((std::istreambuf_iterator<char>(report)), std::istreambuf_iterator<char>());
    std::smatch match;
    if (std::regex_search(text, match, std::regex(R"(Total: .* (\d+) ops)"))) m.ops = std::stol(match[1]);
    return m;
}

}  // namespace

int main(int argc, char** argv) {
    std::vector<int> sizes;
    for (int i = 1; i < argc; ++i) sizes.push_back(std::atoi(argv[i]));
    if (sizes.empty()) sizes = {1000, 5000, 20000, 50000};
    fs::path dir = fs::temp_directory_path() / ("fusescope-bench-scale-" + std::to_string(getpid()));
    fs::create_directories(dir);
    std::printf("%-22s %8s %9s %9s %12s %8s\n", "graph", "ops", "seconds", "peak MiB", "s per 1k ops", "ratio");
    bool failed = false;
    for (const Family& family : kFamilies) {
        double baseline = 0;
        for (int size : sizes) {
            fs::path path = dir / "graph.py";
            std::ofstream(path) << script(family, size);
            Measured m = runCold(path, dir / "cache", dir / "out.txt");
            double perK = m.seconds / (m.ops ? m.ops : size) * 1000;
            if (baseline == 0) baseline = perK;
            std::printf("%-22s %8ld %9.2f %9.0f %12.3f %8.2f%s\n", family.name, m.ops, m.seconds, m.peakMiB, perK, perK / baseline,
                        m.ok ? "" : "  FAILED");
            std::fflush(stdout);
            failed |= !m.ok;
        }
    }
    fs::remove_all(dir);
    return failed ? 1 : 0;
}

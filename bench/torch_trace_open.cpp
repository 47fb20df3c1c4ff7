// Opening a large TORCH_TRACE log (issue 22's target: 100 MB in under 3 s, memory under 3x
// the file). The log is the committed real-PyTorch fixtures written again and again, each
// copy's frame ids moved past the last copy's, so every compile is a compile of its own.
// Measures reading the records and importing them into events, beside the baseline of
// reading the file's lines and nothing else, in the same run; and the peak memory the open
// added, against the file's size.
//
//   build/bin/bench_torch_trace_open [MB=100] [engine|workbench]
// engine: the records read and imported into events; workbench: what File > Open does (the
// same, then the events as the workbench's store keeps them), in a build with Qt.
#include <sys/resource.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>

#include "torch_trace/trace_log_files.h"
#ifdef FUSESCOPE_BENCH_WORKBENCH
#include "model/torch_trace_run.h"
#endif

namespace fs = std::filesystem;
using namespace fusescope;

namespace {

double seconds(std::chrono::steady_clock::time_point since) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - since).count();
}

long peakKb() {
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    return usage.ru_maxrss;
}

// Writes the fixtures again and again until `bytes`, each copy's frame ids shifted.
void writeLargeLog(const fs::path& path, size_t bytes) {
    std::vector<std::string> logs;
    for (const auto& dir : fs::directory_iterator(FUSESCOPE_SOURCE_DIR "/tests/fixtures/torch_trace")) {
        fs::path log = dir.path() / "dedicated_log_torch_trace_fixture.log";
        if (!fs::exists(log)) continue;
        std::ifstream in(log);
        std::stringstream text;
        text << in.rdbuf();
        logs.push_back(text.str());
    }
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    static const std::regex frame(R"("frame_id": (\d+))");
    size_t written = 0;
    for (int copy = 0; written < bytes; ++copy)
        for (const std::string& log : logs) {
            std::string shifted;
            std::sregex_iterator it(log.begin(), log.end(), frame), end;
            size_t from = 0;
            for (; it != end; ++it) {
                shifted.append(log, from, it->position() - from);
                shifted += "\"frame_id\": " + std::to_string(std::stoi((*it)[1]) + copy * 8);
                from = it->position() + it->length();
            }
            shifted.append(log, from, std::string::npos);
            out << shifted;
            written += shifted.size();
        }
}

}  // namespace

int main(int argc, char** argv) {
    size_t megabytes = argc > 1 ? std::stoul(argv[1]) : 100;
    fs::path path = fs::temp_directory_path() / "fusescope_bench_dedicated_log_torch_trace_large.log";
    writeLargeLog(path, megabytes << 20);
    double fileMb = static_cast<double>(fs::file_size(path)) / (1 << 20);

    auto start = std::chrono::steady_clock::now();
    size_t lines = 0;
    {
        std::ifstream in(path);
        for (std::string line; std::getline(in, line);) ++lines;
    }
    double baseline = seconds(start);

    bool workbench = argc > 2 && std::string(argv[2]) == "workbench";
    long before = peakKb();
    start = std::chrono::steady_clock::now();
    size_t events = 0, compiles = 0, warnings = 0;
    if (!workbench) {
        TorchTraceImport imported = loadTraceLog(path.string());
        events = imported.events.size();
        warnings = imported.warnings.size();
        for (const Event& e : imported.events) compiles += std::holds_alternative<CompileStartedEvent>(e);
    } else {
#ifdef FUSESCOPE_BENCH_WORKBENCH
        // What the workbench does on File > Open: the same, then the events as its store keeps them.
        gui::TorchTraceRun run = gui::loadTorchTraceRun(path.string());
        events = run.events.events.size() + run.events.traces.size();
        compiles = run.compiles;
        warnings = run.warnings.size();
#else
        std::fprintf(stderr, "built without the workbench (Qt)\n");
        return 2;
#endif
    }
    double open = seconds(start);
    double addedMb = static_cast<double>(peakKb() - before) / 1024;
    std::printf("log: %.1f MB, %zu lines, %zu events, %zu compiles, %zu warnings\n", fileMb, lines, events, compiles, warnings);
    std::printf("reading the lines only: %.2f s\n", baseline);
    std::printf("%s open: %.2f s (%.1fx the lines-only read)\n", workbench ? "workbench" : "engine", open, open / baseline);
    std::printf("peak memory added: %.0f MB (%.2fx the file)\n", addedMb, addedMb / fileMb);
    fs::remove(path);
    return 0;
}

// Trace bundles (.fscope): a run exported with --bundle reads back as it was written (events,
// browsable files, logs, script, manifest); inspect counts what it holds; every hostile
// bundle is refused with its message and exit status 1 without writing outside the chosen
// folder; a failed or interrupted export never leaves a bundle or temporary file behind.

#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <regex>
#include <set>
#include <sstream>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "bundle/bundle_format.h"
#include "bundle/bundle_reader.h"
#include "bundle/bundle_recorder.h"
#include "bundle/bundle_torch_side.h"
#include "bundle/bundle_writer.h"
#include "bundle/zip_archive.h"
#include "test_support.h"

namespace fusescope::test {
namespace {

namespace fs = std::filesystem;
using Entries = std::map<std::string, std::string>;

#define SKIP_WITHOUT_LIBZIP() \
    if (!zipAvailable()) GTEST_SKIP() << zipUnavailableReason()

// A fresh, empty folder for one test.
fs::path freshDir(const std::string& name) {
    fs::path dir = fs::path(writeTempFile("marker", "")).parent_path() / name;
    fs::remove_all(dir);
    fs::create_directories(dir);
    return dir;
}

// Every file below dir: relative path -> bytes.
Entries filesBelow(const fs::path& dir) {
    Entries files;
    for (const auto& e : fs::recursive_directory_iterator(dir))
        if (e.is_regular_file()) files[fs::relative(e.path(), dir).string()] = readFile(e.path().string());
    return files;
}

// Every path below dir, files and folders, to compare before and after.
std::set<std::string> listing(const fs::path& dir) {
    std::set<std::string> paths;
    for (const auto& e : fs::recursive_directory_iterator(dir)) paths.insert(fs::relative(e.path(), dir).string());
    return paths;
}

std::vector<nlohmann::json> jsonLines(const std::string& text) {
    std::vector<nlohmann::json> lines;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) lines.push_back(nlohmann::json::parse(line));
    return lines;
}

size_t countType(const std::vector<nlohmann::json>& events, const std::string& type) {
    return std::count_if(events.begin(), events.end(), [&](const auto& e) { return e["type"] == type; });
}

// An example run under inductor with --bundle, and beside it the same run's --events file,
// --logs-out file and debug-trace folder to compare the bundle with.
struct BundledRun {
    fs::path dir, bundle, events, logs, debug;
    std::string script;
    ProcessResult result;
};

BundledRun bundledRun(const std::string& example, const std::string& logSpec) {
    BundledRun r;
    r.dir = freshDir("run-" + example);
    r.script = sourcePath("resources/examples/" + example);
    r.bundle = r.dir / "run.fscope";
    r.events = r.dir / "events.jsonl";
    r.logs = r.dir / "logs.txt";
    r.debug = r.dir / "debug";
    r.result = runCli({"run", r.script, "--backend", "inductor", "--logs", logSpec, "--logs-out", r.logs.string(),
                       "--events", r.events.string(), "--debug-dir", r.debug.string(), "--bundle", r.bundle.string()});
    return r;
}

const BundledRun& graphBreaksRun() {
    static BundledRun run = bundledRun("02_graph_breaks.py", "graph_breaks");
    return run;
}

TEST(Bundle, RoundTripGivesBackTheEventsAndTheDebugTraceFiles) {
    SKIP_WITHOUT_LIBZIP();
    const BundledRun& run = graphBreaksRun();
    ASSERT_EQ(run.result.exitCode, 0) << run.result.err;
    Bundle bundle = readBundle(run.bundle.string());

    std::vector<nlohmann::json> written = jsonLines(readFile(run.events.string()));
    EXPECT_GT(countType(written, "graph_break"), 0u);
    EXPECT_GT(countType(written, "trace_event"), 0u);  // the bundle turned tracing on
    EXPECT_EQ(bundle.events, written);

    Entries browsable;
    for (const auto& [name, bytes] : bundle.files)
        if (name.rfind(kCompilesFolder, 0) == 0) browsable[name.substr(std::string(kCompilesFolder).size())] = bytes;
    Entries debug = filesBelow(run.debug);
    ASSERT_GT(debug.size(), 20u);
    EXPECT_EQ(browsable, debug);
    EXPECT_TRUE(debug.count("with_print_0_0/guards.txt"));

    EXPECT_EQ(bundle.script, readFile(run.script));
    EXPECT_EQ(bundle.files.at(kLogsEntry), readFile(run.logs.string()));
    nlohmann::json et = nlohmann::json::parse(bundle.files.at(kExecutionTraceEntry));
    EXPECT_EQ(et["nodes"][0]["name"], "[pytorch|profiler|execution_trace|process]");
    nlohmann::json chrome = nlohmann::json::parse(bundle.files.at(kChromeTraceEntry));
    EXPECT_FALSE(chrome["traceEvents"].empty());
}

TEST(Bundle, ManifestRecordsFormatEngineTimeScriptDeviceAndOptions) {
    SKIP_WITHOUT_LIBZIP();
    const BundledRun& run = graphBreaksRun();
    ASSERT_EQ(run.result.exitCode, 0) << run.result.err;
    BundleManifest m = readBundle(run.bundle.string()).manifest;
    EXPECT_EQ(m.formatVersion, "1.1");
    EXPECT_EQ(m.engineVersion, engineVersion());
    EXPECT_TRUE(std::regex_match(m.created, std::regex(R"(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ)"))) << m.created;
    EXPECT_EQ(m.script, "02_graph_breaks.py");
    EXPECT_EQ(m.scriptPath, sourcePath("resources/examples/02_graph_breaks.py"));  // as its locations name it
    EXPECT_EQ(m.device, "cpu");
    EXPECT_EQ(m.options, (nlohmann::json{{"backend", "inductor"}, {"logs", "graph_breaks"}, {"trace", true},
                                         {"gpu_codegen_only", false}, {"cuda_arch", "sm_90"}, {"check_accuracy", false}}));
}

TEST(Bundle, InspectPrintsTheExactCounts) {
    SKIP_WITHOUT_LIBZIP();
    const BundledRun& breaks = graphBreaksRun();
    BundledRun recompiles = bundledRun("03_recompiles.py", "recompiles");
    ASSERT_EQ(recompiles.result.exitCode, 0) << recompiles.result.err;
    struct Expected {
        const BundledRun* run;
        const char* counts;
    };
    for (const Expected& x : {Expected{&breaks,
                                       "compiles:      9\ngraphs:        9\nrecompiles:    0\nguards failed: 0\n"
                                       "graph breaks:  4\nkernels:       9\n"},
                              Expected{&recompiles,
                                       "compiles:      4\ngraphs:        4\nrecompiles:    3\nguards failed: 6\n"
                                       "graph breaks:  0\nkernels:       4\n"}}) {
        ProcessResult r = runCli({"bundle", "inspect", x.run->bundle.string()});
        ASSERT_EQ(r.exitCode, 0) << r.err;
        EXPECT_NE(r.out.find(x.counts), std::string::npos) << r.out;
        std::vector<nlohmann::json> events = jsonLines(readFile(x.run->events.string()));
        EXPECT_NE(r.out.find(fmt::format("\ntrace events:  {}\n", countType(events, "trace_event"))), std::string::npos)
            << r.out;
        EXPECT_NE(r.out.find(fmt::format("\nevents:        {}\n", events.size())), std::string::npos) << r.out;
        EXPECT_NE(r.out.find("\nscript:        " + fs::path(x.run->script).filename().string() + "\n"), std::string::npos);
        EXPECT_NE(r.out.find("\nengine:        " + engineVersion() + "\n"), std::string::npos);
        EXPECT_TRUE(std::regex_search(r.out, std::regex(R"(\ncreated:       \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ\n)")));
    }
}

TEST(Bundle, ExtractWritesEveryFileAndRefusesToOverwrite) {
    SKIP_WITHOUT_LIBZIP();
    const BundledRun& run = graphBreaksRun();
    ASSERT_EQ(run.result.exitCode, 0) << run.result.err;
    fs::path out = freshDir("extract") / "new" / "folder";
    ProcessResult r = runCli({"bundle", "extract", run.bundle.string(), out.string()});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_EQ(filesBelow(out), readBundle(run.bundle.string()).files);

    std::set<std::string> before = listing(out);
    std::string manifest = readFile((out / kManifestEntry).string());
    std::ofstream(out / kManifestEntry) << "edited";
    ProcessResult again = runCli({"bundle", "extract", run.bundle.string(), out.string()});
    EXPECT_EQ(again.exitCode, 1);
    EXPECT_NE(again.err.find("already exists; extract into an empty or new folder"), std::string::npos) << again.err;
    EXPECT_EQ(listing(out), before);
    EXPECT_EQ(readFile((out / kManifestEntry).string()), "edited");
}

// The smallest bundle a reader accepts, for the hostile variants below to change.
Entries minimalBundle() {
    return {{kManifestEntry, makeManifest("s.py", "cpu", nlohmann::json::object()).toJson().dump()},
            {std::string(kScriptFolder) + "s.py", "print(1)\n"},
            {kEventsEntry, R"({"type":"script_output","text":"1\n"})" "\n"}};
}

// Sets the uncompressed size that the zip's local and central headers declare for entry
// `name`: a header that claims more than the reader may inflate.
void declareSize(const fs::path& zip, const std::string& name, uint32_t size) {
    std::string bytes = readFile(zip.string());
    auto patch = [&](const std::string& signature, size_t nameOffset, size_t sizeOffset) {
        for (size_t at = bytes.find(signature); at != std::string::npos; at = bytes.find(signature, at + 1))
            if (bytes.compare(at + nameOffset, name.size(), name) == 0)
                for (int i = 0; i < 4; ++i) bytes[at + sizeOffset + i] = static_cast<char>((size >> (8 * i)) & 0xff);
    };
    patch(std::string("PK\3\4", 4), 30, 22);
    patch(std::string("PK\1\2", 4), 46, 24);
    std::ofstream(zip, std::ios::binary | std::ios::trunc) << bytes;
}

uint32_t readLe(const std::string& bytes, size_t at, int width) {
    uint32_t v = 0;
    for (int i = 0; i < width; ++i) v |= static_cast<uint32_t>(static_cast<unsigned char>(bytes[at + i])) << (8 * i);
    return v;
}

void writeLe(std::string& bytes, size_t at, int width, uint32_t v) {
    for (int i = 0; i < width; ++i) bytes[at + i] = static_cast<char>((v >> (8 * i)) & 0xff);
}

// Adds `count` central-directory entries that all point at the data of entry `name` (the
// overlapping zip bomb: many names, one compressed block). Each alias is `name` with its
// last four characters replaced by a number.
void addAliases(const fs::path& zip, const std::string& name, int count) {
    std::string bytes = readFile(zip.string());
    size_t eocd = bytes.rfind(std::string("PK\5\6", 4));
    uint32_t cdSize = readLe(bytes, eocd + 12, 4), cdOffset = readLe(bytes, eocd + 16, 4);
    std::string record;
    for (size_t at = cdOffset; at < cdOffset + cdSize;) {
        size_t length = 46 + readLe(bytes, at + 28, 2) + readLe(bytes, at + 30, 2) + readLe(bytes, at + 32, 2);
        if (bytes.compare(at + 46, name.size(), name) == 0) record = bytes.substr(at, length);
        at += length;
    }
    std::string aliases;
    for (int i = 1; i <= count; ++i) {
        std::string alias = record;
        alias.replace(46 + name.size() - 4, 4, fmt::format("{:04}", i));
        aliases += alias;
    }
    bytes.insert(cdOffset + cdSize, aliases);
    eocd += aliases.size();
    writeLe(bytes, eocd + 8, 2, readLe(bytes, eocd + 8, 2) + count);
    writeLe(bytes, eocd + 10, 2, readLe(bytes, eocd + 10, 2) + count);
    writeLe(bytes, eocd + 12, 4, cdSize + static_cast<uint32_t>(aliases.size()));
    std::ofstream(zip, std::ios::binary | std::ios::trunc) << bytes;
}

struct BadBundle {
    std::string name;
    std::function<void(const fs::path&)> make;
    std::string message;
};

void PrintTo(const BadBundle& bad, std::ostream* os) { *os << bad.name; }  // names CTest's tests

std::string evilPath() { return "/tmp/fusescope-bundle-evil-" + std::to_string(getpid()) + ".txt"; }

std::vector<BadBundle> badBundles() {
    auto with = [](Entries changes, std::vector<std::string> removed = {}) {
        return [changes, removed](const fs::path& path) {
            Entries entries = minimalBundle();
            for (const auto& r : removed) entries.erase(r);
            for (const auto& [name, bytes] : changes) entries[name] = bytes;
            writeBundle(path.string(), entries);
        };
    };
    std::string events = std::string(R"({"type":"log","message":"a"})" "\n").append(R"({"type":"log","message":"b"})" "\n");
    return {
        {"AbsolutePath", with({{evilPath(), "owned"}}), "bundle entry '" + evilPath() + "' has an absolute path"},
        {"DotDot", with({{"compiles/../../evil.txt", "owned"}}),
         "bundle entry 'compiles/../../evil.txt' has a '..' component"},
        {"OversizeEntry",
         [with](const fs::path& path) {
             with({{"compiles/f_0_0/output_code.s", std::string(1000, 'x')}})(path);
             declareSize(path, "compiles/f_0_0/output_code.s", 0x7ffffff0u);
         },
         "bundle entry 'compiles/f_0_0/output_code.s' is 2147483632 bytes uncompressed, over the limit of 1073741824 "
         "bytes"},
        {"SizeHeaderThatLies",
         [with](const fs::path& path) {
             with({{"compiles/f_0_0/output_code.s", std::string(1 << 20, 'x')}})(path);
             declareSize(path, "compiles/f_0_0/output_code.s", 100);
         },
         "zip entry 'compiles/f_0_0/output_code.s' inflates to more than its declared 100 bytes"},
        {"BombRatio",
         [with](const fs::path& path) {
             with({{"compiles/f_0_0/output_code.s", std::string(8 << 20, '\0')}})(path);
             declareSize(path, "compiles/f_0_0/output_code.s", 512u << 20);  // more than deflate can expand to
         },
         "(more than 1100 times): a zip bomb?"},
        {"MissingManifest", with({}, {kManifestEntry}), "bundle has no manifest.json: not a Fusescope trace bundle"},
        {"NewerMajorVersion",
         with({{kManifestEntry, R"({"format_version":"99.0","engine_version":"9.0.0","created":"2099-01-01T00:00:00Z",)"
                                R"("script":"s.py","device":"cpu","options":{}})"}}),
         "bundle format 99.0 is newer than this Fusescope reads (1.x)"},
        {"MalformedEventsLine", with({{kEventsEntry, events + events + "{\"type\": \"log\", \n" + events}}),
         "events.jsonl line 5: malformed JSON"},
        {"NotAZip", [](const fs::path& path) { std::ofstream(path) << std::string(4096, '#') << "not a zip\n"; },
         "not a zip file"},
        {"OverlappingEntries",
         [with](const fs::path& path) {
             // 1 MiB (under the ratio check's floor) that deflates to about 1 KB, under 300 names.
             std::string block(1000, ' ');
             uint32_t x = 7;
             for (char& c : block) c = static_cast<char>('a' + (x = x * 1103515245u + 12345u) % 26);
             std::string data;
             while (data.size() < (1u << 20)) data += block;
             with({{"compiles/f_0_0/0000", data.substr(0, 1u << 20)}})(path);
             addAliases(path, "compiles/f_0_0/0000", 300);
         },
         "their data overlap (a zip bomb?)"},
        {"ControlCharactersInAName", with({{"compiles/a\r\nfusescope-cli: bundle is fine", "x"}}),
         "bundle entry 'compiles/a\\r\\nfusescope-cli: bundle is fine' contains a control character"},
        {"EventFieldOfTheWrongKind",
         with({{kEventsEntry, std::string(R"({"type":"log","message":"fine"})" "\n") +
                                  R"({"type":"compile_started","compile_id":7,"function":"f"})" "\n"}}),
         "events.jsonl line 2: field \"compile_id\" is an integer, expected a string"},
        {"EventLocationOfTheWrongKind",
         with({{kEventsEntry, R"({"type":"error","message":"m","where":{"file":"s.py","line":"4"}})" "\n"}}),
         "events.jsonl line 1: field \"where.line\" is a string, expected an integer"},
        {"EventNestedTooDeep",
         with({{kEventsEntry, R"({"type":"log","message":"m","x":)" + std::string(600, '[') + std::string(600, ']') + "}\n"}}),
         "events.jsonl line 1: nests JSON deeper than 512 levels"},
    };
}

class BadBundleTest : public testing::TestWithParam<BadBundle> {};

TEST_P(BadBundleTest, IsRefusedWithItsMessageAndWritesNothingOutsideTheFolder) {
    SKIP_WITHOUT_LIBZIP();
    const BadBundle& bad = GetParam();
    fs::path dir = freshDir("bad-" + bad.name);
    fs::path bundle = dir / "bad.fscope";
    bad.make(bundle);
    fs::path out = dir / "out";
    std::set<std::string> before = listing(dir);
    for (const auto& args : {std::vector<std::string>{"bundle", "extract", bundle.string(), out.string()},
                             std::vector<std::string>{"bundle", "inspect", bundle.string()}}) {
        ProcessResult r = runCli(args);
        EXPECT_EQ(r.exitCode, 1) << args[1] << ": " << r.err;
        EXPECT_NE(r.err.find(bad.message), std::string::npos) << args[1] << ": " << r.err;
        EXPECT_EQ(r.err.find("fusescope-cli: error: cannot " + args[1] + " bundle '" + bundle.string() + "': "), 0u)
            << r.err;
        EXPECT_EQ(r.out, "");
        EXPECT_EQ(listing(dir), before) << args[1];
    }
    EXPECT_FALSE(fs::exists(out));
    EXPECT_FALSE(fs::exists(evilPath()));
    EXPECT_FALSE(fs::exists(dir.parent_path() / "evil.txt"));
}

INSTANTIATE_TEST_SUITE_P(Bundle, BadBundleTest, testing::ValuesIn(badBundles()),
                         [](const auto& info) { return info.param.name; });

TEST(Bundle, MinimalBundleIsAccepted) {
    SKIP_WITHOUT_LIBZIP();
    fs::path dir = freshDir("minimal");
    writeBundle((dir / "ok.fscope").string(), minimalBundle());
    Bundle bundle = readBundle((dir / "ok.fscope").string());
    EXPECT_EQ(bundle.script, "print(1)\n");
    ASSERT_EQ(bundle.events.size(), 1u);
    EXPECT_EQ(bundle.events[0]["type"], "script_output");
}

// PyTorch's side (issue 61, item 14): a TORCH_TRACE folder's logs go in as torch/<log>, byte
// for byte, in place of the side the bundle held; they come back out as a folder to read.
TEST(Bundle, PyTorchsSideGoesInAndComesBackOutByteForByte) {
    SKIP_WITHOUT_LIBZIP();
    fs::path dir = freshDir("torch-side");
    const std::string log = readFile(sourcePath("tests/fixtures/torch_trace/recompiles/dedicated_log_torch_trace_fixture.log"));
    fs::create_directories(dir / "trace");
    std::ofstream(dir / "trace" / "dedicated_log_torch_trace_rank_0_a.log", std::ios::binary) << log;
    std::ofstream(dir / "trace" / "dedicated_log_torch_trace_rank_1_b.log") << "rank 1\n";
    std::ofstream(dir / "trace" / "notes.txt") << "not a log";
    Entries entries = minimalBundle();
    entries["torch/dedicated_log_torch_trace_old.log"] = "an older side";
    putTorchSide(entries, (dir / "trace").string());
    EXPECT_FALSE(entries.count("torch/dedicated_log_torch_trace_old.log"));
    EXPECT_FALSE(entries.count("torch/notes.txt"));
    writeBundle((dir / "both.fscope").string(), entries);

    Bundle bundle = readBundle((dir / "both.fscope").string());
    EXPECT_EQ(bundle.files.at("torch/dedicated_log_torch_trace_rank_0_a.log"), log);
    ASSERT_TRUE(writeTorchSide(bundle.files, (dir / "out").string()));
    EXPECT_EQ(filesBelow(dir / "out"), (Entries{{"dedicated_log_torch_trace_rank_0_a.log", log}, {"dedicated_log_torch_trace_rank_1_b.log", "rank 1\n"}}));

    // A log opened by another name is kept under one the reader finds in a folder.
    std::ofstream(dir / "my.txt") << "renamed";
    putTorchSide(entries, (dir / "my.txt").string());
    EXPECT_EQ(entries.at("torch/dedicated_log_torch_trace_my.txt.log"), "renamed");
    EXPECT_FALSE(entries.count("torch/dedicated_log_torch_trace_rank_0_a.log"));

    EXPECT_FALSE(writeTorchSide(minimalBundle(), (dir / "none").string()));
    EXPECT_FALSE(fs::exists(dir / "none"));
    EXPECT_THROW(putTorchSide(entries, (dir / "out" / "missing").string()), Error);
}

// Spans past the recorder's budget are counted, not kept: a loop of compiled calls cannot
// grow a bundle without end. Other events are all kept.
TEST(Bundle, SpansPastTheBudgetAreLeftOutAndCounted) {
    BundleRecorder recorder(4096);
    TraceRecord span;
    span.name = "cpp_fused_sin_0";
    for (int i = 0; i < 1000; ++i) {
        span.rfId = i + 1;
        recorder.consume(TraceEvent{span});
        if (i % 100 == 0) recorder.consume(ScriptOutputEvent{"line\n"});
    }
    auto entries = recorder.entries(BundleManifest{}, "print(1)\n");
    const std::string& events = entries[kEventsEntry];
    EXPECT_LT(events.size(), 4096u + 1024u);
    EXPECT_EQ(countOccurrences(events, "\"script_output\""), 10);
    const int kept = countOccurrences(events, "cpp_fused_sin_0");
    EXPECT_GT(kept, 0);
    EXPECT_EQ(entries[kLogsEntry], fmt::format("fusescope: the trace holds the spans of the first 4096 bytes of events; {} later spans were left out\n",
                                               1000 - kept));
}

// What Fusescope writes at its most repetitive (deflate's best ratio, about 1030:1) reads back.
TEST(Bundle, TheMostRepetitiveBundleItWritesIsAccepted) {
    SKIP_WITHOUT_LIBZIP();
    fs::path dir = freshDir("repetitive");
    Entries entries = minimalBundle();
    entries[kLogsEntry] = std::string(50 << 20, 'a');
    std::string events;
    while (events.size() < (16u << 20)) events += R"({"type":"script_output","text":"0\n"})" "\n";
    entries[kEventsEntry] = events;
    writeBundle((dir / "repetitive.fscope").string(), entries);
    Bundle bundle = readBundle((dir / "repetitive.fscope").string());
    EXPECT_EQ(bundle.files[kLogsEntry].size(), 50u << 20);
    EXPECT_EQ(bundle.events.size(), events.size() / std::string(R"({"type":"script_output","text":"0\n"})" "\n").size());
}

// Big and incompressible, so writing it crosses a small file-size limit.
Entries bigBundle() {
    Entries entries = minimalBundle();
    std::string noise(1 << 20, '\0');
    uint32_t x = 12345;
    for (char& c : noise) c = static_cast<char>((x = x * 1103515245u + 12345u) >> 24);
    entries["compiles/f_0_0/output_code.s"] = noise;
    return entries;
}

TEST(Bundle, FailedExportKeepsThePreviousFileAndLeavesNoTemporaryFile) {
    SKIP_WITHOUT_LIBZIP();
    fs::path dir = freshDir("failed-export");
    fs::path path = dir / "run.fscope";
    std::ofstream(path) << "the previous bundle";
    // Writes past 64 KiB fail with EFBIG (SIGXFSZ ignored), as on a full disk.
    rlimit saved{};
    getrlimit(RLIMIT_FSIZE, &saved);
    rlimit small = saved;
    small.rlim_cur = 64 << 10;
    auto oldHandler = signal(SIGXFSZ, SIG_IGN);
    setrlimit(RLIMIT_FSIZE, &small);
    std::string error;
    try {
        writeBundle(path.string(), bigBundle());
    } catch (const Error& e) {
        error = e.what();
    }
    setrlimit(RLIMIT_FSIZE, &saved);
    signal(SIGXFSZ, oldHandler);
    EXPECT_EQ(error.rfind("cannot write bundle '" + path.string() + "': ", 0), 0u) << error;
    EXPECT_EQ(readFile(path.string()), "the previous bundle");
    EXPECT_EQ(listing(dir), std::set<std::string>{"run.fscope"});
}

TEST(Bundle, InterruptedExportNeverLeavesABundleUnderTheFinalName) {
    SKIP_WITHOUT_LIBZIP();
    fs::path dir = freshDir("interrupted-export");
    fs::path path = dir / "run.fscope";
    pid_t pid = fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {  // killed by SIGXFSZ in the middle of writing
        rlimit small{64 << 10, 64 << 10}, noCore{0, 0};
        setrlimit(RLIMIT_CORE, &noCore);
        setrlimit(RLIMIT_FSIZE, &small);
        try {
            writeBundle(path.string(), bigBundle());
        } catch (...) {
        }
        _exit(0);
    }
    int status = 0;
    waitpid(pid, &status, 0);
    ASSERT_TRUE(WIFSIGNALED(status)) << status;
    EXPECT_EQ(WTERMSIG(status), SIGXFSZ);
    EXPECT_FALSE(fs::exists(path));
    for (const auto& name : listing(dir)) EXPECT_NE(name, "run.fscope");
}

TEST(Bundle, RunExportFailureIsAnErrorAndLeavesNoFiles) {
    SKIP_WITHOUT_LIBZIP();
    fs::path dir = freshDir("export-into-missing-folder");
    std::string script = writeTempFile("bundle_ok.py", "print(1 + 1)\n");
    const fs::path target = dir / "missing" / "run.fscope";
    ProcessResult r = runCli({"run", script, "--bundle", target.string()});
    EXPECT_EQ(r.exitCode, 1);
    EXPECT_EQ(r.out, "2\n");
    EXPECT_NE(r.err.find("fusescope-cli: error: cannot write bundle '" + target.string() + "'"), std::string::npos) << r.err;
    EXPECT_TRUE(listing(dir).empty());
    // A folder in the bundle's place is refused before the run: renaming would fail (or, for
    // a device node, replace it).
    fs::create_directory(dir / "taken.fscope");
    ProcessResult onFolder = runCli({"run", script, "--bundle", (dir / "taken.fscope").string()});
    EXPECT_EQ(onFolder.exitCode, 2);
    EXPECT_EQ(onFolder.out, "");
    EXPECT_EQ(listing(dir), std::set<std::string>{"taken.fscope"});
    EXPECT_TRUE(fs::is_directory(dir / "taken.fscope"));
}

TEST(Bundle, FailedScriptIsBundledWithItsError) {
    SKIP_WITHOUT_LIBZIP();
    fs::path dir = freshDir("failed-script");
    std::string script = writeTempFile("bundle_fails.py", "print(1)\nraise ValueError('boom')\n");
    ProcessResult r = runCli({"run", script, "--bundle", (dir / "b.fscope").string()});
    EXPECT_EQ(r.exitCode, 1);
    Bundle bundle = readBundle((dir / "b.fscope").string());
    ASSERT_FALSE(bundle.events.empty());
    EXPECT_EQ(bundle.events.back()["type"], "error");
    EXPECT_NE(bundle.events.back()["message"].get<std::string>().find("boom"), std::string::npos);
}

TEST(Bundle, WithoutLibzipTheCliSaysBundlesAreUnavailable) {
    if (zipAvailable()) GTEST_SKIP() << "this build has libzip";
    std::string script = writeTempFile("bundle_nozip.py", "print(1)\n");
    ProcessResult r = runCli({"run", script, "--bundle", writeTempFile("nozip.marker", "") + ".fscope"});
    EXPECT_EQ(r.exitCode, 1);
    EXPECT_NE(r.err.find("bundles and checkpoints need libzip; this build has none"), std::string::npos) << r.err;
    ProcessResult inspect = runCli({"bundle", "inspect", script});
    EXPECT_EQ(inspect.exitCode, 1);
    EXPECT_NE(inspect.err.find("bundles and checkpoints need libzip; this build has none"), std::string::npos) << inspect.err;
}

}  // namespace
}  // namespace fusescope::test

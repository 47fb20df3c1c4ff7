// The engine protocol: drives a real `fusescope-cli serve` child over pipes through run,
// explain_fusion, cancel, a crash in generated code and shutdown (docs/protocol.md). Every
// wait has a deadline, so a hung server fails the test instead of hanging it.

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <optional>
#include <regex>
#include <sstream>
#include <stdexcept>
#include <thread>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "bundle/bundle_reader.h"
#include "bundle/zip_archive.h"
#include "runtime/cuda_driver.h"
#include "serve_child.h"
#include "test_support.h"
#include "toolchain/cpp_jit.h"
#include "toolchain/cuda/cuda_compiler.h"

namespace fusescope::test {
namespace {

using nlohmann::json;

std::vector<std::string> typesOf(const std::vector<json>& events) {
    std::vector<std::string> types;
    for (const auto& e : events) types.push_back(e["type"]);
    return types;
}

bool hasType(const std::vector<json>& events, const std::string& type) {
    auto types = typesOf(events);
    return std::find(types.begin(), types.end(), type) != types.end();
}

json runRequest(int id, const std::string& script, json extra = json::object()) {
    extra["script"] = script;
    extra["file_name"] = "served.py";
    return json{{"id", id}, {"method", "run"}, {"params", extra}};
}

// buf0 = the row sums of x, buf1 = the max of x, buf2 = x / buf0 (fused with buf0 at step 2),
// buf3 = cos(y) over another size, sharing no buffer with the others.
const char* const kFusionScript = R"(import torch

@torch.compile
def fn(x, y):
    s = x.sum(dim=1, keepdim=True)
    return x / s, x.amax(), y.cos()

a, m, b = fn(torch.randn(16, 16), torch.randn(7))
print(a.shape, m.shape, b.shape)
)";

TEST(Protocol, RunStreamsEventsThenAnswers) {
    ServeChild server;
    server.send(runRequest(1, kFusionScript, {{"backend", "inductor"}, {"logs", "fusion"}, {"trace", true}}));
    std::vector<json> events;
    json answer = server.answer(1, &events);
    ASSERT_TRUE(answer.contains("result")) << answer.dump();
    EXPECT_EQ(answer["result"]["compiles"], 1);
    EXPECT_EQ(answer["result"]["events"], events.size());
    ASSERT_EQ(answer["result"]["graphs"].size(), 1u);
    EXPECT_EQ(answer["result"]["graphs"][0]["compile_id"], "0/0");
    EXPECT_EQ(answer["result"]["graphs"][0]["backend"], "inductor");
    for (const char* type : {"compile_started", "graph_captured", "ir_pre_fusion", "fusion_decision", "ir_post_fusion",
                             "kernel_source", "log", "trace_event", "script_output"})
        EXPECT_TRUE(hasType(events, type)) << type;
    auto printed = std::find_if(events.begin(), events.end(), [](const json& e) { return e["type"] == "script_output"; });
    ASSERT_NE(printed, events.end());
    EXPECT_EQ((*printed)["text"], "torch.Size([16, 16]) torch.Size([]) torch.Size([7])\n");
    server.send({{"id", 2}, {"method", "shutdown"}});
    EXPECT_EQ(server.answer(2), (json{{"id", 2}, {"result", json::object()}}));
}

TEST(Protocol, RunWritesItsBundleWhetherTheScriptSucceedsOrFails) {
    if (!zipAvailable()) GTEST_SKIP() << zipUnavailableReason();
    ServeChild server;
    std::string ok = writeTempFile("ok.fscope", ""), failed = writeTempFile("failed.fscope", "");
    server.send(runRequest(1, kFusionScript, {{"bundle", ok}}));
    std::vector<json> events;
    json answer = server.answer(1, &events);
    ASSERT_TRUE(answer.contains("result")) << answer.dump();
    EXPECT_EQ(answer["result"]["bundle"], ok);
    Bundle bundle = readBundle(ok);
    EXPECT_EQ(bundle.script, kFusionScript);
    EXPECT_EQ(bundle.events.size(), events.size());  // the bundle turned tracing on: trace_events included
    EXPECT_TRUE(hasType(events, "trace_event"));
    EXPECT_TRUE(bundle.files.count("trace/chrome_trace.json"));

    server.send(runRequest(2, "import torch\nprint(1)\nundefined_name\n", {{"bundle", failed}}));
    answer = server.answer(2, &events);
    ASSERT_TRUE(answer.contains("error")) << answer.dump();
    EXPECT_EQ(answer["error"]["code"], "script_error");
    EXPECT_EQ(answer["error"]["bundle"], failed);
    bundle = readBundle(failed);
    EXPECT_TRUE(hasType(bundle.events, "error"));

    server.send(runRequest(3, "print(1)\n", {{"bundle", "/no/such/folder/x.fscope"}}));
    answer = server.answer(3);
    EXPECT_NE(answer["result"]["bundle_error"].get<std::string>().find("/no/such/folder"), std::string::npos) << answer.dump();
}

TEST(Protocol, MinifyStreamsProgressThenAnswersWithTheMinimalGraphAndRepro) {
    ServeChild server;
    json request = runRequest(1, R"(import torch
def f(x):
    y = x.sin() * 2
    z = torch.relu(y - 1) + x
    return z.cos()
cf = torch.compile(f, backend="relu_runtime_error_TESTING_ONLY")
print(cf(torch.ones(4)))
)");
    request["method"] = "minify";
    server.send(request);
    std::vector<json> events;
    json answer = server.answer(1, &events);
    ASSERT_TRUE(answer.contains("result")) << answer.dump();
    const json& r = answer["result"];
    EXPECT_EQ(r["kind"], "runtime");
    EXPECT_EQ(r["error"], "AssertionError: ReluRuntimeError");
    EXPECT_EQ(r["start_nodes"], 7);
    EXPECT_EQ(r["end_nodes"], 2);
    std::vector<std::string> names;
    for (const auto& n : r["minimal_graph"]["nodes"]) names.push_back(n["name"]);
    EXPECT_EQ(names, (std::vector<std::string>{"l_x_", "relu"}));
    EXPECT_NE(r["repro"].get<std::string>().find("    relu = torch.relu(l_x_)\n"), std::string::npos) << r["repro"];
    EXPECT_EQ(r["repro_error"], "repro.py:12:12: error: AssertionError: ReluRuntimeError");
    ASSERT_FALSE(events.empty());
    EXPECT_EQ(events.front()["name"], "minifier");
    EXPECT_EQ(events.front()["message"], "Running served.py to find a failing graph");
    EXPECT_EQ(events.back()["message"], "Went from 7 to 2 nodes");
    server.send({{"id", 2}, {"method", "shutdown"}});
    EXPECT_EQ(server.answer(2), (json{{"id", 2}, {"result", json::object()}}));
}

TEST(Protocol, ExplainFusionAnswersForPairsFusedAndNeverTried) {
    ServeChild server;
    server.send(runRequest(1, kFusionScript));
    std::vector<json> events;
    ASSERT_TRUE(server.answer(1, &events).contains("result"));
    std::vector<json> decisions;
    for (const auto& e : events)
        if (e["type"] == "fusion_decision") decisions.push_back(e);

    auto explain = [&](int id, const std::string& node1, const std::string& node2) {
        server.send({{"id", id},
                     {"method", "explain_fusion"},
                     {"params", {{"compile_id", "0/0"}, {"node1", node1}, {"node2", node2}}}});
        json answer = server.answer(id);
        EXPECT_TRUE(answer.contains("result")) << answer.dump();
        return answer["result"];
    };
    json fused = explain(2, "buf2", "buf0");
    EXPECT_EQ(fused["fused"], true);
    EXPECT_EQ(fused["step"], 2);
    EXPECT_EQ(fused["run"], 1);
    EXPECT_EQ(fused["graph"], "__compiled_fn_0");
    ASSERT_GE(fused["step"].get<int>(), 1);
    const json& step = decisions.at(fused["step"].get<size_t>() - 1);  // the streamed decision it names
    EXPECT_EQ(step["fused"], true);
    EXPECT_EQ(step["reason"], fused["reason"]);
    EXPECT_EQ(fused["kernel1"], fused["kernel2"]);
    EXPECT_NE(fused["reason"].get<std::string>().find("fused (vertical)"), std::string::npos) << fused.dump();

    json never = explain(3, "buf0", "buf3");
    EXPECT_EQ(never["fused"], false);
    EXPECT_EQ(never["considered"], false);
    EXPECT_EQ(never["step"], 0);
    for (const auto& d : decisions)  // indeed never paired
        EXPECT_FALSE(d["node1"].get<std::string>().find("buf3") != std::string::npos ||
                     d["node2"].get<std::string>().find("buf3") != std::string::npos)
            << d.dump();
    EXPECT_EQ(never["reason"],
              "cannot fuse buf0_buf2 with buf3: iteration ranges differ ((16,), (16,)) vs (7,) (the scheduler never "
              "paired buf0_buf2 with buf3: neither reads what the other writes and they read no buffer in common, so fusing them "
              "would save no memory traffic)");

    json refused = explain(4, "buf2", "buf1");  // tried at step 3, after buf2 joined buf0
    EXPECT_EQ(refused["fused"], false);
    EXPECT_EQ(refused["considered"], true);
    EXPECT_EQ(refused["step"], 3);
    EXPECT_EQ(refused["reason"], decisions.at(2)["reason"]);

    server.send({{"id", 5}, {"method", "explain_fusion"}, {"params", {{"compile_id", "0/0"}, {"node1", "buf0"}, {"node2", "buf9"}}}});
    json missing = server.answer(5);
    EXPECT_EQ(missing["error"]["code"], "not_found");
    EXPECT_NE(missing["error"]["message"].get<std::string>().find("no scheduler node 'buf9'"), std::string::npos);
}

// A field of /proc/<pid>/status in KiB (VmRSS: resident now, VmHWM: the peak).
long statusKb(pid_t pid, const std::string& field) {
    std::istringstream status(readFile("/proc/" + std::to_string(pid) + "/status"));
    for (std::string line; std::getline(status, line);)
        if (line.rfind(field + ":", 0) == 0) return std::stol(line.substr(field.size() + 1));
    ADD_FAILURE() << "no " << field << " in /proc/" << pid << "/status";
    return 0;
}

TEST(Protocol, AfterARunTheServerGivesItsMemoryBack) {
#if defined(__SANITIZE_ADDRESS__)
    GTEST_SKIP() << "AddressSanitizer keeps freed memory in its quarantine: the resident size says nothing here";
#endif
    ServeChild server;
    server.send({{"id", 1}, {"method", "run"}, {"params", {{"script", "print(1)\n"}}}});
    EXPECT_TRUE(server.answer(1).contains("result"));
    long before = statusKb(server.pid(), "VmRSS");
    // 400 MB of 4 MB tensors (blocks the allocator caches for reuse) and many small ones.
    server.send({{"id", 2},
                 {"method", "run"},
                 {"params", {{"script", "import torch\nbig = [torch.ones(1000000) for i in range(100)]\n"
                                        "small = [torch.ones(100) for i in range(100000)]\nprint(len(big) + len(small))\n"}}}});
    EXPECT_TRUE(server.answer(2).contains("result"));
    long peak = statusKb(server.pid(), "VmHWM"), after = statusKb(server.pid(), "VmRSS");
    EXPECT_GT(peak - before, 350 * 1024);
    EXPECT_LT(after - before, 64 * 1024) << "before " << before << " KiB, peak " << peak << " KiB, after " << after << " KiB";
}

TEST(Protocol, BadRequestsGetErrorAnswersAndTheServerGoesOn) {
    ServeChild server;
    server.sendLine("{not json");
    EXPECT_EQ((*server.next())["error"]["code"], "parse_error");
    server.sendLine(R"({"id":1})");
    EXPECT_EQ(server.answer(1)["error"]["code"], "invalid_request");
    server.send({{"id", 2}, {"method", "fly"}});
    EXPECT_EQ(server.answer(2)["error"]["code"], "unknown_method");
    server.send({{"id", 3}, {"method", "run"}, {"params", json::object()}});
    EXPECT_EQ(server.answer(3)["error"]["code"], "invalid_params");
    server.send(runRequest(4, "print(1)\n", {{"device", "cuda"}}));
    json cuda = server.answer(4);
    EXPECT_EQ(cuda["error"]["code"], "invalid_params");
    EXPECT_EQ(cuda["error"]["message"], "device 'cuda' is not supported: the engine runs tensors on 'cpu' only so far "
                                        "(gpu_codegen_only runs cuda tensors on the CPU and generates their CUDA kernels)");
    server.send(runRequest(40, "print(1)\n", {{"gpu_codegen_only", true}, {"cuda_arch", "90"}}));
    json arch = server.answer(40);
    EXPECT_EQ(arch["error"]["code"], "invalid_params");
    EXPECT_EQ(arch["error"]["message"], "cuda_arch takes a GPU architecture like sm_90, not '90'");
    server.send({{"id", 5}, {"method", "explain_fusion"}, {"params", {{"compile_id", "0/0"}}}});
    EXPECT_EQ(server.answer(5)["error"]["message"], "missing param 'node1'");

    server.send(runRequest(6, "import torch\nx = 1\nprint(x + 'a')\n"));
    server.closeStdin();  // the end of stdin stops the server once the queue is done
    std::vector<json> events;
    json failed = server.answer(6, &events);
    EXPECT_EQ(failed["error"]["code"], "script_error");
    EXPECT_EQ(failed["error"]["where"]["line"], 3);
    EXPECT_TRUE(hasType(events, "error"));
    auto status = server.waitExit();
    ASSERT_TRUE(status);
    EXPECT_TRUE(WIFEXITED(*status) && WEXITSTATUS(*status) == 0);
}

// The server still serves: a run (request `id`) that prints `text` answers with it.
void expectServes(ServeChild& server, int id, const std::string& text) {
    server.send(runRequest(id, "print('" + text + "')\n"));
    std::vector<json> events;
    EXPECT_TRUE(server.answer(id, &events).contains("result"));
    ASSERT_EQ(events.size(), 1u);
    EXPECT_EQ(events[0]["text"], text + "\n");
}

// Sends cancel (id 2) for the running request 1 and returns both answers, the run's first;
// fewer when the server stops answering.
std::vector<json> cancelRequestOne(ServeChild& server) {
    server.send({{"id", 2}, {"method", "cancel"}, {"params", {{"request", 1}}}});
    std::vector<json> answers;
    while (answers.size() < 2) {
        auto m = server.next();
        if (!m) break;
        if (m->contains("id")) answers.push_back(*m);  // else the ErrorEvent of the interrupted script
    }
    std::sort(answers.begin(), answers.end(), [](const json& a, const json& b) { return a["id"] < b["id"]; });
    return answers;
}

TEST(Protocol, AnOverflowingNumberOrDeepNestingIsAParseErrorAndTheServerGoesOn) {
    ServeChild server;
    server.sendLine(R"json({"id": 1, "method": "run", "params": {"script": "print(1)", "x": 1e400}})json");
    json overflow = *server.next();
    EXPECT_EQ(overflow["error"]["code"], "parse_error");
    EXPECT_NE(overflow["error"]["message"].get<std::string>().find("number overflow parsing '1e400'"), std::string::npos)
        << overflow.dump();
    server.sendLine(R"({"id": 2, "method": "run", "params": )" + std::string(100000, '[') + std::string(100000, ']') + "}");
    EXPECT_EQ(*server.next(), (json{{"id", nullptr},
                                    {"error", {{"code", "parse_error"}, {"message", "the line nests JSON deeper than 512 levels"}}}}));
    expectServes(server, 3, "still serving");
}

TEST(Protocol, AFolderIsNotAScript) {
    ServeChild server;
    std::string folder = std::filesystem::path(writeTempFile("folder-marker", "")).parent_path().string();
    server.send({{"id", 1}, {"method", "run"}, {"params", {{"path", folder}}}});
    json answer = server.answer(1);
    EXPECT_EQ(answer["error"]["code"], "invalid_params");
    EXPECT_EQ(answer["error"]["message"], "cannot open script '" + folder + "': is a directory");
}

TEST(Protocol, CancelStopsALongEagerOp) {
    ServeChild server;
    // 2**40 additions: hours of work inside one op, which must notice the cancel.
    server.send(runRequest(1, "import torch\nprint('started')\ntotal = torch.ones(1).expand(2**40).sum()\n"));
    auto first = server.next();
    ASSERT_TRUE(first);
    EXPECT_EQ((*first)["event"]["text"], "started\n");
    std::this_thread::sleep_for(std::chrono::milliseconds(300));  // well inside the sum
    std::vector<json> answers = cancelRequestOne(server);  // within kTimeout, or the sum did not stop
    ASSERT_EQ(answers.size(), 2u);
    EXPECT_EQ(answers[0]["error"]["code"], "cancelled");
    EXPECT_EQ(answers[0]["error"]["message"], "served.py:3:9: error: KeyboardInterrupt: the run was cancelled");
    EXPECT_EQ(answers[1]["result"], (json{{"request", 1}, {"state", "running"}}));
}

TEST(Protocol, CancelStopsALongRunAndTheServerServesTheNextRequest) {
    ServeChild server;
    server.send(runRequest(1, "n = 0\nwhile True:\n    n += 1\n    if n == 1000:\n        print('looping')\n"));
    auto first = server.next();
    ASSERT_TRUE(first);
    EXPECT_EQ((*first)["event"]["text"], "looping\n");  // the loop has started
    std::vector<json> answers = cancelRequestOne(server);
    ASSERT_EQ(answers.size(), 2u);
    EXPECT_EQ(answers[0]["error"]["code"], "cancelled");
    EXPECT_TRUE(std::regex_match(answers[0]["error"]["message"].get<std::string>(),
                                 std::regex(R"(served\.py:[34]:5: error: KeyboardInterrupt: the run was cancelled)")))
        << answers[0].dump();  // stopped in the loop
    EXPECT_EQ(answers[1]["result"], (json{{"request", 1}, {"state", "running"}}));

    server.send({{"id", 3}, {"method", "cancel"}, {"params", {{"request", 1}}}});
    EXPECT_EQ(server.answer(3)["error"]["code"], "not_found");
    expectServes(server, 4, "next");
}

TEST(Protocol, ACrashInGeneratedCodeLosesNoStreamedEvent) {
    if (!CppJit::available()) GTEST_SKIP() << CppJit::unavailableReason() << ": no generated code runs";
    // Under AddressSanitizer the child must die by the signal as it would in a normal build,
    // not report the fault and exit 1.
    ServeChild server({"--test-hook", "crash-in-generated-code"}, {"ASAN_OPTIONS=handle_segv=0:detect_leaks=0"});
    server.send(runRequest(1, R"(import torch

@torch.compile
def fn(x):
    return x.sin() + 1

print('before the crash')
fn(torch.randn(8))
print('never printed')
)"));
    std::vector<std::string> types;
    std::vector<std::string> printed;
    while (auto m = server.next()) {
        ASSERT_TRUE(m->contains("event")) << "the crashed run answered: " << m->dump();
        types.push_back((*m)["event"]["type"]);
        if (types.back() == "script_output") printed.push_back((*m)["event"]["text"]);
    }
    EXPECT_EQ(printed, std::vector<std::string>{"before the crash\n"});
    for (const char* type : {"graph_captured", "ir_post_fusion", "kernel_source"})
        EXPECT_NE(std::find(types.begin(), types.end(), type), types.end()) << type;
    auto status = server.waitExit();
    ASSERT_TRUE(status);
    ASSERT_TRUE(WIFSIGNALED(*status)) << "exit status " << *status;
    EXPECT_EQ(WTERMSIG(*status), SIGSEGV);
}

TEST(Protocol, AGpuKernelFaultIsAnsweredThenTheServerExits) {
    if (cudaDriverStatus().devices == 0) GTEST_SKIP() << "no GPU: " << cudaDriverStatus().reason;
    if (!CudaCompiler::available()) GTEST_SKIP() << "no CUDA toolkit: " << CudaCompiler::unavailableReason();
    ServeChild server({"--test-hook", "fault-in-gpu-kernel"});
    server.send(runRequest(1, R"(import torch

@torch.compile
def fn(x):
    return x.sin() + 1

print('before the fault')
y = fn(torch.randn(8, device="cuda"))
print(y.cpu())
print('never printed')
)"));
    std::vector<json> events;
    json answer = server.answer(1, &events);
    ASSERT_TRUE(answer.contains("error")) << answer.dump();
    std::string message = answer["error"]["message"];
    EXPECT_NE(message.find("CUDA error: CUDA_ERROR_ILLEGAL_ADDRESS"), std::string::npos) << message;
    EXPECT_NE(message.find("The GPU context is lost: the engine must be restarted"), std::string::npos) << message;
    std::vector<std::string> printed;
    for (const auto& e : events)
        if (e["type"] == "script_output") printed.push_back(e["text"]);
    EXPECT_EQ(printed, std::vector<std::string>{"before the fault\n"});
    EXPECT_FALSE(server.next());  // nothing after the answer: the server exits
    auto status = server.waitExit();
    ASSERT_TRUE(status);
    ASSERT_TRUE(WIFEXITED(*status)) << "wait status " << *status;
    EXPECT_EQ(WEXITSTATUS(*status), 3);
}

TEST(Protocol, ShutdownCancelsTheRunningRequestAndExitsCleanly) {
    ServeChild server;
    server.send(runRequest(1, "print('looping')\nwhile True:\n    pass\n"));
    ASSERT_TRUE(server.next());  // the loop has started
    server.send({{"id", 2}, {"method", "shutdown"}});
    std::vector<json> events;
    EXPECT_EQ(server.answer(1, &events)["error"]["code"], "cancelled");
    EXPECT_EQ(server.answer(2), (json{{"id", 2}, {"result", json::object()}}));
    EXPECT_FALSE(server.next());  // nothing after the shutdown answer
    auto status = server.waitExit();
    ASSERT_TRUE(status);
    EXPECT_TRUE(WIFEXITED(*status) && WEXITSTATUS(*status) == 0) << *status;
}

// A request line too long to hold is skipped with an error answer; the server goes on.
TEST(Protocol, ARequestLineTooLongToHoldIsSkippedAndTheServerGoesOn) {
    ServeChild server;
    std::thread writer([&server] { server.sendLine(std::string((129u << 20), 'x')); });
    EXPECT_EQ(server.next(), (json{{"id", nullptr},
                                   {"error", {{"code", "invalid_request"},
                                              {"message", "a request line too long to hold (over 128 MiB, or past the memory limit) was skipped"}}}}));
    writer.join();
    server.send({{"id", 2}, {"method", "shutdown"}});
    EXPECT_EQ(server.answer(2), (json{{"id", 2}, {"result", json::object()}}));
}

// Each run has its own random generator from seed 0 (issue 62): a second run in the same
// server draws what the first drew, as a fresh process would.
TEST(Protocol, EveryRunDrawsTheRandomNumbersAFreshProcessDraws) {
    ServeChild server;
    std::vector<std::string> printed;
    for (int id : {1, 2}) {
        server.send(runRequest(id, "import torch\nprint(torch.randn(3))\n"));
        std::vector<json> events;
        EXPECT_TRUE(server.answer(id, &events).contains("result"));
        ASSERT_EQ(events.size(), 1u);
        printed.push_back(events[0]["text"]);
    }
    EXPECT_EQ(printed[0], printed[1]);
    EXPECT_EQ(printed[0], runCli({"run", writeTempFile("randn.py", "import torch\nprint(torch.randn(3))\n")}).out);
}

// A client that stops reading (its end of the server's stdout closed) while keeping stdin
// open ends the server within a second, its running request cancelled.
TEST(Protocol, AClientThatStopsReadingEndsTheServer) {
    ServeChild server;
    server.send(runRequest(1, "print('looping')\nwhile True:\n    pass\n"));
    ASSERT_TRUE(server.next());  // the loop has started
    server.closeStdout();
    auto status = server.waitExit(Clock::now() + std::chrono::seconds(5));
    ASSERT_TRUE(status) << "the server is still running";
    EXPECT_TRUE(WIFEXITED(*status) && WEXITSTATUS(*status) == 0) << *status;
}

}  // namespace
}  // namespace fusescope::test

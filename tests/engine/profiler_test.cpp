// The profiler as scripts drive it (torch.profiler, seed 003's behaviours) and the two
// trace files it writes: the execution trace and the Chrome trace.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>

#include <nlohmann/json.hpp>

#include "profile/profile_schedule.h"
#include "test_support.h"

using namespace fusescope;
using namespace fusescope::test;
using nlohmann::json;

namespace {

constexpr const char* kProcessNode = "[pytorch|profiler|execution_trace|process]";
constexpr const char* kThreadNode = "[pytorch|profiler|execution_trace|thread]";

// A small eager workload, annotated, and a compiled function with an extern kernel and a
// fused pointwise kernel.
constexpr const char* kPrelude = R"(import torch
from torch.profiler import ExecutionTraceObserver, record_function, profile, supported_activities

def payload():
    x = torch.ones(10, 10)
    y = torch.full((10, 10), 2.0)
    z = x + y + x * y
    return z.sum()

@torch.compile
def fn(a, b, c):
    x = torch.nn.functional.linear(a, b)
    x = x + c
    return x.cos()

a = torch.ones(4, 4)
b = torch.ones(4, 4)
c = torch.ones(4, 4)
)";

json readJson(const std::string& path) { return json::parse(readFile(path)); }

const json* attrOf(const json& node, const std::string& name) {
    for (const auto& a : node.at("attrs"))
        if (a.at("name") == name) return &a.at("value");
    return nullptr;
}

std::string category(const json& node) {
    const json* c = attrOf(node, "category");
    return c ? c->get<std::string>() : "";
}

int countNamedPrefix(const json& nodes, const std::string& prefix) {
    return static_cast<int>(std::count_if(nodes.begin(), nodes.end(), [&](const json& n) {
        return n.at("name").get<std::string>().rfind(prefix, 0) == 0;
    }));
}

std::vector<std::string> namesWithPrefix(const json& nodes, const std::string& prefix) {
    std::vector<std::string> names;
    for (const auto& n : nodes)
        if (n.at("name").get<std::string>().rfind(prefix, 0) == 0) names.push_back(n.at("name"));
    return names;
}

const json& rootNode(const json& nodes) {
    for (const auto& n : nodes)
        if (n.at("name") == kProcessNode) return n;
    throw std::runtime_error("no root node");
}

// The schema check of done-when 3, written from the field lists of the issue.
void expectValidExecutionTrace(const json& et) {
    for (const char* key : {"schema", "pid", "time", "start_ts", "nodes", "finish_ts"}) EXPECT_TRUE(et.contains(key)) << key;
    std::set<int64_t> ids;
    for (const auto& n : et.at("nodes")) {
        for (const char* key : {"id", "name", "ctrl_deps", "inputs", "outputs", "attrs"}) ASSERT_TRUE(n.contains(key)) << key << " in " << n;
        EXPECT_TRUE(ids.insert(n.at("id").get<int64_t>()).second) << "duplicate id " << n.at("id");
        for (const char* side : {"inputs", "outputs"}) {
            const json& args = n.at(side);
            for (const char* list : {"values", "shapes", "types", "strides"}) ASSERT_TRUE(args.at(list).is_array()) << list;
            EXPECT_EQ(args.at("values").size(), args.at("shapes").size());
            EXPECT_EQ(args.at("values").size(), args.at("types").size());
            EXPECT_EQ(args.at("values").size(), args.at("strides").size());
            for (size_t i = 0; i < args.at("values").size(); ++i)
                if (args.at("types")[i].get<std::string>().rfind("Tensor(", 0) == 0) {
                    const json& v = args.at("values")[i];
                    ASSERT_EQ(v.size(), 6u) << v;
                    EXPECT_TRUE(v[5].is_string()) << v;
                }
        }
        for (const auto& a : n.at("attrs")) {
            EXPECT_TRUE(a.contains("name") && a.contains("type") && a.contains("value")) << a;
        }
        for (const char* attr : {"rf_id", "fw_parent", "seq_id", "scope", "tid", "op_schema"})
            EXPECT_NE(attrOf(n, attr), nullptr) << attr << " missing in " << n.at("name");
        if (category(n) == "kernel") {
            EXPECT_NE(attrOf(n, "kernel_backend"), nullptr);
            EXPECT_NE(attrOf(n, "kernel_file"), nullptr);
        }
    }
    for (const auto& n : et.at("nodes")) {
        int64_t parent = n.at("ctrl_deps").get<int64_t>();
        if (n.at("name") == kProcessNode) EXPECT_EQ(parent, 0);
        else EXPECT_TRUE(ids.count(parent)) << n.at("name") << " names missing parent " << parent;
    }
}

void expectValidChromeTrace(const json& trace) {
    ASSERT_TRUE(trace.at("traceEvents").is_array());
    std::map<int64_t, int> flowStarts, flowEnds;
    bool processName = false;
    for (const auto& e : trace.at("traceEvents")) {
        std::string ph = e.at("ph");
        if (ph == "X") {
            for (const char* key : {"name", "cat", "ts", "dur", "pid", "tid", "args"}) ASSERT_TRUE(e.contains(key)) << key;
            EXPECT_GE(e.at("dur").get<double>(), 0.0);
            EXPECT_TRUE(e.at("args").contains("Record function id"));
            EXPECT_TRUE(e.at("args").contains("External id"));
        } else if (ph == "M") {
            processName = processName || e.at("name") == "process_name";
        } else if (ph == "s") {
            ++flowStarts[e.at("id").get<int64_t>()];
        } else if (ph == "f") {
            ++flowEnds[e.at("id").get<int64_t>()];
        } else {
            ADD_FAILURE() << "unexpected phase " << ph;
        }
    }
    EXPECT_TRUE(processName);
    EXPECT_EQ(flowStarts, flowEnds);
}

std::vector<int64_t> etRfIds(const json& nodes) {
    std::vector<int64_t> ids;
    for (const auto& n : nodes) {
        std::string cat = category(n);
        if (cat == "cpu_op" || cat == "user_annotation") ids.push_back(attrOf(n, "rf_id")->get<int64_t>());
    }
    std::sort(ids.begin(), ids.end());
    return ids;
}

std::vector<int64_t> chromeRfIds(const json& trace) {
    std::vector<int64_t> ids;
    for (const auto& e : trace.at("traceEvents"))
        if (e.value("cat", "") == "cpu_op" || e.value("cat", "") == "user_annotation")
            ids.push_back(e.at("args").at("Record function id").get<int64_t>());
    std::sort(ids.begin(), ids.end());
    return ids;
}

ScriptRun runOk(const std::string& body) {
    ScriptRun run = runScript(std::string(kPrelude) + body);
    EXPECT_EQ(run.error, "");
    return run;
}

}  // namespace

TEST(Profiler, ObserverAloneRecordsEveryAnnotatedLoopUnderTheRootNode) {
    std::string path = writeTempFile("alone.et.json", "");
    runOk(R"(
et = ExecutionTraceObserver().register_callback(")" + path + R"(")
et.start()
for idx in range(5):
    with record_function(f"## LOOP {idx} ##"):
        payload()
et.stop()
assert et.get_output_file_path() == ")" + path + R"("
et.unregister_callback()
)");
    json et = readJson(path);
    const json& nodes = et.at("nodes");
    EXPECT_EQ(rootNode(nodes).at("id"), 1);
    EXPECT_EQ(countNamedPrefix(nodes, "## LOOP "), 5);
    // Each loop holds its eager ops: 2 creations, 3 arithmetic ops and the sum.
    EXPECT_EQ(countNamedPrefix(nodes, "aten::"), 5 * 6);
    expectValidExecutionTrace(et);
}

TEST(Profiler, StartStopWindowsRecordExactlyTheAnnotationsInside) {
    std::string path = writeTempFile("windows.et.json", "");
    ScriptRun run = runOk(R"(
et = ExecutionTraceObserver().register_callback(")" + path + R"(")
running = []
for idx in range(10):
    if idx == 3:
        et.start()
    elif idx == 5:
        et.stop()
    elif idx == 8:
        et.start()
    elif idx == 9:
        et.stop()
    if et._execution_trace_running:
        running.append(idx)
    with record_function(f"## LOOP {idx} ##"):
        payload()
et.unregister_callback()
print(running)
)");
    EXPECT_EQ(run.out, "[3, 4, 8]\n");
    json nodes = readJson(path).at("nodes");
    EXPECT_EQ(namesWithPrefix(nodes, "## LOOP "), (std::vector<std::string>{"## LOOP 3 ##", "## LOOP 4 ##", "## LOOP 8 ##"}));
}

TEST(Profiler, OneObserverPerIterationWritesOneFileEachWithRootIdOne) {
    std::vector<std::string> paths;
    std::string list = "[";
    for (int i : {3, 4, 6, 8}) {
        paths.push_back(writeTempFile("iter" + std::to_string(i) + ".et.json", ""));
        list += "\"" + paths.back() + "\", ";
    }
    list += "]";
    runOk("paths = " + list + R"(
for idx in range(10):
    if idx in (3, 4, 6, 8):
        et = ExecutionTraceObserver().register_callback(paths.pop(0))
        et.start()
    with record_function(f"## LOOP {idx} ##"):
        payload()
    if idx in (3, 4, 6, 8):
        et.stop()
        et.unregister_callback()
)");
    std::vector<std::string> loops;
    for (const auto& path : paths) {
        json nodes = readJson(path).at("nodes");
        EXPECT_EQ(rootNode(nodes).at("id"), 1) << path;
        for (const auto& name : namesWithPrefix(nodes, "## LOOP ")) loops.push_back(name);
    }
    EXPECT_EQ(loops, (std::vector<std::string>{"## LOOP 3 ##", "## LOOP 4 ##", "## LOOP 6 ##", "## LOOP 8 ##"}));
}

TEST(Profiler, RegisterThenUnregisterWithoutCaptureWritesAValidFile) {
    std::string path = writeTempFile("empty.et.json", "not json yet");
    runOk(R"(
et = ExecutionTraceObserver().register_callback(")" + path + R"(")
assert et.get_output_file_path() == ")" + path + R"("
et.unregister_callback()
)");
    json et = readJson(path);
    ASSERT_EQ(et.at("nodes").size(), 1u);
    EXPECT_EQ(et.at("nodes")[0].at("name"), kProcessNode);
    EXPECT_EQ(et.at("nodes")[0].at("id"), 1);
    expectValidExecutionTrace(et);
}

TEST(Profiler, ScheduledProfileRecordsActiveStepsAndCallsOnTraceReadyOnce) {
    SKIP_WITHOUT_CPP_JIT();
    std::string etPath = writeTempFile("pt2.et.json", "");
    std::string chromePath = writeTempFile("pt2.chrome.json", "");
    ScriptRun run = runOk(R"(
fn(a, b, c)
calls = []
def handler(p):
    calls.append(1)
with profile(activities=supported_activities(), record_shapes=True,
             schedule=torch.profiler.schedule(skip_first=3, wait=1, warmup=1, active=2, repeat=1),
             on_trace_ready=handler,
             execution_trace_observer=ExecutionTraceObserver().register_callback(")" + etPath + R"(")) as p:
    for idx in range(10):
        with record_function(f"## LOOP {idx} ##"):
            fn(a, b, c)
        p.step()
    assert p.execution_trace_observer.get_output_file_path() == ")" + etPath + R"("
p.export_chrome_trace(")" + chromePath + R"(")
print(len(calls))
)");
    EXPECT_EQ(run.out, "1\n");
    json et = readJson(etPath), chrome = readJson(chromePath);
    const json& nodes = et.at("nodes");
    EXPECT_EQ(namesWithPrefix(nodes, "## LOOP "), (std::vector<std::string>{"## LOOP 5 ##", "## LOOP 6 ##"}));
    EXPECT_EQ(namesWithPrefix(nodes, "ProfilerStep#"), (std::vector<std::string>{"ProfilerStep#5", "ProfilerStep#6"}));
    expectValidExecutionTrace(et);
    expectValidChromeTrace(chrome);

    // Each compiled call: a region, the graph call, and its two kernels (the mm through
    // BLAS and the fused bias add + cos), all naming the generated source file.
    int kernels = 0;
    for (const auto& n : nodes) {
        if (category(n) != "kernel") continue;
        ++kernels;
        EXPECT_EQ(*attrOf(n, "kernel_backend"), "cpp");
        std::string file = *attrOf(n, "kernel_file");
        EXPECT_NE(file, "");
        EXPECT_NE(readFile(file).find("extern \"C\" int call("), std::string::npos) << file;
        EXPECT_GT(n.at("inputs").at("values").size(), 0u);
        EXPECT_EQ(n.at("outputs").at("values").size(), 0u);
    }
    EXPECT_EQ(kernels, 2 * 2);
    EXPECT_EQ(countNamedPrefix(nodes, "Torch-Compiled Region: 0/0"), 2);
    EXPECT_EQ(countNamedPrefix(nodes, "## Call CompiledFxGraph __compiled_fn_0 ##"), 2);

    // Done-when 2: the same records, seen from both files.
    std::vector<int64_t> fromEt = etRfIds(nodes), fromChrome = chromeRfIds(chrome);
    EXPECT_FALSE(fromEt.empty());
    EXPECT_EQ(fromEt, fromChrome);

    // A flow arrow from each graph call to each kernel it launched.
    int flows = 0;
    for (const auto& e : chrome.at("traceEvents")) flows += e.at("ph") == "s";
    EXPECT_EQ(flows, kernels);
}

TEST(Profiler, ProfileWithoutScheduleRecordsEverythingAndHandsItOverOnExit) {
    std::string chromePath = writeTempFile("all.chrome.json", "");
    ScriptRun run = runOk(R"(
seen = []
with profile(on_trace_ready=lambda p: seen.append(1)) as p:
    with record_function("outer"):
        payload()
print(len(seen))
p.export_chrome_trace(")" + chromePath + R"(")
)");
    EXPECT_EQ(run.out, "1\n");
    json chrome = readJson(chromePath);
    expectValidChromeTrace(chrome);
    std::map<std::string, int> byCategory;
    for (const auto& e : chrome.at("traceEvents"))
        if (e.at("ph") == "X") ++byCategory[e.at("cat")];
    EXPECT_EQ(byCategory["user_annotation"], 2);  // ProfilerStep#0 and outer
    EXPECT_EQ(byCategory["cpu_op"], 6);
}

// A training step's phases as PyTorch's profiler names them: each node the backward engine
// runs, and the optimizer's zero_grad and step, enclosing their ops.
TEST(Profiler, ATrainingStepShowsBackwardNodesAndOptimizerSpans) {
    std::string chromePath = writeTempFile("train.chrome.json", "");
    runOk(R"(
w = torch.nn.Parameter(torch.ones(3))
opt = torch.optim.SGD([w], lr=0.1, momentum=0.9)
with profile() as p:
    opt.zero_grad()
    (w * torch.tensor([1.0, 2.0, 3.0])).exp().sum().backward()
    opt.step()
p.export_chrome_trace(")" + chromePath + R"(")
)");
    json chrome = readJson(chromePath);
    expectValidChromeTrace(chrome);
    std::map<std::string, json> spans;
    for (const auto& e : chrome.at("traceEvents"))
        if (e.at("ph") == "X") spans[e.at("name").get<std::string>()] = e;
    for (const char* name : {"Optimizer.zero_grad#SGD.zero_grad", "Optimizer.step#SGD.step"}) {
        ASSERT_TRUE(spans.count(name)) << name;
        EXPECT_EQ(spans[name].at("cat"), "user_annotation");
    }
    for (const char* node : {"SumBackward0", "ExpBackward0", "MulBackward0"}) {
        std::string name = std::string("autograd::engine::evaluate_function: ") + node;
        ASSERT_TRUE(spans.count(name)) << name;
        EXPECT_EQ(spans[name].at("cat"), "cpu_op");
    }
    // The backward's nodes run after the forward's exp and before the step's update.
    const json& exp = spans["aten::exp"];
    const json& expBackward = spans["autograd::engine::evaluate_function: ExpBackward0"];
    const json& step = spans["Optimizer.step#SGD.step"];
    EXPECT_GE(expBackward.at("ts").get<double>(), exp.at("ts").get<double>() + exp.at("dur").get<double>());
    EXPECT_GE(step.at("ts").get<double>(), expBackward.at("ts").get<double>() + expBackward.at("dur").get<double>());
}

TEST(Profiler, OpNodesCarryTensorArgumentsWithStableIds) {
    std::string path = writeTempFile("args.et.json", "");
    runOk(R"(
et = ExecutionTraceObserver().register_callback(")" + path + R"(")
et.start()
with record_function("## TEST 2 ##", "1, 2, 3"):
    x = torch.ones(3, 4)
    y = x.t() * 2.5
et.stop()
et.unregister_callback()
)");
    json nodes = readJson(path).at("nodes");
    const json* ones = nullptr;
    const json* mul = nullptr;
    const json* t = nullptr;
    for (const auto& n : nodes) {
        if (n.at("name") == "aten::ones") ones = &n;
        if (n.at("name") == "aten::mul") mul = &n;
        if (n.at("name") == "aten::t") t = &n;
        if (n.at("name") == "## TEST 2 ##") {
            EXPECT_EQ(n.at("inputs").at("values"), json::array({"1, 2, 3"}));
            EXPECT_EQ(*attrOf(n, "scope"), 7);  // USER_SCOPE
        }
    }
    ASSERT_TRUE(ones && mul && t);
    EXPECT_EQ(*attrOf(*ones, "op_schema"), "aten::ones(int[] size, *, ScalarType? dtype=None, Device? device=None, bool requires_grad=False) -> Tensor")
        << "the op's schema as registered";
    const json& out = ones->at("outputs");
    ASSERT_EQ(out.at("values").size(), 1u);
    EXPECT_EQ(out.at("types")[0], "Tensor(float)");
    EXPECT_EQ(out.at("shapes")[0], json::array({3, 4}));
    EXPECT_EQ(out.at("strides")[0], json::array({4, 1}));
    const json& onesValue = out.at("values")[0];  // [tensor_id, storage_id, offset, numel, itemsize, device]
    EXPECT_EQ(onesValue[3], 12);
    EXPECT_EQ(onesValue[4], 4);
    EXPECT_EQ(onesValue[5], "cpu");
    // t() is a view: a new tensor on the same storage, which mul then reads.
    const json& tIn = t->at("inputs").at("values")[0];
    const json& tOut = t->at("outputs").at("values")[0];
    EXPECT_EQ(tIn, onesValue);
    EXPECT_NE(tOut[0], onesValue[0]);
    EXPECT_EQ(tOut[1], onesValue[1]);
    EXPECT_EQ(t->at("outputs").at("strides")[0], json::array({1, 4}));
    EXPECT_EQ(mul->at("inputs").at("values")[0], tOut);
    // As in PyTorch, a Python number in tensor arithmetic arrives as a 0-dim wrapped tensor.
    EXPECT_EQ(mul->at("inputs").at("types")[1], "Tensor(double)");
    EXPECT_EQ(mul->at("inputs").at("shapes")[1], json::array());
    EXPECT_EQ(mul->at("inputs").at("values")[1][3], 1);
}

TEST(Profiler, SessionTraceStreamsCompilePhasesOpsCallsAndKernels) {
    SKIP_WITHOUT_CPP_JIT();
    SessionOptions options;
    options.trace = true;
    ScriptRun run = runScriptWith(std::string(kPrelude) + "fn(a, b, c)\nfn(a, b, c)\npayload()\n", std::move(options));
    ASSERT_EQ(run.error, "");
    std::vector<TraceRecord> records;
    for (const auto& e : run.eventsOf<TraceEvent>()) records.push_back(e.record);
    std::vector<std::string> phases;
    for (const auto& r : records)
        if (r.category == TraceCategory::Compile) {
            phases.push_back(r.name);
            EXPECT_EQ(r.compileId, "0/0") << r.name;
        }
    std::sort(phases.begin(), phases.end());
    EXPECT_EQ(phases, (std::vector<std::string>{"capture __compiled_fn_0", "codegen __compiled_fn_0", "decompose __compiled_fn_0",
                                                "lower __compiled_fn_0", "schedule __compiled_fn_0", "toolchain __compiled_fn_0"}));
    std::map<int64_t, const TraceRecord*> byId;
    for (const auto& r : records) byId[r.rfId] = &r;
    int kernels = 0, eagerOps = 0;
    for (const auto& r : records) {
        EXPECT_LE(r.beginNs, r.endNs);
        if (r.category == TraceCategory::CpuOp) ++eagerOps;
        if (r.category != TraceCategory::Kernel) continue;
        ++kernels;
        // Kernel -> graph call (its flow source) -> compiled region.
        ASSERT_TRUE(byId.count(r.parentId));
        const TraceRecord& call = *byId[r.parentId];
        EXPECT_EQ(call.name, "## Call CompiledFxGraph __compiled_fn_0 ##");
        EXPECT_EQ(r.flowId, call.rfId);
        ASSERT_TRUE(byId.count(call.parentId));
        EXPECT_EQ(byId[call.parentId]->name, "Torch-Compiled Region: 0/0");
        EXPECT_GE(r.beginNs, call.beginNs);
        EXPECT_LE(r.endNs, call.endNs);
    }
    EXPECT_EQ(kernels, 4);
    EXPECT_EQ(eagerOps, 3 + 6);  // the three torch.ones, then payload's six ops
    // Records round-trip through their JSON form (bundles and the protocol carry them so).
    for (const auto& r : records) EXPECT_EQ(traceRecordToJson(traceRecordFromJson(traceRecordToJson(r))), traceRecordToJson(r));
}

TEST(Profiler, ScheduleActionsFollowSkipWaitWarmupActiveRepeat) {
    ProfileSchedule s{3, 1, 1, 2, 1};
    std::string actions;
    for (int step = 0; step < 10; ++step) {
        switch (s.at(step)) {
            case ProfilerAction::None: actions += '.'; break;
            case ProfilerAction::Warmup: actions += 'w'; break;
            case ProfilerAction::Record: actions += 'r'; break;
            case ProfilerAction::RecordAndSave: actions += 'S'; break;
        }
    }
    EXPECT_EQ(actions, "....wrS...");
    ProfileSchedule forever{0, 1, 0, 2, 0};
    std::string cycles;
    for (int step = 0; step < 7; ++step) cycles += forever.at(step) == ProfilerAction::None ? '.' : forever.at(step) == ProfilerAction::RecordAndSave ? 'S' : 'r';
    EXPECT_EQ(cycles, ".rS.rS.");
}

TEST(Profiler, ScriptMisuseGivesPythonErrors) {
    ScriptRun run = runScript("import torch\net = torch.profiler.ExecutionTraceObserver()\net.start()\n");
    EXPECT_EQ(run.error, "script.py:3:1: error: RuntimeError: ExecutionTraceObserver.start(): call register_callback(path) first");
    run = runScript("import torch\np = torch.profiler.profile(schedule=3)\n");
    EXPECT_EQ(run.error, "script.py:2:5: error: TypeError: profile(schedule=...) expects torch.profiler.schedule(...)");
    run = runScript("import torch\nprint(torch.profiler.ProfilerActivity.CUDA in torch.profiler.supported_activities())\n");
    EXPECT_EQ(run.out, "False\n");
}

// A session's records go to its own sinks only: a sink attached outside it (on another
// thread, as another session's would be in a serve process) hears none of them, and the
// session's trace stream none of the outside's.
TEST(Profiler, ASessionsRecordsReachOnlyItsOwnSinks) {
    std::vector<std::string> outside;
    FunctionTraceSink sink([&](const TraceRecord& r) { outside.push_back(r.name); });
    Profiler::attach(&sink);
    SessionOptions options;
    options.trace = true;
    ScriptRun run = runScriptWith("import torch\nx = torch.ones(2)\nprint(x + x)\n", std::move(options));
    { RecordScope own(TraceCategory::UserAnnotation, "outside the session"); }
    Profiler::detach(&sink);
    ASSERT_EQ(run.error, "");
    std::set<std::string> inside;
    for (const auto& e : run.eventsOf<TraceEvent>()) inside.insert(e.record.name);
    EXPECT_TRUE(inside.count("aten::add")) << "the session's own trace lost its records";
    EXPECT_FALSE(inside.count("outside the session"));
    EXPECT_EQ(outside, std::vector<std::string>{"outside the session"});
}

// A second session in one process (serve, minify) numbers its records and the objects they
// name as a fresh process does: from 1.
TEST(Profiler, ASecondSessionNumbersItsRecordsAsAFreshProcess) {
    auto traced = [] {
        SessionOptions options;
        options.trace = true;
        ScriptRun run = runScriptWith("import torch\nx = torch.ones(2)\nprint(x + x)\n", std::move(options));
        EXPECT_EQ(run.error, "");
        std::vector<std::string> records;
        for (const auto& e : run.eventsOf<TraceEvent>())
            records.push_back(e.record.name + " " + std::to_string(e.record.rfId) + " " + e.record.inputs.values.dump());
        return records;
    };
    std::vector<std::string> first = traced();
    ASSERT_FALSE(first.empty());
    EXPECT_EQ(traced(), first);
}

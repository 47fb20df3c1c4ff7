#include "serve_methods.h"

#include <filesystem>

#include <fmt/format.h>

#include "backends/backend.h"
#include "toolchain/cuda/cuda_compiler.h"
#include "bundle/bundle_format.h"
#include "bundle/bundle_recorder.h"
#include "bundle/bundle_writer.h"
#include "bundle/zip_archive.h"
#include "cli_commands.h"
#include "returned_files.h"
#include "graph/graph_json.h"
#include "schedule/fusion_explain.h"
#include "session/minify_session.h"

namespace fusescope::cli {

using nlohmann::json;
using protocol::Failure;

ScheduleArchive& ServedRuns::add(const json& id) {
    if (runs_.size() >= kKept) runs_.pop_front();
    runs_.emplace_back(id, std::make_unique<ScheduleArchive>(findBackend));
    return *runs_.back().second;
}

ScheduleArchive& ServedRuns::find(const std::optional<json>& id, json& foundId) const {
    if (runs_.empty()) throw Failure(protocol::kNotFound, "no run has been served yet");
    if (!id) {
        foundId = runs_.back().first;
        return *runs_.back().second;
    }
    for (const auto& [runId, archive] : runs_)
        if (runId == *id) {
            foundId = runId;
            return *archive;
        }
    throw Failure(protocol::kNotFound,
                  fmt::format("no run {} among the last {} runs the server keeps", id->dump(), kKept));
}

namespace {

struct RunParams {
    std::string source;
    std::string fileName;
    SessionOptions options;
    std::string bundle;       // where to write the run's bundle at its end; "" for none
    std::string bundleNamed;  // the bundle's path as the client named it (its own machine's with return_files)
    json manifestOptions;     // what the bundle's manifest records of the options
    std::unique_ptr<ReturnedFiles> returned;  // return_files: the bundle and debug folder go back in the answer
};

// The script's own modules sent with it (`files`: {"/path/model.py": "text", ...}).
std::map<std::string, std::string> sentFiles(const json& params) {
    std::map<std::string, std::string> files;
    auto it = params.find("files");
    if (it == params.end()) return files;
    if (!it->is_object()) throw Failure(protocol::kInvalidParams, "files must be an object of paths to the texts of the files");
    for (const auto& [path, text] : it->items()) {
        if (!text.is_string()) throw Failure(protocol::kInvalidParams, fmt::format("files['{}'] must be the file's text", path));
        files[std::filesystem::path(path).lexically_normal().string()] = text.get<std::string>();
    }
    return files;
}

// Checks the params of `run` and turns them into session options.
RunParams runParams(const json& params, const RunContext& context) {
    RunParams run;
    run.options.testHooks = context.testHooks;
    run.options.graphBreakCosts = true;  // the workbench's Graph Breaks view ranks them
    auto script = protocol::stringParam(params, "script");
    auto path = protocol::stringParam(params, "path");
    if (script.has_value() == path.has_value())
        throw Failure(protocol::kInvalidParams, "run needs exactly one of 'script' (the source text) and 'path'");
    if (path) {
        std::string why;
        std::optional<std::string> text = readScript(*path, why);
        if (!text) throw Failure(protocol::kInvalidParams, why);
        run.source = std::move(*text);
    } else {
        run.source = *script;
    }
    run.fileName = protocol::stringParam(params, "file_name").value_or(path ? *path : "script.py");

    std::string device = protocol::stringParam(params, "device").value_or("cpu");
    if (device != "cpu")
        throw Failure(protocol::kInvalidParams,
                      fmt::format("device '{}' is not supported: the engine runs tensors on 'cpu' only so far "
                                  "(gpu_codegen_only runs cuda tensors on the CPU and generates their CUDA kernels)",
                                  device));
    run.options.gpuCodegenOnly = protocol::boolParam(params, "gpu_codegen_only").value_or(false);
    run.options.cudaArch = protocol::stringParam(params, "cuda_arch").value_or(run.options.cudaArch);
    if (!CudaCompiler::validArch(run.options.cudaArch))
        throw Failure(protocol::kInvalidParams,
                      fmt::format("cuda_arch takes a GPU architecture like sm_90, not '{}'", run.options.cudaArch));
    if (auto backend = protocol::stringParam(params, "backend")) {
        if (!findBackend(*backend))
            throw Failure(protocol::kInvalidParams, unknownBackendMessage(*backend));
        run.options.backendOverride = *backend;
    }
    try {
        run.options.logs = LogSettings::parse(protocol::stringParam(params, "logs").value_or(""));
    } catch (const Error& e) {
        throw Failure(protocol::kInvalidParams, e.what());
    }
    run.options.trace = protocol::boolParam(params, "trace").value_or(false);
    run.options.checkAccuracy = protocol::boolParam(params, "check_accuracy").value_or(false);
    run.options.debugDir = protocol::stringParam(params, "debug_dir").value_or("");
    run.bundle = run.bundleNamed = protocol::stringParam(params, "bundle").value_or("");
    run.options.sentFiles = sentFiles(params);
    if (protocol::boolParam(params, "return_files").value_or(false)) {
        try {
            run.returned = std::make_unique<ReturnedFiles>();
        } catch (const Error& e) {
            throw Failure(protocol::kInternalError, e.what());
        }
        if (!run.options.debugDir.empty()) {
            run.options.debugDirShown = run.options.debugDir;
            run.options.debugDir = run.returned->redirect(run.options.debugDir, "debug");
        }
        if (!run.bundle.empty()) run.bundle = run.returned->redirect(run.bundle, "run.fscope");
    }
    if (!run.bundle.empty()) {
        if (!zipAvailable()) throw Failure(protocol::kInvalidParams, zipUnavailableReason());
        run.options.trace = true;  // the bundle's trace files are built from the trace_event stream
    }
    run.manifestOptions = {{"backend", run.options.backendOverride}, {"logs", protocol::stringParam(params, "logs").value_or("")},
                           {"trace", run.options.trace}, {"gpu_codegen_only", run.options.gpuCodegenOnly},
                           {"cuda_arch", run.options.cudaArch}, {"check_accuracy", run.options.checkAccuracy}};
    return run;
}

json locationJson(const SourceLocation& where) {
    return json{{"file", where.file}, {"line", where.line}, {"column", where.column}};
}

}  // namespace

json runMethod(const protocol::Request& request, ServedRuns& runs, const RunContext& context) {
    RunParams run = runParams(request.params, context);
    ScheduleArchive& archive = runs.add(request.id);
    run.options.compilers = archive.lookup();
    ScriptSession session(std::move(run.options));
    int64_t events = 0;
    BundleRecorder recorder;
    session.bus().subscribe([&](const Event& event) {
        ++events;
        context.send(protocol::eventMessage(request.id, event));
        if (!run.bundle.empty()) recorder.consume(event);
    });
    // The bundle is written however the run ends: a failed run's events say how far it got.
    std::string bundleError;
    auto writeRunBundle = [&] {
        if (run.bundle.empty()) return;
        try {
            writeBundle(run.bundle, recorder.entries(makeManifest(run.fileName, session.ranOn(), run.manifestOptions), run.source));
        } catch (const Error& e) {
            bundleError = e.what();
        }
    };

    try {
        RunningSession cancellable(context.setRunning, session);
        session.run(run.source, run.fileName);
    } catch (const Error& e) {
        const auto* scriptError = dynamic_cast<const ScriptError*>(&e);
        bool cancelled = session.cancelRequested() && scriptError && scriptError->kind() == "KeyboardInterrupt";
        writeRunBundle();
        json data = {{"where", locationJson(e.where())}};
        if (!run.bundle.empty()) data[bundleError.empty() ? "bundle" : "bundle_error"] = bundleError.empty() ? run.bundleNamed : bundleError;
        if (run.returned) data["files"] = run.returned->collect();
        throw Failure(cancelled ? protocol::kCancelled : protocol::kScriptError, describeError(e), data);
    }
    writeRunBundle();

    json graphs = json::array();
    for (const auto& g : archive.graphs())
        graphs.push_back({{"compile_id", g.compileId}, {"graph", g.graphName}, {"backend", g.backend}});
    json result = {{"compiles", session.compileCount()}, {"graphs", graphs}, {"events", events}};
    if (!run.bundle.empty()) result[bundleError.empty() ? "bundle" : "bundle_error"] = bundleError.empty() ? run.bundleNamed : bundleError;
    if (run.returned) result["files"] = run.returned->collect();
    return result;
}

json explainFusionMethod(const protocol::Request& request, ServedRuns& runs) {
    const json& params = request.params;
    std::string compileId = protocol::requiredStringParam(params, "compile_id");
    auto graphName = protocol::stringParam(params, "graph");
    std::string node1 = protocol::requiredStringParam(params, "node1");
    std::string node2 = protocol::requiredStringParam(params, "node2");
    if (node1 == node2) throw Failure(protocol::kInvalidParams, "node1 and node2 name the same node");
    json runId;
    ScheduleArchive& archive = runs.find(protocol::idParam(params, "run"), runId);
    try {
        const auto& graph = archive.graph(compileId, graphName);
        FusionExplanation e = explainFusion(archive.schedule(graph), node1, node2);
        std::string kind(e.kind ? fusionKindName(*e.kind) : "");
        return json{{"run", runId},          {"compile_id", compileId}, {"graph", graph.graphName},
                    {"node1", e.node1},      {"node2", e.node2},        {"kernel1", e.kernel1},
                    {"kernel2", e.kernel2},  {"fused", e.fused},        {"considered", e.considered},
                    {"step", e.step},        {"kind", kind},            {"reason", e.reason}};
    } catch (const Error& e) {
        throw Failure(protocol::kNotFound, e.what());
    }
}

json minifyMethod(const protocol::Request& request, const RunContext& context) {
    RunParams run = runParams(request.params, context);
    MinifyRequest minify;
    minify.source = std::move(run.source);
    minify.fileName = run.fileName;
    minify.options = std::move(run.options);
    minify.options.trace = false;
    minify.options.debugDir.clear();
    minify.after = protocol::stringParam(request.params, "after").value_or("dynamo");
    if (minify.after != "dynamo" && minify.after != "aot")
        throw Failure(protocol::kInvalidParams, "after takes dynamo or aot, not '" + minify.after + "'");
    minify.accuracy = protocol::boolParam(request.params, "accuracy").value_or(false);
    minify.setRunning = context.setRunning;
    MinifyOptions options;
    options.progress = [&](const std::string& line) {
        context.send(protocol::eventMessage(request.id, LogEvent{"", "minifier", false, LogLevel::Info, line}));
    };
    options.cancelled = context.cancelled;
    MinifyResult result;
    try {
        result = minifyScript(minify, options);
    } catch (const Error& e) {
        if (context.cancelled && context.cancelled()) throw Failure(protocol::kCancelled, e.what());
        throw Failure(protocol::kScriptError, e.what());
    }
    const GraphFailure& f = result.failure;
    return json{{"compile_id", f.compileId},
                {"function", f.function},
                {"graph", f.graphName},
                {"backend", f.backend},
                {"kind", failureKindName(f.kind)},
                {"error", f.error},
                {"start_nodes", result.minified.startNodes},
                {"end_nodes", result.minified.endNodes},
                {"queries", result.minified.queries},
                {"minimal_error", result.minified.error},
                {"minimal_graph", graphToJson(*result.minified.graph)},
                {"repro", result.repro},
                {"repro_error", result.reproError}};
}

}  // namespace fusescope::cli

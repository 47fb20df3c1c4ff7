#include "session/minify_session.h"

#include <optional>

#include <fmt/format.h>

#include "backends/backend.h"

namespace fusescope {

namespace {

// The first graph failure of a run of the script; the run stops there.
std::optional<GraphFailure> firstFailure(const MinifyRequest& request, const MinifyOptions& options) {
    std::optional<GraphFailure> first;
    SessionOptions sessionOptions = request.options;
    sessionOptions.checkAccuracy = request.accuracy;
    ScriptSession* running = nullptr;
    sessionOptions.onGraphFailure = [&](const GraphFailure& f) {
        if (first) return;
        first = f;
        running->cancel();
    };
    ScriptSession session(sessionOptions);
    running = &session;
    if (options.progress) options.progress(fmt::format("Running {} to find a failing graph", request.fileName));
    try {
        RunningSession cancellable(request.setRunning, session);
        session.run(request.source, request.fileName);
    } catch (const Error&) {
        // The failure (or the cancel that followed it) ends the run; a script error without a
        // failing graph is said below.
    }
    return first;
}

}  // namespace

MinifyResult minifyScript(const MinifyRequest& request, const MinifyOptions& options) {
    std::optional<GraphFailure> failure = firstFailure(request, options);
    if (options.cancelled && options.cancelled()) throw Error("minifying cancelled");
    if (!failure)
        throw Error(request.accuracy ? "no compiled graph failed to compile, failed to run or gave results that differ from eager"
                                     : "no compiled graph failed to compile or to run (add --accuracy to look for wrong results)");
    if (options.progress)
        options.progress(fmt::format("{} of {} (compile {}, backend {}) failed: {} error\n{}", failure->graphName,
                                     failure->function, failure->compileId, failure->backend,
                                     failureKindName(failure->kind), failure->error));
    const GraphCompiler* backend = request.options.compilers ? request.options.compilers(failure->backend)
                                                             : findBackend(failure->backend);
    if (!backend) throw Error("backend '" + failure->backend + "' is not available");
    MinifyResult result;
    result.minified = minifyGraph(*failure, *backend, request.after, options);
    result.repro = reproScript(result.minified, *failure);
    result.failure = std::move(*failure);

    SessionOptions check = request.options;
    check.checkAccuracy = false;
    ScriptSession session(check);
    try {
        RunningSession cancellable(request.setRunning, session);
        session.run(result.repro, request.reproName);
    } catch (const Error& e) {
        result.reproError = describeError(e);
    }
    return result;
}

}  // namespace fusescope

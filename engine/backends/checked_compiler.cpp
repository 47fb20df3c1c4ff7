#include "backends/checked_compiler.h"

#include <algorithm>
#include <map>

#include <fmt/format.h>

#include "backends/accuracy.h"
#include "backends/backend.h"
#include "capture/symbolic_sizes.h"
#include "core/random.h"
#include "observe/log_registry.h"
#include "dispatch/dispatcher.h"

namespace fusescope {

namespace {

// "Traceback (most recent call last):" into the script, from the graph node the error
// points at; empty when it points nowhere in the graph.
std::string traceback(const Graph& graph, const SourceLocation& where) {
    for (const auto& node : graph.nodes()) {
        if (!where.known() || node->where.file != where.file || node->where.line != where.line) continue;
        std::string text = "Traceback (most recent call last):\n";
        for (const StackFrame& frame : node->stack) text += fmt::format("  {}\n    {}\n", frame.str(), frame.sourceLine);
        return text;
    }
    return "";
}

SourceLocation outputWhere(const Graph& graph, size_t output) {
    const Argument& out = graph.outputs().at(output);
    return out.kind == Argument::Kind::NodeRef ? out.node->where : SourceLocation{};
}

}  // namespace

std::vector<Tensor> copiesOf(const std::vector<Tensor>& tensors) {
    // Tensors that are views of one storage (of one dtype) become views of one copy of it, so
    // a change through one shows through the others, as in the originals.
    auto sharesStorage = [&tensors](const Tensor& t) {
        return std::count_if(tensors.begin(), tensors.end(), [&t](const Tensor& u) {
                   return u.defined() && u.storage() && u.storage() == t.storage() && u.dtype() == t.dtype();
               }) > 1;
    };
    std::map<const Storage*, Tensor> storageCopies;
    std::vector<Tensor> out;
    for (const Tensor& t : tensors) {
        if (!t.defined()) {
            out.push_back(t);
            continue;
        }
        Tensor copy;
        if (t.storage() && t.device().isCpu() && sharesStorage(t)) {
            Tensor& whole = storageCopies[t.storage().get()];
            const auto elements = static_cast<int64_t>(t.storage()->nbytes() / dtypeSize(t.dtype()));
            if (!whole.defined()) whole = dispatch("clone", {IValue(t.asStrided({elements}, {1}, 0))}, {}).toTensor();
            copy = whole.asStrided(t.sizes(), t.strides(), t.storageOffset());
        } else {
            copy = dispatch("clone", {IValue(t)}, {}).toTensor();
        }
        copy.setDevice(t.device());
        copy.setRequiresGrad(t.requiresGrad());
        copy.impl()->autograd.gradFn = t.impl()->autograd.gradFn;  // a copy of a leaf is a leaf here
        out.push_back(copy);
    }
    return out;
}

const char* failureKindName(GraphFailure::Kind kind) {
    switch (kind) {
    case GraphFailure::Kind::Compile: return "compile";
    case GraphFailure::Kind::Runtime: return "runtime";
    case GraphFailure::Kind::Accuracy: return "accuracy";
    }
    return "";
}

std::string errorText(const Error& error) {
    const auto* se = dynamic_cast<const ScriptError*>(&error);
    return se && !se->kind().empty() ? se->kind() + (std::string(error.what()).empty() ? "" : ": " + std::string(error.what()))
                                     : error.what();
}

std::string errorType(const Error& error) {
    const auto* se = dynamic_cast<const ScriptError*>(&error);
    return se ? se->kind() : "Error";
}

void CheckedCompiler::report(const GraphFailure& failure, const CompileRequest& request) const {
    if (request.bus)
        request.bus->emit(GraphFailureEvent{failure.compileId, failure.function, failure.graphName, failure.backend,
                                            failureKindName(failure.kind), failure.error, failure.where});
    if (options_.onFailure) options_.onFailure(failure);
}

CompiledGraph CheckedCompiler::compile(std::shared_ptr<const Graph> graph, const CompileRequest& request) const {
    CompiledGraph run;
    // Compiled for the example sizes only, a graph whose sizes can't be symbolic would be
    // wrong for the other sizes its guards admit: eagerly, it is right for all of them.
    auto runEagerly = [&](const std::string& why) {
        if (request.logger)
            request.logger->log("dynamic", LogLevel::Warning, request.compileId,
                                fmt::format("{}: cannot compile for dynamic sizes: {}; running the graph eagerly", request.graphName, why));
        if (request.bus) request.bus->emit(EagerFallbackEvent{request.compileId, request.graphName, name(), "dynamic sizes: " + why});
        return eagerRunner(graph, request.device);
    };
    try {
        run = request.notSymbolic.empty() ? inner_.compile(graph, request) : runEagerly(request.notSymbolic);
    } catch (const SymbolicSizesUnsupported& e) {
        run = runEagerly(e.what());
    } catch (const Error& e) {
        std::string cause = errorText(e);
        GraphFailure failure{GraphFailure::Kind::Compile, request.compileId, request.function, request.graphName, name(),
                             graph, request.exampleInputs ? copiesOf(*request.exampleInputs) : std::vector<Tensor>{}, cause,
                             errorType(e), e.where(), request.settings};
        report(failure, request);
        std::string failed = fmt::format("backend='{}' raised:\n{}", name(), cause);
        if (!request.suppressErrors) throw ScriptError("BackendCompilerFailed", failed, e.where());
        if (request.bus) request.bus->emit(EagerFallbackEvent{request.compileId, request.graphName, name(), cause});
        if (request.logger)
            request.logger->log("dynamo", LogLevel::Warning, request.compileId,
                                fmt::format("WON'T CONVERT {} {} line {}\ndue to:\n{}BackendCompilerFailed: {}", request.function,
                                            request.functionWhere.file, request.functionWhere.line, traceback(*graph, e.where()),
                                            failed));
        run = eagerRunner(graph, request.device);
    }
    CompileRequest later = request;
    later.exampleInputs = nullptr;
    return [this, run, graph, later](const std::vector<Tensor>& inputs) { return runChecked(run, graph, later, inputs); };
}

std::vector<Tensor> CheckedCompiler::runChecked(const CompiledGraph& run, const std::shared_ptr<const Graph>& graph,
                                                const CompileRequest& request, const std::vector<Tensor>& inputs) const {
    // The graph may write to its inputs: the minifier and the eager reference need them as
    // they were (copied only when someone will look).
    std::vector<Tensor> before = options_.checkAccuracy || options_.onFailure ? copiesOf(inputs) : std::vector<Tensor>{};
    auto failure = [&](GraphFailure::Kind kind, std::string error, std::string type, SourceLocation where) {  // made only on failure
        return GraphFailure{kind, request.compileId, request.function, request.graphName, name(), graph, before,
                            std::move(error), std::move(type), std::move(where), request.settings};
    };
    std::optional<std::mt19937_64> randomBefore;  // the eager reference draws the same random numbers
    if (options_.checkAccuracy) randomBefore = globalGenerator();
    std::vector<Tensor> outputs;
    try {
        outputs = run(inputs);
    } catch (const Error& e) {
        report(failure(GraphFailure::Kind::Runtime, errorText(e), errorType(e), e.where()), request);
        throw;
    }
    if (!options_.checkAccuracy) return outputs;
    const std::mt19937_64 randomAfter = globalGenerator();
    globalGenerator() = *randomBefore;
    std::optional<AccuracyMismatch> mismatch = compareWithEager(*graph, copiesOf(before), outputs);
    globalGenerator() = randomAfter;
    if (!mismatch) return outputs;
    std::string error = fmt::format("Accuracy failed for {} (backend '{}'): {}", request.graphName, name(), mismatch->str());
    SourceLocation where = outputWhere(*graph, mismatch->output);
    report(failure(GraphFailure::Kind::Accuracy, error, "accuracy", where), request);
    if (!request.suppressErrors) throw ScriptError("AccuracyError", error, where);
    if (request.logger) request.logger->log("dynamo", LogLevel::Error, request.compileId, error);
    return outputs;
}

}  // namespace fusescope

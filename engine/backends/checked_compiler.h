#pragma once
// Every backend is called through a CheckedCompiler, as Dynamo wraps its backend calls:
//  - a compile that raises logs WON'T CONVERT (the function, its def line, the error with a
//    traceback into the script) and the graph runs eagerly; with
//    torch._dynamo.config.suppress_errors = False it raises BackendCompilerFailed instead;
//  - with accuracy checking on, every run's outputs are compared with eager
//    (backends/accuracy.h): a difference is logged as an error, and raised as
//    AccuracyError when errors are not suppressed;
//  - every failure (compile, run time, accuracy) is emitted as a graph_failure event and
//    handed, with the graph and a copy of its inputs, to the failure sink: the minifier's
//    starting point.

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "graph/graph_compiler.h"

namespace fusescope {

struct GraphFailure {
    enum class Kind { Compile, Runtime, Accuracy };
    Kind kind = Kind::Compile;
    std::string compileId, function, graphName, backend;
    std::shared_ptr<const Graph> graph;
    std::vector<Tensor> inputs;  // copies of the inputs it failed on
    std::string error;           // "ReluCompileError: ..." or the accuracy mismatch
    std::string errorType;       // the exception's class ("ReluCompileError"), or "accuracy"
    SourceLocation where;
    CompileSettings settings;  // the session's, so the minifier compiles as the failing run did
};
const char* failureKindName(GraphFailure::Kind kind);  // "compile", "runtime", "accuracy"

// Copies of tensors (device and requires_grad kept): inputs as they were before a run.
std::vector<Tensor> copiesOf(const std::vector<Tensor>& tensors);

// "KIND: message" for a ScriptError, the message otherwise.
std::string errorText(const Error& error);
// The exception's class: a ScriptError's kind, "Error" for the engine's own.
std::string errorType(const Error& error);

struct CheckOptions {
    bool checkAccuracy = false;
    std::function<void(const GraphFailure&)> onFailure;  // may be empty
};

class CheckedCompiler : public GraphCompiler {
public:
    CheckedCompiler(const GraphCompiler& inner, CheckOptions options) : inner_(inner), options_(std::move(options)) {}
    std::string name() const override { return inner_.name(); }
    bool throughAot() const override { return inner_.throughAot(); }
    CompiledGraph compile(std::shared_ptr<const Graph> graph, const CompileRequest& request) const override;

private:
    void report(const GraphFailure& failure, const CompileRequest& request) const;
    std::vector<Tensor> runChecked(const CompiledGraph& run, const std::shared_ptr<const Graph>& graph,
                                   const CompileRequest& request, const std::vector<Tensor>& inputs) const;

    const GraphCompiler& inner_;
    CheckOptions options_;
};

}  // namespace fusescope

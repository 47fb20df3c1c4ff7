// The debugging backends, after seed 001: each runs more of the real compiler than the one
// before, so the first backend whose results go wrong names the broken stage:
//   eager                        the captured graph, op by op
//   aot_eager                    after AOT Autograd's decompositions
//   aot_eager_decomp_partition   after all of Inductor's decompositions
//   inductor                     lowered, fused, generated and compiled
// eager_noexcept wraps any run-time exception in one clear error. The *_TESTING_ONLY
// backends inject a failure where the graph calls relu, so the repro tools can be tested.

#include <algorithm>

#include <fmt/format.h>

#include "aot/aot_function.h"
#include "backends/backend.h"
#include "decompose/decompose.h"
#include "dispatch/dispatcher.h"

namespace fusescope {

namespace {

using Transform = std::shared_ptr<Graph> (*)(const Graph&, const TestHooks&);

// Runs the graph, after an optional rewrite, through the op registry.
class EagerBackend : public GraphCompiler {
public:
    EagerBackend(std::string name, Transform transform = nullptr) : name_(std::move(name)), transform_(transform) {}
    std::string name() const override { return name_; }
    bool throughAot() const override { return transform_ != nullptr; }
    CompiledGraph compile(std::shared_ptr<const Graph> graph, const CompileRequest& request) const override {
        if (!transform_) return eagerRunner(graph, request.device);
        return compileThroughAot(graph, request, [transform = transform_](std::shared_ptr<const Graph> g, const CompileRequest& r) {
            return eagerRunner(transform(*g, r.settings.testHooks), r.device);
        });
    }

private:
    std::string name_;
    Transform transform_;
};

class EagerNoExceptBackend : public GraphCompiler {
public:
    std::string name() const override { return "eager_noexcept"; }
    CompiledGraph compile(std::shared_ptr<const Graph> graph, const CompileRequest& request) const override {
        std::string graphName = request.graphName;
        return [graph, graphName](const std::vector<Tensor>& inputs) {
            try {
                return runGraphEagerly(*graph, inputs);
            } catch (const Error& e) {
                const auto* se = dynamic_cast<const ScriptError*>(&e);
                std::string cause = se ? se->kind() + ": " + e.what() : e.what();
                throw ScriptError("TorchDynamoException",
                                  fmt::format("Unexpected exception when running generated graph {}: {}", graphName, cause),
                                  e.where());
            }
        };
    }
};

bool isRelu(const Node& node) { return node.op != NodeOp::Placeholder && (node.target == "relu" || node.target == "relu_"); }

class ReluCompileErrorBackend : public GraphCompiler {
public:
    std::string name() const override { return "relu_compile_error_TESTING_ONLY"; }
    CompiledGraph compile(std::shared_ptr<const Graph> graph, const CompileRequest&) const override {
        for (const auto& node : graph->nodes())
            if (isRelu(*node))
                throw ScriptError("ReluCompileError", "the graph calls relu (" + name() + " refuses it)", node->where);
        return eagerRunner(graph);
    }
};

// Runs the graph with every relu replaced: by a failed assertion, or by x + 1.
class ReluReplacingInterpreter : public GraphInterpreter {
public:
    ReluReplacingInterpreter(const Graph& graph, bool raise) : GraphInterpreter(graph), raise_(raise) {}

protected:
    IValue callNode(const Node& node, const IValueList& args, const Kwargs& kwargs) override {
        if (!isRelu(node)) return GraphInterpreter::callNode(node, args, kwargs);
        if (raise_) throw ScriptError("AssertionError", "ReluRuntimeError", node.where);
        return dispatch("add", {args.at(0), IValue(int64_t(1))}, {});
    }

private:
    bool raise_;
};

class ReluReplacingBackend : public GraphCompiler {
public:
    ReluReplacingBackend(std::string name, bool raise) : name_(std::move(name)), raise_(raise) {}
    std::string name() const override { return name_; }
    CompiledGraph compile(std::shared_ptr<const Graph> graph, const CompileRequest&) const override {
        bool raise = raise_;
        return [graph, raise](const std::vector<Tensor>& inputs) { return ReluReplacingInterpreter(*graph, raise).run(inputs); };
    }

private:
    std::string name_;
    bool raise_;
};

class NonLeafCompileErrorBackend : public GraphCompiler {
public:
    std::string name() const override { return "non_leaf_compile_error_TESTING_ONLY"; }
    CompiledGraph compile(std::shared_ptr<const Graph> graph, const CompileRequest& request) const override {
        if (graph->opCount() > 0 && request.exampleInputs)
            for (const Tensor& t : *request.exampleInputs)
                if (t.defined() && !t.isLeaf())
                    throw ScriptError("TestingOnlyCompileError", "an input of the graph is not a leaf tensor (" + name() + ")");
        return eagerRunner(graph);
    }
};

const std::vector<const GraphCompiler*>& registry() {
    static const EagerBackend eager("eager"), aotEager("aot_eager", decomposeForAot),
        aotEagerDecompPartition("aot_eager_decomp_partition", decomposeForInductor);
    static const EagerNoExceptBackend eagerNoExcept;
    static const ReluCompileErrorBackend reluCompileError;
    static const ReluReplacingBackend reluRuntimeError("relu_runtime_error_TESTING_ONLY", true),
        reluAccuracyError("relu_accuracy_error_TESTING_ONLY", false);
    static const NonLeafCompileErrorBackend nonLeafCompileError;
    static const std::vector<const GraphCompiler*> all = {
        &eager, &eagerNoExcept, &aotEager, &aotEagerDecompPartition, &inductorBackend(),
        &reluCompileError, &reluRuntimeError, &reluAccuracyError, &nonLeafCompileError};
    return all;
}

}  // namespace

const GraphCompiler* findBackend(const std::string& name) {
    for (const GraphCompiler* backend : registry())
        if (backend->name() == name) return backend;
    return nullptr;
}

std::vector<std::string> backendNames() {
    std::vector<std::string> names;
    for (const GraphCompiler* backend : registry()) names.push_back(backend->name());
    return names;
}

}  // namespace fusescope

#include "backends/minifier.h"

#include <algorithm>
#include <map>
#include <set>

#include <fmt/format.h>

#include "backends/accuracy.h"
#include "backends/backend.h"
#include "core/tensor_format.h"
#include "decompose/decompose.h"
#include "graph/graph_printer.h"

namespace fusescope {

namespace {

constexpr int64_t kLargestInlineInput = 1 << 16;  // elements; larger inputs are made random

// What a candidate graph keeps of the original: its outputs, the op nodes whose values are
// fed in as inputs instead of computed, the op nodes removed (their users read the node's
// input instead), and whether inputs nothing reads stay.
struct Candidate {
    std::vector<Argument> outputs;
    std::set<const Node*> fed;
    std::map<const Node*, const Node*> bypassed;
    bool keepUnusedInputs = true;
};

struct Built {
    std::shared_ptr<Graph> graph;
    std::vector<Tensor> inputs;
    std::vector<const Node*> computed;  // original op nodes it computes, in order
    int nodes = 0;                      // inputs plus op nodes
};

TensorMeta staticMeta(TensorMeta meta) {
    meta.symbols.assign(meta.sizes.size(), "");
    return meta;
}

void collectRefs(const Argument& arg, std::vector<const Node*>& out) {
    if (arg.kind == Argument::Kind::NodeRef) out.push_back(arg.node);
    for (const Argument& item : arg.items) collectRefs(item, out);
}

Argument remap(const Argument& arg, const std::unordered_map<const Node*, Node*>& nodes) {
    if (arg.kind == Argument::Kind::NodeRef) return Argument::ref(nodes.at(arg.node), arg.outputIndex);
    if (arg.kind == Argument::Kind::Constant) return arg;
    std::vector<Argument> items;
    for (const Argument& item : arg.items) items.push_back(remap(item, nodes));
    return Argument::sequence(std::move(items), arg.kind == Argument::Kind::Tuple);
}

class Minifier {
public:
    Minifier(std::shared_ptr<const Graph> graph, std::vector<Tensor> inputs, const GraphCompiler& backend,
             const GraphFailure& failure, const MinifyOptions& options)
        : graph_(std::move(graph)), inputs_(std::move(inputs)), backend_(backend), failure_(failure), options_(options) {
        try {
            GraphInterpreter eager(*graph_);
            eager.run(copiesOf(inputs_));
            values_ = eager.results();
        } catch (const Error&) {
            // Eager fails too: nodes cannot be replaced by their values.
        }
    }

    Built build(const Candidate& c) const {
        std::set<const Node*> needed;
        std::vector<const Node*> pending;
        for (const Argument& out : c.outputs) collectRefs(out, pending);
        while (!pending.empty()) {
            const Node* n = pending.back();
            pending.pop_back();
            if (!needed.insert(n).second || n->op == NodeOp::Placeholder || c.fed.count(n)) continue;
            if (auto by = c.bypassed.find(n); by != c.bypassed.end()) {
                pending.push_back(by->second);
                continue;
            }
            for (const Argument& a : n->args) collectRefs(a, pending);
            for (const auto& [name, a] : n->kwargs) collectRefs(a, pending);
        }
        Built b;
        b.graph = std::make_shared<Graph>();
        std::unordered_map<const Node*, Node*> nodes;
        size_t nextInput = 0;
        for (const auto& n : graph_->nodes()) {
            if (n->op != NodeOp::Placeholder) continue;
            const Tensor& input = inputs_.at(nextInput++);
            if (!c.keepUnusedInputs && !needed.count(n.get())) continue;
            nodes[n.get()] = b.graph->addPlaceholder(n->target, staticMeta(n->meta.at(0)));
            b.inputs.push_back(input);
        }
        for (const auto& n : graph_->nodes())
            if (c.fed.count(n.get()) && needed.count(n.get())) {
                nodes[n.get()] = b.graph->addPlaceholder(fmt::format("L['{}']", n->name), staticMeta(n->meta.at(0)));
                b.inputs.push_back(values_.at(n.get()).toTensor());
            }
        for (const auto& n : graph_->nodes()) {
            if (n->op == NodeOp::Placeholder || c.fed.count(n.get()) || !needed.count(n.get())) continue;
            if (auto by = c.bypassed.find(n.get()); by != c.bypassed.end()) {
                nodes[n.get()] = nodes.at(by->second);
                continue;
            }
            Node* copy = b.graph->addCopyOf(*n, [&](const Argument& a) { return remap(a, nodes); });
            for (TensorMeta& m : copy->meta) m = staticMeta(m);
            nodes[n.get()] = copy;
            b.computed.push_back(n.get());
        }
        std::vector<Argument> outputs;
        for (const Argument& out : c.outputs) outputs.push_back(remap(out, nodes));
        b.graph->setOutputs(std::move(outputs));
        b.nodes = static_cast<int>(b.graph->placeholders().size()) + b.graph->opCount();
        return b;
    }

    // The failure's message when `b` fails the expected way.
    std::optional<std::string> reproduces(const Built& b) {
        if (options_.cancelled && options_.cancelled()) throw Error("minifying cancelled");
        ++queries_;
        CompileRequest request;
        request.compileId = failure_.compileId;
        request.function = failure_.function;
        request.graphName = "repro";
        request.backend = backend_.name();
        request.exampleInputs = &b.inputs;
        request.suppressErrors = false;
        request.settings = failure_.settings;
        for (const Tensor& t : b.inputs)
            if (t.defined() && !t.device().isCpu()) request.device = t.device();
        auto matches = [&](const Error& e) -> std::optional<std::string> {
            if (errorType(e) != failure_.errorType) return std::nullopt;
            return errorText(e);
        };
        CompiledGraph run;
        try {
            run = backend_.compile(b.graph, request);
        } catch (const Error& e) {
            return failure_.kind == GraphFailure::Kind::Compile ? matches(e) : std::nullopt;
        }
        std::vector<Tensor> outputs;
        try {
            outputs = run(copiesOf(b.inputs));
        } catch (const Error& e) {
            return failure_.kind == GraphFailure::Kind::Runtime ? matches(e) : std::nullopt;
        }
        if (failure_.kind != GraphFailure::Kind::Accuracy) return std::nullopt;
        std::optional<AccuracyMismatch> mismatch;
        try {
            mismatch = compareWithEager(*b.graph, copiesOf(b.inputs), outputs);
        } catch (const Error&) {
            return std::nullopt;
        }
        if (!mismatch) return std::nullopt;
        return fmt::format("Accuracy failed for repro (backend '{}'): {}", backend_.name(), mismatch->str());
    }

    // Takes `c` when it is smaller than the best so far (fewer nodes, or as many with fewer
    // ops: an op fed as an input can leave inputs nothing reads for a later strategy) and
    // still fails.
    bool tryCandidate(const Candidate& c) {
        Built b = build(c);
        bool smaller = b.nodes < best_.nodes || (b.nodes == best_.nodes && b.graph->opCount() < best_.graph->opCount());
        if (!smaller) return false;
        std::optional<std::string> error = reproduces(b);
        if (!error) return false;
        bestCandidate_ = c;
        best_ = std::move(b);
        error_ = *error;
        return true;
    }

    bool truncateSuffix() {
        std::vector<const Node*> order = best_.computed;
        for (size_t end = 0; end + 1 < order.size(); ++end) {
            std::set<const Node*> prefix(order.begin(), order.begin() + static_cast<long>(end) + 1);
            std::set<const Node*> used;
            for (const Node* n : prefix) {
                std::vector<const Node*> refs;
                for (const Argument& a : n->args) collectRefs(a, refs);
                for (const auto& [name, a] : n->kwargs) collectRefs(a, refs);
                used.insert(refs.begin(), refs.end());
            }
            Candidate c = bestCandidate_;
            c.outputs.clear();
            for (const Node* n : prefix)
                if (!used.count(n) && !n->returnsTuple) c.outputs.push_back(Argument::ref(const_cast<Node*>(n)));
            if (!c.outputs.empty() && tryCandidate(c)) return true;
        }
        return false;
    }

    // Drops one op whose first tensor argument has the same size and dtype as its result:
    // its users read that argument instead.
    bool removeSingleNodes() {
        bool shrunk = false;
        const std::vector<const Node*> computed = best_.computed;
        for (const Node* n : computed) {
            if (std::find(best_.computed.begin(), best_.computed.end(), n) == best_.computed.end()) continue;  // gone
            if (n->returnsTuple || n->meta.size() != 1 || n->args.empty()) continue;
            const Argument& first = n->args.front();
            if (first.kind != Argument::Kind::NodeRef || first.outputIndex >= 0 || first.node->meta.size() != 1) continue;
            const TensorMeta &in = first.node->meta[0], &out = n->meta[0];
            if (in.sizes != out.sizes || in.dtype != out.dtype) continue;
            Candidate c = bestCandidate_;
            c.bypassed[n] = first.node;
            shrunk = tryCandidate(c) || shrunk;
        }
        return shrunk;
    }

    bool removeOutputs() {
        for (size_t i = 0; bestCandidate_.outputs.size() > 1 && i < bestCandidate_.outputs.size(); ++i) {
            Candidate c = bestCandidate_;
            c.outputs.erase(c.outputs.begin() + static_cast<long>(i));
            if (tryCandidate(c)) return true;
        }
        return false;
    }

    bool replaceByInputs() {
        std::vector<const Node*> feedable;
        for (const Node* n : best_.computed)
            if (!n->returnsTuple && values_.count(n) && values_.at(n).isTensor()) feedable.push_back(n);
        bool shrunk = false;
        for (size_t run = std::max<size_t>(1, feedable.size() / 2); run >= 1; run /= 2) {
            for (size_t start = 0; start < feedable.size(); start += run) {
                Candidate c = bestCandidate_;
                for (size_t i = start; i < std::min(feedable.size(), start + run); ++i) c.fed.insert(feedable[i]);
                shrunk = tryCandidate(c) || shrunk;
            }
            if (run == 1) break;
        }
        return shrunk;
    }

    bool removeUnusedInputs() {
        if (!bestCandidate_.keepUnusedInputs) return false;
        Candidate c = bestCandidate_;
        c.keepUnusedInputs = false;
        return tryCandidate(c);
    }

    MinifiedGraph run() {
        Candidate start;
        start.outputs = graph_->outputs();
        bestCandidate_ = start;
        best_ = build(start);
        int startNodes = best_.nodes;
        say(fmt::format("Started off with {} nodes", startNodes));
        std::optional<std::string> error = reproduces(best_);
        if (!error) throw Error("the failure does not reproduce when the graph is compiled on its own");
        error_ = *error;
        struct Strategy {
            const char* name;
            bool (Minifier::*apply)();
        };
        const Strategy strategies[] = {{"truncate suffix", &Minifier::truncateSuffix},
                                       {"remove outputs", &Minifier::removeOutputs},
                                       {"remove single nodes", &Minifier::removeSingleNodes},
                                       {"replace nodes by inputs", &Minifier::replaceByInputs},
                                       {"remove unused inputs", &Minifier::removeUnusedInputs}};
        for (bool shrunk = true; shrunk;) {
            shrunk = false;
            for (const Strategy& s : strategies) {
                int before = best_.nodes, opsBefore = best_.graph->opCount();
                bool success = (this->*s.apply)();
                std::string ops = before == best_.nodes ? fmt::format(" ({} ops to {})", opsBefore, best_.graph->opCount()) : "";
                say(success ? fmt::format("Strategy: {}: went from {} to {} nodes{}", s.name, before, best_.nodes, ops)
                            : fmt::format("Strategy: {}: no smaller graph fails", s.name));
                shrunk = shrunk || success;
            }
        }
        say(fmt::format("Made {} queries", queries_));
        say(fmt::format("Went from {} to {} nodes", startNodes, best_.nodes));
        return MinifiedGraph{best_.graph, best_.inputs, error_, startNodes, best_.nodes, queries_};
    }

private:
    void say(const std::string& line) const {
        if (options_.progress) options_.progress(line);
    }

    std::shared_ptr<const Graph> graph_;
    std::vector<Tensor> inputs_;
    const GraphCompiler& backend_;
    const GraphFailure& failure_;
    const MinifyOptions& options_;
    std::unordered_map<const Node*, IValue> values_;  // each node's eager value
    Candidate bestCandidate_;
    Built best_;
    std::string error_;
    int queries_ = 0;
};

// ---- repro.py --------------------------------------------------------------------------

std::string elementLiteral(const Tensor& t, int64_t flat) {
    if (t.dtype() == DType::Bool) return t.readDouble(flat) != 0 ? "True" : "False";
    if (!isFloating(t.dtype())) return std::to_string(t.readInt64(flat));
    return formatPythonFloat(t.readDouble(flat));
}

void nestedLiteral(const Tensor& t, size_t dim, int64_t& flat, std::string& out) {
    if (dim == t.sizes().size()) {
        out += elementLiteral(t, flat++);
        return;
    }
    out += "[";
    for (int64_t i = 0; i < t.sizes()[dim]; ++i) {
        if (i) out += ", ";
        nestedLiteral(t, dim + 1, flat, out);
    }
    out += "]";
}

std::string inputLiteral(const Tensor& t) {
    std::string device = t.device().isCpu() ? "" : fmt::format(", device=\"{}\"", t.device().str());
    std::string dtype(dtypeName(t.dtype()));
    if (t.numel() > kLargestInlineInput) {
        std::string sizes = fmt::format("({}{})", fmt::join(t.sizes(), ", "), t.dim() == 1 ? "," : "");
        if (isFloating(t.dtype())) return fmt::format("torch.randn({}, dtype={}{})", sizes, dtype, device);
        return fmt::format("torch.randint(0, 10, {}, dtype={}{})", sizes, dtype, device);
    }
    std::string values;
    int64_t flat = 0;
    nestedLiteral(t, 0, flat, values);
    return fmt::format("torch.tensor({}, dtype={}{})", values, dtype, device);
}

}  // namespace

MinifiedGraph minifyGraph(const GraphFailure& failure, const GraphCompiler& backend, const std::string& after,
                          const MinifyOptions& options) {
    if (after != "dynamo" && after != "aot") throw Error("--after takes dynamo or aot, not '" + after + "'");
    std::shared_ptr<const Graph> graph = after == "aot" ? decomposeForAot(*failure.graph, failure.settings.testHooks) : failure.graph;
    return Minifier(graph, failure.inputs, backend, failure, options).run();
}

std::string reproScript(const MinifiedGraph& minified, const GraphFailure& failure) {
    const Graph& graph = *minified.graph;
    std::vector<std::string> params;
    for (Node* p : graph.placeholders()) params.push_back(p->name);
    std::string out = fmt::format(
        "# A minimal repro written by fusescope-cli minify: {} of {} ({}, compile {}) cut from {} to {} nodes.\n"
        "# Backend {}; it fails with:\n",
        failure.graphName, failure.function, failure.where.known() ? failure.where.file : "the script", failure.compileId,
        minified.startNodes, minified.endNodes, failure.backend);
    std::string error = minified.error;
    for (size_t at = 0; at != std::string::npos;) {
        size_t end = error.find('\n', at);
        out += "#   " + error.substr(at, end == std::string::npos ? std::string::npos : end - at) + "\n";
        at = end == std::string::npos ? end : end + 1;
    }
    out += "# Run it with `fusescope-cli run repro.py`, or with python3 where PyTorch is installed.\n"
           "import torch\n\n"
           "torch._dynamo.config.suppress_errors = False\n\n\n";
    out += fmt::format("def repro({}):\n", fmt::join(params, ", "));
    for (const auto& n : graph.nodes()) {
        if (n->op == NodeOp::Placeholder) continue;
        if (n->where.known()) out += fmt::format("    # {}:{}: {}\n", n->where.file, n->where.line, n->sourceLine);
        out += "    " + n->name + " = " + nodeCode(*n) + "\n";
    }
    std::vector<std::string> outputs;
    for (const Argument& a : graph.outputs()) outputs.push_back(argumentCode(a));
    out += fmt::format("    return ({}{})\n\n\n", fmt::join(outputs, ", "), outputs.size() == 1 ? "," : "");
    bool random = false;
    for (size_t i = 0; i < params.size(); ++i) {
        random = random || minified.inputs[i].numel() > kLargestInlineInput;
        out += fmt::format("{} = {}\n", params[i], inputLiteral(minified.inputs[i]));
    }
    if (random) out = out.replace(out.find("import torch\n"), 13, "import torch\n\ntorch.manual_seed(0)  # large inputs are random\n");
    out += fmt::format("compiled = torch.compile(repro, backend=\"{}\")\n", failure.backend);
    out += fmt::format("actual = compiled({})\n", fmt::join(params, ", "));
    if (failure.kind == GraphFailure::Kind::Accuracy) {
        out += fmt::format("expected = repro({})\n", fmt::join(params, ", "));
        out += "for i in range(len(expected)):\n";
        out += fmt::format("    assert torch.allclose(actual[i], expected[i], rtol={0:g}, atol={0:g}), f\"output {{i}} differs from eager\"\n",
                           accuracyTolerance(minified.inputs.empty() ? DType::Float32 : minified.inputs[0].dtype()));
    }
    return out;
}

}  // namespace fusescope

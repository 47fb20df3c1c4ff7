#include "graph/graph.h"

#include <algorithm>

#include <fmt/format.h>

#include "graph/graph_printer.h"

namespace fusescope {

std::optional<IValue> argumentValue(const Argument& arg, const std::function<const IValue*(const Node*)>& resultOf) {
    switch (arg.kind) {
    case Argument::Kind::NodeRef: {
        const IValue* v = resultOf(arg.node);
        if (!v) return std::nullopt;
        if (arg.outputIndex < 0) return *v;
        return v->toSequence()->items.at(static_cast<size_t>(arg.outputIndex));
    }
    case Argument::Kind::Constant: return arg.constant;
    case Argument::Kind::List:
    case Argument::Kind::Tuple: {
        IValueList items;
        for (const auto& item : arg.items) {
            auto v = argumentValue(item, resultOf);
            if (!v) return std::nullopt;
            items.push_back(std::move(*v));
        }
        return arg.kind == Argument::Kind::Tuple ? IValue::tuple(std::move(items)) : IValue::list(std::move(items));
    }
    }
    return std::nullopt;
}

std::string TensorMeta::str() const {
    std::string dims;
    for (size_t i = 0; i < sizes.size(); ++i) {
        if (i) dims += ", ";
        dims += (i < symbols.size() && !symbols[i].empty()) ? symbols[i] : std::to_string(sizes[i]);
    }
    return fmt::format("{}[{}]", dtypeAbbreviation(dtype), dims);
}

namespace {

// Names FX never gives a node as they are, because the graph's code could not use them:
// Python's keywords and builtins, and the globals FX's generated code imports. A node of
// such an op is named with a suffix from the first (sum_1, as PyTorch's graphs print).
bool shadowsPythonName(const std::string& name) {
    static const std::unordered_set<std::string> names = {
        // keywords
        "False", "None", "True", "and", "as", "assert", "async", "await", "break", "class", "continue", "def", "del",
        "elif", "else", "except", "finally", "for", "from", "global", "if", "import", "in", "is", "lambda", "nonlocal",
        "not", "or", "pass", "raise", "return", "try", "while", "with", "yield",
        // builtins an op or input may be named after
        "abs", "all", "any", "bin", "bool", "bytes", "callable", "chr", "complex", "dict", "dir", "divmod",
        "enumerate", "eval", "exec", "filter", "float", "format", "frozenset", "getattr", "globals", "hasattr", "hash",
        "hex", "id", "input", "int", "isinstance", "iter", "len", "list", "locals", "map", "max", "min", "next",
        "object", "oct", "open", "ord", "pow", "print", "property", "range", "repr", "reversed", "round", "set",
        "setattr", "slice", "sorted", "str", "sum", "super", "tuple", "type", "vars", "zip",
        // FX's custom builtins
        "inf", "nan", "NoneType", "torch", "device", "fx_pytree", "pytree"};
    return names.count(name) > 0;
}

}  // namespace

std::string Graph::uniqueName(const std::string& base) {
    std::string name = base;
    int& suffix = lastSuffix_[base];
    if (shadowsPythonName(base)) name = base + "_" + std::to_string(++suffix);
    while (usedNames_.count(name)) name = base + "_" + std::to_string(++suffix);
    usedNames_.insert(name);
    return name;
}

Node* Graph::addPlaceholder(const std::string& source, TensorMeta meta, const std::string& name) {
    auto node = std::make_unique<Node>();
    node->op = NodeOp::Placeholder;
    node->target = source;
    node->name = uniqueName(name.empty() ? placeholderName(source) : name);
    node->meta.push_back(std::move(meta));
    // Placeholders come first, in the order inputs were first used.
    auto firstCall = std::find_if(nodes_.begin(), nodes_.end(),
                                  [](const auto& n) { return n->op != NodeOp::Placeholder; });
    Node* raw = node.get();
    nodes_.insert(firstCall, std::move(node));
    for (size_t i = 0; i < nodes_.size(); ++i) nodes_[i]->index = static_cast<int>(i);
    return raw;
}

Node* Graph::addCall(NodeOp op, const std::string& target, CallStyle style, std::vector<Argument> args,
                     std::vector<std::pair<std::string, Argument>> kwargs) {
    auto node = std::make_unique<Node>();
    node->op = op;
    node->target = target;
    node->style = style;
    // A SymInt's nodes are named as Dynamo names them: sym_size_int, sub, floordiv.
    const bool symbolicInt = target.rfind("sym_", 0) == 0;
    node->name = uniqueName(target == "sym_size" ? "sym_size_int" : symbolicInt ? pythonOperatorName(target) : target);
    node->args = std::move(args);
    node->kwargs = std::move(kwargs);
    node->index = static_cast<int>(nodes_.size());
    nodes_.push_back(std::move(node));
    return nodes_.back().get();
}

void Graph::removeUnused(const std::function<bool(const Node&)>& removable) {
    std::unordered_set<const Node*> read;
    std::function<void(const Argument&)> markRead = [&](const Argument& a) {
        if (a.kind == Argument::Kind::NodeRef) read.insert(a.node);
        for (const Argument& item : a.items) markRead(item);
    };
    for (const Argument& o : outputs_) markRead(o);
    std::vector<std::unique_ptr<Node>> kept;
    for (auto it = nodes_.rbegin(); it != nodes_.rend(); ++it) {  // readers first: a chain goes at once
        Node& n = **it;
        if (n.op == NodeOp::CallFunction && removable(n) && !read.count(&n)) continue;
        for (const Argument& a : n.args) markRead(a);
        for (const auto& [name, a] : n.kwargs) markRead(a);
        kept.push_back(std::move(*it));
    }
    nodes_.assign(std::make_move_iterator(kept.rbegin()), std::make_move_iterator(kept.rend()));
    for (size_t i = 0; i < nodes_.size(); ++i) nodes_[i]->index = static_cast<int>(i);
}

Node* Graph::addCopyOf(const Node& n, const std::function<Argument(const Argument&)>& remap) {
    std::vector<Argument> args;
    for (const Argument& a : n.args) args.push_back(remap(a));
    std::vector<std::pair<std::string, Argument>> kwargs;
    for (const auto& [name, a] : n.kwargs) kwargs.emplace_back(name, remap(a));
    Node* copy = addCall(n.op, n.target, n.style, std::move(args), std::move(kwargs));
    copy->operatorSymbol = n.operatorSymbol;
    copy->symbolicScalar = n.symbolicScalar;
    copy->meta = n.meta;
    copy->returnsTuple = n.returnsTuple;
    copy->copyProvenance(n);
    return copy;
}

void Graph::setOutputs(std::vector<Argument> outputs) { outputs_ = std::move(outputs); }

std::shared_ptr<Graph> rewriteGraph(const Graph& graph,
                                    const std::function<std::optional<Argument>(const Node&, Graph&, const ArgumentRemap&)>& rewrite) {
    auto copy = std::make_shared<Graph>();
    std::unordered_map<const Node*, Argument> mapped;
    ArgumentRemap remap = [&](const Argument& a) {
        Argument r = a;
        if (a.kind == Argument::Kind::NodeRef) {
            r = mapped.at(a.node);
            if (a.outputIndex >= 0) r.outputIndex = a.outputIndex;
        }
        for (Argument& item : r.items) item = remap(item);
        return r;
    };
    for (const auto& n : graph.nodes()) {
        if (n->op == NodeOp::Placeholder) {
            Node* p = copy->addPlaceholder(n->target, n->meta.at(0), n->name);
            p->where = n->where;
            p->sourceLine = n->sourceLine;
            p->stack = n->stack;
            mapped[n.get()] = Argument::ref(p);
            continue;
        }
        std::optional<Argument> replaced = rewrite(*n, *copy, remap);
        mapped[n.get()] = replaced ? *replaced : Argument::ref(copy->addCopyOf(*n, remap));
    }
    std::vector<Argument> outputs;
    for (const Argument& o : graph.outputs()) outputs.push_back(remap(o));
    copy->setOutputs(std::move(outputs));
    return copy;
}

std::vector<Node*> Graph::placeholders() const {
    std::vector<Node*> result;
    for (const auto& n : nodes_)
        if (n->op == NodeOp::Placeholder) result.push_back(n.get());
    return result;
}

int Graph::opCount() const {
    return static_cast<int>(std::count_if(nodes_.begin(), nodes_.end(), [](const auto& n) {
        return n->op == NodeOp::CallFunction || n->op == NodeOp::CallMethod;
    }));
}

std::string Graph::fingerprint() const {
    // Call nodes are determined by their inputs, so only placeholders contribute metadata;
    // symbolic dims print as their symbol, so a dynamic graph keeps its fingerprint when
    // the concrete sizes change.
    std::string f;
    for (const auto& n : nodes_) {
        f += n->name + "=" + nodeCode(*n);
        if (n->op == NodeOp::Placeholder && !n->meta.empty()) {
            const TensorMeta& m = n->meta[0];
            f += " " + m.str();
            bool symbolic = std::any_of(m.symbols.begin(), m.symbols.end(), [](const auto& s) { return !s.empty(); });
            if (!symbolic) f += fmt::format(" stride={}", fmt::join(m.strides, ","));
        }
        for (const auto& [k, v] : n->kwargs) f += " " + k;
        if (!n->gradEnabled) f += " no_grad";
        f += "\n";
    }
    for (const auto& o : outputs_) f += argumentCode(o) + ",";
    return f;
}

}  // namespace fusescope

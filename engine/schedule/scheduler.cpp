#include "schedule/scheduler.h"

#include <algorithm>
#include <map>
#include <queue>
#include <unordered_map>
#include <unordered_set>

#include <fmt/format.h>

#include "schedule/fusion.h"
#include "schedule/read_index.h"

namespace fusescope {

std::string Dep::str() const {
    switch (kind) {
    case Kind::Star: return fmt::format("StarDep(name='{}', mode=None)", name);
    case Kind::Weak: return fmt::format("WeakDep(name='{}')", name);
    case Kind::Memory: break;
    }
    std::string r;
    for (size_t i = 0; i < ranges.size(); ++i) r += fmt::format("{}{}: {}", i ? ", " : "", ranges[i].first, ranges[i].second.str());
    return fmt::format("MemoryDep('{}', {}, {{{}}}, None)", name, index.str(), r);
}

std::string_view fusionKindName(FusionKind kind) {
    switch (kind) {
    case FusionKind::Vertical: return "vertical";
    case FusionKind::Horizontal: return "horizontal";
    }
    return "";
}

std::string NodeUser::str() const {
    std::string target = node ? fmt::format("{}(name='{}')", node->kindName(), node->name) : "OUTPUT";
    return fmt::format("NodeUser(node={}, can_inplace={}, is_weak={})", target, canInplace ? "True" : "False",
                       isWeak ? "True" : "False");
}

std::string SchedulerNode::kindName() const {
    switch (kind) {
    case Kind::Computed: return "SchedulerNode";
    case Kind::Extern: return "ExternKernelSchedulerNode";
    case Kind::Fused: return "FusedSchedulerNode";
    }
    return "";
}

std::vector<const SchedulerNode*> SchedulerNode::leaves() const {
    if (kind != Kind::Fused) return {this};
    return {members.begin(), members.end()};
}

namespace {

std::string depList(const std::vector<Dep>& deps) {
    std::string out;
    for (size_t i = 0; i < deps.size(); ++i) out += (i ? ", " : "") + deps[i].str();
    return "[" + out + "]";
}

std::string sizesTuple(const std::vector<IndexExpr>& sizes) {
    if (sizes.empty()) return "()";
    return sizesStr(sizes, true);
}

// A memory dependency of a loop body on `buffer` at `index`, with its vars renamed c0...
Dep memoryDep(const LoopBody& body, const std::string& buffer, const IndexExpr& index, bool pointwiseVarsOnly) {
    Dep d;
    d.name = buffer;
    std::map<std::string, IndexExpr> rename;
    size_t count = pointwiseVarsOnly ? body.vars.size() - body.reductionVars : body.vars.size();
    for (size_t i = 0; i < count; ++i) {
        std::string c = fmt::format("c{}", i);
        rename[body.vars[i]] = IndexExpr::symbol(c);
        d.ranges.push_back({c, body.ranges[i]});
    }
    d.index = index.substitute(rename);
    return d;
}

void sortDeps(std::vector<Dep>& deps) {
    std::sort(deps.begin(), deps.end(), [](const Dep& a, const Dep& b) { return a.str() < b.str(); });
    deps.erase(std::unique(deps.begin(), deps.end()), deps.end());
}

std::unique_ptr<SchedulerNode> makeNode(const LoweredGraph& g, const std::unordered_set<std::string_view>& inputs,
                                        const Buffer& buffer, int order) {
    auto n = std::make_unique<SchedulerNode>();
    n->name = buffer.name;
    n->buffer = &buffer;
    n->order = order;
    std::vector<Dep> reads;
    if (buffer.kind == Buffer::Kind::Extern) {
        n->kind = SchedulerNode::Kind::Extern;
        n->writes.push_back(Dep{Dep::Kind::Star, buffer.name, {}, {}});
        for (const auto& op : buffer.operands) reads.push_back(Dep{Dep::Kind::Star, op.buffer, {}, {}});
    } else {
        const LoopBody& body = buffer.body;
        size_t pointwise = body.vars.size() - body.reductionVars;
        n->pointwiseSizes.assign(body.ranges.begin(), body.ranges.begin() + pointwise);
        n->reductionSizes.assign(body.ranges.begin() + pointwise, body.ranges.end());
        for (const auto& op : body.ops) {
            if (op.buffer.empty()) continue;
            const IndexExpr* index = body.indexOf(op);
            if (!index) {  // read at positions another tensor holds: any element
                reads.push_back(Dep{Dep::Kind::Star, op.buffer, {}, {}});
                continue;
            }
            if (isLoadOp(op.kind)) reads.push_back(memoryDep(body, op.buffer, *index, false));
            if (op.kind == LoopOpKind::Store) n->writes.push_back(memoryDep(body, op.buffer, *index, false));
            if (op.kind == LoopOpKind::StoreReduction) n->writes.push_back(memoryDep(body, op.buffer, *index, true));
        }
        for (const auto& [name, indices] : body.loads()) n->layouts.push_back({name, g.layoutOf(name)});
        n->layouts.push_back({buffer.name, buffer.layout});
    }
    for (auto& d : reads) (inputs.count(d.name) ? n->metDependencies : n->unmetDependencies).push_back(d);
    sortDeps(n->writes);
    sortDeps(n->unmetDependencies);
    sortDeps(n->metDependencies);
    return n;
}

// The consumer can write its result into the producer's buffer: a computed node that
// reads it only where it writes its own element, at the same size and type.
bool canInplace(const SchedulerNode& producer, const SchedulerNode& user) {
    if (user.kind != SchedulerNode::Kind::Computed || producer.kind != SchedulerNode::Kind::Computed) return false;
    if (user.isReduction()) return false;
    for (const auto& d : user.unmetDependencies)
        if (d.name == producer.name && !(d.index == user.writes.at(0).index && d.ranges == producer.writes.at(0).ranges)) return false;
    const FixedLayout& a = producer.buffer->layout;
    const FixedLayout& b = user.buffer->layout;
    return a.dtype == b.dtype && a.numel() == b.numel();
}

// Each node's users: the nodes reading it, in order, then the graph's output.
void computeUsers(Schedule& s, const LoweredGraph& g) {
    std::vector<SchedulerNode*> nodes;
    for (auto& n : s.nodes) nodes.push_back(n.get());
    ReadIndex index(nodes);
    std::unordered_set<std::string_view> outputs;
    for (const auto& out : g.outputs) outputs.insert(out.buffer);
    for (SchedulerNode* producer : nodes) {
        producer->users.clear();
        for (SchedulerNode* user : index.readers(producer->name))
            if (user != producer) producer->users.push_back(NodeUser{user, canInplace(*producer, *user), false});
        if (outputs.count(producer->name)) producer->users.push_back(NodeUser{nullptr, false, false});
    }
}

// Dead nodes: computed buffers nobody reads, after their readers died too; the earliest
// such first, each removal perhaps killing its producers.
void removeDeadNodes(Schedule& s, const LoweredGraph& g) {
    std::vector<SchedulerNode*> nodes;
    for (auto& n : s.nodes) nodes.push_back(n.get());
    ReadIndex index(nodes);
    std::unordered_map<const SchedulerNode*, size_t> liveUsers;
    auto later = [](const SchedulerNode* x, const SchedulerNode* y) { return x->order > y->order; };
    std::priority_queue<SchedulerNode*, std::vector<SchedulerNode*>, decltype(later)> dead(later);
    for (SchedulerNode* n : nodes)
        if ((liveUsers[n] = n->users.size()) == 0) dead.push(n);
    std::unordered_set<const SchedulerNode*> removed;
    while (!dead.empty()) {
        SchedulerNode* n = dead.top();
        dead.pop();
        removed.insert(n);
        s.removedDeadNodes.push_back(n->name);
        for (std::string_view buffer : index.readNames(*n))
            if (SchedulerNode* producer = index.writer(buffer); producer && producer != n && --liveUsers[producer] == 0)
                dead.push(producer);
    }
    if (removed.empty()) return;
    std::erase_if(s.nodes, [&](const auto& n) { return removed.count(n.get()) > 0; });
    computeUsers(s, g);
}

}  // namespace

std::string SchedulerNode::str() const {
    std::string out = fmt::format("{}: {}({})\n", name, kindName(),
                                  kind == Kind::Computed ? "ComputedBuffer"
                                  : kind == Kind::Extern ? "ExternKernelOut"
                                                         : [&] {
                                                               std::string k;
                                                               for (const auto* m : members) k += (k.empty() ? "" : ",") + m->kindName();
                                                               return k;
                                                           }());
    out += fmt::format("{}.writes = {}\n", name, depList(writes));
    out += fmt::format("{}.unmet_dependencies = {}\n", name, depList(unmetDependencies));
    out += fmt::format("{}.met_dependencies = {}\n", name, depList(metDependencies));
    std::string userText;
    for (size_t i = 0; i < users.size(); ++i) userText += (i ? ", " : "") + users[i].str();
    out += fmt::format("{}.users = [{}]\n", name, userText);
    if (kind == Kind::Extern)
        return out + fmt::format("{}.node.kernel = extern_kernels.{}", name, externKernelName(buffer->externKernel));
    if (kind == Kind::Fused) {
        out += "\n";
        for (size_t i = 0; i < members.size(); ++i) {
            out += fmt::format("{}.snodes[{}] =\n{}", name, i, members[i]->str());
            if (i + 1 < members.size()) out += "\n";
        }
        return out;
    }
    out += fmt::format("{}.group.device = {}\n", name, buffer->layout.device.str());
    out += fmt::format("{}.group.iteration = ({}, {})\n", name, sizesTuple(pointwiseSizes), sizesTuple(reductionSizes));
    out += fmt::format("{}.sizes = ({}, {})\n", name, sizesStr(pointwiseSizes, false), sizesStr(reductionSizes, false));
    for (const auto& [buffer, layout] : layouts) out += fmt::format("{}_layout = {}\n", buffer, layout.str());
    return out + this->buffer->body.str(name);
}

namespace {

std::string joinNodes(const std::vector<SchedulerNode*>& nodes) {
    std::string out;
    for (size_t i = 0; i < nodes.size(); ++i) out += (i ? "\n\n\n" : "") + nodes[i]->str();
    return out + "\n";
}

}  // namespace

std::string Schedule::preFusionText() const {
    std::vector<SchedulerNode*> all;
    for (const auto& n : nodes) all.push_back(n.get());
    return joinNodes(all);
}

std::string Schedule::postFusionText() const { return joinNodes(order); }

Schedule schedule(const LoweredGraph& graph, const InductorConfig& config) {
    Schedule s;
    s.config = config;
    std::unordered_set<std::string_view> inputs;
    for (const InputBuffer& in : graph.inputs) inputs.insert(in.name);
    for (const auto& b : graph.buffers) s.nodes.push_back(makeNode(graph, inputs, b, static_cast<int>(s.nodes.size())));
    computeUsers(s, graph);
    removeDeadNodes(s, graph);
    fuseNodes(s);
    return s;
}

}  // namespace fusescope

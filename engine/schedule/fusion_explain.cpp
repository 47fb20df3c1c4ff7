#include "schedule/fusion_explain.h"

#include <algorithm>
#include <map>
#include <set>

#include <fmt/format.h>

#include "core/error.h"
#include "schedule/fusion.h"

namespace fusescope {

namespace {

using Names = std::set<std::string>;

bool intersects(const Names& a, const Names& b) {
    return std::any_of(a.begin(), a.end(), [&](const std::string& n) { return b.count(n) > 0; });
}

bool includes(const Names& group, const Names& names) {
    return std::includes(group.begin(), group.end(), names.begin(), names.end());
}

// What each name stands for, in pre-fusion nodes: a node itself, or the group a fusion
// step made (the final kernels and every group on the way to them).
std::map<std::string, Names> groupsByName(const Schedule& s) {
    std::map<std::string, Names> groups;
    for (const auto& n : s.nodes) groups[n->name] = {n->name};
    for (const FusionDecision& d : s.decisions)
        if (d.fused()) {
            Names joined = groups[d.node1];
            joined.insert(groups[d.node2].begin(), groups[d.node2].end());
            groups[d.result] = std::move(joined);
        }
    return groups;
}

Names namesOf(const Schedule& s, const std::map<std::string, Names>& groups, const std::string& name) {
    if (std::find(s.removedDeadNodes.begin(), s.removedDeadNodes.end(), name) != s.removedDeadNodes.end())
        throw Error(fmt::format("{} was removed as a dead node (nothing uses it), so it is in no kernel", name));
    if (auto it = groups.find(name); it != groups.end()) return it->second;
    for (const auto& n : s.nodes)
        for (const Dep& read : n->metDependencies)
            if (read.name == name)
                throw Error(fmt::format("{} is an input of the graph: no kernel computes it, so it is fused with nothing", name));
    // A big graph has thousands: name a few, and how many there are.
    constexpr size_t kListed = 12;
    std::vector<std::string> listed;
    for (const auto& n : s.nodes)
        if (listed.size() < kListed) listed.push_back(n->name);
    std::string more = s.nodes.size() > kListed ? fmt::format(", ... ({} in all, and the groups fusion made of them)", s.nodes.size()) : "";
    throw Error(fmt::format("no scheduler node '{}' in this graph; its nodes are {}{}", name, fmt::join(listed, ", "), more));
}

// The post-fusion node holding the pre-fusion node `leaf`.
const SchedulerNode& kernelOf(const Schedule& s, const std::string& leaf) {
    for (const SchedulerNode* k : s.order)
        for (const SchedulerNode* member : k->leaves())
            if (member->name == leaf) return *k;
    throw Error(fmt::format("{} is in no kernel of this graph", leaf));
}

}  // namespace

FusionExplanation explainFusion(const Schedule& s, const std::string& node1, const std::string& node2) {
    FusionExplanation e;
    e.node1 = node1;
    e.node2 = node2;
    std::map<std::string, Names> named = groupsByName(s);
    Names a = namesOf(s, named, node1), b = namesOf(s, named, node2);
    const SchedulerNode& k1 = kernelOf(s, *a.begin());
    const SchedulerNode& k2 = kernelOf(s, *b.begin());
    e.kernel1 = k1.name;
    e.kernel2 = k2.name;
    if (intersects(a, b)) throw Error(fmt::format("{} and {} are the same node or contain one another", node1, node2));
    e.fused = &k1 == &k2;
    Names both = a;
    both.insert(b.begin(), b.end());

    // Replay the decisions over the groups they name, from one node per group.
    std::map<std::string, Names> groups;
    for (const auto& n : s.nodes) groups[n->name] = {n->name};
    for (const FusionDecision& d : s.decisions) {
        const Names& g1 = groups[d.node1];
        const Names& g2 = groups[d.node2];
        bool pairsThem = (intersects(g1, a) && intersects(g2, b)) || (intersects(g1, b) && intersects(g2, a));
        if (!d.fused()) {
            if (pairsThem && !e.fused) {
                e.considered = true;
                e.step = d.step;
                e.kind = d.kind;
                e.reason = d.reason;
            }
            continue;
        }
        Names joined = g1;
        joined.insert(g2.begin(), g2.end());
        groups[d.result] = joined;
        if (e.fused && includes(joined, both)) {
            e.considered = pairsThem;
            e.step = d.step;
            e.kind = d.kind;
            e.reason = d.reason;
            return e;
        }
    }
    if (e.fused) throw Error(fmt::format("no decision of the schedule fused {} with {}", node1, node2));  // inconsistent schedule
    if (e.considered) return e;

    // Never paired: only nodes sharing a buffer are candidates. Would the rules have allowed it?
    FusionVerdict verdict = checkFusion(s, k1, k2);
    std::string unpaired = fmt::format(
        "the scheduler never paired {} with {}: neither reads what the other writes and they read no buffer in common, "
        "so fusing them would save no memory traffic",
        k1.name, k2.name);
    e.reason = verdict.fusable() ? fmt::format("not fused: {} (the fusion rules would allow it)", unpaired)
                               : fmt::format("{} ({})", verdict.reason, unpaired);
    return e;
}

}  // namespace fusescope

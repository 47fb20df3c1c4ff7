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

// The post-fusion node that is or holds `name`.
const SchedulerNode& kernelOf(const Schedule& s, const std::string& name) {
    for (const SchedulerNode* k : s.order) {
        if (k->name == name) return *k;
        for (const SchedulerNode* leaf : k->leaves())
            if (leaf->name == name) return *k;
    }
    if (std::find(s.removedDeadNodes.begin(), s.removedDeadNodes.end(), name) != s.removedDeadNodes.end())
        throw Error(fmt::format("{} was removed as a dead node (nothing uses it), so it is in no kernel", name));
    std::vector<std::string> names;
    for (const auto& n : s.nodes) names.push_back(n->name);
    for (const auto& n : s.fusedNodes) names.push_back(n->name);
    throw Error(fmt::format("no scheduler node '{}' in this graph; its nodes are {}", name, fmt::join(names, ", ")));
}

// The pre-fusion nodes a name stands for.
Names leafNames(const SchedulerNode& kernel, const std::string& name) {
    if (kernel.name != name) return {name};
    Names names;
    for (const SchedulerNode* leaf : kernel.leaves()) names.insert(leaf->name);
    return names;
}

}  // namespace

FusionExplanation explainFusion(const Schedule& s, const std::string& node1, const std::string& node2) {
    FusionExplanation e;
    e.node1 = node1;
    e.node2 = node2;
    const SchedulerNode& k1 = kernelOf(s, node1);
    const SchedulerNode& k2 = kernelOf(s, node2);
    e.kernel1 = k1.name;
    e.kernel2 = k2.name;
    Names a = leafNames(k1, node1), b = leafNames(k2, node2);
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

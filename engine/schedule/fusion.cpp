#include "schedule/fusion.h"

#include <algorithm>
#include <map>
#include <optional>
#include <set>

#include <fmt/format.h>

namespace fusescope {

namespace {

bool nodeReads(const SchedulerNode& n, const std::string& buffer) {
    for (const auto* deps : {&n.unmetDependencies, &n.metDependencies})
        for (const auto& d : *deps)
            if (d.name == buffer) return true;
    return false;
}

// A kernel being formed: its nodes and their bodies over the shared iteration (vars c0...).
struct Group {
    std::vector<SchedulerNode*> members;  // by pre-fusion order
    std::vector<IndexExpr> pointwise, reduction;
    std::map<const SchedulerNode*, LoopBody> bodies;

    bool isExtern() const { return members.size() == 1 && members[0]->kind == SchedulerNode::Kind::Extern; }
    int order() const { return members.front()->order; }
    std::string name() const {
        std::string n;
        for (const auto* m : members) n += (n.empty() ? "" : "_") + m->name;
        return n;
    }
    std::string iteration() const {
        if (reduction.empty()) return pointwise.empty() ? "()" : sizesStr(pointwise, true);
        return fmt::format("({}, {})", pointwise.empty() ? "()" : sizesStr(pointwise, true), sizesStr(reduction, true));
    }
    bool writes(const std::string& buffer) const {
        return std::any_of(members.begin(), members.end(), [&](const SchedulerNode* m) { return m->name == buffer; });
    }
    bool reads(const std::string& buffer) const {
        return std::any_of(members.begin(), members.end(), [&](const SchedulerNode* m) { return nodeReads(*m, buffer); });
    }
    bool dependsOn(const Group& other) const {
        for (const auto* m : other.members)
            if (reads(m->name)) return true;
        return false;
    }
};

// A node's body over `pointwise` ++ `reduction`: as is when its loop nest equals it or
// equals the pointwise part (it then runs once per outer iteration), else split.
std::optional<LoopBody> bodyIn(const SchedulerNode& n, const std::vector<IndexExpr>& pointwise,
                               const std::vector<IndexExpr>& reduction) {
    const LoopBody& body = n.buffer->body;
    std::vector<IndexExpr> all = pointwise;
    all.insert(all.end(), reduction.begin(), reduction.end());
    if (!n.isReduction() && n.pointwiseSizes == pointwise && !reduction.empty())
        return splitLoops(body, pointwise, 0, "c");
    return splitLoops(body, all, n.isReduction() ? reduction.size() : std::min(reduction.size(), all.size()), "c");
}

int64_t bytesOf(const SchedulerNode& n) {
    const FixedLayout& l = n.buffer->layout;
    auto numel = l.numel().constant();
    return (numel ? *numel : 1 << 20) * static_cast<int64_t>(dtypeSize(l.dtype));
}

// Where a body stores, and the indices at which it loads a buffer.
IndexExpr storeIndex(const LoopBody& body) {
    for (const auto& op : body.ops)
        if (isStoreOp(op.kind)) return body.indices[body.ops[op.args[0]].index];
    return IndexExpr();
}

std::vector<IndexExpr> loadIndices(const LoopBody& body, const std::string& buffer) {
    for (const auto& [name, indices] : body.loads())
        if (name == buffer) return indices;
    return {};
}

bool usesReductionVars(const IndexExpr& index, const LoopBody& body) {
    for (size_t i = body.vars.size() - body.reductionVars; i < body.vars.size(); ++i)
        if (index.uses(body.vars[i])) return true;
    return false;
}

std::string refusal(const std::string& node1, const std::string& node2, const std::string& why) {
    return fmt::format("cannot fuse {} with {}: {}", node1, node2, why);
}

// What tryFuse decided: the fused group, or the verdict refusing it; `why` is the reason
// text (for a refusal, the part after "cannot fuse a with b: ").
struct FuseAttempt {
    FusionVerdictKind verdict = FusionVerdictKind::Fused;
    std::string why;
    std::optional<Group> fused;
};

FuseAttempt refuse(FusionVerdictKind verdict, std::string why) { return {verdict, std::move(why), std::nullopt}; }

class Fuser {
public:
    // One group per node; a fused node (of a finished schedule) is a group of its members.
    Fuser(const std::vector<SchedulerNode*>& nodes, const InductorConfig& config) : config_(config) {
        for (SchedulerNode* n : nodes) {
            auto g = std::make_unique<Group>();
            g->members = n->kind == SchedulerNode::Kind::Fused ? n->members : std::vector<SchedulerNode*>{n};
            g->pointwise = n->pointwiseSizes;
            g->reduction = n->reductionSizes;
            if (n->kind == SchedulerNode::Kind::Computed) g->bodies[n] = *bodyIn(*n, g->pointwise, g->reduction);
            for (SchedulerNode* m : g->members) groupOf_[m] = g.get();
            groups_.push_back(std::move(g));
        }
    }

    const Group& groupOf(const SchedulerNode* leaf) const { return *groupOf_.at(leaf); }

    void run(Schedule& s) {
        s_ = &s;
        struct Candidate {
            SchedulerNode *a, *b;
            FusionKind kind;
            int64_t score;
        };
        std::vector<Candidate> candidates;
        for (size_t i = 0; i < s_->nodes.size(); ++i)
            for (size_t j = i + 1; j < s_->nodes.size(); ++j) {
                SchedulerNode* a = s_->nodes[i].get();
                SchedulerNode* b = s_->nodes[j].get();
                if (nodeReads(*b, a->name)) {
                    candidates.push_back({a, b, FusionKind::Vertical, bytesOf(*a)});
                    continue;
                }
                int64_t shared = 0;
                for (const auto* deps : {&a->metDependencies, &a->unmetDependencies})
                    for (const auto& d : *deps) shared += nodeReads(*b, d.name) ? 1 : 0;
                if (shared > 0 && !nodeReads(*a, b->name)) candidates.push_back({a, b, FusionKind::Horizontal, shared * bytesOf(*a)});
            }
        std::stable_sort(candidates.begin(), candidates.end(), [](const Candidate& x, const Candidate& y) {
            if (x.score != y.score) return x.score > y.score;
            return (x.b->order - x.a->order) < (y.b->order - y.a->order);
        });
        std::set<std::string> tried;
        for (const auto& c : candidates) {
            Group* ga = groupOf_[c.a];
            Group* gb = groupOf_[c.b];
            if (ga == gb) continue;
            if (gb->order() < ga->order()) std::swap(ga, gb);
            if (!tried.insert(ga->name() + "|" + gb->name()).second) continue;
            FusionDecision d;
            d.step = static_cast<int>(s_->decisions.size()) + 1;
            d.node1 = ga->name();
            d.node2 = gb->name();
            d.kind = c.kind;
            d.score = c.score;
            FuseAttempt attempt = tryFuse(*ga, *gb);
            d.verdict = attempt.verdict;
            d.reason = d.fused() ? attempt.why : refusal(d.node1, d.node2, attempt.why);
            if (attempt.fused) {
                d.result = attempt.fused->name();
                replace(ga, gb, std::move(*attempt.fused));
            }
            s_->decisions.push_back(std::move(d));
        }
        finish();
    }

    FuseAttempt tryFuse(const Group& a, const Group& b) {
        size_t size = a.members.size() + b.members.size();
        if (size > static_cast<size_t>(config_.maxFusionSize))
            return refuse(FusionVerdictKind::ExceedsMaxFusion,
                          fmt::format("exceeds max fusion ({} + {} nodes > max_fusion_size = {})", a.members.size(),
                                      b.members.size(), config_.maxFusionSize));
        for (const Group* g : {&a, &b})
            if (g->isExtern()) return refuse(FusionVerdictKind::ExternKernel, fmt::format("{} is an extern kernel", g->name()));
        if (auto through = cycleThrough(a, b))
            return refuse(FusionVerdictKind::WouldCreateCycle, fmt::format("would create a cycle through {}", *through));
        // The loop nest both fit in: a reduction's, else the finer pointwise one.
        std::vector<std::pair<std::vector<IndexExpr>, std::vector<IndexExpr>>> options;
        if (!a.reduction.empty()) options.push_back({a.pointwise, a.reduction});
        if (!b.reduction.empty()) options.push_back({b.pointwise, b.reduction});
        if (options.empty()) {
            const auto& finer = b.pointwise.size() > a.pointwise.size() ? b.pointwise : a.pointwise;
            const auto& coarser = b.pointwise.size() > a.pointwise.size() ? a.pointwise : b.pointwise;
            options = {{finer, {}}, {coarser, {}}};
        }
        Group fused;
        bool fits = false;
        for (const auto& [pointwise, reduction] : options) {
            fused = Group{};
            fused.pointwise = pointwise;
            fused.reduction = reduction;
            fits = true;
            for (const Group* g : {&a, &b})
                for (SchedulerNode* m : g->members) {
                    bool sameNest = !m->isReduction() || (m->pointwiseSizes == pointwise && m->reductionSizes == reduction);
                    auto body = sameNest ? bodyIn(*m, pointwise, reduction) : std::nullopt;
                    if (!body) fits = false;
                    else fused.bodies[m] = *body;
                    fused.members.push_back(m);
                }
            if (fits) break;
        }
        if (!fits)
            return refuse(FusionVerdictKind::IterationRangesDiffer,
                          fmt::format("iteration ranges differ {} vs {}", a.iteration(), b.iteration()));
        std::sort(fused.members.begin(), fused.members.end(),
                  [](const SchedulerNode* x, const SchedulerNode* y) { return x->order < y->order; });
        // Every read of a producer inside the kernel must be of the element it writes.
        bool vertical = false;
        for (const SchedulerNode* producer : fused.members)
            for (const SchedulerNode* consumer : fused.members) {
                if (producer == consumer || !nodeReads(*consumer, producer->name)) continue;
                if (a.writes(producer->name) == a.writes(consumer->name)) continue;  // already fused together
                vertical = true;
                const LoopBody& pb = fused.bodies.at(producer);
                const LoopBody& cb = fused.bodies.at(consumer);
                IndexExpr written = storeIndex(pb);
                bool wholeRowOnly = producer->isReduction() || pb.vars.size() == fused.pointwise.size();
                for (const auto& read : loadIndices(cb, producer->name))
                    if (read != written || (wholeRowOnly && usesReductionVars(read, cb)))
                        return refuse(FusionVerdictKind::ReadsOtherElement,
                                      fmt::format("{} reads {} at {} but {} writes {}", consumer->name, producer->name, read.str(),
                                                  producer->name, written.str()));
            }
        std::string why = vertical ? fmt::format("fused (vertical): consumers read each element where it is written; iteration {}",
                                                 fused.iteration())
                                   : fmt::format("fused (horizontal): shared reads over iteration {}", fused.iteration());
        return {FusionVerdictKind::Fused, std::move(why), std::move(fused)};
    }

private:
    // A group X other than a and b with a -> X -> b (or b -> X -> a).
    std::optional<std::string> cycleThrough(const Group& a, const Group& b) const {
        for (const auto& [from, to] : {std::pair{&a, &b}, std::pair{&b, &a}}) {
            std::set<const Group*> reached;
            std::vector<const Group*> stack{from};
            while (!stack.empty()) {
                const Group* g = stack.back();
                stack.pop_back();
                for (const auto& x : groups_) {
                    if (x.get() == &a || x.get() == &b || reached.count(x.get()) || !x->dependsOn(*g)) continue;
                    reached.insert(x.get());
                    stack.push_back(x.get());
                }
            }
            for (const Group* x : reached)
                if (to->dependsOn(*x)) return x->name();
        }
        return std::nullopt;
    }

    void replace(Group* a, Group* b, Group fused) {
        auto g = std::make_unique<Group>(std::move(fused));
        for (auto* m : g->members) groupOf_[m] = g.get();
        groups_.erase(std::remove_if(groups_.begin(), groups_.end(), [&](const auto& x) { return x.get() == a || x.get() == b; }),
                      groups_.end());
        groups_.push_back(std::move(g));
    }

    // Post-fusion nodes in dependency order (earliest member first among the ready ones).
    void finish() {
        std::vector<Group*> pending;
        for (auto& g : groups_) pending.push_back(g.get());
        std::sort(pending.begin(), pending.end(), [](const Group* x, const Group* y) { return x->order() < y->order(); });
        while (!pending.empty()) {
            auto ready = std::find_if(pending.begin(), pending.end(), [&](const Group* g) {
                return std::none_of(pending.begin(), pending.end(), [&](const Group* o) { return o != g && g->dependsOn(*o); });
            });
            if (ready == pending.end()) ready = pending.begin();  // cannot happen: fusion refuses cycles
            emit(**ready);
            pending.erase(ready);
        }
    }

    void emit(const Group& g) {
        KernelGroup k;
        k.pointwiseSizes = g.pointwise;
        k.reductionSizes = g.reduction;
        for (auto* m : g.members)
            if (m->kind == SchedulerNode::Kind::Computed) {
                k.nodes.push_back(m);
                k.bodies.push_back(g.bodies.at(m));
            }
        if (g.members.size() == 1) {
            k.node = g.members[0];
            s_->order.push_back(g.members[0]);
        } else {
            auto f = std::make_unique<SchedulerNode>();
            f->kind = SchedulerNode::Kind::Fused;
            f->name = g.name();
            f->members = g.members;
            f->pointwiseSizes = g.pointwise;
            f->reductionSizes = g.reduction;
            f->order = g.order();
            for (auto* m : g.members) {
                f->writes.insert(f->writes.end(), m->writes.begin(), m->writes.end());
                f->metDependencies.insert(f->metDependencies.end(), m->metDependencies.begin(), m->metDependencies.end());
                for (const auto& d : m->unmetDependencies)
                    if (!g.writes(d.name)) f->unmetDependencies.push_back(d);
            }
            for (auto* deps : {&f->writes, &f->metDependencies, &f->unmetDependencies}) {
                std::sort(deps->begin(), deps->end(), [](const Dep& x, const Dep& y) { return x.str() < y.str(); });
                deps->erase(std::unique(deps->begin(), deps->end()), deps->end());
            }
            k.node = f.get();
            s_->order.push_back(f.get());
            s_->fusedNodes.push_back(std::move(f));
        }
        s_->kernels.push_back(std::move(k));
    }

    const InductorConfig& config_;
    Schedule* s_ = nullptr;  // what run() fills
    std::vector<std::unique_ptr<Group>> groups_;
    std::map<const SchedulerNode*, Group*> groupOf_;
};

}  // namespace

void fuseNodes(Schedule& s) {
    std::vector<SchedulerNode*> nodes;
    for (auto& n : s.nodes) nodes.push_back(n.get());
    Fuser(nodes, s.config).run(s);
}

FusionVerdict checkFusion(const Schedule& s, const SchedulerNode& a, const SchedulerNode& b) {
    Fuser fuser(s.order, s.config);
    const Group* ga = &fuser.groupOf(a.leaves().front());
    const Group* gb = &fuser.groupOf(b.leaves().front());
    if (gb->order() < ga->order()) std::swap(ga, gb);
    FuseAttempt attempt = fuser.tryFuse(*ga, *gb);
    bool fusable = attempt.verdict == FusionVerdictKind::Fused;
    return {attempt.verdict, fusable ? attempt.why : refusal(ga->name(), gb->name(), attempt.why)};
}

}  // namespace fusescope

#include "schedule/fusion.h"

#include <algorithm>
#include <optional>
#include <queue>
#include <unordered_map>
#include <unordered_set>

#include <fmt/format.h>

#include "core/error.h"
#include "schedule/read_index.h"

namespace fusescope {

namespace {

// A kernel being formed: its nodes and their bodies over the shared iteration (vars c0...).
struct Group {
    size_t slot = 0;   // its index in the fuser's groups; a merged group takes a new one
    int position = 0;  // in a topological order of the groups, kept valid across merges
    std::vector<SchedulerNode*> members;  // by pre-fusion order
    std::vector<IndexExpr> pointwise, reduction;
    std::unordered_map<const SchedulerNode*, LoopBody> bodies;

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

// The pre-fusion nodes under `nodes` (themselves, or a fused node's members) by order.
std::vector<SchedulerNode*> leavesInOrder(const std::vector<SchedulerNode*>& nodes) {
    std::vector<SchedulerNode*> leaves;
    for (SchedulerNode* n : nodes)
        if (n->kind == SchedulerNode::Kind::Fused) leaves.insert(leaves.end(), n->members.begin(), n->members.end());
        else leaves.push_back(n);
    std::sort(leaves.begin(), leaves.end(), [](const SchedulerNode* x, const SchedulerNode* y) { return x->order < y->order; });
    return leaves;
}

struct Candidate {
    SchedulerNode *a, *b;  // a before b
    FusionKind kind;
    int64_t score;
};

class Fuser {
public:
    // One group per node, `nodes` in dependency order; a fused node (of a finished
    // schedule) is a group of its members.
    Fuser(const std::vector<SchedulerNode*>& nodes, const InductorConfig& config)
        : config_(config), index_(leavesInOrder(nodes)) {
        for (SchedulerNode* n : nodes) {
            auto g = std::make_unique<Group>();
            g->members = n->kind == SchedulerNode::Kind::Fused ? n->members : std::vector<SchedulerNode*>{n};
            g->pointwise = n->pointwiseSizes;
            g->reduction = n->reductionSizes;
            if (n->kind == SchedulerNode::Kind::Computed) g->bodies[n] = *bodyIn(*n, g->pointwise, g->reduction);
            g->position = static_cast<int>(groups_.size());
            adopt(std::move(g));
        }
    }

    const Group& groupOf(const SchedulerNode* leaf) const { return *groupOf_.at(leaf); }

    void run(Schedule& s) {
        s_ = &s;
        std::unordered_set<uint64_t> tried;  // group slot pairs
        for (const Candidate& c : candidates()) {
            Group* ga = groupOf_.at(c.a);
            Group* gb = groupOf_.at(c.b);
            if (ga == gb) continue;
            if (gb->order() < ga->order()) std::swap(ga, gb);
            if (!tried.insert(uint64_t(ga->slot) << 32 | gb->slot).second) continue;
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
            for (const SchedulerNode* consumer : index_.readers(producer->name)) {
                const Group* from = groupOf_.at(producer);
                const Group* to = groupOf_.at(consumer);
                if (producer == consumer || (to != &a && to != &b) || from == to) continue;  // outside, or fused already
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
    // Every producer with each of its consumers (vertical) and every two readers of one
    // buffer other than extern kernels (horizontal; each reader with the next
    // max_fusion_buffer_group_pairwise_attempts readers, as inductor pairs them), most
    // bytes saved first, then the closest, then in node order.
    std::vector<Candidate> candidates() const {
        std::vector<Candidate> out;
        for (const auto& a : s_->nodes)
            for (SchedulerNode* b : index_.readers(a->name))
                if (b->order > a->order) out.push_back({a.get(), b, FusionKind::Vertical, bytesOf(*a)});
        std::vector<std::pair<SchedulerNode*, SchedulerNode*>> sharing;
        size_t window = static_cast<size_t>(config_.maxFusionBufferGroupPairwiseAttempts);
        for (const auto& [buffer, readers] : index_.allReaders())
            for (size_t i = 0; i < readers.size(); ++i)
                for (size_t j = i + 1; j < readers.size() && j <= i + window; ++j) sharing.push_back({readers[i], readers[j]});
        auto byOrder = [](const auto& x, const auto& y) {
            return std::pair(x.first->order, x.second->order) < std::pair(y.first->order, y.second->order);
        };
        std::sort(sharing.begin(), sharing.end(), byOrder);
        sharing.erase(std::unique(sharing.begin(), sharing.end()), sharing.end());
        for (auto [a, b] : sharing) {
            if (index_.reads(*b, a->name) || index_.reads(*a, b->name)) continue;
            // An extern kernel never fuses: as inductor, pair it with no other reader (a weight
            // read by a thousand matrix products would otherwise bring 64 refusals each).
            if (a->kind == SchedulerNode::Kind::Extern || b->kind == SchedulerNode::Kind::Extern) continue;
            int64_t shared = 0;
            for (const auto* deps : {&a->metDependencies, &a->unmetDependencies})
                for (const auto& d : *deps) shared += index_.reads(*b, d.name) ? 1 : 0;
            out.push_back({a, b, FusionKind::Horizontal, shared * bytesOf(*a)});
        }
        std::sort(out.begin(), out.end(), [](const Candidate& x, const Candidate& y) {
            if (x.score != y.score) return x.score > y.score;
            int dx = x.b->order - x.a->order, dy = y.b->order - y.a->order;
            if (dx != dy) return dx < dy;
            return std::pair(x.a->order, x.b->order) < std::pair(y.a->order, y.b->order);
        });
        return out;
    }

    // The groups reading what `g` writes, and those writing what it reads (other than g;
    // a group may come more than once).
    template <class F>
    void forEachSuccessor(const Group& g, F&& f) const {
        for (const SchedulerNode* m : g.members)
            for (SchedulerNode* r : index_.readers(m->name))
                if (Group* h = groupOf_.at(r); h != &g) f(h);
    }
    template <class F>
    void forEachPredecessor(const Group& g, F&& f) const {
        for (const SchedulerNode* m : g.members)
            for (std::string_view buffer : index_.readNames(*m))
                if (SchedulerNode* w = index_.writer(buffer))
                    if (Group* h = groupOf_.at(w); h != &g) f(h);
    }

    // The groups placed strictly between `first` and `last` that `first` reaches (`after`)
    // and that reach `last` (`before`). Only those can lie on a path between the two, so the
    // search stays within the stretch of the order that a fusion affects.
    struct Between {
        std::vector<Group*> after, before;
    };
    Between between(const Group& first, const Group& last, bool withBefore) const {
        Between w;
        auto search = [&](const Group& from, bool forward, std::vector<Group*>& found) {
            std::unordered_set<const Group*> seen;
            std::vector<const Group*> stack{&from};
            auto visit = [&](Group* h) {
                bool inside = forward ? h->position < last.position : h->position > first.position;
                if (inside && seen.insert(h).second) {
                    found.push_back(h);
                    stack.push_back(h);
                }
            };
            while (!stack.empty()) {
                const Group* g = stack.back();
                stack.pop_back();
                if (forward) forEachSuccessor(*g, visit);
                else forEachPredecessor(*g, visit);
            }
        };
        search(first, true, w.after);
        if (withBefore) search(last, false, w.before);
        return w;
    }

    // A group X other than a and b with a -> X -> b (or b -> X -> a): one of the later
    // group's producers that the earlier one reaches; the earliest such by order.
    std::optional<std::string> cycleThrough(const Group& a, const Group& b) const {
        const Group& first = a.position < b.position ? a : b;
        const Group& last = &first == &a ? b : a;
        std::vector<Group*> after = between(first, last, false).after;
        std::unordered_set<const Group*> reached(after.begin(), after.end());
        const Group* through = nullptr;
        forEachPredecessor(last, [&](const Group* x) {
            if (reached.count(x) && (!through || x->order() < through->order())) through = x;
        });
        return through ? std::optional(through->name()) : std::nullopt;
    }

    void adopt(std::unique_ptr<Group> g) {
        g->slot = groups_.size();
        for (auto* m : g->members) groupOf_[m] = g.get();
        groups_.push_back(std::move(g));
    }

    // Puts the fused group in place of a and b. Its position must follow every group that
    // reaches it and precede every group it reaches: the groups between the two that reach
    // the later one move ahead of it, those the earlier one reaches move behind it, each
    // set in its own order, within the positions they and the pair held (Pearce and
    // Kelly's dynamic topological order).
    void replace(Group* a, Group* b, Group fused) {
        Group* first = a->position < b->position ? a : b;
        Group* last = first == a ? b : a;
        Between w = between(*first, *last, true);
        std::vector<int> slots{first->position, last->position};
        for (const auto* set : {&w.before, &w.after})
            for (const Group* g : *set) slots.push_back(g->position);
        std::sort(slots.begin(), slots.end());
        auto byPosition = [](const Group* x, const Group* y) { return x->position < y->position; };
        std::sort(w.before.begin(), w.before.end(), byPosition);
        std::sort(w.after.begin(), w.after.end(), byPosition);
        size_t next = 0;
        for (Group* g : w.before) g->position = slots[next++];
        fused.position = slots[next];
        next = slots.size() - w.after.size();
        for (Group* g : w.after) g->position = slots[next++];
        groups_[a->slot].reset();
        groups_[b->slot].reset();
        adopt(std::make_unique<Group>(std::move(fused)));
    }

    // Post-fusion nodes in dependency order: of the groups whose producers are all out,
    // the one with the earliest member first.
    void finish() {
        std::unordered_map<const Group*, std::vector<Group*>> consumers;
        std::unordered_map<const Group*, size_t> waiting;
        auto later = [](const Group* x, const Group* y) { return x->order() > y->order(); };
        std::priority_queue<Group*, std::vector<Group*>, decltype(later)> ready(later);
        for (const auto& g : groups_) {
            if (!g) continue;
            std::unordered_set<Group*> producers;
            forEachPredecessor(*g, [&](Group* p) { producers.insert(p); });
            for (Group* p : producers) consumers[p].push_back(g.get());
            waiting[g.get()] = producers.size();
            if (producers.empty()) ready.push(g.get());
        }
        while (!ready.empty()) {
            Group* g = ready.top();
            ready.pop();
            emit(*g);
            for (Group* c : consumers[g])
                if (--waiting[c] == 0) ready.push(c);
        }
        if (s_->order.size() != waiting.size()) throw Error("internal error: fused kernels depend on each other in a cycle");
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
    ReadIndex index_;
    Schedule* s_ = nullptr;                       // what run() fills
    std::vector<std::unique_ptr<Group>> groups_;  // by slot; null once merged into another
    std::unordered_map<const SchedulerNode*, Group*> groupOf_;
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

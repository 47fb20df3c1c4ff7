// One C++ function per kernel group. The loop nest is the group's iteration: pointwise
// dims outside (the outermost one in parallel through OpenMP when the work is large),
// then per member either its statements directly (a pointwise member over the outer dims),
// a vectorisable inner loop (a pointwise member over every dim), or a reduction loop with
// 16 independent accumulator lanes, which the compiler keeps in vector registers.

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <set>

#include <fmt/format.h>

#include "codegen/common/loop_statements.h"
#include "codegen/cpp/cpp_codegen.h"

namespace fusescope {

namespace {

constexpr int kLanes = 16;
constexpr int64_t kParallelWork = 1 << 15;  // elements below which threads cost more than they save
constexpr int64_t kChunk = 4096;            // elements a thread takes at a time from a flat loop

class KernelWriter {
public:
    KernelWriter(const KernelGroup& k, const LoweredGraph& g, const std::map<std::string, int>& storedIntoInputs) : k_(k), g_(g) {
        KernelBuffers buffers = kernelBuffers(k);
        for (const auto& [buffer, placeholder] : storedIntoInputs) {
            if (!buffers.written.count(buffer)) continue;
            mayAlias_.insert(buffer);
            for (const InputBuffer& in : g.inputs)
                if (in.placeholder == placeholder) mayAlias_.insert(in.name);
        }
    }

    // The kernel's code, each line tagged with the member it computes (kAllMembers for the
    // loop nest and the parts every member shares).
    KernelCode write(const std::string& name) {
        KernelCode out = startKernel(k_, g_, "extern \"C\" void", name, "__restrict", mayAlias_);
        size_t p = k_.pointwiseSizes.size();
        IndexExpr work = product(k_.pointwiseSizes) * product(k_.reductionSizes);
        std::string parallelIf = fmt::format("if(parallel: {} >= {})", work.cstr(), kParallelWork);
        std::string indent = "    ";
        // A flat pointwise loop is split in chunks: threads take chunks, each a vector loop.
        size_t depth = p + (p == 1 && k_.reductionSizes.empty() ? 1 : 0);
        std::string nest;
        for (size_t d = 0; d < p; ++d) {
            std::string pad = indent + std::string(4 * d, ' ');
            bool outer = d == 0, inner = d + 1 == p && k_.reductionSizes.empty();
            if (depth > p) {
                std::string n = k_.pointwiseSizes[0].cstr();
                nest += fmt::format("{}#pragma omp parallel for {}\n", pad, parallelIf);
                nest += fmt::format("{}for (int64_t chunk = 0; chunk < {}; chunk += {}) {{\n", pad, n, kChunk);
                nest += fmt::format("{}    int64_t chunk_end = chunk + {} < {} ? chunk + {} : {};\n", pad, kChunk, n, kChunk, n);
                nest += fmt::format("{}    #pragma omp simd\n", pad);
                nest += fmt::format("{}    for (int64_t c0 = chunk; c0 < chunk_end; ++c0) {{\n", pad);
                continue;
            }
            if (outer) nest += pad + "#pragma omp parallel for " + parallelIf + "\n";
            else if (inner) nest += pad + "#pragma omp simd\n";
            nest += fmt::format("{}for (int64_t c{} = 0; c{} < {}; ++c{}) {{\n", pad, d, d, k_.pointwiseSizes[d].cstr(), d);
        }
        // Pure pointwise: every member inside the innermost loop; else each member's own loops.
        // What a member computes once goes before the loops (Hoisting).
        std::vector<std::string> members;
        std::vector<Hoisting> hoisted(k_.nodes.size(), Hoisting{kernelBuffers(k_).written, indent, ""});
        for (int m = 0; m < static_cast<int>(k_.nodes.size()); ++m) {
            // Statements outside any loop (a 0-dim result) would meet their hoisted operands' names.
            hoist_ = p > 0 || !k_.reductionSizes.empty() ? &hoisted[static_cast<size_t>(m)] : nullptr;
            members.push_back(k_.reductionSizes.empty()
                                  ? loopStatements(k_.bodies[m], memberPrefix(m), indent + std::string(4 * depth, ' '), nullptr,
                                                   nullptr, nullptr, hoist_)
                                  : member(m, indent + std::string(4 * p, ' ')));
        }
        for (int m = 0; m < static_cast<int>(members.size()); ++m) out.add(hoisted[static_cast<size_t>(m)].statements, m);
        out.add(nest, KernelCode::kAllMembers);
        // A value stored into its input's memory is stored after every member has read the
        // input at this element (schedule/in_place_outputs.h): one loop body, pointwise.
        std::vector<std::string> deferred(members.size());
        if (k_.reductionSizes.empty())
            for (size_t m = 0; m < members.size(); ++m)
                deferred[m] = takeStore(members[m], indent + std::string(4 * depth, ' '), storeOpOf(k_.bodies[m]).buffer);
        for (int m = 0; m < static_cast<int>(members.size()); ++m) out.add(members[static_cast<size_t>(m)], m);
        for (int m = 0; m < static_cast<int>(members.size()); ++m) out.add(deferred[static_cast<size_t>(m)], m);
        std::string close;
        for (size_t d = depth; d-- > 0;) close += indent + std::string(4 * d, ' ') + "}\n";
        out.add(close + "}\n", KernelCode::kAllMembers);
        return out;
    }

private:
    // Takes the line storing `buffer` out of `statements` when the buffer may alias its input.
    std::string takeStore(std::string& statements, const std::string& pad, const std::string& buffer) const {
        if (!mayAlias_.count(buffer)) return "";
        std::string head = pad + buffer + "[";
        size_t at = statements.rfind("\n" + head);
        at = at == std::string::npos ? (statements.rfind(head, 0) == 0 ? 0 : std::string::npos) : at + 1;
        if (at == std::string::npos) throw Error("internal error: no store of " + buffer + " in its kernel");
        size_t end = statements.find('\n', at);
        std::string line = statements.substr(at, end - at + 1);
        statements.erase(at, end - at + 1);
        return line;
    }

    // One member inside the outer (pointwise) loops of a reduction group.
    std::string member(size_t m, const std::string& pad) {
        const LoopBody& body = k_.bodies[m];
        prefix_ = memberPrefix(static_cast<int>(m));
        size_t p = k_.pointwiseSizes.size();
        if (body.vars.size() == p)  // pointwise over the outer dims only: in no loop when there are none
            return loopStatements(body, prefix_, pad, nullptr, nullptr, nullptr, p > 0 ? hoist_ : nullptr);
        const SchedulerNode* node = k_.nodes[m];
        std::vector<size_t> rdims;
        for (size_t d = p; d < body.vars.size(); ++d) rdims.push_back(d);
        if (!node->isReduction()) {
            std::string out;
            std::string inner = pad;
            for (size_t i = 0; i < rdims.size(); ++i) {
                if (i + 1 == rdims.size()) out += inner + "#pragma omp simd\n";
                out += fmt::format("{}for (int64_t {} = 0; {} < {}; ++{}) {{\n", inner, body.vars[rdims[i]], body.vars[rdims[i]],
                                   body.ranges[rdims[i]].cstr(), body.vars[rdims[i]]);
                inner += "    ";
            }
            out += loopStatements(body, prefix_, inner, nullptr, nullptr, nullptr, hoist_);
            for (size_t i = rdims.size(); i-- > 0;) out += pad + std::string(4 * i, ' ') + "}\n";
            return out;
        }
        return reduction(body, pad, rdims);
    }

    std::string reduction(const LoopBody& body, const std::string& pad, const std::vector<size_t>& rdims) {
        const LoopOp* red = &reductionOpOf(body);
        const LoopOp& store = storeOpOf(body);
        std::string type = dtypeCType(red->dtype);
        std::string acc = prefix_ + "acc";
        std::string out = fmt::format("{}{{\n", pad);
        std::string in = pad + "    ";
        ReductionKind kind = red->reductionKind;
        bool arg = isArgReduction(kind);
        bool lanes = !arg && rdims.size() == 1;
        std::string srcType = dtypeCType(red->srcDtype);
        // The reduced value at given reduction indices, as a lambda so the lane loop and the
        // tail share one body.
        std::string params;
        for (size_t d : rdims) params += (params.empty() ? "" : ", ") + std::string("int64_t ") + body.vars[d];
        std::string value;
        std::string stmts = loopStatements(body, prefix_, in + "    ", &value, nullptr, nullptr, hoist_);
        out += fmt::format("{}auto {}value = [&]({}) -> {} {{\n{}{}    return {};\n{}}};\n", in, prefix_, params, srcType, stmts, in,
                           value, in);
        std::string init = reductionInit(kind, red->srcDtype);
        if (arg) {
            // First index of the extreme value; NaN counts as the extreme, as in PyTorch.
            const std::string& r = body.vars[rdims[0]];
            std::string better = kind == ReductionKind::ArgMax ? ">" : "<";
            out += fmt::format("{}{} {}best = {};\n{}int64_t {} = 0;\n", in, srcType, prefix_, init, in, acc);
            out += fmt::format("{}for (int64_t {} = 0; {} < {}; ++{}) {{\n", in, r, r, body.ranges[rdims[0]].cstr(), r);
            out += fmt::format("{}    {} v = {}value({});\n", in, srcType, prefix_, r);
            out += fmt::format("{}    if (!fs_isnan({}best) && (fs_isnan(v) || v {} {}best)) {{ {}best = v; {} = {}; }}\n", in, prefix_,
                               better, prefix_, prefix_, acc, r);
            out += in + "}\n";
        } else if (lanes) {
            const std::string& r = body.vars[rdims[0]];
            std::string range = body.ranges[rdims[0]].cstr();
            out += fmt::format("{}{} {}lanes[{}];\n", in, type, prefix_, kLanes);
            out += fmt::format("{}for (int l = 0; l < {}; ++l) {}lanes[l] = {};\n", in, kLanes, prefix_, init);
            out += fmt::format("{}int64_t {}base = 0;\n", in, prefix_);
            out += fmt::format("{}for (; {}base + {} <= {}; {}base += {}) {{\n", in, prefix_, kLanes, range, prefix_, kLanes);
            out += fmt::format("{}    for (int l = 0; l < {}; ++l) {}lanes[l] = {};\n", in, kLanes, prefix_,
                               reductionCombine(kind, prefix_ + "lanes[l]", prefix_ + "value(" + prefix_ + "base + l)"));
            out += in + "}\n";
            out += fmt::format("{}{} {} = {};\n", in, type, acc, init);
            out += fmt::format("{}for (int l = 0; l < {}; ++l) {} = {};\n", in, kLanes, acc, reductionCombine(kind, acc, prefix_ + "lanes[l]"));
            out += fmt::format("{}for (int64_t {} = {}base; {} < {}; ++{}) {} = {};\n", in, r, prefix_, r, range, r, acc,
                               reductionCombine(kind, acc, prefix_ + "value(" + r + ")"));
        } else {
            out += fmt::format("{}{} {} = {};\n", in, type, acc, init);
            std::string inner = in;
            std::string call;
            for (size_t d : rdims) {
                out += fmt::format("{}for (int64_t {} = 0; {} < {}; ++{}) {{\n", inner, body.vars[d], body.vars[d], body.ranges[d].cstr(),
                                   body.vars[d]);
                call += (call.empty() ? "" : ", ") + body.vars[d];
                inner += "    ";
            }
            out += fmt::format("{}{} = {};\n", inner, acc, reductionCombine(kind, acc, prefix_ + "value(" + call + ")"));
            for (size_t i = rdims.size(); i-- > 0;) out += in + std::string(4 * i, ' ') + "}\n";
        }
        std::string index = body.indices[body.ops[store.args[0]].index].cstr();
        out += fmt::format("{}{}[{}] = {};\n{}}}\n", in, store.buffer, index, acc, pad);
        return out;
    }

    const KernelGroup& k_;
    const LoweredGraph& g_;
    std::set<std::string> mayAlias_;  // outputs stored into their input's memory, and those inputs
    std::string prefix_;
    Hoisting* hoist_ = nullptr;  // the member's hoisted statements
};

}  // namespace

KernelCode cppKernel(const KernelGroup& kernel, const std::string& name, const LoweredGraph& graph,
                     const std::map<std::string, int>& storedIntoInputs) {
    return KernelWriter(kernel, graph, storedIntoInputs).write(name);
}

}  // namespace fusescope

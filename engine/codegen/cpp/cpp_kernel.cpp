// One C++ function per kernel group. The loop nest is the group's iteration: pointwise
// dims outside (the outermost one in parallel through OpenMP when the work is large),
// then per member either its statements directly (a pointwise member over the outer dims),
// a vectorisable inner loop (a pointwise member over every dim), or a reduction loop (a
// vector loop with several accumulators; see lanes()). Three shapes of reduction get their
// own loops:
// - a full reduction (no pointwise dims) is split in kParts pieces that threads take, each
//   with its own lanes, combined in piece order (the result does not depend on the threads);
// - reductions that read across rows (x.sum(dim=0): the inner pointwise dim is contiguous,
//   the reduction dim strided) walk tiles of neighbouring outputs together, one
//   accumulator each, so every cache line read is used whole;
// - a costly value a reduction accumulates and a later member computes again (softmax's
//   exp) is stored by the reduction where that member writes, and read back there
//   (codegen/common/kept_values.h).
// Rows reduced one by one: the first member reads each row from memory, the later ones
// from cache, and while they compute the memory would idle; so the second member's loop
// over the row runs in blocks, each first prefetching the same elements of the next row
// (and, for writing, of this row's later outputs: rowPrefetches).

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <map>
#include <optional>
#include <set>

#include <fmt/format.h>

#include "codegen/common/kept_values.h"
#include "codegen/common/loop_statements.h"
#include "codegen/common/row_max_exps.h"
#include "codegen/cpp/chunked_sums.h"
#include "codegen/cpp/cpp_codegen.h"

namespace fusescope {

namespace {

struct RowPrefetch {
    std::string buffer;
    IndexExpr index;  // of element `rb`
    bool write;
    bool operator==(const RowPrefetch& o) const { return buffer == o.buffer && index == o.index && write == o.write; }
};

constexpr int kLanes = 64;      // accumulators of a max/min/arg reduction (eight vectors)
constexpr int kShortLanes = 8;  // ... of one known shorter than kShortRow (one vector)
constexpr int64_t kShortRow = 1024;
constexpr int64_t kParallelWork = 1 << 15;  // elements below which threads cost more than they save
constexpr int64_t kChunk = 4096;            // elements a thread takes at a time from a flat loop
constexpr int64_t kParts = 64;              // pieces of a full reduction
constexpr int64_t kColumnTile = 1024;       // the most outputs a reduction across rows computes together (fs_column_tile)
constexpr int64_t kPrefetchBlock = 256;     // elements of the next row prefetched at a time (16 lines of floats)
// How far ahead in its row the second member prefetches for writing where it stores a kept
// value: softmax of 4096x4096 took 1-4% less time so in a standalone loop, against 256 or 1024.
constexpr int64_t kWriteAhead = 2 * kPrefetchBlock;

// Whether the group's reductions read across rows: some reduction member loads contiguously
// along the innermost pointwise dim and strided along its innermost reduction dim, and none
// loads contiguously along a reduction dim.
bool readsAcrossRows(const KernelGroup& k) {
    size_t p = k.pointwiseSizes.size();
    if (p == 0 || k.reductionSizes.empty()) return false;
    bool across = false;
    for (size_t m = 0; m < k.nodes.size(); ++m) {
        const LoopBody& body = k.bodies[m];
        if (!k.nodes[m]->isReduction() || body.vars.size() <= p) continue;
        for (const auto& [buffer, indices] : body.loads())
            for (const IndexExpr& index : indices) {
                auto alongRow = index.linearCoefficient(body.vars.back());
                if (!alongRow || alongRow->isZero()) continue;
                if (*alongRow == IndexExpr(1)) return false;
                auto alongColumn = index.linearCoefficient(body.vars[p - 1]);
                across = across || (alongColumn && *alongColumn == IndexExpr(1));
            }
    }
    return across;
}

// What the second member prefetches while it computes, as indices at element `rb` of the
// row: each load of the first member (a reduction over one dim, rows of at least
// kPrefetchBlock or of unknown length) that runs along the row contiguously and moves with
// the row, at the next row; and, for writing, each store of a later member along the row
// (log_softmax's output) that the second does not store itself, at this row, and the value
// the second keeps (softmax's exp; `keptBySecond`) kWriteAhead elements further on. None
// when the second member has no loop over the row.
std::vector<RowPrefetch> rowPrefetches(const KernelGroup& k, const std::vector<LoopBody>& bodies, bool acrossRows,
                                       const std::set<std::string>& storedBySecond,
                                       const std::optional<std::pair<std::string, IndexExpr>>& keptBySecond) {
    size_t p = k.pointwiseSizes.size();
    if (p == 0 || acrossRows || k.nodes.size() < 2 || !k.nodes[0]->isReduction()) return {};
    if (bodies[0].vars.size() != p + 1 || bodies[1].vars.size() != p + 1) return {};
    auto length = bodies[0].ranges[p].constant();
    if (length && *length < kPrefetchBlock) return {};
    std::vector<RowPrefetch> prefetches;
    auto add = [&](const LoopBody& body, const std::string& buffer, const IndexExpr& index, bool write, int64_t ahead = 0) {
        const std::string &row = body.vars[p - 1], along = body.vars[p];
        auto step = index.linearCoefficient(along), stride = index.linearCoefficient(row);
        if (!step || *step != IndexExpr(1) || !stride || stride->isZero()) return;
        IndexExpr at = IndexExpr::symbol(row) + IndexExpr(write ? 0 : 1);
        IndexExpr from = IndexExpr::symbol("rb") + IndexExpr(ahead);
        RowPrefetch prefetch{buffer, index.substitute({{along, from}, {row, at}}), write};
        if (std::find(prefetches.begin(), prefetches.end(), prefetch) == prefetches.end()) prefetches.push_back(std::move(prefetch));
    };
    for (const auto& [buffer, indices] : bodies[0].loads())
        for (const IndexExpr& index : indices) add(bodies[0], buffer, index, false);
    for (size_t m = 2; m < bodies.size(); ++m) {
        if (bodies[m].vars.size() != p + 1) continue;
        const LoopOp& store = storeOpOf(bodies[m]);
        if (!storedBySecond.count(store.buffer)) add(bodies[m], store.buffer, bodies[m].indices[bodies[m].ops[store.args[0]].index], true);
    }
    if (keptBySecond) add(bodies[1], keptBySecond->first, keptBySecond->second, true, kWriteAhead);
    return prefetches;
}

// The `omp simd` clause of a sum or product into `acc`: the vectoriser keeps several
// vector accumulators in registers.
std::string simdReduction(ReductionKind kind, const std::string& acc) {
    return fmt::format("omp simd reduction({} : {})", kind == ReductionKind::Sum ? "+" : "*", acc);
}

// One step of a running argmax/argmin in selects, so that it vectorises: best[slot] and
// index[slot] take `value` and `at` when the value is better, or the first NaN.
std::string argStep(ReductionKind kind, const std::string& best, const std::string& index, const std::string& slot,
                    const std::string& value, const std::string& at) {
    std::string b = best + "[" + slot + "]", i = index + "[" + slot + "]";
    return fmt::format("const bool take = !fs_isnan({}) & (fs_isnan({}) | ({} {} {})); {} = take ? {} : {}; {} = take ? {} : {};", b,
                       value, value, kind == ReductionKind::ArgMax ? ">" : "<", b, b, value, b, i, at, i);
}

class KernelWriter {
public:
    KernelWriter(const KernelGroup& k, const LoweredGraph& g, const std::map<std::string, int>& storedIntoInputs)
        : k_(k), g_(g), bodies_(k.bodies) {
        KernelBuffers buffers = kernelBuffers(k);
        for (const auto& [buffer, placeholder] : storedIntoInputs) {
            if (!buffers.written.count(buffer)) continue;
            mayAlias_.insert(buffer);
            for (const InputBuffer& in : g.inputs)
                if (in.placeholder == placeholder) mayAlias_.insert(in.name);
        }
        acrossRows_ = readsAcrossRows(k);
        std::set<size_t> keptReductions;
        for (KeptValue& v : keptValues(k, mayAlias_)) {
            bodies_[v.reader] = std::move(v.readerBody);
            kept_[v.reduction] = {v.buffer, v.index};
            keptReductions.insert(v.reduction);
        }
        markRowMaxExps(k, bodies_, keptReductions);
        if (k.nodes.size() > 1) {
            std::set<std::string> storedBySecond{storeOpOf(bodies_[1]).buffer};
            std::optional<std::pair<std::string, IndexExpr>> keptBySecond;
            if (auto kept = kept_.find(1); kept != kept_.end()) {
                storedBySecond.insert(kept->second.first);
                keptBySecond = kept->second;
            }
            prefetches_ = rowPrefetches(k, bodies_, acrossRows_, storedBySecond, keptBySecond);
        }
    }

    // The kernel's code, each line tagged with the member it computes (kAllMembers for the
    // loop nest and the parts every member shares).
    KernelCode write(const std::string& name) {
        KernelCode out = startKernel(k_, g_, "extern \"C\" void", name, "__restrict", mayAlias_);
        size_t p = k_.pointwiseSizes.size();
        IndexExpr work = product(k_.pointwiseSizes) * product(k_.reductionSizes);
        parallelIf_ = fmt::format("if(parallel: {} >= {})", work.cstr(), kParallelWork);
        std::string indent = "    ";
        // A flat pointwise loop is split in chunks: threads take chunks, each a vector loop.
        size_t depth = p + (p == 1 && k_.reductionSizes.empty() ? 1 : 0);
        std::string nest;
        for (size_t d = 0; d < p; ++d) {
            std::string pad = indent + std::string(4 * d, ' ');
            bool outer = d == 0, inner = d + 1 == p && k_.reductionSizes.empty();
            std::string n = k_.pointwiseSizes[d].cstr();
            if (depth > p) {
                nest += fmt::format("{}#pragma omp parallel for {}\n", pad, parallelIf_);
                nest += fmt::format("{}for (int64_t chunk = 0; chunk < {}; chunk += {}) {{\n", pad, n, kChunk);
                nest += fmt::format("{}    int64_t chunk_end = chunk + {} < {} ? chunk + {} : {};\n", pad, kChunk, n, kChunk, n);
                nest += fmt::format("{}    #pragma omp simd\n", pad);
                nest += fmt::format("{}    for (int64_t c0 = chunk; c0 < chunk_end; ++c0) {{\n", pad);
                continue;
            }
            if (acrossRows_ && d + 1 == p) {  // a tile of neighbouring outputs: member loops go over it
                nest += fmt::format("{}const int64_t c{}_step = fs_column_tile({});\n", pad, d, n);
                if (outer) nest += pad + "#pragma omp parallel for " + parallelIf_ + "\n";
                nest += fmt::format("{}for (int64_t c{}_tile = 0; c{}_tile < {}; c{}_tile += c{}_step) {{\n", pad, d, d, n, d, d);
                nest += fmt::format("{}    const int64_t c{}_count = {} - c{}_tile < c{}_step ? {} - c{}_tile : c{}_step;\n", pad, d, n,
                                    d, d, n, d, d);
                continue;
            }
            if (outer) nest += pad + "#pragma omp parallel for " + parallelIf_ + "\n";
            else if (inner) nest += pad + "#pragma omp simd\n";
            nest += fmt::format("{}for (int64_t c{} = 0; c{} < {}; ++c{}) {{\n", pad, d, d, n, d);
        }
        // Pure pointwise: every member inside the innermost loop; else each member's own loops.
        // What a member computes once goes before the loops (Hoisting).
        std::vector<std::string> members;
        std::vector<Hoisting> hoisted(k_.nodes.size(), Hoisting{kernelBuffers(k_).written, indent, ""});
        for (int m = 0; m < static_cast<int>(k_.nodes.size()); ++m) {
            // Statements outside any loop (a 0-dim result) would meet their hoisted operands' names.
            hoist_ = p > 0 || !k_.reductionSizes.empty() ? &hoisted[static_cast<size_t>(m)] : nullptr;
            members.push_back(k_.reductionSizes.empty()
                                  ? loopStatements(bodies_[m], memberPrefix(m), indent + std::string(4 * depth, ' '), nullptr,
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
                deferred[m] = takeStore(members[m], indent + std::string(4 * depth, ' '), storeOpOf(bodies_[m]).buffer);
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

    // Loops over the body's reduction dims around `inside` (which `inside` gets the pad of).
    std::string reductionLoops(const LoopBody& body, const std::string& pad, const std::vector<size_t>& rdims, bool simdInnermost,
                               const std::function<std::string(const std::string&)>& inside, const std::string& pragma = "omp simd") const {
        if (simdInnermost && rdims.size() == 1) return rowLoop(pad, pragma, body.vars[rdims[0]], "0", body.ranges[rdims[0]].cstr(), inside);
        std::string out, inner = pad;
        for (size_t i = 0; i < rdims.size(); ++i) {
            if (simdInnermost && i + 1 == rdims.size()) out += inner + "#pragma omp simd\n";
            const std::string& v = body.vars[rdims[i]];
            out += fmt::format("{}for (int64_t {} = 0; {} < {}; ++{}) {{\n", inner, v, v, body.ranges[rdims[i]].cstr(), v);
            inner += "    ";
        }
        out += inside(inner);
        for (size_t i = rdims.size(); i-- > 0;) out += pad + std::string(4 * i, ' ') + "}\n";
        return out;
    }

    // `for (var = begin; var < end; ++var)` around `inside` under `#pragma <pragma>`; the
    // second member's in blocks of kPrefetchBlock, each first prefetching (prefetches_).
    std::string rowLoop(const std::string& pad, const std::string& pragma, const std::string& var, const std::string& begin,
                        const std::string& end, const std::function<std::string(const std::string&)>& inside) const {
        if (member_ != 1 || prefetches_.empty()) {
            return fmt::format("{}#pragma {}\n{}for (int64_t {} = {}; {} < {}; ++{}) {{\n{}{}}}\n", pad, pragma, pad, var, begin, var, end,
                               var, inside(pad + "    "), pad);
        }
        std::string in = pad + "    ";
        std::string out = fmt::format("{}for (int64_t rb = {}; rb < {}; rb += {}) {{\n", pad, begin, end, kPrefetchBlock);
        out += fmt::format("{}const int64_t rb_end = rb + {} < {} ? rb + {} : {};\n", in, kPrefetchBlock, end, kPrefetchBlock, end);
        for (const RowPrefetch& p : prefetches_)
            out += fmt::format("{}fs_prefetch{}(&{}[{}], (rb_end - rb) * sizeof({}[0]));\n", in, p.write ? "_write" : "", p.buffer,
                               p.index.cstr(), p.buffer);
        out += fmt::format("{}#pragma {}\n{}for (int64_t {} = rb; {} < rb_end; ++{}) {{\n{}{}}}\n", in, pragma, in, var, var, var,
                           inside(in + "    "), in);
        return out + pad + "}\n";
    }

    // A loop over the tile's outputs (acrossRows_), the innermost pointwise variable set from
    // `t`, around `inside`.
    std::string tileLoop(const std::string& pad, bool simd, const std::function<std::string(const std::string&)>& inside) const {
        std::string c = fmt::format("c{}", k_.pointwiseSizes.size() - 1);
        std::string out = simd ? pad + "#pragma omp simd\n" : "";
        out += fmt::format("{}for (int64_t t = 0; t < {}_count; ++t) {{\n{}    const int64_t {} = {}_tile + t;\n", pad, c, pad, c, c);
        return out + inside(pad + "    ") + pad + "}\n";
    }

    // One member inside the outer (pointwise) loops of a reduction group.
    std::string member(size_t m, const std::string& pad) {
        const LoopBody& body = bodies_[m];
        prefix_ = memberPrefix(static_cast<int>(m));
        member_ = m;
        size_t p = k_.pointwiseSizes.size();
        auto statements = [&](const std::string& in) { return loopStatements(body, prefix_, in, nullptr, nullptr, nullptr, hoist_); };
        if (body.vars.size() == p) {  // pointwise over the outer dims only: in no loop when there are none
            if (acrossRows_) return tileLoop(pad, true, statements);
            return loopStatements(body, prefix_, pad, nullptr, nullptr, nullptr, p > 0 ? hoist_ : nullptr);
        }
        std::vector<size_t> rdims;
        for (size_t d = p; d < body.vars.size(); ++d) rdims.push_back(d);
        if (!k_.nodes[m]->isReduction()) {
            if (acrossRows_) return reductionLoops(body, pad, rdims, false, [&](const std::string& in) { return tileLoop(in, true, statements); });
            // What depends on the row alone is computed once per row, before the inner loops;
            // earlier members' results for the row are complete by then. (Not the member's own
            // output, nor memory an output is stored into.)
            Hoisting row{mayAlias_, pad, "", {}};
            row.written.insert(storeOpOf(body).buffer);
            for (size_t d : rdims) row.varying.push_back(body.vars[d]);
            std::string loops = reductionLoops(body, pad, rdims, true, [&](const std::string& in) {
                return loopStatements(body, prefix_, in, nullptr, nullptr, nullptr, &row);
            });
            return row.statements + loops;
        }
        return acrossRows_ ? reductionAcrossRows(body, m, pad, rdims) : reduction(body, m, pad, rdims);
    }

    // The line storing a kept value (kept_values.h) where its reader will read it; none when
    // the member keeps none.
    std::string keepLine(size_t m, const std::string& pad, const std::string& value) const {
        auto kept = kept_.find(m);
        if (kept == kept_.end()) return "";
        return fmt::format("{}{}[{}] = {};\n", pad, kept->second.first, kept->second.second.cstr(), value);
    }

    // `acc` = the combination of value(r) for r in [begin, end). Sums and products: one
    // `omp simd` loop with OpenMP's reduction clause. NaN-propagating max and min of
    // floating values (whose compares and selects the vectoriser does not take for a
    // reduction): the same over integer order keys (fs_order_key, in the prelude); argmax
    // and argmin of floats over a row shorter than 2^31, over each key and its index packed
    // in an int64 (fs_arg_key). The others (integer max and min, other arg reductions,
    // any, all) through kLanes accumulators: whole groups of kLanes, then the rest into the
    // first lanes, both vector loops; the lanes combined pairwise at the end. An arg
    // reduction's lanes keep their best value and its index (`acc` the index; the first of
    // equal values, or the first NaN, wins).
    // `length`, when known, leaves out a loop that would not run, and a row shorter than
    // kShortRow takes one vector of lanes, left to the SLP vectoriser and combined in order:
    // each `omp simd` lane loop and the pairwise combination cost the optimiser vectorised
    // loops with their checks. Lanes cost compile time: a graph of 1000 ops with 166 amax
    // over rows of 64 compiled its C++ in 7-7.5 s with 8 SLP lanes, 3.5-5.5 s with order
    // keys (bench_compile_scale's "chain + reductions").
    std::string lanes(ReductionKind kind, const std::string& type, const std::string& srcType, const std::string& init,
                      const std::string& in, const std::string& begin, const std::string& end, const std::string& acc,
                      std::optional<int64_t> length) const {
        bool arg = isArgReduction(kind);
        const int width = length && *length < kShortRow ? kShortLanes : kLanes;  // how many lanes
        if (kind == ReductionKind::Sum || kind == ReductionKind::Prod) {
            // OpenMP's reduction clause lets the vectoriser reorder the adds: it keeps several
            // vector accumulators in registers (lanes in an array stay in memory).
            auto sumLoop = [&](const std::string& pad, const std::string& into, const std::string& from, const std::string& to) {
                return rowLoop(pad, simdReduction(kind, into), "r", from, to, [&](const std::string& each) {
                    return fmt::format("{}{} = {};\n", each, into, reductionCombine(kind, into, prefix_ + "value(r)"));
                });
            };
            std::string out = fmt::format("{}{} {} = {};\n", in, type, acc, init);
            if (chunked(kind, type)) return out + chunkLoop(in, type, init, acc, begin, end, sumLoop);
            return out + sumLoop(in, acc, begin, end);
        }
        bool extreme = kind == ReductionKind::Max || kind == ReductionKind::Min;
        if (extreme && (type == "float" || type == "double")) {
            bool isMax = kind == ReductionKind::Max;
            std::string key = prefix_ + "key", forMax = isMax ? "true" : "false";
            std::string out = keyLoop(in, type == "float" ? "int32_t" : "int64_t", isMax, fmt::format("fs_order_key({}, {})", init, forMax),
                                      fmt::format("fs_order_key({}value(r), {})", prefix_, forMax), begin, end);
            out += fmt::format("{}{} {} = fs_from_order_key({}, {}(0));\n", in, type, acc, key, type);
            // A zero takes the first zero's sign, as eager keeps the first of equal values.
            out += fmt::format("{}if ({} == 0)\n{}    for (int64_t r = {}; r < {}; ++r)\n", in, key, in, begin, end);
            return out + fmt::format("{}        if (const {} v = {}value(r); v == 0) {{ {} = v; break; }}\n", in, type, prefix_, acc);
        }
        if (arg && srcType == "float" && length && *length < (int64_t{1} << 31)) {
            // Each value's order key above its index (fs_arg_key): one integer reduction.
            bool isMax = kind == ReductionKind::ArgMax;
            std::string forMax = isMax ? "true" : "false";
            std::string out = keyLoop(in, "int64_t", isMax, fmt::format("fs_arg_key({}, {}, {})", init, begin, forMax),
                                      fmt::format("fs_arg_key({}value(r), r, {})", prefix_, forMax), begin, end);
            return out + fmt::format("{}int64_t {} = fs_arg_index({}key, {});\n", in, acc, prefix_, forMax);
        }
        std::string better = kind == ReductionKind::ArgMax ? ">" : "<";
        std::string l = prefix_ + "lanes", best = prefix_ + "lane_best", base = prefix_ + "base";
        std::string out = fmt::format("{}{} {}[{}];\n", in, type, l, width);
        if (arg) out += fmt::format("{}{} {}[{}];\n", in, srcType, best, width);
        out += fmt::format("{}for (int l = 0; l < {}; ++l) {}\n", in, width,
                           arg ? fmt::format("{{ {}[l] = {}; {}[l] = 0; }}", best, init, l) : fmt::format("{}[l] = {};", l, init));
        // One step of lane l at index r: a select, so the loop vectorises.
        auto step = [&](const std::string& r) {
            if (!arg) return fmt::format("{}[l] = {};", l, reductionCombine(kind, l + "[l]", prefix_ + "value(" + r + ")"));
            return fmt::format("{{ {} v = {}value({}); {} }}", srcType, prefix_, r, argStep(kind, best, l, "l", "v", r));
        };
        out += fmt::format("{}int64_t {} = {};\n", in, base, begin);
        if (!length || *length >= width) {
            out += fmt::format("{}for (; {} + {} <= {}; {} += {}) {{\n", in, base, width, end, base, width);
            out += fmt::format("{}    {}for (int l = 0; l < {}; ++l) {}\n{}}}\n", in, width == kLanes ? "#pragma omp simd\n" + in + "    " : "", width,
                               step(base + " + l"), in);
        }
        if (!length || *length % width != 0)
            out += fmt::format("{}#pragma omp simd\n{}for (int l = 0; l < {} - {}; ++l) {}\n", in, in, end, base, step(base + " + l"));
        if (!arg && width == kShortLanes) {  // one vector's lanes, in order
            out += fmt::format("{}{} {} = {}[0];\n", in, type, acc, l);
            return out + fmt::format("{}for (int l = 1; l < {}; ++l) {} = {};\n", in, width, acc, reductionCombine(kind, acc, l + "[l]"));
        }
        if (!arg) {  // pairwise, halving: vector steps while the halves are wide
            out += fmt::format("{}for (int w = {}; w > 0; w /= 2)\n{}    for (int l = 0; l < w; ++l) {}\n", in, width / 2, in,
                               fmt::format("{}[l] = {};", l, reductionCombine(kind, l + "[l]", l + "[l + w]")));
            return out + fmt::format("{}{} {} = {}[0];\n", in, type, acc, l);
        }
        out += fmt::format("{}{} {}best = {}[0];\n{}int64_t {} = {}[0];\n", in, srcType, prefix_, best, in, acc, l);
        out += fmt::format("{}for (int l = 1; l < {}; ++l) {{\n", in, width);
        out += fmt::format("{}    {} v = {}[l];\n", in, srcType, best);
        out += fmt::format("{}    const bool nan = fs_isnan({}best), other = fs_isnan(v);\n", in, prefix_);
        out += fmt::format("{}    if ((nan && other) || (!nan && !other && v == {}best) ? {}[l] < {} : other || (!nan && v {} {}best)) "
                           "{{ {}best = v; {} = {}[l]; }}\n",
                           in, prefix_, l, acc, better, prefix_, prefix_, acc, l);
        return out + in + "}\n";
    }

    // Whether a reduction of `kind` into a `type` accumulator sums in chunks (chunkedSums).
    bool chunked(ReductionKind kind, const std::string& type) const {
        return k_.chunkedSums && kind == ReductionKind::Sum && type == "float";
    }

    // `acc` += the sum of each chunk of kSumChunk indices of [begin, end), which `loop(pad,
    // into, from, to)` sums into an accumulator of its own: Inductor's cascade sum, whose
    // partial sums stay small beside the total.
    std::string chunkLoop(const std::string& in, const std::string& type, const std::string& init, const std::string& acc,
                          const std::string& begin, const std::string& end,
                          const std::function<std::string(const std::string&, const std::string&, const std::string&, const std::string&)>& loop) const {
        const std::string c = prefix_ + "chunk", sum = prefix_ + "chunk_sum", inner = in + "    ";
        std::string out = fmt::format("{}for (int64_t {} = {}; {} < {}; {} += {}) {{\n", in, c, begin, c, end, c, kSumChunk);
        out += fmt::format("{}const int64_t {}_end = {} + {} < {} ? {} + {} : {};\n", inner, c, c, kSumChunk, end, c, kSumChunk, end);
        out += fmt::format("{}{} {} = {};\n", inner, type, sum, init);
        out += loop(inner, sum, c, c + "_end");
        return out + fmt::format("{}{} = {} + {};\n{}}}\n", inner, acc, acc, sum, in);
    }

    // The statements a chunked sum runs after adding element `count` to `sums` (each of
    // `width` accumulators, "" for one): every kSumChunk elements, into `totals` and again
    // from zero (chunkLoop's sums, for loops that can't be split).
    static std::string chunkStep(const std::string& pad, const std::string& sums, const std::string& totals, const std::string& count,
                                 const std::string& width, const std::string& init) {
        const std::string each = width.empty() ? "" : "[t]";
        std::string flush = fmt::format("{} = {} + {}; {} = {};", totals + each, totals + each, sums + each, sums + each, init);
        if (!width.empty()) flush = fmt::format("for (int64_t t = 0; t < {}; ++t) {{ {} }}", width, flush);
        return fmt::format("{}if (++{} == {}) {{ {} {} = 0; }}\n", pad, count, kSumChunk, flush, count);
    }

    // `key` = the greatest (or least) integer `keyOf` (of r) for r in [begin, end) and
    // `first`: one `omp simd` loop with OpenMP's reduction clause.
    std::string keyLoop(const std::string& in, const std::string& keyType, bool isMax, const std::string& first,
                        const std::string& keyOf, const std::string& begin, const std::string& end) const {
        std::string key = prefix_ + "key";
        std::string out = fmt::format("{}{} {} = {};\n{}#pragma omp simd reduction({} : {})\n", in, keyType, key, first, in,
                                      isMax ? "max" : "min", key);
        out += fmt::format("{}for (int64_t r = {}; r < {}; ++r) {{\n{}    const {} k = {};\n", in, begin, end, in, keyType, keyOf);
        return out + fmt::format("{}    {} = k {} {} ? k : {};\n{}}}\n", in, key, isMax ? ">" : "<", key, key, in);
    }

    // A reduction member row by row: its value as a lambda of the reduction indices, then
    // lanes (one reduction dim; split in pieces across threads when it is the whole
    // reduction) or a plain loop.
    std::string reduction(const LoopBody& body, size_t m, const std::string& pad, const std::vector<size_t>& rdims) {
        const LoopOp* red = &reductionOpOf(body);
        const LoopOp& store = storeOpOf(body);
        std::string type = dtypeCType(red->dtype);
        std::string acc = prefix_ + "acc";
        std::string out = fmt::format("{}{{\n", pad);
        std::string in = pad + "    ";
        ReductionKind kind = red->reductionKind;
        bool arg = isArgReduction(kind);
        bool useLanes = rdims.size() == 1;
        std::string srcType = dtypeCType(red->srcDtype);
        // The reduced value at given reduction indices, as a lambda so the lane loop and the
        // tail share one body.
        std::string params;
        for (size_t d : rdims) params += (params.empty() ? "" : ", ") + std::string("int64_t ") + body.vars[d];
        std::string value, stmts;
        std::string init = reductionInit(kind, red->srcDtype);
        std::string range = body.ranges[rdims[0]].cstr();
        std::string index = body.indices[body.ops[store.args[0]].index].cstr();
        bool sum = kind == ReductionKind::Sum || kind == ReductionKind::Prod;
        if (kept_.count(m) && sum && useLanes && !k_.pointwiseSizes.empty()) {
            // Kept and summed in one vector loop (softmax's exp).
            out += fmt::format("{}{} {} = {};\n", in, type, acc, init);
            auto sumLoop = [&](const std::string& loopPad, const std::string& into, const std::string& from, const std::string& to) {
                return rowLoop(loopPad, simdReduction(kind, into), body.vars[rdims[0]], from, to, [&](const std::string& inner) {
                    std::string s = loopStatements(body, prefix_, inner, &value, nullptr, nullptr, hoist_);
                    return s + keepLine(m, inner, value) + fmt::format("{}{} = {};\n", inner, into, reductionCombine(kind, into, value));
                });
            };
            out += chunked(kind, type) ? chunkLoop(in, type, init, acc, "0", range, sumLoop) : sumLoop(in, acc, "0", range);
            return out + fmt::format("{}{}[{}] = {};\n{}}}\n", in, store.buffer, index, acc, pad);
        }
        if (auto kept = kept_.find(m); kept != kept_.end()) {
            // Computed into the reader's output in a vector loop first, then reduced from there
            // (a store inside the lambda would keep the lanes from vectorising).
            out += reductionLoops(body, in, rdims, true, [&](const std::string& inner) {
                std::string s = loopStatements(body, prefix_, inner, &value, nullptr, nullptr, hoist_);
                return s + keepLine(m, inner, value);
            });
            value = fmt::format("{}[{}]", kept->second.first, kept->second.second.cstr());
        } else {
            stmts = loopStatements(body, prefix_, in + "    ", &value, nullptr, nullptr, hoist_);
        }
        out += fmt::format("{}auto {}value = [&]({}) -> {} {{\n{}{}    return {};\n{}}};\n", in, prefix_, params, srcType, stmts, in,
                           value, in);
        if (useLanes && !arg && k_.pointwiseSizes.empty() && !isSmall(body.ranges[rdims[0]])) {
            // Pieces for the threads, each of whole lane groups but the last.
            out += fmt::format("{}{} {}part[{}];\n", in, type, prefix_, kParts);
            out += fmt::format("{}#pragma omp parallel for {}\n", in, parallelIf_);
            out += fmt::format("{}for (int64_t part = 0; part < {}; ++part) {{\n", in, kParts);
            std::string piece = in + "    ";
            out += fmt::format("{}const int64_t {}step = ({} + {}) / {} * {};\n", piece, prefix_, range, kParts * kLanes - 1,
                               kParts * kLanes, kLanes);
            out += fmt::format("{}const int64_t {}begin = part * {}step < {} ? part * {}step : {};\n", piece, prefix_, prefix_, range,
                               prefix_, range);
            out += fmt::format("{}const int64_t {}end = {}begin + {}step < {} ? {}begin + {}step : {};\n", piece, prefix_, prefix_, prefix_,
                               range, prefix_, prefix_, range);
            out += lanes(kind, type, srcType, init, piece, prefix_ + "begin", prefix_ + "end", prefix_ + "piece", std::nullopt);
            out += fmt::format("{}{}part[part] = {}piece;\n{}}}\n", piece, prefix_, prefix_, in);
            out += fmt::format("{}{} {} = {};\n", in, type, acc, init);
            out += fmt::format("{}for (int64_t part = 0; part < {}; ++part) {} = {};\n", in, kParts, acc,
                               reductionCombine(kind, acc, prefix_ + "part[part]"));
        } else if (useLanes) {
            out += lanes(kind, type, srcType, init, in, "0", range, acc, body.ranges[rdims[0]].constant());
        } else {
            const bool chunks = chunked(kind, type);
            const std::string sum = chunks ? prefix_ + "chunk_sum" : acc, count = prefix_ + "chunk_count";
            out += fmt::format("{}{} {} = {};\n", in, type, acc, init);
            if (chunks) out += fmt::format("{}{} {} = {};\n{}int64_t {} = 0;\n", in, type, sum, init, in, count);
            std::string call;
            for (size_t d : rdims) call += (call.empty() ? "" : ", ") + body.vars[d];
            out += reductionLoops(body, in, rdims, false, [&](const std::string& inner) {
                std::string step = fmt::format("{}{} = {};\n", inner, sum, reductionCombine(kind, sum, prefix_ + "value(" + call + ")"));
                return chunks ? step + chunkStep(inner, sum, acc, count, "", init) : step;
            });
            if (chunks) out += fmt::format("{}{} = {} + {};\n", in, acc, acc, sum);
        }
        out += fmt::format("{}{}[{}] = {};\n{}}}\n", in, store.buffer, index, acc, pad);
        return out;
    }

    // A reduction member over a tile of neighbouring outputs (acrossRows_): one accumulator
    // per output, the reduction dims outside, the tile's outputs inside (contiguous loads).
    std::string reductionAcrossRows(const LoopBody& body, size_t m, const std::string& pad, const std::vector<size_t>& rdims) {
        const LoopOp* red = &reductionOpOf(body);
        const LoopOp& store = storeOpOf(body);
        ReductionKind kind = red->reductionKind;
        bool arg = isArgReduction(kind);
        std::string acc = prefix_ + "acc", best = prefix_ + "best";
        std::string init = reductionInit(kind, red->srcDtype);
        std::string in = pad + "    ";
        const std::string type = dtypeCType(red->dtype);
        std::string out = fmt::format("{}{{\n{}{} {}[{}];\n", pad, in, type, acc, kColumnTile);
        std::string c = fmt::format("c{}", k_.pointwiseSizes.size() - 1);
        // Chunked: `acc` sums each chunk of rows, `total` the chunks.
        const bool chunks = chunked(kind, type);
        const std::string total = prefix_ + "total", count = prefix_ + "chunk_count";
        if (chunks)
            out += fmt::format("{}{} {}[{}];\n{}for (int64_t t = 0; t < {}_count; ++t) {}[t] = {};\n{}int64_t {} = 0;\n", in, type, total,
                               kColumnTile, in, c, total, init, in, count);
        if (arg) {
            out += fmt::format("{}{} {}[{}];\n", in, dtypeCType(red->srcDtype), best, kColumnTile);
            out += fmt::format("{}for (int64_t t = 0; t < {}_count; ++t) {{ {}[t] = {}; {}[t] = 0; }}\n", in, c, best, init, acc);
        } else {
            out += fmt::format("{}for (int64_t t = 0; t < {}_count; ++t) {}[t] = {};\n", in, c, acc, init);
        }
        out += reductionLoops(body, in, rdims, false, [&](const std::string& inner) {
            return tileLoop(inner, true, [&](const std::string& each) {
                std::string value;
                std::string s = loopStatements(body, prefix_, each, &value, nullptr, nullptr, hoist_);
                s += keepLine(m, each, value);
                if (!arg) return s + fmt::format("{}{}[t] = {};\n", each, acc, reductionCombine(kind, acc + "[t]", value));
                return s + each + argStep(kind, best, acc, "t", value, body.vars[rdims[0]]) + "\n";
            }) + (chunks ? chunkStep(inner, acc, total, count, c + "_count", init) : "");
        });
        std::string index = body.indices[body.ops[store.args[0]].index].cstr();
        out += tileLoop(in, false, [&](const std::string& each) {
            if (chunks) return fmt::format("{}{}[{}] = {}[t] + {}[t];\n", each, store.buffer, index, total, acc);
            return fmt::format("{}{}[{}] = {}[t];\n", each, store.buffer, index, acc);
        });
        return out + pad + "}\n";
    }

    // A reduction too short to be worth splitting across threads.
    static bool isSmall(const IndexExpr& range) {
        auto n = range.constant();
        return n && *n < kParallelWork;
    }

    const KernelGroup& k_;
    const LoweredGraph& g_;
    std::vector<LoopBody> bodies_;    // the members' bodies, a kept value's reader reading it
    std::set<std::string> mayAlias_;  // outputs stored into their input's memory, and those inputs
    bool acrossRows_ = false;         // readsAcrossRows: loops over tiles of outputs
    std::map<size_t, std::pair<std::string, IndexExpr>> kept_;  // member -> where it keeps its value
    std::vector<RowPrefetch> prefetches_;  // what the second member prefetches (rowPrefetches)
    std::string parallelIf_;
    std::string prefix_;
    size_t member_ = 0;  // the member being written
    Hoisting* hoist_ = nullptr;  // the member's hoisted statements
};

}  // namespace

KernelCode cppKernel(const KernelGroup& kernel, const std::string& name, const LoweredGraph& graph,
                     const std::map<std::string, int>& storedIntoInputs) {
    return KernelWriter(kernel, graph, storedIntoInputs).write(name);
}

}  // namespace fusescope

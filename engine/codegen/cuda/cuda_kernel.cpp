// One CUDA kernel per kernel group (the shapes are described in cuda_codegen.h). The
// statements of each member come from the shared loop-body writer; this file lays out the
// threads around them.

#include <algorithm>
#include <functional>
#include <optional>
#include <set>

#include <fmt/format.h>

#include "codegen/common/loop_statements.h"
#include "codegen/cuda/cuda_codegen.h"

namespace fusescope {

namespace {

// A strided loop, `for (var = start; var < end; var += stride)`, in two parts: groups of
// kUnroll iterations with no bound check inside a group, so that each thread has kUnroll
// independent loads in flight (one load at a time leaves a long row latency-bound), then
// the remaining iterations one by one. The body goes in twice: after `head` (at
// `unrolledPad`) and after `middle` (at `remainderPad`); `var` is a constant in both.
struct StridedLoop {
    std::string head, middle, tail;
    std::string unrolledPad, remainderPad;
    std::string around(const std::function<std::string(const std::string& pad)>& body) const {
        return head + body(unrolledPad) + middle + body(remainderPad) + tail;
    }
};
constexpr int kUnroll = 4;

StridedLoop stridedLoop(const std::string& var, const std::string& start, const std::string& end, const std::string& stride,
                        const std::string& pad) {
    StridedLoop loop;
    std::string in = pad + "    ";
    loop.head = fmt::format("{}{{\n{}int64_t {}_base = {};\n{}const int64_t {}_stride = {};\n", pad, in, var, start, in, var, stride);
    loop.head += fmt::format("{}for (; {}_base + {} * {}_stride < {}; {}_base += {} * {}_stride) {{\n", in, var, kUnroll - 1, var, end,
                             var, kUnroll, var);
    loop.head += fmt::format("{}    #pragma unroll\n{}    for (int u = 0; u < {}; ++u) {{\n", in, in, kUnroll);
    loop.head += fmt::format("{}        const int64_t {} = {}_base + u * {}_stride;\n", in, var, var, var);
    loop.unrolledPad = in + "        ";
    loop.middle = fmt::format("{}    }}\n{}}}\n{}for (; {}_base < {}; {}_base += {}_stride) {{\n{}    const int64_t {} = {}_base;\n", in, in,
                              in, var, end, var, var, in, var, var);
    loop.remainderPad = in + "    ";
    loop.tail = fmt::format("{}}}\n{}}}\n", in, pad);
    return loop;
}

// Block-reduction step functors of the prelude, by reduction type: fs_sum(), fs_max(), ...
std::string reductionFunctor(ReductionKind type) { return fmt::format("fs_{}()", reductionName(type)); }

// `int64_t <var> = ...;` lines that split a flat index over `sizes` (row-major) into the
// loop variables `vars`.
std::string splitIndex(const std::string& flat, const std::vector<IndexExpr>& sizes, const std::vector<std::string>& vars,
                       const std::string& pad) {
    if (vars.empty()) return "";  // a single element: nothing to split
    if (vars.size() == 1) return fmt::format("{}int64_t {} = {};\n", pad, vars[0], flat);
    std::string rest = flat + "_rest";
    std::string out = fmt::format("{}int64_t {} = {};\n", pad, rest, flat);
    for (size_t d = vars.size(); d-- > 1;)
        out += fmt::format("{}int64_t {} = {} % ({}); {} /= ({});\n", pad, vars[d], rest, sizes[d].cstr(), rest, sizes[d].cstr());
    out += fmt::format("{}int64_t {} = {};\n", pad, vars[0], rest);
    return out;
}

class CudaKernelWriter {
public:
    CudaKernelWriter(const KernelGroup& k, const LoweredGraph& g) : k_(k), g_(g) {}

    KernelCode write(const std::string& name, bool plantFault) {
        // A persistent row's block size is fixed: the compiler keeps registers within it.
        std::string declaration = threads_ ? fmt::format("extern \"C\" __global__ void __launch_bounds__({})", threads_)
                                           : "extern \"C\" __global__ void";
        KernelCode out = startKernel(k_, g_, declaration, name, "__restrict__");
        if (plantFault) out.add("    if (threadIdx.x == 0) *(volatile int*)8 = 1;  // test hook fault-in-gpu-kernel\n", KernelCode::kAllMembers);
        std::string rows = product(k_.pointwiseSizes).cstr();
        std::vector<std::string> outerVars = vars(0, k_.pointwiseSizes.size());
        if (k_.reductionSizes.empty()) {
            std::string start = "blockIdx.x * (int64_t)blockDim.x + threadIdx.x";
            if (vectorWidth_) {
                writeVectorLoop(out, rows);
                start = fmt::format("fs_vectors * {} + {}", vectorWidth_, start);  // the elements after the vectors
            }
            StridedLoop loop = stridedLoop("xindex", start, rows, "(int64_t)gridDim.x * blockDim.x", "    ");
            for (const auto& [text, pad] : {std::pair{loop.head, loop.unrolledPad}, std::pair{loop.middle, loop.remainderPad}}) {
                out.add(text, KernelCode::kAllMembers);
                out.add(splitIndex("xindex", k_.pointwiseSizes, outerVars, pad), KernelCode::kAllMembers);
                for (int m = 0; m < static_cast<int>(k_.nodes.size()); ++m) out.add(loopStatements(k_.bodies[m], memberPrefix(m), pad, nullptr), m);
            }
            out.add(loop.tail, KernelCode::kAllMembers);
        } else if (int split = cudaSplitMembers(k_)) {
            out.add("    {  // one row, split across the grid\n        const int64_t xindex = 0;\n", KernelCode::kAllMembers);
            out.add(splitIndex("xindex", k_.pointwiseSizes, outerVars, "        "), KernelCode::kAllMembers);
            for (int m = 0; m < split; ++m) out.add(splitPartial(m, "        "), m);
            out.add("        if (!fs_last_block(&fs_done)) return;\n", KernelCode::kAllMembers);
            for (int m = 0; m < split; ++m) out.add(splitCombine(m, "        "), m);
            for (int m = split; m < static_cast<int>(k_.nodes.size()); ++m) out.add(member(m, "        "), m);
            out.add("    }\n", KernelCode::kAllMembers);
        } else {
            out.add(fmt::format("    for (int64_t xindex = blockIdx.x; xindex < {}; xindex += gridDim.x) {{\n", rows),
                    KernelCode::kAllMembers);
            out.add(splitIndex("xindex", k_.pointwiseSizes, outerVars, "        "), KernelCode::kAllMembers);
            std::vector<std::string> members;  // written first: they name the registers the row is kept in
            for (int m = 0; m < static_cast<int>(k_.nodes.size()); ++m) members.push_back(member(m, "        "));
            for (const auto& r : rowRegisters_)
                out.add(fmt::format("        {} {}[{}];  // this thread's elements of {}\n", r.type, r.name, perThread_, r.load),
                        KernelCode::kAllMembers);
            for (int m = 0; m < static_cast<int>(members.size()); ++m) out.add(members[m], m);
            out.add("    }\n", KernelCode::kAllMembers);
        }
        out.add("}\n", KernelCode::kAllMembers);
        return out;
    }

private:
    // The loop variables of dims [first, last): the bodies name them c0, c1, ...
    std::vector<std::string> vars(size_t first, size_t last) const {
        std::vector<std::string> names;
        for (size_t d = first; d < last; ++d) names.push_back(fmt::format("c{}", d));
        return names;
    }

    // A pointwise kernel moves the elements it reads and writes at their own place (the
    // flat row-major index) vectorWidth_ at a time, 16 bytes per access: one thread's
    // vector load, the members over each of its elements in registers, one vector store.
    // Loads elsewhere (broadcast operands, strided views) stay per element. The vectors
    // cover the tensor when every such buffer is aligned to its vector; the strided loop
    // after them takes the rest.
    struct VectorRegister {
        std::string buffer, name, type;
        bool loaded = false, stored = false;
    };
    void writeVectorLoop(KernelCode& out, const std::string& rows) const {
        int w = vectorWidth_;
        std::vector<std::string> members[2];  // written first: they name the vectors
        StridedLoop loop = stridedLoop("xvec", "blockIdx.x * (int64_t)blockDim.x + threadIdx.x", "fs_vectors",
                                       "(int64_t)gridDim.x * blockDim.x", "    ");
        const std::string* pads[2] = {&loop.unrolledPad, &loop.remainderPad};
        const IndexExpr flat = flatIndex();
        LoadSpelling load = [&](const std::string& buffer, const IndexExpr& index, const std::string& plain) {
            if (index != flat) return plain;
            VectorRegister& r = vectorRegister(buffer);
            if (!r.stored) r.loaded = true;
            return r.name + ".v[v]";
        };
        StoreSpelling store = [&](const std::string& buffer, const IndexExpr&, const std::string&) {
            vectorRegister(buffer).stored = true;
            return vectorRegister(buffer).name + ".v[v]";
        };
        for (int part = 0; part < 2; ++part)
            for (int m = 0; m < static_cast<int>(k_.nodes.size()); ++m)
                members[part].push_back(loopStatements(k_.bodies[m], memberPrefix(m), *pads[part] + "    ", nullptr, &load, &store));
        std::string aligned;
        for (const auto& r : vectorRegisters_)
            aligned += fmt::format("{}(reinterpret_cast<unsigned long>({}) % sizeof(fs_vec<{}, {}>) == 0)", aligned.empty() ? "" : " && ",
                                   r.buffer, r.type, w);
        out.add(fmt::format("    const int64_t fs_vectors = {} ? ({}) / {} : 0;  // vectors of {} elements\n", aligned, rows, w, w),
                KernelCode::kAllMembers);
        for (int part = 0; part < 2; ++part) {
            const std::string& pad = *pads[part];
            std::string head = part == 0 ? loop.head : loop.middle;
            for (const auto& r : vectorRegisters_)
                head += r.loaded ? fmt::format("{}fs_vec<{}, {}> {} = reinterpret_cast<const fs_vec<{}, {}>*>({})[xvec];\n", pad, r.type, w,
                                               r.name, r.type, w, r.buffer)
                                 : fmt::format("{}fs_vec<{}, {}> {};\n", pad, r.type, w, r.name);
            head += fmt::format("{}#pragma unroll\n{}for (int v = 0; v < {}; ++v) {{\n", pad, pad, w);
            head += fmt::format("{}    const int64_t xindex = xvec * {} + v;\n", pad, w);
            out.add(head + splitIndex("xindex", k_.pointwiseSizes, vars(0, k_.pointwiseSizes.size()), pad + "    "),
                    KernelCode::kAllMembers);
            for (int m = 0; m < static_cast<int>(members[part].size()); ++m) out.add(members[part][m], m);
            std::string stores = pad + "}\n";
            for (const auto& r : vectorRegisters_)
                if (r.stored) stores += fmt::format("{}reinterpret_cast<fs_vec<{}, {}>*>({})[xvec] = {};\n", pad, r.type, w, r.buffer, r.name);
            out.add(stores, KernelCode::kAllMembers);
        }
        out.add(loop.tail, KernelCode::kAllMembers);
    }
    VectorRegister& vectorRegister(const std::string& buffer) const {
        for (auto& r : vectorRegisters_)
            if (r.buffer == buffer) return r;
        vectorRegisters_.push_back({buffer, fmt::format("fs_vec{}", vectorRegisters_.size()), dtypeCType(g_.layoutOf(buffer).dtype)});
        return vectorRegisters_.back();
    }

    // The flat row-major index of the pointwise dims, in the loop variables.
    IndexExpr flatIndex() const {
        std::vector<IndexExpr> strides = contiguousStrides(k_.pointwiseSizes);
        IndexExpr flat;
        for (size_t d = 0; d < strides.size(); ++d) flat = flat + IndexExpr::symbol(fmt::format("c{}", d)) * strides[d];
        return flat;
    }

    // How many elements a vector of the pointwise kernel holds: 16 bytes of its widest
    // buffer accessed at the flat index; 0 when it does not vectorize (a reduction, a store
    // elsewhere, a kernel's result read elsewhere, or vectors of one element).
    int pointwiseVectorWidth() const {
        if (!k_.reductionSizes.empty()) return 0;
        IndexExpr flat = flatIndex();
        size_t widest = 0;
        for (const auto& body : k_.bodies)
            for (const auto& op : body.ops) {
                if (op.buffer.empty()) continue;
                const LoopOp& index = body.ops[op.args[0]];
                bool atFlat = index.kind == LoopOpKind::GetIndex && body.indices[index.index] == flat;
                bool stored = isStoreOp(op.kind);
                if ((stored || written_.count(op.buffer)) && (!atFlat || op.kind == LoopOpKind::MaskedLoad)) return 0;
                if (atFlat && op.kind != LoopOpKind::MaskedLoad) widest = std::max(widest, dtypeSize(g_.layoutOf(op.buffer).dtype));
            }
        return widest && widest <= 8 ? static_cast<int>(16 / widest) : 0;
    }

    // The block's threads over the row's reduced elements; `body` runs with its variables set.
    // A persistent row: each thread takes the same perThread_ elements in every member
    // (a loop the compiler unrolls), so what a member loads is kept in registers for the next.
    std::string rowLoop(const std::string& pad, const std::function<std::string(const std::string& pad)>& body) const {
        size_t p = k_.pointwiseSizes.size();
        auto withVars = [&](const std::string& in) {
            return splitIndex("rindex", k_.reductionSizes, vars(p, p + k_.reductionSizes.size()), in) + body(in);
        };
        std::string row = product(k_.reductionSizes).cstr();
        if (!threads_) return stridedLoop("rindex", "threadIdx.x", row, "blockDim.x", pad).around(withVars);
        std::string in = pad + "    ";
        std::string out = fmt::format("{}#pragma unroll\n{}for (int u = 0; u < {}; ++u) {{\n", pad, pad, perThread_);
        if (rowRun_)
            out += fmt::format("{}const int64_t rindex = (threadIdx.x + u / {} * {}L) * {} + u % {};\n", in, rowRun_, threads_, rowRun_,
                               rowRun_);
        else
            out += fmt::format("{}const int64_t rindex = threadIdx.x + u * {}L;\n", in, threads_);
        return out + withinRow(in, withVars) + pad + "}\n";
    }

    // `body` at `pad`, under a bound check when the threads' elements overrun the row.
    std::string withinRow(const std::string& pad, const std::function<std::string(const std::string& pad)>& body) const {
        int64_t row = *product(k_.reductionSizes).constant();
        if (row % (threads_ * perThread_) == 0) return body(pad);
        return fmt::format("{}if (rindex < {}) {{\n", pad, row) + body(pad + "    ") + pad + "}\n";
    }

    // Runs within a persistent row: when the row is one dim whose length and the thread's
    // share divide by kRowRun, each thread takes runs of kRowRun contiguous elements (its
    // element u is the row's (threadIdx.x + u / kRowRun * threads) * kRowRun + u % kRowRun),
    // so that a buffer accessed contiguously along the row moves a run per vector access
    // (fs_load_run / fs_store_run: 16 bytes of floats), as Triton's kernels do.
    static constexpr int kRowRun = 4;
    int persistentRowRun() const {
        if (!threads_ || k_.reductionSizes.size() != 1) return 0;
        return *product(k_.reductionSizes).constant() % kRowRun == 0 && perThread_ % kRowRun == 0 ? kRowRun : 0;
    }
    // Whether an access at `index` is contiguous along a row of one dim.
    bool contiguousAlongRow(const IndexExpr& index) const {
        if (k_.reductionSizes.size() != 1) return false;
        std::optional<IndexExpr> step = index.linearCoefficient(fmt::format("c{}", k_.pointwiseSizes.size()));
        return step && step->constant() == 1;
    }
    // Whether an access at `index` of a persistent row moves whole runs.
    bool movesRuns(const IndexExpr& index) const { return rowRun_ && contiguousAlongRow(index); }
    // A loop over the thread's runs, `body` with the row's variable at each run's first element.
    std::string runLoop(const std::string& pad, const std::function<std::string(const std::string& pad)>& body) const {
        std::string in = pad + "    ";
        std::string out = fmt::format("{}#pragma unroll\n{}for (int u = 0; u < {}; u += {}) {{\n", pad, pad, perThread_, rowRun_);
        out += fmt::format("{}const int64_t rindex = (threadIdx.x + u / {} * {}L) * {};\n", in, rowRun_, threads_, rowRun_);
        size_t p = k_.pointwiseSizes.size();
        return out + withinRow(in, [&](const std::string& at) { return splitIndex("rindex", k_.reductionSizes, vars(p, p + 1), at) + body(at); }) +
               pad + "}\n";
    }

    // How members load. A row's result an earlier member computed (a reduction, or a value
    // of the row) is read from that member's variable, which every thread holds: reading it
    // back from memory after the barrier is not safe, as the compiler may move a load
    // through a __restrict__ pointer above __syncthreads(). In a persistent row
    // (`inRegisters`), the first member to load an input element keeps it in a register
    // array (rowRegisters_), and the later ones read the register.
    struct RowRegister {
        std::string name, type, load;
        std::string runLoad;  // moved in runs: `buffer[index]` of a run's first element, loaded before the member
        int member = -1;      // the member that loads it first
    };
    struct RowResult {
        std::string buffer, index, variable;
    };
    LoadSpelling rowLoads(bool inRegisters) const {
        return [this, inRegisters](const std::string& buffer, const IndexExpr& index, const std::string& plain) {
            if (written_.count(buffer)) {  // computed in this kernel
                for (const auto& r : rowResults_)
                    if (r.buffer == buffer && r.index == index.str()) return r.variable;
                return plain;
            }
            if (!inRegisters) return plain;
            std::string load = buffer + "[" + index.str() + "]";
            for (const auto& r : rowRegisters_)
                if (r.load == load) return r.name + "[u]";
            std::string runLoad = movesRuns(index) ? buffer + "[" + index.cstr() + "]" : "";
            rowRegisters_.push_back({fmt::format("fs_row{}", rowRegisters_.size()), dtypeCType(g_.layoutOf(buffer).dtype), load,
                                     runLoad, currentMember_});
            const RowRegister& r = rowRegisters_.back();
            return runLoad.empty() ? "(" + r.name + "[u] = " + plain + ")" : r.name + "[u]";
        };
    }
    // The run loads of the registers member m loads first, before its loop over the row.
    std::string runLoads(int m, const std::string& pad) const {
        std::string out;
        for (const auto& r : rowRegisters_)
            if (r.member == m && !r.runLoad.empty())
                out += runLoop(pad, [&](const std::string& at) {
                    return fmt::format("{}fs_load_run<{}>({} + u, &{});\n", at, rowRun_, r.name, r.runLoad);
                });
        return out;
    }

    // Stores of a pointwise member over a persistent row that move in runs: the loop over the
    // row puts each value in a register array, and runs of it are stored after the loop.
    struct RunStore {
        std::string name, type, store;
    };
    StoreSpelling runStores(std::vector<RunStore>& stores) const {
        return [this, &stores](const std::string& buffer, const IndexExpr& index, const std::string& plain) {
            if (!movesRuns(index)) return plain;
            stores.push_back({fmt::format("fs_out{}_{}", currentMember_, stores.size()), dtypeCType(g_.layoutOf(buffer).dtype),
                              buffer + "[" + index.cstr() + "]"});
            return stores.back().name + "[u]";
        };
    }

    // A split member's first part (cudaSplitMembers): every block strides over its share of
    // the row and stores its partial value.
    std::string splitPartial(int m, const std::string& pad) const {
        const LoopBody& body = k_.bodies[m];
        const LoopOp& red = reductionOpOf(body);
        std::string prefix = memberPrefix(m), in = pad + "    ";
        std::string type = dtypeCType(red.dtype), init = reductionInit(red.reductionKind, red.srcDtype);
        std::string out = fmt::format("{}static __device__ {} {}partials[{}];\n{}{{\n", pad, type, prefix, kCudaSplitBlocks, pad);
        out += fmt::format("{}{} {}acc = {};\n", in, type, prefix, init);
        size_t p = k_.pointwiseSizes.size();
        // The row's element at `rindex` folded into the partial value, its loads spelled by `spell`.
        auto element = [&](const std::string& at, const LoadSpelling* spell) {
            std::string value;
            std::string statements = loopStatements(body, prefix, at, &value, spell);
            return splitIndex("rindex", k_.reductionSizes, vars(p, p + k_.reductionSizes.size()), at) + statements +
                   fmt::format("{}{}acc = {};\n", at, prefix, reductionCombine(red.reductionKind, prefix + "acc", value));
        };
        const std::string first = "blockIdx.x * (int64_t)blockDim.x + threadIdx.x", stride = "(int64_t)gridDim.x * blockDim.x";
        std::string row = product(k_.reductionSizes).cstr();
        if (splitMovesRuns(body)) {
            // Runs of kRowRun contiguous elements: a vector load per run of each buffer read
            // along the row, then the run's elements from registers; a scalar tail.
            std::string runs = fmt::format("{} / {}", row, kRowRun);
            out += stridedLoop("rrun", first, runs, stride, in).around([&](const std::string& at) {
                std::vector<std::pair<std::string, std::string>> registers;  // name, `buffer[index]` of the run's first element
                LoadSpelling fromRun = [&](const std::string& buffer, const IndexExpr& index, const std::string& plain) {
                    if (!contiguousAlongRow(index)) return plain;
                    std::string load = buffer + "[" + index.cstr() + "]";
                    auto same = std::find_if(registers.begin(), registers.end(), [&](const auto& r) { return r.second == load; });
                    if (same == registers.end()) same = registers.insert(registers.end(), {fmt::format("fs_run{}", registers.size()), load});
                    return same->first + "[v]";
                };
                std::string inner = at + "    ";
                std::string elements = fmt::format("{}#pragma unroll\n{}for (int v = 0; v < {}; ++v) {{\n", at, at, kRowRun) +
                                       fmt::format("{}const int64_t rindex = rrun * {} + v;\n", inner, kRowRun) + element(inner, &fromRun) +
                                       at + "}\n";
                std::string loads = fmt::format("{}{{\n{}const int64_t rindex = rrun * {};\n", at, inner, kRowRun) +
                                    splitIndex("rindex", k_.reductionSizes, vars(p, p + 1), inner);
                std::string declarations;
                for (const auto& [name, load] : registers) {
                    declarations += fmt::format("{}{} {}[{}];\n", at, dtypeCType(g_.layoutOf(load.substr(0, load.find('['))).dtype), name, kRowRun);
                    loads += fmt::format("{}fs_load_run<{}>({}, &{});\n", inner, kRowRun, name, load);
                }
                return declarations + loads + at + "}\n" + elements;
            });
            std::optional<int64_t> constantRow = product(k_.reductionSizes).constant();
            if (!constantRow || *constantRow % kRowRun)
                out += fmt::format("{}for (int64_t rindex = ({}) * {} + {}; rindex < {}; rindex += {}) {{\n", in, runs, kRowRun, first, row,
                                   stride) +
                       element(in + "    ", nullptr) + in + "}\n";
        } else {
            out += stridedLoop("rindex", first, row, stride, in).around([&](const std::string& at) { return element(at, nullptr); });
        }
        out += fmt::format("{}{}acc = fs_block_reduce<{}>({}acc, {}, {});\n", in, prefix, type, prefix, init,
                           reductionFunctor(red.reductionKind));
        return out + fmt::format("{}if (threadIdx.x == 0) {}partials[blockIdx.x] = {}acc;\n{}}}\n", in, prefix, prefix, pad);
    }

    // Whether a split member reads a buffer contiguously along its row of one dim.
    bool splitMovesRuns(const LoopBody& body) const {
        for (const auto& op : body.ops)
            if (op.kind == LoopOpKind::Load && body.ops[op.args[0]].kind == LoopOpKind::GetIndex &&
                contiguousAlongRow(body.indices[body.ops[op.args[0]].index]))
                return true;
        return false;
    }

    // Its second part, in the last block: the blocks' partial values combined and stored.
    std::string splitCombine(int m, const std::string& pad) const {
        const LoopBody& body = k_.bodies[m];
        const LoopOp& red = reductionOpOf(body);
        const LoopOp& store = storeOpOf(body);
        std::string prefix = memberPrefix(m), in = pad + "    ";
        std::string type = dtypeCType(red.dtype), init = reductionInit(red.reductionKind, red.srcDtype);
        std::string functor = reductionFunctor(red.reductionKind);
        std::string out = fmt::format("{}{} {}acc = {};\n{}{{\n", pad, type, prefix, init, pad);  // read by the later members
        out += fmt::format("{}for (unsigned i = threadIdx.x; i < gridDim.x; i += blockDim.x) {}acc = {}({}acc, {}partials[i]);\n", in,
                           prefix, functor, prefix, prefix);
        out += fmt::format("{}{}acc = fs_block_reduce<{}>({}acc, {}, {});\n", in, prefix, type, prefix, init, functor);
        addRowResult(body, prefix + "acc");
        return out + fmt::format("{}if (threadIdx.x == 0) {}[{}] = {}acc;\n{}__syncthreads();\n{}}}\n", in, store.buffer,
                                 body.indices[body.ops[store.args[0]].index].cstr(), prefix, in, pad);
    }

    // The barrier after member m, where a later member reads from memory what m stored
    // (another thread's elements); none where each later member reads m's row result from
    // the variable every thread holds, or nothing of m's. The block reductions wait before
    // they reuse their shared memory, so a barrier is not needed for that.
    std::string barrierAfter(int m, const std::string& pad) const {
        const LoopBody& body = k_.bodies[m];
        const LoopOp& store = storeOpOf(body);
        std::string at = body.indices[body.ops[store.args[0]].index].str();
        bool rowResult = k_.nodes[m]->isReduction() || body.vars.size() == k_.pointwiseSizes.size();
        for (size_t later = m + 1; later < k_.bodies.size(); ++later) {
            const LoopBody& reader = k_.bodies[later];
            for (const LoopOp& op : reader.ops) {
                if (!isLoadOp(op.kind) || op.buffer != store.buffer) continue;
                const LoopOp& index = reader.ops[op.args[0]];
                if (!rowResult || index.kind != LoopOpKind::GetIndex || reader.indices[index.index].str() != at)
                    return pad + "__syncthreads();\n";
            }
        }
        return "";
    }

    // Remembers that member m's store to the row's result is held in `variable` by every thread.
    void addRowResult(const LoopBody& body, const std::string& variable) const {
        const LoopOp& store = storeOpOf(body);
        rowResults_.push_back({store.buffer, body.indices[body.ops[store.args[0]].index].str(), variable});
    }

    std::string member(int m, const std::string& pad) const {
        const LoopBody& body = k_.bodies[m];
        std::string prefix = memberPrefix(m);
        // Over the row only (it reads the row's results): every thread computes the same
        // value and keeps it for the later members; they all store it, to the same place.
        if (body.vars.size() == k_.pointwiseSizes.size()) {
            LoadSpelling results = rowLoads(false);
            std::string out = loopStatements(body, prefix, pad, nullptr, &results) + barrierAfter(m, pad);
            addRowResult(body, prefix + body.ops[storeOpOf(body).args[1]].name);
            return out;
        }
        currentMember_ = m;
        LoadSpelling loads = rowLoads(threads_ > 0);
        const LoadSpelling* spellLoad = &loads;
        if (!k_.nodes[m]->isReduction()) {
            std::vector<RunStore> stores;
            StoreSpelling storeRuns = runStores(stores);
            std::string loop = rowLoop(pad, [&](const std::string& in) { return loopStatements(body, prefix, in, nullptr, spellLoad, &storeRuns); });
            std::string out = runLoads(m, pad);
            for (const auto& r : stores) out += fmt::format("{}{} {}[{}];\n", pad, r.type, r.name, perThread_);
            out += loop;
            for (const auto& r : stores)
                out += runLoop(pad, [&](const std::string& at) { return fmt::format("{}fs_store_run<{}>(&{}, {} + u);\n", at, rowRun_, r.store, r.name); });
            return out + barrierAfter(m, pad);
        }
        const LoopOp& red = reductionOpOf(body);
        const LoopOp& store = storeOpOf(body);
        std::string storeIndex = body.indices[body.ops[store.args[0]].index].cstr();
        std::string in = pad + "    ";
        // The row's statements at `at`, and the value they reduce.
        auto statements = [&](const std::string& at, std::string& value) { return loopStatements(body, prefix, at, &value, spellLoad); };
        std::string srcType = dtypeCType(red.srcDtype);
        std::string init = reductionInit(red.reductionKind, red.srcDtype);
        // The row's total is declared outside the member's braces, for the later members.
        std::string out;
        if (isArgReduction(red.reductionKind)) {
            bool isMax = red.reductionKind == ReductionKind::ArgMax;
            out += fmt::format("{}int64_t {}acc;\n{}{{\n", pad, prefix, pad);
            out += fmt::format("{}{} {}best = {};\n{}int64_t {}best_index = 0;\n", in, srcType, prefix, init, in, prefix);
            out += rowLoop(in, [&](const std::string& at) {
                std::string value, text = statements(at, value);
                return text + fmt::format("{}if (fs_arg_better({}, rindex, {}best, {}best_index, {})) {}best = {}, {}best_index = rindex;\n",
                                          at, value, prefix, prefix, isMax, prefix, value, prefix);
            });
            out += fmt::format("{}{}acc = fs_block_arg_reduce({}best, {}best_index, {});\n", in, prefix, prefix, prefix, isMax);
        } else {
            std::string type = dtypeCType(red.dtype);
            out += fmt::format("{}{} {}acc = {};\n{}{{\n", pad, type, prefix, init, pad);
            out += rowLoop(in, [&](const std::string& at) {
                std::string value, text = statements(at, value);
                return text + fmt::format("{}{}acc = {};\n", at, prefix, reductionCombine(red.reductionKind, prefix + "acc", value));
            });
            out += fmt::format("{}{}acc = fs_block_reduce<{}>({}acc, {}, {});\n", in, prefix, type, prefix, init,
                               reductionFunctor(red.reductionKind));
        }
        out += fmt::format("{}if (threadIdx.x == 0) {}[{}] = {}acc;\n{}{}}}\n", in, store.buffer, storeIndex, prefix,
                           barrierAfter(m, in), pad);
        addRowResult(body, prefix + "acc");
        return runLoads(m, pad) + out;
    }

    const KernelGroup& k_;
    const LoweredGraph& g_;
    const int threads_ = cudaPersistentThreads(k_);  // 0 unless the row is persistent
    const int64_t perThread_ = threads_ ? (*product(k_.reductionSizes).constant() + threads_ - 1) / threads_ : 0;
    const int rowRun_ = persistentRowRun();  // 0 unless the row moves in runs
    mutable int currentMember_ = -1;         // the member being written
    mutable std::vector<RowRegister> rowRegisters_;
    mutable std::vector<RowResult> rowResults_;
    mutable std::vector<VectorRegister> vectorRegisters_;
    const std::set<std::string> written_ = kernelBuffers(k_).written;  // once, not per load
    const int vectorWidth_ = pointwiseVectorWidth();
};

}  // namespace

KernelCode cudaKernel(const KernelGroup& kernel, const std::string& name, const LoweredGraph& graph, bool plantFault) {
    return CudaKernelWriter(kernel, graph).write(name, plantFault);
}

int cudaSplitMembers(const KernelGroup& kernel) {
    if (kernel.reductionSizes.empty() || product(kernel.pointwiseSizes).constant() != 1) return 0;
    std::set<std::string> written;  // what the members so far store: a split member cannot read it
    int split = 0;
    for (size_t m = 0; m < kernel.nodes.size(); ++m, ++split) {
        const LoopBody& body = kernel.bodies[m];
        if (!kernel.nodes[m]->isReduction() || body.vars.size() <= kernel.pointwiseSizes.size() ||
            isArgReduction(reductionOpOf(body).reductionKind))
            break;
        bool readsKernelResult = false;
        for (const auto& op : body.ops)
            if ((op.kind == LoopOpKind::Load || op.kind == LoopOpKind::MaskedLoad) && written.count(op.buffer)) readsKernelResult = true;
        if (readsKernelResult) break;
        written.insert(storeOpOf(body).buffer);
    }
    return split;
}

int cudaPersistentThreads(const KernelGroup& kernel) {
    if (kernel.reductionSizes.empty() || cudaSplitMembers(kernel)) return 0;
    std::optional<int64_t> row = product(kernel.reductionSizes).constant();
    if (!row || *row < 1 || *row > kCudaPersistentRow) return 0;
    int threads = 32;
    while (threads < kCudaPersistentMaxThreads && threads * kCudaPersistentPerThread < *row) threads *= 2;
    return threads;
}

int64_t cudaSplitBlocks(int64_t rowElements) {
    constexpr int64_t perThread = 8;  // enough work per thread to hide the final combine
    int64_t blocks = (rowElements + kCudaReductionThreads * perThread - 1) / (kCudaReductionThreads * perThread);
    return std::clamp<int64_t>(blocks, 1, kCudaSplitBlocks);
}

int cudaReductionThreads(int64_t rowElements) {
    int threads = 32;
    while (threads < kCudaReductionThreads && threads < rowElements) threads *= 2;
    return threads;
}

}  // namespace fusescope

#pragma once
// Whether two ops of two loop bodies compute the same value (kept values, exp summands).

#include <map>
#include <utility>

#include "lower/loop_body.h"

namespace fusescope {

// Whether op i of `a` and op j of `b` compute the same value: the same ops over the same
// loads, indices and constants. Both bodies are over the kernel's variables.
class SameValue {
public:
    SameValue(const LoopBody& a, const LoopBody& b) : a_(a), b_(b) {}

    bool operator()(int i, int j) {
        auto [at, fresh] = memo_.try_emplace({i, j}, false);
        if (!fresh) return at->second;
        const LoopOp& x = a_.ops[static_cast<size_t>(i)];
        const LoopOp& y = b_.ops[static_cast<size_t>(j)];
        bool same = x.kind == y.kind && x.dtype == y.dtype && x.buffer == y.buffer && x.args.size() == y.args.size() &&
                    x.kind != LoopOpKind::Reduction && !isStoreOp(x.kind);
        if (same && x.kind == LoopOpKind::Constant) same = x.value == y.value;
        if (same && x.kind == LoopOpKind::GetIndex)  // index_expr reads its get_index, an argument
            same = a_.indices[static_cast<size_t>(x.index)] == b_.indices[static_cast<size_t>(y.index)];
        for (size_t k = 0; same && k < x.args.size(); ++k) same = (*this)(x.args[k], y.args[k]);
        return memo_[{i, j}] = same;
    }

private:
    const LoopBody& a_;
    const LoopBody& b_;
    std::map<std::pair<int, int>, bool> memo_;
};

}  // namespace fusescope

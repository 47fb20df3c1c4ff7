#pragma once
// How an op's definition decomposes it (OpDef::decomposition): a rewrite of one composite
// node into core ops, emitted through a Rewrite, plus the helpers decompositions share.
// The decompose pass (decompose.h) applies them.

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "core/test_hooks.h"
#include "decompose/graph_builder.h"
#include "graph/graph.h"
#include "ops/op_registry.h"

namespace fusescope {

// Gives `to` the source position, text, stack and name of `from`, the node it replaces.
void copyProvenance(const Node& from, Node& to);

// One composite node being rewritten: its arguments bound to its schema, and the emitter
// of the core ops replacing it, each of which carries the composite's provenance.
class Rewrite {
public:
    Rewrite(GraphBuilder& builder, const Node& origin, const OpDef& def, BoundArgs boundArgs, const std::vector<Argument>& args,
            const ArgumentKwargs& kwargs, const TestHooks& hooks)
        : bound(std::move(boundArgs)), hooks(hooks), builder_(builder), origin_(origin), def_(def), args_(args), kwargs_(kwargs) {}

    const BoundArgs bound;  // the composite's arguments as values (meta tensors, constants)
    const TestHooks& hooks;

    // The new graph's argument for tensor parameter `name`; nullopt when it is None.
    std::optional<Argument> maybeTensor(const std::string& name) const;
    Argument tensor(const std::string& name) const { return maybeTensor(name).value(); }
    // A parameter's value, or `fallback` when this overload has no such parameter.
    IValue valueOr(const std::string& name, IValue fallback) const;

    TensorMeta meta(const Argument& a) const { return builder_.meta(a); }
    // Whether dim `d` of `m` has the same size in every call of the graph: it has no symbol
    // and, in a dynamic graph, its symbols are known (SymbolicSizes leaves them unknown
    // where an op's inference fails on symbolic sizes, as layer_norm's does).
    bool isStatic(const TensorMeta& m, size_t d) const;
    const TensorMeta& result() const { return origin_.meta[0]; }
    const std::string& opName() const { return def_.name; }

    Argument call(const std::string& target, std::vector<Argument> args, ArgumentKwargs kwargs = {});

private:
    GraphBuilder& builder_;
    const Node& origin_;
    const OpDef& def_;
    const std::vector<Argument>& args_;
    const ArgumentKwargs& kwargs_;
};

struct OpDecomposition {
    // Emits the core ops; nullopt (before emitting anything) when the op must stay.
    std::function<std::optional<Argument>(Rewrite&)> rewrite;
    bool inAot = false;  // AOT Autograd applies it too (a CompositeImplicitAutograd op)
};

// ---- helpers decompositions share ----------------------------------------------------

inline Argument constant(IValue v) { return Argument::value(std::move(v)); }

// A dim's size as the graph knows it: its symbol, its size when static, nullopt when unknown.
std::optional<std::string> sizeExpression(const Rewrite& r, const TensorMeta& m, size_t dim);
// The dims a reduction covers, listed explicitly (every dim for dim=None or []).
std::vector<int64_t> reducedDims(const IValue& dim, size_t rank);
// How many elements a reduction over `dims` sees; nullopt when that depends on a symbol
// (the count is baked into the graph as a constant).
std::optional<int64_t> staticCount(const Rewrite& r, const TensorMeta& m, const std::vector<int64_t>& dims);
// Sizes for reshape, with -1 for the one dim that is not static (its example size would
// pin the dynamic graph to one input size); nullopt when several are not.
std::optional<std::vector<int64_t>> reshapeSizes(const Rewrite& r, const TensorMeta& m);
// Low-precision floats compute in float32 and are rounded once at the end (the pass's
// matchResult), as PyTorch's kernels accumulate them; ints given a float result convert first.
Argument inComputeType(Rewrite& r, const Argument& x);
// op (sum, amax, ...) of x over dims.
Argument reduce(Rewrite& r, const char* op, const Argument& x, const std::vector<int64_t>& dims, bool keepdim);

// x - mean(x) over dims (count elements each), and the sum of its squares.
struct Centered {
    Argument centered, sumOfSquares;
};
Centered centered(Rewrite& r, const Argument& x, const std::vector<int64_t>& dims, int64_t count, bool keepdim);

}  // namespace fusescope

#pragma once
// The op registry: every op Fusescope knows, with its schema, shape/dtype inference and
// eager CPU kernel; it binds arguments to schemas and runs kernels. Calls from scripts and
// graphs reach it through the dispatcher's layers (dispatch/dispatcher.h), which add
// capture, grad mode, profiling and device placement around the kernel.

#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "ops/ivalue.h"

namespace fusescope {

using Kwargs = std::vector<std::pair<std::string, IValue>>;

// One parameter of a parsed schema: "Tensor? weight=None" -> type "Tensor", optional,
// default None. Types: Tensor, Tensor[], Scalar, int, int[], float, bool, str,
// ScalarType, Device, Any (an optional "?" allows None).
struct SchemaParam {
    std::string name;
    std::string type;
    bool optional = false;
    bool kwOnly = false;
    bool hasDefault = false;
    IValue defaultValue;
};

struct ParsedSchema {
    std::string name;  // "max.dim"
    std::vector<SchemaParam> params;
    std::string returns;  // "Tensor", "(Tensor values, Tensor indices)"
};

// Parses "add(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor"; throws Error on
// malformed schemas (a programming mistake, found at registration).
ParsedSchema parseSchema(std::string_view schema);

// The name scripts use: "max.dim" -> "max".
std::string_view baseOpName(std::string_view name);

// Arguments bound to a schema: one value per schema parameter, defaults filled in.
class BoundArgs {
public:
    const IValue& operator[](std::string_view name) const;
    const IValue& at(std::size_t index) const { return values_.at(index); }
    std::size_t size() const { return values_.size(); }
    // Convenience accessors with the op's name in their error messages.
    const Tensor& tensor(std::string_view name) const;
    double number(std::string_view name) const;
    int64_t integer(std::string_view name) const;
    bool flag(std::string_view name) const;
    std::vector<int64_t> ints(std::string_view name) const;

    std::vector<std::string> names;
    std::vector<IValue> values_;
    std::string opName;
};

// What an op's derivative gets: the call's arguments and result as they were when it ran
// (autograd saved them), and the gradient of its result. Reading an argument's or the
// result's values goes through input() and out(), which first check that no in-place op
// changed it since (eager autograd's version counters); like() is for its sizes and dtype.
struct DerivativeArgs {
    const BoundArgs& args;
    const IValue& result;
    const Tensor& grad;
    // Called with an argument's name ("" for the result) before the derivative reads it.
    const std::function<void(std::string_view)>* beforeRead = nullptr;
    // Every result's gradient (undefined where none) for an op with several (unbind); null
    // where only the first result's is known (AOT Autograd's joint graph).
    const std::vector<Tensor>* grads = nullptr;
    const Tensor& input(std::string_view name) const {
        if (beforeRead) (*beforeRead)(name);
        return args.tensor(name);
    }
    const Tensor& out() const {
        if (beforeRead) (*beforeRead)("");
        return result.toTensor();
    }
    const Tensor& like(std::string_view name) const { return args.tensor(name); }
    // Whether argument `name` is a tensor that requires grad (only those get a gradient).
    bool wants(std::string_view name) const {
        const IValue& v = args[name];
        return v.isTensor() && v.toTensor().defined() && v.toTensor().requiresGrad();
    }
};
// The gradients of the arguments that have one, by argument name ("self", "other"); a
// Tensor[] argument's, one entry per tensor in order.
using ArgumentGradients = std::vector<std::pair<std::string, Tensor>>;

struct OpLowering;       // lower/op_lowering.h
struct OpDecomposition;  // decompose/rewrite.h

// Everything about one op (engine/opdefs/ registers them all): how scripts call it, its
// shapes, its eager kernel, and how each compiler stage treats it.
struct OpDef {
    std::string name;    // "add", "softmax", "layer_norm"
    std::string schema;  // "add(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor"
    // How a script may spell a call to it.
    bool isFunction = true;     // torch.<name>(...)
    bool isMethod = true;       // tensor.<name>(...)
    bool isFunctional = false;  // torch.nn.functional.<name>(...)
    // Output metadata (meta tensors) from inputs; works on meta and real tensors alike.
    std::function<IValue(const BoundArgs&)> infer;
    // The eager CPU kernel.
    std::function<IValue(const BoundArgs&)> kernel;

    // Compiling: the core ops it rewrites into (none: it stays as it is); how it becomes
    // loop IR, or why it has no lowering (a graph holding it then runs eagerly, saying so).
    std::shared_ptr<const OpDecomposition> decomposition;
    std::shared_ptr<const OpLowering> lowering;
    std::string runsEagerlyBecause;

    // Differentiating: PyTorch's name of its backward node when it is not the op's own
    // name in CamelCase + "Backward0" ("ViewBackward0" for reshape; some depend on the call:
    // SumBackward1 for a sum over dims), and its derivative,
    // computed with ops (autograd/derivative_ops.h); none: backward through it raises
    // PyTorch's "the derivative for '...' is not implemented".
    std::function<std::string(const BoundArgs&)> gradFn;
    std::function<ArgumentGradients(const DerivativeArgs&)> derivative;
    // Whether the derivative reads tensors' values (PyTorch's saved tensors), not only their
    // sizes: only then does a second backward through a freed graph raise.
    bool derivativeReadsValues = true;
    // Tensor arguments the derivative gives no gradient by definition (a where's condition,
    // view_as's other): any other floating argument requiring grad must get one, or backward
    // refuses rather than leave it silently without.
    std::vector<std::string> notDifferentiable;

    // Complex tensors (a complex tensor or dtype among the arguments): how it computes on
    // them, as ops on real views of their parts (opdefs/complex.cpp), for real and meta
    // tensors alike. Without one, complex arguments reach the kernel only when it moves whole
    // elements (mayAlias or movesElements); any other op refuses them (dispatch/complex_layer.cpp).
    std::function<IValue(const BoundArgs&)> complexKernel;
    bool movesElements = false;  // clone, copy_: copies elements of any dtype unchanged

    // Whether its result may share storage with an argument (a view; reshape, contiguous or
    // to() when nothing needs copying): functionalization cannot change it in place.
    bool mayAlias = false;
};

// Whether a bound argument is a meta tensor or the meta device (then only shapes are computed).
bool hasMetaArgument(const BoundArgs& bound);

class OpRegistry {
public:
    static const OpRegistry& instance();

    const OpDef* find(std::string_view name) const;
    std::vector<std::string> names() const;

    // Binds args/kwargs against the schema (ScriptError "TypeError" when they don't fit).
    BoundArgs bind(const OpDef& op, const IValueList& args, const Kwargs& kwargs) const;

    // Registers `op`; returns its entry, which stays where it is, so a family can attach
    // the op's compile stages where it defines the op.
    OpDef& add(OpDef op);
    // The op registered under exactly `name`, to fill in more of its definition; throws
    // Error when there is none (a misspelled name in a definition fails registration).
    OpDef& definition(std::string_view name);
    // What registration left undefined: each op with neither a lowering nor a reason to
    // run eagerly, as "NAME: no lowering and no reason to run eagerly". Empty when complete.
    std::vector<std::string> incompleteDefinitions() const;
    // Every registered op and overload name ("max", "max.dim", ...), sorted.
    std::vector<std::string> allNames() const;

    // Overloads share a base name ("max", "max.dim", "max.other"); resolve() with the base name
    // binds each in registration order and takes the first that fits.
    std::vector<const OpDef*> overloads(std::string_view baseName) const;
    // The overload a call resolves to, with its bound arguments.
    std::pair<const OpDef*, BoundArgs> resolve(std::string_view name, const IValueList& args,
                                               const Kwargs& kwargs) const;
    const ParsedSchema& parsed(const OpDef& op) const;
    // Runs the kernel, or `infer` when an argument is meta (hasMetaArgument), which returns
    // meta tensors.
    IValue run(const OpDef& op, const BoundArgs& bound) const;

private:
    // Keyed by name, looked up by string_view without building a string: every op call
    // resolves its name here.
    struct NameHash {
        using is_transparent = void;
        std::size_t operator()(std::string_view name) const { return std::hash<std::string_view>{}(name); }
    };
    template <class T>
    using ByName = std::unordered_map<std::string, T, NameHash, std::equal_to<>>;

    const std::vector<const OpDef*>* overloadsOf(std::string_view baseName) const;

    ByName<OpDef> ops_;  // entries never move: definitions are referred to by address
    ByName<std::vector<const OpDef*>> overloads_;
    std::unordered_map<const OpDef*, ParsedSchema> schemas_;
};

}  // namespace fusescope

#pragma once
// Guards: the conditions under which a compiled entry may be reused. Each remembers the
// source line that created it and fails with the same words PyTorch uses, e.g.
// "tensor 'L['a']' size mismatch at index 0. expected 3, actual 2".

#include <optional>
#include <string>
#include <vector>

#include "capture/size_expression.h"
#include "capture/symbolic_strides.h"
#include "observe/event.h"
#include "script/value.h"

namespace fusescope {

struct Guard {
    enum class Kind {
        TensorMatch,  // dtype, device, requires_grad, rank, sizes, strides
        TypeMatch,    // type(x) is list
        Constant,     // L['i'] == 3
        Length,       // len(L['ys']) == 2
        DimAtLeast,   // 2 <= L['x'].size()[0] (a dynamic dim)
        DimEquals,    // L['x'].size()[0] == 9 (a dynamic dim the script read as an int)
        DimsMatch,    // L['w'].size()[0] == L['x'].size()[1] (two dims sharing a symbol)
        DictContains, // ___dict_contains('shift', L['self']._buffers), or not (count 0)
        NoHasattr,    // not hasattr(L['self'], 'grad_scale'): getattr(x, name, default) or hasattr found none
        Hasattr,      // hasattr(G['b'], 'scale'): they found it (Dynamo's getattr manager, no leaf of its own)
        NotNone,      // L['p'].grad is not None: an optimizer's parameter's grad (OptimizerVariable's GradSource)
        SizeRelation, // L['x'].size()[1] <= 8 (the traced code compared a SymInt)
        IdMatch,      // ___check_obj_id(G['torch'].cat, ...): a module or callee the code reached through a global
        ObjectAliasing,  // G['a'].F is G['b'].F: one module reached two ways (otherSource the second)
        KeyOrder,     // list(dict.keys(L['self']._modules)) == ['0', '1']: an nn.Module dict walked in order
        FloatNotNan,  // not math.isnan(L['scale']): a float input made dynamic (ShapeEnv's NaN specialization)
        FloatRelation,  // L['t'] > 1.0 (the traced code compared such a float: `relation` with `bound`)
        // A stride of a tensor with dynamic sizes: L['x'].stride()[0] == L['x'].size()[1] (its layout),
        // != (its contiguity check, made in `madeIn`), 2 <= L['x'].stride()[0] (a stride symbol's range)
        StrideRelation,
    };
    Kind kind = Kind::TensorMatch;
    SourcePtr source;
    std::string createdBy;  // stripped source line that made the guard
    int createdAtLine = 0;  // its line number in the script (0 when unknown)
    std::vector<StackFrame> userStack;  // the traced user frames then, outermost first

    // TensorMatch
    DType dtype = DType::Float32;
    Device device;
    bool requiresGrad = false;
    std::vector<std::optional<int64_t>> sizes;    // nullopt: dynamic
    std::vector<std::optional<int64_t>> strides;  // nullopt: follows the dynamic sizes
    // TypeMatch: the type's name; for an instance of a script class, the class itself (two
    // classes may share a name)
    std::string typeName;
    ObjectPtr classObject;  // IdMatch: set where the object is a class (int, range): its manager's type is <class 'type'>
    // Constant; DictContains: the key; IdMatch: the object; KeyOrder: the keys, a list; (No)Hasattr: the name
    Value constant;
    // KeyOrder: only the dict's length is checked, its keys are not (an nn.Module's hooks dict,
    // keyed by handle ids: its values are guarded by position)
    bool keysUnguarded = false;
    // IdMatch: the guarded object is the function's __code__ (a function written in Python,
    // as Dynamo guards one it inlines); typeName then says "function", else its own type
    bool ofCode = false;
    // Length / DimAtLeast / DimEquals; DictContains: 1 when the key is in the dict, 0 when not
    int64_t count = 0;
    int64_t dim = 0;
    // DimsMatch: the dim it must equal; ObjectAliasing: the other way to the object
    SourcePtr otherSource;
    int64_t otherDim = 0;
    // SizeRelation: `lhs relation rhs` holds, both computed from size `dim` of `source`; an
    // upper bound (size <= k) of a dynamic dim also holds its range's lower bound (count > 0:
    // "2 <= x.size()[0] <= 4", as sympy joins them) and where that size was first used.
    SizeExpressionPtr lhs, rhs;
    CompareOperator relation = CompareOperator::Eq;
    double bound = 0;  // FloatRelation's right side
    // A range's lower bound's comment: where the size was first used, with ShapeEnv's note, or
    // what raised it ("(_prims_common/__init__.py:322 in is_contiguous)").
    std::string lowerBoundComment;
    // Constant: an int attribute of an nn.Module, which the guards log and a failure name with PyTorch's hint
    bool moduleInt = false;
    // StrideRelation: stride `dim` of `source` `relation` the product (or >= count), printed as
    // `productText` ("L['x'].size()[1]", "2*L['x'].size()[1]"); madeIn "" for a layout's.
    TensorProduct product;
    std::string productText;
    // TensorMatch: the traced tensor's strides (a symbolic one's value then).
    Shape strideValues;
    // Where in PyTorch such a guard is made (its failure says so): a comparison in the code,
    // or a slice's end (fake_impls.py's _compute_slice_index).
    std::string madeIn = "_dynamo/variables/tensor.py:3083 in evaluate_expr";

    std::string code() const;  // check_tensor(L['x'], ...), len(L['ys']) == 2, ...
    std::string guardedName() const;  // the source's name, with .__code__ for a function's code
    // The code with its origin: "len(L['ys']) == 2    # for y, z in zip(ys, zs):"
    std::string str() const;
    // Why `value` fails this guard, or nullopt when it passes. A null value means the
    // source no longer exists (a shorter list). `other` is otherSource's value (DimsMatch).
    // The text is PyTorch 2.15's: a tensor's mismatch in words, any other guard's code with
    // where it was made and the user stack trace (recompileReason then strips L[...]).
    std::optional<std::string> tensorMismatch(const Tensor& t) const;  // TENSOR_MATCH's failure on t, if any
    std::optional<std::string> check(const Value* value, const Value* other = nullptr) const;
    // The PyTorch guard-type name (TENSOR_MATCH, CONSTANT_MATCH, ...) used in explain().
    std::string typeLabel() const;
    // The hint PyTorch adds to this guard's line and failure: a key's presence in a dict (none
    // for an object's __dict__: Dynamo's check that no attribute shadows a method says none).
    std::string hint() const;
};

// PyTorch's hint on a guard of an nn.Module's int attribute (its static ints).
extern const char* const kModuleIntHint;

// Whether `g` raises a size's range's lower bound (5 <= L['x'].size()[1]): a comparison's, or
// the compile's; the range prints it in its place.
bool raisesLowerBound(const Guard& g);

// ShapeEnv's guards (sizes, strides, SymInts, SymFloats): checked after the guard tree, as its epilogue.
// A stable stand-in for a type's id() ("<class 'tuple'>"; masked where logs are compared).
uint64_t typeId(const std::string& typeName);
bool isShapeGuard(const Guard& g);

// A StrideRelation's comment, as the guards log and a failure print it: "(unknown source
// L['x'].stride()[0], please file a bug)" for a layout's, where it was made for the others.
std::string strideComment(const Guard& g);

// ShapeEnv's note on a size's range guard, after the user code that first used the size.
extern const char* const kFirstUseNote;

// A SizeRelation's comment, as the guards log and a failure print it: where the traced code
// compared (or the compile, with no user code) and in which PyTorch function; a range joined to
// it says where the size was first used too.
std::string relationComment(const Guard& g);

// Where the traced code made a guard, as PyTorch's logs say it: "return x + n  # rc.py:5 in g"
// (the innermost user frame); "" when unknown.
std::string madeAt(const Guard& g);
// Sizes or strides as a guard prints them, None for a dynamic one: [None, 4].
std::string optionalList(const std::vector<std::optional<int64_t>>& values);

// PyTorch's recompile reason for a cache entry: "0/1: " and the first failing guard's text,
// each L['name'] written as name (its strip_local_scope: the words users search for).
std::string recompileReason(const std::string& compileId, const std::string& failure);

// Python's <class 'int'> spelling of a value's type.
std::string pythonClassName(const Value& value);

// A guard on a value read from a function's closure cell names the variable, as Dynamo's
// hints do: `guard on "scale"`, `guard on "fn".__code__`, before the guard's own hint.
std::string withClosureHint(const Guard& g, const std::string& hint);

}  // namespace fusescope

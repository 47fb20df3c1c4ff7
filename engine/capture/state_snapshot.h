#pragma once
// What a traced call saw of a Python value, kept so a later call can tell the value is
// unchanged (capture/direct_call.h). Plain data -- numbers, strings, lists, tuples, dicts,
// sets -- is compared by content all the way down; a tensor by its layout (sizes, strides,
// dtype, device, requires_grad); any other object (an instance, a function, a module) by
// identity: an instance's own attributes are kept where the code reads them.

#include <optional>
#include <string>
#include <vector>

#include "script/value.h"

namespace fusescope {

// The part of a tensor a traced graph was specialised to.
struct TensorLayout {
    Shape sizes, strides;
    int64_t storageOffset = 0;
    DType dtype = DType::Float32;
    Device device;
    bool requiresGrad = false;

    static TensorLayout of(const Tensor& t);
    bool matches(const Tensor& t) const;
};

class ValueSnapshot {
public:
    // sameObjects: containers and tensors must be the very objects seen (state the code
    // reads); false: equal contents will do (a call's arguments, made afresh by each caller).
    // nullopt when the value nests deeper than a snapshot follows.
    static std::optional<ValueSnapshot> take(const Value& value, bool sameObjects);

    bool matches(const Value& value) const;
    // Each tensor in it, with the indices leading to it through the containers (a dict's
    // entries count as its values, in order).
    void forEachTensor(const std::function<void(const Tensor&, const std::vector<size_t>&)>& visit) const;
    // The containers in it (not the instances it names).
    void forEachContainer(const std::function<void(const Object*)>& visit) const;
    // Lets go of the tensors and containers it may compare by content only (a call's
    // arguments), so a kept snapshot does not keep a batch of inputs alive.
    void releaseContents();
    // The number at item `index` (of a tuple of arguments) matches any number of its type from
    // now on: its graph reads it as an input.
    void acceptAnyNumberAt(size_t index);

private:
    enum class Kind : uint8_t { Scalar, AnyNumber, Tensor, Object, Sequence, Dict, Set };
    Kind kind_ = Kind::Scalar;
    bool sameObject_ = true;
    Value value_;             // the scalar, or the tensor or object seen (kept alive for identity)
    TensorLayout layout_;     // Tensor
    const std::type_info* type_ = nullptr;  // containers: list, tuple, Size, dict, OrderedDict, ...
    std::vector<ValueSnapshot> items_;      // Dict: key, value, key, value, ...

    static bool build(const Value& value, bool sameObjects, int depth, ValueSnapshot& out);
    void visitTensors(const std::function<void(const Tensor&, const std::vector<size_t>&)>& visit,
                      std::vector<size_t>& path) const;
};

}  // namespace fusescope

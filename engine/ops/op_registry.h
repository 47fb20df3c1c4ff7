#pragma once
// The op registry: every op Fusescope knows, with its schema, shape/dtype inference and
// eager CPU kernel. The script interpreter calls ops through it by name, tracing records
// calls into graphs by name, and the eager backend replays graphs through it.

#include <functional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "ops/ivalue.h"

namespace fusescope {

using Kwargs = std::vector<std::pair<std::string, IValue>>;

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
};

class OpRegistry {
public:
    static const OpRegistry& instance();

    const OpDef* find(std::string_view name) const;
    std::vector<std::string> names() const;

    // Binds args/kwargs against the schema (ScriptError "TypeError" when they don't fit)
    // and runs the kernel; when any tensor argument is a meta tensor, runs `infer`
    // instead and returns meta tensors.
    IValue call(std::string_view name, const IValueList& args, const Kwargs& kwargs = {}) const;
    IValue call(const OpDef& op, const IValueList& args, const Kwargs& kwargs = {}) const;
    BoundArgs bind(const OpDef& op, const IValueList& args, const Kwargs& kwargs) const;

    void add(OpDef op);

private:
    std::unordered_map<std::string, OpDef> ops_;
};

}  // namespace fusescope

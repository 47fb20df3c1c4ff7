#pragma once
// The values ops take and return: what a schema argument can hold.

#include <cstdint>
#include <memory>
#include <string>
#include <variant>
#include <vector>

#include "core/device.h"
#include "core/dtype.h"
#include "core/tensor.h"

namespace fusescope {

struct IValue;
using IValueList = std::vector<IValue>;

struct None {
    bool operator==(const None&) const = default;
};

// A Python int standing for a size while a compiled function is traced (PyTorch's SymInt):
// `hint` is its value on this call; the graph computes it on every call. Whatever reads it
// as a plain int (toInt, Value::asInt) depends on this exact value: specialize() has the
// tracer guard it (PyTorch's specialization), and does nothing once that trace has ended.
// So code that knows no SymInt stays right: it fixes the size instead.
struct SymbolicInt {
    explicit SymbolicInt(int64_t hint) : hint(hint) {}
    virtual ~SymbolicInt() = default;
    const int64_t hint;
    virtual void specialize() const = 0;
    // Whether it computes the same as `other` for every size (equal without a guard).
    virtual bool sameAs(const SymbolicInt& other) const { return this == &other; }
    int64_t specialized() const {
        specialize();
        return hint;
    }
};
using SymbolicIntPtr = std::shared_ptr<const SymbolicInt>;

// A Python float input made dynamic while a compiled function is traced (PyTorch's SymFloat,
// from Dynamo's automatic dynamic for floats): as a SymbolicInt, `hint` is its value on this
// call, an op's scalar argument reads it in the graph, and any other read specializes it.
struct SymbolicFloat {
    explicit SymbolicFloat(double hint) : hint(hint) {}
    virtual ~SymbolicFloat() = default;
    const double hint;
    virtual void specialize() const = 0;
    double specialized() const {
        specialize();
        return hint;
    }
};
using SymbolicFloatPtr = std::shared_ptr<const SymbolicFloat>;

struct IValue {
    // A list and a tuple differ only in how they print and whether they can be mutated;
    // ops treat both as sequences.
    struct Sequence {
        IValueList items;
        bool isTuple = false;
    };
    using Storage = std::variant<None, bool, int64_t, double, std::string, Tensor, DType, Device,
                                 std::shared_ptr<Sequence>, SymbolicIntPtr, SymbolicFloatPtr>;
    Storage v;

    IValue() = default;
    IValue(None) {}
    IValue(bool b) : v(b) {}
    IValue(int64_t i) : v(i) {}
    IValue(int i) : v(static_cast<int64_t>(i)) {}
    IValue(double d) : v(d) {}
    IValue(std::string s) : v(std::move(s)) {}
    IValue(const char* s) : v(std::string(s)) {}
    IValue(Tensor t) : v(std::move(t)) {}
    IValue(DType d) : v(d) {}
    IValue(Device d) : v(d) {}
    IValue(SymbolicIntPtr i) : v(std::move(i)) {}
    IValue(SymbolicFloatPtr d) : v(std::move(d)) {}
    static IValue list(IValueList items) { return makeSeq(std::move(items), false); }
    static IValue tuple(IValueList items) { return makeSeq(std::move(items), true); }
    static IValue intList(const std::vector<int64_t>& ints);

    bool isNone() const { return std::holds_alternative<None>(v); }
    bool isBool() const { return std::holds_alternative<bool>(v); }
    bool isInt() const { return std::holds_alternative<int64_t>(v) || std::holds_alternative<SymbolicIntPtr>(v); }
    bool isDouble() const { return std::holds_alternative<double>(v) || std::holds_alternative<SymbolicFloatPtr>(v); }
    bool isNumber() const { return isBool() || isInt() || isDouble(); }
    bool isString() const { return std::holds_alternative<std::string>(v); }
    bool isTensor() const { return std::holds_alternative<Tensor>(v); }
    bool isDType() const { return std::holds_alternative<DType>(v); }
    bool isDevice() const { return std::holds_alternative<Device>(v); }
    bool isSequence() const { return std::holds_alternative<std::shared_ptr<Sequence>>(v); }
    // The SymInt it holds, or null (a plain int or anything else).
    const SymbolicInt* symbolic() const {
        const auto* p = std::get_if<SymbolicIntPtr>(&v);
        return p ? p->get() : nullptr;
    }
    // The SymFloat it holds, or null.
    const SymbolicFloat* symbolicFloat() const {
        const auto* p = std::get_if<SymbolicFloatPtr>(&v);
        return p ? p->get() : nullptr;
    }

    bool toBool() const { return std::get<bool>(v); }
    int64_t toInt() const;     // bool or int (a SymInt specialized)
    double toDouble() const;   // bool, int or double (a SymFloat specialized)
    const std::string& toString() const { return std::get<std::string>(v); }
    const Tensor& toTensor() const { return std::get<Tensor>(v); }
    DType toDType() const { return std::get<DType>(v); }
    Device toDevice() const { return std::get<Device>(v); }
    const std::shared_ptr<Sequence>& toSequence() const { return std::get<std::shared_ptr<Sequence>>(v); }
    std::vector<int64_t> toIntList() const;  // a sequence of ints, or a single int

private:
    static IValue makeSeq(IValueList items, bool isTuple) {
        IValue r;
        r.v = std::make_shared<Sequence>(Sequence{std::move(items), isTuple});
        return r;
    }
};

}  // namespace fusescope

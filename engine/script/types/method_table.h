#pragma once
// A builtin type's methods as data, as CPython's PyMethodDef tables: each a name, the
// function and how many positional arguments it takes. Reading `obj.name` looks the name up
// and binds the method to obj; adding a method to a builtin type is adding a row.

#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "script/value.h"

namespace fusescope {

// A method's maxArgs when it takes any number of positional arguments, or checks them itself.
inline constexpr size_t kAnyArgs = static_cast<size_t>(-1);

struct NativeMethod {
    std::string_view name;
    Value (*call)(Interpreter& in, const Value& self, CallArgs& args);
    size_t minArgs = 0, maxArgs = 0;  // positional arguments, checked before the call
};

class MethodTable {
public:
    MethodTable(std::string typeName, std::initializer_list<NativeMethod> methods);
    const NativeMethod* find(std::string_view name) const;
    // self.name bound to self, or nullopt when the type has no such method.
    std::optional<Value> bind(const Value& self, std::string_view name) const;
    // ... or AttributeError "'list' object has no attribute 'name'".
    Value attribute(Interpreter& in, const Value& self, std::string_view name) const;
    const std::vector<NativeMethod>& methods() const { return methods_; }

private:
    std::string typeName_;
    std::vector<NativeMethod> methods_;
};

// A builtin type's attributes computed on reading, as CPython's PyGetSetDef: x.shape, x.dtype;
// one with a setter can be assigned (x.requires_grad = True), the others are read-only.
struct NativeGetter {
    std::string_view name;
    Value (*get)(Interpreter& in, const Value& self);
    void (*set)(Interpreter& in, const Value& self, const Value& value) = nullptr;
};

class GetterTable {
public:
    GetterTable(std::initializer_list<NativeGetter> getters) : getters_(getters) {}
    const NativeGetter* find(std::string_view name) const;
    // self.name computed, or nullopt when the table has no such row.
    std::optional<Value> read(Interpreter& in, const Value& self, std::string_view name) const;
    const std::vector<NativeGetter>& getters() const { return getters_; }

private:
    std::vector<NativeGetter> getters_;
};

// TypeError "name() takes N argument(s) (M given)" unless lo <= positional count <= hi.
void expectArgs(Interpreter& in, const CallArgs& args, size_t lo, size_t hi, std::string_view name);
// TypeError "name() got an unexpected keyword argument 'k'" for a keyword not among `known`.
void expectKeywords(Interpreter& in, const CallArgs& args, std::string_view name, std::initializer_list<std::string_view> known);
// An argument that may come by position or by keyword: `name=` when given, else the one at
// `position`, else `fallback`.
Value argumentOr(const CallArgs& args, size_t position, const char* name, Value fallback = Value());
// The same for an int (or a value with __index__ a builtin reads as one, a bool): CPython's
// TypeError "'str' object cannot be interpreted as an integer" for anything else.
int64_t intArgumentOr(Interpreter& in, const CallArgs& args, size_t position, const char* name, int64_t fallback);

// While alive, str's methods run on bytes (bytes share str's method table, bytes_type.cpp):
// positions and widths count bytes, and case and character classes touch ASCII bytes only.
class StrMethodsOnBytes {
public:
    StrMethodsOnBytes();
    ~StrMethodsOnBytes();
    StrMethodsOnBytes(const StrMethodsOnBytes&) = delete;
    StrMethodsOnBytes& operator=(const StrMethodsOnBytes&) = delete;

private:
    bool was_;
};

// The method tables of the builtin types (one file per type or family: types/*.cpp).
const MethodTable& listMethods();
const MethodTable& tupleMethods();
const MethodTable& sizeMethods();  // torch.Size: a tuple's, with numel()
// The product of sizes, as x.numel() and torch.Size.numel() compute it (a SymInt where one is).
Value sizesProduct(Interpreter& in, const ValueList& sizes);
const MethodTable& dictMethods();
const MethodTable& setMethods();
const MethodTable& frozensetMethods();
const MethodTable& strMethods();
const MethodTable& tensorMethods();
const GetterTable& tensorGetters();
const GetterTable& dtypeGetters();
const GetterTable& deviceGetters();

}  // namespace fusescope

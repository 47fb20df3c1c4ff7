#pragma once
// Python's object model for script classes: classes with a C3 method resolution order,
// instances with a __dict__, bound methods, super(), the descriptors property,
// classmethod and staticmethod, and exceptions as classes. The objects and the parts that
// run no script code are here; attribute access and special-method calls, which may run
// script code, are Interpreter methods (classes.cpp, exceptions.cpp).

#include <memory>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "script/value.h"

namespace fusescope {

struct ClassObject;
using ClassPtr = std::shared_ptr<ClassObject>;

// A class: `class Foo(Base): ...`, the builtin `object`, or a builtin exception class.
struct ClassObject : Object {
    std::string name;
    std::string qualname;
    std::string module = "__main__";  // "builtins" for object and the exception classes
    std::vector<ClassPtr> bases;
    std::vector<ClassObject*> mro;  // this class first, object last; kept alive by bases
    std::shared_ptr<DictObject> dict = std::make_shared<DictObject>();  // in definition order
    Interpreter* interpreter = nullptr;  // runs its special methods when printed from anywhere
    // Its metaclass, a script class deriving from type (class A(metaclass=M)); null: type. Its
    // methods are the class's attributes after its own, and its special methods the class's
    // (iter(A), len(A), A[k], A(...), repr(A), isinstance(x, A)).
    ClassPtr metaclass;
    // The attributes its instances may have when every class along its MRO declares
    // __slots__ (none of them "__dict__"): its instances then have no __dict__. Null: any.
    std::shared_ptr<const std::set<std::string>> slotNames;

    std::string typeName() const override { return "type"; }
    const TypeSlots* slots() const override;
    // The attribute `name` of the first class along the MRO that defines it, or null.
    const Value* lookup(std::string_view attr, const ClassObject** definer = nullptr) const;
    bool isSubclassOf(const ClassObject& other) const;
    bool isBuiltin() const { return module == "builtins"; }
    std::string displayName() const { return isBuiltin() ? name : module + "." + qualname; }
    // torch.nn.Module where it is along its MRO, else null.
    const ClassObject* nnModuleBase() const;
    bool isNnModule() const { return nnModuleBase() != nullptr; }
    // `dict` as a Value that lives as long as the class: what a guard on its __dict__ reads.
    const Value& dictValue() const {
        if (!dictHandle_.isObject()) dictHandle_ = Value(ObjectPtr(dict));
        return dictHandle_;
    }
    // Its __mro__ as a tuple, made once a guard reads it (type(x).__mro__[1]).
    const Value& mroValue() const;
    // Its __name__ as a Value, likewise (type(x).__name__ == 'Linear').
    const Value& nameValue() const {
        if (!nameHandle_.isString() || nameHandle_.asString() != name) nameHandle_ = Value(name);
        return nameHandle_;
    }

private:
    mutable Value dictHandle_;
    mutable Value mroHandle_;
    mutable Value nameHandle_;
};

// An instance of a script class (or of an exception class).
struct InstanceObject : Object {
    ClassPtr cls;
    std::shared_ptr<DictObject> dict = std::make_shared<DictObject>();
    std::string typeName() const override { return cls->name; }
    const TypeSlots* slots() const override;
    // `dict` as a Value that lives as long as the instance: what a guard on `x.__dict__` reads.
    const Value& dictValue() const {
        if (!dictHandle_.isObject() || dictHandle_.asObject() != dict) dictHandle_ = Value(ObjectPtr(dict));
        return dictHandle_;
    }
    // `cls` as a Value, likewise (a guard on type(x) reads it).
    const Value& classValue() const {
        if (!classHandle_.isObject() || classHandle_.asObject() != cls) classHandle_ = Value(ObjectPtr(cls));
        return classHandle_;
    }

private:
    mutable Value dictHandle_;
    mutable Value classHandle_;
};

// A function bound to its first argument: obj.method, or Foo.cm for a classmethod.
struct BoundMethodObject : Object {
    Value self;
    Value function;
    std::string typeName() const override { return "method"; }
    const TypeSlots* slots() const override;
};

struct PropertyObject : Object {
    Value getter, setter, deleter;  // None when absent
    std::string typeName() const override { return "property"; }
    const TypeSlots* slots() const override;
};

struct ClassMethodObject : Object {
    Value function;
    std::string typeName() const override { return "classmethod"; }
    const TypeSlots* slots() const override;
};

struct StaticMethodObject : Object {
    Value function;
    std::string typeName() const override { return "staticmethod"; }
    const TypeSlots* slots() const override;
};

// super(): attribute lookup along self's MRO, starting after `after`.
struct SuperObject : Object {
    ClassPtr after;
    Value self;  // an instance, or a class (inside a classmethod)
    std::string typeName() const override { return "super"; }
    const TypeSlots* slots() const override;
};

// The __class__ cell of the functions a class body defines: filled once the class exists,
// read by zero-argument super(). Weak, so a class and its methods hold no cycle.
struct ClassCell {
    std::weak_ptr<ClassObject> cls;
};

// An exception a script raised (raise X, or an engine error turned into an instance): the
// ScriptError carries the kind and str() of the instance; the instance rides along so an
// except clause binds the very object that was raised.
class RaisedException : public ScriptError {
public:
    RaisedException(const std::string& kind, const std::string& message, SourceLocation where, Value exception)
        : ScriptError(kind, message, std::move(where)), exception_(std::move(exception)) {}
    const Value& exception() const { return exception_; }

private:
    Value exception_;
};

// Python's C3 linearisation of cls and its bases (cls first). Throws TypeError when the
// bases admit no consistent order.
std::vector<ClassObject*> c3Linearization(ClassObject& cls);

// repr() (asStr false) or str() of an instance, running its __repr__/__str__.
std::string instanceText(const ObjectPtr& instance, bool asStr);
// a == b where either is an instance, running its __eq__ (list equality and `in` use it).
bool instanceEquals(const Value& a, const Value& b);

// The class of an instance or null (for a value that is not an InstanceObject).
const ClassPtr* instanceClass(const Value& value);

}  // namespace fusescope

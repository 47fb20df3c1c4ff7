#pragma once
// Runtime values of the script interpreter: Python scalars, strings, containers, functions,
// modules, tensors. A value may carry the Source it was read from when a compiled
// function is being traced (L['x'], L['ys'][0]); guards are built on those sources.

#include <functional>
#include <iterator>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <variant>
#include <vector>

#include "core/error.h"
#include "core/tensor.h"
#include "ops/ivalue.h"

namespace fusescope {

struct FunctionDef;
struct Lambda;
class Interpreter;
struct Value;
struct TypeSlots;  // script/types/type_slots.h

// Where a traced function's input came from, as PyTorch's guards spell it.
struct Source {
    // Item: a list/tuple index; Key: a dict's string key; ObjectDict: an instance's __dict__
    // (a Key of it is spelled as an attribute, as Dynamo spells L['self']._modules['fc']);
    // Type: an instance's class, type(x); TypeDict: a class's own attributes, dict(type(x).__dict__);
    // KeyAt: a dict's value by its key's position, d[list(dict.keys(d))[0]] (its key unguarded);
    // IntKey: a dict's value by an int key, d[1]; GlobalWeakRef: the object a weak reference
    // Dynamo keeps as a global of its own points to, G['__optimizer_..._c3']() (`base` reaches
    // that object in the frame).
    enum class Kind { Local, Global, Item, Attr, Key, ObjectDict, Type, TypeDict, KeyAt, IntKey, GlobalWeakRef };
    Kind kind = Kind::Local;
    std::string name;    // Local/Global: the variable name; Attr: the attribute; Key: the key;
                         // Item of a function's __closure__: the free variable the cell holds
    int64_t index = 0;   // Item: the list/tuple index; KeyAt: the key's position; IntKey: the key
    std::shared_ptr<const Source> base;  // Item, Attr: the container's or object's source

    std::string str() const;  // L['x'], G['w'], L['ys'][0], L['self'].scale
};
using SourcePtr = std::shared_ptr<const Source>;
SourcePtr localSource(const std::string& name);
SourcePtr globalSource(const std::string& name);
SourcePtr itemSource(const SourcePtr& base, int64_t index);
SourcePtr attrSource(const SourcePtr& base, const std::string& name);
SourcePtr keySource(const SourcePtr& base, const std::string& key);  // base['key'], or base.key on a __dict__
SourcePtr objectDictSource(const SourcePtr& base);
SourcePtr typeSource(const SourcePtr& base);
SourcePtr typeDictSource(const SourcePtr& base);
SourcePtr keyAtSource(const SourcePtr& base, int64_t position);
SourcePtr intKeySource(const SourcePtr& base, int64_t key);
SourcePtr globalWeakRefSource(const std::string& name, const SourcePtr& reached);
SourcePtr mroEntrySource(const SourcePtr& instance, size_t index);
// A function's free variable, as Dynamo reads it: FN.__closure__[index].cell_contents.
SourcePtr cellContentsSource(const SourcePtr& function, int64_t index, const std::string& variable);  // type(x), or type(x).__mro__[index] past the first

// When an object or scope was made, in the order of making: a compiled call that runs its
// graph directly (capture/direct_call.h) tells what existed before the call from what the
// call made. A copy is a new object with a new serial.
class CreationSerial {
public:
    CreationSerial() : value_(next()) {}
    CreationSerial(const CreationSerial&) : value_(next()) {}
    CreationSerial& operator=(const CreationSerial&) { return *this; }
    uint64_t value() const { return value_; }
    static uint64_t next();     // the serial the next object gets
    static uint64_t upcoming();  // ... without taking it

private:
    uint64_t value_;
};

// Bumped by every store into what scripts rarely change once made: a class's or module's
// attributes, a function's attributes, a library module's globals. A direct call checks it
// instead of each such read.
uint64_t definitionsVersion();
void definitionsChanged();

// Heap objects: everything that is not a plain scalar, string or tensor.
// Always owned by a shared_ptr (ObjectPtr): shared_from_this gives the owning pointer back.
struct Object : std::enable_shared_from_this<Object> {
    CreationSerial serial;
    virtual ~Object() = default;
    virtual std::string typeName() const = 0;  // Python's type(x).__name__: "list", "function"
    // Its repr when the object defines one; nullopt: "<typeName object>".
    // Its type's slots (script/types/type_slots.h): by default a plain object's, which has
    // no attributes of its own.
    virtual const TypeSlots* slots() const;
};
using ObjectPtr = std::shared_ptr<Object>;

struct Value {
    // A SymbolicIntPtr is an int (isInt): a size of a graph value while a compiled function is
    // traced, read as a plain int only through asInt (which specializes it). A SymbolicFloatPtr
    // is a float (isFloat) so: a float input made dynamic, read as a plain float only through asFloat.
    using Storage = std::variant<None, bool, int64_t, double, std::string, Tensor, DType, Device, ObjectPtr, SymbolicIntPtr,
                                 SymbolicFloatPtr>;
    Storage v;
    SourcePtr source;

    Value() = default;
    Value(None) {}
    Value(bool b) : v(b) {}
    Value(int64_t i) : v(i) {}
    Value(int i) : v(static_cast<int64_t>(i)) {}
    Value(double d) : v(d) {}
    Value(std::string s) : v(std::move(s)) {}
    Value(const char* s) : v(std::string(s)) {}
    Value(Tensor t) : v(std::move(t)) {}
    Value(DType d) : v(d) {}
    Value(Device d) : v(d) {}
    Value(ObjectPtr o) : v(std::move(o)) {}
    Value(SymbolicIntPtr i) : v(std::move(i)) {}
    Value(SymbolicFloatPtr d) : v(std::move(d)) {}

    bool isNone() const { return std::holds_alternative<None>(v); }
    bool isBool() const { return std::holds_alternative<bool>(v); }
    bool isInt() const { return std::holds_alternative<int64_t>(v) || std::holds_alternative<SymbolicIntPtr>(v); }
    bool isFloat() const { return std::holds_alternative<double>(v) || std::holds_alternative<SymbolicFloatPtr>(v); }
    bool isNumber() const { return isBool() || isInt() || isFloat(); }
    bool isString() const { return std::holds_alternative<std::string>(v); }
    bool isTensor() const { return std::holds_alternative<Tensor>(v); }
    bool isDType() const { return std::holds_alternative<DType>(v); }
    bool isDevice() const { return std::holds_alternative<Device>(v); }
    bool isObject() const { return std::holds_alternative<ObjectPtr>(v); }

    bool asBool() const { return std::get<bool>(v); }
    int64_t asInt() const {
        if (const auto* i = std::get_if<SymbolicIntPtr>(&v)) return (*i)->specialized();
        return std::get<int64_t>(v);
    }
    // The SymInt it holds, or null.
    const SymbolicIntPtr* symbolic() const { return std::get_if<SymbolicIntPtr>(&v); }
    double asFloat() const {
        if (const auto* d = std::get_if<SymbolicFloatPtr>(&v)) return (*d)->specialized();
        return std::get<double>(v);
    }
    // The SymFloat it holds, or null.
    const SymbolicFloatPtr* symbolicFloat() const { return std::get_if<SymbolicFloatPtr>(&v); }
    const std::string& asString() const { return std::get<std::string>(v); }
    const Tensor& asTensor() const { return std::get<Tensor>(v); }
    DType asDType() const { return std::get<DType>(v); }
    Device asDevice() const { return std::get<Device>(v); }
    const ObjectPtr& asObject() const { return std::get<ObjectPtr>(v); }
    template <class T>
    T* as() const {  // the object as T, or null
        return isObject() ? dynamic_cast<T*>(asObject().get()) : nullptr;
    }

    // A copy without its source (the result of computing with a value has none).
    Value unsourced() const {
        Value r = *this;
        r.source.reset();
        return r;
    }
};
using ValueList = std::vector<Value>;
// Called with each item of an iteration; false stops it (a loop's break).
using ItemVisitor = std::function<bool(const Value&)>;

struct ListObject : Object {
    ValueList items;
    std::string typeName() const override { return "list"; }
    const TypeSlots* slots() const override;
};
// d.keys() / d.values() / d.items(): a snapshot of the dict, printed as Python prints the
// view (dict_keys(['a']), odict_items([...])). Iterating it checks its dict's size as
// iterating the dict does (SizeChangeCheck).
struct DictObject;
struct DictViewObject : ListObject {
    std::string kind;  // "dict_keys", "odict_values", ...
    std::weak_ptr<const DictObject> dict;  // weak: a dict may hold its own view
    std::string typeName() const override { return kind; }
    const TypeSlots* slots() const override;  // not a list's: a view's set operators
};
struct TupleObject : Object {
    ValueList items;
    std::string typeName() const override { return "tuple"; }
    const TypeSlots* slots() const override;
};
// torch.Size: a tuple of ints that prints as torch.Size([2, 3]).
struct SizeObject : TupleObject {
    std::string typeName() const override { return "Size"; }
    const TypeSlots* slots() const override;  // a tuple's, printed as torch.Size([...])
};
// Where each key of a dict is, by hash, once the dict is long enough for a linear search to
// cost: a dict literal or loop of 40,000 keys took 4 s. Only while every key is a number, a
// string or None, whose equality (valuesEqual) is decided by the value the hash reads; other
// keys (tuples, instances with __eq__) keep the linear search.
class KeyIndex {
public:
    using KeyAt = std::function<const Value&(size_t)>;
    using Positions = std::unordered_multimap<size_t, size_t>;
    using Range = std::pair<Positions::const_iterator, Positions::const_iterator>;
    static constexpr size_t kFrom = 32;  // keys; below this a linear search is as fast
    // The hash a key is indexed by (1 == 1.0 == True hash alike), or none: its equality is
    // not decided by it.
    static std::optional<size_t> hashOf(const Value& key);
    static size_t hashOf(std::string_view key);
    // The positions among the first `size` keys (`keyAt`) with the hash of `key`, or none:
    // search linearly this time.
    std::optional<Range> candidates(const Value& key, size_t size, const KeyAt& keyAt);
    std::optional<Range> candidates(std::string_view key, size_t size, const KeyAt& keyAt);
    // `key`, at `position`, was removed.
    void remove(const Value& key, size_t position);
    // The positions moved: the index is rebuilt at a later lookup, all of it, after a few
    // linear ones.
    void reset();

private:
    std::optional<Range> candidatesFor(std::optional<size_t> hash, size_t size, const KeyAt& keyAt);
    Positions index_;
    size_t indexed_ = 0;  // keys [0, indexed_) are in index_
    bool unindexable_ = false;
    int linearLookups_ = 0;  // since the index was last reset
};

// A dict's entries in insertion order, read as a vector of (key, value) pairs. Removing one
// leaves a hole, so that the positions the key index holds stay put and a deletion costs
// O(1) (50,000 of 100,000 keys deleted one by one took 28 s when each shifted the rest):
// iteration skips holes, and they are squeezed out when they are half the slots or an entry
// is read by its position. So no positional read or erase inside a loop over the entries:
// a squeeze moves them under it.
class DictEntries {
public:
    using Entry = std::pair<Value, Value>;
    template <class Slots, class E>
    class Iterator {
    public:
        using iterator_category = std::forward_iterator_tag;
        using value_type = Entry;
        using difference_type = std::ptrdiff_t;
        using pointer = E*;
        using reference = E&;
        Iterator(Slots* slots, const std::vector<bool>* holes, size_t at) : slots_(slots), holes_(holes), at_(at) { skipHoles(); }
        E& operator*() const { return (*slots_)[at_]; }
        E* operator->() const { return &(*slots_)[at_]; }
        Iterator& operator++() {
            ++at_;
            skipHoles();
            return *this;
        }
        // Past the slots is the end even when they shrank under a loop (squeezed): such a
        // loop stops instead of reading past them.
        bool operator==(const Iterator& o) const { return at_ == o.at_ || (atEnd() && o.atEnd()); }
        bool operator!=(const Iterator& o) const { return !(*this == o); }

    private:
        bool atEnd() const { return at_ >= slots_->size(); }
        void skipHoles() {
            while (at_ < slots_->size() && at_ < holes_->size() && (*holes_)[at_]) ++at_;
        }
        Slots* slots_;
        const std::vector<bool>* holes_;
        size_t at_;
    };
    using iterator = Iterator<std::vector<Entry>, Entry>;
    using const_iterator = Iterator<const std::vector<Entry>, const Entry>;

    DictEntries() = default;
    DictEntries(const DictEntries&) = default;  // keeps positions: a copied dict's key index holds
    DictEntries& operator=(const DictEntries& o);  // counts as a move of every position
    iterator begin() { return {&slots_, &holes_, 0}; }
    iterator end() { return {&slots_, &holes_, slots_.size()}; }
    const_iterator begin() const { return {&slots_, &holes_, 0}; }
    const_iterator end() const { return {&slots_, &holes_, slots_.size()}; }
    size_t size() const { return slots_.size() - holeCount_; }
    bool empty() const { return size() == 0; }
    // The i-th entry in insertion order.
    Entry& operator[](size_t i) { return compact(), slots_[i]; }
    const Entry& operator[](size_t i) const { return compact(), slots_[i]; }
    template <class... Args>
    void emplace_back(Args&&... args) {
        slots_.emplace_back(std::forward<Args>(args)...);
    }
    void push_back(Entry e) { slots_.push_back(std::move(e)); }
    void clear();

    // Slots, holes included, for the key index: positions that stay put until `moves()`
    // changes.
    size_t slotCount() const { return slots_.size(); }
    bool isHole(size_t slot) const { return slot < holes_.size() && holes_[slot]; }
    const Entry& slot(size_t slot) const { return slots_[slot]; }
    Entry& slot(size_t slot) { return slots_[slot]; }
    uint64_t moves() const { return moves_; }
    // Makes `slot` a hole (its key and value released), squeezing the holes out when they
    // are half the slots.
    void removeSlot(size_t slot);

private:
    void compact() const;
    mutable std::vector<Entry> slots_;
    mutable std::vector<bool> holes_;  // empty while there are none
    mutable size_t holeCount_ = 0;
    mutable uint64_t moves_ = 0;  // times the slots moved (squeezed)
};

struct DictObject : Object {
    // Insertion order. Append to it directly; remove through erase and clear (the key index
    // follows appends and removals).
    DictEntries items;
    std::string typeName() const override { return "dict"; }
    const TypeSlots* slots() const override;
    Value* find(const Value& key);
    Value* findString(std::string_view key);  // find(Value(key)) without making a Value
    void set(const Value& key, Value value);  // replaces, or appends a new key
    bool erase(const Value& key);
    void clear();

private:
    // The slot holding `key` (equal by `same`), through the key index when it has one.
    template <class Key, class Same>
    std::optional<size_t> slotOf(const Key& key, const Same& same);
    KeyIndex index_;
    uint64_t indexedMoves_ = 0;  // items.moves() when index_ was built
};
// collections.OrderedDict: a dict that prints as CPython 3.11 prints one.
struct OrderedDictObject : DictObject {
    std::string typeName() const override { return "OrderedDict"; }
    const TypeSlots* slots() const override;  // a dict's, printed as OrderedDict([...])
};
// collections.defaultdict: a dict whose missing keys are made by default_factory (None: a
// KeyError as a dict's), printed as defaultdict(<class 'list'>, {...}).
struct DefaultDictObject : DictObject {
    Value defaultFactory;
    std::string typeName() const override { return "defaultdict"; }
    const TypeSlots* slots() const override;
};
// What iter() returns: the remaining items of a sequence, consumed by next().
struct IteratorObject : Object {
    ValueList items;
    size_t next = 0;
    std::string over;  // the type it iterates ("list", "dict_values"): Dynamo names the iterator by it
    std::string typeName() const override { return "iterator"; }
    const TypeSlots* slots() const override;
};
struct RangeObject : Object {
    int64_t start = 0, stop = 0, step = 1;
    int64_t length() const;
    std::string typeName() const override { return "range"; }
    const TypeSlots* slots() const override;
};
// A slice object (x[a:b] with a tensor index uses it).
struct SliceObject : Object {
    Value start, stop, step;
    std::string typeName() const override { return "slice"; }
    const TypeSlots* slots() const override;
};
// torch.contiguous_format, torch.preserve_format, ...: an op reads c10::MemoryFormat's number.
struct MemoryFormatObject : Object {
    int64_t code = 0;
    std::string name;  // "preserve_format"
    std::string typeName() const override { return "torch.memory_format"; }
    const TypeSlots* slots() const override;
};
struct Scope;
// One of a function's __closure__ cells: its free variable `name`, read live from the scope that binds it.
struct CellObject : Object {
    std::shared_ptr<Scope> scope;
    std::string name;
    const Value* contents() const;  // null while the variable is unbound ("Cell is empty")
    std::string typeName() const override { return "cell"; }
    const TypeSlots* slots() const override;
};
// int | None (PEP 604): what isinstance and issubclass accept as a tuple of its members.
struct UnionTypeObject : Object {
    ValueList members;  // classes and builtin types (NoneType for None), each once, in order
    std::string typeName() const override { return "types.UnionType"; }
    const TypeSlots* slots() const override;
};
struct EllipsisObject : Object {
    std::string typeName() const override { return "ellipsis"; }
    const TypeSlots* slots() const override;
};

struct Scope;
using ScopePtr = std::shared_ptr<Scope>;
struct ClassCell;

// A def or lambda, closed over the scope it was defined in.
struct FunctionObject : Object {
    const FunctionDef* def = nullptr;  // null for a lambda
    const Lambda* lambda = nullptr;
    std::string name;      // __name__
    std::string qualname;  // __qualname__: fn1.fn2
    // Its code's co_name and co_qualname, what its frames are named by: functools.wraps and other
    // __name__ / __qualname__ assignments leave them.
    std::string codeName, codeQualname;
    ValueList defaults;    // one per parameter with a default, in order
    // fn.__defaults__ = (...) (namedtuple's __new__ gets them so): the positional parameters'
    // defaults, right-aligned, in place of the def's; none assigned: the def's.
    std::optional<ValueList> assignedDefaults;
    // __defaults__ (a tuple, or None), made once per assignment, so what guards on
    // G['f'].__defaults__ resolve to stays while they point into it.
    const Value& defaultsTuple() const;
    mutable Value defaultsValue;
    mutable bool defaultsKnown = false;
    mutable Value closureValue;  // __closure__ (Interpreter::closureOf), made once: its cells read live
    mutable bool closureKnown = false;
    ScopePtr closure;
    ScopePtr globals;  // the module it was defined in (null: the script's)
    std::shared_ptr<DictObject> attributes;  // fn.attr = value (made on first use)
    std::shared_ptr<ClassCell> classCell;  // set when defined in a class body (super() reads it)
    // Whether tracing breaks the graph where it is called rather than inlining it, and in
    // which of Dynamo's words: torch._disable_dynamo (the library's Optimizer.zero_grad, as
    // PyTorch's), torch.compiler.disable (the user's, with its reason), or a library function
    // Fusescope does not trace yet (dynamoSkipReason says why).
    enum class DynamoSkip { No, Skipped, Disabled, Untraced };
    DynamoSkip dynamoSkip = DynamoSkip::No;
    std::string dynamoSkipReason;
    // Its code, a def's or a lambda's (what compiled frames are keyed by), and where it starts.
    const void* code() const;
    const SourceLocation& definedAt() const;
    std::string typeName() const override { return "function"; }
    const TypeSlots* slots() const override;
};

struct CallArgs {
    ValueList args;
    std::vector<std::pair<std::string, Value>> kwargs;
    SourceLocation where;
    // A traced call of a function the graph reached by a source: its __defaults__ (G['f'].__defaults__),
    // whose items name the defaults the call uses.
    SourcePtr defaultsSource;
    // ... and the function's own source (G['adam']): its free variables are read through it.
    SourcePtr calleeSource;
    const Value* kwarg(const std::string& name) const;
};

// A function implemented in C++: builtins, torch.* functions, methods bound to an object.
struct BuiltinFunction : Object {
    std::string name;  // for messages: "len", "torch.compile"
    std::function<Value(Interpreter&, CallArgs&)> call;
    std::string typeName() const override { return "builtin_function_or_method"; }
    const TypeSlots* slots() const override;
};

// A method stored in an object's attributes: reading the attribute binds it to the object
// (as Python makes a bound method), so the object does not hold itself in a cycle.
struct MethodObject : Object {
    std::string name;
    std::function<Value(Interpreter&, CallArgs&, const ObjectPtr& self)> call;
    std::string typeName() const override { return "method_descriptor"; }
};

// A namespace of attributes: the torch module, torch.nn.functional, torch._dynamo, ...
struct ModuleObject : Object {
    std::string name;
    std::map<std::string, Value, std::less<>> attrs;  // an engine or library module's names
    // Old names of attrs, read and set as the new ones (torch._dynamo.config.cache_size_limit
    // is recompile_limit).
    std::map<std::string, std::string, std::less<>> aliases;
    // A module of the script's own: its globals are its names (module.__dict__ is globals()).
    std::shared_ptr<Scope> globals;
    // Its class where it is a subclass of module's (torch._VF is a torch._VF.VFModule); "" for module.
    std::string moduleType;
    const Value* find(std::string_view attr) const;  // in globals or attrs; null when absent
    std::string typeName() const override { return moduleType.empty() ? "module" : moduleType; }
    const TypeSlots* slots() const override;
};

// A Python type usable in isinstance() and callable as a constructor: int, list, torch.Tensor.
struct TypeObject : Object {
    std::string name;  // "int", "Tensor"
    std::string module = "builtins";  // its __module__, and its repr's prefix past builtins ("torch.Size")
    std::function<Value(Interpreter&, CallArgs&)> construct;
    // What the type itself answers besides its name: its class methods (bytes.fromhex).
    std::map<std::string, Value, std::less<>> attrs;
    std::string typeName() const override { return "type"; }
    const TypeSlots* slots() const override;
    std::string qualifiedName() const { return module == "builtins" ? name : module + "." + name; }  // torch.Size, int
};

// What a `with` statement enters and exits (torch.profiler.record_function, ...).
struct ContextManagerObject : Object {
    std::string name;
    std::function<Value(Interpreter&)> enter;
    std::function<void(Interpreter&)> exit;
    std::map<std::string, Value, std::less<>> attrs;  // methods and attributes (torch.profiler.profile's step, ...)
    // Set where the manager also decorates (PyTorch's _DecoratorContextManager): a fresh
    // manager like this one, entered around each call of the decorated function.
    std::function<Value()> remake;
    std::string typeName() const override { return name; }
    const TypeSlots* slots() const override;
};

// An object with named attributes and a fixed printed form (explain()'s output, ...).
struct RecordObject : Object {
    std::string type;
    std::string text;  // str()
    std::map<std::string, Value, std::less<>> attrs;
    std::string typeName() const override { return type; }
    const TypeSlots* slots() const override;
};

// Bounds a walk over nested containers (printing, comparing, converting to op arguments):
// nesting deeper than Python's recursion limit raises RecursionError ("maximum recursion
// depth exceeded <what>") instead of overflowing the C++ stack.
class NestingGuard {
public:
    explicit NestingGuard(const char* what);
    ~NestingGuard();
    NestingGuard(const NestingGuard&) = delete;
    NestingGuard& operator=(const NestingGuard&) = delete;
};

// Python's repr() and str() of a value; print() uses str.
std::string valueRepr(const Value& value);
std::string valueStr(const Value& value);
// The repr slots' helpers: items' reprs joined with ", "; and a container's repr, body(),
// under the nesting limit, or `recursive` ("[...]") inside itself as in Python (null: no
// such marker).
std::string joinRepr(const ValueList& items);
std::string containerRepr(const Object* self, const char* recursive, const std::function<std::string()>& body);
std::string pythonTypeName(const Value& value);  // "int", "list", "Tensor"
// Python == for non-tensor values.
bool valuesEqual(const Value& a, const Value& b);

Value makeList(ValueList items);
Value makeTuple(ValueList items);
Value makeBuiltin(std::string name, std::function<Value(Interpreter&, CallArgs&)> fn);
Value makeType(std::string name, std::function<Value(Interpreter&, CallArgs&)> construct, std::string module = "builtins");
Value makeMethod(std::string name, std::function<Value(Interpreter&, CallArgs&, const ObjectPtr& self)> fn);
// The items of a list or tuple, or null.
const ValueList* sequenceItems(const Value& value);

}  // namespace fusescope

#include "script/value.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <optional>

#include <fmt/format.h>

#include "core/tensor_format.h"
#include "script/ast.h"
#include "script/object_model.h"
#include "script/python_hash.h"
#include "script/set_object.h"
#include "script/types/bytes_type.h"
#include "script/types/type_slots.h"

namespace fusescope {

std::string Source::str() const {
    switch (kind) {
    case Kind::Local: return "L['" + name + "']";
    case Kind::Global: return "G['" + name + "']";
    case Kind::Item: return base->str() + "[" + std::to_string(index) + "]";
    case Kind::Attr: return base->str() + "." + name;
    case Kind::Key: return base->str() + "['" + name + "']";
    case Kind::ObjectDict: return base->str() + ".__dict__";
    case Kind::Type: return "type(" + base->str() + ")";
    case Kind::TypeDict: return "dict(" + base->str() + ".__dict__)";
    case Kind::KeyAt: return base->str() + "[list(dict.keys(" + base->str() + "))[" + std::to_string(index) + "]]";
    case Kind::IntKey: return base->str() + "[" + std::to_string(index) + "]";
    case Kind::GlobalWeakRef: return "G['" + name + "']()";
    }
    return "?";
}

SourcePtr localSource(const std::string& name) {
    return std::make_shared<Source>(Source{Source::Kind::Local, name, 0, nullptr});
}
SourcePtr globalSource(const std::string& name) {
    return std::make_shared<Source>(Source{Source::Kind::Global, name, 0, nullptr});
}
SourcePtr itemSource(const SourcePtr& base, int64_t index) {
    return std::make_shared<Source>(Source{Source::Kind::Item, "", index, base});
}

SourcePtr attrSource(const SourcePtr& base, const std::string& name) {
    return std::make_shared<Source>(Source{Source::Kind::Attr, name, 0, base});
}

SourcePtr cellContentsSource(const SourcePtr& function, int64_t index, const std::string& variable) {
    auto cell = std::make_shared<Source>(Source{Source::Kind::Item, variable, index, attrSource(function, "__closure__")});
    return attrSource(cell, "cell_contents");
}

SourcePtr keySource(const SourcePtr& base, const std::string& key) {
    if (base->kind == Source::Kind::ObjectDict) return attrSource(base->base, key);
    return std::make_shared<Source>(Source{Source::Kind::Key, key, 0, base});
}

SourcePtr objectDictSource(const SourcePtr& base) {
    return std::make_shared<Source>(Source{Source::Kind::ObjectDict, "", 0, base});
}
SourcePtr typeSource(const SourcePtr& base) { return std::make_shared<Source>(Source{Source::Kind::Type, "", 0, base}); }
SourcePtr typeDictSource(const SourcePtr& base) {
    return std::make_shared<Source>(Source{Source::Kind::TypeDict, "", 0, base});
}
SourcePtr globalWeakRefSource(const std::string& name, const SourcePtr& reached) {
    return std::make_shared<Source>(Source{Source::Kind::GlobalWeakRef, name, 0, reached});
}

SourcePtr keyAtSource(const SourcePtr& base, int64_t position) {
    return std::make_shared<Source>(Source{Source::Kind::KeyAt, "", position, base});
}
SourcePtr mroEntrySource(const SourcePtr& instance, size_t index) {
    SourcePtr type = typeSource(instance);
    return index == 0 ? type : itemSource(attrSource(type, "__mro__"), static_cast<int64_t>(index));
}

SourcePtr intKeySource(const SourcePtr& base, int64_t key) { return std::make_shared<Source>(Source{Source::Kind::IntKey, "", key, base}); }

size_t KeyIndex::hashOf(std::string_view key) { return static_cast<size_t>(python_hash::ofString(key)); }

std::optional<size_t> KeyIndex::hashOf(const Value& key) {  // Python's (1 == 1.0 == True hash alike)
    if (key.isString()) return hashOf(std::string_view(key.asString()));
    if (key.isBool() || key.isInt()) return static_cast<size_t>(python_hash::ofInt(key.isBool() ? key.asBool() : key.asInt()));
    if (key.isFloat()) return static_cast<size_t>(python_hash::ofFloat(key.asFloat()));
    if (key.isNone()) return static_cast<size_t>(python_hash::ofNone());
    return std::nullopt;
}

std::optional<KeyIndex::Range> KeyIndex::candidates(const Value& key, size_t size, const KeyAt& keyAt) {
    return size < kFrom ? std::nullopt : candidatesFor(hashOf(key), size, keyAt);  // small: no hash to compute
}

std::optional<KeyIndex::Range> KeyIndex::candidates(std::string_view key, size_t size, const KeyAt& keyAt) {
    return size < kFrom ? std::nullopt : candidatesFor(hashOf(key), size, keyAt);
}

std::optional<KeyIndex::Range> KeyIndex::candidatesFor(std::optional<size_t> hash, size_t size, const KeyAt& keyAt) {
    if (!hash) return std::nullopt;
    if (indexed_ == 0 && linearLookups_ < 4) {
        ++linearLookups_;
        return std::nullopt;
    }
    if (indexed_ > size) reset();  // the keys were replaced by fewer
    for (; indexed_ < size && !unindexable_; ++indexed_) {
        std::optional<size_t> h = hashOf(keyAt(indexed_));
        if (h) index_.emplace(*h, indexed_);
        else unindexable_ = true;
    }
    if (unindexable_) return std::nullopt;
    return index_.equal_range(*hash);
}

void KeyIndex::remove(const Value& key, size_t position) {
    if (position >= indexed_) return;
    std::optional<size_t> hash = hashOf(key);
    if (!hash) return;
    auto [from, to] = index_.equal_range(*hash);
    for (auto it = from; it != to; ++it)
        if (it->second == position) {
            index_.erase(it);
            return;
        }
}

void KeyIndex::reset() {
    index_.clear();
    indexed_ = 0;
    unindexable_ = false;
    linearLookups_ = 0;
}

DictEntries& DictEntries::operator=(const DictEntries& o) {
    slots_ = o.slots_;
    holes_ = o.holes_;
    holeCount_ = o.holeCount_;
    moves_ = std::max(moves_, o.moves_) + 1;
    return *this;
}

void DictEntries::clear() {
    slots_.clear();
    holes_.clear();
    holeCount_ = 0;
    ++moves_;
}

void DictEntries::removeSlot(size_t slot) {
    holes_.resize(slots_.size(), false);
    holes_[slot] = true;
    ++holeCount_;
    slots_[slot] = Entry();  // releases the key and the value now, as Python does
    if (holeCount_ * 2 >= slots_.size()) compact();
}

void DictEntries::compact() const {
    if (holeCount_ == 0) return;
    size_t to = 0;
    for (size_t from = 0; from < slots_.size(); ++from)
        if (!isHole(from)) {
            if (to != from) slots_[to] = std::move(slots_[from]);  // not onto itself: that empties a Value
            ++to;
        }
    slots_.resize(to);
    holes_.clear();
    holeCount_ = 0;
    ++moves_;
}

template <class Key, class Same>
std::optional<size_t> DictObject::slotOf(const Key& key, const Same& same) {
    if (indexedMoves_ != items.moves()) {
        index_.reset();
        indexedMoves_ = items.moves();
    }
    auto keyAt = [this](size_t i) -> const Value& { return items.slot(i).first; };
    if (auto range = index_.candidates(key, items.slotCount(), keyAt)) {
        for (auto it = range->first; it != range->second; ++it)
            if (!items.isHole(it->second) && same(items.slot(it->second).first)) return it->second;
        return std::nullopt;
    }
    for (size_t i = 0; i < items.slotCount(); ++i)
        if (!items.isHole(i) && same(items.slot(i).first)) return i;
    return std::nullopt;
}

namespace {
bool sameString(const Value& k, std::string_view key) { return k.isString() && k.asString() == key; }
}  // namespace

Value* DictObject::find(const Value& key) {
    if (key.isString()) return findString(key.asString());
    std::optional<size_t> slot = slotOf(key, [&](const Value& k) { return valuesEqual(k, key); });
    return slot ? &items.slot(*slot).second : nullptr;
}

Value* DictObject::findString(std::string_view key) {
    std::optional<size_t> slot = slotOf(key, [&](const Value& k) { return sameString(k, key); });
    return slot ? &items.slot(*slot).second : nullptr;
}

void DictObject::clear() {
    items.clear();
    index_.reset();
}

void DictObject::set(const Value& key, Value value) {
    if (Value* slot = find(key)) *slot = std::move(value);
    else items.emplace_back(key.unsourced(), std::move(value));
}

bool DictObject::erase(const Value& key) {
    std::optional<size_t> slot;
    if (key.isString()) {
        std::string_view text = key.asString();
        slot = slotOf(text, [&](const Value& k) { return sameString(k, text); });
    } else {
        slot = slotOf(key, [&](const Value& k) { return valuesEqual(k, key); });
    }
    if (!slot) return false;
    index_.remove(items.slot(*slot).first, *slot);
    items.removeSlot(*slot);
    return true;
}

namespace {
std::atomic<uint64_t> nextSerial{1};
}  // namespace

uint64_t CreationSerial::next() { return nextSerial.fetch_add(1, std::memory_order_relaxed); }
uint64_t CreationSerial::upcoming() { return nextSerial.load(std::memory_order_relaxed); }

namespace {
std::atomic<uint64_t> definitions{0};
}  // namespace

uint64_t definitionsVersion() { return definitions.load(std::memory_order_relaxed); }
void definitionsChanged() { definitions.fetch_add(1, std::memory_order_relaxed); }

namespace {
constexpr int kMaxNesting = 1000;  // Python's default recursion limit
thread_local int nestingDepth = 0;
}  // namespace

NestingGuard::NestingGuard(const char* what) {
    if (nestingDepth >= kMaxNesting) throw ScriptError("RecursionError", std::string("maximum recursion depth exceeded ") + what);
    ++nestingDepth;
}

NestingGuard::~NestingGuard() { --nestingDepth; }

int64_t RangeObject::length() const {
    // In unsigned arithmetic: the distance between two int64s may not fit in one.
    auto count = [](int64_t from, int64_t to, uint64_t stride) -> int64_t {
        uint64_t n = (static_cast<uint64_t>(to) - static_cast<uint64_t>(from) - 1) / stride + 1;
        return n > static_cast<uint64_t>(INT64_MAX) ? INT64_MAX : static_cast<int64_t>(n);
    };
    if (step > 0) return stop > start ? count(start, stop, static_cast<uint64_t>(step)) : 0;
    return start > stop ? count(stop, start, 0 - static_cast<uint64_t>(step)) : 0;
}

const Value* CallArgs::kwarg(const std::string& name) const {
    for (const auto& [k, v] : kwargs)
        if (k == name) return &v;
    return nullptr;
}

namespace {

std::string stringRepr(const std::string& s) {
    bool hasSingle = s.find('\'') != std::string::npos;
    bool hasDouble = s.find('"') != std::string::npos;
    char quote = (hasSingle && !hasDouble) ? '"' : '\'';
    std::string out(1, quote);
    for (unsigned char c : s) {
        switch (c) {
        case '\\': out += "\\\\"; break;
        case '\n': out += "\\n"; break;
        case '\r': out += "\\r"; break;
        case '\t': out += "\\t"; break;
        default:
            if (c == static_cast<unsigned char>(quote)) {
                out += '\\';
                out += static_cast<char>(c);
            } else if (c < 0x20 || c == 0x7f) {
                out += fmt::format("\\x{:02x}", c);
            } else {
                out += static_cast<char>(c);
            }
        }
    }
    return out + quote;
}

// The containers being printed on this thread, outermost first.
thread_local std::vector<const Object*> reprInProgress;

}  // namespace

std::string containerRepr(const Object* self, const char* recursive, const std::function<std::string()>& body) {
    if (recursive && std::find(reprInProgress.begin(), reprInProgress.end(), self) != reprInProgress.end()) return recursive;
    NestingGuard nesting("while getting the repr of an object");
    reprInProgress.push_back(self);
    struct Pop {
        ~Pop() { reprInProgress.pop_back(); }
    } pop;
    return body();
}

std::string joinRepr(const ValueList& items) {
    std::string out;
    for (size_t i = 0; i < items.size(); ++i) {
        if (i) out += ", ";
        out += valueRepr(items[i]);
    }
    return out;
}

std::string valueRepr(const Value& value) {
    struct Visitor {
        std::string operator()(const None&) const { return "None"; }
        std::string operator()(bool b) const { return b ? "True" : "False"; }
        std::string operator()(int64_t i) const { return std::to_string(i); }
        std::string operator()(const SymbolicIntPtr& i) const { return std::to_string(i->specialized()); }
        std::string operator()(const SymbolicFloatPtr& d) const { return formatPythonFloat(d->specialized()); }
        std::string operator()(double d) const { return formatPythonFloat(d); }
        std::string operator()(const std::string& s) const { return stringRepr(s); }
        std::string operator()(const Tensor& t) const {
            return t.defined() && t.impl()->isParameter ? "Parameter containing:\n" + tensorRepr(t) : tensorRepr(t);
        }
        std::string operator()(DType d) const { return std::string(dtypeName(d)); }
        std::string operator()(const Device& d) const { return "device(type='" + d.str() + "')"; }
        std::string operator()(const ObjectPtr& o) const {
            if (const TypeSlots* type = o->slots(); type->repr) return type->repr(Value(o));
            return "<" + o->typeName() + " object>";
        }
    };
    return std::visit(Visitor{}, value.v);
}

std::string valueStr(const Value& value) {
    if (value.isString()) return value.asString();
    if (value.isDevice()) return value.asDevice().str();
    if (value.isObject())
        if (const TypeSlots* type = value.asObject()->slots(); type->str) return type->str(value);
    return valueRepr(value);
}

std::string pythonTypeName(const Value& value) {
    struct Visitor {
        std::string operator()(const None&) const { return "NoneType"; }
        std::string operator()(bool) const { return "bool"; }
        std::string operator()(int64_t) const { return "int"; }
        std::string operator()(const SymbolicIntPtr&) const { return "int"; }
        std::string operator()(const SymbolicFloatPtr&) const { return "float"; }
        std::string operator()(double) const { return "float"; }
        std::string operator()(const std::string&) const { return "str"; }
        std::string operator()(const Tensor&) const { return "Tensor"; }
        std::string operator()(DType) const { return "dtype"; }
        std::string operator()(const Device&) const { return "device"; }
        std::string operator()(const ObjectPtr& o) const { return o->typeName(); }
    };
    return std::visit(Visitor{}, value.v);
}

bool valuesEqual(const Value& a, const Value& b) {
    if (a.symbolic() && b.symbolic() && (*a.symbolic())->sameAs(**b.symbolic())) return true;  // x.shape == y.shape, unguarded
    if (a.isNumber() && b.isNumber()) {
        if (a.isFloat() || b.isFloat()) {
            double x = a.isFloat() ? a.asFloat() : static_cast<double>(a.isBool() ? a.asBool() : a.asInt());
            double y = b.isFloat() ? b.asFloat() : static_cast<double>(b.isBool() ? b.asBool() : b.asInt());
            return x == y;
        }
        int64_t x = a.isBool() ? a.asBool() : a.asInt();
        int64_t y = b.isBool() ? b.asBool() : b.asInt();
        return x == y;
    }
    if (a.as<InstanceObject>() || b.as<InstanceObject>()) return instanceEquals(a, b);
    if (a.isNone() || b.isNone()) return a.isNone() && b.isNone();
    if (a.isString() && b.isString()) return a.asString() == b.asString();
    if (const std::string *x = bytesData(a), *y = bytesData(b); x && y) return *x == *y;
    if (const auto *x = a.as<SetObject>(), *y = b.as<SetObject>(); x && y && x != y) {  // (frozen)sets: the same elements
        if (x->size() != y->size()) return false;
        bool same = true;
        x->forEach([&](const Value& key, int64_t hash) { same = same && y->contains(key, hash); });
        return same;
    }
    if (a.isDType() && b.isDType()) return a.asDType() == b.asDType();
    if (a.isDevice() && b.isDevice()) return a.asDevice() == b.asDevice();
    // Python compares a container with itself as equal without looking inside, so a list
    // holding itself equals itself.
    if (a.isObject() && b.isObject() && a.asObject() == b.asObject()) return true;
    const ValueList* x = sequenceItems(a);
    const ValueList* y = sequenceItems(b);
    if (x && y) {
        NestingGuard nesting("in comparison");
        // torch.Size is a tuple: it equals a tuple with the same items.
        auto kind = [](const Value& v) { return v.as<ListObject>() ? "list" : "tuple"; };
        if (std::string(kind(a)) != kind(b) || x->size() != y->size()) return false;
        for (size_t i = 0; i < x->size(); ++i)
            if (!valuesEqual((*x)[i], (*y)[i])) return false;
        return true;
    }
    auto* left = a.as<DictObject>();
    auto* right = b.as<DictObject>();
    if (left && right) {  // the same keys with equal values; two OrderedDicts in the same order too
        NestingGuard nesting("in comparison");
        if (left->items.size() != right->items.size()) return false;
        const bool ordered = a.as<OrderedDictObject>() && b.as<OrderedDictObject>();
        size_t position = 0;
        for (const auto& [key, value] : left->items) {
            if (ordered && !valuesEqual(right->items[position++].first, key)) return false;
            const Value* other = right->find(key);
            if (!other || !valuesEqual(value, *other)) return false;
        }
        return true;
    }
    if (a.isObject() && b.isObject()) return a.asObject() == b.asObject();
    if (a.isTensor() && b.isTensor()) return a.asTensor().impl() == b.asTensor().impl();
    return false;
}

const void* FunctionObject::code() const { return def ? static_cast<const void*>(def) : static_cast<const void*>(lambda); }
const SourceLocation& FunctionObject::definedAt() const { return def ? def->loc : lambda->loc; }

Value makeList(ValueList items) {
    auto list = std::make_shared<ListObject>();
    list->items = std::move(items);
    return Value(ObjectPtr(list));
}

Value makeTuple(ValueList items) {
    auto tuple = std::make_shared<TupleObject>();
    tuple->items = std::move(items);
    return Value(ObjectPtr(tuple));
}

Value makeBuiltin(std::string name, std::function<Value(Interpreter&, CallArgs&)> fn) {
    auto b = std::make_shared<BuiltinFunction>();
    b->name = std::move(name);
    b->call = std::move(fn);
    return Value(ObjectPtr(b));
}

Value makeType(std::string name, std::function<Value(Interpreter&, CallArgs&)> construct, std::string module) {
    auto t = std::make_shared<TypeObject>();
    t->name = std::move(name);
    t->module = std::move(module);
    t->construct = std::move(construct);
    return Value(ObjectPtr(t));
}

Value makeMethod(std::string name, std::function<Value(Interpreter&, CallArgs&, const ObjectPtr& self)> fn) {
    auto m = std::make_shared<MethodObject>();
    m->name = std::move(name);
    m->call = std::move(fn);
    return Value(ObjectPtr(m));
}

const ValueList* sequenceItems(const Value& value) {
    if (auto* list = value.as<ListObject>()) return &list->items;
    if (auto* tuple = value.as<TupleObject>()) return &tuple->items;
    return nullptr;
}

}  // namespace fusescope

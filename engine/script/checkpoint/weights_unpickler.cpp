// The weights-only unpickler (weights_unpickler.h): a pickle machine over a stack of Values,
// with the opcodes of torch/_weights_only_unpickler.py and its refusals, and the globals it
// allows rebuilt natively (SafeGlobal).
#include "script/checkpoint/weights_unpickler.h"

#include <bit>
#include <cstring>
#include <map>
#include <unordered_map>

#include <fmt/format.h>

#include "script/interpreter.h"
#include "script/set_object.h"
#include "script/set_operations.h"
#include "script/text_codecs.h"
#include "script/types/bytes_type.h"

namespace fusescope {

namespace {

// What a global the pickle names is rebuilt as.
enum class SafeGlobal {
    OrderedDict,
    RebuildTensor,       // torch._utils._rebuild_tensor(_v2)
    RebuildParameter,    // torch._utils._rebuild_parameter(_with_state)
    RebuildFromType,     // torch._tensor._rebuild_from_type_v2: a Tensor or Parameter
    TensorType,          // torch.Tensor
    ParameterType,       // torch.nn.parameter.Parameter
    Size,
    Device,
    CodecsEncode,        // _codecs.encode: bytes, as protocol 2 spells them
    Set,
    ByteArray,
    StorageType,         // torch.FloatStorage, ...
    DTypeValue,          // torch.float32, ...
};

// A global on the stack: never seen by the script, only by REDUCE, NEWOBJ and the
// persistent id of a storage.
struct GlobalObject : Object {
    SafeGlobal kind;
    std::string path;
    DType dtype = DType::Float32;  // of a storage type or a dtype
    GlobalObject(SafeGlobal k, std::string p, DType d) : kind(k), path(std::move(p)), dtype(d) {}
    std::string typeName() const override { return "global"; }
};

std::optional<GlobalObject> safeGlobal(const std::string& path) {
    static const std::map<std::string, SafeGlobal, std::less<>> named = {
        {"collections.OrderedDict", SafeGlobal::OrderedDict},
        {"torch._utils._rebuild_tensor", SafeGlobal::RebuildTensor},
        {"torch._utils._rebuild_tensor_v2", SafeGlobal::RebuildTensor},
        {"torch._utils._rebuild_parameter", SafeGlobal::RebuildParameter},
        {"torch._utils._rebuild_parameter_with_state", SafeGlobal::RebuildParameter},
        {"torch._tensor._rebuild_from_type_v2", SafeGlobal::RebuildFromType},
        {"torch.Tensor", SafeGlobal::TensorType},
        {"torch.nn.parameter.Parameter", SafeGlobal::ParameterType},
        {"torch.Size", SafeGlobal::Size},
        {"torch.device", SafeGlobal::Device},
        {"_codecs.encode", SafeGlobal::CodecsEncode},
        {"builtins.set", SafeGlobal::Set},
        {"builtins.bytearray", SafeGlobal::ByteArray},
    };
    if (auto it = named.find(path); it != named.end()) return GlobalObject(it->second, path, DType::Float32);
    for (DType dtype : {DType::Bool, DType::Int32, DType::Int64, DType::Float16, DType::BFloat16, DType::Float32, DType::Float64,
                        DType::Complex64, DType::Complex128}) {
        if (path == dtypeName(dtype)) return GlobalObject(SafeGlobal::DTypeValue, path, dtype);
        if (path == fmt::format("torch.{}Storage", dtypeScalarName(dtype))) return GlobalObject(SafeGlobal::StorageType, path, dtype);
    }
    return std::nullopt;
}

// A global PyTorch's weights-only unpickler allows but Fusescope cannot rebuild: a dtype or
// storage it has no tensors of (uint8, int8, ...), quantized or sparse tensors,
// Counter, complex numbers.
bool pytorchAllowsOnly(const std::string& path) {
    if (path == "collections.Counter" || path == "builtins.complex") return true;
    if (path.rfind("torch._utils._rebuild_", 0) == 0) return true;
    if (path.rfind("torch.", 0) != 0) return false;
    const std::string name = path.substr(6);
    if (name.find('.') != std::string::npos) return false;
    const bool storage = name.size() > 7 && name.ends_with("Storage");
    const bool dtypeLike = !name.empty() && std::all_of(name.begin(), name.end(), [](char c) { return std::islower(static_cast<unsigned char>(c)) || std::isdigit(static_cast<unsigned char>(c)) || c == '_'; });
    return storage || dtypeLike;
}

class Unpickler {
public:
    Unpickler(Interpreter& in, std::string_view data, const StorageLoader& loadStorage)
        : in_(in), data_(data), loadStorage_(loadStorage) {}

    Value load() {
        for (;;) {
            const auto op = static_cast<unsigned char>(take(1)[0]);
            if (op == '.') return finish();
            step(op);
        }
    }

private:
    [[noreturn]] void refuse(const std::string& message) const { in_.fail(kUnpicklingError, message); }

    std::string_view take(size_t n) {
        if (n > data_.size() - at_) refuse("pickle data was truncated");
        std::string_view bytes = data_.substr(at_, n);
        at_ += n;
        return bytes;
    }
    uint32_t littleEndian(size_t n) {
        std::string_view bytes = take(n);
        uint32_t v = 0;
        for (size_t i = 0; i < n; ++i) v |= uint32_t(static_cast<unsigned char>(bytes[i])) << (8 * i);
        return v;
    }
    std::string line() {
        const size_t end = data_.find('\n', at_);
        if (end == std::string_view::npos) refuse("pickle data was truncated");
        std::string text(data_.substr(at_, end - at_));
        at_ = end + 1;
        return text;
    }

    // The stack above the innermost MARK is all an opcode may take (as Python's unpickler,
    // which starts a new stack at each MARK).
    size_t floor() const { return marks_.empty() ? 0 : marks_.back(); }
    Value pop() {
        if (stack_.size() <= floor()) refuse("unpickling stack underflow");
        Value v = std::move(stack_.back());
        stack_.pop_back();
        return v;
    }
    Value& top() {
        if (stack_.size() <= floor()) refuse("unpickling stack underflow");
        return stack_.back();
    }
    ValueList popMark() {
        if (marks_.empty()) refuse("could not find MARK");
        ValueList items(std::make_move_iterator(stack_.begin() + static_cast<std::ptrdiff_t>(marks_.back())),
                        std::make_move_iterator(stack_.end()));
        stack_.resize(marks_.back());
        marks_.pop_back();
        return items;
    }

    Value finish() {
        Value result = pop();
        if (!stack_.empty() || !marks_.empty()) refuse("the pickle left objects on its stack: the data is corrupt");
        return result;
    }

    void step(unsigned char op) {
        switch (op) {
        case 0x80: take(1); return;  // PROTO: torch.save writes 2; the opcodes below say what is read
        case '(': marks_.push_back(stack_.size()); return;
        case 'N': stack_.emplace_back(); return;
        case 0x88: stack_.emplace_back(true); return;
        case 0x89: stack_.emplace_back(false); return;
        case 'K': stack_.emplace_back(int64_t(littleEndian(1))); return;
        case 'M': stack_.emplace_back(int64_t(littleEndian(2))); return;
        case 'J': stack_.emplace_back(int64_t(static_cast<int32_t>(littleEndian(4)))); return;
        case 0x8a: stack_.push_back(long1()); return;
        case 'G': {
            uint64_t bits = 0;
            for (char c : take(8)) bits = bits << 8 | static_cast<unsigned char>(c);
            stack_.emplace_back(std::bit_cast<double>(bits));
            return;
        }
        case 'X': stack_.emplace_back(std::string(take(littleEndian(4)))); return;
        case 'U': stack_.emplace_back(std::string(take(littleEndian(1)))); return;  // SHORT_BINSTRING
        case ')': pushContainer(makeTuple({})); return;
        case ']': pushContainer(makeList({})); return;
        case '}': pushContainer(Value(ObjectPtr(std::make_shared<DictObject>()))); return;
        case 0x8f: pushContainer(Value(ObjectPtr(std::make_shared<SetObject>()))); return;
        case 't': pushTuple(popMark()); return;
        case 0x85: case 0x86: case 0x87: {
            const size_t n = op - 0x84u;
            if (stack_.size() < n + floor()) refuse("unpickling stack underflow");
            ValueList items(stack_.end() - static_cast<std::ptrdiff_t>(n), stack_.end());
            stack_.resize(stack_.size() - n);
            pushTuple(std::move(items));
            return;
        }
        case 'q': memo_[littleEndian(1)] = top(); return;
        case 'r': memo_[littleEndian(4)] = top(); return;
        case 'h': stack_.push_back(memoAt(littleEndian(1))); return;
        case 'j': stack_.push_back(memoAt(littleEndian(4))); return;
        case 'a': {
            Value item = pop();
            nest(top(), item);
            listTarget("append to")->items.push_back(std::move(item));
            return;
        }
        case 'e': {
            ValueList items = popMark();
            for (const Value& item : items) nest(top(), item);
            auto& list = listTarget("extend")->items;
            list.insert(list.end(), std::make_move_iterator(items.begin()), std::make_move_iterator(items.end()));
            return;
        }
        case 's': {
            Value value = pop(), key = pop();
            setItem(dictTarget("SETITEM"), key, std::move(value));
            return;
        }
        case 'u': {
            ValueList items = popMark();
            if (items.size() % 2) refuse("SETITEMS needs key and value pairs: the data is corrupt");
            DictObject& dict = dictTarget("SETITEMS");
            for (size_t i = 0; i < items.size(); i += 2) setItem(dict, items[i], std::move(items[i + 1]));
            return;
        }
        case 'c': global(); return;
        case 'R': reduce(); return;
        case 0x81: newObject(); return;
        case 'b': build(); return;
        case 'Q': persistentLoad(); return;
        default: refuse(fmt::format("Unsupported operand {}", op));
        }
    }

    Value long1() {
        const size_t n = littleEndian(1);
        std::string_view bytes = take(n);
        if (n > 8) refuse("an integer of more than 64 bits in the checkpoint: Fusescope's ints are 64-bit");
        uint64_t v = 0;
        for (size_t i = 0; i < n; ++i) v |= uint64_t(static_cast<unsigned char>(bytes[i])) << (8 * i);
        if (n > 0 && n < 8 && (static_cast<unsigned char>(bytes[n - 1]) & 0x80)) v |= ~uint64_t{0} << (8 * n);  // sign
        return Value(static_cast<int64_t>(v));
    }

    const Value& memoAt(uint32_t index) const {
        auto it = memo_.find(index);
        if (it == memo_.end()) refuse(fmt::format("Memo value not found at index {}", index));
        return it->second;
    }

    ListObject* listTarget(const char* what) {
        auto* list = top().as<ListObject>();
        if (!list || top().as<DictViewObject>()) refuse(fmt::format("Can only {} lists, but got {}", what, typeText(top())));
        return list;
    }
    DictObject& dictTarget(const char* opcode) {
        auto* dict = top().as<DictObject>();
        if (!dict || top().as<DefaultDictObject>())
            refuse(fmt::format("Can only {} for dict, collections.OrderedDict, collections.Counter, but got {}", opcode, typeText(top())));
        return *dict;
    }
    void setItem(DictObject& dict, const Value& key, Value value) {
        hashOf(in_, key);  // an unhashable key (a list) is refused as a dict refuses it
        nest(top(), value);
        dict.set(key, std::move(value));
    }

    // Containers nest at most kMaxDepth deep, as deep as CPython's pickler can write: a
    // hostile pickle nesting a million lists (two bytes a level) would otherwise overflow
    // the C++ stack when it is printed or freed.
    static constexpr uint32_t kMaxDepth = 1000;
    uint32_t depthOf(const Value& v) const {
        auto it = v.isObject() ? depth_.find(v.asObject().get()) : depth_.end();
        return it == depth_.end() ? 0 : it->second;
    }
    void nest(const Value& container, const Value& item) {
        if (!container.isObject()) return;
        uint32_t& depth = depth_[container.asObject().get()];
        depth = std::max(depth, depthOf(item) + 1);
        if (depth > kMaxDepth) refuse(fmt::format("containers nested more than {} deep: the data is corrupt or hostile", kMaxDepth));
    }
    void pushContainer(Value container) {
        depth_[container.asObject().get()] = 1;  // the address may be a freed container's
        stack_.push_back(std::move(container));
    }
    void pushTuple(ValueList items) {
        pushContainer(makeTuple({}));
        for (const Value& item : items) nest(stack_.back(), item);
        stack_.back().as<TupleObject>()->items = std::move(items);
    }
    static std::string typeText(const Value& v) { return "<class '" + pythonTypeName(v) + "'>"; }

    void global() {
        std::string module = line(), name = line();
        if (module == "__builtin__") module = "builtins";  // Python 2's name, which protocol 2 keeps
        const std::string path = module + "." + name;
        for (const char* blocked : {"sys", "os", "posix", "nt"})
            if (module == blocked) refuse(fmt::format("Trying to load unsupported GLOBAL {} whose module {} is blocked.", path, module));
        if (auto g = safeGlobal(path)) {
            if (g->kind == SafeGlobal::DTypeValue) return stack_.emplace_back(g->dtype), void();
            stack_.push_back(Value(ObjectPtr(std::make_shared<GlobalObject>(std::move(*g)))));
            return;
        }
        if (pytorchAllowsOnly(path))
            refuse(fmt::format("the checkpoint holds {}, which Fusescope cannot load yet (it loads tensors of "
                               "float32, float64, float16, bfloat16, int64, int32 and bool, and the containers a "
                               "state dict is made of)",
                               path));
        std::string shown = path;  // PyTorch names builtins without their module
        if (module == "builtins") shown = name;
        refuse(fmt::format("Unsupported global: GLOBAL {0} was not an allowed global by default. Please use "
                           "`torch.serialization.add_safe_globals([{0}])` or the `torch.serialization.safe_globals([{0}])` "
                           "context manager to allowlist this global if you trust this class/function.",
                           shown));
    }

    void reduce() {
        Value argsValue = pop();
        const auto* args = argsValue.as<TupleObject>();
        auto* g = top().as<GlobalObject>();
        if (!g) refuse(fmt::format("Trying to call reduce for unrecognized function {}", valueRepr(top())));
        if (!args) refuse(fmt::format("the arguments of {} are not a tuple: the data is corrupt", g->path));
        top() = call(*g, args->items);
    }

    void newObject() {
        Value argsValue = pop();
        Value cls = pop();
        auto* g = cls.as<GlobalObject>();
        const auto* args = argsValue.as<TupleObject>();
        if (!g || g->kind != SafeGlobal::ParameterType || !args)
            refuse(fmt::format("Can only create new object for nn.Parameter or classes allowlisted via `add_safe_globals` but got {}",
                               g ? g->path : valueRepr(cls)));
        stack_.push_back(parameter(args->items.empty() ? Value() : args->items[0], args->items.size() < 2 || in_.truthy(args->items[1])));
    }

    // BUILD: an OrderedDict's state ({'_metadata': ...}, the versions of each module's
    // entries) is dropped: Fusescope's state dicts carry none; a Parameter's empty state.
    void build() {
        Value state = pop();
        const Value& inst = top();
        if (inst.as<OrderedDictObject>() && state.as<DictObject>()) return;
        if (inst.isTensor() && inst.asTensor().impl()->isParameter && (state.isNone() || isEmpty(state))) return;
        refuse(fmt::format("Can only build Tensor, Parameter, OrderedDict or types allowlisted via `add_safe_globals`, but got {}",
                           typeText(inst)));
    }
    static bool isEmpty(const Value& v) {
        if (auto* d = v.as<DictObject>()) return d->items.empty();
        if (auto* t = v.as<TupleObject>()) return std::all_of(t->items.begin(), t->items.end(), [](const Value& x) { return x.isNone() || isEmpty(x); });
        return false;
    }

    void persistentLoad() {
        Value pid = pop();
        const auto* id = pid.as<TupleObject>();
        if (!id) refuse(fmt::format("persistent_load id must be tuple or int, but got {}", typeText(pid)));
        const ValueList& f = id->items;
        if (f.empty() || !f[0].isString() || f[0].asString() != "storage")
            refuse("Only persistent_load of storage is allowed, but got " + (f.empty() ? std::string("nothing") : typeText(f[0])));
        auto* type = f.size() == 5 ? f[1].as<GlobalObject>() : nullptr;
        if (!type || type->kind != SafeGlobal::StorageType || !f[2].isString() || !f[3].isString() || !f[4].isInt() || f[4].asInt() < 0)
            refuse("a storage's persistent id is not ('storage', type, key, location, numel): the data is corrupt");
        auto [it, fresh] = storages_.try_emplace(f[2].asString());
        if (fresh) it->second = loadStorage_(f[2].asString(), type->dtype, f[3].asString(), f[4].asInt());
        else if (it->second.dtype() != type->dtype) refuse(fmt::format("storage '{}' is named with two dtypes: the data is corrupt", f[2].asString()));
        stack_.push_back(Value(it->second));
    }

    Value call(const GlobalObject& g, const ValueList& a) {
        switch (g.kind) {
        case SafeGlobal::OrderedDict:
            if (!a.empty()) refuse("collections.OrderedDict with arguments: torch.save writes none");
            return Value(ObjectPtr(std::make_shared<OrderedDictObject>()));
        case SafeGlobal::RebuildTensor: return rebuildTensor(a);
        case SafeGlobal::RebuildParameter:
            if (a.size() < 3 || !a[0].isTensor() || !a[1].isBool()) refuse("_rebuild_parameter takes (data, requires_grad, backward_hooks)");
            noHooks(a[2]);
            if (a.size() > 3 && !isEmpty(a[3])) refuse("a Parameter with attributes of its own: Fusescope cannot load it yet");
            return parameter(a[0], a[1].asBool());
        case SafeGlobal::RebuildFromType: {
            // (func, type, args, state): func(*args), as a Tensor or a Parameter without attributes.
            auto* func = a.size() == 4 ? a[0].as<GlobalObject>() : nullptr;
            auto* type = a.size() == 4 ? a[1].as<GlobalObject>() : nullptr;
            auto* args = a.size() == 4 ? a[2].as<TupleObject>() : nullptr;
            if (!func || !type || !args || (type->kind != SafeGlobal::TensorType && type->kind != SafeGlobal::ParameterType))
                refuse("_rebuild_from_type_v2 of a tensor subclass: Fusescope cannot load it yet");
            if (!a[3].isNone() && !isEmpty(a[3])) refuse("a tensor with attributes of its own: Fusescope cannot load it yet");
            Value t = call(*func, args->items);
            return type->kind == SafeGlobal::ParameterType ? parameter(t, t.isTensor() && t.asTensor().requiresGrad()) : t;
        }
        case SafeGlobal::Size: {
            const ValueList* dims = a.size() == 1 ? sequenceItems(a[0]) : nullptr;
            if (!dims || !std::all_of(dims->begin(), dims->end(), [](const Value& d) { return d.isInt(); }))
                refuse("torch.Size takes one tuple of ints");
            auto size = std::make_shared<SizeObject>();
            size->items = *dims;
            return Value(ObjectPtr(size));
        }
        case SafeGlobal::Device: {
            if (a.empty() || !a[0].isString() || a.size() > 2 || (a.size() == 2 && !a[1].isInt())) refuse("torch.device takes a type and an index");
            std::string spec = a[0].asString() + (a.size() == 2 ? ":" + std::to_string(a[1].asInt()) : "");
            auto device = Device::parse(spec);
            if (!device) refuse("a device Fusescope does not know: " + spec);
            return Value(*device);
        }
        case SafeGlobal::CodecsEncode:
            if (a.size() != 2 || !a[0].isString() || !a[1].isString()) refuse("_codecs.encode takes (str, encoding)");
            return makeBytes(encodeText(in_, a[0].asString(), a[1].asString(), "strict"));
        case SafeGlobal::Set: {
            auto set = std::make_shared<SetObject>();
            const ValueList* items = a.size() == 1 ? sequenceItems(a[0]) : nullptr;
            if (!a.empty() && !items) refuse("builtins.set takes one list");
            if (items)
                for (const Value& item : *items) set->add(item, hashOf(in_, item));
            return Value(ObjectPtr(set));
        }
        case SafeGlobal::ByteArray: {
            const std::string* bytes = a.size() == 1 ? bytesData(a[0]) : nullptr;
            if (!a.empty() && !bytes) refuse("builtins.bytearray takes one bytes");
            return makeBytes(bytes ? *bytes : std::string(), true);
        }
        case SafeGlobal::TensorType:
        case SafeGlobal::ParameterType:
        case SafeGlobal::StorageType:
        case SafeGlobal::DTypeValue: break;  // not callable (a dtype is never on the stack as a global)
        }
        refuse(fmt::format("Trying to call reduce for unrecognized function {}", g.path));
    }

    void noHooks(const Value& hooks) {
        if (!hooks.isNone() && !isEmpty(hooks)) refuse("a tensor saved with backward hooks: Fusescope cannot load them");
    }

    Value parameter(const Value& data, bool requiresGrad) {
        if (!data.isTensor()) refuse("nn.Parameter of something that is not a tensor: the data is corrupt");
        auto impl = std::make_shared<TensorImpl>(*data.asTensor().impl());
        impl->autograd = {};
        impl->requiresGrad = requiresGrad;
        impl->isParameter = true;
        return Value(Tensor(impl));
    }

    // _rebuild_tensor_v2(storage, storage_offset, size, stride, requires_grad, backward_hooks[,
    // metadata]); _rebuild_tensor without the last three. A view with elements must lie
    // inside the storage, checked before it is made (PyTorch's setStorage words).
    Value rebuildTensor(const ValueList& a) {
        const ValueList* size = a.size() >= 4 ? sequenceItems(a[2]) : nullptr;
        const ValueList* stride = a.size() >= 4 ? sequenceItems(a[3]) : nullptr;
        if (!size || !stride || !a[0].isTensor() || !a[1].isInt() || size->size() != stride->size())
            refuse("_rebuild_tensor_v2 takes (storage, storage_offset, size, stride, requires_grad, backward_hooks)");
        Shape sizes, strides;
        for (size_t i = 0; i < size->size(); ++i) {
            if (!(*size)[i].isInt() || !(*stride)[i].isInt() || (*size)[i].asInt() < 0 || (*stride)[i].asInt() < 0)
                refuse("a tensor's size and stride must be non-negative ints: the data is corrupt");
            sizes.push_back((*size)[i].asInt());
            strides.push_back((*stride)[i].asInt());
        }
        const Tensor& storage = a[0].asTensor();
        const int64_t offset = a[1].asInt();
        // Elements the view reaches: offset + 1 + sum((size-1) * stride), none when empty.
        bool empty = std::any_of(sizes.begin(), sizes.end(), [](int64_t s) { return s == 0; });
        int64_t needed = offset;
        bool overflow = offset < 0;
        if (!empty) {
            overflow = overflow || __builtin_add_overflow(needed, 1, &needed);
            for (size_t i = 0; i < sizes.size(); ++i) {
                int64_t reach = 0;
                overflow = overflow || __builtin_mul_overflow(sizes[i] - 1, strides[i], &reach) || __builtin_add_overflow(needed, reach, &needed);
            }
        }
        const auto itemsize = static_cast<int64_t>(dtypeSize(storage.dtype()));
        // An empty view may lie anywhere (PyTorch checks no bounds for it).
        if (!empty && (overflow || needed > storage.numel()))
            in_.fail("RuntimeError", fmt::format("setStorage: sizes [{}], strides [{}], storage offset {}, and itemsize {} requiring a "
                                                 "storage size of {} are out of bounds for storage of size {}",
                                                 fmt::join(sizes, ", "), fmt::join(strides, ", "), offset, itemsize,
                                                 overflow ? std::string("more than 2^63") : std::to_string(needed * itemsize),
                                                 storage.numel() * itemsize));
        if (a.size() >= 6) noHooks(a[5]);
        Tensor t = storage.asStrided(sizes, strides, offset);
        t.setRequiresGrad(a.size() >= 5 && in_.truthy(a[4]));
        return Value(t);
    }

    Interpreter& in_;
    std::string_view data_;
    size_t at_ = 0;
    const StorageLoader& loadStorage_;
    ValueList stack_;
    std::vector<size_t> marks_;  // where each open MARK began on the stack
    std::unordered_map<uint32_t, Value> memo_;
    std::map<std::string, Tensor> storages_;  // by key: tensors naming one key share it
    std::unordered_map<const Object*, uint32_t> depth_;  // of each container made here
};

}  // namespace

Value unpickleWeights(Interpreter& in, std::string_view pickle, const StorageLoader& loadStorage) {
    return Unpickler(in, pickle, loadStorage).load();
}

}  // namespace fusescope

// torch.save's pickler (torch_pickler.h): Python's protocol-2 opcodes for each value torch.save
// meets in a state dict or optimizer state, and torch's reduce of tensors, Parameters, Size,
// device and dtype. Objects and global names are memoized (BINPUT), so a tensor or list met
// twice is loaded as one object, as Python's pickler keeps it.
#include "script/checkpoint/torch_pickler.h"

#include <bit>
#include <map>

#include <fmt/format.h>

#include "script/interpreter.h"
#include "script/set_object.h"
#include "script/types/bytes_type.h"
#include "script/utf8.h"

namespace fusescope {

namespace {

class Pickler {
public:
    explicit Pickler(Interpreter& in) : in_(in) {}

    PickledObject finish(const Value& object) {
        out_.pickle = "\x80\x02";
        save(object);
        out_.pickle += '.';
        return std::move(out_);
    }

private:
    void op(char code) { out_.pickle += code; }
    void littleEndian(uint64_t v, int bytes) {
        for (int i = 0; i < bytes; ++i) out_.pickle += static_cast<char>((v >> (8 * i)) & 0xff);
    }
    void memoize(const void* identity) {
        const auto index = static_cast<uint32_t>(memo_.size());
        memo_[identity] = index;
        if (index < 256) op('q'), littleEndian(index, 1);
        else op('r'), littleEndian(index, 4);
    }
    // A memoized object again: BINGET, true; else false.
    bool fromMemo(const void* identity) {
        auto it = memo_.find(identity);
        if (it == memo_.end()) return false;
        if (it->second < 256) op('h'), littleEndian(it->second, 1);
        else op('j'), littleEndian(it->second, 4);
        return true;
    }

    void global(const std::string& module, const std::string& name) {
        const std::string& key = *globalNames_.insert(module + "\n" + name).first;  // a stable identity for the memo
        if (fromMemo(&key)) return;
        out_.pickle += 'c' + module + '\n' + name + '\n';
        memoize(&key);
    }

    void saveInt(int64_t v) {
        if (v >= 0 && v < 256) op('K'), littleEndian(static_cast<uint64_t>(v), 1);
        else if (v >= 0 && v < 65536) op('M'), littleEndian(static_cast<uint64_t>(v), 2);
        else if (v >= INT32_MIN && v <= INT32_MAX) op('J'), littleEndian(static_cast<uint32_t>(v), 4);
        else {  // LONG1: the fewest little-endian two's-complement bytes that keep the sign
            int n = 8;
            while (n > 1 && ((v >> (8 * (n - 1) - 1)) == 0 || (v >> (8 * (n - 1) - 1)) == -1)) --n;
            op(static_cast<char>(0x8a)), littleEndian(static_cast<uint64_t>(n), 1), littleEndian(static_cast<uint64_t>(v), n);
        }
    }
    void saveString(const std::string& s) {
        op('X'), littleEndian(s.size(), 4);
        out_.pickle += s;
    }
    // A call of a global with these arguments (Python's save_reduce without state).
    void reduce(const std::string& module, const std::string& name, const ValueList& args) {
        global(module, name);
        saveTuple(args, nullptr);
        op('R');
    }
    void saveTuple(const ValueList& items, const void* identity) {
        if (items.empty()) return op(')');
        if (items.size() > 3) op('(');
        for (const Value& item : items) save(item);
        op(items.size() == 1 ? '\x85' : items.size() == 2 ? '\x86' : items.size() == 3 ? '\x87' : 't');
        if (identity) memoize(identity);
    }
    // APPENDS / SETITEMS in batches of 1000, a batch of one as APPEND / SETITEM (Python's).
    template <class Items, class SaveOne>
    void batches(const Items& items, char one, char many, SaveOne saveOne) {
        for (size_t at = 0; at < items.size(); at += 1000) {
            const size_t end = std::min(items.size(), at + 1000);
            if (end - at > 1) op('(');
            for (size_t i = at; i < end; ++i) saveOne(items[i]);
            op(end - at > 1 ? many : one);
        }
    }
    void saveDictItems(const DictObject& dict) {
        std::vector<std::pair<Value, Value>> items(dict.items.begin(), dict.items.end());
        batches(items, 's', 'u', [&](const std::pair<Value, Value>& kv) { save(kv.first), save(kv.second); });
    }

    void saveTensor(const Tensor& t) {
        if (fromMemo(t.impl())) return;
        if (t.isMeta() || !t.storage()) in_.fail("NotImplementedError", "torch.save of a tensor without data (a meta tensor)");
        if (t.impl()->isParameter) {
            global("torch._utils", "_rebuild_parameter");
            op('(');
            saveTensorData(t);
            op(t.requiresGrad() ? '\x88' : '\x89');
            reduce("collections", "OrderedDict", {});
            op('t'), op('R');
        } else {
            saveTensorData(t);
        }
        memoize(t.impl());
    }
    // _rebuild_tensor_v2(storage, storage_offset, size, stride, requires_grad, OrderedDict()).
    void saveTensorData(const Tensor& t) {
        global("torch._utils", "_rebuild_tensor_v2");
        op('(');
        const Storage* storage = t.storage().get();
        const auto elementSize = static_cast<int64_t>(dtypeSize(t.dtype()));
        auto [it, fresh] = storageKeys_.try_emplace(storage, std::to_string(storageKeys_.size()));
        if (fresh) out_.storages.push_back({it->second, t.storage()});
        op('(');
        saveString("storage");
        global("torch", std::string(dtypeScalarName(t.dtype())) + "Storage");
        saveString(it->second);
        saveString(t.device().isCpu() ? "cpu" : t.device().str() == "cuda" ? "cuda:0" : t.device().str());
        saveInt(static_cast<int64_t>(storage->nbytes()) / elementSize);
        op('t'), op('Q');
        saveInt(t.storageOffset());
        ValueList sizes, strides;
        for (int64_t s : t.sizes()) sizes.emplace_back(s);
        for (int64_t s : t.strides()) strides.emplace_back(s);
        saveTuple(sizes, nullptr);
        saveTuple(strides, nullptr);
        op(t.requiresGrad() && !t.impl()->isParameter ? '\x88' : '\x89');
        reduce("collections", "OrderedDict", {});
        op('t'), op('R');
    }

    void save(const Value& v) {
        if (v.isNone()) return op('N');
        if (v.isBool()) return op(v.asBool() ? '\x88' : '\x89');
        if (v.isInt()) return saveInt(v.asInt());
        if (v.isFloat()) {
            op('G');
            const auto bits = std::bit_cast<uint64_t>(v.asFloat());
            for (int i = 7; i >= 0; --i) out_.pickle += static_cast<char>((bits >> (8 * i)) & 0xff);
            return;
        }
        if (v.isString()) return saveString(v.asString());
        if (v.isTensor()) return saveTensor(v.asTensor());
        if (v.isDType()) return global("torch", std::string(dtypeName(v.asDType()).substr(6)));  // torch.float32
        if (v.isDevice()) {
            const Device d = v.asDevice();
            ValueList args{Value(std::string(d.isCpu() ? "cpu" : d.isMeta() ? "meta" : "cuda"))};
            if (d.index >= 0) args.emplace_back(int64_t{d.index});
            return reduce("torch", "device", args);
        }
        const Object* object = v.isObject() ? v.asObject().get() : nullptr;
        if (object && fromMemo(object)) return;
        if (auto* bytes = v.as<BytesObject>()) {
            // Protocol 2 spells bytes as _codecs.encode(their latin-1 text, 'latin1').
            std::string text;
            for (unsigned char c : bytes->data) appendUtf8(text, c);
            if (bytes->isMutable) global("builtins", "bytearray"), op('(');
            reduce("_codecs", "encode", {Value(text), Value("latin1")});
            if (bytes->isMutable) op('t'), op('R');
            return memoize(object);
        }
        if (auto* size = v.as<SizeObject>()) {
            global("torch", "Size");
            saveTuple(size->items, nullptr);
            op('\x85'), op('R');
            return memoize(object);
        }
        if (auto* tuple = v.as<TupleObject>()) return saveTuple(tuple->items, object);
        if (v.as<DictViewObject>()) unsupported(v);
        if (auto* list = v.as<ListObject>()) {
            op(']');
            memoize(object);
            return batches(list->items, 'a', 'e', [&](const Value& item) { save(item); });
        }
        if (auto* ordered = v.as<OrderedDictObject>()) {
            reduce("collections", "OrderedDict", {});
            memoize(object);
            return saveDictItems(*ordered);
        }
        if (auto* dict = v.as<DictObject>(); dict && !v.as<DefaultDictObject>()) {
            op('}');
            memoize(object);
            return saveDictItems(*dict);
        }
        if (auto* set = v.as<SetObject>()) {
            global("builtins", "set");
            op(']');
            batches(set->items(), 'a', 'e', [&](const Value& item) { save(item); });
            op('\x85'), op('R');
            return memoize(object);
        }
        unsupported(v);
    }

    [[noreturn]] void unsupported(const Value& v) {
        in_.fail("NotImplementedError",
                 fmt::format("torch.save: Fusescope saves tensors, numbers, strings, bytes, dtypes, devices, torch.Size "
                             "and lists, tuples, dicts and sets of them (a state_dict(), an optimizer's state_dict()), "
                             "not a '{}' object",
                             pythonTypeName(v)));
    }

    Interpreter& in_;
    PickledObject out_;
    std::map<const void*, uint32_t> memo_;
    std::set<std::string> globalNames_;
    std::map<const Storage*, std::string> storageKeys_;
};

}  // namespace

PickledObject pickleForTorchSave(Interpreter& in, const Value& object) { return Pickler(in).finish(object); }

}  // namespace fusescope

#include "capture/state_snapshot.h"

#include <cstring>
#include <typeinfo>

#include "script/set_object.h"
#include "script/types/type_slots.h"

namespace fusescope {

namespace {

constexpr int kMaxDepth = 32;

bool sameScalar(const Value& a, const Value& b) {
    if (a.v.index() != b.v.index()) return false;  // 1, 1.0 and True are different constants to a graph
    if (a.isFloat()) {
        double x = a.asFloat(), y = b.asFloat();
        return std::memcmp(&x, &y, sizeof x) == 0;  // NaN is itself; -0.0 is not 0.0
    }
    if (a.isObject()) return a.asObject() == b.asObject();
    if (a.isTensor()) return a.asTensor().impl() == b.asTensor().impl();
    if (a.isBool()) return a.asBool() == b.asBool();
    if (a.isInt()) return a.asInt() == b.asInt();
    if (a.isString()) return a.asString() == b.asString();
    if (a.isDType()) return a.asDType() == b.asDType();
    if (a.isDevice()) return a.asDevice() == b.asDevice();
    return a.isNone();
}

// A sequence's items, or a set's elements (in its iteration order) copied into `storage`.
const ValueList* elementsOf(const Value& v, ValueList& storage) {
    if (const ValueList* items = sequenceItems(v)) return items;
    auto* set = v.as<SetObject>();
    if (!set) return nullptr;
    storage = set->items();
    return &storage;
}

}  // namespace

TensorLayout TensorLayout::of(const Tensor& t) {
    const TensorImpl& impl = *t.impl();
    return TensorLayout{impl.sizes, impl.strides, impl.storageOffset, impl.dtype, impl.device, impl.requiresGrad};
}

bool TensorLayout::matches(const Tensor& t) const {
    if (!t.defined()) return false;
    const TensorImpl& impl = *t.impl();
    return impl.dtype == dtype && impl.device == device && impl.requiresGrad == requiresGrad &&
           impl.storageOffset == storageOffset && impl.sizes == sizes && impl.strides == strides;
}

std::optional<ValueSnapshot> ValueSnapshot::take(const Value& value, bool sameObjects) {
    ValueSnapshot snapshot;
    if (!build(value, sameObjects, 0, snapshot)) return std::nullopt;
    return snapshot;
}

bool ValueSnapshot::build(const Value& value, bool sameObjects, int depth, ValueSnapshot& out) {
    if (depth > kMaxDepth) return false;
    out.sameObject_ = sameObjects;
    out.value_ = value.unsourced();
    if (value.isTensor()) {
        out.kind_ = Kind::Tensor;
        out.layout_ = TensorLayout::of(value.asTensor());
        return true;
    }
    if (!value.isObject()) {
        out.kind_ = Kind::Scalar;
        return true;
    }
    if (isIterator(value)) return false;  // its position changes as it is read
    ValueList setElements;
    const ValueList* items = elementsOf(value, setElements);
    auto* dict = value.as<DictObject>();
    if (!items && !dict) {
        out.kind_ = Kind::Object;
        return true;
    }
    out.type_ = &typeid(*value.asObject());
    if (dict) {
        out.kind_ = Kind::Dict;
        out.items_.resize(dict->items.size() * 2);
        for (size_t i = 0; i < dict->items.size(); ++i)
            if (!build(dict->items[i].first, sameObjects, depth + 1, out.items_[2 * i]) ||
                !build(dict->items[i].second, sameObjects, depth + 1, out.items_[2 * i + 1]))
                return false;
        return true;
    }
    out.kind_ = value.as<SetObject>() ? Kind::Set : Kind::Sequence;
    out.items_.resize(items->size());
    for (size_t i = 0; i < items->size(); ++i)
        if (!build((*items)[i], sameObjects, depth + 1, out.items_[i])) return false;
    return true;
}

bool ValueSnapshot::matches(const Value& value) const {
    switch (kind_) {
    case Kind::Scalar:
    case Kind::Object: return sameScalar(value_, value);
    case Kind::AnyNumber: return value.isBool() == value_.isBool() && value.isInt() == value_.isInt() && value.isFloat() == value_.isFloat();
    case Kind::Tensor:
        return value.isTensor() && (!sameObject_ || value.asTensor().impl() == value_.asTensor().impl()) &&
               layout_.matches(value.asTensor());
    case Kind::Sequence:
    case Kind::Set:
    case Kind::Dict: break;
    }
    if (!value.isObject() || typeid(*value.asObject()) != *type_) return false;
    if (sameObject_ && value.asObject() != value_.asObject()) return false;
    if (kind_ == Kind::Dict) {
        const auto& entries = value.as<DictObject>()->items;
        if (entries.size() * 2 != items_.size()) return false;
        for (size_t i = 0; i < entries.size(); ++i)
            if (!items_[2 * i].matches(entries[i].first) || !items_[2 * i + 1].matches(entries[i].second)) return false;
        return true;
    }
    ValueList setElements;
    const ValueList& items = *elementsOf(value, setElements);
    if (items.size() != items_.size()) return false;
    for (size_t i = 0; i < items.size(); ++i)
        if (!items_[i].matches(items[i])) return false;
    return true;
}

void ValueSnapshot::forEachTensor(const std::function<void(const Tensor&, const std::vector<size_t>&)>& visit) const {
    std::vector<size_t> path;
    visitTensors(visit, path);
}

void ValueSnapshot::visitTensors(const std::function<void(const Tensor&, const std::vector<size_t>&)>& visit,
                                 std::vector<size_t>& path) const {
    if (kind_ == Kind::Tensor) visit(value_.asTensor(), path);
    bool dict = kind_ == Kind::Dict;
    for (size_t i = dict ? 1 : 0; i < items_.size(); i += dict ? 2 : 1) {
        path.push_back(dict ? i / 2 : i);
        items_[i].visitTensors(visit, path);
        path.pop_back();
    }
}

void ValueSnapshot::acceptAnyNumberAt(size_t index) {
    if (kind_ != Kind::Sequence || index >= items_.size()) return;
    ValueSnapshot& item = items_[index];
    if (item.kind_ == Kind::Scalar && !item.value_.isBool() && (item.value_.isInt() || item.value_.isFloat())) item.kind_ = Kind::AnyNumber;
}

void ValueSnapshot::releaseContents() {
    if (!sameObject_ && kind_ != Kind::Scalar && kind_ != Kind::AnyNumber && kind_ != Kind::Object) value_ = Value();
    for (auto& item : items_) item.releaseContents();
}

void ValueSnapshot::forEachContainer(const std::function<void(const Object*)>& visit) const {
    if (kind_ != Kind::Sequence && kind_ != Kind::Set && kind_ != Kind::Dict) return;
    visit(value_.asObject().get());
    for (const auto& item : items_) item.forEachContainer(visit);
}

}  // namespace fusescope

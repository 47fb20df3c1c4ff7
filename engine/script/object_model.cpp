#include "script/object_model.h"

#include <algorithm>

namespace fusescope {

const Value* ClassObject::lookup(std::string_view attr, const ClassObject** definer) const {
    for (const ClassObject* c : mro) {
        if (Value* v = c->dict->findString(attr)) {
            if (definer) *definer = c;
            return v;
        }
    }
    return nullptr;
}

bool ClassObject::isSubclassOf(const ClassObject& other) const {
    return std::find(mro.begin(), mro.end(), &other) != mro.end();
}

const Value& ClassObject::mroValue() const {
    if (!mroHandle_.isObject()) {
        ValueList classes;
        for (ClassObject* c : mro) classes.push_back(Value(c->shared_from_this()));
        mroHandle_ = makeTuple(std::move(classes));
    }
    return mroHandle_;
}

const ClassObject* ClassObject::nnModuleBase() const {
    auto found = std::find_if(mro.begin(), mro.end(), [](const ClassObject* c) { return c->name == "Module" && c->module == "torch.nn.modules.module"; });
    return found == mro.end() ? nullptr : *found;
}

std::vector<ClassObject*> c3Linearization(ClassObject& cls) {
    // merge(L[B1], ..., L[Bn], [B1, ..., Bn]): repeatedly take the first head that is in
    // no list's tail.
    std::vector<std::vector<ClassObject*>> lists;
    for (const auto& base : cls.bases) lists.push_back(base->mro);
    std::vector<ClassObject*> direct;
    for (const auto& base : cls.bases) direct.push_back(base.get());
    lists.push_back(direct);
    std::vector<ClassObject*> result{&cls};
    auto inTail = [&](ClassObject* c) {
        for (const auto& l : lists)
            if (std::find(l.begin() + (l.empty() ? 0 : 1), l.end(), c) != l.end()) return true;
        return false;
    };
    while (true) {
        std::erase_if(lists, [](const auto& l) { return l.empty(); });
        if (lists.empty()) return result;
        ClassObject* next = nullptr;
        for (const auto& l : lists)
            if (!inTail(l.front())) {
                next = l.front();
                break;
            }
        if (!next) {
            std::string names;
            for (const auto& base : cls.bases) names += (names.empty() ? "" : ", ") + base->name;
            throw ScriptError("TypeError", "Cannot create a consistent method resolution\norder (MRO) for bases " + names);
        }
        result.push_back(next);
        for (auto& l : lists)
            if (l.front() == next) l.erase(l.begin());
    }
}

const ClassPtr* instanceClass(const Value& value) {
    auto* instance = value.as<InstanceObject>();
    return instance ? &instance->cls : nullptr;
}

}  // namespace fusescope

#include "script/set_object.h"

namespace fusescope {

namespace {

constexpr int kPerturbShift = 5;

// The probe sequence over a table of mask + 1 slots: runs of up to nine neighbours (fewer at
// the table's end), each run starting at a slot the hash's remaining bits pick.
template <class Visit> void probe(size_t mask, int64_t hash, size_t linearProbes, Visit&& visit) {
    auto perturb = static_cast<uint64_t>(hash);
    size_t i = static_cast<size_t>(hash) & mask;
    while (true) {
        const size_t run = i + linearProbes <= mask ? linearProbes : 0;
        for (size_t j = i; j <= i + run; ++j)
            if (visit(j)) return;
        perturb >>= kPerturbShift;
        i = (i * 5 + 1 + perturb) & mask;
    }
}

}  // namespace

ValueList SetObject::items() const {
    ValueList out;
    out.reserve(used_);
    forEach([&](const Value& key, int64_t) { out.push_back(key); });
    return out;
}

size_t SetObject::find(const Value& key, int64_t hash) const {
    size_t found = 0;
    probe(mask(), hash, kLinearProbes, [&](size_t j) {
        const Slot& slot = table_[j];
        if (slot.state == State::Empty || (slot.state == State::Active && slot.hash == hash && valuesEqual(slot.key, key))) {
            found = j;
            return true;
        }
        return false;
    });
    return found;
}

bool SetObject::contains(const Value& key, int64_t hash) const { return table_[find(key, hash)].state == State::Active; }

bool SetObject::add(const Value& key, int64_t hash) {
    // CPython 3.11 reuses the last dummy the probe passed before the empty slot that shows
    // the key absent.
    std::optional<size_t> dummy;
    size_t at = 0;
    bool present = false;
    probe(mask(), hash, kLinearProbes, [&](size_t j) {
        const Slot& slot = table_[j];
        if (slot.state == State::Dummy) dummy = j;
        if (slot.state == State::Empty || (slot.state == State::Active && slot.hash == hash && valuesEqual(slot.key, key))) {
            at = j;
            present = slot.state == State::Active;
            return true;
        }
        return false;
    });
    if (present) return false;
    Slot& slot = table_[dummy ? *dummy : at];
    slot = Slot{key.unsourced(), hash, State::Active};
    ++used_;
    if (!dummy) {
        ++fill_;
        growIfFull();
    }
    return true;
}

bool SetObject::discard(const Value& key, int64_t hash) {
    Slot& slot = table_[find(key, hash)];
    if (slot.state != State::Active) return false;
    slot = Slot{Value(), -1, State::Dummy};
    --used_;
    return true;
}

std::optional<Value> SetObject::pop() {
    if (used_ == 0) return std::nullopt;
    size_t i = finger_ & mask();
    while (table_[i].state != State::Active) i = i == mask() ? 0 : i + 1;
    Value key = std::move(table_[i].key);
    table_[i] = Slot{Value(), -1, State::Dummy};
    --used_;
    finger_ = i + 1;
    return key;
}

void SetObject::clear() {
    table_.assign(kMinSize, Slot{});
    fill_ = used_ = 0;
}

void SetObject::insertClean(std::vector<Slot>& table, Value key, int64_t hash) {
    probe(table.size() - 1, hash, kLinearProbes, [&](size_t j) {
        if (table[j].state != State::Empty) return false;
        table[j] = Slot{std::move(key), hash, State::Active};
        return true;
    });
}

void SetObject::resize(size_t minUsed) {
    size_t size = kMinSize;
    while (size <= minUsed) size <<= 1;
    if (size == kMinSize && table_.size() == kMinSize && fill_ == used_) return;  // nothing to gain
    std::vector<Slot> old(size);
    old.swap(table_);
    fill_ = used_;
    for (Slot& slot : old)
        if (slot.state == State::Active) insertClean(table_, std::move(slot.key), slot.hash);
}

void SetObject::merge(const SetObject& other) {
    if (&other == this || other.used_ == 0) return;
    if ((fill_ + other.used_) * 5 >= mask() * 3) resize((used_ + other.used_) * 2);
    if (fill_ == 0 && table_.size() == other.table_.size() && other.fill_ == other.used_) {
        table_ = other.table_;
        fill_ = used_ = other.used_;
        return;
    }
    if (fill_ == 0) {
        fill_ = used_ = other.used_;
        other.forEach([&](const Value& key, int64_t hash) { insertClean(table_, key, hash); });
        return;
    }
    other.forEach([&](const Value& key, int64_t hash) { add(key, hash); });
}

void SetObject::reserve(size_t incoming) {
    if ((fill_ + incoming) * 5 >= mask() * 3) resize((used_ + incoming) * 2);
}

void SetObject::dropDummiesIfMany() {
    if (fill_ - used_ > mask() / 4) resize(used_ > 50000 ? used_ * 2 : used_ * 4);
}

void SetObject::takeTable(SetObject&& other) {
    table_ = std::move(other.table_);
    fill_ = other.fill_;
    used_ = other.used_;
    other.clear();
}

}  // namespace fusescope

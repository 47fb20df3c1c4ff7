#include "script/set_object.h"

namespace fusescope {

int64_t SetObject::frozenHash() const {
    const auto shuffle = [](uint64_t h) { return ((h ^ 89869747ULL) ^ (h << 16)) * 3644798167ULL; };
    uint64_t hash = 0;
    forEach([&](const Value&, int64_t elementHash) { hash ^= shuffle(static_cast<uint64_t>(elementHash)); });
    hash ^= (static_cast<uint64_t>(size()) + 1) * 1927868237ULL;
    hash ^= (hash >> 11) ^ (hash >> 25);
    hash = hash * 69069U + 907133923ULL;
    if (hash == static_cast<uint64_t>(-1)) hash = 590923713ULL;
    return static_cast<int64_t>(hash);
}

namespace {

constexpr size_t kLinearProbes = 9;
constexpr int kPerturbShift = 5;

// The probe sequence over a table of mask + 1 slots: runs of ten neighbours (one at the
// table's end), each run starting at a slot the hash's remaining bits pick.
template <class Visit> void probe(size_t mask, int64_t hash, Visit&& visit) {
    auto perturb = static_cast<uint64_t>(hash);
    size_t i = static_cast<size_t>(hash) & mask;
    while (true) {
        const size_t run = i + kLinearProbes <= mask ? kLinearProbes : 0;
        for (size_t j = i; j <= i + run; ++j)
            if (visit(j)) return;
        perturb >>= kPerturbShift;
        i = (i * 5 + 1 + perturb) & mask;
    }
}

bool sameObject(const Value& a, const Value& b) {
    if (a.isObject() && b.isObject()) return a.asObject() == b.asObject();
    return a.isTensor() && b.isTensor() && a.asTensor().impl() == b.asTensor().impl();
}

}  // namespace

ValueList SetObject::items() const {
    ValueList out;
    out.reserve(used_);
    forEach([&](const Value& key, int64_t) { out.push_back(key); });
    return out;
}

SetObject::Found SetObject::find(const Value& key, int64_t hash) const {
    while (true) {
        const uint64_t version = version_;
        Found found;
        bool changed = false;
        probe(mask(), hash, [&](size_t j) {
            const Slot& slot = table_[j];
            if (slot.state == State::Dummy) found.dummy = j;
            if (slot.state == State::Empty) {
                found.slot = j;
                return true;
            }
            if (slot.state != State::Active || slot.hash != hash) return false;
            if (!sameObject(slot.key, key)) {
                const Value candidate = slot.key;  // __eq__ may change this set
                const bool equal = valuesEqual(candidate, key);
                if (version_ != version) return changed = true;
                if (!equal) return false;
            }
            found.slot = j;
            found.present = true;
            return true;
        });
        if (!changed) return found;
    }
}

bool SetObject::contains(const Value& key, int64_t hash) const { return find(key, hash).present; }

bool SetObject::add(const Value& key, int64_t hash) {
    // CPython 3.11 reuses the last dummy the probe passed before the empty slot that shows
    // the key absent.
    const Found found = find(key, hash);
    if (found.present) return false;
    ++version_;
    table_[found.dummy ? *found.dummy : found.slot] = Slot{key.unsourced(), hash, State::Active};
    ++used_;
    if (!found.dummy) {
        ++fill_;
        growIfFull();
    }
    return true;
}

bool SetObject::discard(const Value& key, int64_t hash) {
    const Found found = find(key, hash);
    if (!found.present) return false;
    ++version_;
    table_[found.slot] = Slot{Value(), -1, State::Dummy};
    --used_;
    return true;
}

std::optional<Value> SetObject::pop() {
    if (used_ == 0) return std::nullopt;
    ++version_;
    size_t i = finger_ & mask();
    while (table_[i].state != State::Active) i = i == mask() ? 0 : i + 1;
    Value key = std::move(table_[i].key);
    table_[i] = Slot{Value(), -1, State::Dummy};
    --used_;
    finger_ = i + 1;
    return key;
}

void SetObject::clear() {
    ++version_;
    table_.assign(kMinSize, Slot{});
    fill_ = used_ = 0;
}

void SetObject::insertClean(std::vector<Slot>& table, Value key, int64_t hash) {
    probe(table.size() - 1, hash, [&](size_t j) {
        if (table[j].state != State::Empty) return false;
        table[j] = Slot{std::move(key), hash, State::Active};
        return true;
    });
}

void SetObject::resize(size_t minUsed) {
    size_t size = kMinSize;
    while (size <= minUsed) size <<= 1;
    if (size == kMinSize && table_.size() == kMinSize && fill_ == used_) return;  // nothing to gain
    ++version_;
    std::vector<Slot> old(size);
    old.swap(table_);
    fill_ = used_;
    for (Slot& slot : old)
        if (slot.state == State::Active) insertClean(table_, std::move(slot.key), slot.hash);
}

void SetObject::merge(const SetObject& other) {
    if (&other == this || other.used_ == 0) return;
    if ((fill_ + other.used_) * 5 >= mask() * 3) resize((used_ + other.used_) * 2);
    if (fill_ == 0) {  // nothing to compare with: no script code runs
        ++version_;
        fill_ = used_ = other.used_;
        if (table_.size() == other.table_.size() && other.fill_ == other.used_) table_ = other.table_;
        else other.forEach([&](const Value& key, int64_t hash) { insertClean(table_, key, hash); });
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
    ++version_;
    table_ = std::move(other.table_);
    fill_ = other.fill_;
    used_ = other.used_;
    other.clear();
}

}  // namespace fusescope

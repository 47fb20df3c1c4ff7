#pragma once
// A Python set: its elements in CPython 3.11's set table (Objects/setobject.c), so that a set
// iterates, and prints, in the order Python's does wherever Python's hashes are fixed
// (script/python_hash.h), and finds an element in constant time. The table is a power of two
// slots; an element goes to slot hash & mask, or the first free one of the nine slots after
// it, then to slots chosen by the hash's higher bits; a removed element leaves a dummy slot
// that later adds may reuse, and the table grows (to four times the elements) once 60% of
// it is taken. Callers hash (hashOf in set_operations.h: __hash__, unhashable types);
// equality is identity, then valuesEqual, which may run a script's __eq__: one that changes
// this set restarts the lookup, as in CPython.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "script/value.h"

namespace fusescope {

struct SetObject : Object {
    std::string typeName() const override { return "set"; }
    const TypeSlots* slots() const override;

    size_t size() const { return used_; }
    ValueList items() const;  // in table order: Python's iteration order
    // Calls f(element, hash) in table order; f may change the set (a script's __eq__ or
    // __hash__ can), so each slot is read afresh and its element copied.
    template <class F> void forEach(F&& f) const {
        for (size_t i = 0; i < table_.size(); ++i) {
            if (table_[i].state != State::Active) continue;
            const Value key = table_[i].key;
            f(key, table_[i].hash);
        }
    }

    bool contains(const Value& key, int64_t hash) const;
    bool add(const Value& key, int64_t hash);      // false when already there
    bool discard(const Value& key, int64_t hash);  // false when not there
    std::optional<Value> pop();                    // none when empty
    void clear();
    // Every element of `other` added, as CPython merges one set into another (a copy of the
    // table when this one is empty and of the same size).
    void merge(const SetObject& other);
    // Room for `incoming` more elements at once (CPython's update from a dict).
    void reserve(size_t incoming);
    // After many removals: the table rebuilt when more than a quarter of it is dummies
    // (CPython's difference_update).
    void dropDummiesIfMany();
    // Takes `other`'s table (keeping where pop() looks next), as CPython's intersection_update
    // swaps in the intersection's.
    void takeTable(SetObject&& other);

    // CPython's frozenset hash of these elements: their hashes' shuffled bits xor-ed (so no
    // order counts), mixed with the size (Objects/setobject.c's frozenset_hash).
    int64_t frozenHash() const;

private:
    enum class State : uint8_t { Empty, Active, Dummy };
    struct Slot {
        Value key;
        int64_t hash = 0;
        State state = State::Empty;
    };
    static constexpr size_t kMinSize = 8;

    // Where the probe for key ended: its slot, or the empty slot that shows it absent and the
    // last dummy slot passed before it (which an add reuses).
    struct Found {
        size_t slot = 0;
        bool present = false;
        std::optional<size_t> dummy;
    };
    Found find(const Value& key, int64_t hash) const;
    void resize(size_t minUsed);
    static void insertClean(std::vector<Slot>& table, Value key, int64_t hash);
    void growIfFull() { if (fill_ * 5 >= mask() * 3) resize(used_ > 50000 ? used_ * 2 : used_ * 4); }
    size_t mask() const { return table_.size() - 1; }

    std::vector<Slot> table_ = std::vector<Slot>(kMinSize);
    size_t fill_ = 0;    // active and dummy slots
    size_t used_ = 0;    // active slots
    size_t finger_ = 0;  // where pop() looks first
    uint64_t version_ = 0;  // changes with the table: a lookup whose __eq__ changed it restarts
};

// frozenset: a set that cannot change, hashable (CPython's hash), and whose operations give
// frozensets where it is the left operand, as CPython's.
struct FrozenSetObject : SetObject {
    std::string typeName() const override { return "frozenset"; }
    const TypeSlots* slots() const override;
};

}  // namespace fusescope

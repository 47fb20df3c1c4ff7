#pragma once
// A Python set: its elements in CPython 3.11's set table (Objects/setobject.c), so that a set
// iterates, and prints, in the order Python's does wherever Python's hashes are fixed
// (script/python_hash.h), and finds an element in constant time. The table is a power of two
// slots; an element goes to slot hash & mask, or the first free slot of a run of nine after
// it, then to slots chosen by the hash's higher bits; a removed element leaves a dummy slot
// that later adds may reuse, and the table grows (to four times the elements) once 60% of
// it is taken. Callers hash (Interpreter::hashOf: __hash__, unhashable types); equality is
// valuesEqual.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "script/value.h"

namespace fusescope {

struct SetObject : Object {
    std::string typeName() const override { return "set"; }

    size_t size() const { return used_; }
    ValueList items() const;  // in table order: Python's iteration order
    // Calls f(element, hash) in table order.
    template <class F> void forEach(F&& f) const {
        for (const Slot& slot : table_)
            if (slot.state == State::Active) f(slot.key, slot.hash);
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

private:
    enum class State : uint8_t { Empty, Active, Dummy };
    struct Slot {
        Value key;
        int64_t hash = 0;
        State state = State::Empty;
    };
    static constexpr size_t kMinSize = 8;
    static constexpr size_t kLinearProbes = 9;

    // The slot holding key, or, when absent, the slot the probe sequence ended at (Empty).
    size_t find(const Value& key, int64_t hash) const;
    void resize(size_t minUsed);
    static void insertClean(std::vector<Slot>& table, Value key, int64_t hash);
    void growIfFull() { if (fill_ * 5 >= mask() * 3) resize(used_ > 50000 ? used_ * 2 : used_ * 4); }
    size_t mask() const { return table_.size() - 1; }

    std::vector<Slot> table_ = std::vector<Slot>(kMinSize);
    size_t fill_ = 0;    // active and dummy slots
    size_t used_ = 0;    // active slots
    size_t finger_ = 0;  // where pop() looks first
};

}  // namespace fusescope

#pragma once
// CPython 3.11's hashes of the values whose hash Python fixes: a set iterates in the order of
// its hash table (script/set_object.h), so with these hashes a set of numbers, tuples of
// them or None prints in the order Python prints it. Strings hash by our own function
// (Python's is salted per process, so no order of a set of strings is more Python's than
// another), objects by their address as Python's default hash does.

#include <cstdint>
#include <string_view>

namespace fusescope::python_hash {

int64_t ofInt(int64_t value);    // value modulo 2^61 - 1, keeping its sign; -1 becomes -2
int64_t ofFloat(double value);   // equal to ofInt for whole values; NaN hashes as its object would
int64_t ofString(std::string_view text);
int64_t ofAddress(const void* address);
// None's hash: in CPython 3.11 its address, whose low 12 bits (all a table of up to 4096
// slots reads) are the same in every run of python.org's and Debian's x86-64 builds.
int64_t ofNone();

// A tuple's hash from its items' hashes, combined as CPython's tuplehash (xxHash's rounds).
class TupleHash {
public:
    void add(int64_t itemHash);
    int64_t finish(size_t length) const;

private:
    uint64_t acc_ = 2870177450012600261ULL;
};

}  // namespace fusescope::python_hash

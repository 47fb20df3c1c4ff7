#include "ops/byte_copy.h"

#include <cstring>

#include "core/cancellation.h"
#include "core/parallel.h"
#include "ops/kernel_support.h"

namespace fusescope {

namespace {

struct CopyDim {
    int64_t size, dst, src;  // byte strides
};

// The copy's dims outermost first, size-1 dims dropped and neighbours merged where both
// tensors step through them as one: the innermost dim is as long as the layouts allow.
std::vector<CopyDim> mergedDims(const Shape& sizes, const IterOperand& to, const IterOperand& from) {
    std::vector<CopyDim> dims;
    for (std::size_t d = 0; d < sizes.size(); ++d) {
        if (sizes[d] == 1) continue;
        CopyDim dim{sizes[d], to.byteStrides[d], from.byteStrides[d]};
        if (!dims.empty() && dims.back().dst == dim.size * dim.dst && dims.back().src == dim.size * dim.src) {
            dim.size *= dims.back().size;
            dims.pop_back();
        }
        dims.push_back(dim);
    }
    return dims;
}

template <class Item>
void copyStrided(char* to, const char* from, const CopyDim& row) {
    for (int64_t i = 0; i < row.size; ++i) std::memcpy(to + i * row.dst, from + i * row.src, sizeof(Item));
}

void copyRow(char* to, const char* from, const CopyDim& row, int64_t item) {
    if (row.dst == item && row.src == item) return void(std::memcpy(to, from, static_cast<std::size_t>(row.size * item)));
    struct Bytes16 { char b[16]; };
    switch (item) {
        case 1: return copyStrided<char>(to, from, row);
        case 2: return copyStrided<uint16_t>(to, from, row);
        case 4: return copyStrided<uint32_t>(to, from, row);
        case 8: return copyStrided<uint64_t>(to, from, row);
        default: return copyStrided<Bytes16>(to, from, row);
    }
}

}  // namespace

bool copyBytesInto(const Tensor& dst, const Tensor& src) {
    if (dst.dtype() != src.dtype()) return false;
    if (dst.numel() == 0) return true;
    const Shape& sizes = dst.sizes();
    const IterOperand to = iterOperand(dst, sizes), from = iterOperand(src, sizes);
    if (!elementsIndependent(sizes, {to, from})) return false;  // in order, element by element, as the general loop copies
    const int64_t item = static_cast<int64_t>(dtypeSize(dst.dtype()));
    std::vector<CopyDim> dims = mergedDims(sizes, to, from);
    if (dims.empty()) dims.push_back({1, item, item});  // one element
    const CopyDim row = dims.back();
    dims.pop_back();
    int64_t rows = 1;
    for (const CopyDim& d : dims) rows *= d.size;
    auto copyRows = [&](int64_t begin, int64_t end) {
        std::vector<int64_t> index(dims.size());  // the row `begin`'s index over the outer dims
        int64_t rest = begin;
        for (std::size_t d = dims.size(); d-- > 0;) index[d] = rest % dims[d].size, rest /= dims[d].size;
        int64_t sincePoll = 0;
        for (int64_t r = begin; r < end; ++r) {
            if ((sincePoll += row.size) >= kCancelPollElements) sincePoll = 0, throwIfCancelled();
            char* t = to.data;
            const char* f = from.data;
            for (std::size_t d = 0; d < dims.size(); ++d) t += index[d] * dims[d].dst, f += index[d] * dims[d].src;
            copyRow(t, f, row, item);
            for (std::size_t d = dims.size(); d-- > 0;) {
                if (++index[d] < dims[d].size) break;
                index[d] = 0;
            }
        }
    };
    if (rows * row.size > kParallelGrain) parallelFor(rows, std::max<int64_t>(1, kParallelGrain / row.size), copyRows);
    else copyRows(0, rows);
    return true;
}

}  // namespace fusescope

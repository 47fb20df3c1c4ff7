#pragma once
// The strides of an input with dynamic sizes, as PyTorch's ShapeEnv makes them
// (symbolic_shapes.py's _compute_symbolic_stride), and the guard its contiguity check makes
// (_prims_common's check_contiguous_sizes_strides). Visited from the smallest, a stride is a
// number (0 or 1 where it does not step over the next dim), the size times stride of a dim
// visited before where it has that value (a contiguous [2, s27]'s s27), or a symbol of its own
// (a slice [2, s27] of a [2, 5]: stride s12, guarded >= 2 and != s27).

#include <cstdint>
#include <string>
#include <vector>

#include "core/tensor.h"

namespace fusescope {

struct SymbolicStride {
    enum class Kind { Number, Product, Fresh };
    Kind kind = Kind::Number;
    int64_t of = -1;  // Product: the dim whose size times stride this stride is
};

// Per dim; every stride a Number where no size is dynamic (dynamic[d]: size d is a symbol).
std::vector<SymbolicStride> symbolicStrides(const Shape& sizes, const Shape& strides, const std::vector<bool>& dynamic);

// A size or stride of one tensor as a product: a number times some of its dynamic sizes and
// fresh strides (each named by its symbol, and its value now).
struct TensorProduct {
    struct Factor {
        bool stride = false;
        int64_t dim = 0;
        std::string symbol;
        int64_t value = 0;
    };
    int64_t constant = 1;
    std::vector<Factor> factors;  // sorted by symbol, as sympy orders a product

    TensorProduct times(const TensorProduct& other) const;
    bool sameTerms(const TensorProduct& other) const;  // equal whatever the symbols' values
    bool isNumber() const { return factors.empty(); }
    int64_t value() const;
    int64_t least() const;  // the smallest it can be (each symbol >= 2)
};

// Each stride of the tensor as a product (sizeSymbols[d]: "" for a static size; strideSymbols[d]
// the symbol of a Fresh stride).
std::vector<TensorProduct> strideProducts(const Shape& sizes, const Shape& strides, const std::vector<SymbolicStride>& forms,
                                          const std::vector<std::string>& sizeSymbols, const std::vector<std::string>& strideSymbols);

// What check_contiguous_sizes_strides guards, walking the dims from the last: each stride whose
// equality to the contiguous one the symbols' values decide, and whether it holds now (the walk
// ends where a stride differs).
struct ContiguityGuard {
    int64_t dim = 0;
    bool equal = false;
    TensorProduct expected;
};
std::vector<ContiguityGuard> contiguityGuards(const Shape& sizes, const std::vector<std::string>& sizeSymbols,
                                              const std::vector<TensorProduct>& strides);

}  // namespace fusescope

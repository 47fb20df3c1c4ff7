#include "capture/symbolic_strides.h"

#include <algorithm>
#include <functional>
#include <map>
#include <optional>

namespace fusescope {

std::vector<SymbolicStride> symbolicStrides(const Shape& sizes, const Shape& strides, const std::vector<bool>& dynamic) {
    const size_t rank = sizes.size();
    std::vector<SymbolicStride> forms(rank);
    if (std::none_of(dynamic.begin(), dynamic.end(), [](bool d) { return d; })) return forms;
    // The smallest first; of equal ones the last dim first ([(1, 1), (1, 0)] fills the last).
    std::vector<size_t> order(rank);
    for (size_t i = 0; i < rank; ++i) order[i] = i;
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
        return strides[a] != strides[b] ? strides[a] < strides[b] : a > b;
    });
    std::vector<bool> symbolic(rank, false);
    std::map<int64_t, SymbolicStride> candidates;  // a value -> the stride it is, as a dim visited before makes it
    for (size_t i : order) {
        const int64_t value = strides[i];
        const bool stepsOverNext = i + 1 < rank && value == sizes[i + 1] * strides[i + 1];
        if ((value == 0 || value == 1) && !stepsOverNext) {
            forms[i] = SymbolicStride{};
        } else if (auto candidate = candidates.find(value); candidate != candidates.end()) {
            forms[i] = candidate->second;
        } else {
            forms[i] = SymbolicStride{SymbolicStride::Kind::Fresh, -1};
        }
        symbolic[i] = forms[i].kind != SymbolicStride::Kind::Number;
        candidates[sizes[i] * value] = dynamic[i] || symbolic[i] ? SymbolicStride{SymbolicStride::Kind::Product, static_cast<int64_t>(i)}
                                                                 : SymbolicStride{};
    }
    return forms;
}

TensorProduct TensorProduct::times(const TensorProduct& other) const {
    TensorProduct out{constant * other.constant, factors};
    out.factors.insert(out.factors.end(), other.factors.begin(), other.factors.end());
    if (out.constant == 0) out.factors.clear();
    std::stable_sort(out.factors.begin(), out.factors.end(), [](const Factor& a, const Factor& b) { return a.symbol < b.symbol; });
    return out;
}

bool TensorProduct::sameTerms(const TensorProduct& other) const {
    if (constant != other.constant || factors.size() != other.factors.size()) return false;
    for (size_t i = 0; i < factors.size(); ++i)
        if (factors[i].symbol != other.factors[i].symbol) return false;
    return true;
}

int64_t TensorProduct::least() const { return constant << factors.size(); }

int64_t TensorProduct::value() const {
    int64_t v = constant;
    for (const Factor& f : factors) v *= f.value;
    return v;
}

namespace {

TensorProduct sizeProduct(const Shape& sizes, const std::vector<std::string>& sizeSymbols, size_t d) {
    if (sizeSymbols[d].empty()) return TensorProduct{sizes[d], {}};
    return TensorProduct{1, {{false, static_cast<int64_t>(d), sizeSymbols[d], sizes[d]}}};
}

}  // namespace

std::vector<TensorProduct> strideProducts(const Shape& sizes, const Shape& strides, const std::vector<SymbolicStride>& forms,
                                          const std::vector<std::string>& sizeSymbols, const std::vector<std::string>& strideSymbols) {
    std::vector<std::optional<TensorProduct>> made(sizes.size());
    // A Product's dim was visited first, but may be later in dim order: made on demand.
    std::function<TensorProduct(size_t)> productOf = [&](size_t d) -> TensorProduct {
        if (made[d]) return *made[d];
        const SymbolicStride& form = forms[d];
        TensorProduct p{strides[d], {}};
        if (form.kind == SymbolicStride::Kind::Fresh) p = TensorProduct{1, {{true, static_cast<int64_t>(d), strideSymbols[d], strides[d]}}};
        if (form.kind == SymbolicStride::Kind::Product) {
            const size_t of = static_cast<size_t>(form.of);
            p = sizeProduct(sizes, sizeSymbols, of).times(productOf(of));
        }
        made[d] = p;
        return p;
    };
    std::vector<TensorProduct> out;
    for (size_t d = 0; d < sizes.size(); ++d) out.push_back(productOf(d));
    return out;
}

std::vector<ContiguityGuard> contiguityGuards(const Shape& sizes, const std::vector<std::string>& sizeSymbols,
                                              const std::vector<TensorProduct>& strides) {
    std::vector<ContiguityGuard> guards;
    // Whether stride d is `expected`, guarding it where only the symbols' values decide.
    auto equals = [&](size_t d, const TensorProduct& expected) {
        const TensorProduct& stride = strides[d];
        if (stride.sameTerms(expected)) return true;
        const bool equal = stride.value() == expected.value();
        // Decided alone: two numbers, or a number below the least a product of symbols (each >= 2) can be.
        const bool decided = stride.isNumber() == expected.isNumber() ? stride.isNumber()
                             : stride.isNumber()                      ? stride.value() < expected.least()
                                                                      : expected.value() < stride.least();
        if (!decided) guards.push_back(ContiguityGuard{static_cast<int64_t>(d), equal, expected});
        return equal;
    };
    // Both of PyTorch's expectations: the sizes' product, and with each size at least 1.
    TensorProduct expected, expectedAtLeastOne;
    for (size_t d = sizes.size(); d-- > 0;) {
        if (sizeSymbols[d].empty() && sizes[d] == 1) continue;  // a symbol is never 1 (its range starts at 2)
        if (!equals(d, expected) && (expectedAtLeastOne.sameTerms(expected) || !equals(d, expectedAtLeastOne))) break;
        const TensorProduct size = sizeProduct(sizes, sizeSymbols, d);
        expected = expected.times(size);
        expectedAtLeastOne = expectedAtLeastOne.times(size.isNumber() ? TensorProduct{std::max<int64_t>(size.constant, 1), {}} : size);
    }
    return guards;
}

}  // namespace fusescope

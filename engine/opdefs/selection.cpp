// Ops that pick elements: topk (by value) and multinomial (by chance, from Fusescope's
// generator, so the picks differ from PyTorch's). Both run eagerly: the loop IR has no
// sort, and random draws come from the eager generator.

#include <algorithm>
#include <cmath>
#include <numeric>

#include <fmt/format.h>

#include "core/error.h"
#include "core/random.h"
#include "opdefs/op_families.h"
#include "ops/kernel_support.h"

namespace fusescope {

namespace {

// A contiguous tensor as rows along one dim: element j of row (outer, in) lies at
// (outer * length + j) * inner + in.
struct Rows {
    int64_t count = 0, length = 0, inner = 1;
};

Rows rowsOf(const Shape& sizes, size_t dim) {
    Rows r;
    r.length = sizes.empty() ? 1 : sizes[dim];
    for (size_t d = dim + 1; d < sizes.size(); ++d) r.inner *= sizes[d];
    int64_t numel = 1;
    for (int64_t s : sizes) numel *= s;
    r.count = r.length * r.inner == 0 ? 0 : numel / (r.length * r.inner);
    return r;
}

std::pair<ResultMeta, ResultMeta> topkMetas(const BoundArgs& a) {
    const Tensor& self = a.tensor("self");
    const int64_t dim = wrapDim(a.integer("dim"), std::max<int64_t>(self.dim(), 1));
    const int64_t k = a.integer("k");
    const int64_t length = self.dim() == 0 ? 1 : self.sizes()[static_cast<size_t>(dim)];
    if (k < 0 || k > length) throw ScriptError("RuntimeError", "selected index k out of range");
    Shape sizes = self.sizes();
    if (!sizes.empty()) sizes[static_cast<size_t>(dim)] = k;
    return {contiguousMeta(sizes, self.dtype()), contiguousMeta(sizes, DType::Int64)};
}

// The k largest (or smallest) elements of each row along dim, NaN counted largest, in
// order when `sorted` (always, here). Equal values keep their order along the row
// (PyTorch leaves the order of ties unspecified).
IValue topk(const BoundArgs& a) {
    auto [valueMeta, indexMeta] = topkMetas(a);
    Tensor values = allocate(valueMeta), indices = allocate(indexMeta);
    Tensor self = contiguousCopy(a.tensor("self"));
    const size_t dim = static_cast<size_t>(wrapDim(a.integer("dim"), std::max<int64_t>(self.dim(), 1)));
    const int64_t k = a.integer("k");
    const bool largest = a.flag("largest");
    const Rows rows = rowsOf(self.sizes(), dim);
    std::vector<int64_t> order(static_cast<size_t>(rows.length));
    std::vector<double> row(static_cast<size_t>(rows.length));
    auto before = [&](int64_t x, int64_t y) {
        double u = row[static_cast<size_t>(x)], v = row[static_cast<size_t>(y)];
        if (std::isnan(u) || std::isnan(v)) return largest ? std::isnan(u) && !std::isnan(v) : !std::isnan(u) && std::isnan(v);
        return largest ? u > v : u < v;
    };
    for (int64_t outer = 0; outer < rows.count; ++outer)
        for (int64_t in = 0; in < rows.inner; ++in) {
            for (int64_t j = 0; j < rows.length; ++j) row[static_cast<size_t>(j)] = self.readDouble((outer * rows.length + j) * rows.inner + in);
            std::iota(order.begin(), order.end(), int64_t{0});
            std::stable_sort(order.begin(), order.end(), before);
            for (int64_t j = 0; j < k; ++j) {
                const int64_t at = (outer * k + j) * rows.inner + in, from = order[static_cast<size_t>(j)];
                values.writeDouble(at, row[static_cast<size_t>(from)]);
                indices.writeDouble(at, static_cast<double>(from));
            }
        }
    return IValue::tuple({values, indices});
}

ResultMeta multinomialMeta(const BoundArgs& a) {
    const Tensor& self = a.tensor("self");
    if (self.dim() != 1 && self.dim() != 2) throw ScriptError("RuntimeError", "prob_dist must be 1 or 2 dim");
    if (!isFloating(self.dtype()))
        throw ScriptError("RuntimeError", fmt::format("multinomial only supports floating-point dtypes for input, got: {}",
                                                      dtypeScalarName(self.dtype())));
    const int64_t samples = a.integer("num_samples"), categories = self.sizes().back();
    if (samples <= 0) throw ScriptError("RuntimeError", "cannot sample n_sample <= 0 samples");
    if (!a.flag("replacement") && samples > categories)
        throw ScriptError("RuntimeError", "cannot sample n_sample > prob_dist.size(-1) samples without replacement");
    Shape sizes = self.sizes();
    sizes.back() = samples;
    return contiguousMeta(sizes, DType::Int64);
}

// With replacement each draw picks a category with probability proportional to its
// weight. Without, the categories race (PyTorch's method): each scores weight / E with E
// exponentially distributed, and the highest scores win, so zero-weight categories come
// last, in order.
void multinomialInto(const BoundArgs& a, const Tensor& out) {
    Tensor self = contiguousCopy(a.tensor("self"));
    const int64_t categories = self.sizes().back(), samples = a.integer("num_samples");
    const int64_t rowCount = self.numel() / std::max<int64_t>(categories, 1);
    const bool replacement = a.flag("replacement");
    std::vector<double> weights(static_cast<size_t>(categories));
    std::vector<int64_t> order(static_cast<size_t>(categories));
    for (int64_t r = 0; r < rowCount; ++r) {
        double total = 0;
        for (int64_t c = 0; c < categories; ++c) {
            double w = self.readDouble(r * categories + c);
            if (!std::isfinite(w) || w < 0)
                throw ScriptError("RuntimeError", "probability tensor contains either `inf`, `nan` or element < 0");
            weights[static_cast<size_t>(c)] = w;
            total += w;
        }
        if (total <= 0) throw ScriptError("RuntimeError", "invalid multinomial distribution (sum of probabilities <= 0)");
        if (!replacement) {
            std::vector<double> score(static_cast<size_t>(categories));
            for (size_t c = 0; c < score.size(); ++c) score[c] = weights[c] / -std::log1p(-randomUniform());
            std::iota(order.begin(), order.end(), int64_t{0});
            std::stable_sort(order.begin(), order.end(), [&](int64_t x, int64_t y) {
                return score[static_cast<size_t>(x)] > score[static_cast<size_t>(y)];
            });
            for (int64_t s = 0; s < samples; ++s) out.writeDouble(r * samples + s, static_cast<double>(order[static_cast<size_t>(s)]));
            continue;
        }
        for (int64_t s = 0; s < samples; ++s) {
            const double target = randomUniform() * total;
            int64_t pick = 0;
            for (double sum = 0; pick < categories - 1; ++pick) {
                sum += weights[static_cast<size_t>(pick)];
                if (weights[static_cast<size_t>(pick)] > 0 && target < sum) break;
            }
            while (weights[static_cast<size_t>(pick)] == 0) --pick;  // rounding at the top end
            out.writeDouble(r * samples + s, static_cast<double>(pick));
        }
    }
}

}  // namespace

void registerSelectionOps(OpRegistry& r) {
    OpDef d;
    d.name = "topk";
    d.schema = "topk(Tensor self, int k, int dim=-1, bool largest=True, bool sorted=True) -> (Tensor values, Tensor indices)";
    d.infer = [](const BoundArgs& a) {
        auto [v, i] = topkMetas(a);
        return IValue::tuple({metaTensor(v), metaTensor(i)});
    };
    d.kernel = topk;
    // The values' gradient goes where they were taken from: gather's, by the indices.
    d.derivative = [](const DerivativeArgs& da) {
        const OpRegistry& reg = OpRegistry::instance();
        const OpDef& gather = *reg.find("gather");
        BoundArgs b = reg.bind(gather, {da.args["self"], da.args["dim"], da.result.toSequence()->items[1]}, {});
        return gather.derivative(DerivativeArgs{b, da.result.toSequence()->items[0], da.grad, da.beforeRead});
    };
    runEagerly(r.add(std::move(d)), "a sort, which the loop IR has no form for yet");
    runEagerly(r.add(makeOp("multinomial",
                            "multinomial(Tensor self, int num_samples, bool replacement=False, *, Any? generator=None) -> Tensor",
                            {}, multinomialMeta, multinomialInto)),
               "random numbers come from the eager generator, so compiled and eager runs draw the same values");
}

}  // namespace fusescope

#include "backends/accuracy.h"

#include <cmath>

#include <fmt/format.h>

#include "backends/backend.h"
#include "core/random.h"
#include "dispatch/dispatcher.h"

namespace fusescope {

namespace {

// The graph run eagerly with floating inputs in float64; nullopt when the graph cannot run
// that way (an op that insists on its dtype).
std::optional<std::vector<Tensor>> runInFloat64(const Graph& graph, const std::vector<Tensor>& inputs) {
    std::vector<Tensor> wide;
    for (const Tensor& t : inputs)
        wide.push_back(t.defined() && isFloating(t.dtype())
                           ? dispatch("to", {IValue(t), IValue(DType::Float64)}, {}).toTensor()
                           : t);
    try {
        return runGraphEagerly(graph, wide);
    } catch (const Error&) {
        return std::nullopt;
    }
}

std::vector<int64_t> multiIndex(int64_t flat, const Shape& sizes) {
    std::vector<int64_t> index(sizes.size());
    for (size_t d = sizes.size(); d-- > 0;) {
        index[d] = sizes[d] ? flat % sizes[d] : 0;
        flat = sizes[d] ? flat / sizes[d] : 0;
    }
    return index;
}

std::string number(double v) { return fmt::format("{:.9g}", v); }

std::optional<std::string> firstDifference(const Tensor& compiled, const Tensor& eager, const Tensor* wide) {
    if (compiled.sizes() != eager.sizes())
        return fmt::format("compiled shape [{}] but eager [{}]", fmt::join(compiled.sizes(), ", "), fmt::join(eager.sizes(), ", "));
    if (compiled.dtype() != eager.dtype())
        return fmt::format("compiled dtype {} but eager {}", dtypeName(compiled.dtype()), dtypeName(eager.dtype()));
    double tol = accuracyTolerance(eager.dtype());
    for (int64_t i = 0; i < eager.numel(); ++i) {
        double c = compiled.readDouble(i), e = eager.readDouble(i);
        if (c == e || (std::isnan(c) && std::isnan(e))) continue;
        bool close = std::abs(c - e) <= tol + tol * std::abs(e);
        if (close) continue;
        std::string reference;
        if (wide && wide->sizes() == eager.sizes()) {
            double w = wide->readDouble(i);
            if (std::abs(c - w) <= 2 * std::abs(e - w) + tol) continue;  // as close to the truth as eager
            reference = ", float64 " + number(w);
        }
        return fmt::format("element [{}]: compiled {}, eager {}{} (tolerance {})", fmt::join(multiIndex(i, eager.sizes()), ", "),
                           number(c), number(e), reference, tol == 0 ? "exact" : fmt::format("rtol = atol = {:g}", tol));
    }
    return std::nullopt;
}

}  // namespace

std::string AccuracyMismatch::str() const { return fmt::format("output {} ({}) {}", output, outputName, detail); }

double accuracyTolerance(DType dtype) {
    switch (dtype) {
    case DType::Float64: return 1e-7;
    case DType::Float32: return 1e-4;
    case DType::Float16:
    case DType::BFloat16: return 1e-2;
    default: return 0;
    }
}

std::optional<AccuracyMismatch> compareWithEager(const Graph& graph, const std::vector<Tensor>& inputs,
                                                 const std::vector<Tensor>& compiled) {
    const std::mt19937_64 random = globalGenerator();  // both runs draw the same random numbers
    std::vector<Tensor> eager = runGraphEagerly(graph, inputs);
    globalGenerator() = random;
    std::optional<std::vector<Tensor>> wide = runInFloat64(graph, inputs);
    for (size_t i = 0; i < eager.size(); ++i) {
        const Argument& out = graph.outputs()[i];
        std::string name = out.kind == Argument::Kind::NodeRef ? out.node->name : "constant";
        if (i >= compiled.size() || !compiled[i].defined())
            return AccuracyMismatch{i, name, "is missing from the compiled results"};
        const Tensor* reference = wide && i < wide->size() ? &(*wide)[i] : nullptr;
        if (auto detail = firstDifference(compiled[i], eager[i], reference)) return AccuracyMismatch{i, name, *detail};
    }
    return std::nullopt;
}

}  // namespace fusescope

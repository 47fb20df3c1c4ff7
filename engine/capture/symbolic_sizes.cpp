#include "capture/symbolic_sizes.h"

#include <algorithm>

#include <fmt/format.h>

namespace fusescope {

int64_t shiftFor(size_t symbolIndex) { return 1'000'003 + static_cast<int64_t>(symbolIndex) * 10'007; }

std::optional<SizeForm> sizeForm(int64_t real, int64_t shadow, const std::vector<ShiftedSymbol>& symbols) {
    const int64_t diff = shadow - real;
    for (size_t i = 0; i < symbols.size(); ++i) {  // c*s + k: one symbol, linear
        if (diff % symbols[i].offset != 0) continue;
        const int64_t coefficient = diff / symbols[i].offset;
        return SizeForm{coefficient, i, std::nullopt, real - coefficient * symbols[i].hint};
    }
    for (size_t i = 0; i < symbols.size(); ++i) {  // c*a*b: a product of two symbols (a flatten of two dynamic dims)
        for (size_t j = i; j < symbols.size(); ++j) {
            const ShiftedSymbol &a = symbols[i], &b = symbols[j];
            if (a.hint == 0 || b.hint == 0 || real % (a.hint * b.hint) != 0) continue;
            const int64_t c = real / (a.hint * b.hint);
            if (c * (a.hint + a.offset) * (b.hint + b.offset) == shadow) return SizeForm{c, i, j, 0};
        }
    }
    return std::nullopt;
}

void SymbolicSizes::addInput(Node* placeholder, const Tensor& real) {
    for (const std::string& symbol : placeholder->meta[0].symbols)
        if (!symbol.empty() && !symbolNamed(symbol)) hints_.push_back(Symbol{symbol, 0, shiftFor(symbolsMade_++)});
    const TensorMeta& meta = placeholder->meta[0];
    for (size_t d = 0; d < meta.sizes.size(); ++d)
        for (Symbol& s : hints_)
            if (s.name == meta.symbols[d]) s.hint = meta.sizes[d];
    inputs_.emplace_back(placeholder, real);
    shadowInput(placeholder, real);
}

const SymbolicSizes::Symbol* SymbolicSizes::symbolNamed(const std::string& name) const {
    auto at = std::find_if(hints_.begin(), hints_.end(), [&](const Symbol& s) { return s.name == name; });
    return at == hints_.end() ? nullptr : &*at;
}

void SymbolicSizes::shadowInput(Node* placeholder, const Tensor& real) {
    const TensorMeta& meta = placeholder->meta[0];
    Shape sizes = meta.sizes;
    for (size_t d = 0; d < sizes.size(); ++d)
        if (const Symbol* symbol = meta.symbols[d].empty() ? nullptr : symbolNamed(meta.symbols[d])) sizes[d] += symbol->offset;
    try {
        Shape strides = real.isContiguous() ? contiguousStrides(sizes) : real.strides();
        shadows_[placeholder] = IValue(Tensor::emptyMeta(sizes, strides, real.dtype()));
    } catch (const Error&) {  // so many dynamic dims that the shifted sizes' product overflows
        throw SymbolicSizesUnsupported(fmt::format("{} has more dynamic dims than Fusescope's symbolic sizes can follow",
                                                   placeholder->target));
    }
}

std::optional<std::string> SymbolicSizes::expressionFor(int64_t real, int64_t shadow) const {
    auto scaled = [](int64_t coefficient, const std::string& term) {
        return coefficient == 1 ? term : fmt::format("{}*{}", coefficient, term);
    };
    std::optional<SizeForm> form = sizeForm(real, shadow, hints_);
    if (!form) return std::nullopt;
    const Symbol& a = hints_[form->a];
    if (!form->b) {  // a specialized symbol is its guarded value
        if (a.specialized) return "";
        std::string term = scaled(form->coefficient, a.name);
        if (form->constant == 0) return term;
        return form->constant > 0 ? fmt::format("{} + {}", term, form->constant) : fmt::format("{} - {}", term, -form->constant);
    }
    const Symbol& b = hints_[*form->b];
    if (a.specialized && b.specialized) return "";
    if (a.specialized || b.specialized) return scaled(form->coefficient * (a.specialized ? a.hint : b.hint), a.specialized ? b.name : a.name);
    // Factors in sympy's order, by name (s27*s77).
    return scaled(form->coefficient, form->a == *form->b ? a.name + "**2" : std::min(a.name, b.name) + "*" + std::max(a.name, b.name));
}

void SymbolicSizes::specialize(const std::string& symbol) {
    for (Symbol& s : hints_)
        if (s.name == symbol) s.specialized = true;
}

std::string SymbolicSizes::symbolNames() const {
    std::string names;
    for (const Symbol& s : hints_) names += (names.empty() ? "" : ", ") + s.name;
    return names;
}

// slice(self, dim, 0, end, 1) of a static dim up to a SymInt end: the shifted end would
// clamp to the dim, so the shadow self is as long as the shifted end there. Where the real
// end is within the dim, the result's size is then the end's expression; where it clamped,
// no expression matches and the graph is not symbolic (SymbolicSizesUnsupported), unless the
// tracer guarded the end past the dim (endPastDim): then the shadow end is the dim's size.
void SymbolicSizes::extendSlicedDim(const Node& node, IValueList& args) {
    const bool sliceFromZero = node.target == "slice" && node.args.size() == 5 && args[0].isTensor() && args[1].isInt() &&
                               args[2].isInt() && args[2].toInt() == 0 && args[3].isInt() && args[4].isInt() && args[4].toInt() == 1;
    if (!sliceFromZero || node.args[3].kind != Argument::Kind::NodeRef || node.args[3].node->symbolicScalar.empty()) return;
    const Tensor& self = args[0].toTensor();
    int64_t dim = args[1].toInt();
    if (dim < 0) dim += self.dim();
    if (&node == endPast_ && dim >= 0 && dim < self.dim()) {
        args[3] = IValue(self.sizes()[static_cast<size_t>(dim)]);
        return;
    }
    if (dim < 0 || dim >= self.dim() || !self.isContiguous() || args[3].toInt() <= self.sizes()[static_cast<size_t>(dim)]) return;
    Shape sizes = self.sizes();
    sizes[static_cast<size_t>(dim)] = args[3].toInt();
    args[0] = IValue(Tensor::emptyMeta(sizes, contiguousStrides(sizes), self.dtype()));
    endWithin_ = &node;
}

void SymbolicSizes::addCall(Node* node, const OpDef& def) {
    if (!active()) return;
    if (inferCall(node, def, false) == Inferred::Failed && !unifyFor(node, def))  // reshape(-1, 2) of an odd s0
        throw SymbolicSizesUnsupported(fmt::format("{} (node {}) accepts only some values of {}", def.name, node->name, symbolNames()));
    calls_.emplace_back(node, &def);
}

SymbolicSizes::Inferred SymbolicSizes::inferCall(Node* node, const OpDef& def, bool dryRun) {
    auto shadowOf = [&](const Node* n) -> const IValue* {
        auto it = shadows_.find(n);
        return it == shadows_.end() ? nullptr : &it->second;
    };
    IValueList args;
    for (const auto& a : node->args) {
        auto v = argumentValue(a, shadowOf);
        if (!v) return Inferred::Skipped;
        args.push_back(std::move(*v));
    }
    Kwargs kwargs;
    for (const auto& [name, a] : node->kwargs) {
        auto v = argumentValue(a, shadowOf);
        if (!v) return Inferred::Skipped;
        kwargs.emplace_back(name, std::move(*v));
    }
    extendSlicedDim(*node, args);
    IValue shadow;
    try {
        BoundArgs bound = OpRegistry::instance().bind(def, args, kwargs);
        shadow = def.infer(bound);
    } catch (const Error&) {
        return Inferred::Failed;
    }
    std::vector<Tensor> shadowTensors;
    if (shadow.isTensor()) shadowTensors.push_back(shadow.toTensor());
    else if (shadow.isSequence())
        for (const auto& item : shadow.toSequence()->items)
            if (item.isTensor()) shadowTensors.push_back(item.toTensor());
    if (shadowTensors.size() != node->meta.size()) return Inferred::Skipped;
    for (size_t i = 0; i < node->meta.size(); ++i)
        if (shadowTensors[i].sizes().size() != node->meta[i].sizes.size()) return Inferred::Skipped;
    if (!dryRun) {
        for (size_t i = 0; i < node->meta.size(); ++i) {
            TensorMeta& meta = node->meta[i];
            const Shape& shadowSizes = shadowTensors[i].sizes();
            meta.symbols.assign(meta.sizes.size(), "");
            for (size_t d = 0; d < meta.sizes.size(); ++d) {
                if (shadowSizes[d] == meta.sizes[d]) continue;
                std::optional<std::string> expression = expressionFor(meta.sizes[d], shadowSizes[d]);
                if (expression) meta.symbols[d] = *expression;
                else
                    throw SymbolicSizesUnsupported(fmt::format("{} (node {}): dim {} of its result depends on {} in a way Fusescope "
                                                               "cannot express (only c*s + k and products of two sizes)",
                                                               def.name, node->name, d, symbolNames()));
            }
        }
    }
    shadows_[node] = shadow;
    return Inferred::Done;
}

bool SymbolicSizes::replay(bool dryRun) {
    shadows_.clear();
    for (const auto& [placeholder, real] : inputs_) shadowInput(placeholder, real);
    for (const auto& [node, def] : calls_)
        if (inferCall(node, *def, dryRun) == Inferred::Failed) return false;
    return true;
}

// Each symbol made the first of equal example size (all at once: x + y.t() needs two such
// pairs), then every merge the call does without undone; what remains is made for good.
bool SymbolicSizes::unifyFor(Node* node, const OpDef& def) {
    std::vector<int64_t> ownOffset;
    std::vector<size_t> into(hints_.size());
    for (size_t j = 0; j < hints_.size(); ++j) {
        ownOffset.push_back(hints_[j].offset);
        into[j] = j;
        for (size_t i = 0; i < j && into[j] == j; ++i)
            if (into[i] == i && !hints_[i].specialized && !hints_[j].specialized && hints_[i].hint == hints_[j].hint) into[j] = i;
    }
    auto infers = [&]() {
        for (size_t j = 0; j < hints_.size(); ++j) hints_[j].offset = ownOffset[into[j]];
        return replay(true) && inferCall(node, def, true) == Inferred::Done;
    };
    if (!infers()) {
        for (size_t j = 0; j < hints_.size(); ++j) hints_[j].offset = ownOffset[j];
        replay(false);  // the shadows as they were
        return false;
    }
    for (size_t j = hints_.size(); j-- > 0;) {
        if (into[j] == j) continue;
        const size_t kept = into[j];
        into[j] = j;
        if (!infers()) into[j] = kept;
    }
    infers();
    for (size_t j = hints_.size(); j-- > 0;) {
        if (into[j] == j) continue;
        const std::string from = hints_[j].name, to = hints_[into[j]].name;
        for (auto& [placeholder, real] : inputs_)
            for (std::string& symbol : placeholder->meta[0].symbols)
                if (symbol == from) symbol = to;
        unified_.emplace_back(from, to);
        hints_.erase(hints_.begin() + static_cast<long>(j));
    }
    std::reverse(unified_.begin(), unified_.end());  // in the symbols' order
    replay(false);
    return inferCall(node, def, false) == Inferred::Done;
}

}  // namespace fusescope

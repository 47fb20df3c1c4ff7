// The strides of an input whose sizes are dynamic, as PyTorch's ShapeEnv makes them
// (capture/symbolic_strides.h): a stride that follows the sizes is guarded equal to them, one of
// its own (a slice's) is a symbol the compiled code reads from the input, guarded >= 2 and by
// the input's contiguity check. PyTorch makes that check's guard where an op first asks: an
// elementwise op or a copy computing its result's strides, a view its layout; else later, when
// the graph is compiled (no user code then).
#include <algorithm>
#include <cctype>

#include <fmt/format.h>

#include "capture/tracer.h"

namespace fusescope {

std::vector<TensorProduct> Tracer::makeSymbolicStrides(const Tensor& real, const std::string& sourceText, TensorMeta& tm) {
    const size_t rank = tm.sizes.size();
    std::vector<bool> dynamic(rank);
    for (size_t d = 0; d < rank; ++d) dynamic[d] = !tm.symbols[d].empty();
    std::vector<SymbolicStride> forms = symbolicStrides(tm.sizes, real.strides(), dynamic);
    // A stride of the same value as a size already a symbol would be that symbol under PyTorch's
    // duck sizing: Fusescope keeps such strides the numbers they are (a stricter guard).
    for (size_t d = 0; d < rank; ++d)
        if (forms[d].kind == SymbolicStride::Kind::Fresh &&
            std::any_of(sizeSymbols_.begin(), sizeSymbols_.end(), [&](const SymbolOrigin& o) { return o.size == real.strides()[d]; }))
            forms.assign(rank, SymbolicStride{});
    std::vector<std::string> strideSymbols(rank);
    for (size_t d = 0; d < rank; ++d) {
        if (forms[d].kind != SymbolicStride::Kind::Fresh) continue;
        const std::string stride = fmt::format("{}.stride()[{}]", sourceText, d);
        strideSymbols[d] = symbolNames_.next(stride);
        log("dynamic", fmt::format("create_symbol {} = {} for {} [2, int_oo] {}", strideSymbols[d], real.strides()[d], stride,
                                   userCodeNote()));
    }
    std::vector<TensorProduct> products = strideProducts(tm.sizes, real.strides(), forms, tm.symbols, strideSymbols);
    tm.strideSymbols.assign(rank, "");
    for (size_t d = 0; d < rank; ++d) {
        const TensorProduct& p = products[d];
        if (p.isNumber()) continue;
        std::vector<std::string> parts;
        if (p.constant != 1) parts.push_back(std::to_string(p.constant));
        for (const TensorProduct::Factor& f : p.factors) parts.push_back(f.symbol);
        tm.strideSymbols[d] = fmt::format("{}", fmt::join(parts, "*"));
    }
    return products;
}

std::string Tracer::printedProduct(const TensorProduct& product, const SourcePtr& source) const {
    std::vector<std::string> parts;
    if (product.constant != 1 || product.factors.empty()) parts.push_back(std::to_string(product.constant));
    for (const TensorProduct::Factor& f : product.factors) {
        const SymbolOrigin* origin = f.stride ? nullptr : symbolOrigin(f.symbol);  // a symbol prints as its first source
        parts.push_back(origin ? fmt::format("{}.size()[{}]", origin->source->str(), origin->dim)
                               : fmt::format("{}.{}()[{}]", source->str(), f.stride ? "stride" : "size", f.dim));
    }
    return fmt::format("{}", fmt::join(parts, "*"));
}

Guard Tracer::strideRelation(const SourcePtr& source, int64_t dim, CompareOperator relation, const TensorProduct& product) const {
    Guard g;
    g.kind = Guard::Kind::StrideRelation;
    g.source = source;
    g.dim = dim;
    g.relation = relation;
    g.product = product;
    g.productText = printedProduct(product, source);
    return g;
}

void Tracer::addStrideGuards(const SourcePtr& source, const std::vector<TensorProduct>& strides, const Node* placeholder) {
    std::vector<int64_t> fresh;
    for (size_t d = 0; d < strides.size(); ++d) {
        const TensorProduct& p = strides[d];
        const bool own = p.factors.size() == 1 && p.factors[0].stride && p.factors[0].dim == static_cast<int64_t>(d);
        if (own) fresh.push_back(static_cast<int64_t>(d));
        if (p.isNumber() || own) continue;
        Guard layout = strideRelation(source, static_cast<int64_t>(d), CompareOperator::Eq, p);
        layout.madeIn = "";  // made with the fake tensor: its comment names no user code
        addGuard(std::move(layout));
    }
    // A stride symbol's range, after the sizes' (ShapeEnv makes it after them), the smallest first.
    std::stable_sort(fresh.begin(), fresh.end(), [&](int64_t a, int64_t b) {
        return strides[a].value() != strides[b].value() ? strides[a].value() < strides[b].value() : a > b;
    });
    for (int64_t d : fresh) {
        Guard range = strideRelation(source, d, CompareOperator::GtE, {});
        range.count = 2;
        addGuard(std::move(range));
    }
    const TensorMeta& meta = placeholder->meta[0];
    for (const ContiguityGuard& c : contiguityGuards(meta.sizes, meta.symbols, strides)) {
        Guard g = strideRelation(source, c.dim, c.equal ? CompareOperator::Eq : CompareOperator::NotEq, c.expected);
        g.madeIn = "_prims_common/__init__.py:288 in check_contiguous_sizes_strides";
        pendingContiguity_[placeholder].push_back(std::move(g));
    }
}

void Tracer::guardContiguityAt(const Node& op, const OpDef& def) {
    if (pendingContiguity_.empty()) return;
    for (const Argument& a : op.args) {
        if (a.kind != Argument::Kind::NodeRef || a.node->op != NodeOp::Placeholder) continue;
        auto pending = pendingContiguity_.find(a.node);
        if (pending == pendingContiguity_.end()) continue;
        const bool view = def.name == "view" || def.name == "reshape";
        const bool sameShape = !op.meta.empty() && op.meta[0].sizes == a.node->meta[0].sizes;
        if (!view && !sameShape) continue;  // its result's strides do not ask: later, when compiled
        for (Guard& g : pending->second) {
            if (view) g.madeIn = "_dynamo/utils.py:4561 in run_node";
            addGuard(std::move(g));
        }
        pendingContiguity_.erase(pending);
    }
}

void Tracer::guardContiguityLeft() {
    for (auto& [placeholder, guards] : pendingContiguity_)
        for (Guard& g : guards) keepGuard(std::move(g));
    pendingContiguity_.clear();
}

void Tracer::unifyStrideSymbols(const std::string& replaced, const std::string& kept) {
    // The inputs' strides name the kept symbol too (s69*s99 -> s69*s74): the lowering binds
    // only symbols that remain.
    auto renamed = [&](const std::string& expression) {
        std::string out, token;
        auto flush = [&] { out += token == replaced ? kept : token; token.clear(); };
        for (char c : expression) {
            if (std::isalnum(static_cast<unsigned char>(c)) || c == '_') token += c;
            else flush(), out += c;
        }
        flush();
        return out;
    };
    for (const auto& node : graph_->nodes())
        for (TensorMeta& meta : node->meta)
            for (std::string& stride : meta.strideSymbols) stride = renamed(stride);
    for (Guard& g : guards_) {
        if (g.kind != Guard::Kind::StrideRelation) continue;
        bool changed = false;
        for (TensorProduct::Factor& f : g.product.factors)
            if (!f.stride && f.symbol == replaced) f.symbol = kept, changed = true;
        if (!changed) continue;
        g.product = g.product.times({});  // sorted again
        g.productText = printedProduct(g.product, g.source);
    }
}

void Tracer::fixStrides(const std::string& source) {
    for (size_t i = guards_.size(); i-- > 0;)
        if (guards_[i].kind == Guard::Kind::StrideRelation && guards_[i].source->str() == source) {
            guardKeys_.erase(guardKey(guards_[i]));
            guards_.erase(guards_.begin() + static_cast<long>(i));
            guardReads_.erase(guardReads_.begin() + static_cast<long>(i));
        }
    for (Guard& g : guards_)
        if (g.kind == Guard::Kind::TensorMatch && g.source->str() == source)
            for (size_t d = 0; d < g.strides.size(); ++d)
                if (!g.strides[d]) g.strides[d] = g.strideValues.at(d);
    for (auto& [placeholder, pending] : pendingContiguity_)
        std::erase_if(pending, [&](const Guard& g) { return g.source->str() == source; });
}

}  // namespace fusescope

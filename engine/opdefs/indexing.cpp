// Ops that read their input at computed positions: embedding, index_select and gather
// (positions another tensor holds), flip and repeat (positions an index expression gives).
// embedding, index_select and gather lower to a load at a computed position (the index
// checked against the extent: embedding and index_select raise eager's IndexError; gather
// raises RuntimeError "index out of bounds", as torch.compile's generated code does, not
// naming the index as eager's message does); flip and repeat to a load at a rewritten
// index.

#include <algorithm>
#include <cstring>
#include <functional>

#include <fmt/format.h>

#include "autograd/derivative_ops.h"
#include "core/error.h"
#include "lower/piecewise.h"
#include "opdefs/op_families.h"
#include "ops/kernel_support.h"

namespace fusescope {

namespace {

bool isIndexDtype(DType t) { return t == DType::Int64 || t == DType::Int32; }

// The coordinates of a contiguous tensor's element `flat` (row-major).
Shape coordinatesOf(int64_t flat, const Shape& sizes) {
    Shape at(sizes.size());
    for (size_t d = sizes.size(); d-- > 0;) {
        at[d] = sizes[d] ? flat % sizes[d] : 0;
        flat = sizes[d] ? flat / sizes[d] : 0;
    }
    return at;
}

// Storage offset (elements) of the element of `t` at `at`.
int64_t offsetOf(const Tensor& t, const Shape& at) {
    int64_t offset = t.storageOffset();
    for (size_t d = 0; d < at.size(); ++d) offset += at[d] * t.strides()[d];
    return offset;
}

// Copies elements of `src` (by storage offset) to elements of contiguous `out` (by flat
// index); the storages are looked up once, not per element.
class ElementCopier {
public:
    ElementCopier(const Tensor& src, const Tensor& out)
        : from_(static_cast<const char*>(src.storage()->data())), to_(static_cast<char*>(out.dataPtr())),
          bytes_(dtypeSize(src.dtype())) {}
    void operator()(int64_t from, int64_t to) const {
        std::memcpy(to_ + to * static_cast<int64_t>(bytes_), from_ + from * static_cast<int64_t>(bytes_), bytes_);
    }

private:
    const char* from_;
    char* to_;
    size_t bytes_;
};

ResultMeta embeddingMeta(const BoundArgs& a) {
    const Tensor& weight = a.tensor("weight");
    const Tensor& indices = a.tensor("indices");
    if (!isIndexDtype(indices.dtype()))
        throw ScriptError("RuntimeError",
                          fmt::format("Expected tensor for argument #1 'indices' to have one of the following scalar types: Long, Int; "
                                      "but got {} instead (while checking arguments for embedding)",
                                      legacyTypeName(indices.dtype())));
    if (weight.dim() != 2) throw ScriptError("RuntimeError", "'weight' must be 2-D");
    Shape sizes = indices.sizes();
    sizes.push_back(weight.sizes()[1]);
    return contiguousMeta(sizes, weight.dtype());
}

void embeddingInto(const BoundArgs& a, const Tensor& out) {
    const Tensor& weight = a.tensor("weight");
    const Tensor& indices = a.tensor("indices");
    const int64_t rows = weight.sizes()[0], width = weight.sizes()[1];
    ElementCopier copy(weight, out);
    for (int64_t k = 0; k < indices.numel(); ++k) {
        int64_t row = indices.readInt64(k);
        if (row < 0 || row >= rows) throw ScriptError("IndexError", "index out of range in self");
        for (int64_t j = 0; j < width; ++j)
            copy(weight.storageOffset() + row * weight.strides()[0] + j * weight.strides()[1], k * width + j);
    }
}

ResultMeta indexSelectMeta(const BoundArgs& a) {
    const Tensor& self = a.tensor("self");
    const Tensor& index = a.tensor("index");
    int64_t dim = wrapDim(a.integer("dim"), self.dim());
    if (index.dim() > 1) throw ScriptError("IndexError", "index_select(): Index is supposed to be a vector");
    if (!isIndexDtype(index.dtype())) throw ScriptError("RuntimeError", "index_select(): Expected dtype int32 or int64 for index");
    Shape sizes = self.sizes();
    if (self.dim() > 0) sizes[static_cast<size_t>(dim)] = index.numel();
    return contiguousMeta(sizes, self.dtype());
}

void indexSelectInto(const BoundArgs& a, const Tensor& out) {
    const Tensor& self = a.tensor("self");
    const Tensor& index = a.tensor("index");
    const size_t dim = static_cast<size_t>(wrapDim(a.integer("dim"), self.dim()));
    const int64_t extent = self.dim() > 0 ? self.sizes()[dim] : 1;
    for (int64_t k = 0; k < index.numel(); ++k)
        if (int64_t i = index.readInt64(k); i < 0 || i >= extent) throw ScriptError("IndexError", "index out of range in self");
    ElementCopier copy(self, out);
    for (int64_t flat = 0; flat < out.numel(); ++flat) {
        Shape at = coordinatesOf(flat, out.sizes());
        if (!at.empty()) at[dim] = index.readInt64(at[dim]);
        copy(offsetOf(self, at), flat);
    }
}

ResultMeta gatherMeta(const BoundArgs& a) {
    const Tensor& self = a.tensor("self");
    const Tensor& index = a.tensor("index");
    int64_t dim = wrapDim(a.integer("dim"), self.dim());
    if (!isIndexDtype(index.dtype())) throw ScriptError("RuntimeError", "gather(): Expected dtype int32/int64 for index");
    if (std::max<int64_t>(index.dim(), 1) != std::max<int64_t>(self.dim(), 1))
        throw ScriptError("RuntimeError", "Index tensor must have the same number of dimensions as input tensor");
    for (int64_t d = 0; d < index.dim(); ++d)
        if (d != dim && self.dim() > 0 && index.sizes()[d] > self.sizes()[d])
            throw ScriptError("RuntimeError", fmt::format("Size does not match at dimension {} expected index {} to be no larger than "
                                                          "self {} apart from dimension {}",
                                                          d, shapeStr(index.sizes()), shapeStr(self.sizes()), dim));
    return contiguousMeta(index.sizes(), self.dtype());
}

void gatherInto(const BoundArgs& a, const Tensor& out) {
    const Tensor& self = a.tensor("self");
    const Tensor& index = a.tensor("index");
    const int64_t dim = wrapDim(a.integer("dim"), self.dim());
    const int64_t extent = self.dim() > 0 ? self.sizes()[static_cast<size_t>(dim)] : 1;
    ElementCopier copy(self, out);
    for (int64_t flat = 0; flat < out.numel(); ++flat) {
        Shape at = coordinatesOf(flat, out.sizes());
        int64_t i = index.readInt64(flat);
        if (i < 0 || i >= extent)
            throw ScriptError("RuntimeError", fmt::format("index {} is out of bounds for dimension {} with size {}", i, dim, extent));
        if (!at.empty()) at[static_cast<size_t>(dim)] = i;
        copy(offsetOf(self, at), flat);
    }
}

// A lazy value of the output's shape reading `source`: along `dim` at the position
// `indices` holds at `indexOf(output index)`, checked against the extent (fs_status 2:
// IndexError); along every other source dim d at output index `sourceDims[d]`.
LValue indexedLoad(LoweringContext& c, LValue source, const LValue& indices, size_t dim, std::vector<size_t> sourceDims,
                   std::function<std::vector<IndexExpr>(const std::vector<IndexExpr>&)> indexOf) {
    if (!source.storageBacked()) source = c.realize(source, nullptr, "read at positions another tensor holds");
    DType t = source.dtype;
    return c.lazy(c.outputSizes(), t,
                  [source, indices, dim, sourceDims, indexOf, t](LoopBodyBuilder& b, const std::vector<IndexExpr>& i) {
                      int at = b.call(LoopOpKind::CheckIndex,
                                      {b.toDtype(indices.load(b, indexOf(i)), DType::Int64), indexConstant(b, source.sizes[dim])},
                                      DType::Int64);
                      int offset = b.call(LoopOpKind::Mul, {at, indexConstant(b, source.view.stride[dim])}, DType::Int64);
                      IndexExpr rest = source.view.offset;
                      for (size_t d = 0; d < sourceDims.size(); ++d)
                          if (d != dim) rest = rest + i[sourceDims[d]] * source.view.stride[d];
                      return b.loadAt(source.buffer, b.call(LoopOpKind::Add, {offset, indexConstant(b, rest.simplify(b.ranges()))}, DType::Int64),
                                      t);
                  },
                  {source, indices});
}

// out[..., j] = weight[indices[...], j].
std::vector<LValue> lowerEmbedding(LoweringContext& c, const LoweringArgs& a) {
    LValue weight = a.tensor("weight"), indices = a.tensor("indices");
    size_t rank = c.outputSizes().size();
    return {indexedLoad(c, weight, indices, 0, {0, rank - 1}, [](const std::vector<IndexExpr>& i) {
        return std::vector<IndexExpr>(i.begin(), i.end() - 1);
    })};
}

// out[i] = self[i with index[i] along `dim`]: the output (index's shape) reads self at
// its own position in every other dim.
std::vector<LValue> lowerGather(LoweringContext& c, const LoweringArgs& a) {
    LValue self = a.tensor("self"), index = a.tensor("index");
    if (self.sizes.empty() || index.sizes.size() != self.sizes.size()) c.unsupported("gather of a 0-dim tensor");
    size_t dim = static_cast<size_t>(normalizeDim(a.bound().integer("dim"), self.sizes.size()));
    std::vector<size_t> same(self.sizes.size());
    for (size_t d = 0; d < same.size(); ++d) same[d] = d;
    return {indexedLoad(c, self, index, dim, same, [](const std::vector<IndexExpr>& i) { return i; })};
}

// out[..., k, ...] = self[..., index[k], ...] along `dim`.
std::vector<LValue> lowerIndexSelect(LoweringContext& c, const LoweringArgs& a) {
    LValue self = a.tensor("self"), index = a.tensor("index");
    if (self.sizes.empty()) c.unsupported("index_select of a 0-dim tensor");
    size_t dim = static_cast<size_t>(normalizeDim(a.bound().integer("dim"), self.sizes.size()));
    std::vector<size_t> same(self.sizes.size());
    for (size_t d = 0; d < same.size(); ++d) same[d] = d;
    bool scalarIndex = index.sizes.empty();
    return {indexedLoad(c, self, index, dim, same, [dim, scalarIndex](const std::vector<IndexExpr>& i) {
        return scalarIndex ? std::vector<IndexExpr>{} : std::vector<IndexExpr>{i[dim]};
    })};
}

// out[at] = self[source(at)] for every element of contiguous `out`.
void copyFromSource(const Tensor& self, const Tensor& out, const std::function<void(Shape&)>& source) {
    ElementCopier copy(self, out);
    for (int64_t flat = 0; flat < out.numel(); ++flat) {
        Shape at = coordinatesOf(flat, out.sizes());
        source(at);
        copy(offsetOf(self, at), flat);
    }
}

// A lazy value of the output's shape reading `self` at `source(output index)`.
LValue loadFromSource(LoweringContext& c, const LValue& self,
                      std::function<std::vector<IndexExpr>(const std::vector<IndexExpr>&)> source) {
    return c.lazy(c.outputSizes(), self.dtype,
                  [self, source](LoopBodyBuilder& b, const std::vector<IndexExpr>& i) { return self.load(b, source(i)); }, {self});
}

std::vector<size_t> flipDims(const BoundArgs& a) {
    const Tensor& self = a.tensor("self");
    std::vector<size_t> dims;
    for (int64_t d : a.ints("dims")) {
        size_t dim = static_cast<size_t>(wrapDim(d, self.dim()));
        if (std::find(dims.begin(), dims.end(), dim) != dims.end())
            throw ScriptError("RuntimeError", fmt::format("dim {} appears multiple times in the list of dims", dim));
        dims.push_back(dim);
    }
    return dims;
}

// flip: index i of a flipped dim of size n reads n - 1 - i.
std::vector<LValue> lowerFlip(LoweringContext& c, const LoweringArgs& a) {
    std::vector<size_t> dims = flipDims(a.bound());
    LValue self = a.tensor("self");
    std::vector<IndexExpr> sizes = self.sizes;
    return {loadFromSource(c, self, [dims, sizes](std::vector<IndexExpr> i) {
        for (size_t d : dims) i[d] = sizes[d] - IndexExpr(1) - i[d];
        return i;
    })};
}

// repeat: the output has len(repeats) dims; its last self.dim() dims are self's tiled, so
// index i of such a dim reads i mod n.
Shape repeatedSizes(const BoundArgs& a) {
    const Tensor& self = a.tensor("self");
    std::vector<int64_t> repeats = a.ints("repeats");
    if (static_cast<int64_t>(repeats.size()) < self.dim())
        throw ScriptError("RuntimeError", "Number of dimensions of repeat dims can not be smaller than number of dimensions of tensor");
    Shape sizes(repeats.size());
    const size_t lead = repeats.size() - static_cast<size_t>(self.dim());
    // Wrapping as PyTorch's product does: an overflow is then its negative-dimension error.
    for (size_t d = 0; d < repeats.size(); ++d)
        sizes[d] = static_cast<int64_t>(static_cast<uint64_t>(repeats[d]) * static_cast<uint64_t>(d < lead ? 1 : self.sizes()[d - lead]));
    for (int64_t size : sizes)
        if (size < 0) throw ScriptError("RuntimeError", fmt::format("Trying to create tensor with negative dimension {}: {}", size, shapeStr(sizes)));
    return sizes;
}

std::vector<LValue> lowerRepeat(LoweringContext& c, const LoweringArgs& a) {
    LValue self = a.tensor("self");
    std::vector<IndexExpr> sizes = self.sizes;
    size_t lead = c.outputSizes().size() - sizes.size();
    return {loadFromSource(c, self, [sizes, lead](const std::vector<IndexExpr>& i) {
        std::vector<IndexExpr> at;
        for (size_t d = 0; d < sizes.size(); ++d) at.push_back(IndexExpr::mod(i[lead + d], sizes[d]));
        return at;
    })};
}

}  // namespace

namespace {

// `index` compared with every class 0..count-1 along a new dim at `at`: 1 where it names
// the class, in `dtype` (a gather's or an embedding's gradient is scattered with it).
Tensor oneHot(const Tensor& index, int64_t count, int64_t at, DType dtype) {
    Shape classes(static_cast<size_t>(index.dim() + 1), 1);
    classes[static_cast<size_t>(at)] = count;
    Tensor range = grad::reshape(grad::arange(count, index), classes);
    return grad::call("to", {grad::call("eq", {grad::call("unsqueeze", {index, at}), range}), dtype});
}

// gather: each picked element's gradient goes back to where it was picked from (summed
// where picked twice); embedding: each row's gradient to its row of the weight.
void registerIndexingDerivatives(OpRegistry& r) {
    differentiateWith(r.definition("gather"), [](const DerivativeArgs& d) {
        const Tensor &self = d.like("self"), &index = d.input("index");
        if (self.dim() == 0)  // every pick is the one element
            return ArgumentGradients{{"self", grad::reshape(grad::call("sum", {d.grad}), {})}};
        const int64_t dim = d.args.integer("dim") < 0 ? d.args.integer("dim") + self.dim() : d.args.integer("dim");
        for (int64_t k = 0; k < self.dim(); ++k)
            if (k != dim && index.size(k) != self.size(k))
                throw ScriptError("RuntimeError", "the derivative for 'gather' with an index smaller than the input is not implemented.");
        Tensor hot = oneHot(index, self.size(dim), dim + 1, d.grad.dtype());  // [.., K, C, ..]
        Tensor picked = grad::mul(hot, grad::call("unsqueeze", {d.grad, dim + 1}));
        return ArgumentGradients{{"self", grad::call("sum", {picked, IValue::intList({dim})})}};
    });
    differentiateWith(r.definition("embedding"), [](const DerivativeArgs& d) {
        const Tensor& weight = d.like("weight");
        Tensor hot = oneHot(grad::reshape(d.input("indices"), {-1}), weight.size(0), 1, d.grad.dtype());  // [rows, V]
        if (int64_t padding = d.args.integer("padding_idx"); padding >= 0) {  // the padding row gets none
            Tensor kept = grad::call("ne", {grad::arange(weight.size(0), d.grad), padding});
            hot = grad::mul(hot, grad::call("to", {kept, d.grad.dtype()}));
        }
        Tensor rows = grad::reshape(grad::call("contiguous", {d.grad}), {-1, weight.size(1)});
        return ArgumentGradients{{"weight", grad::call("mm", {grad::call("t", {hot}), rows})}};
    });
    // index_select: each picked slice's gradient back to its place, summed where picked twice.
    differentiateWith(r.definition("index_select"), [](const DerivativeArgs& d) {
        const Tensor& self = d.like("self");
        if (self.dim() == 0) return ArgumentGradients{{"self", grad::fitTo(d.grad, self)}};
        const int64_t dim = d.args.integer("dim") < 0 ? d.args.integer("dim") + self.dim() : d.args.integer("dim");
        Tensor hot = oneHot(grad::reshape(d.input("index"), {-1}), self.size(dim), 1, d.grad.dtype());  // [picked, size]
        Tensor placed = grad::call("matmul", {grad::transpose(d.grad, dim, -1), hot});
        return ArgumentGradients{{"self", grad::call("contiguous", {grad::transpose(placed, dim, -1)})}};
    });
    differentiateWith(r.definition("flip"), [](const DerivativeArgs& d) {
        return ArgumentGradients{{"self", grad::call("flip", {d.grad, d.args["dims"]})}};
    }, Saved::SizesOnly);
    // repeat: the gradient of each copy summed: viewed as [r0, s0, r1, s1, ...], summed over the r's.
    differentiateWith(r.definition("repeat"), [](const DerivativeArgs& d) {
        const Tensor& self = d.input("self");
        std::vector<int64_t> repeats = d.args.ints("repeats");
        Shape sizes(repeats.size() - static_cast<size_t>(self.dim()), 1);
        sizes.insert(sizes.end(), self.sizes().begin(), self.sizes().end());
        Shape split;
        std::vector<int64_t> copies;
        for (size_t i = 0; i < repeats.size(); ++i) {
            copies.push_back(static_cast<int64_t>(split.size()));
            split.push_back(repeats[i]);
            split.push_back(sizes[i]);
        }
        Tensor summed = grad::call("sum", {grad::reshape(grad::call("contiguous", {d.grad}), split), IValue::intList(copies)});
        return ArgumentGradients{{"self", grad::reshape(summed, self.sizes())}};
    }, Saved::SizesOnly);
}

}  // namespace

void registerIndexingOps(OpRegistry& r) {
    lowerWith(r.add(makeOp("embedding",
                           "embedding(Tensor weight, Tensor indices, int padding_idx=-1, bool scale_grad_by_freq=False, "
                           "bool sparse=False) -> Tensor",
                           {true, false, false}, embeddingMeta, embeddingInto)),
              lowerEmbedding);
    lowerWith(r.add(makeOp("index_select", "index_select(Tensor self, int dim, Tensor index) -> Tensor", {}, indexSelectMeta,
                           indexSelectInto)),
              lowerIndexSelect);
    lowerWith(r.add(makeOp("flip", "flip(Tensor self, int[] dims) -> Tensor", {},
                           [](const BoundArgs& a) {
                               flipDims(a);
                               return contiguousMeta(a.tensor("self").sizes(), a.tensor("self").dtype());
                           },
                           [](const BoundArgs& a, const Tensor& out) {
                               std::vector<size_t> dims = flipDims(a);
                               const Shape& sizes = a.tensor("self").sizes();
                               copyFromSource(a.tensor("self"), out, [&](Shape& at) {
                                   for (size_t d : dims) at[d] = sizes[d] - 1 - at[d];
                               });
                           })),
              lowerFlip);
    lowerWith(r.add(makeOp("repeat", "repeat(Tensor self, int[] repeats) -> Tensor", {false, true, false},
                           [](const BoundArgs& a) { return contiguousMeta(repeatedSizes(a), a.tensor("self").dtype()); },
                           [](const BoundArgs& a, const Tensor& out) {
                               const Tensor& self = a.tensor("self");
                               const size_t lead = out.sizes().size() - self.sizes().size();
                               copyFromSource(self, out, [&](Shape& at) {
                                   at.erase(at.begin(), at.begin() + static_cast<int64_t>(lead));
                                   for (size_t d = 0; d < at.size(); ++d) at[d] %= self.sizes()[d];
                               });
                           })),
              lowerRepeat);
    lowerWith(r.add(makeOp("gather", "gather(Tensor self, int dim, Tensor index, *, bool sparse_grad=False) -> Tensor", {},
                           gatherMeta, gatherInto)),
              lowerGather);
    registerIndexingDerivatives(r);
}

}  // namespace fusescope

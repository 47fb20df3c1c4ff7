// Convolution and pooling over 1-D and 2-D windows: conv1d, conv2d, max_pool2d, avg_pool2d,
// adaptive_avg_pool2d. The eager kernels are in ops/convolution_kernel.*. In compiled
// graphs a convolution is an extern kernel (fs_convolution, oneDNN) on the CPU, and pooling
// is a reduction over the window, which fuses like any other; what they cannot express
// (dynamic sizes, uneven adaptive windows, average pooling over padding) runs eagerly.

#include <cmath>
#include <functional>
#include <optional>

#include <fmt/format.h>

#include "autograd/derivative_ops.h"
#include "core/error.h"
#include "lower/piecewise.h"
#include "opdefs/op_families.h"
#include "ops/convolution_kernel.h"
#include "ops/kernel_support.h"

namespace fusescope {

namespace {

std::string dimsText(const Shape& sizes, const char* separator) {
    std::string out;
    for (size_t i = 0; i < sizes.size(); ++i) out += (i ? separator : "") + std::to_string(sizes[i]);
    return out;
}

// An int[N] argument with N values (a single one repeated, as PyTorch's _pair does).
std::vector<int64_t> spatialInts(const BoundArgs& a, std::string_view name, size_t n) {
    std::vector<int64_t> v = a.ints(name);
    if (v.size() == 1) v.assign(n, v[0]);
    if (v.size() != n)
        throw ScriptError("RuntimeError", fmt::format("{}: {} must have {} elements, got {}", a.opName, name, n, v.size()));
    return v;
}

// The op's input as N x C x H x W: `spatial` window dims, with an optional batch dim.
struct WindowInput {
    Tensor data;  // contiguous
    bool batched = true;
    Shape spatialSizes;
};

WindowInput windowInput(const Tensor& input, size_t spatial, const char* op) {
    if (input.dim() != static_cast<int64_t>(spatial) + 1 && input.dim() != static_cast<int64_t>(spatial) + 2)
        throw ScriptError("RuntimeError", fmt::format("Expected {}D (unbatched) or {}D (batched) input to {}, but got input of size: {}",
                                                      spatial + 1, spatial + 2, op, shapeStr(input.sizes())));
    // A meta tensor (shapes only) is never copied.
    WindowInput w{input.isContiguous() || input.isMeta() ? input : contiguousCopy(input), input.dim() == static_cast<int64_t>(spatial) + 2, {}};
    w.spatialSizes.assign(input.sizes().end() - static_cast<int64_t>(spatial), input.sizes().end());
    return w;
}

// Output sizes: the batch dim if the input had one, then channels, then the window dims.
Shape windowOutputSizes(const WindowInput& in, int64_t batch, int64_t channels, const Shape& spatial) {
    Shape out;
    if (in.batched) out.push_back(batch);
    out.push_back(channels);
    out.insert(out.end(), spatial.begin(), spatial.end());
    return out;
}

// The 2-D window geometry of a 1-D or 2-D op (a 1-D one has height 1).
WindowShape windowShape(const WindowInput& in, const Shape& inputSizes, const std::vector<int64_t>& kernel, const Shape& output,
                        const std::vector<int64_t>& stride, const std::vector<int64_t>& padding,
                        const std::vector<int64_t>& dilation) {
    WindowShape s;
    s.batch = in.batched ? inputSizes[0] : 1;
    s.channels = inputSizes[in.batched ? 1 : 0];
    size_t first = kernel.size() == 1 ? 1 : 0;  // 1-D: the width only
    for (size_t d = 0; d < kernel.size(); ++d) {
        s.input[first + d] = in.spatialSizes[d];
        s.kernel[first + d] = kernel[d];
        s.output[first + d] = output[d];
        s.stride[first + d] = stride[d];
        s.padding[first + d] = padding[d];
        s.dilation[first + d] = dilation[d];
    }
    return s;
}

// ---- convolution ------------------------------------------------------------------------

struct ConvArgs {
    size_t spatial;
    std::vector<int64_t> stride, padding, dilation;
    int64_t groups;
};

ConvArgs convArgs(const BoundArgs& a) {
    size_t spatial = static_cast<size_t>(std::max<int64_t>(a.tensor("weight").dim() - 2, 1));
    return {spatial, spatialInts(a, "stride", spatial), spatialInts(a, "padding", spatial), spatialInts(a, "dilation", spatial),
            a.integer("groups")};
}

ResultMeta convolutionMeta(const BoundArgs& a, const char* op, size_t spatial) {
    const Tensor& input = a.tensor("input");
    const Tensor& weight = a.tensor("weight");
    ConvArgs c = convArgs(a);
    WindowInput in = windowInput(input, spatial, op);
    if (weight.dim() != static_cast<int64_t>(spatial) + 2)
        throw ScriptError("RuntimeError", fmt::format("weight should have at least three dimensions"));
    if (c.groups <= 0) throw ScriptError("RuntimeError", "non-positive groups is not supported");
    for (size_t d = 0; d < spatial; ++d) {
        if (c.stride[d] <= 0) throw ScriptError("RuntimeError", "non-positive stride is not supported");
        if (c.padding[d] < 0) throw ScriptError("RuntimeError", "negative padding is not supported");
        if (c.dilation[d] <= 0) throw ScriptError("RuntimeError", "dilation should be greater than zero");
    }
    int64_t channels = input.sizes()[in.batched ? 1 : 0];
    int64_t outChannels = weight.sizes()[0];
    if (outChannels % c.groups != 0)
        throw ScriptError("RuntimeError", fmt::format("Given groups={}, expected weight to be divisible by {} at dimension 0, but got "
                                                      "weight of size [{}] instead",  // PyTorch prints the size in two pairs of brackets
                                                      c.groups, c.groups, shapeStr(weight.sizes())));
    if (channels != weight.sizes()[1] * c.groups) {
        Shape shown = input.sizes();
        if (!in.batched) shown.insert(shown.begin(), 1);
        throw ScriptError("RuntimeError", fmt::format("Given groups={}, weight of size {}, expected input{} to have {} channels, but "
                                                      "got {} channels instead",
                                                      c.groups, shapeStr(weight.sizes()), shapeStr(shown), weight.sizes()[1] * c.groups,
                                                      channels));
    }
    if (!a["bias"].isNone()) {  // the kernels read outChannels values of it
        const Tensor& bias = a.tensor("bias");
        if (bias.dim() != 1 || bias.sizes()[0] != outChannels)
            throw ScriptError("RuntimeError", fmt::format("Given weight of size {}, expected bias to be 1-dimensional with {} elements, "
                                                          "but got bias of size {} instead",
                                                          shapeStr(weight.sizes()), outChannels, shapeStr(bias.sizes())));
        if (bias.dtype() != input.dtype())
            throw ScriptError("RuntimeError", fmt::format("Input type ({}) and bias type ({}) should be the same",
                                                          dtypeName(input.dtype()), dtypeName(bias.dtype())));
    }
    Shape padded, kernel, out;
    for (size_t d = 0; d < spatial; ++d) {
        padded.push_back(in.spatialSizes[d] + 2 * c.padding[d]);
        kernel.push_back((weight.sizes()[2 + d] - 1) * c.dilation[d] + 1);
        out.push_back((padded[d] - kernel[d]) / c.stride[d] + 1);
    }
    for (size_t d = 0; d < spatial; ++d)
        if (padded[d] < kernel[d])
            throw ScriptError("RuntimeError", fmt::format("Calculated padded input size per channel: ({}). Kernel size: ({}). Kernel "
                                                          "size can't be greater than actual input size",
                                                          dimsText(padded, " x "), dimsText(kernel, " x ")));
    if (input.dtype() != weight.dtype())
        throw ScriptError("RuntimeError", fmt::format("Input type ({}) and weight type ({}) should be the same",
                                                      dtypeName(input.dtype()), dtypeName(weight.dtype())));
    if (!isFloating(input.dtype()) || input.dtype() == DType::Float16 || input.dtype() == DType::BFloat16)
        throw ScriptError("RuntimeError", fmt::format("\"{}\" not implemented for '{}'", op, dtypeScalarName(input.dtype())));
    return contiguousMeta(windowOutputSizes(in, input.sizes()[0], outChannels, out), input.dtype());
}

void convolutionInto(const BoundArgs& a, const Tensor& out, size_t spatial) {
    const Tensor& weightArg = a.tensor("weight");
    ConvArgs c = convArgs(a);
    WindowInput in = windowInput(a.tensor("input"), spatial, "convolution");
    Tensor weight = weightArg.isContiguous() ? weightArg : contiguousCopy(weightArg);
    Tensor bias;
    if (!a["bias"].isNone()) bias = a.tensor("bias").isContiguous() ? a.tensor("bias") : contiguousCopy(a.tensor("bias"));
    std::vector<int64_t> kernel(weight.sizes().begin() + 2, weight.sizes().end());
    Shape outSpatial(out.sizes().end() - static_cast<int64_t>(spatial), out.sizes().end());
    WindowShape s = windowShape(in, in.data.sizes(), kernel, outSpatial, c.stride, c.padding, c.dilation);
    convolutionForward(out.dtype(), s, weight.sizes()[0], c.groups, in.data.dataPtr(), weight.dataPtr(),
                       bias.defined() ? bias.dataPtr() : nullptr, out.dataPtr());
}

// ---- pooling ----------------------------------------------------------------------------

// PyTorch's pooling output size, with ceil_mode's rule that the last window starts inside
// the input or its left padding.
int64_t pooledSize(int64_t size, int64_t kernel, int64_t pad, int64_t stride, int64_t dilation, bool ceilMode) {
    int64_t span = size + 2 * pad - dilation * (kernel - 1) - 1;
    // Floor division: a window larger than the input gives 0 (an error below), not 1.
    auto floorDiv = [](int64_t a, int64_t b) { return a / b - (a % b != 0 && (a < 0) != (b < 0)); };
    int64_t out = (ceilMode ? floorDiv(span + stride - 1, stride) : floorDiv(span, stride)) + 1;
    if (ceilMode && (out - 1) * stride >= size + pad) --out;
    return out;
}

struct PoolArgs {
    std::vector<int64_t> kernel, stride, padding, dilation;
    bool ceilMode;
};

PoolArgs poolArgs(const BoundArgs& a, bool hasDilation) {
    PoolArgs p;
    p.kernel = spatialInts(a, "kernel_size", 2);
    p.stride = a.ints("stride").empty() ? p.kernel : spatialInts(a, "stride", 2);
    p.padding = spatialInts(a, "padding", 2);
    p.dilation = hasDilation ? spatialInts(a, "dilation", 2) : std::vector<int64_t>{1, 1};
    p.ceilMode = a.flag("ceil_mode");
    return p;
}

ResultMeta poolMeta(const BoundArgs& a, const char* op, bool hasDilation) {
    const Tensor& self = a.tensor("self");
    PoolArgs p = poolArgs(a, hasDilation);
    WindowInput in = windowInput(self, 2, op);
    for (size_t d = 0; d < 2; ++d) {
        if (p.kernel[d] <= 0) throw ScriptError("RuntimeError", "kernel_size must be greater than zero, but got kH: " +
                                                                    std::to_string(p.kernel[0]) + " kW: " + std::to_string(p.kernel[1]));
        if (p.stride[d] <= 0) throw ScriptError("RuntimeError", "stride should be greater than zero, but got dH: " +
                                                                    std::to_string(p.stride[0]) + " dW: " + std::to_string(p.stride[1]));
        int64_t effective = (p.kernel[d] - 1) * p.dilation[d] + 1;
        if (p.padding[d] * 2 > effective)
            throw ScriptError("RuntimeError", fmt::format("pad should be at most half of effective kernel size, but got pad={}, "
                                                          "kernel_size={} and dilation={}",
                                                          p.padding[d], p.kernel[d], p.dilation[d]));
    }
    Shape out;
    for (size_t d = 0; d < 2; ++d)
        out.push_back(pooledSize(in.spatialSizes[d], p.kernel[d], p.padding[d], p.stride[d], p.dilation[d], p.ceilMode));
    if (out[0] <= 0 || out[1] <= 0)
        throw ScriptError("RuntimeError", fmt::format("Given input size: ({}x{}x{}). Calculated output size: ({}x{}x{}). Output size "
                                                      "is too small",
                                                      self.sizes()[self.dim() - 3], in.spatialSizes[0], in.spatialSizes[1],
                                                      self.sizes()[self.dim() - 3], out[0], out[1]));
    if (!isFloating(self.dtype()))
        throw ScriptError("RuntimeError", fmt::format("\"{}\" not implemented for '{}'", op, dtypeScalarName(self.dtype())));
    return contiguousMeta(windowOutputSizes(in, self.sizes()[0], self.sizes()[self.dim() - 3], out), self.dtype());
}

WindowShape poolShape(const BoundArgs& a, const Tensor& out, bool hasDilation, WindowInput& in) {
    PoolArgs p = poolArgs(a, hasDilation);
    Shape outSpatial(out.sizes().end() - 2, out.sizes().end());
    Shape sizes = in.data.sizes();
    if (!in.batched) sizes.insert(sizes.begin(), 1);
    in.batched = true;
    return windowShape(in, sizes, p.kernel, outSpatial, p.stride, p.padding, p.dilation);
}

// The pooling loops read float or double: half and bfloat16 pool in float32 and round the
// result, as PyTorch's CPU kernels accumulate them in float.
bool poolsInFloat(DType dtype) { return dtype == DType::Float16 || dtype == DType::BFloat16; }
Tensor inPoolingType(const Tensor& t) { return poolsInFloat(t.dtype()) ? castCopy(t, DType::Float32) : t; }
void poolInto(const Tensor& out, const std::function<void(const Tensor& out)>& run) {
    if (!poolsInFloat(out.dtype())) return run(out);
    Tensor scratch = castCopy(out, DType::Float32);
    run(scratch);
    copyInto(out, scratch);
}

ResultMeta adaptiveMeta(const BoundArgs& a) {
    const Tensor& self = a.tensor("self");
    WindowInput in = windowInput(self, 2, "adaptive_avg_pool2d");
    std::vector<int64_t> size = spatialInts(a, "output_size", 2);
    return contiguousMeta(windowOutputSizes(in, self.sizes()[0], self.sizes()[self.dim() - 3], {size[0], size[1]}), self.dtype());
}

// Each output cell averages input rows [floor(i*H/OH), ceil((i+1)*H/OH)), and the same for columns.
template <class T> void adaptiveAverage(const T* x, T* y, int64_t planes, int64_t H, int64_t W, int64_t OH, int64_t OW) {
    for (int64_t p = 0; p < planes; ++p)
        for (int64_t oh = 0; oh < OH; ++oh)
            for (int64_t ow = 0; ow < OW; ++ow) {
                int64_t h0 = oh * H / OH, h1 = ((oh + 1) * H + OH - 1) / OH;
                int64_t w0 = ow * W / OW, w1 = ((ow + 1) * W + OW - 1) / OW;
                double sum = 0;
                for (int64_t h = h0; h < h1; ++h)
                    for (int64_t w = w0; w < w1; ++w) sum += double(x[(p * H + h) * W + w]);
                y[(p * OH + oh) * OW + ow] = static_cast<T>(sum / double((h1 - h0) * (w1 - w0)));
            }
}

void adaptiveInto(const BoundArgs& a, const Tensor& result) {
    poolInto(result, [&](const Tensor& out) {
        WindowInput in = windowInput(inPoolingType(a.tensor("self")), 2, "adaptive_avg_pool2d");
        int64_t H = in.spatialSizes[0], W = in.spatialSizes[1];
        int64_t planes = in.data.numel() / std::max<int64_t>(H * W, 1);
        int64_t OH = out.sizes()[out.dim() - 2], OW = out.sizes()[out.dim() - 1];
        if (out.dtype() == DType::Float64)
            adaptiveAverage(static_cast<const double*>(in.data.dataPtr()), static_cast<double*>(out.dataPtr()), planes, H, W, OH, OW);
        else adaptiveAverage(static_cast<const float*>(in.data.dataPtr()), static_cast<float*>(out.dataPtr()), planes, H, W, OH, OW);
    });
}

// ---- lowerings ----------------------------------------------------------------------------

Shape staticSizes(LoweringContext& c, const std::vector<IndexExpr>& sizes, const char* what) {
    Shape out;
    for (const auto& e : sizes) {
        std::optional<int64_t> k = e.constant();
        if (!k) c.unsupported(fmt::format("{} with dynamic sizes", what));
        out.push_back(*k);
    }
    return out;
}

// A storage-backed contiguous operand for an extern kernel (realized if it is not one).
LValue contiguousOperand(LoweringContext& c, const LValue& v) {
    if (v.storageBacked() && v.view.isContiguous()) return v;
    FixedLayout layout = c.contiguousLayout(v.sizes, v.dtype);
    return c.realize(v, &layout, "an operand of a convolution (oneDNN reads contiguous NCHW storage)");
}

const std::vector<size_t> kChannelsLast{0, 2, 3, 1};  // N, H, W, C from outermost to innermost

// A 2-D convolution's input as a storage-backed operand, channels-last when it is or its
// elementwise chain came from one (realized in that order), else contiguous.
LValue convolutionInput(LoweringContext& c, LValue x, bool channelsLastOk, bool& channelsLast) {
    channelsLast = false;
    if (!channelsLastOk || x.memoryOrder != kChannelsLast) return contiguousOperand(c, x);
    if (!x.storageBacked()) x = c.realize(x, nullptr, "an operand of a convolution (oneDNN reads NCHW or NHWC storage)");
    FixedLayout nhwc = c.orderedLayout(x.sizes, x.dtype, kChannelsLast);
    if (x.view.stride != nhwc.stride || x.view.offset != IndexExpr(0)) return contiguousOperand(c, x);
    channelsLast = true;
    return x;
}

// A convolution as an extern kernel. float32 2-D convolutions through oneDNN write their
// result channels-last, the layout of its fast kernels (as inductor's layout optimization
// does on the CPU), so a chain of convolutions and the elementwise ops between them never
// converts layouts; a graph output is copied back into eager's strides.
std::vector<LValue> lowerConvolution(LoweringContext& c, const LoweringArgs& a, size_t spatial) {
    LValue input = a.tensor("input");
    if (input.dtype != DType::Float32 && input.dtype != DType::Float64)
        c.unsupported("convolutions of " + std::string(dtypeName(input.dtype)));
    const bool channelsLastOk = input.dtype == DType::Float32 && spatial == 2 && convolutionUsesOneDnn();
    ConvolutionLayouts layouts;
    LValue x = convolutionInput(c, input, channelsLastOk, layouts.inputChannelsLast), w = contiguousOperand(c, a.tensor("weight"));
    std::vector<LValue> operands{x, w};
    if (a.has("bias")) operands.push_back(contiguousOperand(c, a.tensor("bias")));
    Shape inSizes = staticSizes(c, x.sizes, "a convolution"), weight = staticSizes(c, w.sizes, "a convolution");
    Shape out = staticSizes(c, c.outputSizes(), "a convolution");
    ConvArgs args = convArgs(a.bound());
    WindowInput in{Tensor(), inSizes.size() == spatial + 2, Shape(inSizes.end() - static_cast<int64_t>(spatial), inSizes.end())};
    WindowShape s = windowShape(in, inSizes, std::vector<int64_t>(weight.begin() + 2, weight.end()),
                                Shape(out.end() - static_cast<int64_t>(spatial), out.end()), args.stride, args.padding, args.dilation);
    layouts.outputChannelsLast = channelsLastOk && in.batched;
    FixedLayout layout = layouts.outputChannelsLast ? c.orderedLayout(c.outputSizes(), c.meta().dtype, kChannelsLast)
                                                    : c.contiguousLayout(c.outputSizes(), c.meta().dtype);
    return {c.extern_(ExternKernelKind::Convolution, operands, layout, packConvolutionGeometry(s, weight[0], args.groups, layouts))};
}

// A pooling window as a reduction: out[..., oh, ow] reduces x[..., oh*s - p + kh*d, ...]
// over kh < KH, kw < KW; positions in the padding read `padValue`.
LValue windowReduction(LoweringContext& c, LValue x, const PoolArgs& p, ReductionKind kind, double padValue) {
    if (!x.storageBacked()) x = c.realize(x, nullptr, "the input of a pooling window, read at computed positions");
    const size_t rank = x.sizes.size();
    std::vector<IndexExpr> sizes = c.outputSizes();
    sizes.push_back(IndexExpr(p.kernel[0]));
    sizes.push_back(IndexExpr(p.kernel[1]));
    const IndexExpr height = x.sizes[rank - 2], width = x.sizes[rank - 1];
    const DType t = x.dtype;
    LValue window = c.lazy(sizes, t,
                           [x, p, rank, height, width, padValue, t](LoopBodyBuilder& b, const std::vector<IndexExpr>& i) {
                               std::vector<IndexExpr> at(i.begin(), i.begin() + static_cast<int64_t>(rank) - 2);
                               int inside = -1;
                               for (size_t d = 0; d < 2; ++d) {
                                   IndexExpr pos = i[rank - 2 + d] * IndexExpr(p.stride[d]) - IndexExpr(p.padding[d]) +
                                                   i[rank + d] * IndexExpr(p.dilation[d]);
                                   at.push_back(pos);
                                   int v = indexConstant(b, pos);
                                   int low = b.call(LoopOpKind::Ge, {v, b.constant(0, DType::Int64)}, DType::Bool);
                                   int high = b.call(LoopOpKind::Lt, {v, indexConstant(b, d == 0 ? height : width)}, DType::Bool);
                                   int both = b.call(LoopOpKind::LogicalAnd, {low, high}, DType::Bool);
                                   inside = inside < 0 ? both : b.call(LoopOpKind::LogicalAnd, {inside, both}, DType::Bool);
                               }
                               int loaded = b.maskedLoad(x.buffer, x.view.indexOf(at).simplify(b.ranges()), inside, t);
                               return b.call(LoopOpKind::Where, {inside, loaded, b.constant(padValue, t)}, t);
                           },
                           {x});
    return c.reduce(window, {static_cast<int64_t>(rank), static_cast<int64_t>(rank) + 1}, false, kind, t);
}

LValue divided(LoweringContext& c, const LValue& sum, int64_t divisor) {
    return c.lazy(sum.sizes, sum.dtype,
                  [sum, divisor](LoopBodyBuilder& b, const std::vector<IndexExpr>& i) {
                      return b.call(LoopOpKind::TrueDiv, {sum.load(b, i), b.constant(static_cast<double>(divisor), sum.dtype)}, sum.dtype);
                  },
                  {sum});
}

std::vector<LValue> lowerMaxPool(LoweringContext& c, const LoweringArgs& a) {
    return {windowReduction(c, a.tensor("self"), poolArgs(a.bound(), true), ReductionKind::Max, -INFINITY)};
}

// Max pooling's gradient at each input position: the sum, over the windows that can hold it
// (kernel offsets whose window start falls on the stride), of each window's gradient where
// the window took its maximum from this position (the first holding it, or the last NaN, as
// the eager kernel). Each window's maximum is found again from its loads: the kernel's area
// squared loads per position, so larger windows run eagerly.
std::vector<LValue> lowerMaxPoolBackward(LoweringContext& c, const LoweringArgs& a) {
    PoolArgs p = poolArgs(a.bound(), true);
    if (p.kernel[0] * p.kernel[1] > 9) c.unsupported("max_pool2d_backward over windows of more than 9 elements");
    LValue x = a.tensor("self"), g = a.tensor("grad_output");
    if (!x.storageBacked()) x = c.realize(x, nullptr, "the input of max pooling's gradient, read at computed positions");
    if (!g.storageBacked()) g = c.realize(g, nullptr, "the gradient max pooling's gradient reads at computed positions");
    Shape in = staticSizes(c, x.sizes, "max_pool2d_backward"), out = staticSizes(c, g.sizes, "max_pool2d_backward");
    const size_t rank = in.size();
    const DType t = x.dtype;
    auto inner = [x, g, p, in, out, rank, t](LoopBodyBuilder& b, const std::vector<IndexExpr>& i) {
        auto all = [&b](int a, int c) { return a < 0 ? c : b.call(LoopOpKind::LogicalAnd, {a, c}, DType::Bool); };
        auto compare = [&b](LoopOpKind k, int v, int64_t bound) { return b.call(k, {v, b.constant(static_cast<double>(bound), DType::Int64)}, DType::Bool); };
        const std::vector<IndexExpr> lead(i.begin(), i.begin() + static_cast<int64_t>(rank) - 2);
        int total = b.constant(0, t);
        // Windows in the eager kernel's order (rows, then columns, ascending): the last kernel
        // offset first, so overlapping windows' gradients add up in the same order.
        for (int64_t kh = p.kernel[0] - 1; kh >= 0; --kh)
            for (int64_t kw = p.kernel[1] - 1; kw >= 0; --kw) {
                // The window whose (kh, kw) element this position is, if there is one.
                int holds = -1;
                std::vector<IndexExpr> window = lead;
                for (size_t d = 0; d < 2; ++d) {
                    IndexExpr start = i[rank - 2 + d] + IndexExpr(p.padding[d] - (d == 0 ? kh : kw) * p.dilation[d]);
                    int v = indexConstant(b, start);
                    holds = all(holds, all(compare(LoopOpKind::Ge, v, 0), compare(LoopOpKind::Lt, v, out[rank - 2 + d] * p.stride[d])));
                    if (p.stride[d] > 1) {
                        int rest = b.call(LoopOpKind::Mod, {v, b.constant(static_cast<double>(p.stride[d]), DType::Int64)}, DType::Int64);
                        holds = all(holds, compare(LoopOpKind::Eq, rest, 0));
                    }
                    window.push_back(IndexExpr::floorDiv(start, IndexExpr(p.stride[d]), b.ranges()));
                }
                // Where that window took its maximum.
                int best = b.constant(-INFINITY, t), taken = b.constant(-1, DType::Int64);
                for (int64_t jh = 0; jh < p.kernel[0]; ++jh)
                    for (int64_t jw = 0; jw < p.kernel[1]; ++jw) {
                        std::vector<IndexExpr> at = lead;
                        int inside = holds;
                        for (size_t d = 0; d < 2; ++d) {
                            IndexExpr pos = window[rank - 2 + d] * IndexExpr(p.stride[d]) +
                                            IndexExpr((d == 0 ? jh : jw) * p.dilation[d] - p.padding[d]);
                            int v = indexConstant(b, pos);
                            inside = all(inside, all(compare(LoopOpKind::Ge, v, 0), compare(LoopOpKind::Lt, v, in[rank - 2 + d])));
                            at.push_back(pos);
                        }
                        int value = b.maskedLoad(x.buffer, x.view.indexOf(at).simplify(b.ranges()), inside, t);
                        int better = b.call(LoopOpKind::LogicalOr,
                                            {b.call(LoopOpKind::LogicalOr, {compare(LoopOpKind::Lt, taken, 0), b.call(LoopOpKind::Gt, {value, best}, DType::Bool)},
                                                    DType::Bool),
                                             b.call(LoopOpKind::IsNan, {value}, DType::Bool)},
                                            DType::Bool);
                        int take = all(inside, better);
                        best = b.call(LoopOpKind::Where, {take, value, best}, t);
                        taken = b.call(LoopOpKind::Where, {take, b.constant(static_cast<double>(jh * p.kernel[1] + jw), DType::Int64), taken}, DType::Int64);
                    }
                int mine = all(holds, compare(LoopOpKind::Eq, taken, kh * p.kernel[1] + kw));
                int grad = b.maskedLoad(g.buffer, g.view.indexOf(window).simplify(b.ranges()), mine, t);
                total = b.call(LoopOpKind::Add, {total, b.call(LoopOpKind::Where, {mine, grad, b.constant(0, t)}, t)}, t);
            }
        return total;
    };
    return {c.lazy(c.outputSizes(), t, inner, {x, g})};
}

// Every window inside the input (no padding, no ceil_mode overhang): a constant divisor.
std::vector<LValue> lowerAvgPool(LoweringContext& c, const LoweringArgs& a) {
    PoolArgs p = poolArgs(a.bound(), false);
    LValue x = a.tensor("self");
    Shape in = staticSizes(c, x.sizes, "avg_pool2d"), out = staticSizes(c, c.outputSizes(), "avg_pool2d");
    for (size_t d = 0; d < 2; ++d)
        if (p.padding[d] != 0 || (out[out.size() - 2 + d] - 1) * p.stride[d] + p.kernel[d] > in[in.size() - 2 + d])
            c.unsupported("avg_pool2d with windows over padding (their divisors vary)");
    int64_t divisor = a.has("divisor_override") ? a.bound().integer("divisor_override") : p.kernel[0] * p.kernel[1];
    return {divided(c, windowReduction(c, x, p, ReductionKind::Sum, 0), divisor)};
}

// Equal windows only (each input size a multiple of the output's): an average pool.
std::vector<LValue> lowerAdaptiveAvgPool(LoweringContext& c, const LoweringArgs& a) {
    LValue x = a.tensor("self");
    Shape in = staticSizes(c, x.sizes, "adaptive_avg_pool2d");
    std::vector<int64_t> size = spatialInts(a.bound(), "output_size", 2);
    PoolArgs p{{}, {}, {0, 0}, {1, 1}, false};
    for (size_t d = 0; d < 2; ++d) {
        int64_t extent = in[in.size() - 2 + d];
        if (size[d] <= 0 || extent % size[d] != 0) c.unsupported("adaptive_avg_pool2d with uneven windows");
        p.kernel.push_back(extent / size[d]);
        p.stride.push_back(extent / size[d]);
    }
    return {divided(c, windowReduction(c, x, p, ReductionKind::Sum, 0), p.kernel[0] * p.kernel[1])};
}

// ---- derivatives ---------------------------------------------------------------------------

Tensor conv2d(const Tensor& x, const Tensor& w, const std::vector<int64_t>& stride, const std::vector<int64_t>& padding,
              const std::vector<int64_t>& dilation, int64_t groups) {
    return grad::call("conv2d", {x, w, IValue(), IValue::intList(stride), IValue::intList(padding), IValue::intList(dilation), groups});
}

Tensor narrowed(const Tensor& t, int64_t dim, int64_t start, int64_t length) {
    return start == 0 && length == t.size(dim) ? t : grad::call("narrow", {t, dim, start, length});
}

// `t` with `count` zeros appended along `dim`.
Tensor zeroPadded(const Tensor& t, int64_t dim, int64_t count) {
    if (count <= 0) return t;
    Shape zeros = t.sizes();
    zeros[static_cast<size_t>(dim)] = count;
    return grad::call("cat", {IValue::list({t, grad::zeros(zeros, t)}), dim});
}

// `g` with stride - 1 zeros between its elements along `dim`: a strided convolution's
// gradient as the transposed convolution reads it.
Tensor dilated(const Tensor& g, int64_t dim, int64_t stride) {
    if (stride == 1 || g.size(dim) <= 1) return g;
    Tensor spaced = zeroPadded(grad::call("unsqueeze", {g, dim + 1}), dim + 1, stride - 1);
    Shape sizes = g.sizes();
    sizes[static_cast<size_t>(dim)] *= stride;
    return narrowed(grad::reshape(spaced, sizes), dim, 0, (g.size(dim) - 1) * stride + 1);
}

// 2-D convolution geometry of a gradient (conv1d's as height 1).
struct ConvGradient {
    Tensor x, w, g;  // N C H W, O C/groups KH KW, N O OH OW
    std::vector<int64_t> stride, padding, dilation;
    int64_t groups;
};

// The input's gradient: a transposed convolution, the gradient dilated by the stride (and
// padded to the rows the last window did not reach) convolved with each group's kernels
// flipped and their in and out channels swapped.
Tensor convolutionInputGradient(const ConvGradient& c) {
    const int64_t outPerGroup = c.w.size(0) / c.groups, inPerGroup = c.w.size(1);
    Tensor g = c.g;
    std::vector<int64_t> fullPadding;
    for (int64_t d = 0; d < 2; ++d) {
        const auto i = static_cast<size_t>(d);
        const int64_t reach = c.dilation[i] * (c.w.size(2 + d) - 1);
        g = dilated(g, 2 + d, c.stride[i]);
        g = zeroPadded(g, 2 + d, c.x.size(2 + d) + 2 * c.padding[i] - reach - g.size(2 + d));
        fullPadding.push_back(reach);
    }
    Tensor w = grad::reshape(c.w, {c.groups, outPerGroup, inPerGroup, c.w.size(2), c.w.size(3)});
    w = grad::reshape(grad::transpose(w, 1, 2), {c.groups * inPerGroup, outPerGroup, c.w.size(2), c.w.size(3)});
    w = grad::call("flip", {w, IValue::intList({2, 3})});
    Tensor full = conv2d(g, w, {1, 1}, fullPadding, c.dilation, c.groups);
    for (int64_t d = 0; d < 2; ++d) full = narrowed(full, 2 + d, c.padding[static_cast<size_t>(d)], c.x.size(2 + d));
    return full;
}

// The weight's gradient: the input (channels as the batch) convolved with the gradient
// (its channels as kernels), stride and dilation swapped, cut to the kernel's size. With
// groups, one convolution still: every (sample, group) pair is a group of its own, taking
// one input channel from the batch and giving the group's out channels; the samples' weight
// gradients are then summed. (One convolution per group made a depthwise layer's backward
// hundreds of ops, each traced and compiled.)
Tensor convolutionWeightGradient(const ConvGradient& c) {
    auto weightGradient = [&](const Tensor& x, const Tensor& g, int64_t groups) {
        Tensor r = conv2d(x, g, c.dilation, c.padding, c.stride, groups);
        return narrowed(narrowed(r, 2, 0, c.w.size(2)), 3, 0, c.w.size(3));
    };
    if (c.groups == 1) return grad::transpose(weightGradient(grad::transpose(c.x, 0, 1), grad::transpose(c.g, 0, 1), 1), 0, 1);
    const int64_t batch = c.x.size(0), outPerGroup = c.w.size(0) / c.groups, inPerGroup = c.w.size(1);
    const int64_t pairs = batch * c.groups;
    Tensor x = grad::reshape(c.x, {batch, c.groups, inPerGroup, c.x.size(2), c.x.size(3)});
    x = grad::reshape(grad::call("permute", {x, IValue::intList({2, 0, 1, 3, 4})}), {inPerGroup, pairs, c.x.size(2), c.x.size(3)});
    Tensor g = grad::reshape(c.g, {pairs * outPerGroup, 1, c.g.size(2), c.g.size(3)});
    Tensor r = weightGradient(x, g, pairs);  // in-per-group, (sample, group, out), KH, KW
    r = grad::reshape(r, {inPerGroup, batch, c.groups * outPerGroup, c.w.size(2), c.w.size(3)});
    r = grad::call("sum", {r, IValue::intList({1})});
    return grad::transpose(r, 0, 1);
}

ArgumentGradients convolutionGradients(const DerivativeArgs& d, size_t spatial) {
    ConvArgs a = convArgs(d.args);
    ConvGradient c{d.input("input"), d.input("weight"), d.grad, a.stride, a.padding, a.dilation, a.groups};
    const bool batched = c.x.dim() == static_cast<int64_t>(spatial) + 2;
    auto unsqueeze = [](const Tensor& t, int64_t dim) { return grad::call("unsqueeze", {t, dim}); };
    if (!batched) c.x = unsqueeze(c.x, 0), c.g = unsqueeze(c.g, 0);
    if (spatial == 1) {  // as 2-D with height 1
        c.x = unsqueeze(c.x, 2), c.g = unsqueeze(c.g, 2), c.w = unsqueeze(c.w, 2);
        c.stride.insert(c.stride.begin(), 1), c.padding.insert(c.padding.begin(), 0), c.dilation.insert(c.dilation.begin(), 1);
    }
    auto back = [&](Tensor t, bool batchDim) {
        if (spatial == 1) t = grad::call("squeeze", {t, IValue::intList({2})});
        return batchDim && !batched ? grad::call("squeeze", {t, IValue::intList({0})}) : t;
    };
    ArgumentGradients out;
    if (d.wants("input")) out.emplace_back("input", back(convolutionInputGradient(c), true));
    if (d.wants("weight")) out.emplace_back("weight", back(convolutionWeightGradient(c), false));
    if (d.wants("bias")) {
        std::vector<int64_t> dims;
        for (int64_t k = 0; k < d.grad.dim(); ++k)
            if (k != (batched ? 1 : 0)) dims.push_back(k);
        out.emplace_back("bias", grad::call("sum", {d.grad, IValue::intList(dims)}));
    }
    return out;
}

ResultMeta maxPoolBackwardMeta(const BoundArgs& a) { return contiguousMeta(a.tensor("self").sizes(), a.tensor("self").dtype()); }

void maxPoolBackwardInto(const BoundArgs& a, const Tensor& result) {
    poolInto(result, [&](const Tensor& out) {
        WindowInput in = windowInput(inPoolingType(a.tensor("self")), 2, "max_pool2d_backward");
        const Tensor g = inPoolingType(a.tensor("grad_output"));
        Tensor gradOutput = g.isContiguous() ? g : contiguousCopy(g);
        maxPoolBackward(out.dtype(), poolShape(a, gradOutput, true, in), in.data.dataPtr(), gradOutput.dataPtr(), out.dataPtr());
    });
}

// Average pooling along one dim as a matrix [out, in]: row o weighs its window
// [start[o], end[o]) (clipped to the input) by 1 / divisor[o]. 2-D average pooling is
// rows @ x @ cols^T (its divisors are products of a row's and a column's part), so its
// gradient is rows^T @ grad @ cols. Built with ops from arange, so a compiled backward
// graph lowers it.
struct PoolWindows {
    Tensor start, end, divisor;  // [out] each; int64, int64, floating
};

Tensor poolingMatrix(const PoolWindows& w, int64_t inSize, const Tensor& like) {  // in like's dtype, on its device
    const DType dtype = like.dtype();
    Tensor position = grad::reshape(grad::arange(inSize, like), {1, inSize});
    Tensor inside = grad::call("logical_and", {grad::call("ge", {position, grad::call("unsqueeze", {w.start, 1})}),
                                               grad::call("lt", {position, grad::call("unsqueeze", {w.end, 1})})});
    Tensor weight = grad::call("reciprocal", {grad::call("to", {grad::call("unsqueeze", {w.divisor, 1}), dtype})});
    return grad::mul(grad::call("to", {inside, dtype}), weight);
}

// rows^T @ grad @ cols for every plane, as products of a batch of planes and one matrix
// (rows^T @ X is (X^T @ rows)^T), which lower as single matrix products.
Tensor separablePoolGradient(const Tensor& grad, const Tensor& rows, const Tensor& cols, const Shape& inputSizes) {
    Tensor planes = grad::reshape(grad::call("contiguous", {grad}), {-1, grad.size(-2), grad.size(-1)});
    Tensor widened = grad::call("matmul", {planes, cols});                                   // [P, OH, W]
    Tensor heightened = grad::call("matmul", {grad::transpose(widened, -1, -2), rows});     // [P, W, H]
    return grad::reshape(grad::call("contiguous", {grad::transpose(heightened, -1, -2)}), inputSizes);
}

ArgumentGradients avgPoolGradients(const DerivativeArgs& d) {
    const Tensor& self = d.input("self");
    PoolArgs p = poolArgs(d.args, false);
    const bool includePad = d.args.flag("count_include_pad");
    const IValue& override = d.args["divisor_override"];
    auto matrix = [&](size_t dim) {
        const int64_t in = self.size(self.dim() - 2 + static_cast<int64_t>(dim)), out = d.grad.size(d.grad.dim() - 2 + static_cast<int64_t>(dim));
        PoolWindows w;
        w.start = grad::call("sub", {grad::call("mul", {grad::arange(out, d.grad), p.stride[dim]}), p.padding[dim]});
        w.end = grad::call("clamp", {grad::call("add", {w.start, p.kernel[dim]}), IValue(), in + p.padding[dim]});
        w.divisor = includePad ? grad::sub(w.end, w.start)
                               : grad::sub(grad::call("clamp", {w.end, IValue(), in}), grad::call("clamp", {w.start, 0}));
        if (!override.isNone())  // the whole divisor on the rows
            w.divisor = grad::call("full", {IValue::intList({out}), dim == 0 ? override.toInt() : int64_t{1}}, grad::onDeviceOf(d.grad));
        return poolingMatrix(w, in, d.grad);
    };
    return {{"self", separablePoolGradient(d.grad, matrix(0), matrix(1), self.sizes())}};
}

// Adaptive windows: [floor(o * in / out), ceil((o + 1) * in / out)).
ArgumentGradients adaptivePoolGradients(const DerivativeArgs& d) {
    const Tensor& self = d.input("self");
    auto matrix = [&](int64_t dim) {
        const int64_t in = self.size(self.dim() - 2 + dim), out = d.grad.size(d.grad.dim() - 2 + dim);
        PoolWindows w;
        Tensor scaled = grad::call("mul", {grad::arange(out, d.grad), in});
        w.start = grad::call("div", {scaled, out}, {{"rounding_mode", "floor"}});
        w.end = grad::call("div", {grad::call("add", {scaled, in + out - 1}), out}, {{"rounding_mode", "floor"}});
        w.divisor = grad::sub(w.end, w.start);
        return poolingMatrix(w, in, d.grad);
    };
    return {{"self", separablePoolGradient(d.grad, matrix(0), matrix(1), self.sizes())}};
}

constexpr const char* kConvolutionSchemaTail =
    "(Tensor input, Tensor weight, Tensor? bias=None, int[{0}] stride=1, int[{0}] padding=0, int[{0}] dilation=1, int groups=1) -> Tensor";

OpDef& addConvolution(OpRegistry& r, const char* name, size_t spatial) {
    return lowerWith(r.add(makeOp(name, name + fmt::format(kConvolutionSchemaTail, spatial), {true, false, true},
                                  [name, spatial](const BoundArgs& a) { return convolutionMeta(a, name, spatial); },
                                  [spatial](const BoundArgs& a, const Tensor& out) { convolutionInto(a, out, spatial); })),
                     [spatial](LoweringContext& c, const LoweringArgs& a) { return lowerConvolution(c, a, spatial); });
}

}  // namespace

void registerConvolutionOps(OpRegistry& r) {
    for (size_t spatial : {1, 2})
        differentiateWith(gradFnNamed(addConvolution(r, spatial == 1 ? "conv1d" : "conv2d", spatial), "ConvolutionBackward0"),
                          [spatial](const DerivativeArgs& d) { return convolutionGradients(d, spatial); });
    gradFnNamed(lowerWith(r.add(makeOp("max_pool2d",
                                       "max_pool2d(Tensor self, int[2] kernel_size, int[2] stride=[], int[2] padding=0, "
                                       "int[2] dilation=1, bool ceil_mode=False) -> Tensor",
                                       {true, false, true}, [](const BoundArgs& a) { return poolMeta(a, "max_pool2d", true); },
                                       [](const BoundArgs& a, const Tensor& result) {
                                           poolInto(result, [&](const Tensor& out) {
                                               WindowInput in = windowInput(inPoolingType(a.tensor("self")), 2, "max_pool2d");
                                               maxPoolForward(out.dtype(), poolShape(a, out, true, in), in.data.dataPtr(), out.dataPtr());
                                           });
                                       })),
                          lowerMaxPool),
                "MaxPool2DWithIndicesBackward0");
    // Max pooling's gradient, as its derivative calls it (the windows' maxima found again).
    lowerWith(r.add(makeOp("max_pool2d_backward",
                            "max_pool2d_backward(Tensor grad_output, Tensor self, int[2] kernel_size, int[2] stride=[], int[2] padding=0, "
                            "int[2] dilation=1, bool ceil_mode=False) -> Tensor",
                            {true, false, false}, maxPoolBackwardMeta, maxPoolBackwardInto)),
              lowerMaxPoolBackward);
    differentiateWith(r.definition("max_pool2d"), [](const DerivativeArgs& d) {
        const BoundArgs& a = d.args;
        return ArgumentGradients{{"self", grad::call("max_pool2d_backward", {d.grad, d.input("self"), a["kernel_size"], a["stride"],
                                                                             a["padding"], a["dilation"], a["ceil_mode"]})}};
    });
    gradFnNamed(lowerWith(r.add(makeOp("avg_pool2d",
                                       "avg_pool2d(Tensor self, int[2] kernel_size, int[2] stride=[], int[2] padding=0, "
                                       "bool ceil_mode=False, bool count_include_pad=True, int? divisor_override=None) -> Tensor",
                                       {true, false, true}, [](const BoundArgs& a) { return poolMeta(a, "avg_pool2d", false); },
                                       [](const BoundArgs& a, const Tensor& result) {
                                           poolInto(result, [&](const Tensor& out) {
                                               WindowInput in = windowInput(inPoolingType(a.tensor("self")), 2, "avg_pool2d");
                                               int64_t divisor = a["divisor_override"].isNone() ? 0 : a.integer("divisor_override");
                                               avgPoolForward(out.dtype(), poolShape(a, out, false, in), a.flag("count_include_pad"),
                                                              divisor, in.data.dataPtr(), out.dataPtr());
                                           });
                                       })),
                          lowerAvgPool),
                "AvgPool2DBackward0");
    differentiateWith(r.definition("avg_pool2d"), avgPoolGradients, Saved::SizesOnly);
    // PyTorch takes the mean for a 1x1 output.
    gradFnNamedBy(lowerWith(r.add(makeOp("adaptive_avg_pool2d", "adaptive_avg_pool2d(Tensor self, int[2] output_size) -> Tensor",
                                         {true, false, true}, adaptiveMeta, adaptiveInto)),
                            lowerAdaptiveAvgPool),
                  [](const BoundArgs& a) {
                      std::vector<int64_t> size = spatialInts(a, "output_size", 2);
                      return size[0] == 1 && size[1] == 1 ? "MeanBackward1" : "AdaptiveAvgPool2DBackward0";
                  });
    differentiateWith(r.definition("adaptive_avg_pool2d"), adaptivePoolGradients, Saved::SizesOnly);
}

}  // namespace fusescope

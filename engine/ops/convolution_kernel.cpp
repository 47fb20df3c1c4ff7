#include "ops/convolution_kernel.h"

#include <cmath>
#include <limits>

#ifdef FUSESCOPE_HAVE_DNNL
#include <oneapi/dnnl/dnnl.hpp>
#endif

namespace fusescope {

namespace {

// Plain loops, in double, written back as T.
template <class T>
void convolutionLoops(const WindowShape& s, int64_t outChannels, int64_t groups, const T* x, const T* w, const T* bias, T* y) {
    const int64_t inPerGroup = s.channels / groups, outPerGroup = outChannels / groups;
    const auto [H, W] = s.input;
    const auto [KH, KW] = s.kernel;
    const auto [OH, OW] = s.output;
    for (int64_t n = 0; n < s.batch; ++n)
        for (int64_t o = 0; o < outChannels; ++o) {
            const int64_t firstIn = (o / outPerGroup) * inPerGroup;
            for (int64_t oh = 0; oh < OH; ++oh)
                for (int64_t ow = 0; ow < OW; ++ow) {
                    double acc = bias ? double(bias[o]) : 0.0;
                    for (int64_t c = 0; c < inPerGroup; ++c)
                        for (int64_t kh = 0; kh < KH; ++kh) {
                            int64_t ih = oh * s.stride[0] - s.padding[0] + kh * s.dilation[0];
                            if (ih < 0 || ih >= H) continue;
                            for (int64_t kw = 0; kw < KW; ++kw) {
                                int64_t iw = ow * s.stride[1] - s.padding[1] + kw * s.dilation[1];
                                if (iw < 0 || iw >= W) continue;
                                acc += double(x[((n * s.channels + firstIn + c) * H + ih) * W + iw]) *
                                       double(w[((o * inPerGroup + c) * KH + kh) * KW + kw]);
                            }
                        }
                    y[((n * outChannels + o) * OH + oh) * OW + ow] = static_cast<T>(acc);
                }
        }
}

#ifdef FUSESCOPE_HAVE_DNNL
// oneDNN's convolution on plain (nchw, [g]oihw) float32 memory: it picks its fastest
// implementation for those layouts (a JIT GEMM-based one on x86).
void convolutionOneDnn(const WindowShape& s, int64_t outChannels, int64_t groups, const float* x, const float* w, const float* bias,
                       float* y) {
    using namespace dnnl;
    using tag = memory::format_tag;
    using dt = memory::data_type;
    static engine cpu(engine::kind::cpu, 0);
    memory::desc src({s.batch, s.channels, s.input[0], s.input[1]}, dt::f32, tag::nchw);
    memory::desc dst({s.batch, outChannels, s.output[0], s.output[1]}, dt::f32, tag::nchw);
    memory::desc weights = groups == 1 ? memory::desc({outChannels, s.channels, s.kernel[0], s.kernel[1]}, dt::f32, tag::oihw)
                                       : memory::desc({groups, outChannels / groups, s.channels / groups, s.kernel[0], s.kernel[1]},
                                                      dt::f32, tag::goihw);
    memory::desc biasDesc({outChannels}, dt::f32, tag::x);
    memory::dims strides{s.stride[0], s.stride[1]};
    memory::dims dilates{s.dilation[0] - 1, s.dilation[1] - 1};  // oneDNN counts the gaps
    memory::dims padLeft{s.padding[0], s.padding[1]};
    // The far side's padding: what the last window reaches past the input.
    memory::dims padRight;
    for (int d = 0; d < 2; ++d)
        padRight.push_back((s.output[d] - 1) * s.stride[d] + (s.kernel[d] - 1) * s.dilation[d] + 1 - s.input[d] - s.padding[d]);
    auto desc = bias ? convolution_forward::desc(prop_kind::forward_inference, algorithm::convolution_direct, src, weights, biasDesc,
                                                 dst, strides, dilates, padLeft, padRight)
                     : convolution_forward::desc(prop_kind::forward_inference, algorithm::convolution_direct, src, weights, dst,
                                                 strides, dilates, padLeft, padRight);
    convolution_forward::primitive_desc pd(desc, cpu);
    std::unordered_map<int, memory> args{{DNNL_ARG_SRC, memory(src, cpu, const_cast<float*>(x))},
                                         {DNNL_ARG_WEIGHTS, memory(weights, cpu, const_cast<float*>(w))},
                                         {DNNL_ARG_DST, memory(dst, cpu, y)}};
    if (bias) args.emplace(DNNL_ARG_BIAS, memory(biasDesc, cpu, const_cast<float*>(bias)));
    stream s0(cpu);
    convolution_forward(pd).execute(s0, args);
    s0.wait();
}
#endif

// Pooling stays in plain loops: PyTorch's max pooling propagates NaN, and its average
// pooling divides by the window clipped to the padded input (ceil_mode's overhang
// excluded), rules oneDNN's pooling does not share.
template <class T> void maxPoolLoops(const WindowShape& s, const T* x, T* y) {
    const auto [H, W] = s.input;
    const auto [OH, OW] = s.output;
    for (int64_t plane = 0; plane < s.batch * s.channels; ++plane)
        for (int64_t oh = 0; oh < OH; ++oh)
            for (int64_t ow = 0; ow < OW; ++ow) {
                T best = -std::numeric_limits<T>::infinity();
                for (int64_t kh = 0; kh < s.kernel[0]; ++kh) {
                    int64_t ih = oh * s.stride[0] - s.padding[0] + kh * s.dilation[0];
                    if (ih < 0 || ih >= H) continue;
                    for (int64_t kw = 0; kw < s.kernel[1]; ++kw) {
                        int64_t iw = ow * s.stride[1] - s.padding[1] + kw * s.dilation[1];
                        if (iw < 0 || iw >= W) continue;
                        T v = x[(plane * H + ih) * W + iw];
                        if (v > best || std::isnan(v)) best = v;
                        if (std::isnan(best)) break;
                    }
                }
                y[(plane * OH + oh) * OW + ow] = best;
            }
}

template <class T> void avgPoolLoops(const WindowShape& s, bool countIncludePad, int64_t divisorOverride, const T* x, T* y) {
    const auto [H, W] = s.input;
    const auto [OH, OW] = s.output;
    for (int64_t plane = 0; plane < s.batch * s.channels; ++plane)
        for (int64_t oh = 0; oh < OH; ++oh)
            for (int64_t ow = 0; ow < OW; ++ow) {
                int64_t h0 = oh * s.stride[0] - s.padding[0], w0 = ow * s.stride[1] - s.padding[1];
                int64_t h1 = std::min(h0 + s.kernel[0], H + s.padding[0]), w1 = std::min(w0 + s.kernel[1], W + s.padding[1]);
                int64_t padded = (h1 - h0) * (w1 - w0);
                h0 = std::max<int64_t>(h0, 0), w0 = std::max<int64_t>(w0, 0);
                h1 = std::min(h1, H), w1 = std::min(w1, W);
                double sum = 0;
                for (int64_t ih = h0; ih < h1; ++ih)
                    for (int64_t iw = w0; iw < w1; ++iw) sum += double(x[(plane * H + ih) * W + iw]);
                int64_t divisor = divisorOverride ? divisorOverride : countIncludePad ? padded : (h1 - h0) * (w1 - w0);
                y[(plane * OH + oh) * OW + ow] = static_cast<T>(sum / double(divisor));
            }
}

}  // namespace

void convolutionForward(DType dtype, const WindowShape& shape, int64_t outChannels, int64_t groups, const void* x, const void* w,
                        const void* bias, void* y) {
    if (dtype == DType::Float64) {
        convolutionLoops(shape, outChannels, groups, static_cast<const double*>(x), static_cast<const double*>(w),
                         static_cast<const double*>(bias), static_cast<double*>(y));
        return;
    }
#ifdef FUSESCOPE_HAVE_DNNL
    convolutionOneDnn(shape, outChannels, groups, static_cast<const float*>(x), static_cast<const float*>(w),
                      static_cast<const float*>(bias), static_cast<float*>(y));
#else
    convolutionLoops(shape, outChannels, groups, static_cast<const float*>(x), static_cast<const float*>(w),
                     static_cast<const float*>(bias), static_cast<float*>(y));
#endif
}

void maxPoolForward(DType dtype, const WindowShape& shape, const void* x, void* y) {
    if (dtype == DType::Float64) maxPoolLoops(shape, static_cast<const double*>(x), static_cast<double*>(y));
    else maxPoolLoops(shape, static_cast<const float*>(x), static_cast<float*>(y));
}

void avgPoolForward(DType dtype, const WindowShape& shape, bool countIncludePad, int64_t divisorOverride, const void* x, void* y) {
    if (dtype == DType::Float64)
        avgPoolLoops(shape, countIncludePad, divisorOverride, static_cast<const double*>(x), static_cast<double*>(y));
    else avgPoolLoops(shape, countIncludePad, divisorOverride, static_cast<const float*>(x), static_cast<float*>(y));
}

std::vector<int64_t> packConvolutionGeometry(const WindowShape& s, int64_t outChannels, int64_t groups) {
    return {s.batch,     s.channels,  s.input[0],   s.input[1],   s.kernel[0], s.kernel[1],   s.output[0], s.output[1],
            s.stride[0], s.stride[1], s.padding[0], s.padding[1], s.dilation[0], s.dilation[1], outChannels, groups};
}

extern "C" void fsConvolution(int dtype, const int64_t* g, const void* x, const void* w, const void* bias, void* y) {
    WindowShape s;
    s.batch = g[0], s.channels = g[1];
    for (int d = 0; d < 2; ++d) {
        s.input[d] = g[2 + d], s.kernel[d] = g[4 + d], s.output[d] = g[6 + d];
        s.stride[d] = g[8 + d], s.padding[d] = g[10 + d], s.dilation[d] = g[12 + d];
    }
    convolutionForward(dtype == 1 ? DType::Float64 : DType::Float32, s, g[14], g[15], x, w, bias, y);
}

bool convolutionUsesOneDnn() {
#ifdef FUSESCOPE_HAVE_DNNL
    return true;
#else
    return false;
#endif
}

}  // namespace fusescope

#include "ops/convolution_kernel.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <memory>
#include <mutex>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "core/error.h"

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
// oneDNN's convolution on float32 memory in PyTorch's layouts (nchw or nhwc, [g]oihw). The
// primitive is created with layouts of oneDNN's choosing (for its direct AVX-512 kernels:
// 3-5x faster than the GEMM-based one plain nchw gets); data in another layout is reordered
// into them and the result back. One primitive, its reorders and their buffers per
// geometry, made once (releaseConvolutionPrimitives frees them).
class OneDnnConvolution {
public:
    OneDnnConvolution(const WindowShape& s, int64_t outChannels, int64_t groups, bool hasBias, ConvolutionLayouts layouts) {
        using namespace dnnl;
        using tag = memory::format_tag;
        using dt = memory::data_type;
        src_.plain = memory::desc({s.batch, s.channels, s.input[0], s.input[1]}, dt::f32,
                                  layouts.inputChannelsLast ? tag::nhwc : tag::nchw);
        dst_.plain = memory::desc({s.batch, outChannels, s.output[0], s.output[1]}, dt::f32,
                                  layouts.outputChannelsLast ? tag::nhwc : tag::nchw);
        memory::dims weightDims = groups == 1 ? memory::dims{outChannels, s.channels, s.kernel[0], s.kernel[1]}
                                              : memory::dims{groups, outChannels / groups, s.channels / groups, s.kernel[0], s.kernel[1]};
        weights_.plain = memory::desc(weightDims, dt::f32, groups == 1 ? tag::oihw : tag::goihw);
        bias_ = memory::desc({outChannels}, dt::f32, tag::x);
        auto any = [](const memory::desc& d) { return memory::desc(d.dims(), dt::f32, tag::any); };
        memory::dims strides{s.stride[0], s.stride[1]};
        memory::dims dilates{s.dilation[0] - 1, s.dilation[1] - 1};  // oneDNN counts the gaps
        memory::dims padLeft{s.padding[0], s.padding[1]};
        // The far side's padding: what the last window reaches past the input.
        memory::dims padRight;
        for (int d = 0; d < 2; ++d)
            padRight.push_back((s.output[d] - 1) * s.stride[d] + (s.kernel[d] - 1) * s.dilation[d] + 1 - s.input[d] - s.padding[d]);
        auto desc = hasBias ? convolution_forward::desc(prop_kind::forward_inference, algorithm::convolution_direct, any(src_.plain),
                                                        any(weights_.plain), bias_, any(dst_.plain), strides, dilates, padLeft, padRight)
                            : convolution_forward::desc(prop_kind::forward_inference, algorithm::convolution_direct, any(src_.plain),
                                                        any(weights_.plain), any(dst_.plain), strides, dilates, padLeft, padRight);
        pd_ = convolution_forward::primitive_desc(desc, ownScratchpad(), engine_());
        convolution_ = convolution_forward(pd_);
        scratchpad_ = memory(pd_.scratchpad_desc(), engine_());
        src_.prepare(pd_.src_desc(), false);
        weights_.prepare(pd_.weights_desc(), false);
        dst_.prepare(pd_.dst_desc(), true);
    }

    void run(const float* x, const float* w, const float* bias, float* y) {
        using namespace dnnl;
        std::lock_guard<std::mutex> lock(mutex_);  // the blocked copies are this object's
        stream queue(engine_());
        std::unordered_map<int, memory> args{{DNNL_ARG_SRC, src_.in(queue, x)},
                                             {DNNL_ARG_WEIGHTS, weights_.in(queue, w)},
                                             {DNNL_ARG_DST, dst_.out(y)}};
        if (bias) args.emplace(DNNL_ARG_BIAS, memory(bias_, engine_(), const_cast<float*>(bias)));
        args.emplace(DNNL_ARG_SCRATCHPAD, scratchpad_);
        convolution_.execute(queue, args);
        dst_.finish(queue);
        queue.wait();
    }

private:
    static const dnnl::engine& engine_() {
        static dnnl::engine cpu(dnnl::engine::kind::cpu, 0);
        return cpu;
    }

    // Attributes giving a primitive scratch memory of its caller's: in oneDNN's default
    // (library) mode it is the creating thread's, freed when that thread ends, and each
    // script runs on a thread of its own, so the same convolution in a later script wrote
    // into freed memory.
    static dnnl::primitive_attr ownScratchpad() {
        dnnl::primitive_attr attributes;
        attributes.set_scratchpad_mode(dnnl::scratchpad_mode::user);
        return attributes;
    }

    // A plain (PyTorch-layout) operand and, when the primitive wants another layout, its
    // blocked copy with the reorder between them (and the reorder's scratch memory), made
    // once and kept between calls.
    struct Operand {
        dnnl::memory::desc plain;
        dnnl::memory plainMemory, blocked, scratchpad;
        dnnl::reorder reorder;

        void prepare(const dnnl::memory::desc& wanted, bool isResult) {
            plainMemory = dnnl::memory(plain, engine_(), DNNL_MEMORY_NONE);
            if (wanted == plain) return;
            blocked = dnnl::memory(wanted, engine_());
            auto pd = isResult ? dnnl::reorder::primitive_desc(blocked, plainMemory, ownScratchpad())
                               : dnnl::reorder::primitive_desc(plainMemory, blocked, ownScratchpad());
            reorder = dnnl::reorder(pd);
            scratchpad = dnnl::memory(pd.scratchpad_desc(), engine_());
        }
        // An input: the plain data reordered into the blocked copy, or the plain data itself.
        dnnl::memory in(dnnl::stream& queue, const float* data) {
            plainMemory.set_data_handle(const_cast<float*>(data));
            if (!blocked) return plainMemory;
            runReorder(queue, plainMemory, blocked);
            return blocked;
        }
        // The result: where the primitive writes it; finish() reorders it into `data`.
        dnnl::memory out(float* data) {
            plainMemory.set_data_handle(data);
            return blocked ? blocked : plainMemory;
        }
        void finish(dnnl::stream& queue) {
            if (blocked) runReorder(queue, blocked, plainMemory);
        }
        void runReorder(dnnl::stream& queue, dnnl::memory& from, dnnl::memory& to) {
            reorder.execute(queue, {{DNNL_ARG_FROM, from}, {DNNL_ARG_TO, to}, {DNNL_ARG_SCRATCHPAD, scratchpad}});
        }
    };

    Operand src_, weights_, dst_;
    dnnl::memory::desc bias_;
    dnnl::convolution_forward::primitive_desc pd_;
    dnnl::convolution_forward convolution_;
    dnnl::memory scratchpad_;
    std::mutex mutex_;
};

struct MadeConvolutions {
    std::mutex mutex;
    std::map<std::vector<int64_t>, std::unique_ptr<OneDnnConvolution>> byGeometry;  // geometry, then whether it has a bias
};

MadeConvolutions& madeConvolutions() {
    static auto* made = new MadeConvolutions;  // never destroyed: oneDNN's own statics may go first at exit
    return *made;
}

void convolutionOneDnn(const WindowShape& s, int64_t outChannels, int64_t groups, const float* x, const float* w, const float* bias,
                       float* y, ConvolutionLayouts layouts) {
    MadeConvolutions& made = madeConvolutions();
    std::vector<int64_t> key = packConvolutionGeometry(s, outChannels, groups, layouts);
    key.push_back(bias != nullptr);
    OneDnnConvolution* convolution;
    {
        std::lock_guard<std::mutex> lock(made.mutex);
        auto& slot = made.byGeometry[key];
        if (!slot) slot = std::make_unique<OneDnnConvolution>(s, outChannels, groups, bias != nullptr, layouts);
        convolution = slot.get();
    }
    convolution->run(x, w, bias, y);
}
#endif

// Pooling stays in plain loops: PyTorch's max pooling propagates NaN, and its average
// pooling divides by the window clipped to the padded input (ceil_mode's overhang
// excluded), rules oneDNN's pooling does not share.
// Window (oh, ow) of one plane's maximum and where it took it (an offset in the plane, -1
// for a window wholly in the padding): the first position holding it, or the last NaN, as
// PyTorch's CPU kernel picks.
template <class T> std::pair<T, int64_t> windowMaximum(const WindowShape& s, const T* plane, int64_t oh, int64_t ow) {
    const auto [H, W] = s.input;
    T best = -std::numeric_limits<T>::infinity();
    int64_t at = -1;
    for (int64_t kh = 0; kh < s.kernel[0]; ++kh) {
        int64_t ih = oh * s.stride[0] - s.padding[0] + kh * s.dilation[0];
        if (ih < 0 || ih >= H) continue;
        for (int64_t kw = 0; kw < s.kernel[1]; ++kw) {
            int64_t iw = ow * s.stride[1] - s.padding[1] + kw * s.dilation[1];
            if (iw < 0 || iw >= W) continue;
            T v = plane[ih * W + iw];
            if (at < 0 || v > best || std::isnan(v)) best = v, at = ih * W + iw;
        }
    }
    return {best, at};
}

template <class T> void maxPoolLoops(const WindowShape& s, const T* x, T* y) {
    const int64_t planeSize = s.input[0] * s.input[1];
    for (int64_t plane = 0; plane < s.batch * s.channels; ++plane)
        for (int64_t oh = 0; oh < s.output[0]; ++oh)
            for (int64_t ow = 0; ow < s.output[1]; ++ow)
                y[(plane * s.output[0] + oh) * s.output[1] + ow] = windowMaximum(s, x + plane * planeSize, oh, ow).first;
}

// Each window's gradient goes to the position its maximum came from, summed where windows
// overlap.
template <class T> void maxPoolBackwardLoops(const WindowShape& s, const T* x, const T* gy, T* gx) {
    const int64_t planeSize = s.input[0] * s.input[1];
    std::fill(gx, gx + s.batch * s.channels * planeSize, T(0));
    for (int64_t plane = 0; plane < s.batch * s.channels; ++plane)
        for (int64_t oh = 0; oh < s.output[0]; ++oh)
            for (int64_t ow = 0; ow < s.output[1]; ++ow) {
                int64_t at = windowMaximum(s, x + plane * planeSize, oh, ow).second;
                if (at >= 0) gx[plane * planeSize + at] += gy[(plane * s.output[0] + oh) * s.output[1] + ow];
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

// The loops read float or double; anything else here is a caller's bug (half would be read
// past its end).
void requireFloatOrDouble(DType dtype, const char* what) {
    if (dtype != DType::Float32 && dtype != DType::Float64)
        throw Error(fmt::format("internal error: {} of {} (the loops take float32 or float64)", what, std::string(dtypeName(dtype))));
}

}  // namespace

void convolutionForward(DType dtype, const WindowShape& shape, int64_t outChannels, int64_t groups, const void* x, const void* w,
                        const void* bias, void* y, ConvolutionLayouts layouts) {
    if ((layouts.inputChannelsLast || layouts.outputChannelsLast) && (dtype != DType::Float32 || !convolutionUsesOneDnn()))
        throw Error("internal error: a channels-last convolution needs float32 and oneDNN");
    if (dtype == DType::Float64) {
        convolutionLoops(shape, outChannels, groups, static_cast<const double*>(x), static_cast<const double*>(w),
                         static_cast<const double*>(bias), static_cast<double*>(y));
        return;
    }
#ifdef FUSESCOPE_HAVE_DNNL
    try {
        convolutionOneDnn(shape, outChannels, groups, static_cast<const float*>(x), static_cast<const float*>(w),
                          static_cast<const float*>(bias), static_cast<float*>(y), layouts);
        return;
    } catch (const dnnl::error& e) {
        // oneDNN refuses some geometries PyTorch accepts (a dilated window past the padded
        // input, found by fuzzing): the plain loops compute those.
        if (layouts.inputChannelsLast || layouts.outputChannelsLast) throw Error(std::string("oneDNN cannot run this convolution: ") + e.what());
    }
#endif
    convolutionLoops(shape, outChannels, groups, static_cast<const float*>(x), static_cast<const float*>(w),
                     static_cast<const float*>(bias), static_cast<float*>(y));
}

void maxPoolForward(DType dtype, const WindowShape& shape, const void* x, void* y) {
    requireFloatOrDouble(dtype, "max pooling");
    if (dtype == DType::Float64) maxPoolLoops(shape, static_cast<const double*>(x), static_cast<double*>(y));
    else maxPoolLoops(shape, static_cast<const float*>(x), static_cast<float*>(y));
}

void maxPoolBackward(DType dtype, const WindowShape& shape, const void* x, const void* gradOutput, void* gradInput) {
    requireFloatOrDouble(dtype, "max pooling's gradient");
    if (dtype == DType::Float64)
        maxPoolBackwardLoops(shape, static_cast<const double*>(x), static_cast<const double*>(gradOutput), static_cast<double*>(gradInput));
    else maxPoolBackwardLoops(shape, static_cast<const float*>(x), static_cast<const float*>(gradOutput), static_cast<float*>(gradInput));
}

void avgPoolForward(DType dtype, const WindowShape& shape, bool countIncludePad, int64_t divisorOverride, const void* x, void* y) {
    requireFloatOrDouble(dtype, "average pooling");
    if (dtype == DType::Float64)
        avgPoolLoops(shape, countIncludePad, divisorOverride, static_cast<const double*>(x), static_cast<double*>(y));
    else avgPoolLoops(shape, countIncludePad, divisorOverride, static_cast<const float*>(x), static_cast<float*>(y));
}

std::vector<int64_t> packConvolutionGeometry(const WindowShape& s, int64_t outChannels, int64_t groups, ConvolutionLayouts layouts) {
    return {s.batch,     s.channels,  s.input[0],   s.input[1],   s.kernel[0], s.kernel[1],   s.output[0], s.output[1],
            s.stride[0], s.stride[1], s.padding[0], s.padding[1], s.dilation[0], s.dilation[1], outChannels, groups,
            layouts.inputChannelsLast, layouts.outputChannelsLast};
}

extern "C" void fsConvolution(int dtype, const int64_t* g, const void* x, const void* w, const void* bias, void* y) {
    WindowShape s;
    s.batch = g[0], s.channels = g[1];
    for (int d = 0; d < 2; ++d) {
        s.input[d] = g[2 + d], s.kernel[d] = g[4 + d], s.output[d] = g[6 + d];
        s.stride[d] = g[8 + d], s.padding[d] = g[10 + d], s.dilation[d] = g[12 + d];
    }
    convolutionForward(dtype == 1 ? DType::Float64 : DType::Float32, s, g[14], g[15], x, w, bias, y,
                       ConvolutionLayouts{g[16] != 0, g[17] != 0});
}

void releaseConvolutionPrimitives() {
#ifdef FUSESCOPE_HAVE_DNNL
    MadeConvolutions& made = madeConvolutions();
    std::lock_guard<std::mutex> lock(made.mutex);
    made.byGeometry.clear();
#endif
}

bool convolutionUsesOneDnn() {
#ifdef FUSESCOPE_HAVE_DNNL
    return true;
#else
    return false;
#endif
}

}  // namespace fusescope

#pragma once
// Convolution and pooling over contiguous NCHW data (a 1-D op is 2-D with height 1): oneDNN
// (the library PyTorch uses on the CPU) for float32, plain loops for float64, which oneDNN
// does not take, and for builds without oneDNN. Compiled graphs may hand a float32
// convolution channels-last (NHWC) data instead, the layout oneDNN's fast kernels use.

#include <array>
#include <cstdint>
#include <vector>

#include "core/dtype.h"

namespace fusescope {

// The geometry of one convolution or pooling window over N x C x H x W.
struct WindowShape {
    int64_t batch = 1, channels = 1;
    std::array<int64_t, 2> input{1, 1}, kernel{1, 1}, output{1, 1};
    std::array<int64_t, 2> stride{1, 1}, padding{0, 0}, dilation{1, 1};
};

// Which of a convolution's input and output lie channels-last (NHWC strides over NCHW
// sizes) rather than contiguous; only float32 convolutions through oneDNN take them.
struct ConvolutionLayouts {
    bool inputChannelsLast = false, outputChannelsLast = false;
};

// y[n][o] = bias[o] + sum over c in o's group, kh, kw of x[n][c][.][.] * w[o][c][kh][kw]
// (zero padding). `bias` may be null.
void convolutionForward(DType dtype, const WindowShape& shape, int64_t outChannels, int64_t groups, const void* x,
                        const void* w, const void* bias, void* y, ConvolutionLayouts layouts = {});

// Max pooling (padding counts as -inf; NaN propagates) and average pooling (PyTorch's
// count_include_pad and divisor_override rules).
void maxPoolForward(DType dtype, const WindowShape& shape, const void* x, void* y);
// Max pooling's input gradient from its output's (`gradOutput`, contiguous like `x`).
void maxPoolBackward(DType dtype, const WindowShape& shape, const void* x, const void* gradOutput, void* gradInput);
void avgPoolForward(DType dtype, const WindowShape& shape, bool countIncludePad, int64_t divisorOverride, const void* x, void* y);

// The geometry as 18 numbers, for generated code: batch, channels, input H W, kernel H W,
// output H W, stride H W, padding H W, dilation H W, output channels, groups, and whether
// the input and the output are channels-last.
std::vector<int64_t> packConvolutionGeometry(const WindowShape& shape, int64_t outChannels, int64_t groups,
                                             ConvolutionLayouts layouts = {});
// What generated code calls (fs_convolution): dtype 0 float32, 1 float64.
extern "C" void fsConvolution(int dtype, const int64_t* geometry, const void* x, const void* w, const void* bias, void* y);

// Frees the oneDNN primitives made so far and their buffers (between runs; none may be
// running a convolution).
void releaseConvolutionPrimitives();

// Whether float32 convolution and pooling run through oneDNN in this build.
bool convolutionUsesOneDnn();

}  // namespace fusescope

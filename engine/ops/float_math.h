#pragma once
// Float32 math over spans for the eager kernels, vectorised: each value converted to double,
// through glibc's libmvec (the vector functions the JIT's -fveclib=libmvec calls), rounded
// once to float, as the scalar kernels compute with libm in double, so results are the same
// bits (docs/eager.md says how close: bench/scripts/check_float_math.sh checks every float).
// 4 doubles a vector (AVX2) where the CPU has them, else 2 (SSE2); built without libmvec or
// off x86-64, scalar libm. The last lanes of a span are padded and nothing is contracted
// into an FMA, so a value's result depends neither on where it sits nor on the instruction
// set's own arithmetic (ops/float_math_kernels.inc).

#include <cstdint>

namespace fusescope {

enum class FloatFunction { Exp, Log, Sin, Cos, Tanh, Sigmoid, Silu, GeluTanh };

// out[k] = f(in[k]) for k < n; in and out are the same array or do not overlap. sigmoid and
// silu compute in float around exp(-x) rounded to float, as PyTorch's float kernels; gelu's
// tanh form as x / (1 + exp(-2u)) in double, its value without 1 + tanh(u)'s cancellation.
void applyFloatFunction(FloatFunction f, const float* in, float* out, int64_t n);

// Float32 + - * / over a span: out[k] = a[k] op b[k], an operand read from its stream, or
// from its value where the stream is null. One float operation rounds the exact result once,
// as computing in double and rounding to float does (double holds more than twice float's
// digits), so these are the bits of the double arithmetic the other kernels use. out may be
// a or b, or overlap them as a loop in order would read them.
enum class FloatArithmetic { Add, Sub, Mul, Div };
void applyFloatArithmetic(FloatArithmetic op, const float* a, float aValue, const float* b, float bValue, float* out, int64_t n);

// Rows of softmax, log_softmax and layer_norm. Sums add in double, in eight interleaved
// partial sums combined in a fixed order (the same bits on every instruction set).
float maxOfRow(const float* x, int64_t n);  // NaN skipped; -inf when empty or all NaN
// exps[k] = exp(x[k] - shift) in double for x[k] <= shift (the row's max); returns their sum.
double expsBelowShift(const float* x, double shift, double* exps, int64_t n);
double sumOfRow(const float* x, int64_t n);
double squaredDeviationsOfRow(const float* x, double mean, int64_t n);  // sum of (x - mean)^2
// y[k] = (x[k] - mean) * rstd, times w[k] and plus b[k] where given (null when absent), in
// double; y may be x.
void normalizeRow(const float* x, double mean, double rstd, const float* w, const float* b, float* y, int64_t n);
void divideRow(const double* exps, double sum, float* y, int64_t n);  // y[k] = exps[k] / sum (softmax)
// y[k] = x[k] - max - logSum (log_softmax), in double; y may be x.
void logSoftmaxRow(const float* x, double max, double logSum, float* y, int64_t n);

}  // namespace fusescope

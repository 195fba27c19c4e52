#pragma once
namespace rfk_bench {
// One-sample random Fourier feature prediction, phase form, K = 1, W row-major F x d:
// out = bias + H . (scale cos(W x + b)). z is scratch of F floats.
void NaivePredict(const float* W, const float* b, const float* H, float bias, const float* x,
                  int F, int d, float scale, float* z, float* out);  // plain loops, std::cos
void EigenPredict(const float* W, const float* b, const float* H, float bias, const float* x,
                  int F, int d, float scale, float* z, float* out);  // Eigen GEMV + std::cos
}  // namespace rfk_bench

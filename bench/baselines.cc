// Baselines for bench_kernels: what a user would write without rfk. Compiled with -march=native
// where the compiler allows it (see bench/CMakeLists.txt), so they get this CPU's full ISA.
#include "baselines.h"

#include <Eigen/Core>
#include <cmath>

namespace rfk_bench {

void NaivePredict(const float* W, const float* b, const float* H, float bias, const float* x,
                  int F, int d, float scale, float* z, float* out) {
  for (int j = 0; j < F; ++j) {
    float acc = b[j];
    for (int c = 0; c < d; ++c) acc += W[j * d + c] * x[c];
    z[j] = scale * std::cos(acc);
  }
  float o = bias;
  for (int j = 0; j < F; ++j) o += H[j] * z[j];
  *out = o;
}

void EigenPredict(const float* W, const float* b, const float* H, float bias, const float* x,
                  int F, int d, float scale, float* z, float* out) {
  using Mat = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
  const Eigen::Map<const Mat> Wm(W, F, d);
  const Eigen::Map<const Eigen::VectorXf> xv(x, d), bv(b, F), hv(H, F);
  Eigen::Map<Eigen::VectorXf> zv(z, F);
  zv.noalias() = Wm * xv;
  zv += bv;
  for (int j = 0; j < F; ++j) z[j] = scale * std::cos(z[j]);
  *out = bias + hv.dot(zv);
}

}  // namespace rfk_bench

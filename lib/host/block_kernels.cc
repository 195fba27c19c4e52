#include "block_kernels.h"

#include <algorithm>
#include <cstring>

// GCC warns (-Wpsabi) that passing a vector type by value differs between the target clones
// below; every such function here is always_inline (sincos_ref.h's too), so no such call exists.
#pragma GCC diagnostic ignored "-Wpsabi"
#include "../core/sincos_ref.h"
#include "rfk/kernels.hpp"

// Runtime-selected clones for x86-64 hosts. Without contraction every clone performs the same
// IEEE operations, so the choice of clone never changes a result.
// Not under ThreadSanitizer: the loader runs the clones' ifunc resolver before the TSan runtime
// is initialised, and the instrumented resolver crashes (seen with GCC 12).
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__) && !defined(__SANITIZE_THREAD__)
#define RFK_HOST_CLONES __attribute__((target_clones("avx512f", "avx2", "default")))
#else
#define RFK_HOST_CLONES
#endif

namespace rfk::host {

namespace {
constexpr std::uint32_t kProjCols = 64;  // columns of args per register tile
constexpr std::uint32_t kProjRows = 4;   // rows sharing each loaded slice of Wt
}  // namespace

RFK_HOST_CLONES
void ProjectDense(const float* X, std::size_t R, std::uint32_t d, const float* Wt, std::uint32_t F,
                  float* args) {
  for (std::uint32_t j0 = 0; j0 < F; j0 += kProjCols) {
    const std::uint32_t jn = std::min(kProjCols, F - j0);
    for (std::size_t r0 = 0; r0 < R; r0 += kProjRows) {
      const std::size_t rn = std::min<std::size_t>(kProjRows, R - r0);
      float acc[kProjRows][kProjCols] = {};
      if (rn == kProjRows && jn == kProjCols) {
        for (std::uint32_t c = 0; c < d; ++c) {
          const float* w = Wt + static_cast<std::size_t>(c) * F + j0;
          for (std::uint32_t q = 0; q < kProjRows; ++q) {
            const float a = X[(r0 + q) * d + c];
            for (std::uint32_t j = 0; j < kProjCols; ++j) acc[q][j] += a * w[j];
          }
        }
      } else {
        for (std::uint32_t c = 0; c < d; ++c) {
          const float* w = Wt + static_cast<std::size_t>(c) * F + j0;
          for (std::size_t q = 0; q < rn; ++q) {
            const float a = X[(r0 + q) * d + c];
            for (std::uint32_t j = 0; j < jn; ++j) acc[q][j] += a * w[j];
          }
        }
      }
      for (std::size_t q = 0; q < rn; ++q)
        std::memcpy(args + (r0 + q) * F + j0, acc[q], jn * sizeof(float));
    }
  }
}

RFK_HOST_CLONES
void ProjectSparse(const std::uint32_t* cols, const float* vals, std::size_t nnz, const float* Wt,
                   std::uint32_t F, float* args) {
  std::fill(args, args + F, 0.0f);
  for (std::size_t t = 0; t < nnz; ++t) {
    const float a = vals[t];
    const float* w = Wt + static_cast<std::size_t>(cols[t]) * F;
    for (std::uint32_t j = 0; j < F; ++j) args[j] += a * w[j];
  }
}

// GCC warns (-Wpsabi) that passing V8d by value has a different ABI in each target clone. The
// helpers below are always_inline, so no such call exists at any optimisation level; without
// that, a -O0 build called the default-target helper from the AVX-512 clone and read garbage.
#pragma GCC diagnostic ignored "-Wpsabi"
namespace {
// Eight doubles: one AVX-512 register, two AVX2 or four SSE2 registers (GCC/Clang lower the
// generic vector type to whatever the clone's target has). Element-wise, so no reassociation.
typedef double V8d __attribute__((vector_size(64)));
__attribute__((always_inline)) inline V8d LoadV8d(const double* p) {
  V8d v;
  __builtin_memcpy(&v, p, sizeof v);
  return v;
}
__attribute__((always_inline)) inline void StoreV8d(double* p, V8d v) {
  __builtin_memcpy(p, &v, sizeof v);
}
}  // namespace

}  // namespace rfk::host

namespace rfk::host {

RFK_HOST_CLONES
void CholUpdateTile(const double* Pt, std::size_t ldt, const double* P, std::size_t ldp,
                    std::size_t R, std::size_t i0, std::size_t in, std::size_t j0, std::size_t jn,
                    double* A, std::size_t lda) {
  if (in == kCholRows && jn == kCholCols) {
    // Register tile: 4 rows x 32 columns = 16 vectors of 8 doubles.
    V8d acc[kCholRows][4];
    for (std::uint32_t q = 0; q < kCholRows; ++q)
      for (std::uint32_t v = 0; v < 4; ++v) acc[q][v] = LoadV8d(A + (i0 + q) * lda + j0 + 8 * v);
    for (std::size_t r = 0; r < R; ++r) {
      const double* pr = P + r * ldp + j0;
      const V8d z0 = LoadV8d(pr), z1 = LoadV8d(pr + 8), z2 = LoadV8d(pr + 16), z3 = LoadV8d(pr + 24);
      for (std::uint32_t q = 0; q < kCholRows; ++q) {
        const double a = Pt[q * ldt + r];
        acc[q][0] -= a * z0;
        acc[q][1] -= a * z1;
        acc[q][2] -= a * z2;
        acc[q][3] -= a * z3;
      }
    }
    for (std::uint32_t q = 0; q < kCholRows; ++q)
      for (std::uint32_t v = 0; v < 4; ++v) StoreV8d(A + (i0 + q) * lda + j0 + 8 * v, acc[q][v]);
    return;
  }
  for (std::size_t q = 0; q < in; ++q) {
    double* a_row = A + (i0 + q) * lda + j0;
    for (std::size_t r = 0; r < R; ++r) {
      const double a = Pt[q * ldt + r];
      const double* pr = P + r * ldp + j0;
      for (std::size_t j = 0; j < jn; ++j) a_row[j] -= a * pr[j];
    }
  }
}

// Sixteen floats and sixteen int32s: one AVX-512 register, two AVX2 or four SSE2 ones.
typedef float V16f __attribute__((vector_size(64)));
typedef std::int32_t V16i __attribute__((vector_size(64)));

RFK_HOST_CLONES
void FourierFeatures(const float* a, const float* b, std::uint32_t F, float scale, float* z) {
  constexpr std::uint32_t L = 16;
  const V16f zero = {}, half = zero + 0.5f, fast_range = zero + kSinCosFastRange;
  std::uint32_t j = 0;
  for (; j + L <= F; j += L) {
    V16f x;
    std::memcpy(&x, a + j, sizeof x);
    if (b != nullptr) {
      V16f p;
      std::memcpy(&p, b + j, sizeof p);
      x = x + p;
    }
    const V16i in_range = (x <= fast_range) & (-x <= fast_range);  // false for NaN
    bool all = true;
    for (std::uint32_t l = 0; l < L; ++l) all &= in_range[l] != 0;
    if (!all) break;  // this and every later group through SinCosRef itself, below
    // SinCosRef's fast path, lane by lane the same operations (sincos_ref.h).
    const V16f kf = x * sincos::kTwoOverPi;
    const V16i k = __builtin_convertvector(kf + (kf >= zero ? half : -half), V16i);
    const V16f r = sincos::Reduce(x, __builtin_convertvector(k, V16f));
    const V16f s = sincos::SinPoly(r), c = sincos::CosPoly(r);
    const V16i q = k & 3;
    const V16i odd = (q & 1) != 0;
    V16f cosv = odd ? s : c;
    cosv = ((q + 1) & 2) != 0 ? -cosv : cosv;  // quadrants 1, 2
    const V16f outc = scale * cosv;
    std::memcpy(z + j, &outc, sizeof outc);
    if (b == nullptr) {
      V16f sinv = odd ? c : s;
      sinv = (q & 2) != 0 ? -sinv : sinv;  // quadrants 2, 3
      const V16f outs = scale * sinv;
      std::memcpy(z + F + j, &outs, sizeof outs);
    }
  }
  for (; j < F; ++j) {
    float sv, cv;
    SinCosRef(b != nullptr ? a[j] + b[j] : a[j], &sv, &cv);
    z[j] = scale * cv;
    if (b == nullptr) z[F + j] = scale * sv;
  }
}

RFK_HOST_CLONES
void AxpyNeg(double a, const double* x, std::size_t n, double* y) {
  for (std::size_t j = 0; j < n; ++j) y[j] -= a * x[j];
}

}  // namespace rfk::host

#include "maps/block_kernels.h"

#include <algorithm>
#include <atomic>
#include <cstring>

// GCC and Clang warn (-Wpsabi) that passing a vector type by value differs between the target
// clones below; every such function here is always_inline (sincos_ref.h's too), so no such call
// exists. The pragma silences the warning (scripts/fuzz.sh's clang++ compiles this file without
// CMake); GCC 12 still prints it as a note, which lib/CMakeLists.txt's -Wno-psabi silences.
#pragma GCC diagnostic ignored "-Wpsabi"
#include "core/sincos_ref.h"
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

// Fused multiply-adds for the projection and the Cholesky kernels on x86-64 CPUs that have them
// (HostFused).
#if defined(__x86_64__) && defined(__GNUC__)
#define RFK_HOST_FMA 1
#include <immintrin.h>
#else
#define RFK_HOST_FMA 0
#endif

namespace rfk::host {

namespace {
constexpr std::uint32_t kProjCols = 64;  // columns of args per register tile
constexpr std::uint32_t kProjRows = 4;   // rows sharing each loaded slice of Wt
// Values of c per packed block of Wt: 16 KiB, in L1 with room to spare (32 KiB on Zen 4, 48 KiB on
// Intel's recent cores). On a 16-core Xeon 64 reached the largest share of the FMA peak, 128 and
// 256 less (PERFORMANCE.md); on Zen 4 the three were within the VM's noise.
constexpr std::uint32_t kProjDepth = 64;

// The best path this CPU runs, decided on first use (a function-local static, so also right when
// another file's static initialiser trains): every fused kernel needs FMA and AVX2; AVX-512 only
// widens the tiles.
KernelPath Best() {
  static const KernelPath best = [] {
#if RFK_HOST_FMA
    __builtin_cpu_init();
    if (!__builtin_cpu_supports("fma") || !__builtin_cpu_supports("avx2")) return KernelPath::kSeparate;
    return __builtin_cpu_supports("avx512f") ? KernelPath::kAvx512 : KernelPath::kAvx2;
#else
    return KernelPath::kSeparate;
#endif
  }();
  return best;
}
// SelectHostPath's choice; kBest (constant-initialised) until it makes one.
std::atomic<KernelPath> g_path{KernelPath::kBest};
inline KernelPath Path() {
  const KernelPath p = g_path.load(std::memory_order_relaxed);
  return p == KernelPath::kBest ? Best() : p;
}

// The unfused projection: one rounding per multiply and per addition, the device core's
// operations (CPUs without FMA, other architectures).
RFK_HOST_CLONES
void ProjectDenseSeparate(const float* X, std::size_t R, std::uint32_t d, const float* Wt, std::uint32_t F,
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
void ProjectSparseSeparate(const std::uint32_t* cols, const float* vals, std::size_t nnz, const float* Wt,
                           std::uint32_t F, float* args) {
  std::fill(args, args + F, 0.0f);
  for (std::size_t t = 0; t < nnz; ++t) {
    const float a = vals[t];
    const float* w = Wt + static_cast<std::size_t>(cols[t]) * F;
    for (std::uint32_t j = 0; j < F; ++j) args[j] += a * w[j];
  }
}

#if RFK_HOST_FMA
// The fused projection: each args[r][j] is the chain acc = fma(X[r][c], Wt[c][j], acc) for
// c = 0..d-1 from +0.0f, one rounding per term. An FMA is exactly rounded, so the AVX-512 and the
// AVX2 kernels give the same bits; only the register tiling and the blocking differ (a chain's
// partial sum stored to memory between blocks and loaded again is the same float).

// Rows r0 .. r0 + rn - 1 (fewer than a tile's), columns j0 .. j0 + jn - 1, row by row and whole
// chains: the same sums as the tiles.
__attribute__((target("avx2,fma"))) void ProjectEdgeFused(const float* X, std::size_t r0, std::size_t rn,
                                                           std::uint32_t d, const float* Wt, std::uint32_t F,
                                                           std::uint32_t j0, std::uint32_t jn, float* args) {
  for (std::size_t q = 0; q < rn; ++q) {
    float acc[kProjCols] = {};
    const float* x = X + (r0 + q) * d;
    for (std::uint32_t c = 0; c < d; ++c) {
      const float* w = Wt + static_cast<std::size_t>(c) * F + j0;
      for (std::uint32_t j = 0; j < jn; ++j) acc[j] = __builtin_fmaf(x[c], w[j], acc[j]);
    }
    std::memcpy(args + (r0 + q) * F + j0, acc, jn * sizeof(float));
  }
}

// A full tile, one block of depth: rows x[q * ldx + c] (q < kProjRows, c < kc) times the packed
// panel p[c * kProjCols + j], carried on into out[q * ldo + j] (j < kProjCols): each chain starts
// from +0.0f where `first`, else from the float out holds (the chain so far, stored exactly). The
// chains stay in registers across the block.
using FullTile = void (*)(const float* x, std::size_t ldx, const float* p, std::uint32_t kc, bool first,
                          float* out, std::size_t ldo);

__attribute__((target("avx512f,fma"))) void ProjectTileAvx512(const float* x, std::size_t ldx, const float* p,
                                                               std::uint32_t kc, bool first, float* out,
                                                               std::size_t ldo) {
  __m512 acc[kProjRows][4];  // 4 rows x 64 columns: 16 of the 32 registers
  for (std::uint32_t q = 0; q < kProjRows; ++q)
    for (std::uint32_t v = 0; v < 4; ++v) acc[q][v] = first ? _mm512_setzero_ps() : _mm512_loadu_ps(out + q * ldo + 16 * v);
  for (std::uint32_t c = 0; c < kc; ++c) {
    const float* w = p + static_cast<std::size_t>(c) * kProjCols;
    const __m512 w0 = _mm512_load_ps(w), w1 = _mm512_load_ps(w + 16);
    const __m512 w2 = _mm512_load_ps(w + 32), w3 = _mm512_load_ps(w + 48);
    for (std::uint32_t q = 0; q < kProjRows; ++q) {
      const __m512 a = _mm512_set1_ps(x[q * ldx + c]);
      acc[q][0] = _mm512_fmadd_ps(a, w0, acc[q][0]);
      acc[q][1] = _mm512_fmadd_ps(a, w1, acc[q][1]);
      acc[q][2] = _mm512_fmadd_ps(a, w2, acc[q][2]);
      acc[q][3] = _mm512_fmadd_ps(a, w3, acc[q][3]);
    }
  }
  for (std::uint32_t q = 0; q < kProjRows; ++q)
    for (std::uint32_t v = 0; v < 4; ++v) _mm512_storeu_ps(out + q * ldo + 16 * v, acc[q][v]);
}

// One AVX2 sweep: 4 rows x 8V panel columns from column j, 4V accumulators (V <= 3: with V W
// vectors and a broadcast, at most the 16 registers).
template <int V>
__attribute__((target("avx2,fma"), always_inline)) inline void ProjectSweepAvx2(
    const float* x, std::size_t ldx, const float* p, std::uint32_t kc, bool first, float* out, std::size_t ldo) {
  __m256 acc[kProjRows][V];
  for (std::uint32_t q = 0; q < kProjRows; ++q)
    for (int v = 0; v < V; ++v) acc[q][v] = first ? _mm256_setzero_ps() : _mm256_loadu_ps(out + q * ldo + 8 * v);
  for (std::uint32_t c = 0; c < kc; ++c) {
    const float* w = p + static_cast<std::size_t>(c) * kProjCols;
    __m256 wv[V];
    for (int v = 0; v < V; ++v) wv[v] = _mm256_load_ps(w + 8 * v);
    for (std::uint32_t q = 0; q < kProjRows; ++q) {
      const __m256 a = _mm256_set1_ps(x[q * ldx + c]);
      for (int v = 0; v < V; ++v) acc[q][v] = _mm256_fmadd_ps(a, wv[v], acc[q][v]);
    }
  }
  for (std::uint32_t q = 0; q < kProjRows; ++q)
    for (int v = 0; v < V; ++v) _mm256_storeu_ps(out + q * ldo + 8 * v, acc[q][v]);
}

__attribute__((target("avx2,fma"))) void ProjectTileAvx2(const float* x, std::size_t ldx, const float* p,
                                                           std::uint32_t kc, bool first, float* out,
                                                           std::size_t ldo) {
  static_assert(kProjCols == 64, "the sweeps below cover 24 + 24 + 16 columns");
  ProjectSweepAvx2<3>(x, ldx, p, kc, first, out, ldo);
  ProjectSweepAvx2<3>(x, ldx, p + 24, kc, first, out + 24, ldo);
  ProjectSweepAvx2<2>(x, ldx, p + 48, kc, first, out + 48, ldo);
}

// The fused projection. Blocked like a GEMM, but every chain keeps its order: for each strip of
// kProjCols columns and each block of kProjDepth values of c, that block of Wt is packed (64-byte
// aligned, on the stack, so it stays in L1 whatever F's stride) and every full group of kProjRows
// rows carries its chains on through it; partial row groups run whole chains in ProjectEdgeFused.
void ProjectDenseFused(FullTile tile, const float* X, std::size_t R, std::uint32_t d, const float* Wt,
                       std::uint32_t F, float* args) {
  if (d == 0) return std::fill(args, args + R * F, 0.0f);
  const std::size_t full = R - R % kProjRows;
  alignas(64) float panel[kProjDepth * kProjCols];
  for (std::uint32_t j0 = 0; j0 < F; j0 += kProjCols) {
    const std::uint32_t jn = std::min(kProjCols, F - j0);
    for (std::uint32_t c0 = 0; full > 0 && c0 < d; c0 += kProjDepth) {
      const std::uint32_t kc = std::min(kProjDepth, d - c0);
      for (std::uint32_t c = 0; c < kc; ++c) {
        float* row = panel + static_cast<std::size_t>(c) * kProjCols;
        std::memcpy(row, Wt + static_cast<std::size_t>(c0 + c) * F + j0, jn * sizeof(float));
        std::fill(row + jn, row + kProjCols, 0.0f);
      }
      for (std::size_t r0 = 0; r0 < full; r0 += kProjRows) {
        float* out = args + r0 * F + j0;
        if (r0 + 3 * kProjRows <= full)  // the tile after next's slice of X (L3 to L1 takes a while)
          for (std::uint32_t q = 0; q < kProjRows; ++q)
            for (std::uint32_t c = 0; c < kc; c += 16)
              __builtin_prefetch(X + (r0 + 2 * kProjRows + q) * d + c0 + c);
        if (jn == kProjCols) {
          tile(X + r0 * d + c0, d, panel, kc, c0 == 0, out, F);
          continue;
        }
        // The last, narrower strip: its chains pass through a full-width copy (the padding
        // columns compute zeros and are dropped).
        alignas(64) float part[kProjRows * kProjCols] = {};
        for (std::uint32_t q = 0; q < kProjRows && c0 > 0; ++q)
          std::memcpy(part + q * kProjCols, out + q * F, jn * sizeof(float));
        tile(X + r0 * d + c0, d, panel, kc, c0 == 0, part, kProjCols);
        for (std::uint32_t q = 0; q < kProjRows; ++q) std::memcpy(out + q * F, part + q * kProjCols, jn * sizeof(float));
      }
    }
    if (full < R) ProjectEdgeFused(X, full, R - full, d, Wt, F, j0, jn, args);
  }
}

__attribute__((target("avx2,fma"))) void ProjectSparseFused(const std::uint32_t* cols, const float* vals,
                                                             std::size_t nnz, const float* Wt, std::uint32_t F,
                                                             float* args) {
  std::fill(args, args + F, 0.0f);
  for (std::size_t t = 0; t < nnz; ++t) {
    const float a = vals[t];
    const float* w = Wt + static_cast<std::size_t>(cols[t]) * F;
    for (std::uint32_t j = 0; j < F; ++j) args[j] = __builtin_fmaf(a, w[j], args[j]);
  }
}
#endif

}  // namespace

bool HostFused() { return Path() != KernelPath::kSeparate; }

bool SelectHostPath(KernelPath path) {
  // The paths are ordered: a CPU that runs one runs every one before it.
  if (path != KernelPath::kBest && path > Best()) return false;
  g_path.store(path, std::memory_order_relaxed);
  return true;
}

KernelPath HostPath() { return Path(); }

const char* HostPathName(KernelPath path) {
  switch (path == KernelPath::kBest ? Best() : path) {
    case KernelPath::kAvx512: return "fused-avx512";
    case KernelPath::kAvx2: return "fused-avx2";
    default: return "unfused";
  }
}

void ProjectDense(const float* X, std::size_t R, std::uint32_t d, const float* Wt, std::uint32_t F,
                  float* args) {
#if RFK_HOST_FMA
  switch (Path()) {
    case KernelPath::kAvx512: return ProjectDenseFused(ProjectTileAvx512, X, R, d, Wt, F, args);
    case KernelPath::kAvx2: return ProjectDenseFused(ProjectTileAvx2, X, R, d, Wt, F, args);
    default: break;
  }
#endif
  ProjectDenseSeparate(X, R, d, Wt, F, args);
}

void ProjectSparse(const std::uint32_t* cols, const float* vals, std::size_t nnz, const float* Wt,
                   std::uint32_t F, float* args) {
#if RFK_HOST_FMA
  if (HostFused()) return ProjectSparseFused(cols, vals, nnz, Wt, F, args);
#endif
  ProjectSparseSeparate(cols, vals, nnz, Wt, F, args);
}

// The -Wpsabi warning above concerns V8d too: passing it by value has a different ABI in each
// target clone. The helpers below are always_inline, so no such call exists at any optimisation
// level; without that, a -O0 build called the default-target helper from the AVX-512 clone and
// read garbage.
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

namespace {

// The unfused kernels: one rounding per multiply and per subtraction (CPUs without FMA, other
// architectures).
RFK_HOST_CLONES
void CholUpdateTileSeparate(const double* Pt, std::size_t ldt, const double* P, std::size_t ldp,
                            std::size_t R, std::size_t i0, std::size_t in, std::size_t j0,
                            std::size_t jn, double* A, std::size_t lda) {
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

}  // namespace

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

namespace {

RFK_HOST_CLONES
void AxpyNegSeparate(double a, const double* x, std::size_t n, double* y) {
  for (std::size_t j = 0; j < n; ++j) y[j] -= a * x[j];
}

#if RFK_HOST_FMA
// The fused kernels: every y -= a * x is one fma(-a, x, y), a single rounding, in the same order
// per element as the unfused ones. An FMA is exactly rounded, so the AVX-512 and the AVX2 kernels
// give the same bits; only the register tiling differs.
__attribute__((target("avx2,fma"))) void AxpyNegFused(double a, const double* x, std::size_t n,
                                                       double* y) {
  for (std::size_t j = 0; j < n; ++j) y[j] = __builtin_fma(-a, x[j], y[j]);
}

// A partial tile (fewer than kCholRows rows or kCholCols columns), row by row: the same fused
// updates, in the same order, as the full tiles below.
__attribute__((target("avx2,fma"))) void CholEdgeFused(const double* Pt, std::size_t ldt, const double* P,
                                                        std::size_t ldp, std::size_t R, std::size_t i0,
                                                        std::size_t in, std::size_t j0, std::size_t jn, double* A,
                                                        std::size_t lda) {
  for (std::size_t q = 0; q < in; ++q)
    for (std::size_t r = 0; r < R; ++r) AxpyNegFused(Pt[q * ldt + r], P + r * ldp + j0, jn, A + (i0 + q) * lda + j0);
}

__attribute__((target("avx512f,fma"))) void CholUpdateTileAvx512(
    const double* Pt, std::size_t ldt, const double* P, std::size_t ldp, std::size_t R,
    std::size_t i0, std::size_t in, std::size_t j0, std::size_t jn, double* A, std::size_t lda) {
  if (in == kCholRows && jn == kCholCols) {
    __m512d acc[kCholRows][4];  // 4 rows x 32 columns: 16 of the 32 registers
    for (std::uint32_t q = 0; q < kCholRows; ++q)
      for (std::uint32_t v = 0; v < 4; ++v) acc[q][v] = _mm512_loadu_pd(A + (i0 + q) * lda + j0 + 8 * v);
    for (std::size_t r = 0; r < R; ++r) {
      const double* pr = P + r * ldp + j0;
      const __m512d z0 = _mm512_loadu_pd(pr), z1 = _mm512_loadu_pd(pr + 8);
      const __m512d z2 = _mm512_loadu_pd(pr + 16), z3 = _mm512_loadu_pd(pr + 24);
      for (std::uint32_t q = 0; q < kCholRows; ++q) {
        const __m512d a = _mm512_set1_pd(Pt[q * ldt + r]);
        acc[q][0] = _mm512_fnmadd_pd(a, z0, acc[q][0]);
        acc[q][1] = _mm512_fnmadd_pd(a, z1, acc[q][1]);
        acc[q][2] = _mm512_fnmadd_pd(a, z2, acc[q][2]);
        acc[q][3] = _mm512_fnmadd_pd(a, z3, acc[q][3]);
      }
    }
    for (std::uint32_t q = 0; q < kCholRows; ++q)
      for (std::uint32_t v = 0; v < 4; ++v) _mm512_storeu_pd(A + (i0 + q) * lda + j0 + 8 * v, acc[q][v]);
    return;
  }
  CholEdgeFused(Pt, ldt, P, ldp, R, i0, in, j0, jn, A, lda);
}

__attribute__((target("avx2,fma"))) void CholUpdateTileAvx2(
    const double* Pt, std::size_t ldt, const double* P, std::size_t ldp, std::size_t R,
    std::size_t i0, std::size_t in, std::size_t j0, std::size_t jn, double* A, std::size_t lda) {
  if (in == kCholRows && jn == kCholCols) {
    // 4 rows x 8 columns per sweep (8 of the 16 registers), four sweeps for the tile's 32 columns.
    for (std::size_t c = 0; c < kCholCols; c += 8) {
      __m256d acc[kCholRows][2];
      for (std::uint32_t q = 0; q < kCholRows; ++q)
        for (std::uint32_t v = 0; v < 2; ++v) acc[q][v] = _mm256_loadu_pd(A + (i0 + q) * lda + j0 + c + 4 * v);
      for (std::size_t r = 0; r < R; ++r) {
        const double* pr = P + r * ldp + j0 + c;
        const __m256d z0 = _mm256_loadu_pd(pr), z1 = _mm256_loadu_pd(pr + 4);
        for (std::uint32_t q = 0; q < kCholRows; ++q) {
          const __m256d a = _mm256_set1_pd(Pt[q * ldt + r]);
          acc[q][0] = _mm256_fnmadd_pd(a, z0, acc[q][0]);
          acc[q][1] = _mm256_fnmadd_pd(a, z1, acc[q][1]);
        }
      }
      for (std::uint32_t q = 0; q < kCholRows; ++q)
        for (std::uint32_t v = 0; v < 2; ++v) _mm256_storeu_pd(A + (i0 + q) * lda + j0 + c + 4 * v, acc[q][v]);
    }
    return;
  }
  CholEdgeFused(Pt, ldt, P, ldp, R, i0, in, j0, jn, A, lda);
}

#endif

}  // namespace

void CholUpdateTile(const double* Pt, std::size_t ldt, const double* P, std::size_t ldp,
                    std::size_t R, std::size_t i0, std::size_t in, std::size_t j0, std::size_t jn,
                    double* A, std::size_t lda) {
#if RFK_HOST_FMA
  switch (Path()) {
    case KernelPath::kAvx512: return CholUpdateTileAvx512(Pt, ldt, P, ldp, R, i0, in, j0, jn, A, lda);
    case KernelPath::kAvx2: return CholUpdateTileAvx2(Pt, ldt, P, ldp, R, i0, in, j0, jn, A, lda);
    default: break;
  }
#endif
  CholUpdateTileSeparate(Pt, ldt, P, ldp, R, i0, in, j0, jn, A, lda);
}

void AxpyNeg(double a, const double* x, std::size_t n, double* y) {
#if RFK_HOST_FMA
  if (HostFused()) return AxpyNegFused(a, x, n, y);
#endif
  AxpyNegSeparate(a, x, n, y);
}

}  // namespace rfk::host

#include "training/gram.h"

#include <algorithm>
#include <atomic>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <iterator>
#include <mutex>
#include <string>

#include "cblas.h"  // OpenBLAS's (its include directory: lib/CMakeLists.txt)
#include "parallel.h"
#include "rfk/host/train.hpp"

namespace rfk::host {

namespace {

std::mutex g_blas_mu;
int g_blas_holders = 0;
int g_blas_saved = 1;

constexpr std::size_t kPanelRows = 256;  // rows per DGEMM for Z'V (bounds the double panel)
constexpr std::size_t kHeadRows = 64;    // rows per DGEMM in HeadOutputs

int Int(std::size_t v) { return static_cast<int>(v); }

}  // namespace

std::string BetterBlasCoreFor(const std::string& corename, bool avx512, bool avx2_fma, bool avx) {
  // OpenBLAS's names for x86 cores without AVX kernels (its fallbacks for CPUs it does not know).
  static const char* const kGeneric[] = {"Prescott", "Core2",   "Penryn", "Dunnington", "Nehalem",
                                         "Atom",     "Opteron", "Opteron(SSE3)", "Barcelona", "Nano"};
  if (std::find(std::begin(kGeneric), std::end(kGeneric), corename) == std::end(kGeneric)) return {};
  return avx512 ? "SkylakeX" : avx2_fma ? "Haswell" : avx ? "Sandybridge" : "";
}

std::string BetterBlasCore() {
  const char* set = std::getenv("OPENBLAS_CORETYPE");
  if (set != nullptr && *set != '\0') return {};
#if defined(__x86_64__) && defined(__GNUC__)
  __builtin_cpu_init();
  const bool avx512 = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512dq") &&
                      __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512vl");
  const bool avx2_fma = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
  return BetterBlasCoreFor(openblas_get_corename(), avx512, avx2_fma, __builtin_cpu_supports("avx"));
#else
  return {};
#endif
}

// OpenBLAS's DYNAMIC_ARCH initialisation (driver/others/dynamic.c): init picks and sets up a kernel
// table unless one is set; quit clears it. Weak: absent from builds without DYNAMIC_ARCH.
extern "C" void gotoblas_dynamic_init(void) __attribute__((weak));
extern "C" void gotoblas_dynamic_quit(void) __attribute__((weak));

std::string UseBetterBlasCore() {
  const std::string better = BetterBlasCore();
  if (better.empty() || gotoblas_dynamic_init == nullptr || gotoblas_dynamic_quit == nullptr) return {};
  if (setenv("OPENBLAS_CORETYPE", better.c_str(), 1) != 0) return {};
  const std::lock_guard<std::mutex> lock(g_blas_mu);
  gotoblas_dynamic_quit();
  gotoblas_dynamic_init();
  unsetenv("OPENBLAS_CORETYPE");
  const auto lower = [](std::string s) {
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return s;
  };
  return lower(openblas_get_corename()) == lower(better) ? better : std::string();
}

std::string BlasDescription() {
  const std::string config = openblas_get_config();  // "OpenBLAS 0.3.21 NO_LAPACKE DYNAMIC_ARCH ..."
  const std::size_t version_end = config.find(' ', config.find(' ') + 1);
  std::string d = config.substr(0, version_end) + ", " + openblas_get_corename() + " kernels";
  const char* set = std::getenv("OPENBLAS_CORETYPE");
  if (set != nullptr && *set != '\0') d += " (OPENBLAS_CORETYPE=" + std::string(set) + ")";
  if (const std::string better = BetterBlasCore(); !better.empty())
    d += "; this CPU runs OpenBLAS's " + better + " kernels with OPENBLAS_CORETYPE=" + better + " (much faster)";
  return d;
}

std::vector<double> KernelMatrix(const float* Z, std::size_t n, std::size_t D, unsigned threads) {
  const std::vector<double> Zd(Z, Z + n * D);
  std::vector<double> Kz(n * n);
  constexpr std::size_t kRows = 64;  // rows of Kz per DGEMM: the tile [i0, i1) x [i0, n)
  const std::size_t tasks = (n + kRows - 1) / kRows;
  const unsigned workers = std::max(1u, std::min<unsigned>(threads, static_cast<unsigned>(tasks)));
  const BlasOneThread one;
  Parallel(workers, [&](unsigned th) {
    for (std::size_t b = th; b < tasks; b += workers) {
      const std::size_t i0 = b * kRows, rows = std::min(kRows, n - i0);
      cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasTrans, Int(rows), Int(n - i0), Int(D), 1.0, Zd.data() + i0 * D,
                  Int(D), Zd.data() + i0 * D, Int(D), 0.0, Kz.data() + i0 * n + i0, Int(n));
    }
  });
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < i; ++j) Kz[i * n + j] = Kz[j * n + i];
  return Kz;
}

BlasOneThread::BlasOneThread() {
  const std::lock_guard<std::mutex> lock(g_blas_mu);
  if (g_blas_holders++ == 0) {
    g_blas_saved = openblas_get_num_threads();
    openblas_set_num_threads(1);
  }
}

BlasOneThread::~BlasOneThread() {
  const std::lock_guard<std::mutex> lock(g_blas_mu);
  if (--g_blas_holders == 0) openblas_set_num_threads(g_blas_saved);
}

GramAccumulator::GramAccumulator(std::uint32_t D, std::uint32_t K, unsigned threads)
    : D_(D), K_(K), threads_(std::max(1u, threads)), C_(threads_), Zd_(threads_), H_(threads_) {
  const std::uint32_t panels = (D + kGramTile - 1) / kGramTile;
  for (std::uint32_t I = 0; I < panels; ++I)
    for (std::uint32_t J = I; J < panels; ++J) tiles_.emplace_back(I, J);
  V_.resize(kGramRows * (std::size_t{K} + 1));
}

void GramAccumulator::Add(const float* Z, std::size_t R, const double* Y, const double* w,
                          RidgeStats* st) {
  const std::size_t K1 = std::size_t{K_} + 1;
  // V = [w y, w], and the sums that stay in row order: n and ysum.
  for (std::size_t r = 0; r < R; ++r) {
    const double wr = w ? w[r] : 1.0;
    for (std::uint32_t k = 0; k < K_; ++k) {
      V_[r * K1 + k] = wr * Y[r * K_ + k];
      st->ysum[k] += V_[r * K1 + k];
    }
    V_[r * K1 + K_] = wr;
    st->n += wr;
  }
  const float* Zs = Z;
  if (w) {  // the rows of G scaled by sqrt(w): one float product per element, on fixed rows
    Zs_.resize(R * D_);
    Parallel(threads_, [&](unsigned t) {
      for (std::size_t r = t; r < R; r += threads_) {
        const auto s = static_cast<float>(std::sqrt(w[r]));
        for (std::size_t j = 0; j < D_; ++j) Zs_[r * D_ + j] = Z[r * D_ + j] * s;
      }
    });
    Zs = Zs_.data();
  }
  std::atomic<std::size_t> next{0};
  Parallel(threads_, [&](unsigned t) {
    for (std::size_t job; (job = next.fetch_add(1)) < tiles_.size();) Tile(job, Zs, Z, R, V_.data(), t, st);
  });
}

// One tile (I, J) of G for this block: SSYRK or SGEMM into a float tile, added into G; the
// diagonal tile's job also adds its panel's rows of Z'V (h and s) in double.
void GramAccumulator::Tile(std::size_t job, const float* Zs, const float* Z, std::size_t R,
                           const double* V, unsigned t, RidgeStats* st) {
  const auto [I, J] = tiles_[job];
  const std::size_t i0 = std::size_t{I} * kGramTile, j0 = std::size_t{J} * kGramTile;
  const std::size_t ni = std::min<std::size_t>(kGramTile, D_ - i0), nj = std::min<std::size_t>(kGramTile, D_ - j0);
  std::vector<float>& C = C_[t];
  C.resize(std::size_t{kGramTile} * kGramTile);
  const std::size_t D = D_, ldc = kGramTile;
  if (I == J) {
    cblas_ssyrk(CblasRowMajor, CblasUpper, CblasTrans, Int(ni), Int(R), 1.0f, Zs + i0, Int(D), 0.0f,
                C.data(), Int(ldc));
  } else {
    cblas_sgemm(CblasRowMajor, CblasTrans, CblasNoTrans, Int(ni), Int(nj), Int(R), 1.0f, Zs + i0, Int(D),
                Zs + j0, Int(D), 0.0f, C.data(), Int(ldc));
  }
  for (std::size_t i = 0; i < ni; ++i) {
    double* g = st->G.data() + (i0 + i) * D + j0;
    const float* c = C.data() + i * ldc;
    for (std::size_t j = I == J ? i : 0; j < nj; ++j) g[j] += c[j];
  }
  if (I != J) return;
  // h and s of this panel: Z[:, panel]' V in double, kPanelRows rows per DGEMM (beta = 1 after the
  // first: a fixed sequence of calls).
  const std::size_t K1 = std::size_t{K_} + 1;
  std::vector<double>& Zd = Zd_[t];
  std::vector<double>& H = H_[t];
  Zd.resize(kPanelRows * ni);
  H.assign(ni * K1, 0.0);
  for (std::size_t r0 = 0; r0 < R; r0 += kPanelRows) {
    const std::size_t rn = std::min(kPanelRows, R - r0);
    for (std::size_t r = 0; r < rn; ++r)
      for (std::size_t i = 0; i < ni; ++i) Zd[r * ni + i] = Z[(r0 + r) * D + i0 + i];
    cblas_dgemm(CblasRowMajor, CblasTrans, CblasNoTrans, Int(ni), Int(K1), Int(rn), 1.0, Zd.data(), Int(ni),
                V + r0 * K1, Int(K1), r0 == 0 ? 0.0 : 1.0, H.data(), Int(K1));
  }
  for (std::size_t i = 0; i < ni; ++i) {
    for (std::uint32_t k = 0; k < K_; ++k) st->h[(i0 + i) * K_ + k] += H[i * K1 + k];
    st->s[i0 + i] += H[i * K1 + K_];
  }
}

void HeadOutputs(const float* Z, std::size_t R, std::uint32_t D, const std::vector<double>& Wcat,
                 const std::vector<double>& bias, unsigned threads, double* out) {
  const BlasOneThread one_thread;
  const std::size_t LK = bias.size(), chunks = (R + kHeadRows - 1) / kHeadRows;
  threads = std::max(1u, std::min<unsigned>(threads, static_cast<unsigned>(chunks)));
  Parallel(threads, [&](unsigned t) {
    std::vector<double> Zd(kHeadRows * D);
    for (std::size_t c = t; c < chunks; c += threads) {
      const std::size_t r0 = c * kHeadRows, rn = std::min(kHeadRows, R - r0);
      for (std::size_t i = 0; i < rn * D; ++i) Zd[i] = Z[r0 * D + i];
      double* o = out + r0 * LK;
      for (std::size_t r = 0; r < rn; ++r) std::copy(bias.begin(), bias.end(), o + r * LK);
      cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, Int(rn), Int(LK), Int(D), 1.0, Zd.data(), Int(D),
                  Wcat.data(), Int(LK), 1.0, o, Int(LK));
    }
  });
}

}  // namespace rfk::host

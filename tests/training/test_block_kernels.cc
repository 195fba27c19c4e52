// The host training kernels must produce, bit for bit, what the plain loops produce: the device
// core's reference kernels where they do not fuse multiply-adds, the same loops with one fma per
// term where they do (HostFused), whatever the tiling, the vector width or the thread count.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <tuple>
#include <cstring>
#include <vector>

#include "maps/block_kernels.h"
#include "host_path.h"
#include "training/solver.h"
#include "rfk/kernels.hpp"

namespace {
std::vector<float> Wave(std::size_t n, double f) {
  std::vector<float> v(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = static_cast<float>(3.0 * std::sin(f * double(i) + 0.1));
  return v;
}
}  // namespace

TEST_CASE("ProjectDense: each path against in-order dot products, bit for bit") {
  using rfk::host::KernelPath;
  const bool fused_here = rfk::host::HostFused();
  int ran_fused = 0;
  // Sizes that exercise full register tiles and every kind of remainder: of rows, of columns, and
  // of the blocks of Wt the fused kernels pack (d > 256 spans several at any depth up to 256).
  for (auto [R, d, F] : {std::tuple<std::size_t, std::uint32_t, std::uint32_t>{13, 37, 70}, {8, 5, 128}, {1, 1, 1},
                         {9, 300, 200}, {4, 257, 64}, {6, 0, 70}}) {
    const auto X = Wave(R * d, 0.37), W = Wave(std::size_t{F} * d, 1.13);  // W: F x d
    std::vector<float> Wt(W.size());
    for (std::uint32_t j = 0; j < F; ++j)
      for (std::uint32_t c = 0; c < d; ++c) Wt[std::size_t{c} * F + j] = W[std::size_t{j} * d + c];
    for (KernelPath path : {KernelPath::kSeparate, KernelPath::kAvx2, KernelPath::kAvx512}) {
      const rfk_test::HostPathScope on(path);
      if (!on.ok()) continue;
      const bool fused = path != KernelPath::kSeparate;
      REQUIRE(rfk::host::HostFused() == fused);
      std::vector<float> args(R * F);
      rfk::host::ProjectDense(X.data(), R, d, Wt.data(), F, args.data());
      for (std::size_t r = 0; r < R; ++r)
        for (std::uint32_t j = 0; j < F; ++j) {
          float ref = 0.0f;
          for (std::uint32_t c = 0; c < d; ++c) {
            const float w = W[std::size_t{j} * d + c], x = X[r * d + c];
            ref = fused ? std::fma(w, x, ref) : ref + w * x;
          }
          REQUIRE(std::memcmp(&ref, &args[r * F + j], sizeof ref) == 0);
        }
      ran_fused += fused;
      if (fused) continue;
      // Unfused, the projection is the device core's: its phase-form kernel with b = 0 and scale
      // 1 is cos(dot), the cosine of these sums.
      for (std::size_t r = 0; r < R; ++r) {
        std::vector<float> zc(F), zh(F), zero(F, 0.0f);
        rfk::FourierPhaseRef(W.data(), zero.data(), X.data() + r * d, F, d, 1.0f, zc.data());
        for (std::uint32_t j = 0; j < F; ++j) zh[j] = rfk::CosRef(args[r * F + j] + 0.0f);
        CHECK(std::memcmp(zc.data(), zh.data(), F * sizeof(float)) == 0);
      }
    }
  }
  // A CPU that fuses runs at least the AVX2 kernel on the three shapes; one that does not, neither.
  CHECK((ran_fused >= 3) == fused_here);
  CHECK(rfk::host::HostFused() == fused_here);  // the scopes restored the CPU's choice
}

TEST_CASE("ProjectDense: fused sums stay within the in-order summation bound of the device's") {
  // The contract block_kernels.h states: |fused - unfused| <= 2 d u sum_c |x_c w_c|.
  using rfk::host::KernelPath;
  const std::size_t R = 9;
  const std::uint32_t d = 784, F = 130;
  const auto X = Wave(R * d, 0.91), Wt = Wave(std::size_t{d} * F, 0.43);
  std::vector<float> fused(R * F), separate(R * F);
  {
    const rfk_test::HostPathScope on(KernelPath::kAvx2);
    if (!on.ok()) return;
    rfk::host::ProjectDense(X.data(), R, d, Wt.data(), F, fused.data());
  }
  {
    const rfk_test::HostPathScope on(KernelPath::kSeparate);
    REQUIRE(on.ok());
    rfk::host::ProjectDense(X.data(), R, d, Wt.data(), F, separate.data());
  }
  int differ = 0;
  for (std::size_t r = 0; r < R; ++r)
    for (std::uint32_t j = 0; j < F; ++j) {
      double mag = 0;
      for (std::uint32_t c = 0; c < d; ++c) mag += std::fabs(double(X[r * d + c]) * double(Wt[std::size_t{c} * F + j]));
      const double bound = 2.0 * d * std::ldexp(1.0, -24) * mag;
      CHECK(std::fabs(double(fused[r * F + j]) - double(separate[r * F + j])) <= bound);
      differ += fused[r * F + j] != separate[r * F + j];
    }
  CHECK(differ > 0);  // the paths are distinct: some sums round differently
}

TEST_CASE("ProjectSparse equals ProjectDense on the same row with its zeros, on every path") {
  const std::uint32_t d = 40, F = 67;
  const auto W = Wave(std::size_t{d} * F, 0.71);  // already d x F (transposed)
  std::vector<float> x(d, 0.0f);
  std::vector<std::uint32_t> cols = {0, 3, 17, 39};
  std::vector<float> vals = {1.5f, -2.25f, 0.125f, 7.0f};
  for (std::size_t t = 0; t < cols.size(); ++t) x[cols[t]] = vals[t];
  for (auto path : {rfk::host::KernelPath::kSeparate, rfk::host::KernelPath::kAvx2, rfk::host::KernelPath::kAvx512}) {
    const rfk_test::HostPathScope on(path);
    if (!on.ok()) continue;
    std::vector<float> dense(F), sparse(F);
    rfk::host::ProjectDense(x.data(), 1, d, W.data(), F, dense.data());
    rfk::host::ProjectSparse(cols.data(), vals.data(), cols.size(), W.data(), F, sparse.data());
    for (std::uint32_t j = 0; j < F; ++j) CHECK(dense[j] == sparse[j]);
  }
}

TEST_CASE("CholeskyUpper: the textbook algorithm's bits for any thread count, and it solves") {
  // Sizes around the panel (96), row-block (64) and tile (4 x 32) edges.
  for (std::size_t n : {1u, 5u, 33u, 97u, 203u}) {
    std::vector<double> X(n * (n + 7));
    for (std::size_t i = 0; i < X.size(); ++i) X[i] = std::sin(0.37 * double(i) + 0.2);
    std::vector<double> A(n * n, 0.0);  // X'X / rows + 0.01 I: positive definite
    const std::size_t rows = n + 7;
    for (std::size_t r = 0; r < rows; ++r)
      for (std::size_t i = 0; i < n; ++i)
        for (std::size_t j = 0; j < n; ++j) A[i * n + j] += X[r * n + i] * X[r * n + j] / double(rows);
    for (std::size_t i = 0; i < n; ++i) A[i * n + i] += 0.01;
    // Reference: right-looking, one rank-1 update at a time, plain loops; each update one fma
    // where the kernels fuse (HostFused), else a rounded product and a rounded difference.
    const bool fused = rfk::host::HostFused();
    std::vector<double> ref = A;
    for (std::size_t q = 0; q < n; ++q) {
      ref[q * n + q] = std::sqrt(ref[q * n + q]);
      for (std::size_t j = q + 1; j < n; ++j) ref[q * n + j] /= ref[q * n + q];
      for (std::size_t i = q + 1; i < n; ++i)
        for (std::size_t j = i; j < n; ++j) {
          double& e = ref[i * n + j];
          e = fused ? std::fma(-ref[q * n + i], ref[q * n + j], e) : e - ref[q * n + i] * ref[q * n + j];
        }
    }
    for (unsigned threads : {1u, 3u}) {
      std::vector<double> U = A;
      REQUIRE(rfk::host::CholeskyUpper(U.data(), n, threads));
      for (std::size_t i = 0; i < n; ++i)
        for (std::size_t j = i; j < n; ++j) REQUIRE(std::memcmp(&U[i * n + j], &ref[i * n + j], sizeof(double)) == 0);
      std::vector<double> b(n), x(n);
      for (std::size_t i = 0; i < n; ++i) b[i] = x[i] = std::cos(double(i));
      rfk::host::CholeskySolve(U.data(), n, x.data());
      for (std::size_t i = 0; i < n; ++i) {
        double Ax = 0;
        for (std::size_t j = 0; j < n; ++j) Ax += A[std::min(i, j) * n + std::max(i, j)] * x[j];
        CHECK(Ax == doctest::Approx(b[i]).epsilon(1e-8));
      }
    }
  }
  std::vector<double> indefinite = {1.0, 2.0, 2.0, 1.0};
  CHECK_FALSE(rfk::host::CholeskyUpper(indefinite.data(), 2, 1));
}

TEST_CASE("CholUpdateTile: each kernel against plain loops, full tiles and edges") {
  using rfk::host::KernelPath;
  const std::size_t n = 80, R = 37, lda = n, ldt = R;
  std::vector<double> P(R * n), Pt(n * R), A0(n * n);
  for (std::size_t i = 0; i < P.size(); ++i) P[i] = std::sin(0.71 * double(i) + 0.3);
  for (std::size_t i = 0; i < Pt.size(); ++i) Pt[i] = std::cos(0.53 * double(i) + 0.1);
  for (std::size_t i = 0; i < A0.size(); ++i) A0[i] = std::sin(1.3 * double(i));
  const bool fused_here = rfk::host::HostFused();
  int ran_fused = 0;
  for (KernelPath path : {KernelPath::kSeparate, KernelPath::kAvx2, KernelPath::kAvx512}) {
    const bool fused = path != KernelPath::kSeparate;
    // (i0, in, j0, jn): a full 4 x 32 tile, then partial rows and partial columns.
    for (auto [i0, in, j0, jn] : {std::tuple<std::size_t, std::size_t, std::size_t, std::size_t>{4, 4, 8, 32},
                                   {9, 3, 40, 32}, {12, 4, 50, 17}, {0, 1, 79, 1}}) {
      std::vector<double> A = A0, ref = A0;
      const rfk_test::HostPathScope on(path);
      if (!on.ok()) continue;
      rfk::host::CholUpdateTile(Pt.data(), ldt, P.data(), n, R, i0, in, j0, jn, A.data(), lda);
      for (std::size_t q = 0; q < in; ++q)
        for (std::size_t j = j0; j < j0 + jn; ++j) {
          double& e = ref[(i0 + q) * lda + j];
          for (std::size_t r = 0; r < R; ++r) {
            const double a = Pt[q * ldt + r], z = P[r * n + j];
            e = fused ? std::fma(-a, z, e) : e - a * z;
          }
        }
      REQUIRE(std::memcmp(A.data(), ref.data(), A.size() * sizeof(double)) == 0);
      ran_fused += fused;
    }
  }
  // A CPU that fuses runs at least the AVX2 kernel's four tiles; one that does not runs neither.
  CHECK((ran_fused >= 4) == fused_here);
}

TEST_CASE("FourierFeatures: SinCosRef's bits for every argument, pairs and phase form") {
  // Arguments across the fast range and beyond it, with the edge cases of the reduction.
  std::vector<float> a;
  std::uint32_t u = 12345;
  for (int i = 0; i < 20000; ++i) {
    u = u * 1664525u + 1013904223u;
    const float unit = static_cast<float>(u >> 8) * 0x1p-24f * 2.0f - 1.0f;  // [-1, 1)
    const float scales[] = {1.0f, 3.14159265f, 50.0f, 3000.0f, 101999.0f};
    a.push_back(unit * scales[i % 5]);
  }
  const float specials[] = {0.0f, -0.0f, 0x1p-149f, 0.78539816f, -0.78539816f, 1.57079633f, 3.14159265f,
                            rfk::kSinCosFastRange, -rfk::kSinCosFastRange, std::nextafter(rfk::kSinCosFastRange, 1e9f)};
  for (float v : specials) a.push_back(v);
  const std::size_t fast = a.size();  // everything so far is within the fast range but the last
  for (float v : {2e5f, -7.5e8f, 2e9f, std::numeric_limits<float>::infinity(), std::nanf("")}) a.push_back(v);
  std::vector<float> phase(a.size());
  for (std::size_t j = 0; j < a.size(); ++j) phase[j] = 0.25f * static_cast<float>(j % 25);
  const float scale = 0.0223606798f;
  // F = a.size() (a ragged last group), and a prefix that ends inside the fast groups.
  for (std::size_t F : {a.size(), fast - 11}) {
    const auto Fu = static_cast<std::uint32_t>(F);
    std::vector<float> pairs(2 * F), phased(F);
    rfk::host::FourierFeatures(a.data(), nullptr, Fu, scale, pairs.data());
    rfk::host::FourierFeatures(a.data(), phase.data(), Fu, scale, phased.data());
    for (std::size_t j = 0; j < F; ++j) {
      float s, c;
      rfk::SinCosRef(a[j], &s, &c);
      const float want[2] = {scale * c, scale * s};
      REQUIRE(std::memcmp(&pairs[j], &want[0], sizeof(float)) == 0);
      REQUIRE(std::memcmp(&pairs[F + j], &want[1], sizeof(float)) == 0);
      const float want_phase = scale * rfk::CosRef(a[j] + phase[j]);
      REQUIRE(std::memcmp(&phased[j], &want_phase, sizeof(float)) == 0);
    }
  }
}

TEST_CASE("CholeskySolveMany: CholeskySolve's bits for every column") {
  const std::size_t n = 150, K = 7;
  std::vector<double> A(n * n, 0.0);
  for (std::size_t r = 0; r < n + 9; ++r)
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t j = i; j < n; ++j) A[i * n + j] += std::sin(0.3 * double(r * n + i)) * std::sin(0.3 * double(r * n + j));
  for (std::size_t i = 0; i < n; ++i) A[i * n + i] += 0.1;
  REQUIRE(rfk::host::CholeskyUpper(A.data(), n, 2));
  std::vector<double> B(n * K);
  for (std::size_t i = 0; i < B.size(); ++i) B[i] = std::cos(0.7 * double(i));
  std::vector<double> many = B;
  rfk::host::CholeskySolveMany(A.data(), n, many.data(), K);
  for (std::size_t k = 0; k < K; ++k) {
    std::vector<double> col(n);
    for (std::size_t i = 0; i < n; ++i) col[i] = B[i * K + k];
    rfk::host::CholeskySolve(A.data(), n, col.data());
    for (std::size_t i = 0; i < n; ++i) REQUIRE(std::memcmp(&col[i], &many[i * K + k], sizeof(double)) == 0);
  }
}

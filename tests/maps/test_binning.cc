// Random binning features (Rahimi & Recht 2007, Algorithm 2): the kernel approximation law, the
// model sections, both storage modes, the hybrid map, and allocation-free prediction.
#include <doctest/doctest.h>

#include <cmath>
#include <cstring>
#include <vector>

#include "maps/random.h"
#include "rfk/host/train.hpp"
#include "rfk/model.hpp"
#include "test_util.h"

namespace {

namespace f = rfk::format;
using rfk::Status;
using rfk_test::Blob;

// A 2-D checkerboard on [0, 4)^2 (16 cells, 2 classes): local structure that random bins capture
// (binning reaches ~96% here, Fourier features with D = 64 ~90%), deterministic.
rfk::host::Dataset Checker(std::size_t n, std::uint64_t seed) {
  rfk::host::Dataset ds;
  ds.source = "checker";
  ds.rows = n;
  ds.cols = 2;
  rfk::host::RandomStream rs(seed, 0);
  for (std::size_t i = 0; i < n; ++i) {
    int parity = 0;
    for (int c = 0; c < 2; ++c) {
      const double v = 4.0 * rs.Uniform();
      ds.dense.push_back(static_cast<float>(v));
      parity += static_cast<int>(v);
    }
    ds.labels.push_back(parity % 2 ? "odd" : "even");
    ds.lines.push_back(i + 1);
  }
  return ds;
}

rfk::host::TrainOptions BinOptions(std::uint32_t buckets = 0) {
  rfk::host::TrainOptions o;
  o.fourier = false;
  o.grids = 40;
  o.buckets = buckets;
  o.bin_gamma = 3.0;
  o.lambda = 1e-5;
  o.standardize = 0;
  o.seed = 5;
  return o;
}

double Accuracy(const std::vector<std::uint8_t>& bytes, const rfk::host::Dataset& test) {
  Blob b(bytes);
  rfk::Model m;
  REQUIRE(b.Open(&m) == Status::kOk);
  rfk::host::AlignedBytes scratch(rfk::ScratchBytes(m));
  std::size_t ok = 0;
  for (std::size_t i = 0; i < test.rows; ++i) {
    float out[4];
    REQUIRE(rfk::Predict(m, &test.dense[i * test.cols], test.cols, scratch.data(), scratch.size(), out, 4) == Status::kOk);
    ok += test.labels[i] == rfk::ClassLabel(m, rfk::DecideClass(m, out));
  }
  return double(ok) / double(test.rows);
}

}  // namespace

TEST_CASE("binning: shared-bin fraction approximates exp(-gamma |x-y|_1), error ~ 1/sqrt(P)") {
  const std::uint32_t d = 5;
  const double gamma = 0.7;
  rfk::host::RandomStream rs(77, 3);
  std::vector<std::vector<float>> xs, ys;
  for (int p = 0; p < 48; ++p) {
    std::vector<float> x(d), y(d);
    const double spread = 0.15 * (p % 8 + 1);
    for (std::uint32_t i = 0; i < d; ++i) {
      x[i] = static_cast<float>(rs.Normal());
      y[i] = static_cast<float>(x[i] + spread * rs.Normal());
    }
    xs.push_back(x);
    ys.push_back(y);
  }
  // The model's own bins: train a tiny hashed-mode model only to obtain its grids.
  rfk::host::Dataset ds;
  ds.source = "grids";
  ds.rows = 4;
  ds.cols = d;
  ds.dense.assign(4 * d, 0.0f);
  for (int i = 0; i < 4; ++i) {
    ds.dense[i * d] = float(i);
    ds.labels.push_back(std::to_string(i % 2));
    ds.lines.push_back(i + 1);
  }
  const std::uint32_t Ps[] = {16, 64, 256, 1024};
  std::vector<double> errs;
  for (std::uint32_t P : Ps) {
    double total = 0;
    const int seeds = 12;
    for (int seed = 1; seed <= seeds; ++seed) {
      auto o = BinOptions(1);
      o.grids = P;
      o.bin_gamma = gamma;
      o.seed = static_cast<std::uint64_t>(seed);
      const auto bytes = rfk::host::Train(ds, o).model;
      Blob b(bytes);
      rfk::Model m;
      REQUIRE(b.Open(&m) == Status::kOk);
      rfk::host::AlignedBytes scratch(rfk::ScratchBytes(m));
      std::vector<std::uint64_t> kx(P), ky(P);
      std::vector<std::uint32_t> cx(P), cy(P);
      for (std::size_t q = 0; q < xs.size(); ++q) {
        REQUIRE(rfk::ComputeBins(m, xs[q].data(), d, scratch.data(), scratch.size(), kx.data(), cx.data(), P) == Status::kOk);
        REQUIRE(rfk::ComputeBins(m, ys[q].data(), d, scratch.data(), scratch.size(), ky.data(), cy.data(), P) == Status::kOk);
        double shared = 0, l1 = 0;
        for (std::uint32_t p = 0; p < P; ++p) shared += kx[p] == ky[p];
        for (std::uint32_t i = 0; i < d; ++i) l1 += std::fabs(double(xs[q][i]) - ys[q][i]);
        total += std::fabs(shared / P - std::exp(-gamma * l1));
      }
    }
    errs.push_back(total / (seeds * xs.size()));
  }
  double sx = 0, sy = 0, sxx = 0, sxy = 0;
  for (std::size_t i = 0; i < errs.size(); ++i) {
    const double lx = std::log(double(Ps[i])), ly = std::log(errs[i]);
    sx += lx; sy += ly; sxx += lx * lx; sxy += lx * ly;
  }
  const double slope = (4 * sxy - sx * sy) / (4 * sxx - sx * sx);
  CAPTURE(errs[0]);
  CAPTURE(errs[3]);
  CHECK(slope == doctest::Approx(-0.5).epsilon(0.3));
  CHECK(errs[3] < 0.25 * errs[0]);
}

TEST_CASE("binning: both modes learn, round-trip and predict the training rows' bins") {
  const auto train = Checker(1500, 1), test = Checker(500, 2);
  for (std::uint32_t buckets : {0u, 512u}) {
    CAPTURE(buckets);
    const auto res = rfk::host::Train(train, BinOptions(buckets));
    CHECK(Accuracy(res.model, test) > 0.93);
    Blob b(res.model);
    rfk::Model m;
    REQUIRE(b.Open(&m) == Status::kOk);
    CHECK(m.num_grids == 40);
    CHECK(m.fourier_features == 0);
    CHECK(m.bin_mode == (buckets ? f::BinMode::kHashed : f::BinMode::kExact));
    CHECK(m.num_features == m.bin_features);
    CHECK(res.report.occupied_bins.size() == 40);
    CHECK(res.report.cg_residual <= 1e-6);
    // A point far outside the training range falls into no stored bin (exact mode): the
    // prediction is the bias alone, not garbage.
    std::vector<float> far(2, 1e6f);
    rfk::host::AlignedBytes scratch(rfk::ScratchBytes(m));
    std::vector<std::uint64_t> keys(40);
    std::vector<std::uint32_t> cols(40);
    REQUIRE(rfk::ComputeBins(m, far.data(), 2, scratch.data(), scratch.size(), keys.data(), cols.data(), 40) == Status::kOk);
    if (!buckets)
      for (std::uint32_t c : cols) CHECK(c == rfk::kNoColumn);
    float out[1];
    CHECK(rfk::Predict(m, far.data(), 2, scratch.data(), scratch.size(), out, 1) == Status::kOk);
    if (!buckets) CHECK(out[0] == m.head_bias[0]);
  }
}

TEST_CASE("binning: hashed models have a size fixed by P, B and K, whatever the data") {
  const auto a = rfk::host::Train(Checker(300, 3), BinOptions(256)).model;
  const auto b = rfk::host::Train(Checker(2000, 4), BinOptions(256)).model;
  // The metadata records the training row count, so compare sizes without it.
  Blob ba(a), bb(b);
  const auto md = [](Blob& blob) {
    rfk::Model m;
    REQUIRE(blob.Open(&m) == Status::kOk);
    return m.metadata_bytes;
  };
  CHECK(a.size() - md(ba) / 16 * 16 == b.size() - md(bb) / 16 * 16);
  rfk::Model m;
  REQUIRE(ba.Open(&m) == Status::kOk);
  CHECK(m.bin_features == 40u * 256u);
  const auto exact_small = rfk::host::Train(Checker(300, 3), BinOptions(0)).model;
  const auto exact_large = rfk::host::Train(Checker(2000, 4), BinOptions(0)).model;
  CHECK(exact_small.size() < exact_large.size());  // exact mode grows with the bins seen
}

TEST_CASE("binning: models are byte-identical for any thread count") {
  const auto data = Checker(800, 6);
  auto o = BinOptions(0);
  o.threads = 1;
  const auto one = rfk::host::Train(data, o).model;
  o.threads = 3;
  CHECK(rfk::host::Train(data, o).model == one);
  o.buckets = 128;
  o.threads = 1;
  const auto h1 = rfk::host::Train(data, o).model;
  o.threads = 2;
  CHECK(rfk::host::Train(data, o).model == h1);
}

TEST_CASE("fourier+binning: one head over both maps learns and exposes both feature blocks") {
  const auto train = Checker(1500, 7), test = Checker(500, 8);
  auto o = BinOptions(0);
  o.fourier = true;
  o.features = 64;
  o.gamma = 0.5;
  const auto res = rfk::host::Train(train, o);
  Blob b(res.model);
  rfk::Model m;
  REQUIRE(b.Open(&m) == Status::kOk);
  CHECK(m.fourier_features == 64);
  CHECK(m.num_grids == 40);
  CHECK(m.num_features == 64 + m.bin_features);
  CHECK(Accuracy(res.model, test) > 0.93);
  // ComputeFeatures gives the whole vector: Fourier part then exactly P occupied bins or fewer.
  rfk::host::AlignedBytes scratch(rfk::ScratchBytes(m));
  std::vector<float> z(m.num_features);
  REQUIRE(rfk::ComputeFeatures(m, &test.dense[0], 2, scratch.data(), scratch.size(), z.data(), z.size()) == Status::kOk);
  int occupied = 0;
  for (std::uint32_t j = 64; j < m.num_features; ++j) occupied += z[j] != 0.0f;
  CHECK(occupied <= 40);
  CHECK(occupied >= 30);
}

TEST_CASE("binning sections: corruption is caught at open") {
  const auto bytes = rfk::host::Train(Checker(300, 9), BinOptions(0)).model;
  rfk::ModelError err;
  SUBCASE("keys out of order") {
    Blob b(bytes);
    const std::size_t e = b.Entry(f::SectionType::kBinKeys);
    const std::uint32_t off = b.U32(e + 4);
    const std::uint32_t starts = (41 * 4 + 7) / 8 * 8;
    std::uint64_t k0, k1;
    std::memcpy(&k0, b.data() + off + starts, 8);
    std::memcpy(&k1, b.data() + off + starts + 8, 8);
    std::memcpy(b.data() + off + starts, &k1, 8);
    std::memcpy(b.data() + off + starts + 8, &k0, 8);
    b.FixCrc();
    CHECK(b.Open(nullptr, &err) == Status::kBadValue);
    CHECK(std::string(err.field) == "bin_keys.keys");
  }
  SUBCASE("grid starts past the key count") {
    Blob b(bytes);
    const std::uint32_t off = b.U32(b.Entry(f::SectionType::kBinKeys) + 4);
    b.SetU32(off + 4, 0xFFFFFFu);
    b.FixCrc();
    CHECK(b.Open(nullptr, &err) == Status::kBadValue);
    CHECK(std::string(err.field) == "bin_keys.grid_start");
  }
  SUBCASE("grids section of the wrong size") {
    Blob b(bytes);
    const std::uint32_t off = b.U32(b.Entry(f::SectionType::kBinningParams) + 4);
    b.SetU32(off + f::binning_params::kNumGrids, 41);
    b.FixCrc();
    CHECK(b.Open(nullptr, &err) == Status::kBadSectionSize);
    CHECK(std::string(err.field) == "bin_grids.size");
  }
  SUBCASE("hashed mode with a key table, exact mode without one") {
    Blob b(bytes);
    const std::uint32_t off = b.U32(b.Entry(f::SectionType::kBinningParams) + 4);
    b.SetU32(off + f::binning_params::kMode, static_cast<std::uint32_t>(f::BinMode::kHashed));
    b.FixCrc();
    CHECK(b.Open() == Status::kBadValue);
    Blob c(bytes);
    c.SetU16(c.Entry(f::SectionType::kBinKeys), 300);  // now unknown, and required: refused
    c.FixCrc();
    CHECK(c.Open() == Status::kUnknownRequiredSection);
    c.SetU16(c.Entry(static_cast<f::SectionType>(300)) + 2, 0);
    c.FixCrc();
    CHECK(c.Open(nullptr, &err) == Status::kMissingSection);
    CHECK(std::string(err.field) == "bin_keys");
  }
  SUBCASE("a binning kernel other than the Laplacian") {
    Blob b(bytes);
    const std::uint32_t off = b.U32(b.Entry(f::SectionType::kBinningParams) + 4);
    b.SetU32(off + f::binning_params::kKernel, 1);
    b.FixCrc();
    CHECK(b.Open() == Status::kBadValue);
  }
}

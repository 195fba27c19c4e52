// Fastfood (lib/host/maps/fastfood_map.cc, the core's FastfoodFeatures, format section `fastfood`):
// the map is the linear map S H G Pi H B it claims to be (checked against an explicit matrix in
// double), its rows have a Gaussian row's norms, it approximates the Gaussian kernel, a (54, 1024)
// binary model fits in 10 KB, every kernel table computes its features, and each field of the
// section, corrupted, gives its own status, field and offset.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "maps/fourier_map.h"
#include "maps/random.h"
#include "rfk/host/train.hpp"
#include "rfk/kernels.hpp"
#include "rfk/model.hpp"
#include "normal_rows.h"
#include "test_util.h"

namespace f = rfk::format;
using rfk::Status;

namespace {

rfk::host::ModelSpec Spec(f::MapKind map, std::uint32_t D, std::uint32_t d, double gamma, std::uint64_t seed) {
  rfk::host::ModelSpec spec = rfk::host::RandomFeatureSpec(f::Kernel::kGaussian, map, D, d, gamma, seed);
  spec.input_dim = d;
  return spec;
}

// The effective frequency matrix of a Fastfood model (F x d, double): V e_c for each input c,
// from the stored arrays and the definition V = S H G Pi H B, in double.
std::vector<double> EffectiveW(const rfk::Model& m) {
  const rfk::FastfoodArrays& a = m.fastfood;
  const std::uint32_t dp = a.dp, d = m.input_dim, F = m.num_frequencies;
  auto fwht = [dp](std::vector<double>& v) {
    for (std::uint32_t h = 1; h < dp; h *= 2)
      for (std::uint32_t i = 0; i < dp; i += 2 * h)
        for (std::uint32_t j = i; j < i + h; ++j) {
          const double x = v[j], y = v[j + h];
          v[j] = x + y;
          v[j + h] = x - y;
        }
  };
  std::vector<double> W(std::size_t{F} * d);
  for (std::uint32_t j0 = 0; j0 < F; j0 += dp)
    for (std::uint32_t c = 0; c < d; ++c) {
      std::vector<double> t(dp, 0.0), u(dp);
      const std::uint32_t k = j0 + c;
      t[c] = (a.signs[k / 8] >> (k % 8)) & 1u ? -1.0 : 1.0;
      fwht(t);
      for (std::uint32_t i = 0; i < dp; ++i) u[i] = rfk::WeightAt(rfk::FastfoodDiagonal(a, a.G), j0 + i, j0 / dp) * t[rfk::FastfoodIndex(a, j0 + i)];
      fwht(u);
      for (std::uint32_t i = 0; i < dp && j0 + i < F; ++i) W[std::size_t{j0 + i} * d + c] = rfk::WeightAt(rfk::FastfoodDiagonal(a, a.S), j0 + i, j0 / dp) * u[i];
    }
  return W;
}

}  // namespace

TEST_CASE("fastfood: the features are cos/sin of V x for V = S H G Pi H B, and V's rows are Gaussian rows") {
  for (f::MapKind map : {f::MapKind::kFastfood, f::MapKind::kFastfoodPhase}) {
    const std::uint32_t d = 11, D = 200;  // d' = 16: padded; F = 100 or 200: the last block truncated
    const double gamma = 0.25;
    const auto spec = Spec(map, D, d, gamma, 3);
    rfk_test::Blob blob(rfk::host::SerializeModel(spec));
    rfk::Model m;
    REQUIRE(blob.Open(&m) == Status::kOk);
    CHECK(m.projection == nullptr);
    REQUIRE(m.fastfood.dp == 16);
    const std::uint32_t F = m.num_frequencies;
    const std::vector<double> W = EffectiveW(m);
    rfk::host::AlignedBytes scratch(rfk::ScratchBytes(m));
    std::vector<float> x(d), z(D);
    rfk::host::RandomStream rs(8, 1);
    for (float& v : x) v = static_cast<float>(rs.Normal());
    REQUIRE(rfk::ComputeFeatures(m, x.data(), d, scratch.data(), scratch.size(), z.data(), D) == Status::kOk);
    double worst = 0, norm2 = 0;
    for (std::uint32_t j = 0; j < F; ++j) {
      double a = 0;
      for (std::uint32_t c = 0; c < d; ++c) {
        a += W[std::size_t{j} * d + c] * x[c];
        norm2 += W[std::size_t{j} * d + c] * W[std::size_t{j} * d + c] / F;
      }
      if (m.phase) a += m.phase[j];
      worst = std::max(worst, std::fabs(m.feature_scale * std::cos(a) - z[j]));
      if (!m.phase) worst = std::max(worst, std::fabs(m.feature_scale * std::sin(a) - z[F + j]));
    }
    CAPTURE(rfk::host::MapName(map));
    CHECK(worst < 1e-5);
    // A row of W for this kernel is N(0, 2 gamma I_d): |row|^2 averages 2 gamma d.
    CHECK(norm2 == doctest::Approx(2 * gamma * d).epsilon(0.15));
  }
}

TEST_CASE("fastfood: kernel error at equal D within 3x of dense pairs, and below them at equal bytes") {
  const std::uint32_t d = 16;
  const double gamma = 0.5 / d;
  rfk::host::RandomStream rs(12, 2);
  std::vector<std::vector<float>> xs(40, std::vector<float>(d));
  for (auto& x : xs)
    for (float& v : x) v = static_cast<float>(rs.Normal());
  auto mse = [&](f::MapKind map, std::uint32_t D, std::size_t* bytes) {
    double total = 0;
    int count = 0;
    for (std::uint64_t seed = 1; seed <= 8; ++seed) {
      const auto blob_bytes = rfk::host::SerializeModel(Spec(map, D, d, gamma, seed));
      *bytes = blob_bytes.size();
      rfk_test::Blob blob(blob_bytes);
      rfk::Model m;
      REQUIRE(blob.Open(&m) == Status::kOk);
      rfk::host::AlignedBytes scratch(rfk::ScratchBytes(m));
      std::vector<std::vector<float>> Z(xs.size(), std::vector<float>(D));
      for (std::size_t i = 0; i < xs.size(); ++i)
        REQUIRE(rfk::ComputeFeatures(m, xs[i].data(), d, scratch.data(), scratch.size(), Z[i].data(), D) == Status::kOk);
      for (std::size_t i = 0; i < xs.size(); ++i)
        for (std::size_t k = i + 1; k < xs.size(); ++k) {
          double dot = 0, l2 = 0;
          for (std::uint32_t j = 0; j < D; ++j) dot += double(Z[i][j]) * Z[k][j];
          for (std::uint32_t c = 0; c < d; ++c) l2 += (double(xs[i][c]) - xs[k][c]) * (double(xs[i][c]) - xs[k][c]);
          total += (dot - std::exp(-gamma * l2)) * (dot - std::exp(-gamma * l2));
          ++count;
        }
    }
    return total / count;
  };
  std::size_t dense_bytes = 0, ff_bytes = 0, big_bytes = 0;
  const double dense = mse(f::MapKind::kFourier, 256, &dense_bytes);
  const double ff = mse(f::MapKind::kFastfood, 256, &ff_bytes);
  const double ff_big = mse(f::MapKind::kFastfood, 1024, &big_bytes);
  CAPTURE(dense);
  CAPTURE(ff);
  CAPTURE(ff_big);
  CHECK(ff < 3 * dense);
  CHECK(big_bytes < dense_bytes);  // 4x the features in fewer bytes ...
  CHECK(ff_big < dense);           // ... and a lower error
}

TEST_CASE("fastfood: a (54, 1024) binary model is at most 10 KB") {
  rfk::host::Dataset ds;
  ds.source = "t";
  ds.cols = 54;
  rfk::host::RandomStream rs(4, 4);
  for (int i = 0; i < 300; ++i) {
    for (int c = 0; c < 54; ++c) ds.dense.push_back(static_cast<float>(rs.Normal()));
    ds.labels.push_back(ds.dense[ds.dense.size() - 54] > 0 ? "1" : "2");
    ds.lines.push_back(std::size_t(i) + 1);
    ++ds.rows;
  }
  rfk::host::TrainOptions o;
  o.map = f::MapKind::kFastfood;
  o.features = 1024;
  const rfk::host::TrainResult r = rfk::host::Train(ds, o);
  MESSAGE("(54, 1024) binary fastfood model: " << r.model.size() << " bytes");
  CHECK(r.model.size() <= 10 * 1024);
  CHECK(r.report.train_error < 0.2);
}

TEST_CASE("fastfood: every kernel table computes the features within the cosine kernels' tolerance, and PredictBatch agrees with Predict") {
  const auto spec = Spec(f::MapKind::kFastfood, 600, 37, 0.1, 9);  // d' = 64, 5 blocks, the last 44 rows
  rfk_test::Blob blob(rfk::host::SerializeModel(spec));
  rfk::Model m;
  REQUIRE(blob.Open(&m) == Status::kOk);
  rfk::host::AlignedBytes scratch(rfk::BatchScratchBytes(m));
  std::vector<float> X(5 * 37), want(600), got(600), one(5), batch(5);
  rfk::host::RandomStream rs(1, 1);
  for (float& v : X) v = static_cast<float>(rs.Normal());
  const rfk::KernelTable& active = rfk::ActiveKernels();
  const std::string name = std::string(active.backend) + "-" + active.target;
  REQUIRE(rfk::SelectKernels("scalar"));
  REQUIRE(rfk::ComputeFeatures(m, X.data(), 37, scratch.data(), scratch.size(), want.data(), 600) == Status::kOk);
  for (std::size_t i = 0; i < rfk::KernelTableCount(); ++i) {
    const rfk::KernelTable& t = *rfk::KernelTableAt(i);
    REQUIRE(rfk::SelectKernels((std::string(t.backend) + "-" + t.target).c_str()));
    CAPTURE(t.target);
    REQUIRE(rfk::ComputeFeatures(m, X.data(), 37, scratch.data(), scratch.size(), got.data(), 600) == Status::kOk);
    double worst = 0;  // the transforms are bit-identical; the SIMD cosines agree within 1e-5
    for (std::size_t j = 0; j < want.size(); ++j) worst = std::max(worst, std::fabs(double(got[j]) - want[j]));
    CHECK(worst <= 1e-5);
    if (std::string(t.backend) == "scalar") CHECK(std::memcmp(got.data(), want.data(), want.size() * 4) == 0);
  }
  REQUIRE(rfk::SelectKernels(name.c_str()));
  for (std::size_t i = 0; i < 5; ++i)
    REQUIRE(rfk::Predict(m, X.data() + i * 37, 37, scratch.data(), scratch.size(), one.data() + i, 1) == Status::kOk);
  REQUIRE(rfk::PredictBatch(m, X.data(), 5, X.size(), scratch.data(), scratch.size(), batch.data(), 5) == Status::kOk);
  CHECK(one == batch);
}

namespace {

// The verdict on a Fastfood model after `edit` (the CRC recomputed).
template <class Edit>
rfk::ModelError Corrupted(const std::vector<std::uint8_t>& bytes, Edit edit) {
  rfk_test::Blob b(bytes);
  edit(b, static_cast<std::uint32_t>(b.U32(b.Entry(f::SectionType::kFastfood) + f::entry::kOffset)));
  b.FixCrc();
  rfk::ModelError err;
  (void)b.Open(nullptr, &err);
  return err;
}

}  // namespace

TEST_CASE("fastfood: each corrupted field of the section gives its status, field and offset") {
  namespace ff = f::fastfood;
  const auto bytes = rfk::host::SerializeModel(Spec(f::MapKind::kFastfood, 64, 5, 0.3, 2));  // d' = 8, 4 blocks
  struct Case {
    const char* what;
    std::uint32_t at;  // offset in the section of the field changed
    std::uint32_t value;
    bool byte;  // set one byte, else a u32
    Status status;
    const char* field;
  };
  const Case cases[] = {
      {"padded_dim not d'", ff::kPaddedDim, 16, false, Status::kBadValue, "fastfood.padded_dim"},
      {"num_blocks", ff::kNumBlocks, 5, false, Status::kBadValue, "fastfood.num_blocks"},
      {"index_bits: the u8 layout's 1", ff::kIndexBits, 1, false, Status::kBadValue, "fastfood.index_bits"},
      {"index_bits 8", ff::kIndexBits, 8, false, Status::kBadValue, "fastfood.index_bits"},
  };
  for (const Case& c : cases) {
    const std::string what = c.what;
    CAPTURE(what);
    std::uint32_t section = 0;
    const rfk::ModelError err = Corrupted(bytes, [&](rfk_test::Blob& b, std::uint32_t s) {
      section = s;
      if (c.byte) {
        b.data()[s + c.at] = static_cast<std::uint8_t>(c.value);
      } else {
        b.SetU32(s + c.at, c.value);
      }
    });
    CHECK(err.status == c.status);
    CHECK(std::string(err.field) == c.field);
    CHECK(err.offset == section + c.at);
  }
}

TEST_CASE("fastfood: a bad permutation, a non-finite diagonal, the size and a missing section are refused") {
  namespace ff = f::fastfood;
  const auto bytes = rfk::host::SerializeModel(Spec(f::MapKind::kFastfood, 64, 5, 0.3, 2));  // d' = 8, 4 blocks
  const std::uint32_t N = 32, perm = ff::kHeaderBytes + 8 * N;  // 3-bit indices: 12 bytes
  SUBCASE("a repeated index: the block is no permutation (reported at the byte of the repeat's first bit)") {
    rfk_test::Blob ok(bytes);
    rfk::Model m;
    REQUIRE(ok.Open(&m) == Status::kOk);
    REQUIRE(m.fastfood.index_bits == 3);
    // Block 1's entry 2 (index 10: bits 30..32, across bytes 3 and 4) set to its entry 0's value, and
    // entry 1's (bits 27..29) to entry 0's: the first repeat in block order is then index 9.
    for (std::uint32_t k : {10u, 9u}) {
      std::uint32_t section = 0;
      const rfk::ModelError err = Corrupted(bytes, [&](rfk_test::Blob& b, std::uint32_t s) {
        section = s;
        const std::uint32_t v = rfk::FastfoodIndex(m.fastfood, 8);
        for (std::uint32_t i = 0; i < 3; ++i) {
          const std::uint32_t bit = k * 3 + i;
          std::uint8_t& byte = b.data()[s + perm + bit / 8];
          byte = static_cast<std::uint8_t>((byte & ~(1u << (bit % 8))) | (((v >> i) & 1u) << (bit % 8)));
        }
      });
      CAPTURE(k);
      CHECK(err.status == Status::kBadValue);
      CHECK(std::string(err.field) == "fastfood.perm");
      CHECK(err.offset == section + perm + k * 3 / 8);
    }
  }
  SUBCASE("a non-finite G or S") {
    std::uint32_t section = 0;
    const rfk::ModelError err = Corrupted(bytes, [&](rfk_test::Blob& b, std::uint32_t s) {
      section = s;
      b.SetU32(s + ff::kHeaderBytes + 4 * 40, 0x7FC00000u);  // S[8] = NaN
    });
    CHECK(err.status == Status::kBadValue);
    CHECK(std::string(err.field) == "fastfood.S");
    CHECK(err.offset == section + ff::kHeaderBytes + 4 * 40);
  }
  SUBCASE("the size") {
    const rfk::ModelError err = Corrupted(bytes, [](rfk_test::Blob& b, std::uint32_t) {
      const std::size_t e = b.Entry(f::SectionType::kFastfood);
      b.SetU32(e + f::entry::kSize, b.U32(e + f::entry::kSize) - 1);
    });
    CHECK(err.status == Status::kBadSectionSize);
    CHECK(std::string(err.field) == "fastfood.size");
  }
  SUBCASE("the section with a dense map, or missing") {
    rfk_test::Blob b(bytes);
    const std::size_t mp = b.U32(b.Entry(f::SectionType::kMapParams) + f::entry::kOffset);
    b.SetU32(mp + f::map_params::kMapKind, static_cast<std::uint32_t>(f::MapKind::kFourier));
    b.FixCrc();
    rfk::ModelError err;
    CHECK(b.Open(nullptr, &err) == Status::kMissingSection);  // the dense map's W
    CHECK(std::string(err.field) == "projection");
    b.SetU16(b.Entry(f::SectionType::kFastfood) + f::entry::kType, 17);  // an unknown required type
    b.FixCrc();
    CHECK(b.Open(nullptr, &err) == Status::kUnknownRequiredSection);
  }
}

TEST_CASE("fastfood: other kernels and too wide inputs are refused by name, training with auto gamma and lambda") {
  CHECK_THROWS_WITH_AS(rfk::host::DrawFourierMap(f::MapKind::kFastfood, f::Kernel::kLaplacian, 16, 4, 1, 1),
                       doctest::Contains("gaussian kernel only"), rfk::host::TrainError);
  CHECK_THROWS_WITH_AS(rfk::host::DrawFourierMap(f::MapKind::kFastfood, f::Kernel::kGaussian, 16, 70000, 1, 1),
                       doctest::Contains("at most 65536 input columns"), rfk::host::TrainError);
  const rfk::host::Dataset ds =  // three classes
      rfk_test::NormalRows(240, [](float a, float b) { return std::to_string((a > 0) + (b > 0)); });
  for (f::MapKind map : {f::MapKind::kFastfood, f::MapKind::kFastfoodPhase}) {
    rfk::host::TrainOptions o;
    o.map = map;
    o.features = 64;
    o.gamma_auto = o.lambda_auto = true;
    const rfk::host::TrainResult r = rfk::host::Train(ds, o);
    CHECK(r.report.train_error < 0.15);
    rfk_test::Blob blob(r.model);
    rfk::Model m;
    REQUIRE(blob.Open(&m) == Status::kOk);
    CHECK(m.map == map);
    CHECK(m.num_outputs == 3);
  }
}

TEST_CASE("fastfood: bytes flipped in its map behind a recomputed checksum never open into an unsafe model") {
  const auto bytes = rfk::host::SerializeModel(Spec(f::MapKind::kFastfoodPhase, 40, 5, 0.3, 2));  // d' = 8
  rfk_test::Blob clean(bytes);
  const std::size_t mp = clean.U32(clean.Entry(f::SectionType::kMapParams) + f::entry::kOffset);
  const std::size_t ff = clean.U32(clean.Entry(f::SectionType::kFastfood) + f::entry::kOffset);
  const std::size_t ff_end = ff + clean.U32(clean.Entry(f::SectionType::kFastfood) + f::entry::kSize);
  std::uint64_t s = 7;
  int opened = 0, refused = 0;
  for (int trial = 0; trial < 3000; ++trial) {
    rfk_test::Blob b(bytes);
    s = s * 6364136223846793005ull + 1;
    const std::size_t at = trial % 4 == 0 ? mp + (s >> 33) % f::map_params::kBytes : ff + (s >> 33) % (ff_end - ff);
    b.data()[at] ^= static_cast<std::uint8_t>(1u << ((s >> 20) % 8));
    b.FixCrc();
    rfk::Model m;
    if (b.Open(&m) != Status::kOk) {
      ++refused;
      continue;
    }
    ++opened;
    std::vector<float> x(m.input_dim, 0.5f), out(m.num_outputs);
    rfk::host::AlignedBytes scratch(rfk::BatchScratchBytes(m));
    const Status st = rfk::Predict(m, x.data(), x.size(), scratch.data(), scratch.size(), out.data(), out.size());
    CHECK((st == Status::kOk || st == Status::kArgumentOutOfRange));
    CHECK(rfk::PredictBatch(m, x.data(), 1, x.size(), scratch.data(), scratch.size(), out.data(), out.size()) == st);
  }
  CHECK(opened > 0);   // flips in G, S and the signs still open
  CHECK(refused > 0);  // flips in the header, the indices, the exponents of G and S do not
}

TEST_CASE("fastfood: permutation indices packed in ceil(log2 d') bits, read back by FastfoodIndex and Predict") {
  namespace ff = f::fastfood;
  CHECK(ff::IndexBits(1) == 0);
  CHECK(ff::IndexBits(2) == 1);
  CHECK(ff::IndexBits(64) == 6);
  CHECK(ff::IndexBits(65536) == 16);
  CHECK(ff::PermBytes(64, 512) == 384);  // the (54, 1024) binary model: 512 B as u8
  // Every width, indices i * 40503 mod 2^w, packed LSB first, then read back.
  for (std::uint32_t w = 0; w <= 16; ++w) {
    const std::uint32_t dp = 1u << w, N = 3 * 37;
    std::vector<std::uint8_t> packed(ff::PermBytes(dp, N) + 3, 0xA5);  // bytes after the last must not matter
    for (std::size_t i = 0; i < ff::PermBytes(dp, N); ++i) packed[i] = 0;
    for (std::uint32_t k = 0; k < N; ++k)
      for (std::uint32_t i = 0; i < w; ++i)
        if (((k * 40503u) >> i) & 1u) packed[(k * w + i) / 8] |= static_cast<std::uint8_t>(1u << ((k * w + i) % 8));
    rfk::FastfoodArrays a;
    a.dp = dp;
    a.index_bits = w;
    a.perm = packed.data();
    CAPTURE(w);
    for (std::uint32_t k = 0; k < N; ++k) CHECK(rfk::FastfoodIndex(a, k) == ((k * 40503u) & (dp - 1)));
  }
  // d' = 1 (one input, 0-bit indices) and d' = 2 through the whole path: the features of V x.
  for (std::uint32_t d : {1u, 2u}) {
    rfk_test::Blob blob(rfk::host::SerializeModel(Spec(f::MapKind::kFastfood, 8, d, 0.5, 4)));
    rfk::Model m;
    REQUIRE(blob.Open(&m) == Status::kOk);
    CHECK(m.fastfood.index_bits == ff::IndexBits(d));
    const std::vector<double> W = EffectiveW(m);
    const float x[2] = {0.7f, -1.3f};
    rfk::host::AlignedBytes scratch(rfk::ScratchBytes(m));
    std::vector<float> z(m.num_features);
    REQUIRE(rfk::ComputeFeatures(m, x, d, scratch.data(), scratch.size(), z.data(), z.size()) == Status::kOk);
    for (std::uint32_t j = 0; j < m.num_frequencies; ++j) {
      double arg = 0;
      for (std::uint32_t c = 0; c < d; ++c) arg += W[std::size_t{j} * d + c] * x[c];
      CAPTURE(d);
      CHECK(std::fabs(z[j] - m.feature_scale * std::cos(arg)) <= 1e-5);
    }
  }
}

// Fastfood's diagonals G and S stored f16 or int8 (docs/FORMAT.md, "fastfood"): the section's
// layout and size per storage, re-quantizing (RequantizeModel), the features being exactly those
// of the f32 path on the widened diagonals (the scalar oracle) on every kernel table, predictions
// within a bound of the f32 model's computed from the actual rounding errors, and each corrupted
// field refused with its status, field and offset.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "maps/random.h"
#include "rfk/host/quantize.hpp"
#include "rfk/host/train.hpp"
#include "rfk/kernels.hpp"
#include "rfk/model.hpp"
#include "test_util.h"

namespace {

namespace f = rfk::format;
using rfk_test::Requantized;
namespace ff = rfk::format::fastfood;
using rfk::Status;
using rfk_test::Blob;

// A trained Fastfood model over d Gaussian columns (binary labels), D features.
std::vector<std::uint8_t> Trained(f::MapKind map, std::uint32_t d, std::uint32_t D) {
  rfk::host::Dataset ds;
  ds.source = "t";
  ds.cols = d;
  rfk::host::RandomStream rs(7, 3);
  for (int i = 0; i < 200; ++i) {
    double sum = 0;
    for (std::uint32_t c = 0; c < d; ++c) {
      ds.dense.push_back(static_cast<float>(rs.Normal() * (1 + c % 3) + c));
      sum += std::sin(ds.dense.back());
    }
    ds.labels.push_back(sum > 0 ? "1" : "0");
    ds.lines.push_back(std::size_t(i) + 1);
    ++ds.rows;
  }
  rfk::host::TrainOptions o;
  o.map = map;
  o.features = D;
  return rfk::host::Train(ds, o).model;
}

// The widened diagonals of a model, G then S, as the bytes of 2N floats: what an f32 section
// holding the values the quantized one stands for stores (its permutations and signs unchanged).
std::vector<std::uint8_t> WidenedF32(const std::vector<std::uint8_t>& quantized) {
  Blob b(quantized);
  rfk::Model m;
  REQUIRE(b.Open(&m) == Status::kOk);
  const rfk::FastfoodArrays& a = m.fastfood;
  const std::uint64_t N = std::uint64_t{a.dp} * a.blocks;
  std::vector<float> widened(2 * N);
  for (std::uint64_t k = 0; k < N; ++k) {
    widened[k] = rfk::WeightAt(rfk::FastfoodDiagonal(a, a.G), k, k / a.dp);
    widened[N + k] = rfk::WeightAt(rfk::FastfoodDiagonal(a, a.S), k, k / a.dp);
  }
  return std::vector<std::uint8_t>(reinterpret_cast<const std::uint8_t*>(widened.data()),
                                   reinterpret_cast<const std::uint8_t*>(widened.data() + 2 * N));
}

// Entry i of the standardisation's 2d values (means, then inverse scales), widened from f32 or f16.
double Standardization(const rfk::Model& m, std::uint32_t i) {
  return m.standardize_f16_at ? rfk::HalfToFloat(rfk::StandardizeF16Values(m)[i]) : i < m.input_dim ? m.mean[i] : m.inv_scale[i - m.input_dim];
}

// u = S H G Pi H B [x'; 0] of every frequency, in double from the widened arrays (x' standardised).
std::vector<double> Arguments(const rfk::Model& m, const float* x) {
  const rfk::FastfoodArrays& a = m.fastfood;
  const std::uint32_t dp = a.dp, d = m.input_dim;
  const rfk::WeightsView G = rfk::FastfoodDiagonal(a, a.G), S = rfk::FastfoodDiagonal(a, a.S);
  auto fwht = [dp](std::vector<double>& v) {
    for (std::uint32_t h = 1; h < dp; h *= 2)
      for (std::uint32_t i = 0; i < dp; i += 2 * h)
        for (std::uint32_t j = i; j < i + h; ++j) {
          const double p = v[j], q = v[j + h];
          v[j] = p + q;
          v[j + h] = p - q;
        }
  };
  std::vector<double> u(std::size_t{a.blocks} * dp);
  for (std::uint32_t b = 0; b < a.blocks; ++b) {
    std::vector<double> t(dp, 0.0), v(dp);
    for (std::uint32_t c = 0; c < d; ++c) {
      const std::uint32_t k = b * dp + c;
      const double xs = rfk::IsStandardized(m) ? (double(x[c]) - Standardization(m, c)) * Standardization(m, d + c) : x[c];
      t[c] = (a.signs[k / 8] >> (k % 8)) & 1u ? -xs : xs;
    }
    fwht(t);
    for (std::uint32_t i = 0; i < dp; ++i) v[i] = rfk::WeightAt(G, b * dp + i, b) * t[rfk::FastfoodIndex(a, b * dp + i)];
    fwht(v);
    for (std::uint32_t i = 0; i < dp; ++i) u[b * dp + i] = rfk::WeightAt(S, b * dp + i, b) * v[i];
  }
  return u;
}

// Features of every row of X (n x d) with the active kernel table.
std::vector<float> Features(Blob& b, const std::vector<float>& X, std::uint32_t d) {
  rfk::Model m;
  REQUIRE(b.Open(&m) == Status::kOk);
  rfk::host::AlignedBytes scratch(rfk::ScratchBytes(m));
  const std::size_t n = X.size() / d;
  std::vector<float> z(n * m.num_features);
  for (std::size_t i = 0; i < n; ++i)
    REQUIRE(rfk::ComputeFeatures(m, X.data() + i * d, d, scratch.data(), scratch.size(), z.data() + i * m.num_features,
                                 m.num_features) == Status::kOk);
  return z;
}

std::vector<float> Inputs(std::uint32_t n, std::uint32_t d) {
  rfk::host::RandomStream rs(11, 5);
  std::vector<float> X(std::size_t{n} * d);
  for (std::size_t i = 0; i < X.size(); ++i) X[i] = static_cast<float>(rs.Normal() * (1 + i % d % 3) + i % d);
  return X;
}

}  // namespace

TEST_CASE("fastfood quantized: the section's size and layout per storage, f32 re-stored is the same bytes") {
  const auto bytes = Trained(f::MapKind::kFastfood, 54, 1024);  // d' = 64, 8 blocks
  CHECK(Requantized(bytes, f::Storage::kF32, f::Storage::kF32) == bytes);
  const std::uint32_t N = 512, blocks = 8;
  for (f::Storage st : {f::Storage::kF32, f::Storage::kF16, f::Storage::kInt8}) {
    const std::string storage_name = f::NameOf(st);
    CAPTURE(storage_name);
    Blob b(Requantized(bytes, st, f::Storage::kF32));
    rfk::Model m;
    REQUIRE(b.Open(&m) == Status::kOk);
    CHECK(m.projection_storage == st);
    const std::uint32_t size = b.U32(b.Entry(f::SectionType::kFastfood) + f::entry::kSize);
    const std::uint32_t diag = st == f::Storage::kF32 ? 4 * N : st == f::Storage::kF16 ? 2 * N : N + 4 * blocks;
    CHECK(size == 16 + 2 * diag + 6 * N / 8 + N / 8);  // G, S, 6-bit permutation indices, sign bits
    CHECK(size == ff::SectionBytes(st, 64, blocks));
    CHECK(ff::DiagonalBytes(st, 64, blocks) == f::QuantMatrixBytes(st, blocks, 64));
    const std::uint32_t at = b.U32(b.Entry(f::SectionType::kFastfood) + f::entry::kOffset);
    CHECK(static_cast<const std::uint8_t*>(m.fastfood.G) == b.data() + at + 16);
    CHECK(static_cast<const std::uint8_t*>(m.fastfood.S) == b.data() + at + 16 + diag);
    CHECK(m.fastfood.perm == b.data() + at + 16 + 2 * diag);
  }
  const std::size_t int8_bytes = Requantized(bytes, f::Storage::kInt8, f::Storage::kInt8).size();
  MESSAGE("(54, 1024) binary Fastfood: f32 " << bytes.size() << " B, int8 map and head " << int8_bytes << " B");
}

TEST_CASE("fastfood quantized: int8 scales are max|G_b| / 127 per block, f16 rounds each entry to nearest") {
  const auto bytes = Trained(f::MapKind::kFastfood, 20, 200);  // d' = 32, 4 blocks (the last truncated)
  Blob fb(bytes), qb(Requantized(bytes, f::Storage::kInt8, f::Storage::kF32)),
      hb(Requantized(bytes, f::Storage::kF16, f::Storage::kF32));
  rfk::Model fm, qm, hm;
  REQUIRE(fb.Open(&fm) == Status::kOk);
  REQUIRE(qb.Open(&qm) == Status::kOk);
  REQUIRE(hb.Open(&hm) == Status::kOk);
  const rfk::FastfoodArrays& a = fm.fastfood;
  for (const void* which : {a.G, a.S}) {
    const bool is_g = which == a.G;
    const rfk::WeightsView w = rfk::FastfoodDiagonal(a, which);
    const rfk::WeightsView q = rfk::FastfoodDiagonal(qm.fastfood, is_g ? qm.fastfood.G : qm.fastfood.S);
    const rfk::WeightsView h = rfk::FastfoodDiagonal(hm.fastfood, is_g ? hm.fastfood.G : hm.fastfood.S);
    for (std::uint32_t blk = 0; blk < a.blocks; ++blk) {
      float mx = 0;
      for (std::uint32_t i = 0; i < a.dp; ++i) mx = std::max(mx, std::fabs(rfk::WeightAt(w, blk * a.dp + i, blk)));
      CHECK(q.scale[blk] == mx / 127.0f);
      for (std::uint32_t i = 0; i < a.dp; ++i) {
        const std::uint32_t k = blk * a.dp + i;
        const float v = rfk::WeightAt(w, k, blk);
        CHECK(std::fabs(rfk::WeightAt(q, k, blk) - v) <= 0.5001f * q.scale[blk]);
        CHECK(std::fabs(rfk::WeightAt(h, k, blk) - v) <= std::ldexp(std::fabs(v), -11));
      }
    }
  }
}

TEST_CASE("fastfood quantized: the features are the f32 path's on the widened diagonals, on every kernel table") {
  for (f::MapKind map : {f::MapKind::kFastfood, f::MapKind::kFastfoodPhase}) {
    for (std::uint32_t d : {5u, 300u}) {  // d' = 8 (u8 indices), d' = 512 (u16 indices)
      const auto bytes = Trained(map, d, 600);
      const auto X = Inputs(6, d);
      for (f::Storage st : {f::Storage::kF16, f::Storage::kInt8}) {
        const std::string map_name = f::NameOf(map), storage_name = f::NameOf(st);
        CAPTURE(map_name);
        CAPTURE(d);
        CAPTURE(storage_name);
        const auto q = Requantized(bytes, st, f::Storage::kF32);
        // The same model with G and S replaced by their widened f32 values.
        Blob wb(bytes);
        const std::uint32_t at = wb.U32(wb.Entry(f::SectionType::kFastfood) + f::entry::kOffset);
        const auto widened = WidenedF32(q);
        std::memcpy(wb.data() + at + ff::kHeaderBytes, widened.data(), widened.size());
        Blob qb(q);
        rfk::Model qm;
        REQUIRE(qb.Open(&qm) == Status::kOk);
        if (qm.standardize_f16_at != 0) {  // and the standardisation by its widened f16 values
          const std::uint32_t sat = wb.U32(wb.Entry(f::SectionType::kStandardize) + f::entry::kOffset);
          for (std::uint32_t c = 0; c < 2 * d; ++c) {
            const float v = rfk::HalfToFloat(rfk::StandardizeF16Values(qm)[c]);
            std::memcpy(wb.data() + sat + 4 * c, &v, 4);
          }
        }
        wb.FixCrc();
        const rfk::KernelTable& active = rfk::ActiveKernels();
        const std::string name = std::string(active.backend) + "-" + active.target;
        REQUIRE(rfk::SelectKernels("scalar"));
        const auto want = Features(wb, X, d);
        CHECK(Features(qb, X, d) == want);  // the oracle: bit for bit
        for (std::size_t i = 0; i < rfk::KernelTableCount(); ++i) {
          const rfk::KernelTable& t = *rfk::KernelTableAt(i);
          REQUIRE(rfk::SelectKernels((std::string(t.backend) + "-" + t.target).c_str()));
          CAPTURE(t.target);
          const auto got = Features(qb, X, d);
          double worst = 0;
          for (std::size_t j = 0; j < want.size(); ++j) worst = std::max(worst, std::fabs(double(got[j]) - want[j]));
          CHECK(worst <= 1e-5);  // the Fourier kernels' tolerance; the transforms are exact
          CHECK(got == Features(wb, X, d));  // the same table on the widened f32 arrays: the same bits
        }
        REQUIRE(rfk::SelectKernels(name.c_str()));
      }
    }
  }
}

// |cos a - cos b|, |sin a - sin b| <= |a - b|: each output moves by at most
// sum_j |H_j| s |u_q,j - u_j| over both halves of the pairs, u the frequencies' arguments in double
// from each model's widened diagonals, plus float rounding (1e-4 relative, as tests/model/test_quantize.cc).
TEST_CASE("fastfood quantized: features are cos/sin of the widened map, outputs within the rounding's bound") {
  const std::uint32_t d = 54;
  const auto bytes = Trained(f::MapKind::kFastfood, d, 1024);
  const auto X = Inputs(100, d);
  Blob fb(bytes);
  rfk::Model fm;
  REQUIRE(fb.Open(&fm) == Status::kOk);
  const std::uint32_t F = fm.num_frequencies;
  const auto z32 = Features(fb, X, d);
  for (f::Storage st : {f::Storage::kF16, f::Storage::kInt8}) {
    const std::string storage_name = f::NameOf(st);
    CAPTURE(storage_name);
    Blob qb(Requantized(bytes, st, f::Storage::kF32));
    rfk::Model qm;
    REQUIRE(qb.Open(&qm) == Status::kOk);
    const auto zq = Features(qb, X, d);
    const double s = fm.feature_scale;
    std::size_t agree = 0;
    double worst = 0;
    for (std::size_t i = 0; i < X.size() / d; ++i) {
      const std::vector<double> u32 = Arguments(fm, &X[i * d]), uq = Arguments(qm, &X[i * d]);
      double out32 = fm.head_bias[0], outq = out32, bound = 0, mag = 0;
      for (std::uint32_t j = 0; j < F; ++j) {
        REQUIRE(zq[i * 2 * F + j] == doctest::Approx(s * std::cos(uq[j])).epsilon(1e-4).scale(s));
        REQUIRE(zq[i * 2 * F + F + j] == doctest::Approx(s * std::sin(uq[j])).epsilon(1e-4).scale(s));
        for (std::uint32_t half : {0u, F}) {
          const double h = fm.head_weights[half + j];
          out32 += h * z32[i * 2 * F + half + j];
          outq += h * zq[i * 2 * F + half + j];
          bound += std::fabs(h) * s * std::fabs(uq[j] - u32[j]);
          mag += std::fabs(h * z32[i * 2 * F + half + j]);
        }
      }
      CHECK(std::fabs(outq - out32) <= bound + 1e-4 * (1 + mag));
      worst = std::max(worst, std::fabs(outq - out32));
      agree += (outq > 0) == (out32 > 0);
    }
    MESSAGE(storage_name << " G and S: largest |output - f32 output| " << worst << ", decisions kept " << agree
                          << " of 100");
  }
}

TEST_CASE("fastfood quantized: a storage wider than the source's is refused, f16 -> f16 is the same bytes") {
  const auto bytes = Trained(f::MapKind::kFastfood, 7, 100);
  const auto i8 = Requantized(bytes, f::Storage::kInt8, f::Storage::kInt8);
  const auto h16 = Requantized(bytes, f::Storage::kF16, f::Storage::kF16);
  CHECK_THROWS_AS(Requantized(i8, f::Storage::kF16, f::Storage::kInt8), rfk::host::QuantizeError);
  CHECK_THROWS_AS(Requantized(h16, f::Storage::kF32, f::Storage::kF16), rfk::host::QuantizeError);
  CHECK(Requantized(h16, f::Storage::kF16, f::Storage::kF16) == h16);
  Blob b(Requantized(h16, f::Storage::kInt8, f::Storage::kF16));
  CHECK(b.Open() == Status::kOk);
}

namespace {

// The verdict on `bytes` after `edit(blob, offset of the fastfood section)` and a fresh CRC.
template <class Edit>
rfk::ModelError Corrupted(const std::vector<std::uint8_t>& bytes, Edit edit) {
  Blob b(bytes);
  edit(b, b.U32(b.Entry(f::SectionType::kFastfood) + f::entry::kOffset));
  b.FixCrc();
  rfk::ModelError err;
  (void)b.Open(nullptr, &err);
  return err;
}

}  // namespace

TEST_CASE("fastfood quantized: each corrupted field gives its status, field and offset") {
  const auto bytes = Trained(f::MapKind::kFastfood, 5, 128);  // F = 64: d' = 8, 8 blocks, N = 64
  const auto i8 = Requantized(bytes, f::Storage::kInt8, f::Storage::kF32);
  const auto h16 = Requantized(bytes, f::Storage::kF16, f::Storage::kF32);
  const std::uint32_t N = 64, blocks = 8, g = ff::kHeaderBytes, s8 = g + N + 4 * blocks, s16 = g + 2 * N;
  struct Case {
    const char* what;
    const std::vector<std::uint8_t>* model;
    std::uint32_t at;  // offset in the section
    std::uint32_t value;
    bool byte;
    const char* field;
  };
  const std::uint32_t nan = 0x7FC00000u, inf = 0x7F800000u, neg = 0xBF800000u;  // -1.0f
  const Case cases[] = {
      {"int8 G: -128", &i8, g + 17, 0x80, true, "fastfood.G"},
      {"int8 S: -128", &i8, s8 + 3, 0x80, true, "fastfood.S"},
      {"int8 G scale 0", &i8, g + N + 4 * 2, 0, false, "fastfood.G_scale"},
      {"int8 G scale NaN", &i8, g + N + 4 * 7, nan, false, "fastfood.G_scale"},
      {"int8 S scale inf", &i8, s8 + N, inf, false, "fastfood.S_scale"},
      {"int8 S scale negative", &i8, s8 + N + 4 * 5, neg, false, "fastfood.S_scale"},
      {"f16 G: infinity", &h16, g + 2 * 9, 0x7C00, false, "fastfood.G"},
      {"f16 S: NaN", &h16, s16 + 2 * 63, 0x7E01, false, "fastfood.S"},
  };
  for (const Case& c : cases) {
    const std::string what = c.what;
    CAPTURE(what);
    std::uint32_t section = 0;
    const rfk::ModelError err = Corrupted(*c.model, [&](Blob& b, std::uint32_t s) {
      section = s;
      if (c.byte)
        b.data()[s + c.at] = static_cast<std::uint8_t>(c.value);
      else if (c.value <= 0xFFFFu && c.model == &h16)
        b.SetU16(s + c.at, static_cast<std::uint16_t>(c.value));
      else
        b.SetU32(s + c.at, c.value);
    });
    CHECK(err.status == Status::kBadValue);
    CHECK(std::string(err.field) == c.field);
    CHECK(err.offset == section + c.at);
  }
  SUBCASE("the storage: each one's size is checked, a reserved one and an unknown one are refused") {
    for (const auto* model : {&bytes, &i8, &h16}) {
      for (std::uint32_t st : {1u, 2u, 3u}) {
        Blob b(*model);
        rfk::Model m;
        REQUIRE(b.Open(&m) == Status::kOk);
        if (static_cast<f::Storage>(st) == m.projection_storage) continue;
        const std::uint32_t mp = b.U32(b.Entry(f::SectionType::kMapParams) + f::entry::kOffset);
        b.SetU32(mp + f::map_params::kStorage, st);
        b.FixCrc();
        rfk::ModelError err;
        CHECK(b.Open(nullptr, &err) == Status::kBadSectionSize);
        CHECK(std::string(err.field) == "fastfood.size");
        CHECK(err.offset == b.Entry(f::SectionType::kFastfood) + f::entry::kSize);
      }
    }
    for (const auto& [st, status] : {std::pair{4u, Status::kUnsupportedStorage}, std::pair{9u, Status::kBadValue}}) {
      Blob b(i8);
      const std::uint32_t mp = b.U32(b.Entry(f::SectionType::kMapParams) + f::entry::kOffset);
      b.SetU32(mp + f::map_params::kStorage, st);
      b.FixCrc();
      rfk::ModelError err;
      CHECK(b.Open(nullptr, &err) == status);
      CHECK(std::string(err.field) == "map_params.storage");
      CHECK(err.offset == mp + f::map_params::kStorage);
    }
  }
}

TEST_CASE("fastfood quantized: bytes flipped in the section behind a fresh checksum never open into an unsafe model") {
  const auto i8 = Requantized(Trained(f::MapKind::kFastfood, 5, 64), f::Storage::kInt8, f::Storage::kInt8);
  Blob clean(i8);
  const std::uint32_t at = clean.U32(clean.Entry(f::SectionType::kFastfood) + f::entry::kOffset);
  const std::uint32_t size = clean.U32(clean.Entry(f::SectionType::kFastfood) + f::entry::kSize);
  const std::vector<float> x = Inputs(1, 5);
  std::size_t opened = 0;
  for (std::uint32_t k = 0; k < size; ++k) {
    Blob b(i8);
    b.data()[at + k] ^= static_cast<std::uint8_t>(0x80u >> (k % 8));
    b.FixCrc();
    rfk::Model m;
    if (b.Open(&m) != Status::kOk) continue;
    ++opened;
    rfk::host::AlignedBytes scratch(rfk::ScratchBytes(m));
    float out = 0;
    const Status s = rfk::Predict(m, x.data(), 5, scratch.data(), scratch.size(), &out, 1);
    CHECK((s == Status::kOk || s == Status::kArgumentOutOfRange));
  }
  CHECK(opened > 0);  // most flips change a value, which stays a valid model
  CHECK(opened < size);  // and some (header, scales, permutations) are refused
}

TEST_CASE("fastfood quantized: rfk train --storage, convert, inspect, eval and export") {
  rfk_test::TempDir tmp;
  std::string csv = "x1,x2,x3,y\n";
  for (int i = 0; i < 300; ++i) {
    const double a = (i % 20) / 10.0, b = (i / 20) / 10.0, c = (i % 7) / 3.0;
    csv += std::to_string(a) + "," + std::to_string(b) + "," + std::to_string(c) + "," +
           (std::sin(3 * a) + b - c > 0.2 ? "1" : "0") + "\n";
  }
  const std::string data = tmp.Path("d.csv"), cli = RFK_CLI, f32 = tmp.Path("f32.rfk"), i8 = tmp.Path("i8.rfk");
  rfk_test::WriteText(data, csv);
  auto r = rfk_test::Run(cli + " train --train " + data + " --map fastfood -D 256 --lambda 1e-4 -q -o " + f32);
  REQUIRE_MESSAGE(r.status == 0, r.err);
  r = rfk_test::Run(cli + " train --train " + data + " --map fastfood -D 256 --lambda 1e-4 -q --storage f16 -o " +
                    tmp.Path("t16.rfk"));
  REQUIRE_MESSAGE(r.status == 0, r.err);
  r = rfk_test::Run(cli + " inspect " + tmp.Path("t16.rfk"));
  REQUIRE(r.status == 0);
  CHECK(r.out.find("G and S f16") != std::string::npos);
  // d = 3: d' = 4; D = 256 pairs: F = 128 frequencies in 32 blocks, N = 128 entries of G and of S
  CHECK(r.out.find("G storage:       f16, 256 bytes") != std::string::npos);
  CHECK(r.out.find("S storage:       f16, 256 bytes") != std::string::npos);

  r = rfk_test::Run(cli + " convert -m " + f32 + " --storage int8 -o " + i8);
  REQUIRE_MESSAGE(r.status == 0, r.err);
  CHECK(r.err.find("G and S int8, head int8") != std::string::npos);
  r = rfk_test::Run(cli + " inspect --json " + i8);
  REQUIRE(r.status == 0);
  CHECK(r.out.find("{\"section\": \"fastfood.G\", \"storage\": \"int8\", \"bytes\": 256, \"scale_min\": ") !=
        std::string::npos);  // N bytes, then 32 scales
  CHECK(r.out.find("{\"section\": \"fastfood.S\", \"storage\": \"int8\"") != std::string::npos);
  const auto error = [&](const std::string& model) {
    const auto ev = rfk_test::Run(cli + " eval -m " + model + " " + data + " --json");
    REQUIRE_MESSAGE(ev.status == 0, ev.err);
    const auto at = ev.out.find("\"error_rate\": ");
    REQUIRE(at != std::string::npos);
    return std::strtod(ev.out.c_str() + at + 14, nullptr);
  };
  const double e32 = error(f32), e8 = error(i8);
  MESSAGE("training-set error: f32 " << e32 << ", int8 " << e8);
  CHECK(e8 <= e32 + 0.02);
  r = rfk_test::Run(cli + " convert -m " + i8 + " --storage f16 -o " + tmp.Path("no.rfk"));
  CHECK(r.status == 1);
  CHECK(r.err.find("Fastfood's G and S is stored int8") != std::string::npos);
  r = rfk_test::Run(cli + " export -m " + i8 + " --c-header " + tmp.Path("m.h") + " --name ffq --vectors " + data);
  CHECK_MESSAGE(r.status == 0, r.err);
  CHECK(rfk_test::ReadText(tmp.Path("m.h")).find("ffq") != std::string::npos);
}

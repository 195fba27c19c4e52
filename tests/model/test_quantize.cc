// Quantized storage (f16, int8) of W and the head: the conversions, re-quantizing models
// (RequantizeModel, `rfk convert`), predictions against the f32 model within a bound computed from
// the actual rounding errors, and the reader's refusals with field and offset.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <limits>
#include <string>
#include <vector>

#include "rfk/host/quantize.hpp"
#include "rfk/host/train.hpp"
#include "rfk/kernels.hpp"
#include "rfk/model.hpp"
#include "test_util.h"

namespace {

namespace f = rfk::format;
using rfk_test::Requantized;
using rfk::Status;
using rfk_test::Blob;

// A small standardised data set: 3 classes (or a regression target) over 4 columns.
rfk::host::Dataset Data(bool regression) {
  rfk::host::Dataset ds;
  ds.source = "t";
  ds.cols = 4;
  for (int i = 0; i < 90; ++i) {
    for (int c = 0; c < 4; ++c) ds.dense.push_back(float((i * (c + 3)) % 7) + 0.1f * float(c) + 0.01f * float(i));
    ds.labels.push_back(regression ? std::to_string(0.1 * (i % 11)) : std::to_string(i % 3));
    ds.lines.push_back(std::size_t(i) + 1);
    ++ds.rows;
  }
  return ds;
}

std::vector<std::uint8_t> Trained(f::MapKind map, std::uint32_t grids = 0, bool regression = false) {
  rfk::host::TrainOptions o;
  o.features = 40;  // F = 20 (pairs) or 40 (phase): not whole panels
  o.map = map;
  o.grids = grids;
  if (regression) o.task = rfk::host::TaskChoice::kRegression;
  return rfk::host::Train(Data(regression), o).model;
}

struct Outputs {
  std::vector<float> out, z;  // per row: K outputs; D features
};
Outputs PredictAll(Blob& b, const rfk::host::Dataset& ds) {
  rfk::Model m;
  REQUIRE(b.Open(&m) == Status::kOk);
  rfk::host::AlignedBytes scratch(rfk::ScratchBytes(m));
  Outputs o;
  o.out.resize(ds.rows * m.num_outputs);
  o.z.resize(ds.rows * m.num_features);
  for (std::size_t r = 0; r < ds.rows; ++r) {
    const float* x = &ds.dense[r * ds.cols];
    REQUIRE(rfk::Predict(m, x, ds.cols, scratch.data(), scratch.size(), &o.out[r * m.num_outputs], m.num_outputs) ==
            Status::kOk);
    REQUIRE(rfk::ComputeFeatures(m, x, ds.cols, scratch.data(), scratch.size(), &o.z[r * m.num_features],
                                 m.num_features) == Status::kOk);
  }
  // The batch path gives the single-sample outputs (quantized models go row by row).
  rfk::host::AlignedBytes batch_scratch(rfk::BatchScratchBytes(m));
  std::vector<float> batch(o.out.size());
  REQUIRE(rfk::PredictBatch(m, ds.dense.data(), ds.rows, ds.dense.size(), batch_scratch.data(), batch_scratch.size(),
                            batch.data(), batch.size()) == Status::kOk);
  if (m.projection_storage != f::Storage::kF32 || m.head_storage != f::Storage::kF32) CHECK(batch == o.out);
  return o;
}

// W's widened row j (panels or row-major) as doubles.
double WAt(const rfk::Model& m, std::uint32_t j, std::uint32_t c) {
  const std::uint64_t d = m.input_dim;
  const std::uint64_t i = m.layout == f::Layout::kPanels ? (j / 16) * 16 * d + c * 16 + j % 16 : j * d + c;
  return rfk::WeightAt(m.projection_weights, i, j);
}

}  // namespace

TEST_CASE("f16: every finite half round-trips, widening is exact, and f32 -> f16 rounds to nearest even") {
  for (std::uint32_t h = 0; h < 0x10000u; ++h) {
    if ((h & 0x7C00u) == 0x7C00u) continue;  // inf, NaN: refused by the reader
    const float v = rfk::HalfToFloat(static_cast<std::uint16_t>(h));
    const int e = int((h >> 10) & 0x1F), mant = int(h & 0x3FF);
    const double want = (h & 0x8000u ? -1.0 : 1.0) * (e == 0 ? std::ldexp(mant, -24) : std::ldexp(1024 + mant, e - 25));
    REQUIRE(double(v) == want);
    REQUIRE(rfk::host::FloatToHalf(v) == h);
  }
  CHECK(rfk::host::FloatToHalf(1.0f + 0x1p-11f) == 0x3C00);  // tie: to the even 1.0
  CHECK(rfk::host::FloatToHalf(1.0f + 3 * 0x1p-11f) == 0x3C02);  // tie: to the even 1 + 2^-9
  CHECK(rfk::host::FloatToHalf(1.0f + 0x1p-11f + 0x1p-20f) == 0x3C01);  // above the tie
  CHECK(rfk::host::FloatToHalf(0x1p-25f) == 0x0000);  // tie between 0 and the least subnormal
  CHECK(rfk::host::FloatToHalf(0x1.8p-25f) == 0x0001);
  CHECK(rfk::host::FloatToHalf(65504.0f) == 0x7BFF);
  CHECK(rfk::host::FloatToHalf(65519.0f) == 0x7BFF);
  CHECK_THROWS_AS(rfk::host::FloatToHalf(65520.0f), rfk::host::QuantizeError);
  CHECK_THROWS_AS(rfk::host::FloatToHalf(NAN), rfk::host::QuantizeError);
}

TEST_CASE("int8: scale = max|w| / 127, q rounded half away from zero") {
  const float row[] = {1.0f, -0.5f, 0.25f, 0.0f};
  const float s = rfk::host::Int8Scale(row, 4);
  CHECK(s == 1.0f / 127.0f);
  CHECK(rfk::host::Int8Quantize(1.0f, s) == 127);
  CHECK(rfk::host::Int8Quantize(-0.5f, s) == -64);  // -63.5 -> -64
  CHECK(rfk::host::Int8Quantize(0.25f, s) == 32);   // 31.75
  CHECK(rfk::host::Int8Quantize(2.5f, 1.0f) == 3);  // a tie goes away from zero
  CHECK(rfk::host::Int8Quantize(-2.5f, 1.0f) == -3);
  CHECK(rfk::host::Int8Quantize(500.0f, 1.0f) == 127);
  // A weight int8 cannot hold is refused, not converted (found by fuzz_convert: a widened
  // f16-scaled head that overflowed f32 gave an infinite row scale, inf / inf = NaN).
  const float inf = std::numeric_limits<float>::infinity();
  CHECK_THROWS_AS(rfk::host::Int8Quantize(inf, 1.0f), rfk::host::QuantizeError);
  CHECK_THROWS_AS(rfk::host::Int8Quantize(NAN, 1.0f), rfk::host::QuantizeError);
  const float wide[2] = {inf, 1.0f};
  CHECK_THROWS_AS(rfk::host::Int8Quantize(wide[0], rfk::host::Int8Scale(wide, 2)), rfk::host::QuantizeError);
  CHECK(rfk::host::Int8Quantize(wide[1], rfk::host::Int8Scale(wide, 2)) == 0);  // 1 / inf: a finite 0
  const float zeros[] = {0.0f, 0.0f};
  CHECK(rfk::host::Int8Scale(zeros, 2) == 1.0f);  // an all-zero row: scale 1, q = 0
}

// The most a weight w (of a row whose largest |w| is `largest`) may move when stored in s: half a
// unit in the last place of its element (f16: 11 significant bits; int8: half a step of max/127).
// A new storage's bound goes here; without one the table-driven test below fails.
float StoredErrorBound(f::Storage s, float w, float largest) {
  const float half_ulp_f16 = std::ldexp(std::fabs(w), -11) + std::ldexp(1.0f, -25);  // subnormal halves: 2^-25
  switch (s) {
    case f::Storage::kF32: return 0.0f;
    case f::Storage::kF16: return half_ulp_f16;
    case f::Storage::kF16Scaled: return half_ulp_f16 * 1.0001f;  // h = w / 2^k exactly, then rounded
    case f::Storage::kInt8: return largest / 254.0f * 1.0001f;
    default: FAIL("no error bound for storage " << f::NameOf(s)); return 0.0f;
  }
}

TEST_CASE("every storage of the format's table: EncodeMatrix's bytes read back through WeightAt as StoredRow's") {
  // Table-driven: a storage added to RFK_FORMAT_STORAGES is checked here with no new case (its
  // codec in quantize.cc and its widening in WeightAt must agree, element by element, bit for bit).
  const std::uint64_t rows = 4, cols = 37;  // 37: element bytes not a multiple of 4 (padding)
  std::vector<float> w(rows * cols);
  for (std::uint64_t i = 0; i < w.size(); ++i)
    w[i] = i < cols ? 0.0f : std::sin(0.7f * static_cast<float>(i)) * static_cast<float>(i / cols) * 3.0f;
  const auto row_major = [](std::uint64_t j, std::uint64_t c, std::uint64_t n) { return j * n + c; };
  unsigned checked = 0;
  for (const f::EnumValue& v : f::EnumList<f::Storage>::kValues) {
    if (v.support != f::Support::kSupported) continue;
    CAPTURE(v.name);
    const auto s = static_cast<f::Storage>(v.number);
    const std::vector<std::uint8_t> bytes = rfk::host::EncodeMatrix(s, w, rows, cols, row_major);
    REQUIRE(bytes.size() == f::QuantMatrixBytes(s, rows, cols));
    const auto* scales = reinterpret_cast<const float*>(bytes.data() + f::QuantValuesBytes(s, rows, cols));
    const rfk::WeightsView view{s, bytes.data(), f::HasRowScales(s) ? scales : nullptr};
    for (std::uint64_t j = 0; j < rows; ++j) {
      std::vector<float> row(w.begin() + j * cols, w.begin() + (j + 1) * cols);
      float scale = 1.0f;
      rfk::host::StoredRow(s, row.data(), cols, &scale);
      float largest = 0.0f;
      for (std::uint64_t c = 0; c < cols; ++c) largest = std::max(largest, std::fabs(w[j * cols + c]));
      for (std::uint64_t c = 0; c < cols; ++c) {
        const float read = rfk::WeightAt(view, j * cols + c, j);
        CHECK(read == (f::HasRowScales(s) ? scale * row[c] : row[c]));
        CHECK(std::fabs(read - w[j * cols + c]) <= StoredErrorBound(s, w[j * cols + c], largest));
      }
    }
    ++checked;
  }
  CHECK(checked == f::BitCount(f::EnumList<f::Storage>::kSupported));
}

TEST_CASE("the storages a user may name are the table's kForUser rows") {
  for (const f::EnumValue& v : f::EnumList<f::Storage>::kValues) {
    CAPTURE(v.name);
    const auto s = static_cast<f::Storage>(v.number);
    const bool offered = v.support == f::Support::kSupported && f::StorageFor(s, f::kForUser);
    if (offered) CHECK(rfk::host::ParseStorage(v.name) == s);
    else CHECK_THROWS_AS(rfk::host::ParseStorage(v.name), std::invalid_argument);
  }
  CHECK(rfk::host::StorageNames() == "f32, f16 or int8");
}

TEST_CASE("re-storing as f32 gives the same bytes, every storage opens and reports its storage") {
  const auto bytes = Trained(f::MapKind::kFourier);
  CHECK(Requantized(bytes, f::Storage::kF32, f::Storage::kF32) == bytes);
  rfk::Model m;
  for (f::Storage st : {f::Storage::kF16, f::Storage::kInt8}) {
    CAPTURE(f::NameOf(st));
    const auto q = Requantized(bytes, st, st);
    Blob b(q);
    REQUIRE(b.Open(&m) == Status::kOk);
    CHECK(m.projection_storage == st);
    CHECK(m.head_storage == st);
    CHECK(m.projection == nullptr);
    CHECK(m.head_weights == nullptr);
    CHECK((st == f::Storage::kInt8) == (m.projection_weights.scale != nullptr));
    // The head alone, W kept f32.
    Blob h(Requantized(bytes, f::Storage::kF32, st));
    REQUIRE(h.Open(&m) == Status::kOk);
    CHECK(m.projection_storage == f::Storage::kF32);
    CHECK(m.head_storage == st);
  }
  // W's bytes: half (f16), a quarter plus one scale per stored row (int8).
  Blob f32(bytes), h16(Requantized(bytes, f::Storage::kF16, f::Storage::kF16)),
      i8(Requantized(bytes, f::Storage::kInt8, f::Storage::kInt8));
  const auto w_bytes = [](const Blob& b) { return b.U32(b.Entry(f::SectionType::kProjection) + f::entry::kSize); };
  REQUIRE(f32.Open(&m) == Status::kOk);
  const std::uint32_t rows = f::StoredFrequencies(m.layout, m.num_frequencies);
  CHECK(w_bytes(h16) == w_bytes(f32) / 2);
  CHECK(w_bytes(i8) == w_bytes(f32) / 4 + 4 * rows);
}

TEST_CASE("a storage wider than the source's is refused, a narrower one is allowed") {
  const auto bytes = Trained(f::MapKind::kFourierPhase);
  const auto i8 = Requantized(bytes, f::Storage::kInt8, f::Storage::kInt8);
  const auto h16 = Requantized(bytes, f::Storage::kF16, f::Storage::kF16);
  CHECK_THROWS_AS(Requantized(i8, f::Storage::kF16, f::Storage::kInt8), rfk::host::QuantizeError);
  CHECK_THROWS_AS(Requantized(i8, f::Storage::kInt8, f::Storage::kF32), rfk::host::QuantizeError);
  CHECK_THROWS_AS(Requantized(h16, f::Storage::kF32, f::Storage::kF16), rfk::host::QuantizeError);
  const auto back = Requantized(h16, f::Storage::kInt8, f::Storage::kInt8);
  Blob b(back);
  CHECK(b.Open() == Status::kOk);
  // f16 -> f16 widens each half exactly and rounds it back to itself.
  CHECK(Requantized(h16, f::Storage::kF16, f::Storage::kF16) == h16);
}

// For every Fourier map form, binning alongside, and both storages: (1) the features and outputs
// are those of a double-precision evaluation of the widened weights; (2) the outputs are within a
// bound of the f32 model's, the bound computed from this model's own weight errors:
//   |out_q - out| <= sum_j |dH_kj| |z_j| + sum_j |H_kj| s |dW_j . x'|   (|d cos|, |d sin| <= |d arg|)
// plus float rounding (1e-4 relative).
TEST_CASE("quantized predictions: exact dequantized arithmetic, and within the error bound of the f32 model") {
  struct Case {
    f::MapKind map;
    std::uint32_t grids;
    bool regression;
  };
  for (const Case c : {Case{f::MapKind::kFourier, 0, false}, Case{f::MapKind::kFourierPhase, 0, true},
                       Case{f::MapKind::kOrthogonal, 3, false}, Case{f::MapKind::kFastfood, 0, false}}) {
    const auto bytes = Trained(c.map, c.grids, c.regression);
    const auto ds = Data(c.regression);
    Blob fb(bytes);
    rfk::Model fm;
    REQUIRE(fb.Open(&fm) == Status::kOk);
    const Outputs ref = PredictAll(fb, ds);
    for (f::Storage st : {f::Storage::kF16, f::Storage::kInt8}) {
      const std::string map_name = f::NameOf(c.map), storage_name = f::NameOf(st);
      CAPTURE(map_name);
      CAPTURE(storage_name);
      // Fastfood's map keeps f32 here: its quantized G and S have their own bound
      // (tests/model/test_fastfood_quant.cc); the head is quantized.
      Blob qb(Requantized(bytes, c.map == f::MapKind::kFastfood ? f::Storage::kF32 : st, st));
      rfk::Model m;
      REQUIRE(qb.Open(&m) == Status::kOk);
      const Outputs got = PredictAll(qb, ds);
      const std::uint32_t K = m.num_outputs, D = m.num_features, d = m.input_dim;
      double worst = 0;
      for (std::size_t r = 0; r < ds.rows; ++r) {
        std::vector<double> xs(d);
        for (std::uint32_t k = 0; k < d; ++k)
          xs[k] = fm.mean ? (double(ds.dense[r * d + k]) - fm.mean[k]) * fm.inv_scale[k] : ds.dense[r * d + k];
        const float* z = &got.z[r * D];
        const float* z32 = &ref.z[r * D];
        // (1) features of a dense W: s cos / sin of the widened W's dot product.
        for (std::uint32_t j = 0; m.projection_weights.data && j < m.num_frequencies; ++j) {
          double arg = f::IsPhaseForm(m.map) ? m.phase[j] : 0.0;
          for (std::uint32_t k = 0; k < d; ++k) arg += WAt(m, j, k) * xs[k];
          REQUIRE(z[j] == doctest::Approx(m.feature_scale * std::cos(arg)).epsilon(1e-4).scale(m.feature_scale));
        }
        double bound = 0;
        std::vector<double> dz(D, 0.0);
        for (std::uint32_t j = 0; fm.projection && j < fm.num_frequencies; ++j) {
          double darg = 0;
          for (std::uint32_t k = 0; k < d; ++k) darg += std::fabs((WAt(m, j, k) - WAt(fm, j, k)) * xs[k]);
          dz[j] = fm.feature_scale * darg;
          if (!f::IsPhaseForm(fm.map)) dz[fm.num_frequencies + j] = dz[j];
        }
        for (std::uint32_t k = 0; k < K; ++k) {
          // (1) the head: bias + widened H . z (the features as computed, bins included).
          double out = m.head_bias[k], mag = std::fabs(out);
          double err = 0;
          for (std::uint32_t j = 0; j < D; ++j) {
            const double h = rfk::WeightAt(m.head, std::uint64_t{k} * D + j, k);
            const double h32 = fm.head_weights[std::uint64_t{k} * D + j];
            out += h * z[j];
            mag += std::fabs(h * z[j]);
            err += std::fabs(h - h32) * std::fabs(z32[j]) + std::fabs(h) * dz[j];
          }
          const float o = got.out[r * K + k], o32 = ref.out[r * K + k];
          REQUIRE(std::fabs(double(o) - out) <= 1e-5 * (1 + mag));
          // (2) against the f32 model.
          bound = err + 1e-4 * (1 + mag);
          REQUIRE(std::fabs(double(o) - double(o32)) <= bound);
          worst = std::max(worst, std::fabs(double(o) - double(o32)));
        }
      }
      MESSAGE(std::string(f::NameOf(c.map)) << " " << storage_name << ": largest |output - f32 output| " << worst);
    }
  }
}

TEST_CASE("the reader refuses bad quantized weights with the field and offset") {
  const auto bytes = Trained(f::MapKind::kFourier);
  const auto i8 = Requantized(bytes, f::Storage::kInt8, f::Storage::kInt8);
  rfk::ModelError err;
  Blob good(i8);
  rfk::Model m;
  REQUIRE(good.Open(&m) == Status::kOk);
  const std::uint32_t w_scale = good.U32(good.Entry(f::SectionType::kProjection) + f::entry::kOffset) +
                                static_cast<std::uint32_t>(f::QuantValuesBytes(
                                    f::Storage::kInt8, f::StoredFrequencies(m.layout, m.num_frequencies), m.input_dim));
  const std::uint32_t head = good.U32(good.Entry(f::SectionType::kHead) + f::entry::kOffset);
  const std::uint32_t h_scale =
      head + f::head::kHeaderBytes +
      static_cast<std::uint32_t>(f::QuantValuesBytes(f::Storage::kInt8, m.num_outputs, m.num_features));
  REQUIRE(reinterpret_cast<const std::uint8_t*>(m.projection_weights.scale) == m.bytes + w_scale);
  REQUIRE(reinterpret_cast<const std::uint8_t*>(m.head.scale) == m.bytes + h_scale);
  SUBCASE("zero, negative, NaN and infinite scales") {
    for (float bad : {0.0f, -0.5f, NAN, INFINITY}) {
      for (std::uint32_t at : {w_scale + 4 * 3, h_scale + 4 * 1}) {
        Blob b(i8);
        std::memcpy(b.data() + at, &bad, 4);
        b.FixCrc();
        CHECK(b.Open(nullptr, &err) == Status::kBadValue);
        CHECK(std::string(err.field) == (at == w_scale + 12 ? "projection.scale" : "head.scale"));
        CHECK(err.offset == at);
      }
    }
  }
  SUBCASE("q = -128") {
    Blob b(i8);
    const std::uint32_t w = b.U32(b.Entry(f::SectionType::kProjection) + f::entry::kOffset);
    b.data()[w + 7] = 0x80;
    b.FixCrc();
    CHECK(b.Open(nullptr, &err) == Status::kBadValue);
    CHECK(std::string(err.field) == "projection");
    CHECK(err.offset == w + 7);
  }
  SUBCASE("an f16 infinity or NaN") {
    const auto h16 = Requantized(bytes, f::Storage::kF16, f::Storage::kF16);
    for (std::uint16_t bad : {std::uint16_t{0x7C00}, std::uint16_t{0xFE01}}) {
      for (f::SectionType t : {f::SectionType::kProjection, f::SectionType::kHead}) {
        Blob b(h16);
        const std::uint32_t at = b.U32(b.Entry(t) + f::entry::kOffset) + (t == f::SectionType::kHead ? 16 : 0) + 10;
        b.SetU16(at, bad);
        b.FixCrc();
        CHECK(b.Open(nullptr, &err) == Status::kBadValue);
        CHECK(std::string(err.field) == (t == f::SectionType::kHead ? "head" : "projection"));
        CHECK(err.offset == at);
      }
    }
  }
}

TEST_CASE("the reader refuses storage words that do not match the weights' bytes, with the field and offset") {
  const auto i8 = Requantized(Trained(f::MapKind::kFourier), f::Storage::kInt8, f::Storage::kInt8);
  rfk::ModelError err;
  const Blob good(i8);
  const std::uint32_t head = good.U32(good.Entry(f::SectionType::kHead) + f::entry::kOffset);
  SUBCASE("head.storage: unknown, reserved, and one whose size does not match") {
    for (std::uint32_t v : {6u, 31u, 77u, 4u, 1u, 2u, 5u}) {  // 5: f16-scaled
      CAPTURE(v);
      Blob b(i8);
      b.SetU32(head + f::head::kStorage, v);
      b.FixCrc();
      const Status s = b.Open(nullptr, &err);
      if (v == 4) {
        CHECK(s == Status::kUnsupportedStorage);
      } else if (v == 1 || v == 2 || v == 5) {
        CHECK(s == Status::kBadSectionSize);
        CHECK(std::string(err.field) == "head.size");
        CHECK(err.offset == b.Entry(f::SectionType::kHead) + f::entry::kSize);
        continue;
      } else {
        CHECK(s == Status::kBadValue);
      }
      CHECK(std::string(err.field) == "head.storage");
      CHECK(err.offset == head + f::head::kStorage);
    }
  }
  SUBCASE("map_params.storage whose size does not match W's bytes") {
    Blob b(i8);
    const std::uint32_t mp = b.U32(b.Entry(f::SectionType::kMapParams) + f::entry::kOffset);
    b.SetU32(mp + f::map_params::kStorage, static_cast<std::uint32_t>(f::Storage::kF32));
    b.FixCrc();
    CHECK(b.Open(nullptr, &err) == Status::kBadSectionSize);
    CHECK(std::string(err.field) == "projection.size");
    CHECK(err.offset == b.Entry(f::SectionType::kProjection) + f::entry::kSize);
  }
  SUBCASE("a Fastfood map whose storage says int8 over f32 diagonals: the size does not match") {
    Blob b(Trained(f::MapKind::kFastfood));
    const std::uint32_t mp = b.U32(b.Entry(f::SectionType::kMapParams) + f::entry::kOffset);
    b.SetU32(mp + f::map_params::kStorage, static_cast<std::uint32_t>(f::Storage::kInt8));
    b.FixCrc();
    CHECK(b.Open(nullptr, &err) == Status::kBadSectionSize);
    CHECK(std::string(err.field) == "fastfood.size");
    CHECK(err.offset == b.Entry(f::SectionType::kFastfood) + f::entry::kSize);
  }
}

TEST_CASE("rfk train --storage, rfk convert, inspect, eval, predict and export on quantized models") {
  rfk_test::TempDir tmp;
  std::string csv = "x1,x2,y\n";
  for (int i = 0; i < 400; ++i) {
    const double a = (i % 20) / 10.0, b = (i / 20) / 10.0;
    csv += std::to_string(a) + "," + std::to_string(b) + "," + std::to_string(std::sin(2 * a) + b * b + 0.5) + "\n";
  }
  const std::string data = tmp.Path("d.csv"), cli = RFK_CLI;
  rfk_test::WriteText(data, csv);
  const auto rel_rmse = [&](const std::string& model) {
    const auto ev = rfk_test::Run(cli + " eval -m " + model + " " + data + " --json");
    REQUIRE_MESSAGE(ev.status == 0, ev.err);
    const auto at = ev.out.find("\"rel_rmse\": ");
    REQUIRE(at != std::string::npos);
    return std::strtod(ev.out.c_str() + at + 12, nullptr);
  };
  const std::string f32 = tmp.Path("f32.rfk"), i8 = tmp.Path("i8.rfk"), h16 = tmp.Path("h16.rfk");
  auto r = rfk_test::Run(cli + " train --train " + data + " -D 200 --lambda 1e-6 -q -o " + f32);
  REQUIRE_MESSAGE(r.status == 0, r.err);
  r = rfk_test::Run(cli + " train --train " + data + " -D 200 --lambda 1e-6 -q --storage int8 --head-storage f16 -o " +
                    tmp.Path("t8.rfk"));
  REQUIRE_MESSAGE(r.status == 0, r.err);
  r = rfk_test::Run(cli + " inspect " + tmp.Path("t8.rfk"));
  REQUIRE(r.status == 0);
  CHECK(r.out.find("W storage:       int8, ") != std::string::npos);
  CHECK(r.out.find("head storage:    f16, ") != std::string::npos);

  r = rfk_test::Run(cli + " convert -m " + f32 + " --storage int8 -o " + i8);
  REQUIRE_MESSAGE(r.status == 0, r.err);
  r = rfk_test::Run(cli + " convert -m " + f32 + " --storage f16 -o " + h16);
  REQUIRE_MESSAGE(r.status == 0, r.err);
  const double e32 = rel_rmse(f32), e8 = rel_rmse(i8), e16 = rel_rmse(h16);
  MESSAGE("rel_rmse f32 " << e32 << ", f16 " << e16 << ", int8 " << e8);
  CHECK(e16 <= e32 * 1.01 + 1e-4);
  CHECK(e8 <= e32 * 1.05 + 1e-3);  // the bound: at most 5 % relative RMSE lost

  r = rfk_test::Run(cli + " inspect --json " + i8);
  REQUIRE(r.status == 0);
  CHECK(r.out.find("{\"section\": \"projection\", \"storage\": \"int8\"") != std::string::npos);
  CHECK(r.out.find("\"scale_min\": ") != std::string::npos);

  // Wider than the source: refused, nothing written; an unknown storage: named.
  r = rfk_test::Run(cli + " convert -m " + i8 + " --storage f16 -o " + tmp.Path("no.rfk"));
  CHECK(r.status == 1);
  CHECK(r.err.rfind("rfk: error: ", 0) == 0);
  CHECK(r.err.find("wider f16") != std::string::npos);
  CHECK(r.err.find("convert from the f32 model") != std::string::npos);
  CHECK(!std::filesystem::exists(tmp.Path("no.rfk")));
  r = rfk_test::Run(cli + " convert -m " + f32 + " --storage int4 -o " + tmp.Path("no.rfk"));
  CHECK(r.status == 1);
  CHECK(r.err.find("f32, f16 or int8; got 'int4'") != std::string::npos);
  r = rfk_test::Run(cli + " convert -m " + f32 + " -o " + tmp.Path("no.rfk"));
  CHECK(r.status == 1);
  CHECK(r.err.find("--storage") != std::string::npos);

  r = rfk_test::Run(cli + " predict -m " + i8 + " " + data);
  CHECK(r.status == 0);
  r = rfk_test::Run(cli + " export -m " + i8 + " --c-header " + tmp.Path("m.h") + " --name qmodel --vectors " + data);
  CHECK_MESSAGE(r.status == 0, r.err);
  CHECK(rfk_test::ReadText(tmp.Path("m.h")).find("qmodel") != std::string::npos);
}

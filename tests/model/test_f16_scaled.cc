// f16-scaled heads (docs/FORMAT.md, "Quantized storage"): an f16 head whose weights pass f16's
// range is stored as binary16 elements with one power-of-two f32 scale per output. The writer's
// choice of scale, predictions against the widened arithmetic and the f32 model (Fourier heads,
// bin columns of binning heads), conversions, `rfk convert` / `rfk inspect`, and the reader's
// refusals with field and offset.
#include <doctest/doctest.h>

#include <cmath>
#include <cstring>
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

// 90 rows over 4 columns with a regression target of magnitude `target_scale` (1e7: a head of
// weights far beyond f16's 65504, as Census house_16H's prices give).
rfk::host::Dataset Data(double target_scale) {
  rfk::host::Dataset ds;
  ds.source = "t";
  ds.cols = 4;
  for (int i = 0; i < 90; ++i) {
    for (int c = 0; c < 4; ++c) ds.dense.push_back(float((i * (c + 3)) % 7) + 0.1f * float(c) + 0.01f * float(i));
    ds.labels.push_back(std::to_string(target_scale * (0.1 * (i % 11) + 0.02 * (i % 5))));
    ds.lines.push_back(std::size_t(i) + 1);
    ++ds.rows;
  }
  return ds;
}

// fourier: a dense pair map (F = 20) or none; grids: random binning grids alongside (or alone).
std::vector<std::uint8_t> Trained(double target_scale, bool fourier, std::uint32_t grids) {
  rfk::host::TrainOptions o;
  o.features = 40;
  o.fourier = fourier;
  o.grids = grids;
  if (grids > 0) (fourier ? o.bin_gamma : o.gamma) = 2.0;  // many bins per grid (the default's: one here)
  o.lambda = 1e-8;
  o.task = rfk::host::TaskChoice::kRegression;
  return rfk::host::Train(Data(target_scale), o).model;
}

std::vector<float> PredictAll(Blob& b, const rfk::host::Dataset& ds) {
  rfk::Model m;
  REQUIRE(b.Open(&m) == Status::kOk);
  rfk::host::AlignedBytes scratch(rfk::ScratchBytes(m));
  std::vector<float> out(ds.rows);
  for (std::size_t r = 0; r < ds.rows; ++r)
    REQUIRE(rfk::Predict(m, &ds.dense[r * ds.cols], ds.cols, scratch.data(), scratch.size(), &out[r], 1) ==
            Status::kOk);
  return out;
}

float Largest(const rfk::Model& m) {
  float mx = 0;
  for (std::uint64_t j = 0; j < m.num_features; ++j) mx = std::fmax(mx, std::fabs(rfk::WeightAt(m.head, j, 0)));
  return mx;
}

}  // namespace

TEST_CASE("F16Scale: a power of two that puts a row's largest |w| in f16's top binade") {
  const auto scale = [](std::vector<float> row) { return rfk::host::F16Scale(row.data(), row.size()); };
  CHECK(scale({-96341.8f, 3.0f}) == 2.0f);    // 48170.9
  CHECK(scale({65519.0f}) == 1.0f);           // rounds to 65504
  CHECK(scale({65520.0f}) == 2.0f);           // would round to infinity: 32760
  CHECK(scale({0.75f, -0.1f}) == 0x1p-16f);   // 49152: small rows are scaled up
  CHECK(scale({3.0e38f}) == 0x1p112f);
  CHECK(scale({1e-40f}) == 0x1p-126f);        // the least normal f32 scale
  CHECK(scale({0.0f, -0.0f}) == 1.0f);
  for (float v : {1.0f, 3.7e5f, 6.1e-5f, 1.2e-30f, 2.9e12f}) {
    const float s = scale({v, v / 3});
    int e = 0;
    CHECK(std::frexp(s, &e) == 0.5f);  // a power of two
    CHECK(v / s >= 32768.0f);
    CHECK(v / s <= 65504.0f);
  }
}

TEST_CASE("an f16 head beyond f16's range is stored f16-scaled, one within it stays f16, byte for byte") {
  const auto big = Trained(1e7, true, 0), small = Trained(1.0, true, 0);
  rfk::Model m;
  Blob f32(big);
  REQUIRE(f32.Open(&m) == Status::kOk);
  REQUIRE(Largest(m) > 65520.0f);  // the case this storage is for
  const auto h16 = Requantized(big, f::Storage::kF16, f::Storage::kF16);
  Blob hb(h16);
  REQUIRE(hb.Open(&m) == Status::kOk);
  CHECK(m.head_storage == f::Storage::kF16Scaled);
  CHECK(m.head.type == rfk::WeightType::kF16Scaled);
  REQUIRE(m.head.scale != nullptr);
  const std::uint32_t head = hb.U32(hb.Entry(f::SectionType::kHead) + f::entry::kOffset);
  CHECK(hb.U32(hb.Entry(f::SectionType::kHead) + f::entry::kSize) ==
        f::head::kHeaderBytes + f::QuantMatrixBytes(f::Storage::kF16, 1, m.num_features) + 4 + 4);
  CHECK(reinterpret_cast<const std::uint8_t*>(m.head.scale) ==
        m.bytes + head + f::head::kHeaderBytes + f::QuantValuesBytes(f::Storage::kF16, 1, m.num_features));
  CHECK(Largest(m) / m.head.scale[0] >= 32768.0f);
  // Re-storing as f16 gives the same bytes; int8 is narrower (allowed), f32 wider (refused).
  CHECK(Requantized(h16, f::Storage::kF16, f::Storage::kF16) == h16);
  Blob i8(Requantized(h16, f::Storage::kF16, f::Storage::kInt8));
  REQUIRE(i8.Open(&m) == Status::kOk);
  CHECK(m.head_storage == f::Storage::kInt8);
  CHECK_THROWS_AS(Requantized(h16, f::Storage::kF16, f::Storage::kF32), rfk::host::QuantizeError);
  // Within range: plain f16, no scales, the size and bytes of a head written before f16-scaled.
  Blob sb(Requantized(small, f::Storage::kF16, f::Storage::kF16));
  REQUIRE(sb.Open(&m) == Status::kOk);
  CHECK(m.head_storage == f::Storage::kF16);
  CHECK(m.head.scale == nullptr);
}

// Fourier only, Fourier with bins, bins alone: the f16-scaled outputs are bias + scale * sum of the
// widened halves times the features (within f32 rounding of the double evaluation), and within
// f16's relative rounding (2^-11 of each |w z|) of the f32 model's.
TEST_CASE("f16-scaled predictions: the widened arithmetic, and within f16's rounding of the f32 model") {
  struct Case {
    bool fourier;
    std::uint32_t grids;
  };
  const auto ds = Data(1e7);
  for (const Case c : {Case{true, 0}, Case{true, 3}, Case{false, 5}}) {
    CAPTURE(c.fourier);
    CAPTURE(c.grids);
    const auto bytes = Trained(1e7, c.fourier, c.grids);
    Blob fb(bytes), qb(Requantized(bytes, f::Storage::kF16, f::Storage::kF16));
    rfk::Model fm, m;
    REQUIRE(fb.Open(&fm) == Status::kOk);
    REQUIRE(qb.Open(&m) == Status::kOk);
    REQUIRE(m.head_storage == f::Storage::kF16Scaled);
    const std::vector<float> want = PredictAll(fb, ds), got = PredictAll(qb, ds);
    rfk::host::AlignedBytes scratch(rfk::ScratchBytes(m));
    std::vector<float> z(m.num_features);
    for (std::size_t r = 0; r < ds.rows; ++r) {
      REQUIRE(rfk::ComputeFeatures(m, &ds.dense[r * ds.cols], ds.cols, scratch.data(), scratch.size(), z.data(),
                                   m.num_features) == Status::kOk);
      double out = m.head_bias[0], mag = std::fabs(out), bound = 0;
      for (std::uint32_t j = 0; j < m.num_features; ++j) {
        const double h = double(m.head.scale[0]) * rfk::HalfToFloat(static_cast<const std::uint16_t*>(m.head.data)[j]);
        CHECK(h == rfk::WeightAt(m.head, j, 0));
        out += h * z[j];
        mag += std::fabs(h * z[j]);
        bound += std::fabs(double(fm.head_weights[j]) * z[j]) * 0x1p-11;
      }
      REQUIRE(std::fabs(got[r] - out) <= 1e-5 * (1 + mag));
      REQUIRE(std::fabs(double(got[r]) - want[r]) <= bound + 1e-5 * (1 + mag));
    }
  }
}

TEST_CASE("the reader refuses bad f16-scaled heads with the field and offset") {
  const auto h16 = Requantized(Trained(1e7, true, 0), f::Storage::kF16, f::Storage::kF16);
  Blob good(h16);
  rfk::Model m;
  rfk::ModelError err;
  REQUIRE(good.Open(&m) == Status::kOk);
  REQUIRE(m.head_storage == f::Storage::kF16Scaled);
  const std::uint32_t head = good.U32(good.Entry(f::SectionType::kHead) + f::entry::kOffset);
  const auto scale_at = static_cast<std::uint32_t>(reinterpret_cast<const std::uint8_t*>(m.head.scale) - m.bytes);
  SUBCASE("zero (either sign), negative, NaN and infinite scales") {
    for (float bad : {0.0f, -0.0f, -2.0f, NAN, INFINITY, -INFINITY}) {
      Blob b(h16);
      std::memcpy(b.data() + scale_at, &bad, 4);
      b.FixCrc();
      CHECK(b.Open(nullptr, &err) == Status::kBadValue);
      CHECK(std::string(err.field) == "head.scale");
      CHECK(err.offset == scale_at);
    }
  }
  SUBCASE("an f16 infinity or NaN among the elements") {
    for (std::uint16_t bad : {std::uint16_t{0x7C00}, std::uint16_t{0xFC00}, std::uint16_t{0x7E01}}) {
      Blob b(h16);
      const std::uint32_t at = head + f::head::kHeaderBytes + 2 * 7;
      b.SetU16(at, bad);
      b.FixCrc();
      CHECK(b.Open(nullptr, &err) == Status::kBadValue);
      CHECK(std::string(err.field) == "head");
      CHECK(err.offset == at);
    }
  }
  SUBCASE("head.storage f16 or int8 over an f16-scaled head: the size does not match") {
    for (f::Storage st : {f::Storage::kF16, f::Storage::kInt8, f::Storage::kF32}) {
      Blob b(h16);
      b.SetU32(head + f::head::kStorage, static_cast<std::uint32_t>(st));
      b.FixCrc();
      CHECK(b.Open(nullptr, &err) == Status::kBadSectionSize);
      CHECK(std::string(err.field) == "head.size");
      CHECK(err.offset == b.Entry(f::SectionType::kHead) + f::entry::kSize);
    }
  }
  SUBCASE("f16-scaled is a head's storage only: map_params.storage and standardize.storage refuse it") {
    Blob b(h16);
    const std::uint32_t mp = b.U32(b.Entry(f::SectionType::kMapParams) + f::entry::kOffset);
    b.SetU32(mp + f::map_params::kStorage, static_cast<std::uint32_t>(f::Storage::kF16Scaled));
    b.FixCrc();
    CHECK(b.Open(nullptr, &err) == Status::kUnsupportedStorage);
    CHECK(std::string(err.field) == "map_params.storage");
    CHECK(err.offset == mp + f::map_params::kStorage);
    Blob s(h16);
    const std::size_t entry = s.Entry(f::SectionType::kStandardize);
    REQUIRE(entry != 0);
    s.SetU32(entry + f::entry::kStorage, static_cast<std::uint32_t>(f::Storage::kF16Scaled));
    s.FixCrc();
    CHECK(s.Open(nullptr, &err) == Status::kUnsupportedStorage);
    CHECK(std::string(err.field) == "standardize.storage");
    CHECK(err.offset == entry + f::entry::kStorage);
  }
}

TEST_CASE("rfk train / convert --storage f16 on a head beyond f16's range, and inspect shows its scales") {
  rfk_test::TempDir tmp;
  std::string csv = "x1,x2,y\n";
  for (int i = 0; i < 300; ++i) {
    const double a = (i % 20) / 10.0, b = (i / 20) / 10.0;
    csv += std::to_string(a) + "," + std::to_string(b) + "," + std::to_string(1e7 * (std::sin(2 * a) + b * b)) + "\n";
  }
  const std::string data = tmp.Path("d.csv"), cli = RFK_CLI;
  rfk_test::WriteText(data, csv);
  const std::string f32 = tmp.Path("f32.rfk"), h16 = tmp.Path("h16.rfk"), t16 = tmp.Path("t16.rfk");
  auto r = rfk_test::Run(cli + " train --train " + data + " -D 100 --lambda 1e-9 -q --no-standardize -o " + f32);
  REQUIRE_MESSAGE(r.status == 0, r.err);
  r = rfk_test::Run(cli + " convert -m " + f32 + " --storage f16 -o " + h16);
  REQUIRE_MESSAGE(r.status == 0, r.err);
  CHECK(r.err.find("head f16-scaled") != std::string::npos);
  r = rfk_test::Run(cli + " train --train " + data + " -D 100 --lambda 1e-9 -q --no-standardize --storage f16 -o " +
                    t16);
  REQUIRE_MESSAGE(r.status == 0, r.err);
  for (const std::string& model : {h16, t16}) {
    r = rfk_test::Run(cli + " inspect " + model);
    REQUIRE(r.status == 0);
    CHECK(r.out.find("head storage:    f16-scaled, ") != std::string::npos);
    CHECK(r.out.find(", scales ") != std::string::npos);
    r = rfk_test::Run(cli + " inspect --json " + model);
    REQUIRE(r.status == 0);
    CHECK(r.out.find("{\"section\": \"head\", \"storage\": \"f16-scaled\"") != std::string::npos);
    CHECK(r.out.find("\"scale_min\": ") != std::string::npos);
  }
}

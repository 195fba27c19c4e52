// Shared by the fixed-point tests (test_fixed_predict.cc, test_fixed_binning.cc, test_fixed_fastfood.cc): data, trained
// and converted models, an opened fixed model's section, and PredictFixed's outputs computed here by
// other means (the reference).
#pragma once

#include <doctest/doctest.h>

#include <climits>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "core/bin_hash.h"
#include "rfk/fixed.hpp"
#include "rfk/host/fixed.hpp"
#include "rfk/host/train.hpp"
#include "test_util.h"

namespace fixed_util {

namespace f = rfk::format;
namespace fp = rfk::format::fixed_params;
using rfk_test::Blob;
__extension__ typedef __int128 Wide;  // the reference's head sums: no overflow whatever the bounds

// Deterministic rows: d columns on different scales, labels from a nonlinear rule (classes = 0:
// a real target).
inline rfk::host::Dataset Data(std::size_t d, std::size_t rows, int classes, unsigned seed = 3) {
  rfk::host::Dataset ds;
  ds.source = "t";
  ds.cols = d;
  std::mt19937 gen(seed);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  for (std::size_t i = 0; i < rows; ++i) {
    float s = 0;
    for (std::size_t c = 0; c < d; ++c) {
      const float v = u(gen) * float(c + 1) + float(c);
      ds.dense.push_back(v);
      s += std::sin(v / float(c + 1) * 2.0f);
    }
    ds.labels.push_back(classes == 0 ? std::to_string(s) : std::to_string(int(std::fabs(s) * 3) % classes));
    ds.lines.push_back(i + 1);
    ++ds.rows;
  }
  return ds;
}

inline std::vector<std::uint8_t> Trained(const rfk::host::Dataset& ds, f::MapKind map, std::uint32_t features,
                                  f::Storage storage = f::Storage::kF32) {
  rfk::host::TrainOptions o;
  o.features = features;
  o.map = map;
  o.w_storage = o.head_storage = storage;
  return rfk::host::Train(ds, o).model;
}

inline std::vector<std::uint8_t> Fixed(const std::vector<std::uint8_t>& bytes, const rfk::host::Dataset& ds,
                                rfk::host::FixedReport* rep = nullptr) {
  Blob b(bytes);
  rfk::Model m;
  REQUIRE(b.Open(&m) == rfk::Status::kOk);
  return rfk::host::FixedModel(m, ds, rep);
}

// An opened fixed model in mutable storage, and where its section's arrays are.
struct Fx {
  explicit Fx(const std::vector<std::uint8_t>& bytes) : b(bytes) {
    REQUIRE(b.Open(&m) == rfk::Status::kOk);
    REQUIRE(rfk::FixedSection(m) != nullptr);
    entry = b.Entry(f::SectionType::kFixed);
    at = b.U32(entry + f::entry::kOffset);
    l = fp::LayoutOf(m.input_dim, m.num_frequencies, m.num_outputs, m.num_features, !f::IsFastfood(m.map));
  }
  rfk::ModelError Reopen() {
    b.FixCrc();
    rfk::ModelError err;
    (void)b.Open(&m, &err);
    return err;
  }
  template <class T>
  void Set(std::uint64_t rel, T v) { std::memcpy(b.data() + at + rel, &v, sizeof v); }
  template <class T>
  T Get(std::uint64_t rel) const {
    T v;
    std::memcpy(&v, b.storage.data() + at + rel, sizeof v);
    return v;
  }
  Blob b;
  rfk::Model m;
  std::size_t entry = 0, at = 0;
  fp::Layout l{};
};

// floor(num / 2^n) by a division that truncates, corrected: not by a shift.
inline std::int64_t FloorDiv(std::int64_t num, std::uint32_t n) {
  const std::int64_t den = std::int64_t{1} << n;
  std::int64_t q = num / den;
  if (num % den != 0 && num < 0) --q;
  return q;
}

// The bin of x in (grid, column) i of the binning tail, in 64 bits: base + floor((mult x + frac) / 2^shift).
inline std::int64_t BinRef(const Fx& fx, std::uint64_t i, std::int16_t x) {
  const fp::binning::Layout t = rfk::fixed::BinningLayout(fx.m);
  const std::int64_t num = std::int64_t{fx.Get<std::uint16_t>(t.mult + 2 * i)} * x + fx.Get<std::uint32_t>(t.frac + 4 * i);
  return fx.Get<std::int32_t>(t.base + 4 * i) + FloorDiv(num, fx.Get<std::uint8_t>(t.shift + i));
}

// Grid p's column for x by other means than fixed_predict_binning.cc: BinRef's bins, the float map's hash
// (bin_hash.h, shared by design: the keys must be the float path's), then a linear scan of the
// grid's keys (exact mode) or the bucket as the format defines it (hashed mode).
inline std::uint32_t ColumnRef(const Fx& fx, const std::vector<std::int16_t>& x, std::uint32_t p) {
  const rfk::Model& m = fx.m;
  std::uint64_t h = rfk::bin_hash::Seed(m.bin_seed, p);
  for (std::uint32_t c = 0; c < m.input_dim; ++c) {
    const std::int64_t bin = BinRef(fx, std::uint64_t{p} * m.input_dim + c, x[c]);
    REQUIRE(bin >= INT32_MIN);
    REQUIRE(bin <= INT32_MAX);
    h = rfk::bin_hash::Step(h, static_cast<std::int32_t>(bin));
  }
  const std::uint64_t key = rfk::bin_hash::Final(h);
  if (m.bin_mode == f::BinMode::kHashed)
    return p * m.bin_buckets + static_cast<std::uint32_t>((key >> 32) * m.bin_buckets >> 32);
  std::uint32_t lo, hi;
  std::memcpy(&lo, m.bin_grid_start + 4 * p, 4);
  std::memcpy(&hi, m.bin_grid_start + 4 * p + 4, 4);
  for (std::uint32_t j = lo; j < hi; ++j)
    if (m.bin_keys[j] == key) return j;
  return rfk::kNoColumn;
}

// The outputs by other means than fixed_predict.cc: the phase as a signed 64-bit sum reduced
// modulo 2^32 at the end, the features from CosTurns (tested on its own in test_fixed.cc), each
// grid's column from ColumnRef with the feature 32767, the head sum in 128 bits and the rounding as
// a floor division of the exact product.
inline std::vector<std::int64_t> Reference(const Fx& fx, const std::vector<std::int16_t>& x) {
  const rfk::Model& m = fx.m;
  const std::uint64_t d = m.input_dim, F = m.num_frequencies, K = m.num_outputs, D = m.num_features;
  std::vector<std::int64_t> z(D);
  for (std::uint32_t p = 0; p < m.num_grids; ++p) {
    const std::uint32_t col = ColumnRef(fx, x, p);
    if (col != rfk::kNoColumn) z[m.fourier_features + col] = 32767;
  }
  for (std::uint64_t j = 0; j < F; ++j) {
    std::int64_t sum = 0;
    for (std::uint64_t c = 0; c < d; ++c) sum += std::int64_t{fx.Get<std::int16_t>(fx.l.w + 2 * (j * d + c))} * x[c];
    const std::uint64_t scaled = static_cast<std::uint64_t>(sum) * (std::uint64_t{1} << fx.Get<std::uint8_t>(fx.l.shift + j));
    const auto t = static_cast<std::uint32_t>((scaled + fx.Get<std::uint32_t>(fx.l.phase + 4 * j)) % (std::uint64_t{1} << 32));
    z[j] = rfk::fixed::CosTurns(t);
    if (m.fourier_features == 2 * F) z[F + j] = rfk::fixed::CosTurns(t - 0x40000000u);
  }
  std::vector<std::int64_t> out(K);
  for (std::uint64_t k = 0; k < K; ++k) {
    Wide acc = 0;
    for (std::uint64_t j = 0; j < D; ++j) acc += Wide{fx.Get<std::int8_t>(fx.l.head + k * D + j)} * z[j];
    const Wide v = acc * fx.Get<std::uint32_t>(fx.l.mult + 4 * k);
    const std::uint32_t n = fx.Get<std::uint32_t>(fx.l.rshift + 4 * k);
    const Wide den = Wide{1} << n, num = v + (n ? den / 2 : 0);
    Wide q = num / den;
    if (num % den != 0 && num < 0) --q;  // floor
    out[k] = static_cast<std::int64_t>(q) + fx.Get<std::int32_t>(fx.l.bias + 4 * k);
  }
  return out;
}

inline std::vector<std::int32_t> Predict(const rfk::Model& m, const std::vector<std::int16_t>& x, rfk::Status want = rfk::Status::kOk) {
  std::vector<std::uint64_t> scratch(rfk::FixedScratchBytes(m) / 8 + 2);
  std::vector<std::int32_t> out(m.num_outputs, 0);
  CHECK(rfk::PredictFixed(m, x.data(), x.size(), scratch.data(), rfk::FixedScratchBytes(m), out.data(), out.size()) == want);
  return out;
}

// Inputs: the calibration rows converted, then random int16 values and the extremes.
inline std::vector<std::vector<std::int16_t>> Inputs(const rfk::Model& m, const rfk::host::Dataset& ds) {
  std::vector<std::vector<std::int16_t>> xs;
  for (std::size_t r = 0; r < 20; ++r) {
    std::vector<std::int16_t> xq(m.input_dim);
    REQUIRE(rfk::QuantizeInput(m, ds.dense.data() + r * ds.cols, ds.cols, xq.data(), xq.size()) == rfk::Status::kOk);
    xs.push_back(xq);
  }
  std::mt19937 gen(11);
  std::uniform_int_distribution<int> u(-32768, 32767);
  for (int r = 0; r < 20; ++r) {
    std::vector<std::int16_t> xq(m.input_dim);
    for (auto& v : xq) v = static_cast<std::int16_t>(u(gen));
    xs.push_back(xq);
  }
  xs.emplace_back(m.input_dim, std::int16_t{-32768});
  xs.emplace_back(m.input_dim, std::int16_t{32767});
  return xs;
}

}  // namespace fixed_util

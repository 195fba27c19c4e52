// Random binning on the integer path (rfk/fixed.hpp BinIndex, FixedBinColumn; the fixed section's
// binning tail): the bin index against exact floor division, PredictFixed against the reference of
// fixed_util.h on binning fixtures (binning alone, Fourier + binning; hashed and exact; regression
// and classification), every tail field corrupted, fixed-only models, agreement with the f32 model,
// and the CLI end to end.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "fixed_util.h"
#include "rfk/fixed.hpp"
#include "rfk/host/fixed.hpp"
#include "rfk/host/train.hpp"
#include "rfk/rfk.h"
#include "test_util.h"

namespace {

namespace f = rfk::format;
namespace fp = rfk::format::fixed_params;
namespace fb = rfk::format::fixed_params::binning;
using rfk_test::Blob;
using namespace fixed_util;

// A trained model: P grids (B buckets, 0: exact mode), with a Fourier map of `features` or none.
std::vector<std::uint8_t> Binned(const rfk::host::Dataset& ds, std::uint32_t grids, std::uint32_t buckets,
                                 std::uint32_t features) {
  rfk::host::TrainOptions o;
  o.fourier = features != 0;
  o.features = features != 0 ? features : 2;
  o.grids = grids;
  o.buckets = buckets;
  // The data-scale gamma and the fallback lambda: what these tests compare (the integer path with
  // the float model it came from) holds for any pair, and the defaults' cross-validation of both
  // (binning's CG solves, 3 folds, 40 points) took 5 s here in Release and 35 s under ASan.
  o.gamma = 0.0;
  o.lambda = rfk::host::kFallbackLambda;
  return rfk::host::Train(ds, o).model;
}

std::int64_t Exact(std::int64_t x, std::uint32_t mult, std::uint32_t shift, std::uint32_t frac, std::int32_t base) {
  return base + FloorDiv(std::int64_t{mult} * x + frac, shift);
}

}  // namespace

TEST_CASE("fixed binning: BinIndex is base + floor((mult x + frac) / 2^shift) for every int16 input") {
  struct P {
    std::uint32_t mult, shift, frac;
    std::int32_t base;
  };
  std::vector<P> ps = {{1, 2, 0, 0},          {3, 5, 7, -4},        {1u << 15, 0, 0, 1 << 30},
                       {1u << 15, 0, 0, -(1 << 30)}, {1u << 15, 30, (1u << 30) - 1, 1 << 30},
                       {1u << 15, 30, (1u << 30) - 1, -(1 << 30)}, {0, 30, 12345, 17},
                       {1, 30, (1u << 30) - 1, 0}, {20000, 15, 32767, -3}};
  std::mt19937 gen(7);
  for (int i = 0; i < 24; ++i) {
    const auto shift = static_cast<std::uint32_t>(gen() % 31);
    const auto mult = static_cast<std::uint32_t>(gen() % ((1u << 15) + 1));
    const auto frac = static_cast<std::uint32_t>(gen() & ((std::uint64_t{1} << shift) - 1));
    const auto base = static_cast<std::int32_t>(static_cast<std::int64_t>(gen() % (2u << 30)) - (1 << 30));
    ps.push_back({mult, shift, frac, base});
  }
  for (const P& p : ps) {
    CAPTURE(p.mult);
    CAPTURE(p.shift);
    CAPTURE(p.frac);
    CAPTURE(p.base);
    std::size_t bad = 0;
    for (std::int32_t x = -32768; x <= 32767; ++x)
      bad += rfk::fixed::BinIndex(static_cast<std::int16_t>(x), p.mult, p.shift, p.frac, p.base) !=
             Exact(x, p.mult, p.shift, p.frac, p.base);
    CHECK(bad == 0);
  }
  // Width 4 input units: floor, not truncation, below 0; a boundary belongs to the bin it starts.
  CHECK(rfk::fixed::BinIndex(-1, 1, 2, 0, 0) == -1);
  CHECK(rfk::fixed::BinIndex(-4, 1, 2, 0, 0) == -1);
  CHECK(rfk::fixed::BinIndex(-5, 1, 2, 0, 0) == -2);
  CHECK(rfk::fixed::BinIndex(3, 1, 2, 0, 0) == 0);
  CHECK(rfk::fixed::BinIndex(4, 1, 2, 0, 0) == 1);
  CHECK(rfk::fixed::BinIndex(-32768, 1, 2, 0, 0) == -8192);
  CHECK(rfk::fixed::BinIndex(32767, 1, 2, 0, 0) == 8191);
  // Width 4/3 with boundary 0 at x = -1 (frac = mult / 2^shift, one input unit): x = -1 starts bin 0.
  CHECK(rfk::fixed::BinIndex(-1, 3, 2, 3, 0) == 0);
  CHECK(rfk::fixed::BinIndex(-2, 3, 2, 3, 0) == -1);
  // The extremes the validator admits reach the int32 range's ends without overflow.
  CHECK(rfk::fixed::BinIndex(-32768, 1u << 15, 0, 0, -(1 << 30)) == std::numeric_limits<std::int32_t>::min());
  CHECK(rfk::fixed::BinIndex(32767, 1u << 15, 0, 0, 1 << 30) == std::numeric_limits<std::int32_t>::max() - 32767);
}

TEST_CASE("fixed binning: PredictFixed gives the reference's integers (alone and with Fourier, hashed and exact)") {
  struct Case {
    std::uint32_t grids, buckets, features;
    int classes;
  };
  for (const Case c : {Case{8, 16, 0, 0}, Case{6, 0, 0, 3}, Case{5, 8, 16, 2}, Case{4, 0, 16, 0}, Case{3, 0, 0, 2}}) {
    CAPTURE(c.grids);
    CAPTURE(c.buckets);
    CAPTURE(c.features);
    CAPTURE(c.classes);
    const rfk::host::Dataset ds = Data(3, 200, c.classes);
    Fx fx(Fixed(Binned(ds, c.grids, c.buckets, c.features), ds));
    REQUIRE(fx.m.num_grids == c.grids);
    CHECK(fx.b.U32(fx.entry + f::entry::kSize) == rfk::fixed::BinningLayout(fx.m).bytes);
    std::size_t hit = 0, total = 0;
    for (const auto& x : Inputs(fx.m, ds)) {
      const std::vector<std::int32_t> got = Predict(fx.m, x);
      const std::vector<std::int64_t> want = Reference(fx, x);
      for (std::size_t k = 0; k < want.size(); ++k) CHECK(got[k] == want[k]);
      for (std::uint32_t p = 0; p < fx.m.num_grids; ++p) {
        CHECK(rfk::FixedBinColumn(fx.m, x.data(), p) == ColumnRef(fx, x, p));
        hit += ColumnRef(fx, x, p) != rfk::kNoColumn;
        ++total;
      }
      rfk_model cm;
      REQUIRE(rfk_open(&cm, fx.b.data(), fx.b.size(), nullptr) == RFK_OK);
      std::vector<std::uint64_t> scratch(rfk_fixed_scratch_bytes(&cm) / 8 + 2);
      std::vector<std::int32_t> out(fx.m.num_outputs);
      REQUIRE(rfk_predict_fixed(&cm, x.data(), x.size(), scratch.data(), rfk_fixed_scratch_bytes(&cm), out.data(),
                                out.size()) == RFK_OK);
      CHECK(out == got);
    }
    // The calibration rows' bins are the ones training saw (exact mode finds them), the random
    // inputs' mostly not.
    CHECK(hit > total / 3);
    CHECK(rfk::FixedBinColumn(fx.m, Inputs(fx.m, ds)[0].data(), fx.m.num_grids) == rfk::kNoColumn);
  }
}

TEST_CASE("fixed binning: a hand-set tail gives the hand-computed output") {
  const rfk::host::Dataset ds = Data(2, 100, 0);
  Fx fx(Fixed(Binned(ds, 1, 4, 0), ds));  // P = 1, B = 4, d = 2, D = 4, regression
  const fb::Layout t = rfk::fixed::BinningLayout(fx.m);
  // Column 0: bins of 1024 input units from x = 0 (mult 1, shift 10); column 1: a constant bin 5.
  fx.Set<std::uint16_t>(t.mult, 1);
  fx.Set<std::uint8_t>(t.shift, 10);
  fx.Set<std::uint32_t>(t.frac, 0);
  fx.Set<std::int32_t>(t.base, 0);
  fx.Set<std::uint16_t>(t.mult + 2, 0);
  fx.Set<std::uint8_t>(t.shift + 1, 0);
  fx.Set<std::uint32_t>(t.frac + 4, 0);
  fx.Set<std::int32_t>(t.base + 4, 5);
  const std::int8_t q[4] = {10, -20, 30, -40};
  for (int j = 0; j < 4; ++j) fx.Set<std::int8_t>(fx.l.head + j, q[j]);
  fx.Set<std::uint32_t>(fx.l.mult, 1);
  fx.Set<std::uint32_t>(fx.l.rshift, 0);
  fx.Set<std::int32_t>(fx.l.bias, 3);
  REQUIRE(fx.Reopen().status == rfk::Status::kOk);
  for (const std::int16_t x0 : {std::int16_t{-1}, std::int16_t{0}, std::int16_t{1023}, std::int16_t{1024}, std::int16_t{-32768}}) {
    CAPTURE(x0);
    const std::int32_t bin = x0 >= 0 ? x0 / 1024 : -((-x0 + 1023) / 1024);  // floor(x0 / 1024)
    std::uint64_t h = rfk::bin_hash::Seed(fx.m.bin_seed, 0);
    h = rfk::bin_hash::Final(rfk::bin_hash::Step(rfk::bin_hash::Step(h, bin), 5));
    const std::uint32_t col = static_cast<std::uint32_t>((h >> 32) * 4 >> 32);
    CHECK(rfk::FixedBinColumn(fx.m, std::vector<std::int16_t>{x0, 77}.data(), 0) == col);
    CHECK(Predict(fx.m, {x0, 77})[0] == 3 + q[col] * 32767);
  }
}

TEST_CASE("fixed binning: every field of the tail corrupted is refused with its name and offset") {
  const rfk::host::Dataset ds = Data(3, 100, 3);
  const std::vector<std::uint8_t> good = Fixed(Binned(ds, 4, 0, 8), ds);  // exact mode, with Fourier
  struct Mutation {
    const char* field;
    void (*apply)(Fx&, const fb::Layout&);
    std::uint64_t (*where)(const fb::Layout&);  // expected offset from the section's start
  };
  const Mutation mutations[] = {
      {"fixed.num_grids", [](Fx& x, const fb::Layout& t) { x.Set<std::uint32_t>(t.at + fb::kNumGrids, 5); },
       [](const fb::Layout& t) -> std::uint64_t { return t.at + fb::kNumGrids; }},
      {"fixed.bin_features", [](Fx& x, const fb::Layout& t) { x.Set<std::uint32_t>(t.at + fb::kBinFeatures, 0); },
       [](const fb::Layout& t) -> std::uint64_t { return t.at + fb::kBinFeatures; }},
      {"fixed.bin_mult", [](Fx& x, const fb::Layout& t) { x.Set<std::uint16_t>(t.mult + 6, (1u << 15) + 1); },
       [](const fb::Layout& t) -> std::uint64_t { return t.mult + 6; }},
      {"fixed.bin_shift", [](Fx& x, const fb::Layout& t) { x.Set<std::uint8_t>(t.shift + 5, 31); },
       [](const fb::Layout& t) -> std::uint64_t { return t.shift + 5; }},
      {"fixed.bin_frac", [](Fx& x, const fb::Layout& t) {
         x.Set<std::uint32_t>(t.frac + 8, std::uint32_t{1} << x.Get<std::uint8_t>(t.shift + 2));
       }, [](const fb::Layout& t) -> std::uint64_t { return t.frac + 8; }},
      {"fixed.bin_base", [](Fx& x, const fb::Layout& t) { x.Set<std::int32_t>(t.base + 4, (1 << 30) + 1); },
       [](const fb::Layout& t) -> std::uint64_t { return t.base + 4; }},
      {"fixed.bin_base", [](Fx& x, const fb::Layout& t) { x.Set<std::int32_t>(t.base + 44, -(1 << 30) - 1); },
       [](const fb::Layout& t) -> std::uint64_t { return t.base + 44; }},
  };
  for (const Mutation& mu : mutations) {
    CAPTURE(mu.field);
    Fx fx(good);
    const fb::Layout t = rfk::fixed::BinningLayout(fx.m);
    mu.apply(fx, t);
    const rfk::ModelError err = fx.Reopen();
    CHECK(err.status == rfk::Status::kBadValue);
    CHECK(std::string(err.field) == mu.field);
    CHECK(err.offset == fx.at + mu.where(t));
  }
  // The edges the validator admits: mult 2^15, shift 30, frac 2^30 - 1, base +-2^30.
  Fx fx(good);
  const fb::Layout t = rfk::fixed::BinningLayout(fx.m);
  fx.Set<std::uint16_t>(t.mult, 1u << 15);
  fx.Set<std::uint8_t>(t.shift, 30);
  fx.Set<std::uint32_t>(t.frac, (1u << 30) - 1);
  fx.Set<std::int32_t>(t.base, 1 << 30);
  fx.Set<std::int32_t>(t.base + 4, -(1 << 30));
  CHECK(fx.Reopen().status == rfk::Status::kOk);
  // The size: the dense part's alone (the tail missing) and one byte short of the tail's end.
  for (const std::uint64_t size : {fx.l.bytes, t.bytes - 4}) {
    Fx cut(good);
    cut.b.SetU32(cut.entry + f::entry::kSize, static_cast<std::uint32_t>(size));
    const rfk::ModelError err = cut.Reopen();
    CHECK(err.status == rfk::Status::kBadSectionSize);
    CHECK(std::string(err.field) == "fixed.size");
    CHECK(err.offset == cut.entry + f::entry::kSize);
  }
}

TEST_CASE("fixed binning: a fixed-only model drops the float grids and keeps the integers, and the float path refuses it") {
  for (const std::uint32_t buckets : {0u, 32u}) {
    CAPTURE(buckets);
    const rfk::host::Dataset ds = Data(3, 200, 2);
    const std::vector<std::uint8_t> plain = Binned(ds, 6, buckets, 0);
    const std::vector<std::uint8_t> full = Fixed(plain, ds), only = [&] {
      Blob b(plain);
      rfk::Model m;
      REQUIRE(b.Open(&m) == rfk::Status::kOk);
      return rfk::host::FixedModel(m, ds, nullptr, true);
    }();
    Fx a(full), b(only);
    CHECK(b.b.Entry(f::SectionType::kBinGrids) == 0);
    CHECK(b.m.bin_inv_width == nullptr);
    CHECK(only.size() < full.size());
    const std::uint64_t bytes = rfk::fixed::BinningLayout(a.m).bytes;
    CHECK(std::memcmp(rfk::FixedSection(a.m), rfk::FixedSection(b.m), bytes) == 0);
    for (const auto& x : Inputs(b.m, ds)) CHECK(Predict(a.m, x) == Predict(b.m, x));
    std::vector<std::uint64_t> scratch(rfk::ScratchBytes(b.m) / 8 + 2);
    std::vector<float> out(b.m.num_outputs);
    std::vector<std::uint64_t> keys(b.m.num_grids);
    std::vector<std::uint32_t> cols(b.m.num_grids);
    CHECK(rfk::Predict(b.m, ds.dense.data(), 3, scratch.data(), rfk::ScratchBytes(b.m), out.data(), out.size()) ==
          rfk::Status::kUnsupportedStorage);
    CHECK(rfk::ComputeBins(b.m, ds.dense.data(), 3, scratch.data(), rfk::ScratchBytes(b.m), keys.data(), cols.data(),
                           cols.size()) == rfk::Status::kUnsupportedStorage);
    // Without its fixed section the model is missing its grids.
    b.b.SetU16(b.entry + f::entry::kType, 30);
    b.b.SetU16(b.entry + f::entry::kFlags, 0);
    const rfk::ModelError err = b.Reopen();
    CHECK(err.status == rfk::Status::kMissingSection);
    CHECK(std::string(err.field) == "bin_grids");
  }
}

TEST_CASE("fixed binning: decisions and outputs agree with the f32 model they came from") {
  struct Case {
    std::uint32_t grids, buckets, features;
    int classes;
    double rel;  // bound on the outputs' relative RMS change
  };
  for (const Case c : {Case{30, 0, 0, 2, 0.03}, Case{30, 64, 0, 0, 0.03}, Case{20, 0, 64, 3, 0.05}}) {
    CAPTURE(c.grids);
    CAPTURE(c.buckets);
    CAPTURE(c.classes);
    const rfk::host::Dataset ds = Data(4, 600, c.classes, 5);
    const std::vector<std::uint8_t> plain = Binned(ds, c.grids, c.buckets, c.features);
    rfk::host::FixedReport rep;
    Fx fx(Fixed(plain, ds, &rep));
    CHECK(rep.clamped_bins == 0);
    Blob src(plain);
    rfk::Model m0;
    REQUIRE(src.Open(&m0) == rfk::Status::kOk);
    std::vector<std::uint64_t> scratch(rfk::ScratchBytes(m0) / 8 + 2);
    std::vector<float> o(m0.num_outputs);
    std::vector<std::uint64_t> keys(m0.num_grids);
    std::vector<std::uint32_t> cols(m0.num_grids);
    std::vector<std::int16_t> xq(4);
    std::size_t same = 0, same_bins = 0;
    double err2 = 0, y2 = 0;
    for (std::size_t r = 0; r < ds.rows; ++r) {
      const float* x = ds.dense.data() + r * 4;
      REQUIRE(rfk::Predict(m0, x, 4, scratch.data(), rfk::ScratchBytes(m0), o.data(), o.size()) == rfk::Status::kOk);
      REQUIRE(rfk::ComputeBins(m0, x, 4, scratch.data(), rfk::ScratchBytes(m0), keys.data(), cols.data(), cols.size()) ==
              rfk::Status::kOk);
      REQUIRE(rfk::QuantizeInput(fx.m, x, 4, xq.data(), 4) == rfk::Status::kOk);
      for (std::uint32_t p = 0; p < m0.num_grids; ++p) same_bins += rfk::FixedBinColumn(fx.m, xq.data(), p) == cols[p];
      const std::vector<std::int32_t> q = Predict(fx.m, xq);
      same += rfk::DecideClassRaw(m0, o.data()) == rfk::DecideClassFixed(fx.m, q.data()) ? 1 : 0;
      const double real = q[0] * double(rfk::FixedOutputScale(fx.m));
      err2 += (real - o[0]) * (real - o[0]);
      y2 += double(o[0]) * o[0];
    }
    // Bins move by at most about one input unit: nearly every row lands in the float map's bin.
    CHECK(same_bins >= std::size_t{ds.rows} * c.grids * 998 / 1000);
    if (c.classes != 0) CHECK(same >= ds.rows * 98 / 100);
    CHECK(std::sqrt(err2 / y2) < c.rel);
  }
}

TEST_CASE("fixed binning: rfk convert --fixed-only, then eval, predict and export through the integer path") {
  rfk_test::TempDir tmp;
  const std::string cli = RFK_CLI, train = tmp.Path("t.csv"), model = tmp.Path("m.rfk"), only = tmp.Path("o.rfk");
  const rfk::host::Dataset ds = Data(2, 200, 2);
  std::string csv;
  for (std::size_t r = 0; r < ds.rows; ++r)
    csv += std::to_string(ds.dense[2 * r]) + "," + std::to_string(ds.dense[2 * r + 1]) + "," + ds.labels[r] + "\n";
  rfk_test::WriteText(train, csv);
  REQUIRE(rfk_test::Run(cli + " train --train " + train + " --map binning -P 8 -B 16 -o " + model).status == 0);
  rfk_test::CommandResult r = rfk_test::Run(cli + " convert -m " + model + " --fixed-only --calibrate " + train + " -o " + only);
  REQUIRE(r.status == 0);
  CHECK(r.err.find("0 of 400 input values saturated") != std::string::npos);
  r = rfk_test::Run(cli + " eval -m " + only + " " + train + " --json");
  REQUIRE(r.status == 0);
  CHECK(r.out.find("\"fixed_point\": true, \"saturated_inputs\": 0") != std::string::npos);
  // inspect's parts of the fixed section, by hand from docs/FORMAT.md (d = 2, F = 0, K = 1,
  // D = 8 x 16): inputs 8 d; no map integers; head Round4(K D) + 12 K; the binning tail 8 +
  // Round4(2 P d) + Round4(P d) + 8 P d; with the 32-byte header the section's 372 bytes.
  r = rfk_test::Run(cli + " inspect --json " + only);
  REQUIRE(r.status == 0);
  CHECK(r.out.find("\"name\": \"fixed\", \"flags\": 1, \"offset\": ") != std::string::npos);
  CHECK(r.out.find("\"size\": 372}") != std::string::npos);
  CHECK(r.out.find("\"inputs_bytes\": 16, \"map_bytes\": 0, \"head_bytes\": 140, \"binning_bytes\": 184") !=
        std::string::npos);
  r = rfk_test::Run(cli + " inspect " + only);
  CHECK(r.out.find("binning 184 (8 grids x 2 columns)") != std::string::npos);
  r = rfk_test::Run(cli + " predict -m " + only + " " + train);
  REQUIRE(r.status == 0);
  const rfk::host::AlignedBytes bytes = rfk::host::ReadFileBytes(only);
  rfk::Model m;
  REQUIRE(rfk::OpenModel(bytes.data(), bytes.size(), &m) == rfk::Status::kOk);
  REQUIRE(m.num_grids == 8);
  REQUIRE(m.bin_inv_width == nullptr);
  std::string want;
  for (std::size_t row = 0; row < ds.rows; ++row) {
    const float x[2] = {std::stof(std::to_string(ds.dense[2 * row])), std::stof(std::to_string(ds.dense[2 * row + 1]))};
    std::int16_t xq[2];
    REQUIRE(rfk::QuantizeInput(m, x, 2, xq, 2) == rfk::Status::kOk);
    want += std::string(rfk::ClassLabel(m, rfk::DecideClassFixed(m, Predict(m, {xq[0], xq[1]}).data()))) + "\n";
  }
  CHECK(r.out == want);
  r = rfk_test::Run(cli + " export -m " + only + " --c-header " + tmp.Path("o.h") + " --name bins --vectors " + train +
                    " --count 3");
  CHECK(r.status == 0);
  const std::string h = rfk_test::ReadText(tmp.Path("o.h"));
  CHECK(h.find("bins_outputs_q[3]") != std::string::npos);
  CHECK(h.find("#define BINS_GRIDS 8u") != std::string::npos);
  CHECK(h.find("bins_keys") == std::string::npos);  // the integer path has no float keys to export
}

TEST_CASE("fixed binning: a threshold (int16 range with at most one boundary) is the float bin exactly, rounded up to the input grid") {
  // Every (grid, column) the converter stored as a threshold (mult 1, shift 16) must give
  // floor(a x + b0) for every int16 x, a and b0 the float grid in the input's units computed here
  // from the model's own sections (standardisation, input offset and scale, bin grids).
  const rfk::host::Dataset ds = Data(3, 300, 2);
  const std::vector<std::uint8_t> plain = Binned(ds, 12, 0, 0);
  Fx fx(Fixed(plain, ds));
  const rfk::Model& m = fx.m;
  const fb::Layout t = rfk::fixed::BinningLayout(m);
  const std::uint16_t* half = rfk::StandardizeF16Values(m);
  const std::uint32_t d = m.input_dim;
  std::size_t thresholds = 0, bad = 0;
  for (std::uint32_t i = 0; i < m.num_grids * d; ++i) {
    if (fx.Get<std::uint16_t>(t.mult + 2 * i) != 1 || fx.Get<std::uint8_t>(t.shift + i) != 16) continue;
    ++thresholds;
    const std::uint32_t c = i % d;
    double mean = 0, inv = 1;
    if (rfk::IsStandardized(m)) {
      mean = half ? double(rfk::HalfToFloat(half[c])) : double(m.mean[c]);
      inv = half ? double(rfk::HalfToFloat(half[d + c])) : double(m.inv_scale[c]);
    }
    const double off = fx.Get<float>(fx.l.offset + 4 * c), scale = fx.Get<float>(fx.l.scale + 4 * c);
    const double iw = m.bin_inv_width[i], a = inv * iw / scale, b0 = ((off - mean) * inv - m.bin_offset[i]) * iw;
    for (std::int32_t x = -32768; x <= 32767; ++x)
      bad += BinRef(fx, i, static_cast<std::int16_t>(x)) != static_cast<std::int64_t>(std::floor(a * x + b0));
  }
  CHECK(thresholds > 0);
  CHECK(bad == 0);
}

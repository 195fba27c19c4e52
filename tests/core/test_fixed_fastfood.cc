// Fastfood on the integer path (format::fixed_params::FastfoodTail, lib/core/fixed_predict_fastfood.cc):
// the integer transform against an exact reference computed here by other means (the Hadamard
// matrix, 128-bit products, floor divisions), at the extremes of its bounds (all-+-32767 and
// -32768 inputs aligned with B, the largest g and s_mult the validator accepts, g_shift at its
// edge and one below it refused); PredictFixed on Fastfood models of both forms and three tasks;
// every new field corrupted (status, field, offset); the f32 model's agreement.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "core/fixed_fastfood.h"
#include "rfk/fixed.hpp"
#include "rfk/host/fixed.hpp"
#include "rfk/host/model_writer.hpp"
#include "rfk/host/train.hpp"
#include "rfk/rfk.h"
#include "fixed_util.h"
#include "test_util.h"

namespace {

namespace f = rfk::format;
namespace fp = rfk::format::fixed_params;
using fixed_util::Predict;
using fixed_util::Wide;
using rfk_test::Blob;

rfk::host::Dataset Data(std::size_t d, std::size_t rows, int classes, unsigned seed = 5) {
  return fixed_util::Data(d, rows, classes, seed);
}

std::vector<std::uint8_t> FixedFastfood(const rfk::host::Dataset& ds, f::MapKind map, std::uint32_t features,
                                        bool fixed_only = false, f::Storage storage = f::Storage::kF32,
                                        std::vector<std::uint8_t>* source = nullptr) {
  rfk::host::TrainOptions o;
  o.features = features;
  o.map = map;
  o.w_storage = o.head_storage = storage;
  const std::vector<std::uint8_t> model = rfk::host::Train(ds, o).model;
  if (source) *source = model;
  Blob b(model);
  rfk::Model m;
  REQUIRE(b.Open(&m) == rfk::Status::kOk);
  return rfk::host::FixedModel(m, ds, nullptr, fixed_only);
}

// An opened Fastfood fixed model in mutable storage, where its arrays are, and its tail.
struct Fx : fixed_util::Fx {
  explicit Fx(const std::vector<std::uint8_t>& bytes) : fixed_util::Fx(bytes) {
    REQUIRE(f::IsFastfood(m.map));
    t = fp::FastfoodTailOf(l.bytes, m.input_dim, m.num_frequencies);
    REQUIRE(b.U32(entry + f::entry::kSize) == t.bytes);
  }
  rfk::core::FixedFastfoodView View() const {
    return rfk::core::FixedFastfoodOf(b.storage.data() + at, l.phase, t, m.input_dim, m.num_frequencies);
  }
  std::uint32_t Perm(std::uint64_t k) const {  // bit by bit, LSB first
    const std::uint32_t w = f::fastfood::IndexBits(t.dp);
    std::uint32_t v = 0;
    for (std::uint32_t q = 0; q < w; ++q) {
      const std::uint64_t bit = k * w + q;
      v |= static_cast<std::uint32_t>((Get<std::uint8_t>(t.perm + bit / 8) >> (bit % 8)) & 1u) << q;
    }
    return v;
  }
  bool Negative(std::uint64_t k) const { return ((Get<std::uint8_t>(t.signs + k / 8) >> (k % 8)) & 1u) != 0; }
  fp::FastfoodTail t{};
};

Wide FloorDiv(Wide num, std::uint32_t shift) {
  const Wide den = Wide{1} << shift;
  Wide q = num / den;
  if (num % den != 0 && num < 0) --q;
  return q;
}

int Hadamard(std::uint32_t i, std::uint32_t j) { return __builtin_popcount(i & j) % 2 == 0 ? 1 : -1; }

// Block b's phases by other means: the Hadamard matrix's entries, 128-bit products, floor
// divisions, the turns reduced modulo 2^32 at the end. Also returns the largest |t|, |v|, |u|.
struct RefBlock {
  std::vector<std::uint32_t> turns;
  Wide tmax = 0, vmax = 0, umax = 0;
};
RefBlock Reference(const Fx& fx, const std::vector<std::int16_t>& x, std::uint32_t b) {
  const std::uint32_t dp = fx.t.dp, d = fx.m.input_dim, F = fx.m.num_frequencies, j0 = b * dp;
  std::vector<Wide> bx(dp, 0), t(dp, 0), v(dp), u(dp, 0);
  for (std::uint32_t i = 0; i < dp && i < d; ++i) bx[i] = fx.Negative(j0 + i) ? -Wide{x[i]} : Wide{x[i]};
  RefBlock r;
  for (std::uint32_t i = 0; i < dp; ++i) {
    for (std::uint32_t k = 0; k < dp; ++k) t[i] += Hadamard(i, k) * bx[k];
    r.tmax = std::max(r.tmax, t[i] < 0 ? -t[i] : t[i]);
  }
  const std::uint32_t gs = fx.Get<std::uint8_t>(fx.t.g_shift + b);
  for (std::uint32_t i = 0; i < dp; ++i) {
    const Wide p = Wide{fx.Get<std::int16_t>(fx.t.g + 2 * (j0 + i))} * t[fx.Perm(j0 + i)];
    v[i] = FloorDiv(p + (gs ? Wide{1} << (gs - 1) : 0), gs);
    r.vmax = std::max(r.vmax, v[i] < 0 ? -v[i] : v[i]);
  }
  for (std::uint32_t i = 0; i < dp; ++i) {
    for (std::uint32_t k = 0; k < dp; ++k) u[i] += Hadamard(i, k) * v[k];
    r.umax = std::max(r.umax, u[i] < 0 ? -u[i] : u[i]);
  }
  for (std::uint32_t i = 0; i < dp && j0 + i < F; ++i) {
    const std::uint32_t ss = fx.Get<std::uint8_t>(fx.t.s_shift + j0 + i);
    const Wide s = FloorDiv(Wide{fx.Get<std::int32_t>(fx.t.s_mult + 4 * (j0 + i))} * u[i] + (ss ? Wide{1} << (ss - 1) : 0), ss);
    const Wide m = (s % (Wide{1} << 32) + (Wide{1} << 32)) % (Wide{1} << 32);
    r.turns.push_back(static_cast<std::uint32_t>((static_cast<std::uint64_t>(m) + fx.Get<std::uint32_t>(fx.l.phase + 4 * (j0 + i))) & 0xFFFFFFFFu));
  }
  return r;
}

// The device's phases of block b.
std::vector<std::uint32_t> Device(const Fx& fx, const std::vector<std::int16_t>& x, std::uint32_t b) {
  std::vector<std::int32_t> t(fx.t.dp);
  std::vector<std::uint32_t> turns(fx.t.dp);
  rfk::core::FixedFastfoodTurns(fx.View(), x.data(), b, t.data(), turns.data());
  const std::uint32_t n = std::min(fx.t.dp, fx.m.num_frequencies - b * fx.t.dp);
  turns.resize(n);
  return turns;
}

// Outputs from the reference phases: CosTurns (tested in test_fixed.cc), a 128-bit head sum.
std::vector<std::int64_t> ReferenceOutputs(const Fx& fx, const std::vector<std::int16_t>& x) {
  const rfk::Model& m = fx.m;
  const std::uint64_t F = m.num_frequencies, K = m.num_outputs, D = m.num_features;
  std::vector<std::int64_t> z(D);
  for (std::uint32_t b = 0; b < fx.t.blocks; ++b) {
    const std::vector<std::uint32_t> turns = Reference(fx, x, b).turns;
    for (std::size_t i = 0; i < turns.size(); ++i) {
      const std::uint64_t j = std::uint64_t{b} * fx.t.dp + i;
      z[j] = rfk::fixed::CosTurns(turns[i]);
      if (D == 2 * F) z[F + j] = rfk::fixed::CosTurns(turns[i] - 0x40000000u);
    }
  }
  std::vector<std::int64_t> out(K);
  for (std::uint64_t k = 0; k < K; ++k) {
    Wide acc = 0;
    for (std::uint64_t j = 0; j < D; ++j) acc += Wide{fx.Get<std::int8_t>(fx.l.head + k * D + j)} * z[j];
    const std::uint32_t n = fx.Get<std::uint32_t>(fx.l.rshift + 4 * k);
    const Wide v = acc * fx.Get<std::uint32_t>(fx.l.mult + 4 * k) + (n ? Wide{1} << (n - 1) : 0);
    out[k] = static_cast<std::int64_t>(FloorDiv(v, n)) + fx.Get<std::int32_t>(fx.l.bias + 4 * k);
  }
  return out;
}

// Inputs: calibration rows, random int16 values, the extremes, and +-32767 / -32768 aligned with
// block 0's signs (t_0 = 32767 d or 32768 d: the first transform's bound).
std::vector<std::vector<std::int16_t>> Inputs(const Fx& fx, const rfk::host::Dataset& ds) {
  const std::uint32_t d = fx.m.input_dim;
  std::vector<std::vector<std::int16_t>> xs;
  for (std::size_t r = 0; r < 10; ++r) {
    std::vector<std::int16_t> xq(d);
    REQUIRE(rfk::QuantizeInput(fx.m, ds.dense.data() + r * ds.cols, ds.cols, xq.data(), xq.size()) == rfk::Status::kOk);
    xs.push_back(xq);
  }
  std::mt19937 gen(13);
  std::uniform_int_distribution<int> u(-32768, 32767);
  for (int r = 0; r < 10; ++r) {
    std::vector<std::int16_t> xq(d);
    for (auto& v : xq) v = static_cast<std::int16_t>(u(gen));
    xs.push_back(xq);
  }
  xs.emplace_back(d, std::int16_t{-32768});
  xs.emplace_back(d, std::int16_t{32767});
  std::vector<std::int16_t> up(d), down(d);
  for (std::uint32_t c = 0; c < d; ++c) {
    up[c] = fx.Negative(c) ? -32767 : 32767;
    down[c] = fx.Negative(c) ? 32767 : -32768;
  }
  xs.push_back(up);
  xs.push_back(down);
  return xs;
}

}  // namespace

TEST_CASE("fixed fastfood: FwhtI32 is the exact transform up to its bound n max|t| = 2^31 - 1") {
  for (std::uint32_t n : {1u, 2u, 8u, 64u, 1024u}) {
    CAPTURE(n);
    const std::int32_t edge = static_cast<std::int32_t>(0x7FFFFFFFu / n);
    std::mt19937 gen(n);
    std::uniform_int_distribution<std::int32_t> u(-edge, edge);
    for (int pattern = 0; pattern < 4; ++pattern) {
      std::vector<std::int32_t> t(n);
      for (std::uint32_t i = 0; i < n; ++i)
        t[i] = pattern == 0 ? edge : pattern == 1 ? -edge : pattern == 2 ? (Hadamard(3 % n, i) * edge) : u(gen);
      std::vector<Wide> want(n, 0);
      for (std::uint32_t i = 0; i < n; ++i)
        for (std::uint32_t k = 0; k < n; ++k) want[i] += Hadamard(i, k) * Wide{t[k]};
      rfk::core::FwhtI32(t.data(), n);
      for (std::uint32_t i = 0; i < n; ++i) CHECK(Wide{t[i]} == want[i]);
      if (pattern == 0) CHECK(t[0] == static_cast<std::int64_t>(edge) * n);  // reaches n * edge <= 2^31 - 1
    }
  }
}

TEST_CASE("fixed fastfood: each block's phases are the exact reference's, both forms, every input") {
  for (const f::MapKind map : {f::MapKind::kFastfood, f::MapKind::kFastfoodPhase}) {
    CAPTURE(f::NameOf(map));
    const rfk::host::Dataset ds = Data(5, 200, 2);  // d' = 8, F = 18 or 36: the last block truncated
    Fx fx(FixedFastfood(ds, map, 36));
    REQUIRE(fx.t.dp == 8);
    REQUIRE(fx.m.num_frequencies % 8 != 0);
    for (const auto& x : Inputs(fx, ds))
      for (std::uint32_t b = 0; b < fx.t.blocks; ++b) CHECK(Device(fx, x, b) == Reference(fx, x, b).turns);
  }
}

TEST_CASE("fixed fastfood: the bounds hold at the largest g and s_mult the validator accepts") {
  const rfk::host::Dataset ds = Data(6, 150, 0);
  Fx fx(FixedFastfood(ds, f::MapKind::kFastfoodPhase, 16));  // d = 6, d' = 8, 2 blocks
  const std::uint32_t d = 6, dp = 8;
  for (std::uint32_t k = 0; k < fx.t.blocks * dp; ++k) fx.Set<std::int16_t>(fx.t.g + 2 * k, (k % 3) ? 32767 : -32767);
  for (std::uint32_t j = 0; j < fx.m.num_frequencies; ++j) {
    fx.Set<std::int32_t>(fx.t.s_mult + 4 * j, (j % 2) ? 2147483647 : -2147483647);
    fx.Set<std::uint8_t>(fx.t.s_shift + j, 0);
  }
  // The smallest accepted g_shift: d' ((32768 d 32767 + h) >> gs) <= 2^31 - 1, with 32768 * 6 *
  // 32767 = 6442254336: gs = 4 gives 402640896 * 8 = 3221127168 > 2^31 - 1; gs = 5 gives
  // 201320448 * 8 = 1610563584.
  std::uint32_t edge = 0;
  while (((std::uint64_t{32768} * d * 32767 + (edge ? std::uint64_t{1} << (edge - 1) : 0)) >> edge) * dp > 0x7FFFFFFFu)
    ++edge;
  CHECK(edge == 5);
  for (std::uint32_t b = 0; b < fx.t.blocks; ++b) fx.Set<std::uint8_t>(fx.t.g_shift + b, static_cast<std::uint8_t>(edge));
  REQUIRE(fx.Reopen().status == rfk::Status::kOk);
  Wide tmax = 0, umax = 0;
  for (const auto& x : Inputs(fx, ds))
    for (std::uint32_t b = 0; b < fx.t.blocks; ++b) {
      const RefBlock r = Reference(fx, x, b);
      CHECK(Device(fx, x, b) == r.turns);
      CHECK(r.umax <= Wide{0x7FFFFFFF});
      tmax = std::max(tmax, r.tmax);
      umax = std::max(umax, r.umax);
    }
  CHECK(tmax == Wide{32768} * d);  // the aligned -32768 input reaches the first bound exactly
  CHECK(umax > Wide{1} << 27);     // and the products of s_mult * u reach 2^58 and more
  // One step below: refused at the block's g_shift.
  fx.Set<std::uint8_t>(fx.t.g_shift + 1, static_cast<std::uint8_t>(edge - 1));
  const rfk::ModelError err = fx.Reopen();
  CHECK(err.status == rfk::Status::kBadValue);
  CHECK(std::string(err.field) == "fixed.g_shift");
  CHECK(err.offset == fx.at + fx.t.g_shift + 1);
}

// FixedFastfoodTurns rounds by a shift below 32 from two 32-bit words and by any other shift in 64
// bits: every s_shift and several g_shift on both sides of 32, with the extreme multipliers.
TEST_CASE("fixed fastfood: every s_shift and g_shift the validator accepts gives the exact reference's phases") {
  const rfk::host::Dataset ds = Data(6, 150, 0);
  Fx fx(FixedFastfood(ds, f::MapKind::kFastfoodPhase, 16));  // d = 6, d' = 8, 2 blocks
  const std::uint32_t F = fx.m.num_frequencies;
  for (std::uint32_t k = 0; k < fx.t.blocks * fx.t.dp; ++k) fx.Set<std::int16_t>(fx.t.g + 2 * k, (k % 3) ? 32767 : -32767);
  for (std::uint32_t j = 0; j < F; ++j) fx.Set<std::int32_t>(fx.t.s_mult + 4 * j, (j % 2) ? 2147483647 : -2147483647 + static_cast<std::int32_t>(j));
  const auto inputs = Inputs(fx, ds);
  std::uint32_t rounds = 0;
  for (const std::uint32_t gs : {5u, 11u, 31u, 32u, 33u, 47u, 62u}) {  // 5: the smallest accepted (above)
    CAPTURE(gs);
    for (std::uint32_t first = 0; first <= 62; first += F) {  // s_shift j = first + j, every value 0..62
      for (std::uint32_t b = 0; b < fx.t.blocks; ++b) fx.Set<std::uint8_t>(fx.t.g_shift + b, static_cast<std::uint8_t>(gs));
      for (std::uint32_t j = 0; j < F; ++j) fx.Set<std::uint8_t>(fx.t.s_shift + j, static_cast<std::uint8_t>((first + j) % 63));
      REQUIRE(fx.Reopen().status == rfk::Status::kOk);
      for (const auto& x : inputs)
        for (std::uint32_t b = 0; b < fx.t.blocks; ++b) CHECK(Device(fx, x, b) == Reference(fx, x, b).turns);
      ++rounds;
    }
  }
  CHECK(rounds == 7 * ((62 + F) / F));
}

TEST_CASE("fixed fastfood: PredictFixed gives the reference's integers, both forms, three tasks, C API") {
  struct Case {
    f::MapKind map;
    int classes;
    f::Storage storage;
    bool fixed_only;
  };
  for (const Case c : {Case{f::MapKind::kFastfood, 2, f::Storage::kF32, true},
                       Case{f::MapKind::kFastfoodPhase, 3, f::Storage::kF32, false},
                       Case{f::MapKind::kFastfood, 0, f::Storage::kF16, true},
                       Case{f::MapKind::kFastfoodPhase, 2, f::Storage::kInt8, true},
                       Case{f::MapKind::kFastfood, 4, f::Storage::kInt8, false}}) {
    CAPTURE(f::NameOf(c.map));
    CAPTURE(c.classes);
    const rfk::host::Dataset ds = Data(3, 200, c.classes);
    Fx fx(FixedFastfood(ds, c.map, 32, c.fixed_only, c.storage));
    CHECK((fx.b.Entry(f::SectionType::kFastfood) == 0) == c.fixed_only);
    for (const auto& x : Inputs(fx, ds)) {
      const std::vector<std::int32_t> got = Predict(fx.m, x);
      const std::vector<std::int64_t> want = ReferenceOutputs(fx, x);
      for (std::size_t k = 0; k < want.size(); ++k) CHECK(got[k] == want[k]);
      rfk_model cm;
      REQUIRE(rfk_open(&cm, fx.b.data(), fx.b.size(), nullptr) == RFK_OK);
      std::vector<std::uint64_t> scratch(rfk_fixed_scratch_bytes(&cm) / 8 + 2);
      std::vector<std::int32_t> out(fx.m.num_outputs);
      REQUIRE(rfk_predict_fixed(&cm, x.data(), x.size(), scratch.data(), rfk_fixed_scratch_bytes(&cm), out.data(),
                                out.size()) == RFK_OK);
      CHECK(out == got);
    }
    // The scratch: K accumulators and two blocks of d' int32; one byte less is refused.
    std::vector<std::uint64_t> scratch(rfk::FixedScratchBytes(fx.m) / 8 + 2);
    std::vector<std::int32_t> out(fx.m.num_outputs);
    const std::vector<std::int16_t> x(3, 0);
    CHECK(rfk::FixedScratchBytes(fx.m) >= 8 * fx.m.num_outputs + 8 * fx.t.dp);
    CHECK(rfk::PredictFixed(fx.m, x.data(), 3, scratch.data(), rfk::FixedScratchBytes(fx.m) - 1, out.data(), out.size()) ==
          rfk::Status::kScratchTooSmall);
  }
}

TEST_CASE("fixed fastfood: every tail field corrupted is refused with its name and offset") {
  const rfk::host::Dataset ds = Data(5, 100, 3);
  const std::vector<std::uint8_t> good = FixedFastfood(ds, f::MapKind::kFastfood, 24, true);  // d' = 8, 2 blocks
  struct Mutation {
    const char* field;
    void (*apply)(Fx&);
    std::uint64_t (*where)(const Fx&);
  };
  const Mutation mutations[] = {
      {"fixed.g", [](Fx& x) { x.Set<std::int16_t>(x.t.g + 2 * 9, -32768); }, [](const Fx& x) -> std::uint64_t { return x.t.g + 18; }},
      {"fixed.g_shift", [](Fx& x) { x.Set<std::uint8_t>(x.t.g_shift + 1, 63); }, [](const Fx& x) -> std::uint64_t { return x.t.g_shift + 1; }},
      {"fixed.g_shift", [](Fx& x) { x.Set<std::uint8_t>(x.t.g_shift, 0); }, [](const Fx& x) -> std::uint64_t { return x.t.g_shift; }},
      {"fixed.s_mult", [](Fx& x) { x.Set<std::uint32_t>(x.t.s_mult + 4 * 7, 0x80000000u); }, [](const Fx& x) -> std::uint64_t { return x.t.s_mult + 28; }},
      {"fixed.s_shift", [](Fx& x) { x.Set<std::uint8_t>(x.t.s_shift + 11, 63); }, [](const Fx& x) -> std::uint64_t { return x.t.s_shift + 11; }},
      // Block 1's first two indices (3 bits each: bits 24..29, byte 3) made equal: the repeat is
      // index 9, whose first bit is bit 27 (byte 3).
      {"fixed.perm", [](Fx& x) {
         const std::uint32_t first = x.Perm(8);
         std::uint8_t byte = x.Get<std::uint8_t>(x.t.perm + 3);
         byte = static_cast<std::uint8_t>((byte & ~0x38u) | (first << 3));
         x.Set<std::uint8_t>(x.t.perm + 3, byte);
       }, [](const Fx& x) -> std::uint64_t { return x.t.perm + 3; }},
  };
  for (const Mutation& mu : mutations) {
    CAPTURE(mu.field);
    Fx fx(good);
    mu.apply(fx);
    const rfk::ModelError err = fx.Reopen();
    CHECK(err.status == rfk::Status::kBadValue);
    CHECK(std::string(err.field) == mu.field);
    CHECK(err.offset == fx.at + mu.where(fx));
  }
  // The size: one word short (the section is the last one) is refused at fixed.size; without the
  // tail, tests/core/test_fixed_predict.cc (a dense model's section beside a Fastfood map).
  {
    Fx fx(good);
    fx.b.SetU32(fx.entry + f::entry::kSize, static_cast<std::uint32_t>(fx.t.bytes - 4));
    const rfk::ModelError err = fx.Reopen();
    CHECK(err.status == rfk::Status::kBadSectionSize);
    CHECK(std::string(err.field) == "fixed.size");
    CHECK(err.offset == fx.entry + f::entry::kSize);
  }
  // d' over 2^15 (d = 32769, map_params' and the section's alike): fixed.input_dim, checked before
  // the size, which such a d could not have here.
  {
    Fx fx(good);
    const std::size_t map_at = fx.b.U32(fx.b.Entry(f::SectionType::kMapParams) + f::entry::kOffset);
    fx.b.SetU32(map_at + f::map_params::kInputDim, 32769);
    fx.Set<std::uint32_t>(fp::kInputDim, 32769);
    const rfk::ModelError err = fx.Reopen();
    CHECK(err.status == rfk::Status::kBadValue);
    CHECK(std::string(err.field) == "fixed.input_dim");
    CHECK(err.offset == fx.at + fp::kInputDim);
    fx.b.SetU32(map_at + f::map_params::kInputDim, 32768);  // d' = 2^15: accepted so far, then the size
    fx.Set<std::uint32_t>(fp::kInputDim, 32768);
    CHECK(std::string(fx.Reopen().field) == "fixed.size");
  }
  // B's signs take any bits: flipping one is a different, valid model.
  Fx fx(good);
  fx.Set<std::uint8_t>(fx.t.signs, static_cast<std::uint8_t>(fx.Get<std::uint8_t>(fx.t.signs) ^ 1u));
  CHECK(fx.Reopen().status == rfk::Status::kOk);
}

TEST_CASE("fixed fastfood: the integer features and outputs follow the f32 model's, and --fixed keeps the float path") {
  for (const int classes : {0, 2}) {
    CAPTURE(classes);
    const rfk::host::Dataset ds = Data(4, 400, classes, 9);
    std::vector<std::uint8_t> source;
    Fx fx(FixedFastfood(ds, f::MapKind::kFastfood, 64, false, f::Storage::kF32, &source));
    Blob src(source);
    rfk::Model m0;
    REQUIRE(src.Open(&m0) == rfk::Status::kOk);
    const std::uint32_t F = fx.m.num_frequencies, D = fx.m.num_features;
    std::vector<std::uint64_t> s0(rfk::ScratchBytes(m0) / 8 + 2), s1(rfk::ScratchBytes(fx.m) / 8 + 2);
    std::vector<float> z(D);
    double err2 = 0, ref2 = 0, zerr = 0;
    int agree = 0;
    const double scale = rfk::FixedOutputScale(fx.m);
    for (std::size_t r = 0; r < ds.rows; ++r) {
      const float* x = ds.dense.data() + r * ds.cols;
      float o0 = 0, o1 = 1;
      REQUIRE(rfk::Predict(m0, x, 4, s0.data(), rfk::ScratchBytes(m0), &o0, 1) == rfk::Status::kOk);
      REQUIRE(rfk::Predict(fx.m, x, 4, s1.data(), rfk::ScratchBytes(fx.m), &o1, 1) == rfk::Status::kOk);
      CHECK(o0 == o1);  // the float sections are the source's
      std::vector<std::int16_t> xq(4);
      REQUIRE(rfk::QuantizeInput(fx.m, x, 4, xq.data(), 4) == rfk::Status::kOk);
      // The features: cos and sin of the integer phases against the float map's, both in [-1, 1].
      REQUIRE(rfk::ComputeFeatures(m0, x, 4, s0.data(), rfk::ScratchBytes(m0), z.data(), D) == rfk::Status::kOk);
      for (std::uint32_t b = 0; b < fx.t.blocks; ++b) {
        const std::vector<std::uint32_t> turns = Device(fx, xq, b);
        for (std::size_t i = 0; i < turns.size(); ++i) {
          const std::size_t j = std::size_t{b} * fx.t.dp + i;
          const double c = rfk::fixed::CosTurns(turns[i]) / 32767.0, sn = rfk::fixed::SinTurns(turns[i]) / 32767.0;
          zerr = std::max({zerr, std::fabs(c - z[j] / m0.feature_scale), std::fabs(sn - z[F + j] / m0.feature_scale)});
        }
      }
      const double got = Predict(fx.m, xq)[0] * scale;
      err2 += (got - o0) * (got - o0);
      ref2 += double(o0) * o0;
      agree += (got > 0) == (o0 > 0);
    }
    CHECK(zerr < 1e-3);  // q15 cos (1 LSB = 3.1e-5) and the phases' rounding: measured 7.6e-5, 1.8e-4
    CHECK(std::sqrt(err2 / ref2) < 0.05);  // the int8 head dominates: measured 3.7 %, 0.07 %
    if (classes == 2) CHECK(agree >= int(ds.rows) - 4);
  }
}

TEST_CASE("fixed fastfood: rfk convert --fixed-only --calibrate, then eval, predict and export") {
  rfk_test::TempDir tmp;
  const std::string cli = RFK_CLI, train = tmp.Path("t.csv"), model = tmp.Path("m.rfk"), only = tmp.Path("only.rfk");
  const rfk::host::Dataset ds = Data(3, 200, 2);
  std::string csv;
  for (std::size_t r = 0; r < ds.rows; ++r)
    csv += std::to_string(ds.dense[3 * r]) + "," + std::to_string(ds.dense[3 * r + 1]) + "," +
           std::to_string(ds.dense[3 * r + 2]) + "," + ds.labels[r] + "\n";
  rfk_test::WriteText(train, csv);
  REQUIRE(rfk_test::Run(cli + " train --train " + train + " --map fastfood -D 32 -o " + model).status == 0);
  rfk_test::CommandResult r =
      rfk_test::Run(cli + " convert -m " + model + " --fixed-only --calibrate " + train + " -o " + only);
  REQUIRE(r.status == 0);
  CHECK(r.err.find("0 of 600 input values saturated") != std::string::npos);
  r = rfk_test::Run(cli + " eval -m " + only + " " + train + " --json");
  REQUIRE(r.status == 0);
  CHECK(r.out.find("\"fixed_point\": true, \"saturated_inputs\": 0") != std::string::npos);
  // inspect's parts of the fixed section, by hand from docs/FORMAT.md (d = 3, F = 16, K = 1, D = 32,
  // d' = 4, 4 blocks, N = 16): inputs 8 d = 24; the map's phases 4 F = 64 and its tail Round4(2 N)
  // + 4 F + Round4(F) + Round4(blocks) + 2-bit perm (4) + signs, to a multiple of 4: 124; head
  // Round4(K D) + 12 K = 44; with the 32-byte header the section's 288 bytes.
  r = rfk_test::Run(cli + " inspect --json " + only);
  REQUIRE(r.status == 0);
  CHECK(r.out.find("\"size\": 288}") != std::string::npos);
  CHECK(r.out.find("\"inputs_bytes\": 24, \"map_bytes\": 188, \"head_bytes\": 44, \"binning_bytes\": 0") !=
        std::string::npos);
  CHECK(rfk_test::Run(cli + " inspect " + only).status == 0);
  // rfk predict --decision raw's labels are the integer path's decisions, row by row.
  r = rfk_test::Run(cli + " predict --decision raw -m " + only + " " + train);
  REQUIRE(r.status == 0);
  const rfk::host::AlignedBytes bytes = rfk::host::ReadFileBytes(only);
  rfk::Model m;
  REQUIRE(rfk::OpenModel(bytes.data(), bytes.size(), &m) == rfk::Status::kOk);
  REQUIRE(f::IsFastfood(m.map));
  std::string want;
  for (std::size_t row = 0; row < ds.rows; ++row) {
    float x[3];
    for (int c = 0; c < 3; ++c) x[c] = std::stof(std::to_string(ds.dense[3 * row + c]));
    std::vector<std::int16_t> xq(3);
    REQUIRE(rfk::QuantizeInput(m, x, 3, xq.data(), 3) == rfk::Status::kOk);
    want += std::string(rfk::ClassLabel(m, rfk::DecideClassFixed(m, Predict(m, xq).data()))) + "\n";
  }
  CHECK(r.out == want);
  // export to C: the model, the int16 vectors and the host's integers, and the fixed scratch (K
  // accumulators rounded to 16 B, then 2 d' = 8 int32).
  r = rfk_test::Run(cli + " export -m " + only + " --c-header " + tmp.Path("only.h") + " --name ffx --vectors " + train +
                    " --count 3");
  CHECK(r.status == 0);
  const std::string h = rfk_test::ReadText(tmp.Path("only.h"));
  CHECK(h.find("ffx_outputs_q[3]") != std::string::npos);
  CHECK(h.find("ffx_inputs_q[9]") != std::string::npos);
  CHECK(h.find("#define FFX_FIXED_SCRATCH_BYTES 48u") != std::string::npos);
}

TEST_CASE("fixed fastfood: a column constant in training stays 0 in the integer input") {
  rfk::host::Dataset ds = Data(3, 200, 2, 21);
  for (std::size_t r = 0; r < ds.rows; ++r) ds.dense[3 * r + 1] = 5.0f;  // column 1 constant
  std::vector<std::uint8_t> source;
  Fx fx(FixedFastfood(ds, f::MapKind::kFastfood, 32, true, f::Storage::kF32, &source));
  Blob src(source);
  rfk::Model m0;
  REQUIRE(src.Open(&m0) == rfk::Status::kOk);
  std::vector<std::uint64_t> s0(rfk::ScratchBytes(m0) / 8 + 2);
  int agree = 0;
  for (std::size_t r = 0; r < ds.rows; ++r) {
    float x[3] = {ds.dense[3 * r], r % 2 ? 1e6f : -3.0f, ds.dense[3 * r + 2]};  // column 1 far off
    std::vector<std::int16_t> xq(3);
    REQUIRE(rfk::QuantizeInput(fx.m, x, 3, xq.data(), 3) == rfk::Status::kOk);
    CHECK(xq[1] == 0);
    float o0 = 0;
    REQUIRE(rfk::Predict(m0, x, 3, s0.data(), rfk::ScratchBytes(m0), &o0, 1) == rfk::Status::kOk);
    agree += (Predict(fx.m, xq)[0] > 0) == (o0 > 0);
  }
  CHECK(agree >= int(ds.rows) - 4);
}

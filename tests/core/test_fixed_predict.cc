// The integer prediction path (rfk/fixed.hpp, the fixed section): PredictFixed against an integer
// reference computed here by other means, hand-computed fixtures, the overflow bound at its edge,
// every field of the section corrupted (status, field, offset), the API's argument checks, the
// host's input conversion, and agreement with the f32 model it came from.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "rfk/fixed.hpp"
#include "rfk/host/fixed.hpp"
#include "rfk/host/quantize.hpp"
#include "rfk/host/train.hpp"
#include "rfk/rfk.h"
#include "fixed_util.h"
#include "test_util.h"

namespace {

namespace f = rfk::format;
namespace fp = rfk::format::fixed_params;
using rfk_test::Blob;
using namespace fixed_util;

}  // namespace

TEST_CASE("fixed: PredictFixed gives the reference's integers, for every dense map, task and storage") {
  struct Case {
    f::MapKind map;
    int classes;
    f::Storage storage;
  };
  for (const Case c : {Case{f::MapKind::kFourier, 2, f::Storage::kF32}, Case{f::MapKind::kFourierPhase, 3, f::Storage::kF32},
                       Case{f::MapKind::kOrthogonal, 0, f::Storage::kF16}, Case{f::MapKind::kOrthogonalPhase, 2, f::Storage::kInt8},
                       Case{f::MapKind::kFourier, 4, f::Storage::kInt8}}) {
    CAPTURE(f::NameOf(c.map));
    CAPTURE(c.classes);
    const rfk::host::Dataset ds = Data(3, 200, c.classes);
    Fx fx(Fixed(Trained(ds, c.map, 32, c.storage), ds));
    for (const auto& x : Inputs(fx.m, ds)) {
      const std::vector<std::int32_t> got = Predict(fx.m, x);
      const std::vector<std::int64_t> want = Reference(fx, x);
      for (std::size_t k = 0; k < want.size(); ++k) CHECK(got[k] == want[k]);
      // The C API: the same integers and decision.
      rfk_model cm;
      REQUIRE(rfk_open(&cm, fx.b.data(), fx.b.size(), nullptr) == RFK_OK);
      std::vector<std::uint64_t> scratch(rfk_fixed_scratch_bytes(&cm) / 8 + 2);
      std::vector<std::int32_t> out(fx.m.num_outputs);
      REQUIRE(rfk_predict_fixed(&cm, x.data(), x.size(), scratch.data(), rfk_fixed_scratch_bytes(&cm), out.data(),
                                out.size()) == RFK_OK);
      CHECK(out == got);
      CHECK(rfk_decide_class_fixed(&cm, out.data()) == rfk::DecideClassFixed(fx.m, got.data()));
    }
  }
}

TEST_CASE("fixed: hand-computed outputs of a pair-form fixture") {
  const rfk::host::Dataset ds = Data(2, 100, 2);
  Fx fx(Fixed(Trained(ds, f::MapKind::kFourier, 4), ds));  // F = 2, D = 4: cos0, cos1, sin0, sin1
  REQUIRE(fx.m.num_frequencies == 2);
  for (std::uint64_t i = 0; i < 4; ++i) fx.Set<std::int16_t>(fx.l.w + 2 * i, 0);
  fx.Set<std::int16_t>(fx.l.w, 1);  // W[0][0] = 1
  fx.Set<std::uint8_t>(fx.l.shift, 20);
  fx.Set<std::uint8_t>(fx.l.shift + 1, 0);
  fx.Set<std::uint32_t>(fx.l.phase, 0);
  fx.Set<std::uint32_t>(fx.l.phase + 4, 0x80000000u);  // half a turn: cos -32767, sin 0
  const std::int8_t q[4] = {10, 20, 30, 40};
  for (int j = 0; j < 4; ++j) fx.Set<std::int8_t>(fx.l.head + j, q[j]);
  fx.Set<std::uint32_t>(fx.l.mult, 3);
  fx.Set<std::uint32_t>(fx.l.rshift, 2);
  fx.Set<std::int32_t>(fx.l.bias, 7);
  REQUIRE(fx.Reopen().status == rfk::Status::kOk);
  // x = 0: phases 0 and 1/2: acc = 10 * 32767 - 20 * 32767 = -327670; (3 acc + 2) >> 2 = -245752.
  CHECK(Predict(fx.m, {0, 0})[0] == -245752 + 7);
  CHECK(rfk::DecideClassFixed(fx.m, Predict(fx.m, {0, 0}).data()) == 0);
  // x = (1024, 5): phase 0 = 1024 * 2^20 = a quarter turn: cos 0, sin 32767 (W[0][1] = 0 ignores
  // the 5): acc = -20 * 32767 + 30 * 32767 = 327670; (3 acc + 2) >> 2 = 245753.
  CHECK(Predict(fx.m, {1024, 5})[0] == 245753 + 7);
  CHECK(rfk::DecideClassFixed(fx.m, Predict(fx.m, {1024, 5}).data()) == 1);
  // A quarter turn less than 2^32 wraps: x = -1024 gives phase 3/4 turn: cos 0, sin -32767.
  CHECK(Predict(fx.m, {-1024, 0})[0] == ((3 * (-20 * 32767 - 30 * 32767) + 2) >> 2) + 7);
}

TEST_CASE("fixed: the output bound holds at its edge and is refused one past it") {
  const rfk::host::Dataset ds = Data(4, 100, 0);
  Fx fx(Fixed(Trained(ds, f::MapKind::kFourierPhase, 32), ds));  // regression, D = F = 32
  const std::uint64_t d = 4, F = 32;
  for (std::uint64_t i = 0; i < F * d; ++i) fx.Set<std::int16_t>(fx.l.w + 2 * i, -32768);  // products 2^30
  for (std::uint64_t j = 0; j < F; ++j) {
    fx.Set<std::uint8_t>(fx.l.shift + j, 2);  // 4 * 2^30 * 4 = 2^34: the phase sum wraps to 0
    fx.Set<std::uint32_t>(fx.l.phase + 4 * j, 0);
    fx.Set<std::int8_t>(fx.l.head + j, 127);
  }
  // 32767 * 2^15 * (127 * 32) = 2130641408 * 2^11: with rshift 11 the term is 2130641408 exactly.
  const std::int32_t bias = 2147483647 - 2130641408;
  fx.Set<std::uint32_t>(fx.l.mult, 1u << 15);
  fx.Set<std::uint32_t>(fx.l.rshift, 11);
  fx.Set<std::int32_t>(fx.l.bias, bias);
  REQUIRE(fx.Reopen().status == rfk::Status::kOk);
  const std::vector<std::int16_t> x(d, -32768);
  CHECK(Predict(fx.m, x)[0] == std::numeric_limits<std::int32_t>::max());
  CHECK(Reference(fx, x)[0] == std::numeric_limits<std::int32_t>::max());
  for (std::uint64_t j = 0; j < F; ++j) fx.Set<std::uint32_t>(fx.l.phase + 4 * j, 0x80000000u);  // cos -32767
  fx.Set<std::int32_t>(fx.l.bias, -bias);
  REQUIRE(fx.Reopen().status == rfk::Status::kOk);
  CHECK(Predict(fx.m, x)[0] == -std::numeric_limits<std::int32_t>::max());
  fx.Set<std::int32_t>(fx.l.bias, -bias - 1);
  const rfk::ModelError err = fx.Reopen();
  CHECK(err.status == rfk::Status::kBadValue);
  CHECK(std::string(err.field) == "fixed.mult");
  CHECK(err.offset == fx.at + fx.l.mult);
}

TEST_CASE("fixed: every field of the section corrupted is refused with its name and offset") {
  const rfk::host::Dataset ds = Data(3, 100, 3);
  const std::vector<std::uint8_t> good = Fixed(Trained(ds, f::MapKind::kFourier, 16), ds);
  struct Mutation {
    const char* field;
    rfk::Status status;
    void (*apply)(Fx&);
    std::uint64_t (*where)(const Fx&);  // expected offset from the section's start
  };
  const Mutation mutations[] = {
      {"fixed.input_dim", rfk::Status::kBadValue, [](Fx& x) { x.Set<std::uint32_t>(fp::kInputDim, 4); }, [](const Fx&) { return std::uint64_t{fp::kInputDim}; }},
      {"fixed.num_frequencies", rfk::Status::kBadValue, [](Fx& x) { x.Set<std::uint32_t>(fp::kNumFrequencies, 9); }, [](const Fx&) { return std::uint64_t{fp::kNumFrequencies}; }},
      {"fixed.num_outputs", rfk::Status::kBadValue, [](Fx& x) { x.Set<std::uint32_t>(fp::kNumOutputs, 1); }, [](const Fx&) { return std::uint64_t{fp::kNumOutputs}; }},
      {"fixed.num_features", rfk::Status::kBadValue, [](Fx& x) { x.Set<std::uint32_t>(fp::kNumFeatures, 8); }, [](const Fx&) { return std::uint64_t{fp::kNumFeatures}; }},
      {"fixed.output_scale", rfk::Status::kBadValue, [](Fx& x) { x.Set<float>(fp::kOutputScale, 0.0f); }, [](const Fx&) { return std::uint64_t{fp::kOutputScale}; }},
      {"fixed.output_scale", rfk::Status::kBadValue, [](Fx& x) { x.Set<float>(fp::kOutputScale, -1.0f); }, [](const Fx&) { return std::uint64_t{fp::kOutputScale}; }},
      {"fixed.output_scale", rfk::Status::kBadValue, [](Fx& x) { x.Set<float>(fp::kOutputScale, NAN); }, [](const Fx&) { return std::uint64_t{fp::kOutputScale}; }},
      {"fixed.input_bits", rfk::Status::kUnsupportedStorage, [](Fx& x) { x.Set<std::uint32_t>(fp::kInputBits, 8); }, [](const Fx&) { return std::uint64_t{fp::kInputBits}; }},
      {"fixed.input_bits", rfk::Status::kBadValue, [](Fx& x) { x.Set<std::uint32_t>(fp::kInputBits, 12); }, [](const Fx&) { return std::uint64_t{fp::kInputBits}; }},
      {"fixed.input_offset", rfk::Status::kBadValue, [](Fx& x) { x.Set<float>(x.l.offset + 8, INFINITY); }, [](const Fx& x) -> std::uint64_t { return x.l.offset + 8; }},
      {"fixed.input_scale", rfk::Status::kBadValue, [](Fx& x) { x.Set<float>(x.l.scale + 4, 0.0f); }, [](const Fx& x) -> std::uint64_t { return x.l.scale + 4; }},
      {"fixed.input_scale", rfk::Status::kBadValue, [](Fx& x) { x.Set<float>(x.l.scale, -2.0f); }, [](const Fx& x) -> std::uint64_t { return x.l.scale; }},
      {"fixed.shift", rfk::Status::kBadValue, [](Fx& x) { x.Set<std::uint8_t>(x.l.shift + 5, 32); }, [](const Fx& x) -> std::uint64_t { return x.l.shift + 5; }},
      {"fixed.head", rfk::Status::kBadValue, [](Fx& x) { x.Set<std::int8_t>(x.l.head + 17, -128); }, [](const Fx& x) -> std::uint64_t { return x.l.head + 17; }},
      {"fixed.mult", rfk::Status::kBadValue, [](Fx& x) { x.Set<std::uint32_t>(x.l.mult + 4, (1u << 15) + 1); }, [](const Fx& x) -> std::uint64_t { return x.l.mult + 4; }},
      {"fixed.rshift", rfk::Status::kBadValue, [](Fx& x) { x.Set<std::uint32_t>(x.l.rshift + 8, 63); }, [](const Fx& x) -> std::uint64_t { return x.l.rshift + 8; }},
      {"fixed.bias", rfk::Status::kBadValue, [](Fx& x) { x.Set<std::int32_t>(x.l.bias, (1 << 30) + 1); }, [](const Fx& x) -> std::uint64_t { return x.l.bias; }},
      {"fixed.bias", rfk::Status::kBadValue, [](Fx& x) { x.Set<std::int32_t>(x.l.bias + 4, -(1 << 30) - 1); }, [](const Fx& x) -> std::uint64_t { return x.l.bias + 4; }},
  };
  for (const Mutation& mu : mutations) {
    CAPTURE(mu.field);
    Fx fx(good);
    mu.apply(fx);
    const rfk::ModelError err = fx.Reopen();
    CHECK(err.status == mu.status);
    CHECK(std::string(err.field) == mu.field);
    CHECK(err.offset == fx.at + mu.where(fx));
  }
  // The size: one that the counts do not give (smaller: the section is the last one).
  Fx fx(good);
  fx.b.SetU32(fx.entry + f::entry::kSize, fx.b.U32(fx.entry + f::entry::kSize) - 4);
  rfk::ModelError err = fx.Reopen();
  CHECK(err.status == rfk::Status::kBadSectionSize);
  CHECK(std::string(err.field) == "fixed.size");
  CHECK(err.offset == fx.entry + f::entry::kSize);
  fx.b.SetU32(fx.entry + f::entry::kSize, 16);
  err = fx.Reopen();
  CHECK(err.status == rfk::Status::kBadSectionSize);
  CHECK(std::string(err.field) == "fixed.size");
}

TEST_CASE("fixed: the section is required, and the float path still reads the model") {
  const rfk::host::Dataset ds = Data(3, 100, 2);
  const std::vector<std::uint8_t> plain = Trained(ds, f::MapKind::kFourierPhase, 16);
  Fx fx(Fixed(plain, ds));
  CHECK((fx.b.U32(fx.entry + f::entry::kType) >> 16 & f::kSectionRequired) != 0);
  // The f32 sections are the source model's: the float path's outputs are unchanged.
  Blob src(plain);
  rfk::Model m0;
  REQUIRE(src.Open(&m0) == rfk::Status::kOk);
  std::vector<std::uint64_t> s0(rfk::ScratchBytes(m0) / 8 + 2), s1(rfk::ScratchBytes(fx.m) / 8 + 2);
  float o0 = 0, o1 = 1;
  REQUIRE(rfk::Predict(m0, ds.dense.data(), 3, s0.data(), rfk::ScratchBytes(m0), &o0, 1) == rfk::Status::kOk);
  REQUIRE(rfk::Predict(fx.m, ds.dense.data(), 3, s1.data(), rfk::ScratchBytes(fx.m), &o1, 1) == rfk::Status::kOk);
  CHECK(o0 == o1);
  // The converter refuses a second section and an empty calibration set (Fastfood maps convert:
  // tests/core/test_fixed_fastfood.cc).
  CHECK_THROWS_AS(rfk::host::FixedModel(fx.m, ds), rfk::host::QuantizeError);
  CHECK_THROWS_AS(rfk::host::FixedModel(m0, rfk::host::Dataset{}), rfk::host::QuantizeError);
}

TEST_CASE("fixed: argument checks of PredictFixed and QuantizeInput") {
  const rfk::host::Dataset ds = Data(3, 100, 3);
  Fx fx(Fixed(Trained(ds, f::MapKind::kFourier, 16), ds));
  const rfk::Model& m = fx.m;
  alignas(16) std::uint8_t scratch[64];
  std::int16_t x[3] = {1, 2, 3};
  std::int32_t out[3];
  CHECK(rfk::PredictFixed(m, x, 3, scratch, sizeof scratch, out, 3) == rfk::Status::kOk);
  CHECK(rfk::PredictFixed(m, nullptr, 3, scratch, sizeof scratch, out, 3) == rfk::Status::kNullArgument);
  CHECK(rfk::PredictFixed(m, x, 3, nullptr, sizeof scratch, out, 3) == rfk::Status::kNullArgument);
  CHECK(rfk::PredictFixed(m, x, 2, scratch, sizeof scratch, out, 3) == rfk::Status::kInputDimMismatch);
  CHECK(rfk::PredictFixed(m, x, 3, scratch, sizeof scratch, out, 2) == rfk::Status::kOutputTooSmall);
  CHECK(rfk::PredictFixed(m, x, 3, scratch + 8, 48, out, 3) == rfk::Status::kMisalignedScratch);
  CHECK(rfk::PredictFixed(m, x, 3, scratch, rfk::FixedScratchBytes(m) - 1, out, 3) == rfk::Status::kScratchTooSmall);
  Blob plain(Trained(ds, f::MapKind::kFourier, 16));
  rfk::Model mp;
  REQUIRE(plain.Open(&mp) == rfk::Status::kOk);
  CHECK(rfk::PredictFixed(mp, x, 3, scratch, sizeof scratch, out, 3) == rfk::Status::kUnsupportedStorage);
  CHECK(rfk::FixedOutputScale(mp) == 0.0f);
  float xf[3] = {0, 0, 0};
  CHECK(rfk::QuantizeInput(mp, xf, 3, x, 3) == rfk::Status::kUnsupportedStorage);
  CHECK(rfk::QuantizeInput(m, xf, 2, x, 3) == rfk::Status::kInputDimMismatch);
  CHECK(rfk::QuantizeInput(m, xf, 3, x, 2) == rfk::Status::kOutputTooSmall);
  xf[1] = NAN;
  CHECK(rfk::QuantizeInput(m, xf, 3, x, 3) == rfk::Status::kNonFiniteInput);  // no impute section
  xf[1] = INFINITY;
  CHECK(rfk::QuantizeInput(m, xf, 3, x, 3) == rfk::Status::kNonFiniteInput);
}

TEST_CASE("fixed: QuantizeInput rounds half away from zero and counts what it clamps") {
  const rfk::host::Dataset ds = Data(2, 100, 2);
  Fx fx(Fixed(Trained(ds, f::MapKind::kFourier, 8), ds));
  fx.Set<float>(fx.l.offset, 1.0f);
  fx.Set<float>(fx.l.offset + 4, 0.0f);
  fx.Set<float>(fx.l.scale, 2.0f);
  fx.Set<float>(fx.l.scale + 4, 1.0f);
  REQUIRE(fx.Reopen().status == rfk::Status::kOk);
  struct Row {
    float x0, x1;
    std::int16_t q0, q1;
    std::uint32_t saturated;
  };
  for (const Row r : {Row{1.25f, 2.5f, 1, 3, 0}, Row{0.75f, -2.5f, -1, -3, 0}, Row{1.2f, -2.49f, 0, -2, 0},
                      Row{20000.0f, 32767.49f, 32767, 32767, 1}, Row{-20000.0f, -32767.5f, -32767, -32767, 2},
                      Row{1.0f, 40000.0f, 0, 32767, 1}}) {
    const float x[2] = {r.x0, r.x1};
    std::int16_t q[2] = {};
    std::uint32_t sat = 99;
    REQUIRE(rfk::QuantizeInput(fx.m, x, 2, q, 2, &sat) == rfk::Status::kOk);
    CHECK(q[0] == r.q0);
    CHECK(q[1] == r.q1);
    CHECK(sat == r.saturated);
  }
}

TEST_CASE("fixed: decisions and outputs agree with the f32 model they came from") {
  for (const int classes : {2, 3, 0}) {
    CAPTURE(classes);
    const rfk::host::Dataset ds = Data(4, 600, classes, 5);
    const std::vector<std::uint8_t> plain = Trained(ds, f::MapKind::kFourier, 128);
    rfk::host::FixedReport rep;
    Fx fx(Fixed(plain, ds, &rep));
    CHECK(rep.rows == 600);
    CHECK(rep.values == 2400);
    CHECK(rep.saturated == 0);  // the ranges come from these very rows
    CHECK(rep.clamped_weights == 0);
    Blob src(plain);
    rfk::Model m0;
    REQUIRE(src.Open(&m0) == rfk::Status::kOk);
    std::vector<std::uint64_t> scratch(rfk::ScratchBytes(m0) / 8 + 2);
    std::vector<float> o(m0.num_outputs);
    std::vector<std::int16_t> xq(4);
    std::size_t same = 0;
    double err2 = 0, y2 = 0;
    for (std::size_t r = 0; r < ds.rows; ++r) {
      const float* x = ds.dense.data() + r * 4;
      REQUIRE(rfk::Predict(m0, x, 4, scratch.data(), rfk::ScratchBytes(m0), o.data(), o.size()) == rfk::Status::kOk);
      REQUIRE(rfk::QuantizeInput(fx.m, x, 4, xq.data(), 4) == rfk::Status::kOk);
      const std::vector<std::int32_t> q = Predict(fx.m, xq);
      same += rfk::DecideClassRaw(m0, o.data()) == rfk::DecideClassFixed(fx.m, q.data()) ? 1 : 0;
      const double real = q[0] * double(rfk::FixedOutputScale(fx.m));
      err2 += (real - o[0]) * (real - o[0]);
      y2 += double(o[0]) * o[0];
    }
    if (classes != 0) CHECK(same >= ds.rows * 99 / 100);
    CHECK(std::sqrt(err2 / y2) < 0.03);  // relative RMS change of the outputs (measured: 0.16 %, 0.002 %, 1.4 %)
  }
}

TEST_CASE("fixed: rfk convert --fixed, then eval and predict through the integer path") {
  rfk_test::TempDir tmp;
  const std::string cli = RFK_CLI, train = tmp.Path("t.csv"), model = tmp.Path("m.rfk"), fixed = tmp.Path("f.rfk");
  const rfk::host::Dataset ds = Data(2, 200, 2);
  std::string csv;
  for (std::size_t r = 0; r < ds.rows; ++r)
    csv += std::to_string(ds.dense[2 * r]) + "," + std::to_string(ds.dense[2 * r + 1]) + "," + ds.labels[r] + "\n";
  rfk_test::WriteText(train, csv);
  REQUIRE(rfk_test::Run(cli + " train --train " + train + " -D 32 -o " + model).status == 0);
  rfk_test::CommandResult r = rfk_test::Run(cli + " convert -m " + model + " --fixed -o " + fixed);
  CHECK(r.status == 1);
  CHECK(r.err.find("--fixed-only need --calibrate") != std::string::npos);
  r = rfk_test::Run(cli + " convert -m " + model + " --fixed --calibrate " + train + " --storage int8 -o " + fixed);
  CHECK(r.status == 1);
  r = rfk_test::Run(cli + " convert -m " + model + " --fixed --calibrate " + train + " -o " + fixed);
  REQUIRE(r.status == 0);
  CHECK(r.err.find("0 of 400 input values saturated") != std::string::npos);
  r = rfk_test::Run(cli + " convert -m " + fixed + " --fixed --calibrate " + train + " -o " + tmp.Path("again.rfk"));
  CHECK(r.status == 1);
  CHECK(r.err.find("already a fixed-point model") != std::string::npos);
  r = rfk_test::Run(cli + " eval -m " + fixed + " " + train + " --json");
  REQUIRE(r.status == 0);
  CHECK(r.out.find("\"fixed_point\": true, \"saturated_inputs\": 0") != std::string::npos);
  // --fixed-only: the same decisions from a smaller model; inspect and export --vectors read it.
  const std::string only = tmp.Path("only.rfk");
  REQUIRE(rfk_test::Run(cli + " convert -m " + model + " --fixed-only --calibrate " + train + " -q -o " + only).status == 0);
  CHECK(rfk_test::Run(cli + " predict -m " + only + " " + train).out == rfk_test::Run(cli + " predict -m " + fixed + " " + train).out);
  CHECK(rfk_test::Run(cli + " inspect " + only).status == 0);
  r = rfk_test::Run(cli + " export -m " + only + " --c-header " + tmp.Path("only.h") + " --name only --vectors " + train +
                    " --count 3");
  CHECK(r.status == 0);
  CHECK(rfk_test::ReadText(tmp.Path("only.h")).find("only_outputs_q[3]") != std::string::npos);
  CHECK(rfk_test::ReadText(tmp.Path("only.h")).find("#define ONLY_FIXED_SCRATCH_BYTES 16u") != std::string::npos);
  // rfk predict --decision raw's labels are the integer path's decisions, row by row; the default's
  // are DecideClass on its outputs' real values (the calibrated decision, as on the float path).
  r = rfk_test::Run(cli + " predict --decision raw -m " + fixed + " " + train);
  REQUIRE(r.status == 0);
  const auto calibrated = rfk_test::Run(cli + " predict -m " + fixed + " " + train);
  const rfk::host::AlignedBytes bytes = rfk::host::ReadFileBytes(fixed);
  rfk::Model m;
  REQUIRE(rfk::OpenModel(bytes.data(), bytes.size(), &m) == rfk::Status::kOk);
  REQUIRE(m.calibration_method != 0);
  std::string want, want_calibrated;
  for (std::size_t row = 0; row < ds.rows; ++row) {
    // The CSV's text parsed back as rfk reads it (std::to_string keeps 6 decimals).
    const float x[2] = {std::stof(std::to_string(ds.dense[2 * row])), std::stof(std::to_string(ds.dense[2 * row + 1]))};
    std::int16_t xq[2];
    REQUIRE(rfk::QuantizeInput(m, x, 2, xq, 2) == rfk::Status::kOk);
    const std::vector<std::int32_t> q = Predict(m, {xq[0], xq[1]});
    want += std::string(rfk::ClassLabel(m, rfk::DecideClassFixed(m, q.data()))) + "\n";
    std::vector<float> real(q.size());
    for (std::size_t k = 0; k < q.size(); ++k) real[k] = static_cast<float>(q[k] * double(rfk::FixedOutputScale(m)));
    want_calibrated += std::string(rfk::ClassLabel(m, rfk::DecideClass(m, real.data()))) + "\n";
  }
  CHECK(r.out == want);
  CHECK(calibrated.out == want_calibrated);
}

TEST_CASE("fixed: a fixed-only model has the same section and integers, and the float path refuses it") {
  for (const f::MapKind map : {f::MapKind::kFourierPhase, f::MapKind::kOrthogonal}) {
    CAPTURE(f::NameOf(map));
    const rfk::host::Dataset ds = Data(3, 200, 3);
    const std::vector<std::uint8_t> plain = Trained(ds, map, 32);
    const std::vector<std::uint8_t> full = Fixed(plain, ds), only = [&] {
      Blob b(plain);
      rfk::Model m;
      REQUIRE(b.Open(&m) == rfk::Status::kOk);
      return rfk::host::FixedModel(m, ds, nullptr, true);
    }();
    CHECK(only.size() < full.size());
    Fx a(full), b(only);
    CHECK(b.m.projection_weights.data == nullptr);
    CHECK(b.m.phase == nullptr);
    CHECK(b.m.mean == nullptr);
    CHECK(a.l.bytes == b.l.bytes);
    CHECK(std::memcmp(rfk::FixedSection(a.m), rfk::FixedSection(b.m), a.l.bytes) == 0);
    for (const auto& x : Inputs(b.m, ds)) CHECK(Predict(a.m, x) == Predict(b.m, x));
    std::vector<std::uint64_t> scratch(rfk::BatchScratchBytes(b.m) / 8 + 2);
    std::vector<float> out(3 * b.m.num_outputs);
    CHECK(rfk::Predict(b.m, ds.dense.data(), 3, scratch.data(), rfk::ScratchBytes(b.m), out.data(), out.size()) ==
          rfk::Status::kUnsupportedStorage);
    CHECK(rfk::PredictBatch(b.m, ds.dense.data(), 3, 9, scratch.data(), rfk::BatchScratchBytes(b.m), out.data(),
                            out.size()) == rfk::Status::kUnsupportedStorage);
    // The float model beside a fixed section still needs its phases (found by the model fuzzer: the
    // float path read the phase form as pairs and wrote past its scratch).
    if (map == f::MapKind::kFourierPhase) {
      Fx c(full);
      const std::size_t phase = c.b.Entry(f::SectionType::kPhase);
      c.b.SetU16(phase + f::entry::kType, 30);
      c.b.SetU16(phase + f::entry::kFlags, 0);
      const rfk::ModelError missing = c.Reopen();
      CHECK(missing.status == rfk::Status::kMissingSection);
      CHECK(std::string(missing.field) == "phase");
    }
    // Without its fixed section the same model is missing W (the section's table entry retyped to
    // an unknown optional type, so the rest of the table still reads).
    b.b.SetU16(b.entry + f::entry::kType, 30);
    b.b.SetU16(b.entry + f::entry::kFlags, 0);
    const rfk::ModelError err = b.Reopen();
    CHECK(err.status == rfk::Status::kMissingSection);
    CHECK(std::string(err.field) == "projection");
  }
}

TEST_CASE("fixed: a fixed section beside a map the integer path does not compute is refused") {
  // A valid section (from a dense model of the same d, F, K, D) appended to a Fastfood model: it
  // lacks the Fastfood tail: kBadSectionSize at fixed.size. (Binning: test_fixed_binning.cc.)
  const rfk::host::Dataset ds = Data(3, 200, 2);
  Fx dense(Fixed(Trained(ds, f::MapKind::kFourier, 32), ds));
  const std::vector<std::uint8_t> section(rfk::FixedSection(dense.m), rfk::FixedSection(dense.m) + dense.l.bytes);
  rfk::host::TrainOptions o;
  o.features = 32;
  o.map = f::MapKind::kFastfood;
  const std::vector<std::uint8_t> fastfood = rfk::host::Train(ds, o).model;
  for (const auto* bytes : {&fastfood}) {
    Blob src(*bytes);
    rfk::Model m;
    REQUIRE(src.Open(&m) == rfk::Status::kOk);
    std::vector<rfk::host::RawSection> sections;
    const std::uint32_t count = src.U32(f::kOffSectionCount), table = src.U32(f::kOffSectionTable);
    for (std::uint32_t i = 0; i < count; ++i) {
      const std::size_t e = table + i * f::kSectionEntryBytes;
      rfk::host::RawSection s;
      s.type = static_cast<std::uint16_t>(src.U32(e) & 0xFFFF);
      s.flags = static_cast<std::uint16_t>(src.U32(e) >> 16);
      s.payload.assign(src.data() + src.U32(e + f::entry::kOffset),
                       src.data() + src.U32(e + f::entry::kOffset) + src.U32(e + f::entry::kSize));
      sections.push_back(s);
    }
    sections.push_back({static_cast<std::uint16_t>(f::SectionType::kFixed), f::kSectionRequired, section});
    Blob b(rfk::host::AssembleModel(sections));
    rfk::ModelError err;
    const rfk::Status status = b.Open(nullptr, &err);
    if (bytes == &fastfood) {
      CHECK(status == rfk::Status::kBadSectionSize);
      CHECK(std::string(err.field) == "fixed.size");
      CHECK(err.offset == b.Entry(f::SectionType::kFixed) + f::entry::kSize);
      continue;
    }
    CHECK(status == rfk::Status::kUnsupportedMap);
    CHECK(std::string(err.field) == "fixed");
    CHECK(err.offset == b.Entry(f::SectionType::kFixed));
  }
}

TEST_CASE("fixed: weights beyond the integer path's range are counted, not silently clamped") {
  // Trained on one unstandardised column in [-50, 50] at gamma 1, calibrated on rows spanning
  // +-5e9: a step of the int16 input is then about 1.5e5 units, far past 16,383 periods of W's rows.
  rfk::host::Dataset ds, wide;
  ds.source = wide.source = "t";
  ds.cols = wide.cols = 1;
  for (int i = 0; i < 100; ++i) {
    ds.dense.push_back(float(i - 50));
    wide.dense.push_back(float(i - 50) * 1e8f);
    ds.labels.push_back(std::to_string(i % 2));
    ds.lines.push_back(std::size_t(i) + 1);
    ++ds.rows;
  }
  wide.labels = ds.labels;
  wide.lines = ds.lines;
  wide.rows = ds.rows;
  rfk::host::TrainOptions o;
  o.features = 32;
  o.gamma = 1.0;
  o.standardize = 0;
  Blob b(rfk::host::Train(ds, o).model);
  rfk::Model m;
  REQUIRE(b.Open(&m) == rfk::Status::kOk);
  rfk::host::FixedReport rep;
  (void)rfk::host::FixedModel(m, ds, &rep);
  CHECK(rep.clamped_weights == 0);
  (void)rfk::host::FixedModel(m, wide, &rep);
  CHECK(rep.clamped_weights > 0);
  CHECK(rep.clamped_weights <= 16);  // one weight per row of W at most (d = 1, F = 16)
}

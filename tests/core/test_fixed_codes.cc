// Integer inputs end to end (rfk_quantize_codes, rfk::host::MakeInputCodes, `rfk export`'s
// NAME_INPUT_CODES): integer codes become a fixed model's int16 inputs by integer arithmetic, within
// one step of QuantizeInput's float conversion of the same numbers, with no undefined behaviour for
// any code or constant.
#include <doctest/doctest.h>

#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "fixed_util.h"
#include "rfk/fixed.hpp"
#include "rfk/host/fixed.hpp"
#include "rfk/rfk.h"
#include "test_util.h"

using namespace fixed_util;

namespace {

// Rows of whole numbers on very different ranges (a flag, a 10-step knob, a 12-bit ADC, a wide
// counter around an offset), labels from a nonlinear rule.
rfk::host::Dataset Codes(std::size_t rows, unsigned seed) {
  rfk::host::Dataset ds;
  ds.source = "codes";
  ds.cols = 4;
  std::mt19937 gen(seed);
  const std::int32_t lo[4] = {0, -5, 0, 1000000}, span[4] = {1, 10, 4095, 250000};
  for (std::size_t i = 0; i < rows; ++i) {
    double s = 0;
    for (std::size_t c = 0; c < 4; ++c) {
      const std::int32_t v = lo[c] + static_cast<std::int32_t>(gen() % (static_cast<std::uint32_t>(span[c]) + 1));
      ds.dense.push_back(static_cast<float>(v));
      s += std::sin(static_cast<double>(v - lo[c]) / span[c] * 3.0);
    }
    ds.labels.push_back(s > 2.0 ? "a" : "b");
    ds.lines.push_back(i + 1);
    ++ds.rows;
  }
  return ds;
}

}  // namespace

TEST_CASE("fixed codes: rfk_quantize_codes is QuantizeInput within one step on integer inputs, dense and Fastfood") {
  const rfk::host::Dataset ds = Codes(400, 7);
  for (const f::MapKind map : {f::MapKind::kFourier, f::MapKind::kFastfood}) {
    CAPTURE(f::NameOf(map));
    Fx fx(Fixed(Trained(ds, map, 64), ds));
    const rfk::host::InputCodes c = rfk::host::MakeInputCodes(fx.m);
    const rfk_input_codes conv = c.View();
    // The calibration range and three times beyond it on each side, with the extremes of int32.
    std::mt19937 gen(11);
    std::uint64_t values = 0, equal = 0, far = 0;
    std::int32_t code[4];
    float x[4];
    for (int r = 0; r < 20000; ++r) {
      for (int j = 0; j < 4; ++j) {
        const std::int64_t lo = j == 3 ? 1000000 : j == 1 ? -5 : 0, span = j == 3 ? 250000 : j == 2 ? 4095 : j == 1 ? 10 : 1;
        std::int64_t v = lo - 3 * span + static_cast<std::int64_t>(gen() % static_cast<std::uint32_t>(7 * span + 1));
        if (r % 997 == 0) v = j % 2 ? std::numeric_limits<std::int32_t>::max() : std::numeric_limits<std::int32_t>::min();
        code[j] = static_cast<std::int32_t>(v);
        x[j] = static_cast<float>(code[j]);
      }
      std::int16_t want[4], got[4];
      std::uint32_t sat_want = 0, sat_got = 0;
      REQUIRE(rfk::QuantizeInput(fx.m, x, 4, want, 4, &sat_want) == rfk::Status::kOk);
      REQUIRE(rfk_quantize_codes(&conv, code, 4, got, 4, &sat_got) == RFK_OK);
      for (int j = 0; j < 4; ++j) {
        CAPTURE(code[j]);
        CHECK(std::abs(int{got[j]} - int{want[j]}) <= 1);
        equal += got[j] == want[j];
        far += std::abs(int{want[j]}) == 32767;
        ++values;
      }
      if (std::abs(static_cast<int>(sat_got) - static_cast<int>(sat_want)) > 0) {
        // Only a value within a step of the clamp can be counted by one and not the other.
        bool near = false;
        for (int j = 0; j < 4; ++j) near = near || std::abs(int{want[j]}) >= 32766;
        CHECK(near);
      }
    }
    CHECK(far > 0);  // the clamp was reached
    // QuantizeInput rounds (code - offset) in float before scaling; the integer form is exact to
    // 2^-14 of a step: they part only where a value lies that close to a half.
    CHECK(static_cast<double>(equal) >= 0.999 * static_cast<double>(values));
  }
}

TEST_CASE("fixed codes: extreme constants and codes are clamped without overflow, bad arguments refused") {
  const std::int32_t kMax = std::numeric_limits<std::int32_t>::max(), kMin = std::numeric_limits<std::int32_t>::min();
  const std::int32_t center[3] = {kMin + 1, kMax, 0}, mult[3] = {kMax, -kMax, kMax}, bias[3] = {kMax, -kMax, -kMax};
  const std::uint8_t shift[3] = {0, 62, 31};
  const rfk_input_codes conv{3, center, mult, bias, shift};
  for (const std::int32_t a : {kMin, -1, 0, 1, kMax}) {
    const std::int32_t codes[3] = {a, a, a};
    std::int16_t q[3];
    std::uint32_t sat = 99;
    REQUIRE(rfk_quantize_codes(&conv, codes, 3, q, 3, &sat) == RFK_OK);
    for (const std::int16_t v : q) CHECK((v >= -32767 && v <= 32767));
    CHECK(sat <= 3);
  }
  const std::int32_t zero[3] = {0, 0, 0};
  const std::int32_t codes[3] = {5, -5, 0};
  std::int16_t q[3];
  const std::uint8_t small[3] = {1, 2, 0};
  const std::int32_t big[3] = {kMax, kMax, kMax};
  const rfk_input_codes exact{3, zero, big, zero, small};  // mult kMax: clamps unless the code is 0
  const std::int32_t one[3] = {1, 1, 1};
  const rfk_input_codes unit{3, zero, one, zero, small};  // code / 2^shift, rounded half away from zero
  REQUIRE(rfk_quantize_codes(&unit, codes, 3, q, 3, nullptr) == RFK_OK);
  CHECK(q[0] == 3);   // 5 / 2 = 2.5 -> 3
  CHECK(q[1] == -1);  // -5 / 4 = -1.25 -> -1
  CHECK(q[2] == 0);
  REQUIRE(rfk_quantize_codes(&exact, codes, 3, q, 3, nullptr) == RFK_OK);
  CHECK(q[0] == 32767);
  CHECK(q[2] == 0);
  const std::uint8_t bad_shift[3] = {0, 63, 0};
  const rfk_input_codes bad{3, zero, one, zero, bad_shift};
  CHECK(rfk_quantize_codes(&bad, codes, 3, q, 3, nullptr) == RFK_ARGUMENT_OUT_OF_RANGE);
  CHECK(rfk_quantize_codes(&unit, codes, 2, q, 3, nullptr) == RFK_INPUT_DIM_MISMATCH);
  CHECK(rfk_quantize_codes(&unit, codes, 3, q, 2, nullptr) == RFK_OUTPUT_TOO_SMALL);
  CHECK(rfk_quantize_codes(nullptr, codes, 3, q, 3, nullptr) == RFK_NULL_ARGUMENT);
  CHECK(rfk_quantize_codes(&unit, nullptr, 3, q, 3, nullptr) == RFK_NULL_ARGUMENT);
  const rfk_input_codes missing{3, zero, nullptr, zero, small};
  CHECK(rfk_quantize_codes(&missing, codes, 3, q, 3, nullptr) == RFK_NULL_ARGUMENT);
}

TEST_CASE("fixed codes: rfk export writes the constants, code vectors for integer data, and the core configuration") {
  rfk_test::TempDir tmp;
  const rfk::host::Dataset ds = Codes(300, 3);
  std::string csv;
  for (std::size_t i = 0; i < ds.rows; ++i) {
    for (std::size_t c = 0; c < 4; ++c) csv += std::to_string(static_cast<std::int64_t>(ds.dense[i * 4 + c])) + ",";
    csv += ds.labels[i] + "\n";
  }
  rfk_test::WriteText(tmp.Path("codes.csv"), csv);
  const std::string cli = RFK_CLI;
  REQUIRE(rfk_test::Run(cli + " train --train " + tmp.Path("codes.csv") + " -D 64 -q -o " + tmp.Path("m.rfk")).status == 0);
  REQUIRE(rfk_test::Run(cli + " convert -m " + tmp.Path("m.rfk") + " --fixed-only --calibrate " + tmp.Path("codes.csv") +
                        " -q -o " + tmp.Path("f.rfk")).status == 0);
  auto r = rfk_test::Run(cli + " export -m " + tmp.Path("f.rfk") + " --c-header " + tmp.Path("f.h") +
                         " --name sensor --vectors " + tmp.Path("codes.csv") + " --count 5");
  REQUIRE_MESSAGE(r.status == 0, r.err);
  const std::string h = rfk_test::ReadText(tmp.Path("f.h"));
  CHECK(h.find("#define SENSOR_INPUT_CODES {SENSOR_INPUT_DIM, sensor_code_center, sensor_code_mult, sensor_code_bias, "
               "sensor_code_shift}") != std::string::npos);
  CHECK(h.find("static const int32_t sensor_code_mult[4] = {") != std::string::npos);
  CHECK(h.find("#define SENSOR_CODE_VECTORS 5u") != std::string::npos);
  CHECK(h.find("static const int32_t sensor_codes[20] = {") != std::string::npos);
  CHECK(h.find("static const int16_t sensor_codes_q[20] = {") != std::string::npos);
  // Data with a fraction: the constants, but no code vectors.
  rfk_test::WriteText(tmp.Path("frac.csv"), "0.5,1,2,1000000,a\n");
  r = rfk_test::Run(cli + " export -m " + tmp.Path("f.rfk") + " --c-header " + tmp.Path("g.h") +
                    " --name sensor --vectors " + tmp.Path("frac.csv"));
  REQUIRE_MESSAGE(r.status == 0, r.err);
  const std::string g = rfk_test::ReadText(tmp.Path("g.h"));
  CHECK(g.find("SENSOR_INPUT_CODES") != std::string::npos);
  CHECK(g.find("CODE_VECTORS") == std::string::npos);
  // A float model has no integer input conversion.
  r = rfk_test::Run(cli + " export -m " + tmp.Path("m.rfk") + " --c-header " + tmp.Path("m.h") + " --name plain");
  REQUIRE(r.status == 0);
  CHECK(rfk_test::ReadText(tmp.Path("m.h")).find("INPUT_CODES") == std::string::npos);
  // --config-header: the core configuration each model needs.
  for (const char* model : {"m", "f"}) {
    const std::string cfg = tmp.Path(std::string(model) + "_config.h");
    r = rfk_test::Run(cli + " export -m " + tmp.Path(std::string(model) + ".rfk") + " --c-header " + tmp.Path("x.h") +
                      " --name x --config-header " + cfg);
    REQUIRE_MESSAGE(r.status == 0, r.err);
    const std::string c = rfk_test::ReadText(cfg);
    const bool fixed = std::string(model) == "f";
    CHECK(c.find(std::string("#define RFK_CORE_FLOAT ") + (fixed ? "0" : "1")) != std::string::npos);
    CHECK(c.find(std::string("#define RFK_CORE_FIXED ") + (fixed ? "1" : "0")) != std::string::npos);
    CHECK(c.find(std::string("#define RFK_FIXED_DENSE ") + (fixed ? "1" : "0")) != std::string::npos);
    CHECK(c.find("#define RFK_FIXED_FASTFOOD 0") != std::string::npos);
    CHECK(c.find("#define RFK_FIXED_BINNING 0") != std::string::npos);
    // The float path: the dense f32 map of m, nothing of it in the fixed-only f.
    CHECK(c.find(std::string("#define RFK_FLOAT_DENSE ") + (fixed ? "0" : "1")) != std::string::npos);
    CHECK(c.find("#define RFK_FLOAT_FASTFOOD 0") != std::string::npos);
    CHECK(c.find("#define RFK_FLOAT_BINNING 0") != std::string::npos);
    CHECK(c.find("#define RFK_FLOAT_QUANT 0") != std::string::npos);
    CHECK(c.find("#define RFK_FLOAT_INT8 0") != std::string::npos);
    CHECK(c.find("#define RFK_FLOAT_F16 0") != std::string::npos);
    CHECK(c.find("#define RFK_HEAD_F32 1") != std::string::npos);  // m's head is f32; f has no float path
    // m: [cos, sin] pairs in panels, no impute; names not read.
    CHECK(c.find(std::string("#define RFK_FORM_PAIR ") + (fixed ? "0" : "1")) != std::string::npos);
    CHECK(c.find("#define RFK_FORM_PHASE 0") != std::string::npos);
    CHECK(c.find("#define RFK_LAYOUT_ROWS 0") != std::string::npos);
    CHECK(c.find("#define RFK_READ_IMPUTE 0") != std::string::npos);
    CHECK(c.find("#define RFK_READ_NAMES 0") != std::string::npos);
  }
  // The phase form and an impute section, each in the configuration of a model that has it.
  REQUIRE(rfk_test::Run(cli + " train --train " + tmp.Path("codes.csv") + " -D 64 --map fourier-phase --missing mean" +
                        " --no-calibration -q -o " + tmp.Path("p.rfk")).status == 0);
  r = rfk_test::Run(cli + " export -m " + tmp.Path("p.rfk") + " --c-header " + tmp.Path("x.h") +
                    " --name x --config-header " + tmp.Path("p_config.h"));
  REQUIRE_MESSAGE(r.status == 0, r.err);
  const std::string p = rfk_test::ReadText(tmp.Path("p_config.h"));
  CHECK(p.find("#define RFK_FORM_PAIR 0") != std::string::npos);
  CHECK(p.find("#define RFK_FORM_PHASE 1") != std::string::npos);
  CHECK(p.find("#define RFK_READ_IMPUTE 1") != std::string::npos);
  CHECK(p.find("#define RFK_READ_CALIBRATION 0") != std::string::npos);
  // Each stored weight's own switch: a model converted to int8 takes RFK_FLOAT_INT8 alone, one
  // converted to f16 RFK_FLOAT_F16 alone.
  for (const char* storage : {"int8", "f16"}) {
    const std::string q = tmp.Path(std::string(storage) + ".rfk"), qc = tmp.Path(std::string(storage) + "_config.h");
    REQUIRE(rfk_test::Run(cli + " convert -m " + tmp.Path("m.rfk") + " --storage " + storage + " -o " + q).status == 0);
    r = rfk_test::Run(cli + " export -m " + q + " --c-header " + tmp.Path("x.h") + " --name x --config-header " + qc);
    REQUIRE_MESSAGE(r.status == 0, r.err);
    const std::string c = rfk_test::ReadText(qc);
    const bool int8 = std::string(storage) == "int8";
    CHECK(c.find("#define RFK_FLOAT_QUANT 1") != std::string::npos);
    CHECK(c.find(std::string("#define RFK_FLOAT_INT8 ") + (int8 ? "1" : "0")) != std::string::npos);
    CHECK(c.find(std::string("#define RFK_FLOAT_F16 ") + (int8 ? "0" : "1")) != std::string::npos);
  }
}

// Calibrated class probabilities: the fits (calibration.h) on data whose true probabilities are
// known, the core's Probabilities against a double-precision reference for every method (the
// ones training writes, platt-cubic and softmax-vector, and the first ones, platt and
// softmax-temperature, that older models carry), the calibration section's validator (each
// corruption has its field) and byte flips behind a fixed checksum, and training: the section by
// default, none with calibrate = false, the same bytes on any thread count.
#include <doctest/doctest.h>

#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "training/calibration.h"
#include "rfk/host/data.hpp"
#include "rfk/host/train.hpp"
#include "rfk/model.hpp"
#include "rfk/rfk.h"
#include "test_util.h"

namespace {

namespace f = rfk::format;
using rfk::Status;
using rfk_test::Blob;

// Deterministic uniform in (0, 1) (a splitmix-style hash of i).
double Uniform(std::uint64_t i, std::uint64_t stream) {
  std::uint64_t z = i * 0x9E3779B97F4A7C15ull + stream * 0xBF58476D1CE4E5B9ull + 1;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  z ^= z >> 31;
  return (static_cast<double>(z >> 11) + 0.5) / 9007199254740992.0;
}

// Three classes in 4-D, with a class signal and noise.
rfk::host::Dataset Data(std::size_t rows, std::uint32_t classes) {
  rfk::host::Dataset ds;
  ds.source = "calibration";
  ds.rows = rows;
  ds.cols = 4;
  for (std::size_t i = 0; i < rows; ++i) {
    const std::uint32_t c = static_cast<std::uint32_t>(i % classes);
    for (std::size_t k = 0; k < 4; ++k)
      ds.dense.push_back(static_cast<float>(2.0 * Uniform(i, k) + (k == c ? 1.0 : 0.0)));
    ds.labels.push_back(std::to_string(c));
    ds.lines.push_back(i + 1);
  }
  return ds;
}

std::vector<std::uint8_t> Model(std::uint32_t classes, bool calibrate, unsigned threads = 1) {
  rfk::host::TrainOptions o;
  o.features = 32;
  o.gamma = 0;
  o.lambda = 1e-3;
  o.threads = threads;
  o.calibrate = calibrate;
  const rfk::host::TrainResult r = rfk::host::Train(Data(300, classes), o);
  return r.model;
}

using M = f::CalibrationMethod;
constexpr std::uint32_t Num(M m) { return static_cast<std::uint32_t>(m); }

// The model `bytes` with its calibration section replaced by `method`, K = its outputs, `params`
// (or removed, method 0): every other section copied byte for byte.
std::vector<std::uint8_t> WithCalibration(const std::vector<std::uint8_t>& bytes, std::uint32_t method,
                                          const std::vector<float>& params) {
  Blob p(bytes);
  std::vector<rfk::host::RawSection> sections;
  const std::uint32_t count = p.U32(f::kOffSectionCount);
  std::uint32_t K = 0;
  for (std::uint32_t i = 0; i < count; ++i) {
    const std::size_t entry = f::kHeaderBytes + i * f::kSectionEntryBytes;
    std::uint16_t type, flags;
    std::memcpy(&type, p.data() + entry, 2);
    std::memcpy(&flags, p.data() + entry + 2, 2);
    const std::uint32_t off = p.U32(entry + 4), size = p.U32(entry + 8);
    if (type == static_cast<std::uint16_t>(f::SectionType::kCalibration)) {
      K = p.U32(off + f::calibration::kNumOutputs);
      continue;
    }
    sections.push_back({type, flags, std::vector<std::uint8_t>(p.data() + off, p.data() + off + size)});
  }
  if (method != 0) {
    std::vector<std::uint8_t> payload(8 + 4 * params.size());
    std::memcpy(payload.data(), &method, 4);
    std::memcpy(payload.data() + 4, &K, 4);
    std::memcpy(payload.data() + 8, params.data(), 4 * params.size());
    sections.push_back({static_cast<std::uint16_t>(f::SectionType::kCalibration), 0, payload});
  }
  return rfk::host::AssembleModel(sections);
}

// An opened model's calibration as the host's double-precision one (its stored f32 values).
rfk::host::Calibration HostCalibration(const rfk::Model& m) {
  rfk::host::Calibration c{m.calibration_method, {}};
  const std::uint64_t n = (f::calibration::Bytes(m.calibration_method, m.num_outputs) - 8) / 4;
  for (std::uint64_t q = 0; q < n; ++q) {
    float v;
    std::memcpy(&v, m.calibration_params + 4 * q, 4);
    c.params.push_back(v);
  }
  return c;
}

}  // namespace

TEST_CASE("Platt's fit recovers A and B of logistic data") {
  const double A = -2.0, B = 0.5;
  std::vector<double> s;
  std::vector<std::uint8_t> y;
  for (std::uint64_t i = 0; i < 40000; ++i) {
    const double si = 4.0 * Uniform(i, 1) - 2.0;
    s.push_back(si);
    y.push_back(Uniform(i, 2) < 1.0 / (1.0 + std::exp(A * si + B)) ? 1 : 0);
  }
  const rfk::host::Calibration c = rfk::host::FitPlatt(s, y, {});
  CHECK(c.method == static_cast<std::uint32_t>(f::CalibrationMethod::kPlatt));
  CHECK(c.params[0] == doctest::Approx(A).epsilon(0.05));
  CHECK(c.params[1] == doctest::Approx(B).epsilon(0.1));
  // Row weights: weight 2 fits as the row written twice.
  std::vector<double> w(s.size(), 1.0), s2 = s;
  std::vector<std::uint8_t> y2 = y;
  for (std::size_t i = 0; i < 1000; ++i) {
    w[i] = 2.0;
    s2.push_back(s[i]);
    y2.push_back(y[i]);
  }
  const rfk::host::Calibration cw = rfk::host::FitPlatt(s, y, w), cd = rfk::host::FitPlatt(s2, y2, {});
  CHECK(cw.params[0] == doctest::Approx(cd.params[0]).epsilon(1e-6));
  CHECK(cw.params[1] == doctest::Approx(cd.params[1]).epsilon(1e-6));
  CHECK_THROWS_AS(rfk::host::FitPlatt({1.0, 2.0}, {1, 1}, {}), rfk::host::TrainError);
}

TEST_CASE("the softmax scale's fit recovers the temperature of softmax data") {
  const std::uint32_t K = 4;
  const double A = 0.5;  // temperature 2
  std::vector<double> S;
  std::vector<std::uint32_t> cls;
  for (std::uint64_t i = 0; i < 40000; ++i) {
    double p[K], z = 0;
    for (std::uint32_t k = 0; k < K; ++k) {
      S.push_back(6.0 * Uniform(i, 10 + k) - 3.0);
      p[k] = std::exp(A * S.back());
      z += p[k];
    }
    double u = Uniform(i, 20) * z, acc = 0;
    std::uint32_t c = K - 1;
    for (std::uint32_t k = 0; k < K; ++k) {
      acc += p[k];
      if (u < acc) {
        c = k;
        break;
      }
    }
    cls.push_back(c);
  }
  const rfk::host::Calibration c = rfk::host::FitSoftmaxScale(S, K, cls, {});
  CHECK(c.method == static_cast<std::uint32_t>(f::CalibrationMethod::kSoftmax));
  CHECK(c.params[0] == doctest::Approx(A).epsilon(0.05));
  CHECK(c.params[1] == 0.0);
  // The fitted scale's log loss is no worse than the truth's or the raw scores' (A = 1).
  const double fitted = rfk::host::CalibratedLogLoss(c, S, K, cls, {});
  CHECK(fitted <= rfk::host::CalibratedLogLoss({c.method, {A, 0.0}}, S, K, cls, {}) + 1e-12);
  CHECK(fitted < rfk::host::CalibratedLogLoss({c.method, {1.0, 0.0}}, S, K, cls, {}));
}

TEST_CASE("the cubic Platt fit recovers a cubic logit, and falls back to Platt where it would not be monotone") {
  // Truth: p(1 | s) = 1/(1 + exp(A s + B + C s^3)), A, C < 0: monotone, heavier tails than Platt.
  for (const double C : {-1.5, 1.0}) {
    CAPTURE(C);
    const double A = -1.0, B = 0.3;
    std::vector<double> s;
    std::vector<std::uint8_t> y;
    for (std::uint64_t i = 0; i < 60000; ++i) {
      const double si = 3.0 * Uniform(i, 3) - 1.5;
      s.push_back(si);
      y.push_back(Uniform(i, 4) < 1.0 / (1.0 + std::exp(A * si + B + C * si * si * si)) ? 1 : 0);
    }
    const rfk::host::Calibration c = rfk::host::FitPlattCubic(s, y, {});
    const rfk::host::Calibration platt = rfk::host::FitPlatt(s, y, {});
    if (C < 0) {
      REQUIRE(c.method == Num(M::kPlattCubic));
      CHECK(c.params[0] == doctest::Approx(A).epsilon(0.15));
      CHECK(c.params[1] == doctest::Approx(B).epsilon(0.15));
      CHECK(c.params[2] == doctest::Approx(C).epsilon(0.15));
      CHECK(rfk::host::CalibratedLogLoss(c, s, 2, {y.begin(), y.end()}, {}) <
            rfk::host::CalibratedLogLoss(platt, s, 2, {y.begin(), y.end()}, {}));
    } else {  // the best cubic has C > 0 (p would fall again for large s): Platt's fit instead
      CHECK(c.method == Num(M::kPlatt));
      CHECK(c.params == platt.params);
    }
  }
}

TEST_CASE("the vector-scaling fit recovers a scale and a bias per class, and beats one temperature") {
  const std::uint32_t K = 4;
  const double a[K] = {0.5, 1.0, 1.5, 2.0}, b[K] = {0.0, 0.5, -0.5, 1.0};
  std::vector<double> S;
  std::vector<std::uint32_t> cls;
  std::vector<double> w;
  for (std::uint64_t i = 0; i < 60000; ++i) {
    double p[K], z = 0;
    for (std::uint32_t k = 0; k < K; ++k) {
      S.push_back(4.0 * Uniform(i, 10 + k) - 2.0);
      z += p[k] = std::exp(a[k] * S.back() + b[k]);
    }
    double u = Uniform(i, 20) * z, acc = 0;
    std::uint32_t c = K - 1;
    for (std::uint32_t k = 0; k < K; ++k)
      if (u < (acc += p[k])) {
        c = k;
        break;
      }
    cls.push_back(c);
    w.push_back(i < 2000 ? 2.0 : 1.0);
  }
  const rfk::host::Calibration c = rfk::host::FitSoftmaxVector(S, K, cls, {});
  REQUIRE(c.method == Num(M::kSoftmaxVector));
  REQUIRE(c.params.size() == 2 * K);
  for (std::uint32_t k = 0; k < K; ++k) {
    CAPTURE(k);
    CHECK(c.params[k] == doctest::Approx(a[k]).epsilon(0.1));
    CHECK(c.params[K + k] == doctest::Approx(b[k]).epsilon(0.1).scale(1.0));
  }
  const rfk::host::Calibration temp = rfk::host::FitSoftmaxScale(S, K, cls, {});
  CHECK(rfk::host::CalibratedLogLoss(c, S, K, cls, {}) < rfk::host::CalibratedLogLoss(temp, S, K, cls, {}));
  // Row weights: weight 2 fits as the row written twice.
  std::vector<double> S2 = S;
  std::vector<std::uint32_t> cls2 = cls;
  for (std::size_t i = 0; i < 2000; ++i) {
    S2.insert(S2.end(), S.begin() + static_cast<std::ptrdiff_t>(i * K), S.begin() + static_cast<std::ptrdiff_t>((i + 1) * K));
    cls2.push_back(cls[i]);
  }
  const rfk::host::Calibration cw = rfk::host::FitSoftmaxVector(S, K, cls, w), cd = rfk::host::FitSoftmaxVector(S2, K, cls2, {});
  for (std::uint32_t q = 0; q < 2 * K; ++q) CHECK(cw.params[q] == doctest::Approx(cd.params[q]).epsilon(1e-5).scale(1e-6));
  // A class whose score speaks against it (a_k < 0 would fit): the temperature instead.
  std::vector<double> R = S;
  for (std::size_t i = 0; i < cls.size(); ++i) R[i * K + 3] = -R[i * K + 3];
  CHECK(rfk::host::FitSoftmaxVector(R, K, cls, {}).method == Num(M::kSoftmax));
}

TEST_CASE("training writes the calibration section for classifiers, deterministically, not when disabled") {
  for (const std::uint32_t classes : {2u, 3u}) {
    CAPTURE(classes);
    const auto bytes = Model(classes, true);
    CHECK(bytes == Model(classes, true, 2));  // the same bytes on any thread count
    Blob b(bytes);
    rfk::Model m;
    REQUIRE(b.Open(&m) == Status::kOk);
    CHECK(m.calibration_method == (classes == 2 ? Num(M::kPlattCubic) : Num(M::kSoftmaxVector)));
    CHECK(b.U32(b.Entry(f::SectionType::kCalibration) + f::entry::kSize) ==
          f::calibration::Bytes(m.calibration_method, m.num_outputs));
    Blob none(Model(classes, false));
    rfk::Model n;
    REQUIRE(none.Open(&n) == Status::kOk);
    CHECK(n.calibration_method == 0);
    CHECK(none.Entry(f::SectionType::kCalibration) == 0);
    std::vector<float> out(m.num_outputs, 0.5f), p(m.num_classes);
    CHECK(rfk::Probabilities(n, out.data(), out.size(), p.data(), p.size()) == Status::kNoCalibration);
  }
}

TEST_CASE("random binning plans no calibration: no progress step for it, the reason in the report") {
  for (const bool binning : {false, true}) {
    CAPTURE(binning);
    rfk::host::TrainOptions o;
    o.features = 32;
    o.fourier = !binning;
    o.grids = binning ? 3 : 0;
    o.lambda = 1e-3;
    o.threads = 1;
    std::vector<std::string> steps;
    o.progress = [&](std::uint64_t, std::uint64_t, const std::string& what) {
      if (steps.empty() || what != steps.back()) steps.push_back(what);
    };
    const rfk::host::TrainResult r = rfk::host::Train(Data(300, 2), o);
    REQUIRE(!steps.empty());
    bool announced = false;
    for (const std::string& s : steps) announced = announced || s.find("calibration") != std::string::npos;
    CHECK(announced == !binning);
    // The last step is the training error, numbered as the last of the steps planned.
    const std::string& last = steps.back();
    CAPTURE(last);
    const std::size_t of = last.find(" of "), colon = last.find(':');
    REQUIRE(last.rfind("step ", 0) == 0);
    REQUIRE(of != std::string::npos);
    REQUIRE(colon != std::string::npos);
    CHECK(last.substr(5, of - 5) == last.substr(of + 4, colon - of - 4));
    CHECK(last.substr(colon) == ": training error");
    CHECK(r.report.calibration_reason == (binning ? "not computed for designs with random binning" : ""));
  }
}

// A trained model (its own calibration) and the same model with each other method of its task.
std::vector<std::vector<std::uint8_t>> EveryMethod(std::uint32_t classes) {
  const auto trained = Model(classes, true);
  if (classes == 2)
    return {trained, WithCalibration(trained, Num(M::kPlatt), {-2.5f, 0.25f}),
            WithCalibration(trained, Num(M::kPlattCubic), {-1.5f, -0.1f, -0.75f}),
            WithCalibration(trained, Num(M::kPlattCubic), {0.0f, 0.5f, 0.0f})};
  std::vector<float> vec;
  for (std::uint32_t k = 0; k < 2 * classes; ++k) vec.push_back(k < classes ? 0.5f + 0.75f * k : 0.5f - 0.4f * k);
  return {trained, WithCalibration(trained, Num(M::kSoftmax), {1.75f, 0.0f}),
          WithCalibration(trained, Num(M::kSoftmaxVector), vec)};
}

TEST_CASE("Probabilities: every method against a double reference, stable for extreme outputs") {
  for (const std::uint32_t classes : {2u, 3u})
    for (const auto& bytes : EveryMethod(classes)) {
      Blob b(bytes);
      rfk::Model m;
      REQUIRE(b.Open(&m) == Status::kOk);
      CAPTURE(classes);
      CAPTURE(m.calibration_method);
      const rfk::host::Calibration hc = HostCalibration(m);
      for (const float scale : {0.01f, 1.0f, 30.0f, 1e4f, 1e30f}) {
        CAPTURE(scale);
        std::vector<float> out(m.num_outputs), p(m.num_classes);
        for (std::uint32_t k = 0; k < m.num_outputs; ++k) out[k] = scale * static_cast<float>(Uniform(k, 7) - 0.6);
        REQUIRE(rfk::Probabilities(m, out.data(), out.size(), p.data(), p.size()) == Status::kOk);
        std::vector<double> s(out.begin(), out.end()), ref(m.num_classes);
        rfk::host::CalibratedProbabilities(hc, s.data(), m.num_outputs, ref.data());
        double sum = 0;
        for (std::uint32_t k = 0; k < m.num_classes; ++k) {
          CHECK(std::isfinite(p[k]));
          // Where double's e^t overflows (t ~ 1e90), the reference is NaN; the core gives 0 or 1.
          if (std::isfinite(ref[k])) CHECK(p[k] == doctest::Approx(ref[k]).epsilon(1e-5).scale(1e-6));
          sum += p[k];
        }
        CHECK(sum == doctest::Approx(1.0).epsilon(1e-5));
        // The C API says the same.
        rfk_model cm;
        REQUIRE(rfk_open(&cm, b.data(), b.size(), nullptr) == RFK_OK);
        std::vector<float> q(m.num_classes);
        REQUIRE(rfk_probabilities(&cm, out.data(), out.size(), q.data(), q.size()) == RFK_OK);
        CHECK(q == p);
      }
      // Monotone (up to rounding): class 1's probability (binary) or class k's own (multiclass) never falls as
      // its score grows, for the methods training writes (A, C <= 0; a_k >= 0).
      std::vector<float> out(m.num_outputs, 0.0f), p(m.num_classes);
      float last = -1.0f;
      for (int step = -400; step <= 400; ++step) {
        out[0] = 0.01f * static_cast<float>(step);
        REQUIRE(rfk::Probabilities(m, out.data(), out.size(), p.data(), p.size()) == Status::kOk);
        const float mine = classes == 2 ? p[1] : p[0];
        CHECK(mine >= last - 1e-6f);  // up to exp's rounding (relative error < 1e-6)
        last = mine;
      }
      std::fill(out.begin(), out.end(), 0.0f);
      CHECK(rfk::Probabilities(m, out.data(), out.size(), p.data(), p.size() - 1) == Status::kOutputTooSmall);
      CHECK(rfk::Probabilities(m, nullptr, out.size(), p.data(), p.size()) == Status::kNullArgument);
      out[0] = NAN;
      CHECK(rfk::Probabilities(m, out.data(), out.size(), p.data(), p.size()) == Status::kNonFiniteInput);
    }
}

// The first maximum of p[0..n).
std::uint32_t FirstMax(const std::vector<float>& p) {
  std::uint32_t best = 0;
  for (std::uint32_t k = 1; k < p.size(); ++k)
    if (p[k] > p[best]) best = k;
  return best;
}

TEST_CASE("DecideClass is the argmax of Probabilities, DecideClassRaw the sign or first maximum") {
  for (const std::uint32_t classes : {2u, 3u})
    for (const auto& bytes : EveryMethod(classes)) {
      Blob b(bytes);
      rfk::Model m;
      REQUIRE(b.Open(&m) == Status::kOk);
      rfk_model cm;
      REQUIRE(rfk_open(&cm, b.data(), b.size(), nullptr) == RFK_OK);
      CAPTURE(classes);
      CAPTURE(m.calibration_method);
      std::vector<float> out(m.num_outputs), p(m.num_classes);
      std::uint64_t differ = 0;
      // Random outputs at several scales, then the boundary swept finely: output 0 (binary) or
      // outputs 0 and 1 (multi-class) close to where the decision turns, including exact ties.
      for (std::uint64_t i = 0; i < 4000; ++i) {
        const float scale = i < 2000 ? std::pow(10.0f, static_cast<float>(i % 7) - 3.0f) : 1.0f;
        for (std::uint32_t k = 0; k < m.num_outputs; ++k)
          out[k] = scale * static_cast<float>(Uniform(i * 8 + k, 11) - 0.5);
        if (i >= 2000 && classes == 2) out[0] = std::ldexp(static_cast<float>(i) - 3000.0f, -10);
        if (i >= 2000 && classes > 2) out[1] = out[0] + std::ldexp(static_cast<float>(i) - 3000.0f, -12);
        CAPTURE(i);
        REQUIRE(rfk::Probabilities(m, out.data(), out.size(), p.data(), p.size()) == Status::kOk);
        const std::uint32_t decided = rfk::DecideClass(m, out.data());
        // The decided class's probability is the largest: the first maximum unless two round to
        // the same float (then one of them).
        const std::uint32_t top = FirstMax(p);
        CHECK(p[decided] == p[top]);
        std::uint32_t at_top = 0;
        for (const float v : p) at_top += v == p[top];
        if (at_top == 1) CHECK(decided == top);
        CHECK(rfk_decide_class(&cm, out.data()) == decided);
        const std::uint32_t raw = classes == 2 ? (out[0] > 0.0f ? 1u : 0u) : FirstMax(out);
        CHECK(rfk::DecideClassRaw(m, out.data()) == raw);
        CHECK(rfk_decide_class_raw(&cm, out.data()) == raw);
        differ += decided != raw;
      }
      // A calibration with a bias (every method here but the temperature's) moves the decision
      // off the raw one near the boundary; the raw rule is then still there.
      const bool biased = m.calibration_method != static_cast<std::uint32_t>(M::kSoftmax);
      if (biased) CHECK(differ > 0);
      // A NaN output, which Probabilities refuses, is decided without a crash: a class in range.
      std::fill(out.begin(), out.end(), 0.5f);
      out[0] = NAN;
      CHECK(rfk::DecideClass(m, out.data()) < m.num_classes);
    }
}

TEST_CASE("corrupt calibration sections are refused with their field") {
  rfk::ModelError err;
  const float nan = NAN, inf = INFINITY, one = 1.0f, minus = -1.0f;
  std::uint32_t nan_bits, inf_bits, one_bits, minus_bits;
  std::memcpy(&nan_bits, &nan, 4);
  std::memcpy(&inf_bits, &inf, 4);
  std::memcpy(&one_bits, &one, 4);
  std::memcpy(&minus_bits, &minus, 4);
  struct Case {
    std::uint32_t classes, method, at, value;  // method 0: the trained model's own
    Status status;
    const char* field;
  };
  const std::uint32_t cubic = Num(M::kPlattCubic), vec = Num(M::kSoftmaxVector), platt = Num(M::kPlatt),
                      temp = Num(M::kSoftmax);
  for (const Case& c : {Case{2, 0, f::calibration::kMethod, 9, Status::kBadValue, "calibration.method"},
                        Case{2, 0, f::calibration::kMethod, temp, Status::kBadValue, "calibration.method"},
                        Case{2, 0, f::calibration::kMethod, vec, Status::kBadValue, "calibration.method"},
                        Case{3, 0, f::calibration::kMethod, platt, Status::kBadValue, "calibration.method"},
                        Case{3, 0, f::calibration::kMethod, cubic, Status::kBadValue, "calibration.method"},
                        Case{3, 0, f::calibration::kMethod, 0, Status::kBadValue, "calibration.method"},
                        Case{2, 0, f::calibration::kNumOutputs, 2, Status::kBadValue, "calibration.num_outputs"},
                        Case{3, 0, f::calibration::kNumOutputs, 4, Status::kBadValue, "calibration.num_outputs"},
                        Case{2, 0, f::calibration::kScale, nan_bits, Status::kBadValue, "calibration.scale"},
                        Case{2, 0, f::calibration::kScale, one_bits, Status::kBadValue, "calibration.scale"},  // A > 0
                        Case{2, 0, f::calibration::kBias, inf_bits, Status::kBadValue, "calibration.bias"},
                        Case{2, 0, f::calibration::kCubic, one_bits, Status::kBadValue, "calibration.cubic"},  // C > 0
                        Case{2, 0, f::calibration::kCubic, nan_bits, Status::kBadValue, "calibration.cubic"},
                        Case{3, 0, f::calibration::kVector, minus_bits, Status::kBadValue, "calibration.a"},  // a_0 < 0
                        Case{3, 0, f::calibration::kVector + 4, inf_bits, Status::kBadValue, "calibration.a"},
                        Case{3, 0, f::calibration::kVector + 12, nan_bits, Status::kBadValue, "calibration.b"},
                        Case{2, platt, f::calibration::kScale, inf_bits, Status::kBadValue, "calibration.scale"},
                        Case{2, platt, f::calibration::kBias, nan_bits, Status::kBadValue, "calibration.bias"},
                        Case{3, temp, f::calibration::kScale, inf_bits, Status::kBadValue, "calibration.scale"},
                        Case{3, temp, f::calibration::kBias, one_bits, Status::kBadValue, "calibration.bias"}}) {
    CAPTURE(c.field);
    CAPTURE(c.classes);
    CAPTURE(c.method);
    const auto trained = Model(c.classes, true);
    Blob b(c.method == 0 ? trained
                         : WithCalibration(trained, c.method, c.method == platt ? std::vector<float>{-1.0f, 0.0f}
                                                                                : std::vector<float>{1.0f, 0.0f}));
    const std::uint32_t at = b.U32(b.Entry(f::SectionType::kCalibration) + f::entry::kOffset) + c.at;
    b.SetU32(at, c.value);
    b.FixCrc();
    CHECK(b.Open(nullptr, &err) == c.status);
    CHECK(std::string(err.field) == c.field);
    CHECK(err.offset == at);
  }
  // Sizes below the section's that do not match the method and K, reported at the entry's size.
  for (const std::uint32_t classes : {2u, 3u})
    for (std::uint32_t size = 4; size < f::calibration::Bytes(classes == 2 ? cubic : vec, classes == 2 ? 1 : classes);
         size += 4) {
      CAPTURE(classes);
      CAPTURE(size);
      Blob sized(Model(classes, true));
      const std::size_t e = sized.Entry(f::SectionType::kCalibration);
      sized.SetU32(e + f::entry::kSize, size);
      sized.FixCrc();
      CHECK(sized.Open(nullptr, &err) == Status::kBadSectionSize);
      CHECK(std::string(err.field) == "calibration.size");
      CHECK(err.offset == e + f::entry::kSize);
    }
  // A trained binary model's section relabelled Platt: 20 bytes where Platt has 16.
  Blob relabel(Model(2, true));
  const std::size_t re = relabel.Entry(f::SectionType::kCalibration);
  relabel.SetU32(relabel.U32(re + f::entry::kOffset) + f::calibration::kMethod, platt);
  relabel.FixCrc();
  CHECK(relabel.Open(nullptr, &err) == Status::kBadSectionSize);
  CHECK(std::string(err.field) == "calibration.size");
}

TEST_CASE("a calibration section on a regression model is refused, the writer refuses to write one") {
  rfk::host::ModelSpec spec = rfk::host::RandomFeatureSpec(f::Kernel::kGaussian, f::MapKind::kFourier, 8, 2, 1.0, 1);
  const auto plain = rfk::host::SerializeModel(spec);
  spec.calibration_method = Num(M::kPlatt);
  spec.calibration_params = {-1.0f, 0.0f};
  CHECK_THROWS(rfk::host::SerializeModel(spec));
  // Built by hand: the regression model with a classifier's calibration section appended.
  Blob cls(Model(2, true));
  const std::size_t ce = cls.Entry(f::SectionType::kCalibration);
  const std::uint32_t coff = cls.U32(ce + f::entry::kOffset), csize = cls.U32(ce + f::entry::kSize);
  std::vector<rfk::host::RawSection> sections;
  Blob p(plain);
  const std::uint32_t count = p.U32(f::kOffSectionCount);
  for (std::uint32_t i = 0; i < count; ++i) {
    const std::size_t entry = f::kHeaderBytes + i * f::kSectionEntryBytes;
    std::uint16_t type, flags;
    std::memcpy(&type, p.data() + entry, 2);
    std::memcpy(&flags, p.data() + entry + 2, 2);
    const std::uint32_t off = p.U32(entry + 4), size = p.U32(entry + 8);
    sections.push_back({type, flags, std::vector<std::uint8_t>(p.data() + off, p.data() + off + size)});
  }
  sections.push_back({static_cast<std::uint16_t>(f::SectionType::kCalibration), 0,
                      std::vector<std::uint8_t>(cls.data() + coff, cls.data() + coff + csize)});
  Blob bad(rfk::host::AssembleModel(sections));
  rfk::ModelError err;
  CHECK(bad.Open(nullptr, &err) == Status::kBadValue);
  CHECK(std::string(err.field) == "calibration");
  CHECK(err.offset == bad.Entry(f::SectionType::kCalibration));
  // The writer also refuses parameters that do not fit the method (softmax-vector wants 2K).
  rfk::host::ModelSpec multi = rfk::host::RandomFeatureSpec(f::Kernel::kGaussian, f::MapKind::kFourier, 8, 2, 1.0, 1);
  multi.task = f::Task::kMulticlass;
  multi.calibration_method = Num(M::kSoftmaxVector);
  multi.calibration_params = {1.0f, 0.0f};
  CHECK_THROWS(rfk::host::SerializeModel(multi));
}

TEST_CASE("bytes flipped in the calibration section behind a recomputed checksum open consistently or not at all") {
  for (const std::uint32_t classes : {2u, 3u})
    for (const auto& bytes : EveryMethod(classes)) {
      Blob probe(bytes);
      const std::size_t e = probe.Entry(f::SectionType::kCalibration);
      const std::uint32_t start = probe.U32(e + f::entry::kOffset), size = probe.U32(e + f::entry::kSize);
      CAPTURE(classes);
      CAPTURE(probe.U32(start));
      int opened = 0, refused = 0;
      for (std::uint32_t at = start; at < start + size; ++at)
        for (int bit = 0; bit < 8; ++bit) {
          Blob b(bytes);
          b.data()[at] ^= static_cast<std::uint8_t>(1u << bit);
          b.FixCrc();
          rfk::Model m;
          if (b.Open(&m) != Status::kOk) {
            ++refused;
            continue;
          }
          ++opened;
          std::vector<float> out(m.num_outputs), p(m.num_classes);
          for (std::uint32_t k = 0; k < m.num_outputs; ++k) out[k] = static_cast<float>(k) - 0.7f;
          const Status s = rfk::Probabilities(m, out.data(), out.size(), p.data(), p.size());
          CHECK((s == Status::kOk || s == Status::kArgumentOutOfRange));
          if (s != Status::kOk) continue;
          double sum = 0;
          for (float v : p) {
            CHECK((v >= 0.0f && v <= 1.0f));
            sum += v;
          }
          CHECK(sum == doctest::Approx(1.0).epsilon(1e-5));
        }
      CHECK(opened > 0);   // flips in the parameters' low bits
      CHECK(refused > 0);  // flips in the method, K, signs, exponents to inf/NaN
    }
}

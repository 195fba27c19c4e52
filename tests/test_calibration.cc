// Calibrated class probabilities: the fits (calibration.h) on data whose true probabilities are
// known, the core's Probabilities against a double-precision reference, the calibration
// section's validator (each corruption has its field) and byte flips behind a fixed checksum,
// and training: the section by default, none with calibrate = false, the same bytes on any thread
// count.
#include <doctest/doctest.h>

#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "calibration.h"
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
  CHECK(c.scale == doctest::Approx(A).epsilon(0.05));
  CHECK(c.bias == doctest::Approx(B).epsilon(0.1));
  // Row weights: weight 2 fits as the row written twice.
  std::vector<double> w(s.size(), 1.0), s2 = s;
  std::vector<std::uint8_t> y2 = y;
  for (std::size_t i = 0; i < 1000; ++i) {
    w[i] = 2.0;
    s2.push_back(s[i]);
    y2.push_back(y[i]);
  }
  const rfk::host::Calibration cw = rfk::host::FitPlatt(s, y, w), cd = rfk::host::FitPlatt(s2, y2, {});
  CHECK(cw.scale == doctest::Approx(cd.scale).epsilon(1e-6));
  CHECK(cw.bias == doctest::Approx(cd.bias).epsilon(1e-6));
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
  CHECK(c.scale == doctest::Approx(A).epsilon(0.05));
  CHECK(c.bias == 0.0);
  // The fitted scale's log loss is no worse than the truth's or the raw scores' (A = 1).
  const double fitted = rfk::host::CalibratedLogLoss(c, S, K, cls, {});
  CHECK(fitted <= rfk::host::CalibratedLogLoss({c.method, A, 0.0}, S, K, cls, {}) + 1e-12);
  CHECK(fitted < rfk::host::CalibratedLogLoss({c.method, 1.0, 0.0}, S, K, cls, {}));
}

TEST_CASE("training writes the calibration section for classifiers, deterministically; not when disabled") {
  for (const std::uint32_t classes : {2u, 3u}) {
    CAPTURE(classes);
    const auto bytes = Model(classes, true);
    CHECK(bytes == Model(classes, true, 2));  // the same bytes on any thread count
    Blob b(bytes);
    rfk::Model m;
    REQUIRE(b.Open(&m) == Status::kOk);
    CHECK(m.calibration_method ==
          static_cast<std::uint32_t>(classes == 2 ? f::CalibrationMethod::kPlatt : f::CalibrationMethod::kSoftmax));
    CHECK(std::isfinite(m.calibration_scale));
    Blob none(Model(classes, false));
    rfk::Model n;
    REQUIRE(none.Open(&n) == Status::kOk);
    CHECK(n.calibration_method == 0);
    CHECK(none.Entry(f::SectionType::kCalibration) == 0);
    std::vector<float> out(m.num_outputs, 0.5f), p(m.num_classes);
    CHECK(rfk::Probabilities(n, out.data(), out.size(), p.data(), p.size()) == Status::kNoCalibration);
  }
}

TEST_CASE("Probabilities: Platt and softmax against a double reference, stable for extreme outputs") {
  for (const std::uint32_t classes : {2u, 3u}) {
    CAPTURE(classes);
    Blob b(Model(classes, true));
    rfk::Model m;
    REQUIRE(b.Open(&m) == Status::kOk);
    const double A = m.calibration_scale, B = m.calibration_bias;
    for (const float scale : {0.01f, 1.0f, 30.0f, 1e4f, 1e30f}) {
      CAPTURE(scale);
      std::vector<float> out(m.num_outputs), p(m.num_classes);
      for (std::uint32_t k = 0; k < m.num_outputs; ++k) out[k] = scale * static_cast<float>(Uniform(k, 7) - 0.6);
      REQUIRE(rfk::Probabilities(m, out.data(), out.size(), p.data(), p.size()) == Status::kOk);
      std::vector<double> ref(m.num_classes);
      if (classes == 2) {
        ref[1] = 1.0 / (1.0 + std::exp(A * out[0] + B));
        ref[0] = 1.0 - ref[1];
      } else {
        double top = -HUGE_VAL, z = 0;
        for (float o : out) top = std::max(top, A * o);
        for (std::uint32_t k = 0; k < classes; ++k) z += ref[k] = std::exp(A * out[k] - top);
        for (double& r : ref) r /= z;
      }
      double sum = 0;
      for (std::uint32_t k = 0; k < m.num_classes; ++k) {
        CHECK(std::isfinite(p[k]));
        CHECK(p[k] == doctest::Approx(ref[k]).epsilon(1e-5).scale(1e-6));
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
    std::vector<float> out(m.num_outputs, 0.0f), p(m.num_classes);
    CHECK(rfk::Probabilities(m, out.data(), out.size(), p.data(), p.size() - 1) == Status::kOutputTooSmall);
    CHECK(rfk::Probabilities(m, nullptr, out.size(), p.data(), p.size()) == Status::kNullArgument);
    out[0] = NAN;
    CHECK(rfk::Probabilities(m, out.data(), out.size(), p.data(), p.size()) == Status::kNonFiniteInput);
  }
}

TEST_CASE("corrupt calibration sections are refused with their field") {
  rfk::ModelError err;
  const auto payload = [](Blob& b) { return b.U32(b.Entry(f::SectionType::kCalibration) + 4); };
  const float nan = NAN, inf = INFINITY;
  std::uint32_t nan_bits, inf_bits, one_bits;
  const float one = 1.0f;
  std::memcpy(&nan_bits, &nan, 4);
  std::memcpy(&inf_bits, &inf, 4);
  std::memcpy(&one_bits, &one, 4);
  struct Case {
    std::uint32_t classes, at, value;
    Status status;
    const char* field;
  };
  for (const Case& c : {Case{2, f::calibration::kMethod, 9, Status::kBadValue, "calibration.method"},
                        Case{2, f::calibration::kMethod, 2, Status::kBadValue, "calibration.method"},  // softmax, binary
                        Case{3, f::calibration::kMethod, 1, Status::kBadValue, "calibration.method"},  // Platt, 3 classes
                        Case{2, f::calibration::kNumOutputs, 2, Status::kBadValue, "calibration.num_outputs"},
                        Case{3, f::calibration::kNumOutputs, 4, Status::kBadValue, "calibration.num_outputs"},
                        Case{2, f::calibration::kScale, nan_bits, Status::kBadValue, "calibration.scale"},
                        Case{3, f::calibration::kScale, inf_bits, Status::kBadValue, "calibration.scale"},
                        Case{2, f::calibration::kBias, inf_bits, Status::kBadValue, "calibration.bias"},
                        Case{3, f::calibration::kBias, one_bits, Status::kBadValue, "calibration.bias"}}) {
    CAPTURE(c.field);
    CAPTURE(c.classes);
    Blob b(Model(c.classes, true));
    const std::uint32_t at = payload(b) + c.at;
    b.SetU32(at, c.value);
    b.FixCrc();
    CHECK(b.Open(nullptr, &err) == c.status);
    CHECK(std::string(err.field) == c.field);
    CHECK(err.offset == at);
  }
  // A wrong size, reported at the entry's size field.
  Blob sized(Model(2, true));
  const std::size_t e = sized.Entry(f::SectionType::kCalibration);
  sized.SetU32(e + f::entry::kSize, 12);
  sized.FixCrc();
  CHECK(sized.Open(nullptr, &err) == Status::kBadSectionSize);
  CHECK(std::string(err.field) == "calibration.size");
  CHECK(err.offset == e + f::entry::kSize);
}

TEST_CASE("a calibration section on a regression model is refused; the writer refuses to write one") {
  rfk::host::ModelSpec spec = rfk::host::RandomFeatureSpec(f::Kernel::kGaussian, f::MapKind::kFourier, 8, 2, 1.0, 1);
  const auto plain = rfk::host::SerializeModel(spec);
  spec.calibration_method = static_cast<std::uint32_t>(f::CalibrationMethod::kPlatt);
  spec.calibration_scale = -1.0f;
  CHECK_THROWS(rfk::host::SerializeModel(spec));
  // Built by hand: the regression model with a calibration section appended (a classifier's,
  // copied from a trained binary model).
  Blob cls(Model(2, true));
  const std::size_t ce = cls.Entry(f::SectionType::kCalibration);
  const std::uint32_t coff = cls.U32(ce + 4);
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
                      std::vector<std::uint8_t>(cls.data() + coff, cls.data() + coff + 16)});
  Blob bad(rfk::host::AssembleModel(sections));
  rfk::ModelError err;
  CHECK(bad.Open(nullptr, &err) == Status::kBadValue);
  CHECK(std::string(err.field) == "calibration");
  CHECK(err.offset == bad.Entry(f::SectionType::kCalibration));
}

TEST_CASE("bytes flipped in the calibration section behind a recomputed checksum open consistently or not at all") {
  for (const std::uint32_t classes : {2u, 3u}) {
    CAPTURE(classes);
    const auto bytes = Model(classes, true);
    Blob probe(bytes);
    const std::uint32_t start = probe.U32(probe.Entry(f::SectionType::kCalibration) + 4);
    int opened = 0, refused = 0;
    for (std::uint32_t at = start; at < start + f::calibration::kBytes; ++at)
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
    CHECK(opened > 0);   // flips in A's and B's low bits
    CHECK(refused > 0);  // flips in the method, K, exponents to inf/NaN
  }
}

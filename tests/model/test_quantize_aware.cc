// int8 models that keep the f32 model's accuracy (issue 16): the head rounded for its outputs
// (RoundInt8Gptq, GptqInt8Head), quantization-aware training (`rfk train --storage int8`), and
// `rfk convert --calibrate`. (The map-level bit-identity of quantization-aware features with the
// device core is in test_fourier_maps.cc, with the other maps' contract.)
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include "rfk/host/data.hpp"
#include "rfk/host/model_writer.hpp"
#include "rfk/host/quantize.hpp"
#include "rfk/host/train.hpp"
#include "maps/random.h"
#include "rfk/model.hpp"
#include "test_util.h"

namespace {

namespace f = rfk::format;
using rfk::Status;

// Z (n x D) of a model's features on the first n rows of data, through the core.
std::vector<double> Features(const rfk::Model& m, const rfk::host::Dataset& data, std::size_t n) {
  rfk::host::AlignedBytes scratch(rfk::ScratchBytes(m));
  std::vector<float> x(m.input_dim), z(m.num_features);
  std::vector<double> Z(n * m.num_features);
  for (std::size_t i = 0; i < n; ++i) {
    rfk::host::DenseRow(data, i, x.data(), m.input_dim);
    REQUIRE(rfk::ComputeFeatures(m, x.data(), m.input_dim, scratch.data(), scratch.size(), z.data(),
                                 m.num_features) == Status::kOk);
    std::copy(z.begin(), z.end(), Z.begin() + static_cast<std::ptrdiff_t>(i * m.num_features));
  }
  return Z;
}

// Mean over rows of ((z_i - mu) . e)^2: the change of a centred output (its bias refitted) that
// the weight change e causes, mu the column means of Z.
double OutputError(const std::vector<double>& Z, std::size_t n, std::size_t D, const std::vector<double>& e) {
  std::vector<double> mu(D, 0.0);
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < D; ++j) mu[j] += Z[i * D + j] / double(n);
  double sum = 0;
  for (std::size_t i = 0; i < n; ++i) {
    double v = 0;
    for (std::size_t j = 0; j < D; ++j) v += (Z[i * D + j] - mu[j]) * e[j];
    sum += v * v;
  }
  return sum / double(n);
}

// FNV-1a 64 of a byte string.
std::uint64_t Fnv(const std::string& s) {
  std::uint64_t h = 14695981039346656037ull;
  for (const unsigned char c : s) h = (h ^ c) * 1099511628211ull;
  return h;
}

}  // namespace

TEST_CASE("GPTQ rounding of a9a's head: the outputs move far less than with plain rounding, on training and test rows") {
  const std::string train = rfk_test::SharedDataset("adult_a9a/a9a.gz");
  const std::string test = rfk_test::SharedDataset("adult_a9a/a9a.t.gz");
  if (train.empty()) {
    MESSAGE("../shared/datasets is not beside this checkout; skipping");
    return;
  }
  const rfk::host::Dataset tr = rfk::host::ReadDataset(train, {});
  rfk::host::ReadOptions ro;
  ro.min_cols = tr.cols;
  const rfk::host::Dataset te = rfk::host::ReadDataset(test, ro);
  rfk::host::TrainOptions o;
  o.features = 256;
  o.gamma = 0.0078;
  o.lambda = 1e-6;
  o.calibrate = false;
  o.threads = 2;
  rfk_test::Blob blob(rfk::host::Train(tr, o).model);
  rfk::Model m;
  REQUIRE(blob.Open(&m) == Status::kOk);
  const std::size_t D = m.num_features, n = 6000;
  const std::vector<double> Z = Features(m, tr, n), Zt = Features(m, te, n);
  // A = Z'Z/n - mu mu' + lambda I on the training rows: the ridge objective's Hessian.
  std::vector<double> mu(D, 0.0), A(D * D, 0.0), w(D);
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < D; ++j) mu[j] += Z[i * D + j] / double(n);
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t a = 0; a < D; ++a)
      for (std::size_t b = a; b < D; ++b) A[a * D + b] += Z[i * D + a] * Z[i * D + b] / double(n);
  for (std::size_t a = 0; a < D; ++a) {
    for (std::size_t b = a; b < D; ++b) A[a * D + b] -= mu[a] * mu[b];
    A[a * D + a] += o.lambda;
  }
  std::vector<float> wf(D);
  for (std::size_t j = 0; j < D; ++j) w[j] = wf[j] = rfk::WeightAt(m.head, j, 0);
  std::vector<std::int8_t> q;
  std::vector<float> scale;
  std::vector<double> err;
  rfk::host::RoundInt8Gptq(w, 1, static_cast<std::uint32_t>(D), A, 3, &q, &scale, &err);
  const float plain_scale = rfk::host::Int8Scale(wf.data(), D);
  std::vector<double> e_plain(D), e_gptq(D);
  for (std::size_t j = 0; j < D; ++j) {
    e_plain[j] = w[j] - double(plain_scale) * rfk::host::Int8Quantize(wf[j], plain_scale);
    e_gptq[j] = w[j] - double(scale[0]) * q[j];
  }
  double quad = 0;  // err is e' A e
  for (std::size_t a = 0; a < D; ++a)
    for (std::size_t b = 0; b < D; ++b) quad += e_gptq[a] * A[a <= b ? a * D + b : b * D + a] * e_gptq[b];
  CHECK(err[0] == doctest::Approx(quad).epsilon(1e-6));
  const double train_plain = OutputError(Z, n, D, e_plain), train_gptq = OutputError(Z, n, D, e_gptq);
  const double test_plain = OutputError(Zt, n, D, e_plain), test_gptq = OutputError(Zt, n, D, e_gptq);
  MESSAGE("mean squared output change, plain vs GPTQ: training rows " << train_plain << " vs " << train_gptq
                                                                       << ", test rows " << test_plain << " vs " << test_gptq);
  CHECK(train_gptq < 0.25 * train_plain);
  CHECK(test_gptq < 0.5 * test_plain);
  // The same bits for any thread count.
  std::vector<std::int8_t> q1;
  std::vector<float> s1;
  rfk::host::RoundInt8Gptq(w, 1, static_cast<std::uint32_t>(D), A, 1, &q1, &s1);
  CHECK(q1 == q);
  CHECK(s1 == scale);
}

TEST_CASE("rfk train --storage int8: W is the plain rounding of the same draws, and the head is GPTQ-rounded") {
  rfk::host::Dataset ds;
  ds.source = "t";
  ds.cols = 3;
  for (int i = 0; i < 300; ++i) {
    const float a = float(i % 17) / 8.0f, b = float(i % 23) / 11.0f, c = float(i % 5);
    ds.dense.insert(ds.dense.end(), {a, b, c});
    ds.labels.push_back(std::to_string(std::sin(3 * a) * b + 0.1 * c));
    ds.lines.push_back(std::size_t(i) + 1);
    ++ds.rows;
  }
  rfk::host::TrainOptions o;
  o.features = 64;
  o.gamma = 0.5;
  o.lambda = 1e-7;
  o.task = rfk::host::TaskChoice::kRegression;
  for (const f::MapKind map : {f::MapKind::kFourier, f::MapKind::kOrthogonal, f::MapKind::kFourierPhase}) {
    CAPTURE(static_cast<int>(map));
    o.map = map;
    o.w_storage = o.head_storage = f::Storage::kF32;
    const std::vector<std::uint8_t> f32 = rfk::host::Train(ds, o).model;
    o.w_storage = o.head_storage = f::Storage::kInt8;
    rfk_test::Blob q8(rfk::host::Train(ds, o).model);
    rfk_test::Blob plain(rfk_test::Requantized(f32, f::Storage::kInt8, f::Storage::kInt8));
    rfk::Model mq, mp;
    REQUIRE(q8.Open(&mq) == Status::kOk);
    REQUIRE(plain.Open(&mp) == Status::kOk);
    CHECK(mq.projection_storage == f::Storage::kInt8);
    CHECK(mq.head_storage == f::Storage::kInt8);
    const std::size_t wbytes = f::QuantMatrixBytes(f::Storage::kInt8, f::StoredFrequencies(mq.layout, mq.num_frequencies),
                                                   mq.input_dim);
    CHECK(std::memcmp(mq.projection_weights.data, mp.projection_weights.data, wbytes) == 0);
    // The head was fitted to those features: its training error is at most plain rounding's.
    double eq = 0, ep = 0;
    rfk::host::AlignedBytes sq(rfk::ScratchBytes(mq)), sp(rfk::ScratchBytes(mp));
    for (std::size_t i = 0; i < ds.rows; ++i) {
      float yq, yp;
      REQUIRE(rfk::Predict(mq, &ds.dense[i * 3], 3, sq.data(), sq.size(), &yq, 1) == Status::kOk);
      REQUIRE(rfk::Predict(mp, &ds.dense[i * 3], 3, sp.data(), sp.size(), &yp, 1) == Status::kOk);
      const double y = std::stod(ds.labels[i]);
      eq += (yq - y) * (yq - y);
      ep += (yp - y) * (yp - y);
    }
    MESSAGE("training MSE, quantization-aware + GPTQ " << eq / 300 << ", plain rounding " << ep / 300);
    CHECK(eq < ep);
  }
}

TEST_CASE("rfk convert without --calibrate writes the bytes it wrote before GPTQ existed") {
  // A fixed model (no training: the same bytes on every platform), converted by the CLI.
  rfk::host::ModelSpec spec;
  spec.input_dim = 5;
  spec.num_frequencies = 20;
  spec.gamma = 0.5f;
  spec.feature_scale = 1.0f / std::sqrt(20.0f);
  spec.projection.resize(20 * 5);
  for (std::size_t i = 0; i < spec.projection.size(); ++i) spec.projection[i] = float(int(i * 7 % 23) - 11) * 0.0371f;
  spec.task = f::Task::kRegression;
  spec.num_outputs = 1;
  spec.head_weights.resize(40);
  for (std::size_t i = 0; i < 40; ++i) spec.head_weights[i] = float(int(i * 13 % 31) - 15) * 0.173f;
  spec.head_bias = {0.25f};
  rfk_test::TempDir tmp;
  const std::vector<std::uint8_t> blob = rfk::host::SerializeModel(spec);
  const std::string in = tmp.Path("fixed.rfk"), cli = RFK_CLI;
  rfk_test::WriteText(in, std::string(blob.begin(), blob.end()));
  // FNV-1a 64 of the outputs of the converter before this change (rfk at 746589d).
  for (const auto& [opts, fnv] : {std::pair<std::string, std::uint64_t>{"--storage int8", 7952209085863008742ull},
                                  {"--storage f16", 6631695149012675470ull},
                                  {"--storage f16 --head-storage int8", 6058213770978566244ull}}) {
    CAPTURE(opts);
    const auto r = rfk_test::Run(cli + " convert -m " + in + " " + opts + " -o " + tmp.Path("out.rfk"));
    REQUIRE_MESSAGE(r.status == 0, r.err);
    const std::string out = rfk_test::ReadText(tmp.Path("out.rfk"));
    CHECK(Fnv(out) == fnv);
  }
}

namespace {

// `rfk convert --calibrate`'s setting: a 400-row regression CSV of 2 inputs (d.csv, also as csv),
// its -D 64 model at lambda 1e-7 (f32.rfk), a 3-input file (wide.csv) and a 10-row one (few.csv).
struct CalibrateCase {
  rfk_test::TempDir tmp;
  const std::string cli = RFK_CLI, data = tmp.Path("d.csv"), f32 = tmp.Path("f32.rfk");
  std::string csv = "x1,x2,y\n";
  CalibrateCase() {
    std::string wide = "x1,x2,x3,y\n", few = "x1,x2,y\n";
    for (int i = 0; i < 400; ++i) {
      const double a = (i % 20) / 10.0, b = (i / 20) / 10.0;
      const std::string row = std::to_string(a) + "," + std::to_string(b) + ",";
      csv += row + std::to_string(std::sin(2 * a) + b * b + 0.5) + "\n";
      wide += row + "1,0\n";
      if (i < 10) few += row + "0\n";
    }
    rfk_test::WriteText(data, csv);
    rfk_test::WriteText(tmp.Path("wide.csv"), wide);
    rfk_test::WriteText(tmp.Path("few.csv"), few);
    const auto r = rfk_test::Run(cli + " train --train " + data + " -D 64 --gamma 1 --lambda 1e-7 -q -o " + f32);
    REQUIRE_MESSAGE(r.status == 0, r.err);
  }
  // `rfk convert -m f32.rfk -o out.rfk OPTS`.
  rfk_test::CommandResult Convert(const std::string& opts) const {
    return rfk_test::Run(cli + " convert -m " + f32 + " -o " + tmp.Path("out.rfk") + " " + opts);
  }
};

}  // namespace

TEST_CASE("rfk convert --calibrate refuses what it cannot use: a missing, wide or short file, a head not int8, memory") {
  const CalibrateCase k;
  const rfk_test::TempDir& tmp = k.tmp;
  const std::string &cli = k.cli, &data = k.data;
  rfk_test::CommandResult r;
  const auto refused = [&](const std::string& opts, const std::string& says) {
    CAPTURE(opts);
    const auto res = k.Convert(opts);
    CHECK(res.status == 1);
    CHECK(res.err.rfind("rfk: error: ", 0) == 0);
    CHECK_MESSAGE(res.err.find(says) != std::string::npos, res.err);
    CHECK(!std::filesystem::exists(tmp.Path("out.rfk")));
  };
  refused("--storage int8 --calibrate " + tmp.Path("none.csv"), "none.csv");
  refused("--storage int8 --calibrate " + tmp.Path("wide.csv"), "wide.csv");
  refused("--storage int8 --calibrate " + tmp.Path("few.csv"), "10 calibration rows for a head of 64 features");
  refused("--storage int8 --head-storage f16 --calibrate " + data, "--calibrate refits an int8 head");
  // The refit's 24 D^2 bytes and more (D = 64, with the 400 rows: 107,648 B) past --memory-limit: refused before
  // it allocates. 103K holds the model's own part (104,448 B), not the rows as well.
  refused("--storage int8 --calibrate " + data + " --memory-limit 103K",
          "--calibrate: the refit would need about 105.1 KiB of memory (three D x D matrices of doubles, D = 64)");
  refused("--storage int8 --calibrate " + data + " --memory-limit 103K", "more than the limit of 103.0 KiB (--memory-limit)");
  // The model's own need (without the rows: 104,448 B) is refused before the file is read: none.csv is not opened.
  refused("--storage int8 --calibrate " + tmp.Path("none.csv") + " --memory-limit 64K",
          "--calibrate: the refit would need about 102.0 KiB of memory");
  refused("--storage int8 --memory-limit 12Q", "--memory-limit must be 'physical' or a size such as 512M or 8G; got '12Q'");
  r = rfk_test::Run(cli + " train --train " + data + " --map binning -P 3 --lambda 1e-4 -q -o " + tmp.Path("bin.rfk"));
  REQUIRE_MESSAGE(r.status == 0, r.err);
  r = rfk_test::Run(cli + " convert -m " + tmp.Path("bin.rfk") + " --storage int8 --calibrate " + data + " -o " +
                    tmp.Path("out.rfk"));
  CHECK(r.status == 1);
  CHECK_MESSAGE(r.err.find("random binning") != std::string::npos, r.err);
  r = rfk_test::Run(cli + " convert -m " + tmp.Path("bin.rfk") + " --storage int8 --calibrate " + tmp.Path("none.csv") +
                    " -o " + tmp.Path("out.rfk"));  // refused by the model, before the (missing) file is read
  CHECK(r.status == 1);
  CHECK_MESSAGE(r.err.find("random binning") != std::string::npos, r.err);

}

TEST_CASE("rfk convert --calibrate refits the int8 head on representative rows: closer to the f32 model than rounding") {
  CalibrateCase k;
  const rfk_test::TempDir& tmp = k.tmp;
  const std::string &cli = k.cli, &data = k.data, &f32 = k.f32, &csv = k.csv;
  rfk_test::CommandResult r;
  const auto convert = [&](const std::string& opts) { return k.Convert(opts); };
  // Calibrated on the training rows: the model's outputs are reproduced closer than plain rounding's.
  const auto mse_to_f32 = [&](const std::string& model) {
    const auto a = rfk_test::Run(cli + " predict -m " + f32 + " " + data);
    const auto b = rfk_test::Run(cli + " predict -m " + model + " " + data);
    REQUIRE(a.status == 0);
    REQUIRE(b.status == 0);
    double sum = 0;
    const char *pa = a.out.c_str(), *pb = b.out.c_str();
    for (int i = 0; i < 400; ++i) {
      char *ea, *eb;
      const double d = std::strtod(pa, &ea) - std::strtod(pb, &eb);
      sum += d * d;
      pa = ea;
      pb = eb;
    }
    return sum / 400;
  };
  r = rfk_test::Run(cli + " convert -m " + f32 + " --storage int8 -o " + tmp.Path("plain.rfk"));
  REQUIRE_MESSAGE(r.status == 0, r.err);
  CHECK(r.err.find("--calibrate FILE") != std::string::npos);  // the note points to it
  r = convert("--storage int8 --calibrate " + data);
  REQUIRE_MESSAGE(r.status == 0, r.err);
  CHECK(r.err.find("W int8, head int8 (calibrated)") != std::string::npos);
  const double plain = mse_to_f32(tmp.Path("plain.rfk")), calibrated = mse_to_f32(tmp.Path("out.rfk"));
  MESSAGE("mean squared difference from the f32 model's outputs: plain int8 " << plain << ", calibrated " << calibrated);
  CHECK(calibrated < 0.5 * plain);
  CHECK(r.err.find("mean squared change of the outputs there") != std::string::npos);
  // The training file of a weighted fit, its weight column named: skipped, the same rows, the same model.
  std::string weighted = "x1,x2,w,y\n";
  for (std::size_t at = csv.find('\n') + 1; at < csv.size();) {
    const std::size_t end = csv.find('\n', at), comma = csv.rfind(',', end);
    weighted += csv.substr(at, comma - at) + ",2.5" + csv.substr(comma, end + 1 - comma);
    at = end + 1;
  }
  rfk_test::WriteText(tmp.Path("weighted.csv"), weighted);
  const auto w = rfk_test::Run(cli + " convert -m " + f32 + " -o " + tmp.Path("w.rfk") + " --storage int8 -q --calibrate " +
                               tmp.Path("weighted.csv") + " --weight-column w");
  REQUIRE_MESSAGE(w.status == 0, w.err);
  CHECK(rfk_test::ReadText(tmp.Path("w.rfk")) == rfk_test::ReadText(tmp.Path("out.rfk")));

  // lambda 1e-8 on 64 features of 2 inputs: a refit the float statistics cannot resolve. Whatever
  // the refit does, the stored head is never further from the f32 model on the calibration rows
  // than plain rounding.
  r = rfk_test::Run(cli + " train --train " + data + " -D 64 --gamma 1 --lambda 1e-8 -q -o " + f32);
  REQUIRE_MESSAGE(r.status == 0, r.err);
  r = rfk_test::Run(cli + " convert -m " + f32 + " --storage int8 -q -o " + tmp.Path("plain.rfk"));
  REQUIRE_MESSAGE(r.status == 0, r.err);
  r = convert("--storage int8 --calibrate " + data);
  REQUIRE_MESSAGE(r.status == 0, r.err);
  MESSAGE(r.err);
  CHECK(mse_to_f32(tmp.Path("out.rfk")) <= mse_to_f32(tmp.Path("plain.rfk")) * (1 + 1e-6) + 1e-12);
}

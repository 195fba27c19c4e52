// `rfk convert --calibrate`: an int8 head refitted on representative data to reproduce the source
// model's outputs, then rounded for its outputs (CalibratedInt8Model, rfk/host/quantize.hpp).
#include <algorithm>
#include <cstdio>
#include <string>

#include "training/gram.h"
#include "model/quantize_head.h"
#include "rfk/host/model_writer.hpp"
#include "rfk/host/opened_model.hpp"
#include "rfk/host/train.hpp"
#include "rfk/kernels.hpp"
#include "rfk/model.hpp"
#include "rfk/status.hpp"

namespace rfk::host {

void CheckCalibratable(const Model& m) {
  if (m.num_grids > 0)
    throw QuantizeError("calibration refits heads over Fourier-type features alone; this model has random "
                        "binning (convert it without --calibrate)");
  if (m.num_features > kMaxCalibratedFeatures)
    throw QuantizeError("calibration refits heads of at most " + std::to_string(kMaxCalibratedFeatures) +
                        " features; this one has " + std::to_string(m.num_features));
}

namespace {

// Throws unless `calibration` can calibrate m's head.
void CheckCalibration(const Model& m, const Dataset& calibration) {
  CheckCalibratable(m);
  if (calibration.rows < m.num_features)
    throw QuantizeError(calibration.source + ": " + std::to_string(calibration.rows) +
                        " calibration rows for a head of " + std::to_string(m.num_features) +
                        " features: give at least as many rows as features (the training data will do)");
}

// The source head (w0: K x D row-major, b0: K) widened to double.
struct SourceHead {
  std::vector<double> w, b;
  explicit SourceHead(const Model& m) : w(std::size_t{m.num_outputs} * m.num_features), b(m.num_outputs) {
    for (std::uint32_t k = 0; k < m.num_outputs; ++k) {
      b[k] = m.head_bias[k];
      for (std::uint32_t j = 0; j < m.num_features; ++j)
        w[std::size_t{k} * m.num_features + j] = WeightAt(m.head, std::size_t{k} * m.num_features + j, k);
    }
  }
};

// The calibration rows through both models: fn(y, z) for each row, y the source model's K raw
// outputs and z the D features of the stored W (the re-stored model mw).
template <class Fn>
void ForEachRow(const Model& m, const Model& mw, const Dataset& data, Fn&& fn) {
  AlignedBytes scratch(std::max(ScratchBytes(m), ScratchBytes(mw)));
  std::vector<float> x(m.input_dim), y(m.num_outputs), z(m.num_features);
  for (std::size_t i = 0; i < data.rows; ++i) {
    DenseRow(data, i, x.data(), m.input_dim);
    Status s = Predict(m, x.data(), m.input_dim, scratch.data(), scratch.size(), y.data(), m.num_outputs);
    if (s == Status::kOk)
      s = ComputeFeatures(mw, x.data(), m.input_dim, scratch.data(), scratch.size(), z.data(), m.num_features);
    if (s != Status::kOk)
      throw QuantizeError(data.source + ":" + std::to_string(data.lines.empty() ? i + 1 : data.lines[i]) +
                          ": the model refuses this row: " + StatusMessage(s));
    fn(y.data(), z.data());
  }
}

// The refit's statistics: the stored W's features against the source outputs less the source
// head's outputs on them, so that the ridge refit shrinks towards the source head, not towards 0
// (which would shrink a head that is already a ridge solution once more).
RidgeStats RefitStats(const Model& m, const Model& mw, const SourceHead& h0, const Dataset& data, unsigned threads) {
  const std::uint32_t D = m.num_features, K = m.num_outputs;
  const BlasOneThread one_thread;
  RidgeStats st(D, K);
  GramAccumulator gram(D, K, threads);
  std::vector<float> Z(kGramRows * D);
  std::vector<double> R(kGramRows * K);
  std::size_t r = 0;
  ForEachRow(m, mw, data, [&](const float* y, const float* z) {
    std::copy(z, z + D, Z.begin() + static_cast<std::ptrdiff_t>(r * D));
    for (std::uint32_t k = 0; k < K; ++k) {
      double o = h0.b[k];
      for (std::uint32_t j = 0; j < D; ++j) o += h0.w[std::size_t{k} * D + j] * z[j];
      R[r * K + k] = y[k] - o;
    }
    if (++r == kGramRows) {
      gram.Add(Z.data(), r, R.data(), nullptr, &st);
      r = 0;
    }
  });
  if (r > 0) gram.Add(Z.data(), r, R.data(), nullptr, &st);
  return st;
}

// The source head rounded plainly, as RequantizeModel rounds it.
Int8Head PlainHead(const SourceHead& h0, std::uint32_t K, std::uint32_t D) {
  Int8Head out;
  out.q.resize(std::size_t{K} * D);
  for (std::uint32_t k = 0; k < K; ++k) {
    std::vector<float> row(h0.w.begin() + static_cast<std::ptrdiff_t>(std::size_t{k} * D),
                           h0.w.begin() + static_cast<std::ptrdiff_t>(std::size_t{k} + 1) * D);
    out.scale.push_back(Int8Scale(row.data(), D));
    out.bias.push_back(static_cast<float>(h0.b[k]));
    for (std::uint32_t j = 0; j < D; ++j) out.q[std::size_t{k} * D + j] = Int8Quantize(row[j], out.scale[k]);
  }
  return out;
}

}  // namespace

double CalibrationMemoryBytes(const Model& m, std::size_t rows) {
  const double D = m.num_features, K = m.num_outputs;
  return 24.0 * D * D + 8.0 * D * (4.0 * K + 8.0) + 4.0 * double(rows) * m.input_dim;
}

std::vector<std::uint8_t> CalibratedInt8Model(const Model& m, format::Storage w_storage, const Dataset& calibration,
                                              double lambda, unsigned threads, CalibrationReport* report) {
  CheckCalibration(m, calibration);
  threads = std::max(1u, threads);
  const std::vector<std::uint8_t> wblob = RequantizeModel(m, w_storage, m.head_storage);
  const OpenedModel restored(wblob, "the re-stored model");
  const Model& mw = restored.model();
  const std::uint32_t D = m.num_features, K = m.num_outputs;
  const SourceHead h0(m);
  const RidgeStats st = RefitStats(m, mw, h0, calibration, threads);
  RidgeSolution refit, source;  // refit: the change of the source head
  try {
    refit = SolveRidge(st, lambda, threads);
  } catch (const TrainError&) {  // its text names train's --lambda, which convert does not take
    char at[32];
    std::snprintf(at, sizeof at, "%g", lambda);
    throw QuantizeError(std::string("the head's ridge refit at the model's lambda (") + at + ") has no solution: " +
                        "its system is singular or its weights not finite (features that do not vary on these "
                        "rows, or huge ones)");
  }
  source.W.resize(std::size_t{D} * K);
  source.bias = h0.b;
  for (std::uint32_t k = 0; k < K; ++k) {
    refit.bias[k] += h0.b[k];
    for (std::uint32_t j = 0; j < D; ++j) {
      source.W[std::size_t{j} * K + k] = h0.w[std::size_t{k} * D + j];
      refit.W[std::size_t{j} * K + k] += h0.w[std::size_t{k} * D + j];
    }
  }
  // The candidates, in order of preference; the one closest to the source outputs on the
  // calibration rows is stored (a refit the float statistics cannot resolve -- a tiny lambda on
  // nearly collinear features -- can be worse than not refitting).
  const std::vector<Int8Head> heads = {GptqInt8Head(st, lambda, refit, threads),
                                       GptqInt8Head(st, lambda, source, threads), PlainHead(h0, K, D)};
  std::vector<double> mse(heads.size(), 0.0);
  ForEachRow(m, mw, calibration, [&](const float* y, const float* z) {
    for (std::size_t c = 0; c < heads.size(); ++c)
      for (std::uint32_t k = 0; k < K; ++k) {
        double dot = 0;
        for (std::uint32_t j = 0; j < D; ++j) dot += double(heads[c].q[std::size_t{k} * D + j]) * z[j];
        const double e = heads[c].bias[k] + double(heads[c].scale[k]) * dot - y[k];
        mse[c] += e * e / (double(calibration.rows) * K);
      }
  });
  const std::size_t best = static_cast<std::size_t>(std::min_element(mse.begin(), mse.end()) - mse.begin());
  if (report) *report = {static_cast<int>(best), mse[best], mse[2]};
  return RequantizeModel(m, w_storage, format::Storage::kInt8, &heads[best]);
}

}  // namespace rfk::host

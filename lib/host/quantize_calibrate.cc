// `rfk convert --calibrate`: an int8 head refitted on representative data to reproduce the source
// model's outputs, then rounded for its outputs (CalibratedInt8Model, rfk/host/quantize.hpp).
#include <algorithm>
#include <string>

#include "gram.h"
#include "quantize_head.h"
#include "rfk/host/model_writer.hpp"
#include "rfk/kernels.hpp"
#include "rfk/model.hpp"
#include "rfk/status.hpp"

namespace rfk::host {

namespace {

// Throws unless `calibration` can calibrate m's head.
void CheckCalibration(const Model& m, const Dataset& calibration) {
  if (m.num_grids > 0)
    throw QuantizeError("calibration refits heads over Fourier-type features alone; this model has random "
                        "binning (convert it without --calibrate)");
  if (m.num_features > kMaxCalibratedFeatures)
    throw QuantizeError("calibration refits heads of at most " + std::to_string(kMaxCalibratedFeatures) +
                        " features; this one has " + std::to_string(m.num_features));
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

// One row's features of the stored W (z, D) and the refit's targets (r, K): the source model's
// outputs less the source head's outputs on z, so that the ridge refit shrinks towards the source
// head, not towards 0 (which would shrink a head that is already a ridge solution once more).
void CalibrationRow(const Model& m, const Model& mw, const SourceHead& h0, const Dataset& data, std::size_t i,
                    AlignedBytes* scratch, float* x, float* y, float* z, double* r) {
  DenseRow(data, i, x, m.input_dim);
  Status s = Predict(m, x, m.input_dim, scratch->data(), scratch->size(), y, m.num_outputs);
  if (s == Status::kOk)
    s = ComputeFeatures(mw, x, m.input_dim, scratch->data(), scratch->size(), z, m.num_features);
  if (s != Status::kOk)
    throw QuantizeError(data.source + ":" + std::to_string(data.lines.empty() ? i + 1 : data.lines[i]) +
                        ": the model refuses this row: " + StatusMessage(s));
  const std::uint32_t D = m.num_features;
  for (std::uint32_t k = 0; k < m.num_outputs; ++k) {
    double o = h0.b[k];
    for (std::uint32_t j = 0; j < D; ++j) o += h0.w[std::size_t{k} * D + j] * z[j];
    r[k] = y[k] - o;
  }
}

}  // namespace

std::vector<std::uint8_t> CalibratedInt8Model(const Model& m, format::Storage w_storage, const Dataset& calibration,
                                              double lambda, unsigned threads) {
  CheckCalibration(m, calibration);
  threads = std::max(1u, threads);
  const std::vector<std::uint8_t> wblob = RequantizeModel(m, w_storage, m.head_storage);
  AlignedBytes wbytes(wblob.size());
  std::copy(wblob.begin(), wblob.end(), wbytes.data());
  Model mw;
  if (OpenModel(wbytes.data(), wbytes.size(), &mw) != Status::kOk) throw std::logic_error("the re-stored model does not open");
  const std::uint32_t D = m.num_features, K = m.num_outputs;
  const BlasOneThread one_thread;
  RidgeStats st(D, K);
  GramAccumulator gram(D, K, threads);
  AlignedBytes scratch(ScratchBytes(m) > ScratchBytes(mw) ? ScratchBytes(m) : ScratchBytes(mw));
  std::vector<float> x(m.input_dim), y(K), Z(kGramRows * D);
  std::vector<double> Y(kGramRows * K);
  const SourceHead h0(m);
  for (std::size_t b0 = 0; b0 < calibration.rows; b0 += kGramRows) {
    const std::size_t R = std::min(kGramRows, calibration.rows - b0);
    for (std::size_t r = 0; r < R; ++r)
      CalibrationRow(m, mw, h0, calibration, b0 + r, &scratch, x.data(), y.data(), Z.data() + r * D, Y.data() + r * K);
    gram.Add(Z.data(), R, Y.data(), nullptr, &st);
  }
  RidgeSolution head = SolveRidge(st, lambda, threads);  // the change of the source head
  for (std::uint32_t k = 0; k < K; ++k) {
    head.bias[k] += h0.b[k];
    for (std::uint32_t j = 0; j < D; ++j) head.W[std::size_t{j} * K + k] += h0.w[std::size_t{k} * D + j];
  }
  const Int8Head int8 = GptqInt8Head(st, lambda, head, threads);
  return RequantizeModel(m, w_storage, format::Storage::kInt8, &int8);
}

}  // namespace rfk::host

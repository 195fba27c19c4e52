// `rfk convert --calibrate`: an int8 head refitted on representative data to reproduce the source
// model's outputs, then rounded for its outputs (CalibratedInt8Model, rfk/host/quantize.hpp).
#include <algorithm>
#include <string>

#include "gram.h"
#include "quantize_head.h"
#include "rfk/host/model_writer.hpp"
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

// One row's source model outputs (y, K) and the features of the stored W (z, D).
void CalibrationRow(const Model& m, const Model& mw, const Dataset& data, std::size_t i, AlignedBytes* scratch,
                    float* x, float* y, float* z) {
  DenseRow(data, i, x, m.input_dim);
  Status s = Predict(m, x, m.input_dim, scratch->data(), scratch->size(), y, m.num_outputs);
  if (s == Status::kOk)
    s = ComputeFeatures(mw, x, m.input_dim, scratch->data(), scratch->size(), z, m.num_features);
  if (s != Status::kOk)
    throw QuantizeError(data.source + ":" + std::to_string(data.lines.empty() ? i + 1 : data.lines[i]) +
                        ": the model refuses this row: " + StatusMessage(s));
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
  for (std::size_t b0 = 0; b0 < calibration.rows; b0 += kGramRows) {
    const std::size_t R = std::min(kGramRows, calibration.rows - b0);
    for (std::size_t r = 0; r < R; ++r) {
      CalibrationRow(m, mw, calibration, b0 + r, &scratch, x.data(), y.data(), Z.data() + r * D);
      std::copy(y.begin(), y.end(), Y.begin() + static_cast<std::ptrdiff_t>(r * K));
    }
    gram.Add(Z.data(), R, Y.data(), nullptr, &st);
  }
  const RidgeSolution head = SolveRidge(st, lambda, threads);
  const Int8Head int8 = GptqInt8Head(st, lambda, head, threads);
  return RequantizeModel(m, w_storage, format::Storage::kInt8, &int8);
}

}  // namespace rfk::host

// Memory estimation and the resource guard: training's peak memory, estimated from the sizes
// alone, is checked against the limit before every large allocation.
#include <algorithm>
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

#include <unistd.h>

#include "maps/fourier_map.h"
#include "training/gram.h"
#include "rfk/host/train.hpp"
#include "training/train_context.h"

namespace rfk::host {

namespace {

using Parts = std::vector<std::pair<std::string, double>>;

std::string FormatBytes(double b) {
  static const char* const kUnits[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
  int u = 0;
  while (b >= 1024 && u < 6) {
    b /= 1024;
    ++u;
  }
  char buf[48];
  std::snprintf(buf, sizeof buf, u == 0 ? "%.0f %s" : "%.3g %s", b, kUnits[u]);
  return buf;
}

// The Fourier design: ridge statistics G (D x D doubles) per stat set (the total, or every fold
// + the total while selecting, + the best so far; while calibrating (FourierDesign::
// HeldOutOutputs), each of the calibration's held-out folds + the total (the other rows' group
// becomes the total): a fold's training set is the total minus the fold, centred straight into
// the solve's matrix, SolveRidge's `without`);
// the solve's matrix and its Cholesky factor (the rare LDLT fallback, when Cholesky fails, needs
// one D x D more); the feature blocks (gram.h: a block's features, its weighted copy and the
// map's workspaces; per thread a float tile of G and double panels for Z'Y and the scores). Not
// here: the calibration sample's features (at most about twice kCalibrationRows rows x D floats), which the fit
// keeps only where they fit under the limit beside this estimate, and then adds to the report's
// (FourierDesign::KeepsCalibrationFeatures).
void FourierDesignParts(double n_folds, bool cv, double calibration_folds, double Df, double F, double d,
                        double K, double T, Parts* parts) {
  const double sets = std::max({cv ? n_folds + 2 : 1.0, calibration_folds > 0 ? calibration_folds + 1 : 0.0});
  parts->emplace_back("the ridge statistics and their factorisation, D x D doubles",
                      (sets + 2) * 8.0 * Df * (Df + K + 1));
  const double rows = kGramRows, tile = kGramTile;
  parts->emplace_back("the feature blocks", rows * (8.0 * Df + 4.0 * (F + d)) +
                                                T * (4.0 * tile * tile + 8.0 * 256 * tile + 8.0 * 64 * Df));
}

// The binning design, per grid and row: the bin key (u64) and column (u32); exact mode also
// sorts a copy of the keys per grid and keeps the distinct ones (at most 2^24). Then the dense
// Fourier block, the CG vectors and the selection's row lists.
void BinningDesignParts(const TrainOptions& opt, double n, double n_folds, bool cv, double Df,
                        double d, double K, std::uint32_t exact_bins, Parts* parts) {
  const double P = opt.grids, Pn = P * n;
  const double cb = opt.buckets ? P * opt.buckets : exact_bins;
  parts->emplace_back("the bin keys and columns, grids x rows",
                      12.0 * Pn + (opt.buckets ? 0.0 : 8.0 * Pn + 8.0 * cb) + 32.0 * P * d);
  parts->emplace_back("the dense Fourier block, rows x features floats", 4.0 * n * Df);
  parts->emplace_back("the conjugate-gradient vectors", 8.0 * (Df + cb) * (K + 9) + 24.0 * n);
  if (cv) parts->emplace_back("the cross-validation row lists", 4.0 * n * n_folds);
}

// The data (loaded, or a chunk of it being read: its text and parsed rows), the per-row targets
// (a class or a target, 8 bytes more with weights; while they are built, 12 bytes a row more:
// EstimateTrainingMemory), the rows of a window being cut into blocks (RowBlocks), the
// default gamma's sample and the calibration's held-out outputs (its sample's rows x K doubles, a
// class, a weight and a row number: train_context.h).
void DataParts(const Dataset& data, const TrainOptions& opt, std::uint32_t K, double chunk_memory,
               double data_bytes, Parts* parts) {
  const double n = static_cast<double>(data.rows), d = static_cast<double>(data.cols);
  if (chunk_memory > 0) {
    parts->emplace_back("a chunk of the data being read (--chunk)", chunk_memory);
  } else if (data_bytes > 0) {
    parts->emplace_back("the loaded data", data_bytes);
  } else {
    parts->emplace_back("the loaded data", data.sparse ? 8.0 * (n + 1) + 8.0 * static_cast<double>(data.values.size())
                                                       : 4.0 * static_cast<double>(data.dense.size()));
    parts->back().second += 40.0 * n;  // label strings and line numbers
  }
  const bool weighted = !opt.sample_weight.empty() || opt.class_weight == ClassWeight::kBalanced;
  parts->emplace_back("the targets, 8 bytes a row", n * (8.0 + (weighted ? 8.0 : 0.0)));
  if (opt.grids > 0) parts->back().second += 8.0 * n * K;  // binning's CG takes them as a matrix
  const double row_bytes = data.sparse ? 8.0 * std::min(d, 256.0) + 8.0 : 4.0 * d;
  parts->emplace_back("the rows of a window being cut into blocks",
                      static_cast<double>(kGramWindow) * (row_bytes + 8.0) + 4000.0 * 4.0 * d);
  parts->emplace_back("the calibration's held-out outputs",
                      static_cast<double>(CalibrationSampleRows(data.rows, CalibrationFolds(opt))) * (8.0 * K + 16.0));
}

}  // namespace

void CheckMemory(const Dataset& data, const TrainOptions& opt, format::Task task, std::uint32_t K, unsigned threads,
                 std::uint32_t exact_bins, TrainReport* rep, double chunk_memory) {
  const double limit = opt.memory_limit ? static_cast<double>(opt.memory_limit) : PhysicalMemoryBytes();
  const MemoryEstimate need = EstimateTrainingMemory(data, opt, task, K, threads, exact_bins, chunk_memory);
  rep->memory_estimate = std::max(rep->memory_estimate, need.bytes);
  rep->memory_limit = limit;
  if (limit > 0 && need.bytes > limit) {
    throw TrainError("training would need about " + FormatBytes(need.bytes) + " of memory (largest part " +
                     FormatBytes(need.largest_bytes) + ": " + need.largest + "), more than the limit of " +
                     FormatBytes(limit) + (opt.memory_limit ? " (--memory-limit)" : " (physical memory)") +
                     "; use fewer " + need.advice);
  }
}

double PhysicalMemoryBytes() {
  const long pages = ::sysconf(_SC_PHYS_PAGES), page = ::sysconf(_SC_PAGESIZE);
  return pages > 0 && page > 0 ? static_cast<double>(pages) * static_cast<double>(page) : 0.0;
}

// Mirrors the allocations of the pipeline and its design at their peak: the buffers that grow
// with rows, features, grids or outputs, as many as are alive at once. Fixed and per-thread
// extras of a few MiB are left out; allocator overhead is not modelled.
MemoryEstimate EstimateTrainingMemory(const Dataset& data, const TrainOptions& opt, format::Task task,
                                      std::uint32_t K, unsigned threads, std::uint32_t exact_bins, double chunk_memory,
                                      double data_bytes) {
  const double n = static_cast<double>(data.rows), d = static_cast<double>(data.cols);
  // Defaults (negative gamma or lambda) may cross-validate: counted as if they did.
  const bool default_cv = (opt.lambda < 0 || opt.gamma < 0) && opt.cv_folds >= 2 && n >= double(kMinRowsPerFold) * opt.cv_folds;
  const bool cv = opt.gamma_auto || opt.lambda_auto || default_cv;
  const double n_folds = cv ? opt.cv_folds : 0;
  // The calibration's held-out folds (trainer.cc's CalibrationPlan, design.h's CalibrationSample;
  // designs with random binning are not calibrated).
  const std::uint32_t calibration_nf = CalibrationFolds(opt);
  const bool calibrated = task != format::Task::kRegression && opt.calibrate && opt.grids == 0 &&
                          n >= double(kMinRowsPerFold) * calibration_nf;
  const double held_out = CalibrationHeldOut(data.rows, calibration_nf);
  const FourierMapType* type = FindFourierMap(opt.map);
  if (type == nullptr) type = FindFourierMap(format::MapKind::kFourier);  // refused later
  const double Df = opt.fourier ? opt.features : 0;
  const double F = !opt.fourier ? 0 : type->pairs ? Df / 2 : Df;
  Parts parts, design;
  DataParts(data, opt, K, chunk_memory, data_bytes, &parts);
  parts.emplace_back(type->memory_part, type->memory_bytes(F, d));
  MemoryEstimate e;
  if (opt.grids == 0) {
    FourierDesignParts(n_folds, cv, calibrated ? held_out : 0, Df, F, d, K, threads, &design);
    e.advice = "--features";
  } else {
    BinningDesignParts(opt, n, n_folds, cv, Df, d, K, exact_bins, &design);
    e.advice = Df > 0 ? "--grids or --features" : "--grids";
  }
  // The labels as they are read (each row's number and text index: 12 bytes) are gone before the
  // design allocates: the larger of the two phases counts.
  double design_bytes = 0;
  for (const auto& part : design) design_bytes += part.second;
  if (12.0 * n > design_bytes) design = {{"the labels while they are read, 12 bytes a row", 12.0 * n}};
  parts.insert(parts.end(), design.begin(), design.end());
  for (const auto& [what, bytes] : parts) {
    e.bytes += bytes;
    if (bytes > e.largest_bytes) {
      e.largest_bytes = bytes;
      e.largest = what;
    }
  }
  return e;
}

}  // namespace rfk::host

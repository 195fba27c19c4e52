// Host-only training: random Fourier features + ridge regression (one-vs-rest for classes).
// Allocates, uses threads, throws TrainError; never linked into the device core.
#pragma once

#include <cstdint>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

#include "rfk/format.hpp"
#include "rfk/host/data.hpp"
#include "rfk/host/model_writer.hpp"

namespace rfk::host {

class TrainError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

enum class TaskChoice { kAuto, kClassification, kRegression };

struct TrainOptions {
  // Maps: the random Fourier map (unless fourier == false), the random binning map (when
  // grids > 0), or both, concatenated ("fourier+binning").
  bool fourier = true;
  format::MapKind map = format::MapKind::kFourier;
  format::Kernel kernel = format::Kernel::kGaussian;
  std::uint32_t features = 1000;  // D; must be even for the pair form
  std::uint32_t grids = 0;        // P: random binning grids (Laplacian kernel)
  std::uint32_t buckets = 0;      // B > 0: hashed mode, B buckets per grid; 0: exact mode
  double bin_gamma = 0.0;         // binning's gamma; <= 0: data-scale default (1/median L1)
  // gamma <= 0 means "the data-scale default" (see docs: 1/median of the kernel's distance over
  // sampled training pairs); gamma_auto searches a grid around that default by cross-validation.
  double gamma = 0.0;
  bool gamma_auto = false;
  double lambda = 1e-4;  // ridge penalty on the mean squared error: (1/n)||Zw - y||^2 + lambda ||w||^2
  bool lambda_auto = false;
  TaskChoice task = TaskChoice::kAuto;
  std::uint64_t seed = 1;
  int standardize = -1;    // -1: on for dense data, off for sparse; 0: off; 1: on
  unsigned threads = 0;    // 0: all hardware threads. The model does not depend on it.
  std::uint32_t cv_folds = 3;
  // Progress callback (rows processed, rows in this pass, what the pass is). May be empty.
  std::function<void(std::uint64_t, std::uint64_t, const std::string&)> progress;
};

struct CvPoint {
  double gamma, lambda;
  double error;  // mean held-out error: misclassification rate, or relative RMSE for regression
};

struct TrainReport {
  format::Task task = format::Task::kRegression;
  std::string task_reason;         // why this task was chosen (for --task auto)
  std::vector<std::string> labels; // class labels, sorted
  double gamma = 0.0, lambda = 0.0;
  double gamma_default = 0.0;      // the data-scale default gamma
  std::vector<CvPoint> cv;         // every point evaluated (empty without auto)
  double bin_gamma = 0.0, bin_gamma_default = 0.0;  // random binning map, when present
  std::vector<std::uint32_t> occupied_bins;  // per grid: bins seen in training (exact) or
                                             // buckets hit (hashed)
  int cg_iterations = 0;                     // final solve (binning maps): most over outputs
  double cg_residual = 0.0;                  //   and the worst relative residual
  bool standardized = false;
  std::uint64_t rows = 0;
  double train_error = 0.0;        // error or relative RMSE of the stored (f32) model on ...
  std::uint64_t train_error_rows = 0;  // ... an evenly strided sample of this many training rows
  double seconds = 0.0;
};

struct TrainResult {
  std::vector<std::uint8_t> model;  // a complete model blob (docs/FORMAT.md)
  TrainReport report;
};

TrainResult Train(const Dataset& data, const TrainOptions& options);

// The random feature map Train would draw for these settings, with a zero regression head and no
// standardisation: for users who want z(x) alone, and for tests of the kernel approximation.
ModelSpec RandomFeatureSpec(format::Kernel kernel, format::MapKind map, std::uint32_t features,
                            std::uint32_t input_dim, double gamma, std::uint64_t seed);

// Parses --kernel / --map names; throws TrainError listing the valid names.
format::Kernel ParseKernel(const std::string& name);
format::MapKind ParseMap(const std::string& name);
const char* KernelName(format::Kernel k);
const char* MapName(format::MapKind m);
const char* TaskName(format::Task t);

}  // namespace rfk::host

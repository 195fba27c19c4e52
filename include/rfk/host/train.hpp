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

// Class weights of the ridge fit: none, or "balanced" (scikit-learn's convention): a row of class
// c weighs n / (C * n_c), so every class carries the same total weight.
enum class ClassWeight { kNone, kBalanced };

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
  // -1: by the data's density (at least 25 % non-zeros: centred and scaled; sparser: scaled
  // without centring, 0/1 indicator features left as they are); 0: off; 1: centred and scaled.
  int standardize = -1;
  unsigned threads = 0;    // 0: all hardware threads. The model does not depend on it.
  std::uint32_t cv_folds = 3;
  // Row weights: the fit minimises sum_i w_i (z_i.h + b - y_i)^2 / sum_i w_i + lambda ||h||^2
  // (every design), and cross-validation and the training error score weighted losses
  // (sum_i w_i loss_i / sum_i w_i). w_i = sample_weight[i] (1 when empty) times the class weight.
  ClassWeight class_weight = ClassWeight::kNone;  // kBalanced: classification only
  std::vector<double> sample_weight;  // empty, or one finite weight >= 0 per training row
  // Resource guard: training whose estimated peak memory (EstimateTrainingMemory) exceeds this
  // many bytes is refused before any large allocation. 0: the machine's physical memory.
  std::uint64_t memory_limit = 0;
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
  bool standardized = false;       // the model standardises its inputs (see standardize) ...
  bool centred = false;            // ... subtracting means (else dividing by deviations only)
  double nonzero_fraction = 0.0;   // of the training data's entries (decides the default)
  std::uint64_t rows = 0;
  double train_error = 0.0;        // error or relative RMSE of the stored (f32) model on ...
  std::uint64_t train_error_rows = 0;  // ... an evenly strided sample of this many training rows
  double seconds = 0.0;
  double memory_estimate = 0.0;  // EstimateTrainingMemory, bytes
  double memory_limit = 0.0;     // the guard's limit, bytes (0: none known)
};

struct TrainResult {
  std::vector<std::uint8_t> model;  // a complete model blob (docs/FORMAT.md)
  TrainReport report;
};

// Throws TrainError for bad options or data, and when the estimated peak memory exceeds
// options.memory_limit (the message states both).
TrainResult Train(const Dataset& data, const TrainOptions& options);

// Training's estimated peak memory for `data` (already loaded, counted too) with K outputs and
// `threads` workers, and the part that dominates it. Exact binning's column count is known only
// once the training bins are: `exact_bins` (0 before; Train checks again with the real count
// before the solve).
struct MemoryEstimate {
  double bytes = 0;
  std::string largest;      // e.g. "the ridge statistics and their factorisation, D x D doubles"
  double largest_bytes = 0;
  std::string advice;       // the options that shrink it, e.g. "--features"
};
MemoryEstimate EstimateTrainingMemory(const Dataset& data, const TrainOptions& options,
                                      std::uint32_t K, unsigned threads,
                                      std::uint32_t exact_bins = 0);

// sysconf(_SC_PHYS_PAGES) x page size; 0 if unknown (the guard then applies no limit).
double PhysicalMemoryBytes();

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

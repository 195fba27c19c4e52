/// @file
/// Host-only training: random Fourier features + ridge regression (one-vs-rest for classes).
/// Allocates, uses threads, throws TrainError; never linked into the device core.
#pragma once

#include <cstdint>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

#include "rfk/format.hpp"
#include "rfk/host/data.hpp"
#include "rfk/host/model_writer.hpp"
#include "rfk/host/ranks.hpp"

namespace rfk::host {

class TrainError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// Distributed training (TrainOptions::ranks): an error every rank throws alike, after the ranks
/// compared what they train -- none is left waiting, so each may simply stop (rank 0 reports it).
class RanksError : public TrainError {
 public:
  using TrainError::TrainError;
};

/// The task training fits: decided from the labels (kAuto: classification when they are not all
/// numbers or are few distinct integers), or as given.
enum class TaskChoice { kAuto, kClassification, kRegression };

/// The defaults of gamma and lambda (TrainOptions::gamma, lambda) are decided by the pipeline from
/// the data's size, the same way on every machine:
/// - with at least kMinRowsPerFold rows per fold, and when one point of the selection costs at
///   most kDefaultSearchBudget (rows x (D_F^2 + 4e4 P) multiply-adds: a pass of the Fourier
///   design's Gram statistics, or its empirical equivalent for binning's CG solves), gamma and
///   lambda are cross-validated as --gamma auto --lambda auto;
/// - beyond that budget, gamma is the data-scale default, and lambda is cross-validated at it for
///   Fourier-type maps alone (one pass serves the lambda grid), or kFallbackLambda with binning
///   (a CG path per fold and lambda);
/// - with fewer rows than that, the data-scale gamma and kFallbackLambda.
/// TrainReport::gamma_reason and lambda_reason say which applied. Cost, measured on the Table 1
/// datasets (docs/RESULTS.md, "Defaults against cross-validation"): a searching default takes
/// 4-16x one fixed-parameter fit with Fourier maps, 20-155x with binning.
inline constexpr double kDefaultGamma = -1.0;    ///< TrainOptions::gamma: chosen by the pipeline
inline constexpr double kDefaultLambda = -1.0;   ///< TrainOptions::lambda: chosen by the pipeline
inline constexpr double kFallbackLambda = 1e-4;  ///< the default's lambda without cross-validation
inline constexpr std::uint32_t kMinRowsPerFold = 10;  ///< the defaults cross-validate from this many rows per fold
inline constexpr double kDefaultSearchBudget = 2e11;  ///< multiply-adds one selection point may cost (above)

/// The default D (TrainOptions::features == kDefaultFeatures) of a Fourier-type map, decided from
/// the data the same way on every machine: rows / 4, rounded down to a multiple of 100, within
/// [kDefaultFeaturesMin, kDefaultFeaturesMax]; then at most what TrainOptions::max_model_bytes
/// holds: the bytes that grow with D -- the frequencies (d per frequency, as stored: w_storage),
/// the phases (phase form) and the head (K per feature: head_storage), with a dense W (Fastfood
/// maps store less) -- after the rest of the model: kModelAllowance + 8 (d + K) bytes and W's
/// padding to whole panels (16 rows). Metadata or names longer than the allowance can take a
/// model past the budget (rfk train then says so). TrainReport::features_reason says which bound
/// applied. Measured against `-D 4000 --gamma auto --lambda auto` and a tuned scikit-learn peer in
/// docs/RESULTS.md, "Defaults against a tuned scikit-learn peer and against D = 4000".
inline constexpr std::uint32_t kDefaultFeatures = 0;  ///< TrainOptions::features: decided from the data
inline constexpr std::uint32_t kDefaultFeaturesMin = 1000;  ///< the default D's least (budget permitting)
inline constexpr std::uint32_t kDefaultFeaturesMax = 4000;  ///< the default D's most
inline constexpr std::uint64_t kDefaultModelBudget = std::uint64_t{16} << 20;  ///< 16 MiB
inline constexpr double kModelAllowance = 1024;  ///< the budget's bytes for the header, metadata and the like

/// Class weights of the ridge fit: none, or "balanced" (scikit-learn's convention): a row of class
/// c weighs n / (C * n_c), so every class carries the same total weight.
enum class ClassWeight { kNone, kBalanced };

/// How an interface spells an option in its messages: the CLI's flag ("--bins-per-grid",
/// "--lambda") or the Python estimators' parameter ("bins_per_grid", "alpha"). OptionName
/// (rfk/host/settings.hpp) spells one.
enum class Spelling { kCli, kPython };

/// What Train fits: the maps, the kernel and its parameters, the task, the storages and the resource
/// guards. The defaults are `rfk train`'s; ParseTrainSettings builds these from the options as users
/// give them.
struct TrainOptions {
  /// How Train's errors name the options (ParseTrainSettings sets the interface's).
  Spelling spelling = Spelling::kCli;
  /// Maps: the random Fourier map (unless fourier == false), the random binning map (when
  /// grids > 0), or both, concatenated ("fourier+binning").
  bool fourier = true;
  format::MapKind map = format::MapKind::kFourier;    ///< the Fourier-type map's kind (FourierMapNames)
  format::Kernel kernel = format::Kernel::kGaussian;  ///< the kernel the Fourier map approximates
  /// D; must be even for the pair form. kDefaultFeatures: decided from the data (above).
  std::uint32_t features = kDefaultFeatures;
  /// The default D's budget (above): the most bytes its D-dependent sections may take.
  std::uint64_t max_model_bytes = kDefaultModelBudget;
  std::uint32_t grids = 0;        ///< P: random binning grids (Laplacian kernel)
  std::uint32_t buckets = 0;      ///< B > 0: hashed mode, B buckets per grid; 0: exact mode
  double bin_gamma = 0.0;         ///< binning's gamma; <= 0: data-scale default (1/median L1)
  /// gamma > 0: this gamma; 0: the data-scale default (1/median of the kernel's distance over
  /// sampled training pairs); negative (kDefaultGamma): decided as described above. gamma_auto
  /// searches factors of the data-scale default by cross-validation.
  double gamma = kDefaultGamma;
  bool gamma_auto = false;  ///< cross-validation over factors of the data-scale gamma
  /// Ridge penalty on the mean squared error: (1/n)||Zw - y||^2 + lambda ||w||^2. Negative
  /// (kDefaultLambda): decided as described above.
  double lambda = kDefaultLambda;
  bool lambda_auto = false;  ///< cross-validation over the lambda grid; an error with too few rows
  TaskChoice task = TaskChoice::kAuto;  ///< regression or classification, or decided from the labels
  std::uint64_t seed = 1;               ///< the random features' seed: the same seed, the same map
  /// -1: by the data's density (at least 25 % non-zeros: centred and scaled; sparser: scaled
  /// without centring, 0/1 indicator features left as they are); 0: off; 1: centred and scaled.
  int standardize = -1;
  unsigned threads = 0;    ///< 0: all hardware threads. The model does not depend on it.
  std::uint32_t cv_folds = 3;  ///< folds of the cross-validation (auto and default selection)
  /// Row weights: the fit minimises sum_i w_i (z_i.h + b - y_i)^2 / sum_i w_i + lambda ||h||^2
  /// (every design), and cross-validation and the training error score weighted losses
  /// (sum_i w_i loss_i / sum_i w_i). w_i = sample_weight[i] (1 when empty) times the class weight.
  ClassWeight class_weight = ClassWeight::kNone;  ///< kBalanced: classification only
  std::vector<double> sample_weight;  ///< empty, or one finite weight >= 0 per training row
  /// Resource guard: training whose estimated peak memory (EstimateTrainingMemory) exceeds this
  /// many bytes is refused before any large allocation. 0: the machine's physical memory.
  std::uint64_t memory_limit = 0;
  /// Missing values: the values the model substitutes for NaN inputs (format::impute), d of them,
  /// or empty (the model then refuses NaN inputs). The training data itself must hold no NaN:
  /// impute it first with these values (Impute). ImputationValues computes them.
  std::vector<float> impute;
  format::ImputeMethod impute_method = format::ImputeMethod::kMean;  ///< how `impute` was computed (stored)
  /// Classification: fit a calibration of the outputs into probabilities (format::calibration) on
  /// held-out decision values at the chosen gamma and lambda: of max(cv_folds, 3) folds, the fewest
  /// whose rows reach 20,000 are held out, a solve each, and a sample of their rows scored (docs/CLI.md,
  /// "Class probabilities"); after a selection one more pass of fold statistics and one of scoring;
  /// Fourier-type designs only (binning designs have no calibration: its CG per fold is not done).
  bool calibrate = true;
  /// The storages of the model Train returns (docs/FORMAT.md, "Quantized storage"). A W stored f16
  /// or int8 (dense and orthogonal maps) is trained quantization-aware: every feature training
  /// computes is the device's from the stored W, so the head fits that W. An int8 head over
  /// Fourier-type features alone is rounded to minimise the change of the ridge objective, not of
  /// the weights (RoundInt8Gptq; its bias refitted); other heads are rounded plainly.
  format::Storage w_storage = format::Storage::kF32;
  format::Storage head_storage = format::Storage::kF32;  ///< the head's storage (as w_storage above)
  /// false: the model has no metadata section (the training options and statistics as text,
  /// docs/FORMAT.md "metadata"; `rfk train --no-metadata`) and no input statistics.
  /// Nothing prediction reads is lost; `rfk convert --calibrate`, which reads lambda there, refuses it.
  bool metadata = true;
  /// Distributed training (rfk/host/ranks.hpp; null or one rank: this process alone). Every rank
  /// calls Train with the same data and options; each reads every row once for the statistics
  /// (labels, standardisation, default gamma: the same bits as one process) and then only its share
  /// of the rows (RankRange) in the passes of the design, whose statistics are summed in rank order
  /// on every rank. Every rank returns the same model (rank 0 writes it); a model of P ranks predicts
  /// what the one-process model predicts within the accuracy docs/PERFORMANCE.md states ("Training
  /// with MPI"). Fourier-type maps only (TrainError for binning). Ranks whose data or options
  /// differ get a TrainError on every rank before the first reduction.
  Ranks* ranks = nullptr;
  /// Progress callback (rows processed, rows in this pass, what the pass is). May be empty.
  std::function<void(std::uint64_t, std::uint64_t, const std::string&)> progress;
};

/// One point of the cross-validated selection.
struct CvPoint {
  double gamma;   ///< the kernel's gamma at this point
  double lambda;  ///< the ridge penalty at this point
  double error;  ///< mean held-out error: misclassification rate, or relative RMSE for regression
};

/// What training decided and measured (rfk train prints it).
struct TrainReport {
  format::Task task = format::Task::kRegression;  ///< the task fitted
  std::string task_reason;         ///< why this task was chosen (for --task auto)
  std::vector<std::string> labels; ///< class labels, sorted
  double gamma = 0.0;               ///< the kernel's gamma the model has
  double lambda = 0.0;              ///< the ridge penalty it was fitted with
  std::string gamma_reason;         ///< how gamma was set: given, auto, or the default's way
  std::string lambda_reason;        ///< how lambda was set
  std::uint32_t features = 0;       ///< D_F, the Fourier-type map's features (0: binning alone)
  std::string features_reason;      ///< how D_F was set: given, or the default's bound (above)
  /// What the features bought, measured by the selection at the chosen gamma (primal Fourier
  /// designs of one process; 0 features otherwise): the best held-out error over the lambda grid
  /// of the model on half the frequencies (the first F/2, both features of each pair), against
  /// the chosen point's. The next doubling of D typically buys less than this step did.
  std::uint32_t half_features = 0;  ///< features of the half-frequency model (0: not measured)
  double half_features_error = 0.0;  ///< its best held-out error (error or rel_rmse)
  double selection_seconds = 0.0;  ///< cross-validation's share of `seconds` (0 without it)
  bool selection_dual = false;     ///< selection solved in the dual (fewer rows than features)
  double gamma_default = 0.0;      ///< the data-scale default gamma
  std::vector<CvPoint> cv;         ///< every point evaluated (empty without auto)
  double bin_gamma = 0.0;           ///< the binning map's gamma, when present
  double bin_gamma_default = 0.0;   ///< its data-scale default
  std::vector<std::uint32_t> occupied_bins;  ///< per grid: bins seen in training (exact) or
                                             ///< buckets hit (hashed)
  int cg_iterations = 0;                     ///< final solve (binning maps): most over outputs
  double cg_residual = 0.0;                  ///<   and the worst relative residual
  bool standardized = false;       ///< the model standardises its inputs (see standardize) ...
  bool centred = false;            ///< ... subtracting means (else dividing by deviations only)
  double nonzero_fraction = 0.0;   ///< of the training data's entries (decides the default)
  std::uint64_t rows = 0;          ///< training rows
  double train_error = 0.0;        ///< error or relative RMSE of the stored (f32) model on ...
  std::uint64_t train_error_rows = 0;  ///< ... an evenly strided sample of this many training rows
  double majority_rate = 0.0;      ///< classification: the most frequent class's share of that
  std::string majority_label;      ///<   sample, and its label (1 - train_error <= it: docs/CLI.md)
  /// Calibration (classification, TrainOptions::calibrate): the method (0: none; then why not),
  /// its parameters, the held-out log loss it reaches on its sample (rows of held-out folds of the
  /// folds) and its share of `seconds`.
  std::uint32_t calibration_method = 0;   ///< a format::CalibrationMethod number, 0: none
  std::string calibration_reason;         ///< why none ("" when there is one, or for regression)
  std::vector<float> calibration_params;  ///< as stored (ModelSpec::calibration_params)
  std::uint64_t calibration_rows = 0;     ///< rows of the held-out sample it was fitted on
  std::uint32_t calibration_held_out = 0; ///< folds held out for it ...
  std::uint32_t calibration_folds = 0;    ///< ... of this many
  double calibration_log_loss = 0.0;      ///< the held-out log loss it reaches on its sample
  double calibration_seconds = 0.0;       ///< its share of `seconds`
  double seconds = 0.0;                   ///< training's wall time (reading the data excluded)
  double memory_estimate = 0.0;  ///< EstimateTrainingMemory, bytes
  double memory_limit = 0.0;     ///< the guard's limit, bytes (0: none known)
  double peak_rss = 0.0;         ///< the process's peak resident memory at the end (getrusage), bytes
  double chunk_bytes = 0.0;      ///< streamed (TrainFile): the chunk size, bytes; 0: data in memory
  std::uint64_t chunks = 0;      ///< streamed: chunks per pass over the file
  double scan_seconds = 0.0;     ///< streamed: the first scan of the file (not in `seconds`)
  std::string blas;              ///< BlasDescription(): the BLAS and the kernels it ran
  std::string host_kernels;      ///< rfk's own training kernels: "unfused" (the projection computes
                                 ///< a device's features bit for bit) or "fused-avx2"/"fused-avx512"
                                 ///< (one fma per multiply-add: within rounding of them)
  std::uint32_t ranks = 1;       ///< processes that trained (TrainOptions::ranks); the other fields
                                 ///< are this rank's (time, memory), or the same on every rank
};

/// Train's result: the model file's bytes and the report.
struct TrainResult {
  std::vector<std::uint8_t> model;  ///< a complete model blob (docs/FORMAT.md)
  TrainReport report;               ///< what training decided and measured
};

/// Throws TrainError for bad options or data, and when the estimated peak memory exceeds
/// options.memory_limit (the message states both).
TrainResult Train(const Dataset& data, const TrainOptions& options);

/// Training on a LIBSVM or CSV file (gzip'd or plain) that is never in memory whole: the file is
/// read in chunks of about `chunk_bytes` of text (ChunkedReader) once for its statistics (rows,
/// labels, standardisation, weights from read.weight_column), once for the default gamma's
/// sample, then once or twice per selection point, for the fit, the calibration and the training
/// error. Peak memory is O(D^2 + chunk) plus 4 to 16 bytes per row (the class or target and the
/// weight of each row) -- not O(rows x d). The model is byte-identical to
/// Train(ReadDataset(path, read), options): every decision depends on the global row index, and
/// the blocks of rows summed together do not depend on the chunks. Fourier-type maps only (binning
/// is refused, TrainError); idx files are refused (DataError). *meta (if not null) gets the data's
/// description (ChunkedReader::meta) once the file was scanned.
TrainResult TrainFile(const std::string& path, const ReadOptions& read, const TrainOptions& options,
                      std::size_t chunk_bytes, Dataset* meta = nullptr);

/// The default chunk of TrainFile (rfk train --chunk): 4 MiB of text.
inline constexpr std::size_t kDefaultChunkBytes = std::size_t{4} << 20;

/// Training's estimated peak memory for `data` (already loaded, counted too) with K outputs and
/// `threads` workers, and the part that dominates it. Exact binning's column count is known only
/// once the training bins are: `exact_bins` (0 before; Train checks again with the real count
/// before the solve).
struct MemoryEstimate {
  double bytes = 0;         ///< the estimated peak, bytes
  std::string largest;      ///< e.g. "the ridge statistics and their factorisation, D x D doubles"
  double largest_bytes = 0; ///< that part's bytes
  std::string advice;       ///< the options that shrink it, e.g. "--features"
};
/// `task` and K: the targets' (classifiers' calibration folds hold more statistics, trainer.cc).
/// Streamed data (TrainFile): `data` is its description, without rows, and chunk_memory > 0 the
/// bytes of its largest parsed chunk; the estimate then counts a chunk (and its text) instead of
/// the loaded data. `data_bytes` > 0 stands for the loaded data's size when `data` has no rows
/// (an estimate from the file, for the choice between reading and streaming).
MemoryEstimate EstimateTrainingMemory(const Dataset& data, const TrainOptions& options,
                                      format::Task task, std::uint32_t K, unsigned threads,
                                      std::uint32_t exact_bins = 0, double chunk_memory = 0,
                                      double data_bytes = 0);

/// sysconf(_SC_PHYS_PAGES) x page size; 0 if unknown (the guard then applies no limit).
double PhysicalMemoryBytes();

/// The random feature map Train would draw for these settings, with a zero regression head and no
/// standardisation: for users who want z(x) alone, and for tests of the kernel approximation.
ModelSpec RandomFeatureSpec(format::Kernel kernel, format::MapKind map, std::uint32_t features,
                            std::uint32_t input_dim, double gamma, std::uint64_t seed);

/// Missing values of a dataset read with ReadOptions::missing_as_nan: per column, the mean or the
/// median of its present values (0 for a column with none; sparse data: absent entries count as
/// zeros). Impute replaces every NaN of dense data by its column's value and returns how many.
std::vector<float> ImputationValues(const Dataset& data, format::ImputeMethod method);
/// Replaces every NaN of dense data by its column's value (ImputationValues); returns how many.
std::uint64_t Impute(const std::vector<float>& values, Dataset* data);

/// OpenBLAS (training's BLAS) picks its kernels when it loads, from the CPUs its version knows; on
/// a newer CPU it may fall back to generic SSE3 kernels that train 2-3x slower, and only
/// OPENBLAS_CORETYPE set before the process starts changes that. BetterBlasCore: the
/// OPENBLAS_CORETYPE value that would use this CPU's vector units (e.g. "SkylakeX"), or empty when
/// OpenBLAS's choice is fine or OPENBLAS_CORETYPE is already set. (`rfk train` restarts itself with
/// it; the Python module switches in place, UseBetterBlasCore.) BlasDescription: e.g. "OpenBLAS
/// 0.3.21, SkylakeX kernels", with that advice appended when BetterBlasCore is not empty. Both read
/// the environment.
std::string BetterBlasCore();
/// The BLAS and its kernels, with BetterBlasCore's advice (above).
std::string BlasDescription();

/// Switches this process's OpenBLAS to BetterBlasCore()'s kernels in place, for a process that
/// cannot restart itself (the Python module, when it is imported): OpenBLAS's own DYNAMIC_ARCH
/// initialisation is run again with OPENBLAS_CORETYPE set for the call (the environment is as it
/// was afterwards). Every user of that OpenBLAS in the process (NumPy too, where it shares the
/// library) then runs those kernels. Not thread-safe: call it before other threads run BLAS.
/// Returns the core switched to, or empty where nothing changed (no better core, an OpenBLAS
/// without DYNAMIC_ARCH, or one that kept its choice).
std::string UseBetterBlasCore();

/// Parses --kernel / --map names; throws TrainError listing the valid names.
format::Kernel ParseKernel(const std::string& name);
/// Parses a Fourier-type --map name (FourierMapNames); throws TrainError listing them.
format::MapKind ParseMap(const std::string& name);
const char* KernelName(format::Kernel k);  ///< the format's name of a kernel ("gaussian")
const char* MapName(format::MapKind m);    ///< the format's name of a map kind ("orf-phase")
/// The names --map takes for a Fourier-type map, comma-separated in the format table's order
/// ("fourier, fourier-phase, orf, ..."): the registry's kinds, for help texts and messages.
std::string FourierMapNames();
const char* TaskName(format::Task t);  ///< "regression", "binary" or "multiclass"

}  // namespace rfk::host

// What the rfk CLI's subcommand files share. Each subcommand lives in its own file (train.cc,
// predict.cc, eval.cc, inspect.cc, export.cc, convert.cc, info.cc) and registers its own options through its
// Add* function below; main.cc only builds the CLI11 app and runs the subcommand that was given.
#pragma once

#include <chrono>
#include <cmath>
#include <cstdint>
#include <functional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "rfk/host/data.hpp"
#include "rfk/host/opened_model.hpp"
#include "rfk/host/settings.hpp"
#include "rfk/host/model_writer.hpp"
#include "rfk/host/train.hpp"
#include "rfk/model.hpp"

// CLI11 is included only by the files that register options (it is most of the CLI's compile
// time, even where unused).
namespace CLI {
class App;
}  // namespace CLI

namespace rfk::cli {

namespace host = rfk::host;
using Clock = std::chrono::steady_clock;

// Any failure the user should read: printed as "rfk: error: <what>", exit status 1.
struct CliError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// ------------------------------------------------------------------ subcommands
// Add<Name> adds the subcommand and its options to `app` and returns it with how to run it once the
// command line has been parsed (`run` owns the option values; it returns the exit status).
struct Command {
  CLI::App* app;
  std::function<int()> run;
};
Command AddTrain(CLI::App& app);
Command AddPredict(CLI::App& app);
Command AddEval(CLI::App& app);
Command AddInfo(CLI::App& app);
Command AddInspect(CLI::App& app);
Command AddExport(CLI::App& app);
Command AddConvert(CLI::App& app);

// ------------------------------------------------------------------ options (options.cc)
// The data-reading options every subcommand that reads data shares.
struct DataArgs {
  std::string format = "auto";
  std::string label_col;  // a 0-based index (negative from the end) or a header name; "": last
  std::string idx_labels;
  bool header = false, no_header = false;
  std::string sep;        // "", a character, or tab / space
  std::string index_col = "auto";
  std::string weight_column;  // AddWeightColumn: a header name or index; "": none
  std::string decimal;        // "", "." or ","
  std::vector<std::string> drop_cols, use_cols;  // header names or indices (comma-separated lists split)

  // Throws CliError for values that do not parse.
  host::ReadOptions Options() const;
  void Add(CLI::App* app);
  // --weight-column. train: the row weights (its --test file has the same layout, the column
  // skipped); predict and eval (fit = false): a column of the file that is skipped.
  void AddWeightColumn(CLI::App* app, bool fit);
};

// Numbers and sizes as training's options read them (rfk/host/settings.hpp).
using host::ParseDouble;
using host::ParseMemoryLimit;
// --memory-limit's value (train, convert): ParseMemoryLimit's bytes, or an error saying what it takes.
inline std::uint64_t MemoryLimitOption(const std::string& s) {
  return host::MemoryLimitOption(s, host::Spelling::kCli);
}

// ------------------------------------------------------------------ output (output.cc)
std::string JsonEscape(const std::string& s);
std::string Num(double v);          // %.9g, or null when not finite (for JSON)
using host::HumanBytes;             // "512 B", "1.5 KiB", "3.07 MiB", ...
// A calibration (format::calibration: its method, and the f32 parameters after method and K, as
// ModelSpec::calibration_params holds them): those parameters from an opened model; one line of
// text naming the method's formula and values (`positive`: the label of class 1, binary); JSON.
std::vector<float> CalibrationParams(const rfk::Model& m);
std::string CalibrationText(std::uint32_t method, const std::vector<float>& params, const char* positive);
std::string CalibrationJson(std::uint32_t method, const std::vector<float>& params);
// The reader's notes ("rfk: note: FILE: ...", not with quiet) and warnings ("rfk: warning: ...")
// about `data`, on stderr.
void PrintNotes(const host::Dataset& data, bool quiet = false);

// Progress bar on stderr when stderr is a terminal (at most ten redraws a second). With `lines`
// (--progress) and no terminal: one line "rfk: progress: WHAT" as each pass starts, for logs.
class ProgressBar {
 public:
  explicit ProgressBar(bool lines);
  ~ProgressBar() { Finish(); }
  void Update(std::uint64_t done, std::uint64_t total, const std::string& what);
  void Finish();

 private:
  bool tty_, lines_;
  bool shown_ = false;
  std::string what_;
  Clock::time_point last_{}, phase_start_{};
  std::uint64_t phase_done0_ = 0;
};

// ------------------------------------------------------------------ train's report (train_report.cc)
struct EvalResult;
// A finished `rfk train`: what the report prints.
struct TrainRun {
  const host::TrainOptions& opt;  // as given (the report says how defaults resolved)
  const host::Dataset& data;
  host::TrainResult result;
  std::string output, test;       // the model file, the --test file ("" without)
  double read_s = 0, total_s = 0;
  std::uint64_t imputed = 0;      // missing values filled (--missing)
  const EvalResult* test_result = nullptr;
};
void PrintTrainText(const TrainRun& run, bool verbose);
// "data read whole", or "streamed in chunks of 4 MiB of text, N a pass".
std::string StreamingText(const host::TrainReport& rep);
// With --progress: the peak resident memory and how the data was read, on stderr.
void PrintMemoryLine(const host::TrainReport& rep, bool progress);
void PrintTrainJson(const TrainRun& run);
// On stderr: a warning when training accuracy is no better than the majority class's share; a
// note (not with quiet) when selection ran with D above the rows.
void WarnAboutTraining(const TrainRun& run, bool quiet);

// ------------------------------------------------------------------ models (model_file.cc)
// A model file is read and opened by host::OpenedModel::ReadFile (a model that does not open is
// a host::ModelOpenError naming the path, field and offset).
// Reads a data file for `m`: its columns are matched to the model's features (by the names the
// model stores, when the file has a header; else by position), and its rows must have the
// model's input dimension. `labels`: whether a label column is needed (eval), optional (predict)
// or absent (predict --no-label). Missing values are read as NaN for a model that imputes them
// (unless `allow_missing` is false), else refused. Prints the reader's notes (not with quiet).
host::Dataset ReadForModel(const std::string& path, const DataArgs& args, const rfk::Model& m,
                           host::LabelColumn labels = host::LabelColumn::kRequired, bool quiet = false,
                           bool allow_missing = true);

// ------------------------------------------------------------------ train's model write (atomic_write.cc)
// SIGINT, SIGTERM, SIGHUP during training end the process at once by the signal (nothing is on
// disk yet); SIGXFSZ is ignored, so a file size limit fails the write instead of killing it.
void InstallTrainSignalHandlers();
// Writes the model atomically; a signal during the write removes the temporary, keeps an existing
// file and ends the process by that signal after saying so.
void WriteModelAtomically(const std::string& path, const std::vector<std::uint8_t>& model);

// ------------------------------------------------------------------ evaluation (evaluate.cc, metrics.cc)
// How a classifier's predicted class comes from its outputs (`--decision`): kCalibrated is
// rfk::DecideClass (with a calibration section, the most probable class: the argmax of --proba),
// kRaw rfk::DecideClassRaw (the sign or the first maximum of the raw outputs).
enum class Decision { kCalibrated, kRaw };
void AddDecisionOption(CLI::App* cmd, Decision* decision);

struct EvalResult {
  std::size_t n = 0;
  bool classification = false;
  bool labelled = true;            // false: a features-only file (predictions, no metrics)
  double error_rate = 0, accuracy = 0, rmse = 0, rel_rmse = 0;
  std::size_t unknown_labels = 0;  // test labels the model has no class for (counted as errors)
  double predict_us = 0;           // mean single-sample latency through rfk::Predict
  bool fixed_point = false;        // predicted through the integer path (a fixed section)
  std::uint64_t saturated = 0;     // then: input values clamped to +-32767 by QuantizeInput
  // Classification, over the rows whose label is one of the model's C classes:
  std::vector<std::string> classes;       // the model's labels
  std::vector<std::uint64_t> confusion;   // C x C, row-major: [true class][predicted class]
  std::vector<double> precision, recall;  // per class; NaN where undefined (nothing predicted / present)
  std::vector<std::uint64_t> support;     // rows per true class
  double balanced_accuracy = NAN;         // mean recall over the classes present
  double majority_rate = NAN;             // the most frequent true class's share of the rows:
  std::string majority_label;             //   the accuracy of always predicting it
  double roc_auc = NAN;                   // binary, both classes present: AUC of the decision value
  const char* decision = "raw";           // "calibrated" where DecideClass used a calibration section
  // Models with a calibration section, over the same rows: the probabilities' mean log loss
  // (-ln p of the true class, p floored at 1e-15), Brier score (binary: mean (p1 - y)^2;
  // multiclass: mean sum_k (p_k - [k = y])^2) and expected calibration error (15 equal-width bins
  // of the top class's probability on [0, 1]: sum over bins of n_b / n |accuracy_b - mean p_b|).
  bool has_proba = false;
  double log_loss = NAN, brier = NAN, ece = NAN;
  // Regression:
  double mae = 0, r2 = NAN;               // r2: 1 - SSE / sum of squares about the mean of y
};
// Predicts every row through the device core, one sample at a time, timing only Predict; with
// `predictions`, also collects one printable prediction per row (a label or a number), and with
// `scores` the model's K raw outputs per row (rows x K, row-major). Metrics need labels
// (data.has_labels); a features-only file gets predictions and latency only.
// With `proba`, the class probabilities per row (rows x C) through rfk::Probabilities (a
// CliError with a hint when the model has no calibration section). Classes by `decision`.
EvalResult Evaluate(const rfk::Model& m, const host::Dataset& data, std::vector<std::string>* predictions,
                    std::vector<float>* scores = nullptr, std::vector<float>* proba = nullptr,
                    Decision decision = Decision::kCalibrated);
// The CliError for --proba on a model without calibration (regression, or trained without it).
[[noreturn]] void ThrowNoCalibration(const rfk::Model& m, const std::string& path);

// metrics.cc: precision, recall, support, balanced accuracy and the majority rate from the
// confusion matrix (in place); the ROC AUC of (score, positive) pairs (ties share their rank;
// NaN without both kinds); the metrics as text lines and as JSON members (",\"key\": ...").
void FinishClassMetrics(EvalResult* e);
double RocAuc(std::vector<std::pair<float, bool>> scored);
void PrintMetricsText(const EvalResult& e);
std::string MetricsJson(const EvalResult& e);

}  // namespace rfk::cli

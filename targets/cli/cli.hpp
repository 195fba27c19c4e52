// What the rfk CLI's subcommand files share. Each subcommand lives in its own file (train.cc,
// predict.cc, eval.cc, inspect.cc, export.cc, info.cc) and registers its own options through its
// Add* function below; main.cc only builds the CLI11 app and runs the subcommand that was given.
#pragma once

#include <CLI/CLI.hpp>
#include <chrono>
#include <cstdint>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

#include "rfk/host/data.hpp"
#include "rfk/host/model_writer.hpp"
#include "rfk/model.hpp"

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

// ------------------------------------------------------------------ options (options.cc)
// The data-reading options every subcommand that reads data shares.
struct DataArgs {
  std::string format = "auto";
  int label_col = -1;
  std::string idx_labels;

  host::ReadOptions Options() const;
  void Add(CLI::App* app);
};

// A finite number, the whole string; false for anything else.
bool ParseDouble(const std::string& s, double* v);
// "physical" (0), or a positive number of bytes with an optional K, M, G or T suffix (powers of
// 1024), e.g. 512M. Returns false for anything else.
bool ParseMemoryLimit(const std::string& s, std::uint64_t* bytes);

// ------------------------------------------------------------------ output (output.cc)
std::string JsonEscape(const std::string& s);
std::string Num(double v);          // %.9g, or null when not finite (for JSON)
std::string HumanBytes(double b);   // "512 B", "1.5 KiB", "3.07 MiB", ...

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

// ------------------------------------------------------------------ models (model_file.cc)
// A model file opened in place.
struct LoadedModel {
  host::AlignedBytes bytes;
  rfk::Model model;
};
// Reads and opens a model; a model that does not open is a CliError naming the field and offset.
LoadedModel LoadModel(const std::string& path);
// Reads a data file for `m`: its rows must have the model's input dimension.
host::Dataset ReadForModel(const std::string& path, const DataArgs& args, const rfk::Model& m);

// ------------------------------------------------------------------ train's model write (atomic_write.cc)
// SIGINT, SIGTERM, SIGHUP during training end the process at once by the signal (nothing is on
// disk yet); SIGXFSZ is ignored, so a file size limit fails the write instead of killing it.
void InstallTrainSignalHandlers();
// Writes the model atomically; a signal during the write removes the temporary, keeps an existing
// file and ends the process by that signal after saying so.
void WriteModelAtomically(const std::string& path, const std::vector<std::uint8_t>& model);

// ------------------------------------------------------------------ evaluation (evaluate.cc)
struct EvalResult {
  std::size_t n = 0;
  bool classification = false;
  double error_rate = 0, accuracy = 0, rmse = 0, rel_rmse = 0;
  std::size_t unknown_labels = 0;  // test labels the model has no class for (counted as errors)
  double predict_us = 0;           // mean single-sample latency through rfk::Predict
};
// Predicts every row through the device core, one sample at a time, timing only Predict; with
// `predictions`, also collects one printable prediction per row (a label or a number), and with
// `scores` the model's K raw outputs per row (rows x K, row-major).
EvalResult Evaluate(const rfk::Model& m, const host::Dataset& data, std::vector<std::string>* predictions,
                    std::vector<float>* scores = nullptr);

}  // namespace rfk::cli

// rfk: train, predict, evaluate and inspect random-feature models from the command line.
#include <signal.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <algorithm>
#include <charconv>
#include <system_error>
#include <cstring>
#include <memory>
#include <new>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "rfk/host/c_export.hpp"
#include "rfk/host/data.hpp"
#include "rfk/host/model_writer.hpp"
#include "rfk/host/train.hpp"
#include "rfk/kernels.hpp"
#include "rfk/model.hpp"

namespace {

using Clock = std::chrono::steady_clock;
namespace host = rfk::host;

// Any failure the user should read: printed as "rfk: error: <what>", exit status 1.
struct CliError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

std::string JsonEscape(const std::string& s) {
  std::string o;
  for (unsigned char c : s) {
    switch (c) {
      case '"': o += "\\\""; break;
      case '\\': o += "\\\\"; break;
      case '\n': o += "\\n"; break;
      case '\t': o += "\\t"; break;
      default:
        if (c < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\u%04x", c);
          o += buf;
        } else {
          o += static_cast<char>(c);
        }
    }
  }
  return o;
}

std::string Num(double v) {
  if (!std::isfinite(v)) return "null";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.9g", v);
  return buf;
}

std::string HumanBytes(double b) {
  char buf[32];
  if (b < 1024) std::snprintf(buf, sizeof buf, "%.0f B", b);
  else if (b < 1024 * 1024) std::snprintf(buf, sizeof buf, "%.1f KiB", b / 1024);
  else if (b < 1024.0 * 1024 * 1024) std::snprintf(buf, sizeof buf, "%.2f MiB", b / (1024 * 1024));
  else std::snprintf(buf, sizeof buf, "%.2f GiB", b / (1024.0 * 1024 * 1024));
  return buf;
}

// Progress bar on stderr when stderr is a terminal (at most ten redraws a second). With `lines`
// (--progress) and no terminal: one line "rfk: progress: WHAT" as each pass starts, for logs.
class ProgressBar {
 public:
  explicit ProgressBar(bool lines) : tty_(::isatty(STDERR_FILENO) == 1), lines_(lines) {}
  ~ProgressBar() { Finish(); }
  void Update(std::uint64_t done, std::uint64_t total, const std::string& what) {
    if (!tty_) {
      if (lines_ && what != what_) std::fprintf(stderr, "rfk: progress: %s\n", what.c_str());
      what_ = what;
      return;
    }
    const auto now = Clock::now();
    if (what != what_) {
      what_ = what;
      phase_start_ = now;
      phase_done0_ = done;
    }
    if (done < total && now - last_ < std::chrono::milliseconds(100)) return;
    last_ = now;
    const double secs = std::chrono::duration<double>(now - phase_start_).count();
    const double rate = secs > 0 ? double(done - phase_done0_) / secs : 0.0;
    const double frac = total ? double(done) / double(total) : 1.0;
    const int width = 24, filled = static_cast<int>(frac * width);
    const double eta = rate > 0 ? double(total - done) / rate : 0.0;
    std::fprintf(stderr, "\r[%.*s%*s] %3.0f%% %.1fk rows/s ETA %4.0fs  %-28.28s", filled,
                 "########################", width - filled, "", frac * 100, rate / 1000, eta,
                 what.c_str());
    shown_ = true;
  }
  void Finish() {
    if (shown_) std::fprintf(stderr, "\r%*s\r", 90, "");
    shown_ = false;
  }

 private:
  bool tty_, lines_;
  bool shown_ = false;
  std::string what_;
  Clock::time_point last_{}, phase_start_{};
  std::uint64_t phase_done0_ = 0;
};

struct DataArgs {
  std::string format = "auto";
  int label_col = -1;
  std::string idx_labels;

  host::ReadOptions Options() const {
    host::ReadOptions o;
    o.format = host::ParseDataFormat(format);
    o.label_col = label_col;
    o.idx_labels = idx_labels;
    return o;
  }
  void Add(CLI::App* app) {
    app->add_option("--format", format, "Input format: auto, libsvm, csv or idx")
        ->capture_default_str();
    app->add_option("--label-col", label_col,
                    "CSV label column, 0-based; negative counts from the end")
        ->capture_default_str();
    app->add_option("--idx-labels", idx_labels,
                    "idx labels file (default: derived from the images file name)");
  }
};

// A model file opened in place.
struct LoadedModel {
  host::AlignedBytes bytes;
  rfk::Model model;
};

LoadedModel LoadModel(const std::string& path) {
  LoadedModel lm{host::ReadFileBytes(path), {}};
  rfk::ModelError err;
  const rfk::Status s = rfk::OpenModel(lm.bytes.data(), lm.bytes.size(), &lm.model, &err);
  if (s != rfk::Status::kOk) {
    std::ostringstream o;
    o << path << ": " << rfk::StatusMessage(s) << " [" << rfk::StatusName(s) << "] at field '"
      << err.field << "', byte offset " << err.offset;
    throw CliError(o.str());
  }
  return lm;
}

host::Dataset ReadForModel(const std::string& path, const DataArgs& args, const rfk::Model& m) {
  host::ReadOptions o = args.Options();
  o.min_cols = m.input_dim;
  o.max_cols = m.input_dim;
  host::Dataset data = host::ReadDataset(path, o);
  if (data.cols != m.input_dim)
    throw CliError(path + ": rows have " + std::to_string(data.cols) +
                   " features but the model expects " + std::to_string(m.input_dim));
  return data;
}

bool ParseDouble(const std::string& s, double* v) {
  if (s.empty()) return false;
  char* end = nullptr;
  *v = std::strtod(s.c_str(), &end);
  return end == s.c_str() + s.size() && std::isfinite(*v);
}

struct EvalResult {
  std::size_t n = 0;
  bool classification = false;
  double error_rate = 0, accuracy = 0, rmse = 0, rel_rmse = 0;
  std::size_t unknown_labels = 0;  // test labels the model has no class for (counted as errors)
  double predict_us = 0;           // mean single-sample latency through rfk::Predict
};

// Predicts every row through the device core, one sample at a time, timing only Predict.
EvalResult Evaluate(const rfk::Model& m, const host::Dataset& data,
                    std::vector<std::string>* predictions) {
  EvalResult res;
  res.n = data.rows;
  res.classification = m.task != rfk::format::Task::kRegression;
  // Map each model class to a number too, so "+1" in a test file matches the class "1".
  std::vector<double> class_value(m.num_classes);
  std::vector<char> class_numeric(m.num_classes);
  for (std::uint32_t c = 0; c < m.num_classes; ++c)
    class_numeric[c] = ParseDouble(rfk::ClassLabel(m, c), &class_value[c]);

  const std::size_t chunk = 4096, d = m.input_dim;
  std::vector<float> X(chunk * d), out(m.num_outputs);
  std::vector<std::uint8_t> scratch_store(rfk::ScratchBytes(m) + rfk::kScratchAlignment);
  void* scratch = scratch_store.data();
  std::size_t space = scratch_store.size();
  scratch = std::align(rfk::kScratchAlignment, rfk::ScratchBytes(m), scratch, space);
  std::vector<float> outputs(chunk * m.num_outputs);

  double errors = 0, sq = 0, sq_y = 0, seconds = 0;
  for (std::size_t c0 = 0; c0 < data.rows; c0 += chunk) {
    const std::size_t cn = std::min(chunk, data.rows - c0);
    for (std::size_t r = 0; r < cn; ++r) host::DenseRow(data, c0 + r, X.data() + r * d, d);
    const auto t0 = Clock::now();
    for (std::size_t r = 0; r < cn; ++r) {
      const rfk::Status s = rfk::Predict(m, X.data() + r * d, d, scratch, rfk::ScratchBytes(m),
                                         outputs.data() + r * m.num_outputs, m.num_outputs);
      if (s != rfk::Status::kOk) {
        std::ostringstream o;
        o << data.source << ":" << data.lines[c0 + r] << ": prediction failed: "
          << rfk::StatusMessage(s) << " [" << rfk::StatusName(s) << "]";
        throw CliError(o.str());
      }
    }
    seconds += std::chrono::duration<double>(Clock::now() - t0).count();
    for (std::size_t r = 0; r < cn; ++r) {
      const std::size_t i = c0 + r;
      const float* o = outputs.data() + r * m.num_outputs;
      if (res.classification) {
        const std::uint32_t cls = rfk::DecideClass(m, o);
        const char* label = rfk::ClassLabel(m, cls);
        if (predictions) predictions->push_back(label);
        double truth_num = 0;
        const bool truth_is_num = ParseDouble(data.labels[i], &truth_num);
        bool known = false, correct = false;
        for (std::uint32_t c = 0; c < m.num_classes; ++c) {
          const bool same = class_numeric[c] && truth_is_num ? class_value[c] == truth_num
                                                             : data.labels[i] == rfk::ClassLabel(m, c);
          if (same) {
            known = true;
            correct = c == cls;
          }
        }
        if (!known) ++res.unknown_labels;
        if (!correct) errors += 1;
      } else {
        if (predictions) predictions->push_back(Num(o[0]));
        double y = 0;
        if (!ParseDouble(data.labels[i], &y)) {
          if (!predictions)
            throw CliError(data.source + ":" + std::to_string(data.lines[i]) + ": label '" +
                           data.labels[i] + "' is not a number");
          continue;
        }
        sq += (o[0] - y) * (o[0] - y);
        sq_y += y * y;
      }
    }
  }
  const double n = static_cast<double>(data.rows);
  res.error_rate = errors / n;
  res.accuracy = 1.0 - res.error_rate;
  res.rmse = std::sqrt(sq / n);
  res.rel_rmse = sq_y > 0 ? res.rmse / std::sqrt(sq_y / n) : 0.0;
  res.predict_us = n > 0 ? seconds * 1e6 / n : 0.0;
  return res;
}

std::string TaskJsonName(rfk::format::Task t) {
  switch (t) {
    case rfk::format::Task::kRegression: return "regression";
    case rfk::format::Task::kBinary: return "binary";
    case rfk::format::Task::kMulticlass: return "multiclass";
  }
  return "unknown";
}

// ------------------------------------------------------------------ train

struct TrainArgs {
  std::string train, test, output, map = "fourier", kernel = "gaussian", gamma = "default",
              lambda = "1e-4", task = "auto";
  std::uint32_t features = 1000;
  std::uint32_t grids = 30, buckets = 0;
  std::string bin_gamma = "default";
  bool kernel_given = false;
  std::string seed = "1";
  bool no_standardize = false, standardize = false;
  unsigned threads = 0;
  std::uint32_t folds = 3;
  std::string memory_limit = "physical";
  bool progress = false;
  DataArgs data;
};

// ------------------------------------------------------------------ signals during train
// SIGINT, SIGTERM, SIGHUP: while training, nothing is on disk yet, so the handler ends the
// process at once (after a message) by the signal's default action: no temporary file exists and
// an existing output file is untouched. While the model is being written (g_writing) it only
// records the signal; WriteFileAtomic's cancel check then removes the temporary and keeps the old
// output, and RunTrain reports the interruption.
volatile std::sig_atomic_t g_writing = 0;
volatile std::sig_atomic_t g_signal = 0;

extern "C" void OnTerminationSignal(int sig) {
  if (g_writing) {
    g_signal = sig;
    return;
  }
  static const char kMsg[] = "\nrfk: interrupted; no model written\n";
  const ssize_t ignored = ::write(STDERR_FILENO, kMsg, sizeof kMsg - 1);
  (void)ignored;
  std::signal(sig, SIG_DFL);
  std::raise(sig);
}

void InstallTrainSignalHandlers() {
  struct sigaction sa {};
  sa.sa_handler = OnTerminationSignal;
  sigemptyset(&sa.sa_mask);
  for (int sig : {SIGINT, SIGTERM, SIGHUP}) sigaddset(&sa.sa_mask, sig);
  for (int sig : {SIGINT, SIGTERM, SIGHUP}) sigaction(sig, &sa, nullptr);
  // A file size limit (ulimit -f) then fails the write with EFBIG, which removes the temporary,
  // instead of killing the process with a partial temporary on disk.
  std::signal(SIGXFSZ, SIG_IGN);
}

[[noreturn]] void DieBySignal(int sig) {
  std::fflush(stdout);
  std::signal(sig, SIG_DFL);
  std::raise(sig);
  std::_Exit(128 + sig);
}

// "physical" (0), or a positive number of bytes with an optional K, M, G or T suffix (powers of
// 1024), e.g. 512M. Returns false for anything else.
bool ParseMemoryLimit(const std::string& s, std::uint64_t* bytes) {
  if (s == "physical") {
    *bytes = 0;
    return true;
  }
  double scale = 1;
  std::string num = s;
  if (!num.empty()) {
    switch (num.back()) {
      case 'K': case 'k': scale = 1024.0; break;
      case 'M': case 'm': scale = 1024.0 * 1024; break;
      case 'G': case 'g': scale = 1024.0 * 1024 * 1024; break;
      case 'T': case 't': scale = 1024.0 * 1024 * 1024 * 1024; break;
      default: break;
    }
    if (scale != 1) num.pop_back();
  }
  double v = 0;
  if (!ParseDouble(num, &v) || !(v * scale >= 1) || v * scale > 1e18) return false;
  *bytes = static_cast<std::uint64_t>(v * scale);
  return true;
}

int RunTrain(const TrainArgs& a) {
  host::TrainOptions opt;
  // --map: fourier, fourier-phase, binning, or a Fourier form + "+binning".
  std::string fourier_part = a.map;
  bool binning = false;
  if (a.map == "binning") {
    binning = true;
    fourier_part.clear();
  } else if (const auto plus = a.map.find("+binning"); plus != std::string::npos && plus + 8 == a.map.size()) {
    binning = true;
    fourier_part = a.map.substr(0, plus);
  }
  opt.fourier = !fourier_part.empty();
  if (opt.fourier) {
    try {
      opt.map = host::ParseMap(fourier_part);
    } catch (const host::TrainError&) {
      throw CliError("unknown --map '" + a.map + "' (expected fourier, fourier-phase, binning, "
                     "fourier+binning or fourier-phase+binning)");
    }
  }
  opt.kernel = host::ParseKernel(a.kernel);
  if (!opt.fourier && a.kernel_given && opt.kernel != rfk::format::Kernel::kLaplacian)
    throw CliError("--map binning approximates the laplacian kernel; --kernel " + a.kernel +
                   " applies to Fourier maps only");
  if (binning) {
    if (a.grids == 0) throw CliError("--grids must be at least 1");
    opt.grids = a.grids;
    opt.buckets = a.buckets;
    if (a.bin_gamma != "default" && (!ParseDouble(a.bin_gamma, &opt.bin_gamma) || !(opt.bin_gamma > 0)))
      throw CliError("--bin-gamma must be a positive number or 'default'; got '" + a.bin_gamma + "'");
  } else if (a.buckets != 0) {
    throw CliError("--bins-per-grid needs a binning map (--map binning or fourier+binning)");
  }
  opt.features = a.features;
  {
    // Strictly a decimal integer: CLI11 would wrap "-1" to 2^64 - 1 without a word.
    const char* b = a.seed.data();
    const auto [end, ec] = std::from_chars(b, b + a.seed.size(), opt.seed);
    if (a.seed.empty() || ec != std::errc() || end != b + a.seed.size())
      throw CliError("--seed must be an integer from 0 to 18446744073709551615; got '" + a.seed + "'");
  }
  if (a.output.empty()) throw CliError("--output must name a file");
  opt.threads = a.threads;
  opt.cv_folds = a.folds;
  if (!ParseMemoryLimit(a.memory_limit, &opt.memory_limit))
    throw CliError("--memory-limit must be 'physical' or a size such as 512M or 8G; got '" +
                   a.memory_limit + "'");
  opt.standardize = a.no_standardize ? 0 : a.standardize ? 1 : -1;
  if (a.gamma == "auto") {
    opt.gamma_auto = true;
  } else if (a.gamma != "default") {
    if (!ParseDouble(a.gamma, &opt.gamma) || !(opt.gamma > 0))
      throw CliError("--gamma must be a positive number, 'default' or 'auto'; got '" + a.gamma + "'");
  }
  if (!opt.fourier && opt.gamma > 0) {  // binning alone: --gamma is the binning map's gamma
    opt.bin_gamma = opt.gamma;
    opt.gamma = 0;
  }
  if (a.lambda == "auto") {
    opt.lambda_auto = true;
  } else if (!ParseDouble(a.lambda, &opt.lambda) || opt.lambda < 0) {
    throw CliError("--lambda must be a number >= 0 or 'auto'; got '" + a.lambda + "'");
  }
  if (a.task == "auto") opt.task = host::TaskChoice::kAuto;
  else if (a.task == "classification") opt.task = host::TaskChoice::kClassification;
  else if (a.task == "regression") opt.task = host::TaskChoice::kRegression;
  else throw CliError("--task must be auto, classification or regression");

  const auto t0 = Clock::now();
  const host::Dataset data = host::ReadDataset(a.train, a.data.Options());
  const double read_s = std::chrono::duration<double>(Clock::now() - t0).count();

  ProgressBar bar(a.progress);
  opt.progress = [&bar](std::uint64_t done, std::uint64_t total, const std::string& what) {
    bar.Update(done, total, what);
  };
  const host::TrainResult res = host::Train(data, opt);
  bar.Finish();
  g_writing = 1;
  try {
    host::WriteFileAtomic(a.output, res.model, [] { return g_signal != 0; });
  } catch (const host::IoError&) {
    g_writing = 0;
    if (g_signal == 0) throw;
    std::fprintf(stderr, "rfk: interrupted (%s) while writing %s; no model written, the file is "
                 "unchanged\n", strsignal(g_signal), a.output.c_str());
    DieBySignal(g_signal);
  }
  g_writing = 0;
  if (g_signal != 0) {
    std::fprintf(stderr, "rfk: interrupted (%s) just after %s was written; that model is "
                 "complete\n", strsignal(g_signal), a.output.c_str());
    DieBySignal(g_signal);
  }
  const double total_s = std::chrono::duration<double>(Clock::now() - t0).count();

  const host::TrainReport& rep = res.report;
  std::printf("data:        %s: %zu rows x %zu features (%s%s)\n", data.source.c_str(), data.rows,
              data.cols, host::DataFormatName(data.format), data.sparse ? ", sparse" : "");
  std::printf("task:        %s (%s)", host::TaskName(rep.task), rep.task_reason.c_str());
  if (!rep.labels.empty()) std::printf(", %zu classes", rep.labels.size());
  std::printf("\n");
  if (opt.fourier)
    std::printf("features:    %s map, %s kernel, D = %u, seed %llu, standardize %s\n",
                host::MapName(opt.map), host::KernelName(opt.kernel), opt.features,
                static_cast<unsigned long long>(opt.seed), rep.standardized ? "on" : "off");
  if (opt.grids) {
    std::uint64_t total = 0;
    std::uint32_t lo = ~0u, hi = 0;
    for (std::uint32_t b : rep.occupied_bins) {
      total += b;
      lo = std::min(lo, b);
      hi = std::max(hi, b);
    }
    const std::string mode = opt.buckets ? "hashed, B = " + std::to_string(opt.buckets) + " buckets per grid"
                                         : std::string("exact (bins seen in training)");
    std::printf("binning:     P = %u grids, %s, laplacian kernel, seed %llu, standardize %s\n", opt.grids,
                mode.c_str(), static_cast<unsigned long long>(opt.seed), rep.standardized ? "on" : "off");
    std::printf("occupied:    %llu %s in all; per grid min %u, mean %.1f, max %u\n",
                static_cast<unsigned long long>(total), opt.buckets ? "buckets hit" : "bins", lo,
                double(total) / double(rep.occupied_bins.size()), hi);
    std::printf("solver:      conjugate gradients, %d iterations, relative residual %.2g\n",
                rep.cg_iterations, rep.cg_residual);
    std::printf("bin gamma:   %.6g%s (data-scale default %.6g)\n", rep.bin_gamma,
                opt.gamma_auto ? " [auto]" : opt.bin_gamma > 0 ? "" : " [default]", rep.bin_gamma_default);
  }
  if (!rep.cv.empty()) {
    std::printf("selection:   %u-fold cross-validation over %zu points (held-out %s):\n", opt.cv_folds,
                rep.cv.size(), rep.task == rfk::format::Task::kRegression ? "relative RMSE" : "error");
    for (const host::CvPoint& p : rep.cv)
      std::printf("             gamma %-12.6g lambda %-8.0e  %.4f%s\n", p.gamma, p.lambda, p.error,
                  p.gamma == rep.gamma && p.lambda == rep.lambda ? "  <- chosen" : "");
  }
  if (!rep.cv.empty()) {
    // A choice on the edge of its grid may mean the best value lies beyond it.
    double gmin = rep.cv.front().gamma, gmax = gmin, lmin = rep.cv.front().lambda, lmax = lmin;
    for (const host::CvPoint& p : rep.cv) {
      gmin = std::min(gmin, p.gamma); gmax = std::max(gmax, p.gamma);
      lmin = std::min(lmin, p.lambda); lmax = std::max(lmax, p.lambda);
    }
    if (opt.gamma_auto && (rep.gamma == gmin || rep.gamma == gmax))
      std::printf("note:        the chosen gamma is at the edge of the searched grid [%.6g, %.6g];"
                  " the best value may lie beyond it\n", gmin, gmax);
    if (opt.lambda_auto && (rep.lambda == lmin || rep.lambda == lmax))
      std::printf("note:        the chosen lambda is at the edge of the searched grid [%.0e, %.0e]\n",
                  lmin, lmax);
  }
  if (opt.fourier)
    std::printf("gamma:       %.6g%s (data-scale default %.6g)\n", rep.gamma,
                opt.gamma_auto ? " [auto]" : a.gamma == "default" ? " [default]" : "", rep.gamma_default);
  std::printf("lambda:      %.3g%s\n", rep.lambda, opt.lambda_auto ? " [auto]" : "");
  std::printf("train %s: %.4f (on %llu%s training rows)\n",
              rep.task == rfk::format::Task::kRegression ? "rel_rmse" : "error", rep.train_error,
              static_cast<unsigned long long>(rep.train_error_rows),
              rep.train_error_rows < rep.rows ? " sampled" : "");
  std::printf("model:       %s (%s)\n", a.output.c_str(), HumanBytes(double(res.model.size())).c_str());
  std::printf("time:        %.3f s total (read %.3f s, train %.3f s)\n", total_s, read_s, rep.seconds);
  std::printf("memory:      about %s estimated peak (limit %s)\n", HumanBytes(rep.memory_estimate).c_str(),
              rep.memory_limit > 0 ? HumanBytes(rep.memory_limit).c_str() : "none known");

  if (!a.test.empty()) {
    const LoadedModel lm = LoadModel(a.output);
    const host::Dataset test = ReadForModel(a.test, a.data, lm.model);
    const EvalResult e = Evaluate(lm.model, test, nullptr);
    if (e.classification)
      std::printf("test:        %s: error %.4f (accuracy %.4f) on %zu rows, %.2f us/sample\n",
                  a.test.c_str(), e.error_rate, e.accuracy, e.n, e.predict_us);
    else
      std::printf("test:        %s: rmse %.6g, rel_rmse %.4f on %zu rows, %.2f us/sample\n",
                  a.test.c_str(), e.rmse, e.rel_rmse, e.n, e.predict_us);
  }
  return 0;
}

// ------------------------------------------------------------------ predict / eval

int RunPredict(const std::string& model_path, const std::string& file, const DataArgs& args) {
  const LoadedModel lm = LoadModel(model_path);
  const host::Dataset data = ReadForModel(file, args, lm.model);
  std::vector<std::string> preds;
  preds.reserve(data.rows);
  Evaluate(lm.model, data, &preds);
  std::string out;
  for (const std::string& p : preds) {
    out += p;
    out += '\n';
  }
  std::fwrite(out.data(), 1, out.size(), stdout);
  return 0;
}

int RunEval(const std::string& model_path, const std::string& file, const DataArgs& args, bool json) {
  const LoadedModel lm = LoadModel(model_path);
  const host::Dataset data = ReadForModel(file, args, lm.model);
  const EvalResult e = Evaluate(lm.model, data, nullptr);
  if (json) {
    std::printf("{\"model\": \"%s\", \"data\": \"%s\", \"task\": \"%s\", \"n\": %zu, ",
                JsonEscape(model_path).c_str(), JsonEscape(file).c_str(),
                TaskJsonName(lm.model.task).c_str(), e.n);
    if (e.classification)
      std::printf("\"error_rate\": %s, \"accuracy\": %s, \"unknown_labels\": %zu, ",
                  Num(e.error_rate).c_str(), Num(e.accuracy).c_str(), e.unknown_labels);
    else
      std::printf("\"rmse\": %s, \"rel_rmse\": %s, ", Num(e.rmse).c_str(), Num(e.rel_rmse).c_str());
    std::printf("\"predict_us_per_sample\": %s, \"model_bytes\": %u}\n", Num(e.predict_us).c_str(),
                lm.model.total_bytes);
  } else {
    std::printf("n:                     %zu\n", e.n);
    if (e.classification) {
      std::printf("error_rate:            %.6f\naccuracy:              %.6f\n", e.error_rate, e.accuracy);
      if (e.unknown_labels)
        std::printf("unknown_labels:        %zu (labels the model never saw; counted as errors)\n",
                    e.unknown_labels);
    } else {
      std::printf("rmse:                  %.9g\nrel_rmse:              %.6f\n", e.rmse, e.rel_rmse);
    }
    std::printf("predict_us_per_sample: %.3f\nmodel_bytes:           %u\n", e.predict_us,
                lm.model.total_bytes);
  }
  return 0;
}

// ------------------------------------------------------------------ export

struct ExportArgs {
  std::string model, c_header, name, vectors;
  std::uint32_t count = 32;
  DataArgs data;
};

// Writes the model as a C header for firmware; with --vectors, also the first --count rows of a
// data file with the outputs, classes and bin keys the scalar reference kernels give on this host,
// so a device can check its own predictions (targets/cortex-m does).
int RunExport(const ExportArgs& a) {
  const LoadedModel lm = LoadModel(a.model);
  const rfk::Model& m = lm.model;
  host::TestVectors v;
  std::string comment = "model: " + a.model + " (" + std::to_string(m.total_bytes) + " bytes)";
  if (!a.vectors.empty()) {
    if (a.count == 0) throw CliError("--count must be at least 1");
    const host::Dataset data = ReadForModel(a.vectors, a.data, m);
    // The oracle: whatever table is active for this process, vectors come from the scalar kernels.
    const rfk::KernelTable& previous = rfk::ActiveKernels();
    rfk::SelectKernels("scalar");
    v.input_dim = m.input_dim;
    v.num_outputs = m.num_outputs;
    v.num_grids = m.num_grids;
    host::AlignedBytes scratch(rfk::ScratchBytes(m));
    std::vector<float> x(m.input_dim), out(m.num_outputs);
    std::vector<std::uint64_t> keys(m.num_grids);
    std::vector<std::uint32_t> cols(m.num_grids);
    for (std::size_t r = 0; r < data.rows && v.count < a.count; ++r) {
      host::DenseRow(data, r, x.data(), x.size());
      const rfk::Status s = rfk::Predict(m, x.data(), x.size(), scratch.data(), scratch.size(),
                                         out.data(), out.size());
      if (s != rfk::Status::kOk)
        throw CliError(a.vectors + ":" + std::to_string(data.lines[r]) + ": " + rfk::StatusMessage(s));
      if (m.num_grids > 0 &&
          rfk::ComputeBins(m, x.data(), x.size(), scratch.data(), scratch.size(), keys.data(),
                           cols.data(), keys.size()) != rfk::Status::kOk)
        throw CliError(a.vectors + ":" + std::to_string(data.lines[r]) + ": bin keys failed");
      v.inputs.insert(v.inputs.end(), x.begin(), x.end());
      v.outputs.insert(v.outputs.end(), out.begin(), out.end());
      if (m.num_classes > 0) v.classes.push_back(rfk::DecideClass(m, out.data()));
      v.keys.insert(v.keys.end(), keys.begin(), keys.end());
      ++v.count;
    }
    rfk::SelectKernels((std::string(previous.backend) + "-" + previous.target).c_str());
    comment += "\ntest vectors: the first " + std::to_string(v.count) + " rows of " + a.vectors;
  }
  const std::string text =
      host::ModelCHeader(lm.bytes.data(), lm.bytes.size(), a.name, a.vectors.empty() ? nullptr : &v, comment);
  host::WriteFileAtomic(a.c_header, std::vector<std::uint8_t>(text.begin(), text.end()));
  std::fprintf(stderr, "rfk: wrote %s (%s model%s)\n", a.c_header.c_str(),
               HumanBytes(m.total_bytes).c_str(),
               a.vectors.empty() ? "" : (", " + std::to_string(v.count) + " test vectors").c_str());
  return 0;
}

// ------------------------------------------------------------------ info

int RunInfo(bool json) {
  const rfk::KernelTable& active = rfk::ActiveKernels();
  const char* forced = std::getenv("RFK_TARGET");
  if (json) {
    std::printf("{\"version\": \"0.1.0\", \"tables\": [");
    for (std::size_t i = 0; i < rfk::KernelTableCount(); ++i) {
      const rfk::KernelTable* t = rfk::KernelTableAt(i);
      std::printf("%s{\"backend\": \"%s\", \"target\": \"%s\"}", i ? ", " : "", t->backend, t->target);
    }
    std::printf("], \"active\": {\"backend\": \"%s\", \"target\": \"%s\"}, \"forced_by_env\": %s}\n",
                active.backend, active.target, forced && *forced ? "true" : "false");
  } else {
    std::printf("rfk 0.1.0\nkernel tables compiled and supported by this CPU (best first):\n");
    for (std::size_t i = 0; i < rfk::KernelTableCount(); ++i) {
      const rfk::KernelTable* t = rfk::KernelTableAt(i);
      std::printf("  %s-%s%s\n", t->backend, t->target, t == &active ? "   <- active" : "");
    }
    std::printf("active: %s-%s%s\n", active.backend, active.target,
                forced && *forced ? " (forced by RFK_TARGET)" : " (best available)");
  }
  return 0;
}

// ------------------------------------------------------------------ inspect

const char* SectionName(std::uint16_t type) {
  switch (type) {
    case 1: return "map_params";
    case 2: return "projection";
    case 3: return "phase";
    case 4: return "standardize";
    case 5: return "head";
    case 6: return "labels";
    case 7: return "metadata";
    case 8: return "binning_params";
    case 9: return "bin_grids";
    case 10: return "bin_keys";
    default: return "unknown";
  }
}

int RunInspect(const std::string& path, bool json) {
  const host::AlignedBytes bytes = host::ReadFileBytes(path);
  const std::uint8_t* b = bytes.data();
  auto u16 = [&](std::size_t at) { std::uint16_t v = 0; if (at + 2 <= bytes.size()) std::memcpy(&v, b + at, 2); return v; };
  auto u32 = [&](std::size_t at) { std::uint32_t v = 0; if (at + 4 <= bytes.size()) std::memcpy(&v, b + at, 4); return v; };
  namespace f = rfk::format;
  rfk::Model m;
  rfk::ModelError err;
  const rfk::Status s = rfk::OpenModel(b, bytes.size(), &m, &err);
  const std::uint32_t total = u32(f::kOffTotalBytes);
  const std::uint32_t stored_crc = u32(f::kOffCrc32);
  const bool crc_computable = bytes.size() >= f::kHeaderBytes && total >= f::kCrcStart && total <= bytes.size();
  const std::uint32_t actual_crc = crc_computable ? rfk::Crc32(b + f::kCrcStart, total - f::kCrcStart) : 0;
  const char* crc_status = !crc_computable ? "unverifiable" : actual_crc == stored_crc ? "ok" : "mismatch";
  const std::uint32_t count = u32(f::kOffSectionCount), table = u32(f::kOffSectionTable);
  const bool table_ok = count <= f::kMaxSections &&
                        std::uint64_t{table} + std::uint64_t{count} * 16 <= bytes.size();

  std::ostringstream js;
  if (json) {
    js << "{\"file\": \"" << JsonEscape(path) << "\", \"file_bytes\": " << bytes.size()
       << ", \"status\": \"" << rfk::StatusName(s) << "\"";
    if (s != rfk::Status::kOk)
      js << ", \"error\": {\"message\": \"" << JsonEscape(rfk::StatusMessage(s)) << "\", \"field\": \""
         << err.field << "\", \"offset\": " << err.offset << "}";
    js << ", \"header\": {\"magic\": \"" << JsonEscape(std::string(reinterpret_cast<const char*>(b), std::min<std::size_t>(4, bytes.size())))
       << "\", \"version_major\": " << u16(4) << ", \"version_minor\": " << u16(6)
       << ", \"total_bytes\": " << total << ", \"crc32\": " << stored_crc << ", \"crc32_status\": \""
       << crc_status << "\", \"header_bytes\": " << u32(16) << ", \"section_count\": " << count
       << ", \"section_table\": " << table << ", \"flags\": " << u32(28) << "}, \"sections\": [";
    for (std::uint32_t i = 0; table_ok && i < count; ++i) {
      const std::size_t e = table + i * 16u;
      js << (i ? ", " : "") << "{\"type\": " << u16(e) << ", \"name\": \"" << SectionName(u16(e))
         << "\", \"flags\": " << u16(e + 2) << ", \"offset\": " << u32(e + 4) << ", \"size\": " << u32(e + 8) << "}";
    }
    js << "]";
    if (s == rfk::Status::kOk) {
      js << ", \"input_dim\": " << m.input_dim << ", \"num_features\": " << m.num_features
         << ", \"standardized\": " << (m.mean ? "true" : "false");
      if (m.fourier_features)
        js << ", \"map\": {\"kind\": \"" << host::MapName(m.map) << "\", \"kernel\": \"" << host::KernelName(m.kernel)
           << "\", \"num_features\": " << m.fourier_features
           << ", \"num_frequencies\": " << m.num_frequencies << ", \"gamma\": " << Num(m.gamma)
           << ", \"feature_scale\": " << Num(m.feature_scale) << ", \"seed\": " << m.seed << "}";
      if (m.num_grids)
        js << ", \"binning\": {\"grids\": " << m.num_grids << ", \"mode\": \""
           << (m.bin_mode == f::BinMode::kHashed ? "hashed" : "exact") << "\", \"buckets\": " << m.bin_buckets
           << ", \"columns\": " << m.bin_features << ", \"gamma\": " << Num(m.bin_gamma)
           << ", \"feature_scale\": " << Num(m.bin_scale) << ", \"seed\": " << m.bin_seed << "}";
      js << ", \"head\": {\"task\": \""
         << TaskJsonName(m.task) << "\", \"num_outputs\": " << m.num_outputs << "}, \"labels\": [";
      for (std::uint32_t c = 0; c < m.num_classes; ++c)
        js << (c ? ", " : "") << "\"" << JsonEscape(rfk::ClassLabel(m, c)) << "\"";
      js << "], \"scratch_bytes\": " << rfk::ScratchBytes(m) << ", \"metadata\": \""
         << JsonEscape(std::string(m.metadata ? m.metadata : "", m.metadata_bytes)) << "\"";
    }
    js << "}\n";
    std::fputs(js.str().c_str(), stdout);
  } else {
    std::printf("file:            %s (%zu bytes)\n", path.c_str(), bytes.size());
    std::printf("status:          %s%s", rfk::StatusName(s), s == rfk::Status::kOk ? "\n" : "");
    if (s != rfk::Status::kOk)
      std::printf(": %s (field '%s', offset %u)\n", rfk::StatusMessage(s), err.field, err.offset);
    std::printf("magic:           %.4s\nversion:         %u.%u\ntotal_bytes:     %u\n",
                bytes.size() >= 4 ? reinterpret_cast<const char*>(b) : "????", u16(4), u16(6), total);
    std::printf("crc32:           0x%08x (%s)\nheader_bytes:    %u\nflags:           %u\n", stored_crc,
                crc_status, u32(16), u32(28));
    std::printf("sections:        %u (table at offset %u)\n", count, table);
    for (std::uint32_t i = 0; table_ok && i < count; ++i) {
      const std::size_t e = table + i * 16u;
      std::printf("  [%u] %-12s type %-3u %-8s offset %-8u size %u\n", i, SectionName(u16(e)), u16(e),
                  (u16(e + 2) & f::kSectionRequired) ? "required" : "optional", u32(e + 4), u32(e + 8));
    }
    if (s == rfk::Status::kOk) {
      std::printf("dimensions:      d = %u inputs, D = %u features (%u Fourier + %u bin columns)\n",
                  m.input_dim, m.num_features, m.fourier_features, m.bin_features);
      if (m.fourier_features)
        std::printf("fourier map:     %s, kernel %s, gamma %.9g, F = %u, feature_scale %.9g, seed %llu\n",
                    host::MapName(m.map), host::KernelName(m.kernel), double(m.gamma), m.num_frequencies,
                    double(m.feature_scale), static_cast<unsigned long long>(m.seed));
      if (m.num_grids) {
        const std::string mode = m.bin_mode == f::BinMode::kHashed
                                     ? "hashed, B = " + std::to_string(m.bin_buckets)
                                     : "exact, " + std::to_string(m.bin_features) + " bins";
        std::printf("binning map:     P = %u grids, %s, kernel laplacian, gamma %.9g, scale %.9g, seed %llu\n",
                    m.num_grids, mode.c_str(), double(m.bin_gamma), double(m.bin_scale),
                    static_cast<unsigned long long>(m.bin_seed));
        if (m.bin_mode == f::BinMode::kExact) {
          std::printf("bins per grid:  ");
          for (std::uint32_t p = 0; p < m.num_grids; ++p) {
            std::uint32_t a0, a1;
            std::memcpy(&a0, m.bin_grid_start + 4 * p, 4);
            std::memcpy(&a1, m.bin_grid_start + 4 * p + 4, 4);
            std::printf(" %u", a1 - a0);
          }
          std::printf("\n");
        }
      }
      std::printf("standardized:    %s\nhead:            %s, K = %u outputs\n", m.mean ? "yes" : "no",
                  host::TaskName(m.task), m.num_outputs);
      if (m.num_classes) {
        std::printf("labels:          ");
        for (std::uint32_t c = 0; c < m.num_classes; ++c) std::printf("%s%s", c ? ", " : "", rfk::ClassLabel(m, c));
        std::printf("\n");
      }
      std::printf("scratch_bytes:   %zu\n", rfk::ScratchBytes(m));
      if (m.metadata_bytes)
        std::printf("metadata:\n  %s\n", [&] {
          std::string t(m.metadata, m.metadata_bytes);
          for (std::size_t p = 0; (p = t.find('\n', p)) != std::string::npos && p + 1 < t.size(); p += 3)
            t.replace(p, 1, "\n  ");
          if (!t.empty() && t.back() == '\n') t.pop_back();
          return t;
        }().c_str());
    }
  }
  return s == rfk::Status::kOk ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"rfk: random-feature kernel machines (Rahimi & Recht 2007), trained here, run anywhere"};
  app.require_subcommand(1);
  app.set_version_flag("--version", "rfk 0.1.0");

  TrainArgs ta;
  CLI::App* train = app.add_subcommand("train", "Train a model and write it atomically");
  train->add_option("--train", ta.train, "Training data (LIBSVM, CSV or idx; .gz read transparently)")->required();
  train->add_option("--test", ta.test, "Test data: report the test metric after training");
  train->add_option("-o,--output", ta.output, "Model file to write")->required();
  train->add_option("--map", ta.map,
                    "fourier ([cos, sin] pairs), fourier-phase (cos(wx + b)), binning (random "
                    "binning, laplacian kernel), or fourier+binning / fourier-phase+binning")
      ->capture_default_str();
  CLI::Option* kernel_opt =
      train->add_option("--kernel", ta.kernel, "gaussian, laplacian or cauchy (Fourier maps)")->capture_default_str();
  train->add_option("--grids,-P", ta.grids, "Random binning grids P")->capture_default_str();
  train->add_option("--bins-per-grid,-B", ta.buckets,
                    "Hashed mode: B buckets per grid, model size fixed in advance (default: exact "
                    "mode, the bins seen in training)");
  train->add_option("--bin-gamma", ta.bin_gamma,
                    "Binning's gamma for fourier+binning ('default': data scale); --map binning uses --gamma")
      ->capture_default_str();
  train->add_option("--features,-D", ta.features, "Number of random features D")->capture_default_str();
  train->add_option("--gamma", ta.gamma, "Kernel parameter: a number, 'default' (data scale) or 'auto' (CV)")->capture_default_str();
  train->add_option("--lambda", ta.lambda, "Ridge penalty on the mean squared error, or 'auto' (CV)")->capture_default_str();
  train->add_option("--task", ta.task, "auto, classification or regression")->capture_default_str();
  train->add_option("--seed", ta.seed, "Seed for the random features")->capture_default_str();
  CLI::Option* no_std = train->add_flag("--no-standardize", ta.no_standardize,
                                        "Do not standardise inputs (default: on for dense data)");
  train->add_flag("--standardize", ta.standardize, "Standardise inputs even for sparse data")
      ->excludes(no_std);
  train->add_option("--threads", ta.threads, "Worker threads (0 = all cores; the model does not depend on it)")->capture_default_str();
  train->add_option("--folds", ta.folds, "Folds for --gamma/--lambda auto")->capture_default_str();
  train->add_flag("--progress", ta.progress,
                  "Print a line on stderr as each training pass starts (when stderr is not a "
                  "terminal; a terminal gets a progress bar anyway)");
  train->add_option("--memory-limit", ta.memory_limit,
                    "Refuse training whose estimated peak memory exceeds this (e.g. 512M, 8G; "
                    "'physical': the machine's memory)")
      ->capture_default_str();
  ta.data.Add(train);

  std::string model_path, file;
  bool json = false;
  DataArgs pa;
  CLI::App* predict = app.add_subcommand("predict", "Print one prediction per line (class labels or values)");
  predict->add_option("-m,--model", model_path, "Model file")->required();
  predict->add_option("file", file, "Data to predict, in a training format (its label column is read but ignored)")->required();
  pa.Add(predict);

  DataArgs ea;
  CLI::App* eval = app.add_subcommand("eval", "Evaluate a model: error or RMSE, and per-sample latency");
  eval->add_option("-m,--model", model_path, "Model file")->required();
  eval->add_option("file", file, "Labelled data")->required();
  eval->add_flag("--json", json, "Print exactly one JSON object");
  ea.Add(eval);

  CLI::App* info = app.add_subcommand("info", "Show the compiled SIMD kernel tables and the one in use");
  info->add_flag("--json", json, "Print exactly one JSON object");

  CLI::App* inspect = app.add_subcommand("inspect", "Show every header field, the sections and the checksum");
  inspect->add_option("model", model_path, "Model file")->required();
  inspect->add_flag("--json", json, "Print exactly one JSON object");

  ExportArgs xa;
  CLI::App* exp = app.add_subcommand("export", "Write a model as C source for firmware (read in place from flash)");
  exp->add_option("-m,--model", xa.model, "Model file")->required();
  exp->add_option("--c-header", xa.c_header, "Header to write: an aligned static const byte array and its sizes")->required();
  exp->add_option("--name", xa.name, "C identifier of the array (macros use it in upper case)")->required();
  exp->add_option("--vectors", xa.vectors, "Also embed test vectors: rows of this data file with the host's outputs");
  exp->add_option("--count", xa.count, "Rows of --vectors to embed")->capture_default_str();
  xa.data.Add(exp);

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) return app.exit(e);  // --help, --version
    // CLI11's own errors (unknown option, a value that does not convert, a missing argument) in
    // the same form as rfk's, with the usage exit status.
    std::fprintf(stderr, "rfk: error: %s\nRun 'rfk --help' or 'rfk <command> --help' for the options.\n",
                 e.what());
    return 2;
  }
  ta.kernel_given = kernel_opt->count() > 0;
  // RFK_TARGET forces a kernel table (e.g. scalar, AVX2, hwy-SSE4) for benchmarking and checks.
  if (const char* target = std::getenv("RFK_TARGET"); target != nullptr && *target != '\0') {
    if (!rfk::SelectKernels(target)) {
      std::string names;
      for (std::size_t i = 0; i < rfk::KernelTableCount(); ++i)
        names += std::string(i ? ", " : "") + rfk::KernelTableAt(i)->backend + "-" + rfk::KernelTableAt(i)->target;
      std::fprintf(stderr, "rfk: error: RFK_TARGET=%s names no kernel table on this CPU (available: %s)\n",
                   target, names.c_str());
      return 1;
    }
  }
  try {
    if (*train) {
      InstallTrainSignalHandlers();
      return RunTrain(ta);
    }
    if (*predict) return RunPredict(model_path, file, pa);
    if (*eval) return RunEval(model_path, file, ea, json);
    if (*inspect) return RunInspect(model_path, json);
    if (*info) return RunInfo(json);
    if (*exp) return RunExport(xa);
  } catch (const std::bad_alloc&) {
    std::fflush(stdout);
    std::fprintf(stderr, "rfk: error: out of memory\n");
    return 1;
  } catch (const std::exception& e) {
    std::fflush(stdout);
    std::fprintf(stderr, "rfk: error: %s\n", e.what());
    return 1;
  }
  return 2;
}

// rfk train: read data, train a model (lib/host), write it atomically, print a report, and with
// --test evaluate it on test data through the device core.
#include <algorithm>
#include <charconv>
#include <cstdio>
#include <memory>
#include <system_error>

#include "cli.hpp"
#include "rfk/host/train.hpp"

namespace rfk::cli {
namespace {

struct TrainArgs {
  std::string train, test, output, map = "fourier", kernel = "gaussian", gamma = "default", lambda = "1e-4",
                                   task = "auto";
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

// --map: a Fourier map (fourier, fourier-phase, orf, orf-phase, fastfood, fastfood-phase),
// binning, or a Fourier map + "+binning"; and the options that depend on which maps it names
// (--kernel, --grids, --bins-per-grid, --bin-gamma).
void ParseMaps(const TrainArgs& a, host::TrainOptions* opt) {
  std::string fourier_part = a.map;
  bool binning = false;
  if (a.map == "binning") {
    binning = true;
    fourier_part.clear();
  } else if (const auto plus = a.map.find("+binning"); plus != std::string::npos && plus + 8 == a.map.size()) {
    binning = true;
    fourier_part = a.map.substr(0, plus);
  }
  opt->fourier = !fourier_part.empty();
  if (opt->fourier) {
    try {
      opt->map = host::ParseMap(fourier_part);
    } catch (const host::TrainError& e) {
      // e names the Fourier maps; each may also be followed by "+binning".
      const std::string what = e.what(), list = what.substr(what.find("(expected ") + 10);
      throw CliError("unknown --map '" + a.map + "' (expected binning, or a Fourier map with or "
                     "without +binning: " + list);
    }
  }
  opt->kernel = host::ParseKernel(a.kernel);
  if (!opt->fourier && a.kernel_given && opt->kernel != rfk::format::Kernel::kLaplacian)
    throw CliError("--map binning approximates the laplacian kernel; --kernel " + a.kernel +
                   " applies to Fourier maps only");
  if (binning) {
    if (a.grids == 0) throw CliError("--grids must be at least 1");
    opt->grids = a.grids;
    opt->buckets = a.buckets;
    if (a.bin_gamma != "default" && (!ParseDouble(a.bin_gamma, &opt->bin_gamma) || !(opt->bin_gamma > 0)))
      throw CliError("--bin-gamma must be a positive number or 'default'; got '" + a.bin_gamma + "'");
  } else if (a.buckets != 0) {
    throw CliError("--bins-per-grid needs a binning map (--map binning or fourier+binning)");
  }
}

// --gamma, --lambda and --task.
void ParseFit(const TrainArgs& a, host::TrainOptions* opt) {
  if (a.gamma == "auto") {
    opt->gamma_auto = true;
  } else if (a.gamma != "default") {
    if (!ParseDouble(a.gamma, &opt->gamma) || !(opt->gamma > 0))
      throw CliError("--gamma must be a positive number, 'default' or 'auto'; got '" + a.gamma + "'");
  }
  if (!opt->fourier && opt->gamma > 0) {  // binning alone: --gamma is the binning map's gamma
    opt->bin_gamma = opt->gamma;
    opt->gamma = 0;
  }
  if (a.lambda == "auto") {
    opt->lambda_auto = true;
  } else if (!ParseDouble(a.lambda, &opt->lambda) || opt->lambda < 0) {
    throw CliError("--lambda must be a number >= 0 or 'auto'; got '" + a.lambda + "'");
  }
  if (a.task == "auto") opt->task = host::TaskChoice::kAuto;
  else if (a.task == "classification") opt->task = host::TaskChoice::kClassification;
  else if (a.task == "regression") opt->task = host::TaskChoice::kRegression;
  else throw CliError("--task must be auto, classification or regression");
}

host::TrainOptions ParseTrainOptions(const TrainArgs& a) {
  host::TrainOptions opt;
  ParseMaps(a, &opt);
  opt.features = a.features;
  // Strictly a decimal integer: CLI11 would wrap "-1" to 2^64 - 1 without a word.
  const char* b = a.seed.data();
  const auto [end, ec] = std::from_chars(b, b + a.seed.size(), opt.seed);
  if (a.seed.empty() || ec != std::errc() || end != b + a.seed.size())
    throw CliError("--seed must be an integer from 0 to 18446744073709551615; got '" + a.seed + "'");
  if (a.output.empty()) throw CliError("--output must name a file");
  opt.threads = a.threads;
  opt.cv_folds = a.folds;
  if (!ParseMemoryLimit(a.memory_limit, &opt.memory_limit))
    throw CliError("--memory-limit must be 'physical' or a size such as 512M or 8G; got '" + a.memory_limit + "'");
  opt.standardize = a.no_standardize ? 0 : a.standardize ? 1 : -1;
  ParseFit(a, &opt);
  return opt;
}

void PrintBinning(const host::TrainOptions& opt, const host::TrainReport& rep) {
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
  std::printf("solver:      conjugate gradients, %d iterations, relative residual %.2g\n", rep.cg_iterations,
              rep.cg_residual);
  std::printf("bin gamma:   %.6g%s (data-scale default %.6g)\n", rep.bin_gamma,
              opt.gamma_auto ? " [auto]" : opt.bin_gamma > 0 ? "" : " [default]", rep.bin_gamma_default);
}

// The cross-validation grid, and a note when the choice lies on its edge (the best value may lie
// beyond it).
void PrintSelection(const host::TrainOptions& opt, const host::TrainReport& rep) {
  if (rep.cv.empty()) return;
  std::printf("selection:   %u-fold cross-validation over %zu points (held-out %s):\n", opt.cv_folds, rep.cv.size(),
              rep.task == rfk::format::Task::kRegression ? "relative RMSE" : "error");
  for (const host::CvPoint& p : rep.cv)
    std::printf("             gamma %-12.6g lambda %-8.0e  %.4f%s\n", p.gamma, p.lambda, p.error,
                p.gamma == rep.gamma && p.lambda == rep.lambda ? "  <- chosen" : "");
  double gmin = rep.cv.front().gamma, gmax = gmin, lmin = rep.cv.front().lambda, lmax = lmin;
  for (const host::CvPoint& p : rep.cv) {
    gmin = std::min(gmin, p.gamma);
    gmax = std::max(gmax, p.gamma);
    lmin = std::min(lmin, p.lambda);
    lmax = std::max(lmax, p.lambda);
  }
  if (opt.gamma_auto && (rep.gamma == gmin || rep.gamma == gmax))
    std::printf("note:        the chosen gamma is at the edge of the searched grid [%.6g, %.6g];"
                " the best value may lie beyond it\n", gmin, gmax);
  if (opt.lambda_auto && (rep.lambda == lmin || rep.lambda == lmax))
    std::printf("note:        the chosen lambda is at the edge of the searched grid [%.0e, %.0e]\n", lmin, lmax);
}

struct Timing {
  double read_s, total_s;
};

void PrintReport(const TrainArgs& a, const host::TrainOptions& opt, const host::Dataset& data,
                 const host::TrainResult& res, const Timing& t) {
  const host::TrainReport& rep = res.report;
  std::printf("data:        %s: %zu rows x %zu features (%s%s)\n", data.source.c_str(), data.rows, data.cols,
              host::DataFormatName(data.format), data.sparse ? ", sparse" : "");
  std::printf("task:        %s (%s)", host::TaskName(rep.task), rep.task_reason.c_str());
  if (!rep.labels.empty()) std::printf(", %zu classes", rep.labels.size());
  std::printf("\n");
  if (opt.fourier)
    std::printf("features:    %s map, %s kernel, D = %u, seed %llu, standardize %s\n", host::MapName(opt.map),
                host::KernelName(opt.kernel), opt.features, static_cast<unsigned long long>(opt.seed),
                rep.standardized ? "on" : "off");
  if (opt.grids) PrintBinning(opt, rep);
  PrintSelection(opt, rep);
  if (opt.fourier)
    std::printf("gamma:       %.6g%s (data-scale default %.6g)\n", rep.gamma,
                opt.gamma_auto ? " [auto]" : a.gamma == "default" ? " [default]" : "", rep.gamma_default);
  std::printf("lambda:      %.3g%s\n", rep.lambda, opt.lambda_auto ? " [auto]" : "");
  std::printf("train %s: %.4f (on %llu%s training rows)\n",
              rep.task == rfk::format::Task::kRegression ? "rel_rmse" : "error", rep.train_error,
              static_cast<unsigned long long>(rep.train_error_rows), rep.train_error_rows < rep.rows ? " sampled" : "");
  std::printf("model:       %s (%s)\n", a.output.c_str(), HumanBytes(double(res.model.size())).c_str());
  std::printf("time:        %.3f s total (read %.3f s, train %.3f s)\n", t.total_s, t.read_s, rep.seconds);
  std::printf("memory:      about %s estimated peak (limit %s)\n", HumanBytes(rep.memory_estimate).c_str(),
              rep.memory_limit > 0 ? HumanBytes(rep.memory_limit).c_str() : "none known");
}

// --test: the written model, read back and evaluated through the device core.
void PrintTest(const TrainArgs& a) {
  const LoadedModel lm = LoadModel(a.output);
  const host::Dataset test = ReadForModel(a.test, a.data, lm.model);
  const EvalResult e = Evaluate(lm.model, test, nullptr);
  if (e.classification)
    std::printf("test:        %s: error %.4f (accuracy %.4f) on %zu rows, %.2f us/sample\n", a.test.c_str(),
                e.error_rate, e.accuracy, e.n, e.predict_us);
  else
    std::printf("test:        %s: rmse %.6g, rel_rmse %.4f on %zu rows, %.2f us/sample\n", a.test.c_str(), e.rmse,
                e.rel_rmse, e.n, e.predict_us);
}

int RunTrain(const TrainArgs& a) {
  host::TrainOptions opt = ParseTrainOptions(a);
  const auto t0 = Clock::now();
  const host::Dataset data = host::ReadDataset(a.train, a.data.Options());
  Timing t{std::chrono::duration<double>(Clock::now() - t0).count(), 0};
  ProgressBar bar(a.progress);
  opt.progress = [&bar](std::uint64_t done, std::uint64_t total, const std::string& what) {
    bar.Update(done, total, what);
  };
  const host::TrainResult res = host::Train(data, opt);
  bar.Finish();
  WriteModelAtomically(a.output, res.model);
  t.total_s = std::chrono::duration<double>(Clock::now() - t0).count();
  PrintReport(a, opt, data, res, t);
  if (!a.test.empty()) PrintTest(a);
  return 0;
}

}  // namespace

Command AddTrain(CLI::App& app) {
  auto a = std::make_shared<TrainArgs>();
  CLI::App* cmd = app.add_subcommand("train", "Train a model and write it atomically");
  cmd->add_option("--train", a->train, "Training data (LIBSVM, CSV or idx; .gz read transparently)")->required();
  cmd->add_option("--test", a->test, "Test data: report the test metric after training");
  cmd->add_option("-o,--output", a->output, "Model file to write")->required();
  cmd->add_option("--map", a->map,
                  "fourier ([cos, sin] pairs), fourier-phase (cos(wx + b)), orf / orf-phase "
                  "(orthogonal random features, gaussian kernel), fastfood / fastfood-phase "
                  "(O(D log d) prediction, gaussian kernel), binning (random binning, laplacian "
                  "kernel), or a Fourier map + binning, e.g. fourier+binning")
      ->capture_default_str();
  CLI::Option* kernel = cmd->add_option("--kernel", a->kernel, "gaussian, laplacian or cauchy (Fourier maps)")
                            ->capture_default_str();
  cmd->add_option("--grids,-P", a->grids, "Random binning grids P")->capture_default_str();
  cmd->add_option("--bins-per-grid,-B", a->buckets,
                  "Hashed mode: B buckets per grid, model size fixed in advance (default: exact "
                  "mode, the bins seen in training)");
  cmd->add_option("--bin-gamma", a->bin_gamma,
                  "Binning's gamma for fourier+binning ('default': data scale); --map binning uses --gamma")
      ->capture_default_str();
  cmd->add_option("--features,-D", a->features, "Number of random features D")->capture_default_str();
  cmd->add_option("--gamma", a->gamma, "Kernel parameter: a number, 'default' (data scale) or 'auto' (CV)")
      ->capture_default_str();
  cmd->add_option("--lambda", a->lambda, "Ridge penalty on the mean squared error, or 'auto' (CV)")
      ->capture_default_str();
  cmd->add_option("--task", a->task, "auto, classification or regression")->capture_default_str();
  cmd->add_option("--seed", a->seed, "Seed for the random features")->capture_default_str();
  CLI::Option* no_std = cmd->add_flag("--no-standardize", a->no_standardize,
                                      "Do not standardise inputs (default: on for dense data)");
  cmd->add_flag("--standardize", a->standardize, "Standardise inputs even for sparse data")->excludes(no_std);
  cmd->add_option("--threads", a->threads, "Worker threads (0 = all cores; the model does not depend on it)")
      ->capture_default_str();
  cmd->add_option("--folds", a->folds, "Folds for --gamma/--lambda auto")->capture_default_str();
  cmd->add_flag("--progress", a->progress,
                "Print a line on stderr as each training pass starts (when stderr is not a "
                "terminal; a terminal gets a progress bar anyway)");
  cmd->add_option("--memory-limit", a->memory_limit,
                  "Refuse training whose estimated peak memory exceeds this (e.g. 512M, 8G; "
                  "'physical': the machine's memory)")
      ->capture_default_str();
  a->data.Add(cmd);
  return {cmd, [a, kernel] {
    a->kernel_given = kernel->count() > 0;
    InstallTrainSignalHandlers();
    return RunTrain(*a);
  }};
}

}  // namespace rfk::cli

// rfk train: read data, train a model (lib/host), write it atomically, print a report, and with
// --test evaluate it on test data through the device core.
#include <algorithm>
#include <charconv>
#include <cstdio>
#include <memory>
#include <system_error>
#include <thread>
#include <tuple>

#include <CLI/CLI.hpp>

#include "cli.hpp"
#include "heap.h"
#include "rfk/host/quantize.hpp"
#include "rfk/host/train.hpp"

namespace rfk::cli {
namespace {

struct TrainArgs {
  std::string train, test, output;
  host::TrainSettings s;  // the options training shares with Python (host::ParseTrainSettings)
  bool no_standardize = false, standardize = false;
  bool progress = false, json = false, quiet = false, verbose = false, no_calibration = false;
  std::string missing = "refuse";
  bool no_metadata = false;
  bool stream = false;
  std::string chunk = "4M";
  bool mpi = false;
  DataArgs data;
};

// train() (host::Train or host::TrainFile), with a value the storages asked for cannot hold as a
// CliError.
template <typename TrainFn>
host::TrainResult TrainStored(const TrainFn& train) {
  try {
    return train();
  } catch (const host::QuantizeError& e) {
    throw CliError(std::string("cannot store the model as asked (--storage): ") + e.what());
  }
}

host::TrainOptions ParseTrainOptions(const TrainArgs& a) {
  host::TrainSettings s = a.s;
  s.standardize = a.no_standardize ? 0 : a.standardize ? 1 : -1;
  s.calibrate = !a.no_calibration;
  s.metadata = !a.no_metadata;
  host::TrainOptions opt = host::ParseTrainSettings(s, host::Spelling::kCli);
  if (a.output.empty()) throw CliError("--output must name a file");
  return opt;
}

// --missing: refuse (the reader's error), or mean / median: fill the training data's missing
// values and store the values in the model. Returns how many were filled.
std::uint64_t ApplyMissing(const TrainArgs& a, host::Dataset* data, host::TrainOptions* opt) {
  if (a.missing == "refuse") return 0;
  opt->impute_method = a.missing == "median" ? rfk::format::ImputeMethod::kMedian : rfk::format::ImputeMethod::kMean;
  opt->impute = host::ImputationValues(*data, opt->impute_method);
  return host::Impute(opt->impute, data);
}

// Whether to stream the training file: --stream, or when reading it whole would exceed the memory
// limit (Fourier-type maps, CSV or LIBSVM, no --missing filling). Where streaming would exceed it
// too, the streamed run's guard refuses it after the first scan, before any large allocation --
// not after the whole file was loaded.
bool ChooseStreaming(const TrainArgs& a, const host::ReadOptions& ro, const host::TrainOptions& opt) {
  if (a.stream) {
    if (a.missing != "refuse")
      throw CliError("--missing " + a.missing + " needs the data in memory (the fill values are computed from "
                     "every row): train without --stream, or fill the file's missing values first");
    return true;
  }
  if (opt.grids > 0 || a.missing != "refuse") return false;
  const host::DataSizeEstimate size = host::EstimateDataSize(a.train, ro);
  if (size.format == host::DataFormat::kIdx) return false;
  const double limit = opt.memory_limit ? static_cast<double>(opt.memory_limit) : host::PhysicalMemoryBytes();
  host::Dataset meta;
  meta.rows = static_cast<std::size_t>(size.rows);
  meta.cols = size.cols;
  meta.sparse = size.sparse;
  const unsigned threads = opt.threads ? opt.threads : std::max(1u, std::thread::hardware_concurrency());
  // The labels are not read yet: a task left to auto counts as classification, whose calibration
  // holds the most ridge statistics (the larger estimate streams rather than loads).
  const rfk::format::Task task = opt.task == host::TaskChoice::kRegression ? rfk::format::Task::kRegression
                                                                            : rfk::format::Task::kBinary;
  return limit > 0 && host::EstimateTrainingMemory(meta, opt, task, 1, threads, 0, 0, size.bytes).bytes > limit;
}

// Distributed (--mpi, `ranks` not null): every rank trains (host::TrainOptions::ranks), rank 0
// alone reports and writes the model; threads default to this machine's cores shared by its ranks.
int RunTrain(const TrainArgs& a, host::Ranks* ranks) {
  const bool lead = ranks == nullptr || ranks->rank() == 0;
  const bool quiet = a.quiet || !lead;
  host::TrainOptions opt = ParseTrainOptions(a);
  if (ranks != nullptr && a.s.threads == 0)
    opt.threads = std::max(1u, std::thread::hardware_concurrency() / static_cast<unsigned>(ranks->local_size()));
  opt.ranks = ranks;
  if (a.missing != "refuse" && a.missing != "mean" && a.missing != "median")
    throw CliError("--missing must be refuse, mean or median; got '" + a.missing + "'");
  const auto t0 = Clock::now();
  host::ReadOptions ro = a.data.Options();
  ro.missing_as_nan = a.missing != "refuse";
  std::uint64_t chunk = 0;
  if (!ParseMemoryLimit(a.chunk, &chunk) || chunk == 0)
    throw CliError("--chunk must be a size such as 4M or 512K; got '" + a.chunk + "'");
  const bool stream = ChooseStreaming(a, ro, opt);
  // heap.h: the reader on glibc's defaults (its grown-out arrays go back to the kernel); then
  // training keeps its freed blocks, unless memory is what the run is about (fixed small
  // thresholds then: the peak stays at the guard's estimate).
  if (stream || opt.memory_limit != 0) BoundHeap();
  host::Dataset data = stream ? host::Dataset() : host::ReadDataset(a.train, ro);
  if (!stream && opt.memory_limit == 0) KeepFreedBlocks();
  if (!stream) PrintNotes(data, quiet);
  if (!stream) opt.sample_weight = data.weights;
  const std::uint64_t imputed = stream ? 0 : ApplyMissing(a, &data, &opt);
  const double read_s = std::chrono::duration<double>(Clock::now() - t0).count();
  ProgressBar bar(a.progress && lead);
  if (lead)
    opt.progress = [&bar](std::uint64_t done, std::uint64_t total, const std::string& what) {
      bar.Update(done, total, what);
    };
  // Built from Train's result, not from `{}` then assigned: GCC 12 at -O1 (the asan preset)
  // reported the empty temporary's vectors as maybe-uninitialized.
  TrainRun run{opt, data,
               TrainStored([&] { return stream ? host::TrainFile(a.train, ro, opt, chunk, &data) : host::Train(data, opt); }),
               a.output, a.test};
  if (!lead) return 0;  // every rank holds the model; rank 0 writes it
  if (stream) PrintNotes(data, quiet);
  bar.Finish();
  PrintMemoryLine(run.result.report, a.progress);
  run.imputed = imputed;
  run.read_s = read_s + run.result.report.scan_seconds;  // streamed: the file's first scan
  WriteModelAtomically(a.output, run.result.model);
  run.total_s = std::chrono::duration<double>(Clock::now() - t0).count();
  EvalResult test;
  if (!a.test.empty()) {  // the written model, read back and evaluated through the device core
    const host::OpenedModel lm = host::OpenedModel::ReadFile(a.output);
    test = Evaluate(lm.model(), ReadForModel(a.test, a.data, lm.model(), host::LabelColumn::kRequired, a.quiet), nullptr);
    run.test_result = &test;
  }
  if (a.json) PrintTrainJson(run);
  else if (!a.quiet) PrintTrainText(run, a.verbose);
  WarnAboutTraining(run, a.quiet);
  return 0;
}

// `rfk train --mpi`: RunTrain on every rank of MPI_COMM_WORLD. An error every rank has alike
// (RanksError) is rank 0's to report; a rank that fails otherwise prints its error and ends every
// rank (MPI_Abort): the others may be waiting for it in a reduction.
int RunTrainMpi(const TrainArgs& a) {
  std::unique_ptr<host::Ranks> ranks;
  try {
    ranks = host::StartMpi();
  } catch (const host::TrainError& e) {
    throw CliError(std::string("--mpi: ") + e.what());
  }
  try {
    return RunTrain(a, ranks.get());
  } catch (const host::RanksError& e) {
    // Rank 0 reports, then releases the others, which wait for its broadcast: a rank that ended
    // first would have mpirun stop the job before rank 0 printed (and MPI_Finalize, when the ranks
    // are destroyed, must not come before the message either).
    if (ranks->rank() == 0) {
      std::fflush(stdout);
      std::fprintf(stderr, "rfk: error: %s\n", e.what());
      std::fflush(stderr);
    }
    double reported = 0;
    ranks->Broadcast(&reported, 1, 0);
    return 1;
  } catch (const std::exception& e) {
    if (ranks->size() == 1) throw;
    std::fflush(stdout);
    std::fprintf(stderr, "rfk: error: rank %d of %d: %s\n", ranks->rank(), ranks->size(), e.what());
    std::fflush(stderr);
    ranks->Abort(1);
  }
  return 1;  // not reached: Abort ends the process
}

// The fit's own options: D and its budget, gamma, lambda, the task and the seed.
void AddFitOptions(CLI::App* cmd, TrainArgs* a) {
  cmd->add_option("--features,-D", a->s.features,
                  "Number of random features D, or default: rows / 4 within [1000, 4000], within --max-model-bytes")
      ->capture_default_str();
  cmd->add_option("--max-model-bytes", a->s.max_model_bytes,
                  "The default D's budget: the bytes W, phases and head may take (e.g. 64K, 16M)")
      ->capture_default_str();
  cmd->add_option("--gamma", a->s.gamma,
                  "Kernel parameter: a number, 'scale' (1/median distance), 'auto' (CV over factors of the "
                  "scale) or 'default' (auto when a search point is cheap, else scale)")
      ->capture_default_str();
  cmd->add_option("--lambda", a->s.lambda,
                  "Ridge penalty on the mean squared error: a number, 'auto' (CV over 1e-8..1e-1) or "
                  "'default' (CV as auto; 1e-4 when there are fewer than 10 rows per fold)")
      ->capture_default_str();
  cmd->add_option("--task", a->s.task, "auto, classification or regression")->capture_default_str();
  cmd->add_option("--seed", a->s.seed, "Seed for the random features")->capture_default_str();
}

// What the model file holds: the storages (--storage, --head-storage) and --no-metadata.
void AddModelFileOptions(CLI::App* cmd, TrainArgs* a) {
  cmd->add_option("--storage", a->s.storage,
                  host::StorageNames() + ": storage of the map's weights (W, or Fastfood's G and S) and the head (int8: "
                  "symmetric, one f32 scale per row of W or of the head, per block of Fastfood's d'; an f16 head "
                  "with a weight beyond f16's range gets one power-of-two f32 scale per output, f16-scaled). "
                  "Quantization-aware: the head is fitted on the features of the stored W, and an int8 "
                  "head (Fourier-type maps alone) is rounded to change its outputs least (GPTQ-style)")
      ->capture_default_str();
  cmd->add_option("--head-storage", a->s.head_storage, host::StorageNames() + ": the head's storage, overriding --storage");
  cmd->add_flag("--no-metadata", a->no_metadata,
                "Leave out the metadata section (the training options and statistics as text; prediction "
                "does not read it, rfk convert --calibrate does) and the input statistics (the inputs' means and "
                "deviations, which rfk convert draws from where the standardisation does not hold them)");
}

}  // namespace

Command AddTrain(CLI::App& app) {
  auto a = std::make_shared<TrainArgs>();
  CLI::App* cmd = app.add_subcommand("train", "Train a model and write it atomically");
  cmd->add_option("--train", a->train, "Training data (LIBSVM, CSV or idx; .gz read transparently)")->required();
  cmd->add_option("--test", a->test, "Test data: report the test metric after training");
  cmd->add_option("-o,--output", a->output, "Model file to write")->required();
  cmd->add_option("--map", a->s.map,
                  "A Fourier map (" + host::FourierMapNames() +
                      "; docs/CLI.md describes each), binning (random binning, laplacian kernel), or a Fourier "
                      "map + binning, e.g. fourier+binning")
      ->capture_default_str();
  CLI::Option* kernel = cmd->add_option("--kernel", a->s.kernel, "gaussian, laplacian or cauchy (Fourier maps)")
                            ->capture_default_str();
  cmd->add_option("--grids,-P", a->s.grids, "Random binning grids P")->capture_default_str();
  cmd->add_option("--bins-per-grid,-B", a->s.buckets,
                  "Hashed mode: B buckets per grid, model size fixed in advance (default: exact "
                  "mode, the bins seen in training)");
  cmd->add_option("--bin-gamma", a->s.bin_gamma,
                  "Binning's gamma for fourier+binning ('default': data scale); --map binning uses --gamma")
      ->capture_default_str();
  AddFitOptions(cmd, a.get());
  CLI::Option* no_std = cmd->add_flag("--no-standardize", a->no_standardize,
                                      "Do not standardise inputs (default: by density: data with at least "
                                      "25% non-zeros is centred and scaled, sparser data scaled only)");
  cmd->add_flag("--standardize", a->standardize, "Centre and scale inputs, even sparse data")->excludes(no_std);
  cmd->add_option("--class-weight", a->s.class_weight,
                  "none, or balanced: a row of class c weighs n / (C n_c) in the fit and in cross-validation")
      ->capture_default_str();
  cmd->add_option("--threads", a->s.threads, "Worker threads (0 = all cores; the model does not depend on it)")
      ->capture_default_str();
  cmd->add_option("--folds", a->s.folds, "Folds for --gamma/--lambda auto")->capture_default_str();
  cmd->add_flag("--progress", a->progress,
                "Print a line on stderr as each training pass starts (when stderr is not a "
                "terminal; a terminal gets a progress bar anyway)");
  cmd->add_flag("--no-calibration", a->no_calibration,
                "Classification: do not fit the calibration section (class probabilities for predict --proba); "
                "it costs one more pass of held-out fits at the chosen gamma and lambda (max(folds, 3)-fold)");
  cmd->add_option("--memory-limit", a->s.memory_limit,
                  "Refuse training whose estimated peak memory exceeds this (e.g. 512M, 8G; "
                  "'physical': the machine's memory). Data that would not fit read whole is streamed "
                  "(see --stream)")
      ->capture_default_str();
  cmd->add_flag("--stream", a->stream,
                "Read the training file in chunks (--chunk) on every pass instead of whole: peak memory "
                "O(D^2 + chunk), the same model. Automatic when the data read whole would exceed --memory-limit; "
                "CSV and LIBSVM, Fourier maps (not binning), no --missing filling");
  cmd->add_option("--chunk", a->chunk, "Text read per chunk when streaming (e.g. 4M, 512K)")->capture_default_str();
  cmd->add_flag("--mpi", a->mpi,
                "Distributed training under mpirun: each rank reads every row once for the statistics, then "
                "its share of the rows; the statistics are summed in rank order, rank 0 writes the model "
                "(Fourier maps; threads default to the cores per rank on each machine)");
  cmd->add_option("--missing", a->missing,
                  "Missing values (empty, NA, NaN, ?, ...): refuse (an error naming file:line), or fill them with "
                  "the column's mean or median, which the model stores and fills in at prediction too")
      ->capture_default_str();
  AddModelFileOptions(cmd, a.get());
  CLI::Option* json = cmd->add_flag("--json", a->json, "Print the report as exactly one JSON object");
  cmd->add_flag("-q,--quiet", a->quiet, "No report and no notes (warnings and errors still on stderr)")->excludes(json);
  cmd->add_flag("-v,--verbose", a->verbose, "Print every cross-validation point, not only the chosen one");
  a->data.Add(cmd);
  a->data.AddWeightColumn(cmd, true);
  return {cmd, [a, kernel] {
    a->s.kernel_given = kernel->count() > 0;
    InstallTrainSignalHandlers();
    return a->mpi ? RunTrainMpi(*a) : RunTrain(*a, nullptr);
  }};
}

}  // namespace rfk::cli

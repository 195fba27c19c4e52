// rfk train's report: the text report (one line per topic; the selection in one line, its grid
// with --verbose), the same as one JSON object (--json), and the warnings a user should act on.
#include <algorithm>
#include <cstdio>
#include <sstream>

#include "cli.hpp"

namespace rfk::cli {
namespace {

namespace fmt = rfk::format;

bool Regression(const host::TrainReport& rep) { return rep.task == fmt::Task::kRegression; }

// The inputs' standardisation, as the report prints it.
const char* Standardization(const host::TrainReport& rep) {
  return !rep.standardized ? "off" : rep.centred ? "on" : "on, without centring (sparse data)";
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
              mode.c_str(), static_cast<unsigned long long>(opt.seed), Standardization(rep));
  std::printf("occupied:    %llu %s in all; per grid min %u, mean %.1f, max %u\n",
              static_cast<unsigned long long>(total), opt.buckets ? "buckets hit" : "bins", lo,
              double(total) / double(rep.occupied_bins.size()), hi);
  std::printf("solver:      conjugate gradients, %d iterations, relative residual %.2g\n", rep.cg_iterations,
              rep.cg_residual);
  const bool given = opt.fourier ? opt.bin_gamma > 0 : rep.gamma_reason == "given";
  std::printf("bin gamma:   %.6g [%s] (data scale %.6g)\n", rep.bin_gamma,
              given ? "given" : rep.gamma_reason.c_str(), rep.bin_gamma_default);
}

// The selection in one line; with `verbose` every point of the grid. A note when the choice lies
// on the grid's edge (the best value may lie beyond it).
void PrintSelection(const host::TrainOptions& opt, const host::TrainReport& rep, bool verbose) {
  if (rep.cv.empty()) return;
  double best = rep.cv.front().error, gmin = rep.cv.front().gamma, gmax = gmin, lmin = rep.cv.front().lambda, lmax = lmin;
  for (const host::CvPoint& p : rep.cv) {
    if (p.gamma == rep.gamma && p.lambda == rep.lambda) best = p.error;
    gmin = std::min(gmin, p.gamma);
    gmax = std::max(gmax, p.gamma);
    lmin = std::min(lmin, p.lambda);
    lmax = std::max(lmax, p.lambda);
  }
  const bool gamma_searched = gmin != gmax, lambda_searched = lmin != lmax;
  std::printf("selection:   %u-fold cross-validation over %zu points in %.2f s%s: held-out %s %.4f at gamma %.6g, "
              "lambda %.3g%s\n",
              opt.cv_folds, rep.cv.size(), rep.selection_seconds,
              rep.selection_dual ? " (in the dual: fewer rows than features)" : "",
              Regression(rep) ? "rel_rmse" : "error", best, rep.gamma, rep.lambda, verbose ? "" : " (--verbose: the grid)");
  if (verbose)
    for (const host::CvPoint& p : rep.cv)
      std::printf("             gamma %-12.6g lambda %-8.0e  %.4f%s\n", p.gamma, p.lambda, p.error,
                  p.gamma == rep.gamma && p.lambda == rep.lambda ? "  <- chosen" : "");
  if (gamma_searched && (rep.gamma == gmin || rep.gamma == gmax))
    std::printf("note:        the chosen gamma is at the edge of the searched grid [%.6g, %.6g];"
                " the best value may lie beyond it\n", gmin, gmax);
  if (lambda_searched && (rep.lambda == lmin || rep.lambda == lmax))
    std::printf("note:        the chosen lambda is at the edge of the searched grid [%.0e, %.0e]\n", lmin, lmax);
  if (rep.half_features > 0) {
    const char* metric = Regression(rep) ? "rel_rmse" : "error";
    std::printf("more D:      held-out %s %.4f at D = %u (half the frequencies), %.4f at D = %u: a doubling bought "
                "%.2f points; the next (--features %u) typically buys less\n",
                metric, rep.half_features_error, rep.half_features, best, rep.features,
                100 * (rep.half_features_error - best), 2 * rep.features);
  }
}

void PrintTest(const TrainRun& run) {
  const EvalResult& e = *run.test_result;
  if (e.classification)
    std::printf("test:        %s: error %.4f (accuracy %.4f, balanced accuracy %.4f) on %zu rows, %.2f us/sample\n",
                run.test.c_str(), e.error_rate, e.accuracy, e.balanced_accuracy, e.n, e.predict_us);
  else
    std::printf("test:        %s: rmse %.6g, rel_rmse %.4f, r2 %.4f on %zu rows, %.2f us/sample\n", run.test.c_str(),
                e.rmse, e.rel_rmse, e.r2, e.n, e.predict_us);
}

void JsonSelection(const host::TrainReport& rep, std::ostringstream& js) {
  js << ", \"gamma\": " << Num(rep.gamma) << ", \"gamma_reason\": \"" << JsonEscape(rep.gamma_reason)
     << "\", \"gamma_scale\": " << Num(rep.gamma_default) << ", \"lambda\": " << Num(rep.lambda)
     << ", \"lambda_reason\": \"" << JsonEscape(rep.lambda_reason) << "\", \"selection_seconds\": "
     << Num(rep.selection_seconds) << ", \"selection_dual\": " << (rep.selection_dual ? "true" : "false")
     << ", \"cv\": [";
  for (std::size_t i = 0; i < rep.cv.size(); ++i)
    js << (i ? ", " : "") << "{\"gamma\": " << Num(rep.cv[i].gamma) << ", \"lambda\": " << Num(rep.cv[i].lambda)
       << ", \"error\": " << Num(rep.cv[i].error) << "}";
  js << "]";
}

void JsonStrings(const char* key, const std::vector<std::string>& v, std::ostringstream& js) {
  js << ", \"" << key << "\": [";
  for (std::size_t i = 0; i < v.size(); ++i) js << (i ? ", " : "") << "\"" << JsonEscape(v[i]) << "\"";
  js << "]";
}

}  // namespace

std::string StreamingText(const host::TrainReport& rep) {
  if (rep.chunk_bytes <= 0) return "data read whole";
  return "streamed in chunks of " + HumanBytes(rep.chunk_bytes) + " of text, " + std::to_string(rep.chunks) +
         " a pass";
}

void PrintMemoryLine(const host::TrainReport& rep, bool progress) {
  if (!progress) return;
  std::fprintf(stderr, "rfk: peak memory %s resident (getrusage ru_maxrss), %s\n", HumanBytes(rep.peak_rss).c_str(),
               StreamingText(rep).c_str());
}

void PrintTrainText(const TrainRun& run, bool verbose) {
  const host::TrainOptions& opt = run.opt;
  const host::TrainReport& rep = run.result.report;
  const host::Dataset& data = run.data;
  std::printf("data:        %s: %zu rows x %zu features (%s%s)\n", data.source.c_str(), data.rows, data.cols,
              host::DataFormatName(data.format), data.sparse ? ", sparse" : "");
  if (run.imputed) std::printf("missing:     %llu values filled with their column's %s\n",
                               static_cast<unsigned long long>(run.imputed), fmt::NameOf(opt.impute_method));
  if (!data.weights.empty()) {  // --weight-column
    double sum = 0, lo = data.weights[0], hi = data.weights[0];
    for (const double w : data.weights) {
      sum += w;
      lo = std::min(lo, w);
      hi = std::max(hi, w);
    }
    std::printf("weights:     from the weight column: sum %.9g, min %.9g, max %.9g\n", sum, lo, hi);
  }
  std::printf("task:        %s (%s)", host::TaskName(rep.task), rep.task_reason.c_str());
  if (!rep.labels.empty()) std::printf(", %zu classes", rep.labels.size());
  std::printf("\n");
  if (opt.fourier)
    std::printf("features:    %s map, %s kernel, D = %u [%s], seed %llu, standardize %s\n", host::MapName(opt.map),
                host::KernelName(opt.kernel), rep.features, rep.features_reason.c_str(),
                static_cast<unsigned long long>(opt.seed), Standardization(rep));
  if (opt.grids) PrintBinning(opt, rep);
  PrintSelection(opt, rep, verbose);
  if (opt.fourier)
    std::printf("gamma:       %.6g [%s] (data scale %.6g)\n", rep.gamma, rep.gamma_reason.c_str(), rep.gamma_default);
  std::printf("lambda:      %.3g [%s]\n", rep.lambda, rep.lambda_reason.c_str());
  std::printf("train %s: %.4f (on %llu%s training rows)\n", Regression(rep) ? "rel_rmse" : "error", rep.train_error,
              static_cast<unsigned long long>(rep.train_error_rows), rep.train_error_rows < rep.rows ? " sampled" : "");
  if (!Regression(rep)) {
    if (rep.calibration_method != 0)
      std::printf("calibration: %s (held-out log loss %.4f on %llu rows of %u of %u folds, %.3f s)\n",
                  CalibrationText(rep.calibration_method, rep.calibration_params,
                                  rep.labels.size() == 2 ? rep.labels[1].c_str() : "")
                      .c_str(),
                  rep.calibration_log_loss, static_cast<unsigned long long>(rep.calibration_rows),
                  rep.calibration_held_out, rep.calibration_folds, rep.calibration_seconds);
    else
      std::printf("calibration: none (%s)\n", rep.calibration_reason.c_str());
  }
  std::printf("model:       %s (%s)\n", run.output.c_str(), HumanBytes(double(run.result.model.size())).c_str());
  std::printf("time:        %.3f s total (read %.3f s, train %.3f s)\n", run.total_s, run.read_s, rep.seconds);
  std::printf("memory:      about %s estimated peak (limit %s); %s peak resident (%s)\n",
              HumanBytes(rep.memory_estimate).c_str(),
              rep.memory_limit > 0 ? HumanBytes(rep.memory_limit).c_str() : "none known",
              HumanBytes(rep.peak_rss).c_str(), StreamingText(rep).c_str());
  std::printf("blas:        %s\n", rep.blas.c_str());
  std::printf("kernels:     %s (%s)\n", rep.host_kernels.c_str(),
              rep.host_kernels == "unfused" ? "the projection computes a device's features bit for bit"
                                            : "one fma per multiply-add: features within rounding of a device's");
  if (rep.ranks > 1)
    std::printf("mpi:         %u ranks (rows split among them; time and memory above are rank 0's)\n", rep.ranks);
  if (run.test_result) PrintTest(run);
}

void PrintTrainJson(const TrainRun& run) {
  const host::TrainOptions& opt = run.opt;
  const host::TrainReport& rep = run.result.report;
  const host::Dataset& data = run.data;
  std::ostringstream js;
  js << "{\"model\": \"" << JsonEscape(run.output) << "\", \"model_bytes\": " << run.result.model.size()
     << ", \"data\": {\"file\": \"" << JsonEscape(data.source) << "\", \"rows\": " << data.rows
     << ", \"features\": " << data.cols << ", \"format\": \"" << host::DataFormatName(data.format)
     << "\", \"sparse\": " << (data.sparse ? "true" : "false") << ", \"missing_filled\": " << run.imputed << "}";
  JsonStrings("feature_names", data.feature_names, js);
  js << ", \"task\": \"" << fmt::NameOf(rep.task) << "\", \"task_reason\": \"" << JsonEscape(rep.task_reason) << "\"";
  JsonStrings("classes", rep.labels, js);
  if (opt.fourier)
    js << ", \"map\": {\"kind\": \"" << host::MapName(opt.map) << "\", \"kernel\": \"" << host::KernelName(opt.kernel)
       << "\", \"num_features\": " << rep.features << ", \"features_reason\": \"" << JsonEscape(rep.features_reason)
       << "\", \"half_features\": " << rep.half_features << ", \"half_features_error\": "
       << Num(rep.half_features > 0 ? rep.half_features_error : 0.0) << "}";
  if (opt.grids)
    js << ", \"binning\": {\"grids\": " << opt.grids << ", \"buckets\": " << opt.buckets << ", \"gamma\": "
       << Num(rep.bin_gamma) << ", \"cg_iterations\": " << rep.cg_iterations << "}";
  js << ", \"seed\": " << opt.seed << ", \"standardized\": " << (rep.standardized ? "true" : "false")
     << ", \"centred\": " << (rep.centred ? "true" : "false");
  JsonSelection(rep, js);
  js << ", \"train_metric\": \"" << (Regression(rep) ? "rel_rmse" : "error") << "\", \"train_error\": "
     << Num(rep.train_error) << ", \"train_error_rows\": " << rep.train_error_rows;
  if (!Regression(rep)) {
    js << ", \"majority_rate\": " << Num(rep.majority_rate) << ", \"calibration\": ";
    if (rep.calibration_method != 0)
      js << CalibrationJson(rep.calibration_method, rep.calibration_params) << ", \"held_out_log_loss\": " << Num(rep.calibration_log_loss)
         << ", \"held_out_rows\": " << rep.calibration_rows << ", \"held_out_folds\": " << rep.calibration_held_out
         << ", \"folds\": " << rep.calibration_folds << ", \"seconds\": " << Num(rep.calibration_seconds) << "}";
    else
      js << "{\"method\": \"none\", \"reason\": \"" << JsonEscape(rep.calibration_reason) << "\"}";
  }
  js << ", \"seconds\": {\"total\": " << Num(run.total_s) << ", \"read\": " << Num(run.read_s)
     << ", \"train\": " << Num(rep.seconds) << "}, \"memory_estimate\": " << Num(rep.memory_estimate)
     << ", \"peak_rss\": " << Num(rep.peak_rss) << ", \"streamed\": ";
  if (rep.chunk_bytes > 0) js << "{\"chunk_bytes\": " << Num(rep.chunk_bytes) << ", \"chunks\": " << rep.chunks << "}";
  else js << "false";
  js << ", \"blas\": \"" << JsonEscape(rep.blas) << "\", \"host_kernels\": \"" << rep.host_kernels << "\", \"ranks\": " << rep.ranks;
  JsonStrings("notes", data.notes, js);
  JsonStrings("warnings", data.warnings, js);
  if (run.test_result) {
    const EvalResult& e = *run.test_result;
    js << ", \"test\": {\"file\": \"" << JsonEscape(run.test) << "\", \"n\": " << e.n;
    if (e.classification) js << ", \"error_rate\": " << Num(e.error_rate) << ", \"accuracy\": " << Num(e.accuracy);
    else js << ", \"rmse\": " << Num(e.rmse) << ", \"rel_rmse\": " << Num(e.rel_rmse);
    js << MetricsJson(e) << ", \"predict_us_per_sample\": " << Num(e.predict_us) << "}";
  }
  js << "}\n";
  std::fputs(js.str().c_str(), stdout);
}

void WarnAboutTraining(const TrainRun& run, bool quiet) {
  const host::TrainReport& rep = run.result.report;
  // With class weights the training error is weighted, so the unweighted majority rate is no
  // baseline for it: the warning is for unweighted fits.
  if (!Regression(rep) && run.opt.class_weight == host::ClassWeight::kNone && run.opt.sample_weight.empty() &&
      1.0 - rep.train_error <= rep.majority_rate + 1e-12)
    std::fprintf(stderr,
                 "rfk: warning: training accuracy %.4f is no better than always predicting '%s' (%.4f of the "
                 "sampled training rows): the model may predict that class everywhere; try --class-weight "
                 "balanced or a smaller --lambda, and judge it by eval's balanced_accuracy\n",
                 1.0 - rep.train_error, rep.majority_label.c_str(), rep.majority_rate);
  if (run.opt.features == host::kDefaultFeatures && run.result.model.size() > run.opt.max_model_bytes)
    std::fprintf(stderr,
                 "rfk: warning: the model takes %zu bytes, more than --max-model-bytes %llu: its sections other than "
                 "W and the head (metadata, names, labels) exceed the budget's allowance; lower the budget, or "
                 "train with --no-metadata\n",
                 run.result.model.size(), static_cast<unsigned long long>(run.opt.max_model_bytes));
  if (!quiet && !rep.cv.empty() && run.opt.fourier && !rep.selection_dual && rep.features > run.data.rows)
    std::fprintf(stderr,
                 "rfk: note: D = %u features for %zu rows: every selection point solves D x D statistics; a D "
                 "of a few times the rows approximates the kernel nearly as well in a fraction of the time\n",
                 rep.features, run.data.rows);
}

}  // namespace rfk::cli

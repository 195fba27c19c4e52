#include "training/selection.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <map>

#include "maps/fourier_map.h"
#include "maps/random.h"
#include "rfk/host/settings.hpp"
#include "maps/streams.h"

namespace rfk::host {

namespace {

constexpr int kGammaSteps = 8;  // |k| <= kGammaSteps

constexpr std::uint32_t kPlannedSearchPoints = 5;  // k = -2, 0, 2 and the best one's neighbours

// Calls eval(k) for the gamma search's k in order (see Select); eval returns the best held-out
// error over the lambda grid at that k. Ties go to the smaller k. extended() is called for each
// point beyond kPlannedSearchPoints.
template <typename Eval, typename Extended>
void SearchGamma(bool search, Eval&& eval, Extended&& extended) {
  std::map<int, double> seen;
  auto at = [&](int k) {
    if (seen.find(k) != seen.end()) return;
    if (seen.size() >= kPlannedSearchPoints) extended();
    seen.emplace(k, eval(k));
  };
  if (!search) {
    at(0);
    return;
  }
  for (int k : {-2, 0, 2}) at(k);
  auto best = [&] {
    auto b = seen.begin();
    for (auto it = seen.begin(); it != seen.end(); ++it)
      if (it->second < b->second) b = it;
    return b->first;
  };
  for (;;) {
    const int kb = best();
    if (kb == seen.begin()->first && kb - 2 >= -kGammaSteps) {
      at(kb - 2);
    } else if (kb == seen.rbegin()->first && kb + 2 <= kGammaSteps) {
      at(kb + 2);
    } else {
      break;
    }
  }
  const int kb = best();
  if (kb - 1 >= -kGammaSteps) at(kb - 1);
  if (kb + 1 <= kGammaSteps) at(kb + 1);
}

// Orders selection points: lower error, then smaller gamma, then smaller lambda.
bool Better(double e, double g, double l, double be, double bg, double bl) {
  if (e != be) return e < be;
  if (g != bg) return g < bg;
  return l < bl;
}

// The searched points in (gamma, lambda) order, for reports.
void SortCv(std::vector<CvPoint>* cv) {
  std::sort(cv->begin(), cv->end(), [](const CvPoint& a, const CvPoint& b) {
    return a.gamma != b.gamma ? a.gamma < b.gamma : a.lambda < b.lambda;
  });
}

}  // namespace

std::vector<double> LambdaGrid(const TrainOptions& opt) {
  std::vector<double> lambdas;
  if (opt.lambda_auto) {
    for (int e = -8; e <= -1; ++e) lambdas.push_back(std::pow(10.0, e));
  } else {
    lambdas.push_back(opt.lambda);
  }
  return lambdas;
}

double SelectionPointCost(const TrainOptions& opt, std::size_t rows) {
  const double DF = opt.fourier ? opt.features : 0.0;
  return static_cast<double>(rows) * (DF * DF + 4e4 * opt.grids);
}

std::uint32_t DefaultFeatures(const TrainOptions& opt, std::size_t rows, std::size_t d, std::uint32_t K,
                              std::string* reason) {
  const std::uint64_t by_rows = std::clamp<std::uint64_t>(rows / 400 * 100, kDefaultFeaturesMin, kDefaultFeaturesMax);
  // Bytes per feature: pair form, half a row of W (d inputs) each; phase form, a row and a phase.
  const FourierMapType* type = FindFourierMap(opt.map);
  const bool pairs = type == nullptr || type->pairs;
  const double w = static_cast<double>(d) * format::ElementBytes(opt.w_storage);
  const double per = (pairs ? w / 2 : w + 4) + static_cast<double>(K) * format::ElementBytes(opt.head_storage);
  // The rest of the model: header, section table, standardisation, bias, calibration and metadata
  // (kModelAllowance), and W's padding to whole panels (up to 16 rows).
  const double rest = kModelAllowance + 8.0 * static_cast<double>(d + K) + 16 * w;
  const double room = std::max(0.0, static_cast<double>(opt.max_model_bytes) - rest);
  const auto by_budget = static_cast<std::uint64_t>(room / per) / 2 * 2;
  const std::string budget =
      OptionGiven("--max-model-bytes", HumanBytes(static_cast<double>(opt.max_model_bytes)), opt.spelling);
  if (by_budget < 2)
    throw TrainError(budget + " holds no feature of this data (each takes about " + HumanBytes(per) + ", the rest " +
                     HumanBytes(rest) + "): raise it, store W or the head in fewer bits (" + OptionName("--storage", opt.spelling) +
                     "), or give " + OptionName("--features", opt.spelling));
  if (by_budget < by_rows) {
    *reason = "default: the most " + budget + " holds (about " + HumanBytes(per) + " per feature)";
    return static_cast<std::uint32_t>(by_budget);
  }
  *reason = "default: " + std::to_string(rows) + " rows / 4, within [" + std::to_string(kDefaultFeaturesMin) + ", " +
            std::to_string(kDefaultFeaturesMax) + "] (" + budget + ": up to " + std::to_string(by_budget) + ")";
  return static_cast<std::uint32_t>(by_rows);
}

TrainOptions ResolveDefaults(const TrainOptions& opt, std::size_t rows, std::size_t d, std::uint32_t K,
                             TrainReport* report) {
  TrainOptions out = opt;
  if (!opt.fourier) {
    report->features_reason.clear();
  } else if (opt.features == kDefaultFeatures) {
    out.features = DefaultFeatures(opt, rows, d, K, &report->features_reason);
  } else {
    report->features_reason = "given";
  }
  report->features = out.fourier ? out.features : 0;
  const bool cv_rows = opt.cv_folds >= 2 && rows >= std::size_t{kMinRowsPerFold} * opt.cv_folds;
  const double cost = SelectionPointCost(out, rows);
  const bool cheap = cv_rows && cost <= kDefaultSearchBudget;
  const std::string folds = std::to_string(opt.cv_folds) + "-fold cross-validation";
  const std::string few = std::to_string(rows) + " rows, fewer than " + std::to_string(kMinRowsPerFold) + " per fold";
  const std::string costly = "a search point costs " + FormatDouble(cost) + " multiply-adds, beyond the default's " +
                             FormatDouble(kDefaultSearchBudget) + "; --gamma auto searches";
  const bool bin_gamma_given = opt.grids > 0 && opt.bin_gamma > 0;
  if (opt.gamma_auto) {
    report->gamma_reason = "auto";
  } else if (opt.gamma > 0 || bin_gamma_given) {
    report->gamma_reason = "given";
  } else if (opt.gamma == 0) {
    report->gamma_reason = "data scale";
  } else {
    out.gamma = 0;
    out.gamma_auto = cheap;
    report->gamma_reason = cheap ? "default: " + folds : "default: data scale; " + (cv_rows ? costly : few);
  }
  if (opt.lambda_auto) {
    report->lambda_reason = "auto";
  } else if (!(opt.lambda < 0)) {
    report->lambda_reason = "given";
  } else if (cheap || (cv_rows && opt.grids == 0)) {
    out.lambda_auto = true;
    report->lambda_reason = "default: " + folds;
  } else {
    out.lambda = kFallbackLambda;
    report->lambda_reason = "default without cross-validation: " +
                            (cv_rows ? "binning's lambda path costs a CG solve per lambda and fold; --lambda auto" : few);
  }
  return out;
}

std::uint32_t PlannedSelectionPoints(const TrainOptions& opt, const std::vector<double>& lambdas) {
  if (opt.gamma_auto) return kPlannedSearchPoints;
  return lambdas.size() > 1 ? 1 : 0;
}

Folds SplitFolds(std::uint32_t folds, std::uint64_t seed) { return Folds{folds, seed}; }

std::vector<std::vector<std::uint32_t>> Folds::HeldOut(std::size_t n) const {
  std::vector<std::vector<std::uint32_t>> held_out(count);
  for (std::uint32_t i = 0; i < n; ++i) held_out[static_cast<std::size_t>(Of(i))].push_back(i);
  return held_out;
}

Choice Select(Design& design, const TrainContext& ctx, const std::vector<double>& lambdas) {
  const TrainOptions& opt = ctx.opt;
  Choice choice;
  if (!opt.gamma_auto && lambdas.size() == 1) return choice;
  const auto t0 = std::chrono::steady_clock::now();
  const Folds folds = SplitFolds(opt.cv_folds, opt.seed);
  const double rms_y = RmsTarget(ctx.targets, 1);
  const double n = WeightSum(ctx.targets, ctx.data.rows, 1);
  double best_err = HUGE_VAL, best_gamma = design.StartGamma();
  SearchGamma(opt.gamma_auto, [&](int k) {
    const double factor = std::ldexp(1.0, k);
    ctx.Step();  // the design's passes report "cv gamma ..." 
    const std::vector<double> err = design.HeldOutLosses(factor, folds, lambdas);
    const double g = design.Gamma(factor);
    double best_here = HUGE_VAL;
    bool improved = false;
    for (std::size_t l = 0; l < lambdas.size(); ++l) {
      const double e = Metric(ctx.targets, err[l], n, rms_y);
      ctx.report->cv.push_back({g, lambdas[l], e});
      best_here = std::min(best_here, e);
      if (Better(e, g, lambdas[l], best_err, best_gamma, lambdas[choice.lambda])) {
        best_err = e;
        best_gamma = g;
        choice = {factor, l};
        improved = true;
      }
    }
    if (improved) {
      design.KeepBest();
      const std::vector<double> half = design.HalfFeatureLosses();
      ctx.report->half_features = half.empty() ? 0 : design.HalfFeatures();
      ctx.report->half_features_error = HUGE_VAL;
      for (double h : half)
        ctx.report->half_features_error = std::min(ctx.report->half_features_error, Metric(ctx.targets, h, n, rms_y));
    }
    return best_here;
  }, [&] { if (ctx.steps) ++ctx.steps->n; });
  if (ctx.steps) ctx.steps->n = ctx.steps->k + 2;  // a search may end short of its plan
  SortCv(&ctx.report->cv);
  ctx.report->selection_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return choice;
}

}  // namespace rfk::host

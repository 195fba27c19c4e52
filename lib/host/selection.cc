#include "selection.h"

#include <algorithm>
#include <cmath>
#include <map>

#include "random.h"
#include "streams.h"

namespace rfk::host {

namespace {

constexpr int kGammaSteps = 8;  // |k| <= kGammaSteps

// Calls eval(k) for the gamma search's k in order (see Select); eval returns the best held-out
// error over the lambda grid at that k. Ties go to the smaller k.
template <typename Eval>
void SearchGamma(bool search, Eval&& eval) {
  std::map<int, double> seen;
  auto at = [&](int k) {
    if (seen.find(k) == seen.end()) seen.emplace(k, eval(k));
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

Folds SplitFolds(std::size_t n, std::uint32_t folds, std::uint64_t seed) {
  Folds f;
  f.held_out.resize(folds);
  for (std::uint32_t i = 0; i < n; ++i) f.held_out[RandomBits(seed, kFoldStream, i) % folds].push_back(i);
  return f;
}

Choice Select(Design& design, const TrainContext& ctx, const std::vector<double>& lambdas) {
  const TrainOptions& opt = ctx.opt;
  Choice choice;
  if (!opt.gamma_auto && lambdas.size() == 1) return choice;
  const Folds folds = SplitFolds(ctx.data.rows, opt.cv_folds, opt.seed);
  const double rms_y = RmsTarget(ctx.targets, 1);
  const double n = WeightSum(ctx.targets, ctx.data.rows, 1);
  double best_err = HUGE_VAL, best_gamma = design.StartGamma();
  SearchGamma(opt.gamma_auto, [&](int k) {
    const double factor = std::ldexp(1.0, k);
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
    if (improved) design.KeepBest();
    return best_here;
  });
  SortCv(&ctx.report->cv);
  return choice;
}

}  // namespace rfk::host

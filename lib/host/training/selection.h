// Selection: the gamma factor and lambda the final head is fitted at, by k-fold cross-validation
// of a design over a gamma search and a lambda grid. The same for every design and map.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "training/design.h"
#include "training/train_context.h"

namespace rfk::host {

struct Choice {
  double factor = 1.0;     // gamma = base x factor, factor = 2^k
  std::size_t lambda = 0;  // index into the lambda grid
};

// --lambda auto: 1e-8, 1e-7, ..., 1e-1; else opt.lambda alone.
std::vector<double> LambdaGrid(const TrainOptions& opt);

// The options the pipeline trains with, for `rows` rows of `d` inputs and K outputs: `opt` with
// the default D (kDefaultFeatures), gamma and lambda (negative) resolved as rfk/host/train.hpp
// describes, into a D, gamma_auto / lambda_auto or fixed values. Records how each is set in
// report->features_reason, gamma_reason and lambda_reason. TrainError if the default D's budget
// holds no feature.
TrainOptions ResolveDefaults(const TrainOptions& opt, std::size_t rows, std::size_t d, std::uint32_t K,
                             TrainReport* report);

// The cost of one selection point in multiply-adds, as the defaults compare it with
// kDefaultSearchBudget: rows x (D_F^2 + 4e4 P).
double SelectionPointCost(const TrainOptions& opt, std::size_t rows);

// Seeded fold assignment (see Folds).
Folds SplitFolds(std::uint32_t folds, std::uint64_t seed);

// The selection points Select plans at first (for progress): 0 without selection, 1 without a
// gamma search, 5 with one (it may extend).
std::uint32_t PlannedSelectionPoints(const TrainOptions& opt, const std::vector<double>& lambdas);

// Without --gamma auto and with one lambda: factor 1 and that lambda, nothing evaluated.
// Otherwise opt.cv_folds-fold cross-validation of `design`: --gamma auto searches factors 2^k,
// k = -2, 0, 2, extended by two steps while the best is on the edge (|k| <= 8), then the best
// k's neighbours (about five factors; k = 0 alone without it), every lambda at each. Every point
// goes to report->cv (sorted by gamma, then lambda); the choice is the lowest held-out error,
// ties to the smaller gamma, then the smaller lambda.
Choice Select(Design& design, const TrainContext& ctx, const std::vector<double>& lambdas);

}  // namespace rfk::host

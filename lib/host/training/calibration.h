// Calibration of a classifier's raw outputs into class probabilities (format::calibration),
// fitted by maximum (row-weighted) likelihood on held-out decision values. What training uses:
// platt-cubic for binary (Platt's smoothed targets; a cubic term that follows how ridge scores
// are distributed, monotone by construction) and softmax-vector for multiclass (a scale and a
// bias per class: "vector scaling", Guo, Pleiss, Sun and Weinberger, ICML 2017). Platt scaling
// and the single softmax temperature are their starting points and fallbacks.
// Deterministic: a fixed number of sequential double-precision passes in row order, so the
// parameters are the same bits for any thread count.
#pragma once

#include <cstdint>
#include <vector>

namespace rfk::host {

struct Calibration {
  std::uint32_t method = 0;    // format::CalibrationMethod number; 0: none
  std::vector<double> params;  // as the section stores them after method and K (format.hpp)
};

// Platt scaling p(class 1 | s) = 1/(1 + exp(A s + B)) on scores s[i] with classes y[i] (0/1) and
// row weights w (empty: all 1), minimising the weighted cross-entropy against Platt's targets
// (N+ + 1)/(N+ + 2) and 1/(N- + 2) (N: the classes' weight sums) by Newton's method with a
// backtracking line search (Lin, Lin and Weng 2007). Throws TrainError without both classes.
Calibration FitPlatt(const std::vector<double>& s, const std::vector<std::uint8_t>& y,
                     const std::vector<double>& w);

// p(class 1 | s) = 1/(1 + exp(A s + B + C s^3)), the same objective and targets as FitPlatt, by
// Newton's method from Platt's (A, B, 0). A and C must come out <= 0 (p never decreases as s
// grows); when they do not, Platt's fit is returned instead (method platt).
Calibration FitPlattCubic(const std::vector<double>& s, const std::vector<std::uint8_t>& y,
                          const std::vector<double>& w);

// p_k = softmax_k(A s) over K scores per row (S: n x K row-major), classes cls, weights w:
// the A minimising the weighted log loss, by a safeguarded Newton iteration on the convex
// one-dimensional loss (bisection on the derivative's sign when a step does not decrease it).
Calibration FitSoftmaxScale(const std::vector<double>& S, std::uint32_t K,
                            const std::vector<std::uint32_t>& cls, const std::vector<double>& w);

// p_k = softmax_k(a_k s_k + b_k) (b_0 = 0: softmax is invariant to a shared shift), minimising the
// weighted log loss plus a ridge of 1e-6 x (total weight) on the distance from the temperature's
// (A, 0) start, by damped Newton steps (2K - 1 unknowns, a Cholesky solve) with backtracking.
// Every a_k must come out >= 0 (p_k never decreases as s_k grows); when one does not, the
// temperature's fit is returned instead (method softmax-temperature).
Calibration FitSoftmaxVector(const std::vector<double>& S, std::uint32_t K,
                             const std::vector<std::uint32_t>& cls, const std::vector<double>& w);

// The probabilities of one row's K outputs s through `c`, in double (for fits, reports, tests).
void CalibratedProbabilities(const Calibration& c, const double* s, std::uint32_t K, double* p);

// The weighted mean log loss of probabilities through `c` (for reports and tests).
double CalibratedLogLoss(const Calibration& c, const std::vector<double>& S, std::uint32_t K,
                         const std::vector<std::uint32_t>& cls, const std::vector<double>& w);

}  // namespace rfk::host

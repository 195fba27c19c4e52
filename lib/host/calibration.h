// Calibration of a classifier's raw outputs into class probabilities (format::calibration),
// fitted by maximum (row-weighted) likelihood on held-out decision values: Platt scaling for
// binary (with Platt's smoothed targets), one softmax scale A = 1/temperature for multiclass.
// Deterministic: a fixed number of sequential double-precision passes in row order, so the
// parameters are the same bits for any thread count.
#pragma once

#include <cstdint>
#include <vector>

namespace rfk::host {

struct Calibration {
  std::uint32_t method = 0;  // format::CalibrationMethod number; 0: none
  double scale = 0.0;        // A
  double bias = 0.0;         // B (Platt only)
};

// Platt scaling p(class 1 | s) = 1/(1 + exp(A s + B)) on scores s[i] with classes y[i] (0/1) and
// row weights w (empty: all 1), minimising the weighted cross-entropy against Platt's targets
// (N+ + 1)/(N+ + 2) and 1/(N- + 2) (N: the classes' weight sums) by Newton's method with a
// backtracking line search (Lin, Lin and Weng 2007). Throws TrainError without both classes.
Calibration FitPlatt(const std::vector<double>& s, const std::vector<std::uint8_t>& y,
                     const std::vector<double>& w);

// p_k = softmax_k(A s) over K scores per row (S: n x K row-major), classes cls, weights w:
// the A minimising the weighted log loss, by a safeguarded Newton iteration on the convex
// one-dimensional loss (bisection on the derivative's sign when a step does not decrease it).
Calibration FitSoftmaxScale(const std::vector<double>& S, std::uint32_t K,
                            const std::vector<std::uint32_t>& cls, const std::vector<double>& w);

// The weighted mean log loss of probabilities through `c` (for reports and tests).
double CalibratedLogLoss(const Calibration& c, const std::vector<double>& S, std::uint32_t K,
                         const std::vector<std::uint32_t>& cls, const std::vector<double>& w);

}  // namespace rfk::host

// Int8 heads rounded for their outputs, not their weights: the training pipeline's and
// `rfk convert --calibrate`'s use of RoundInt8Gptq (rfk/host/quantize.hpp) on a ridge system.
#pragma once

#include "rfk/host/quantize.hpp"
#include "solver.h"

namespace rfk::host {

// The int8 head of `head` (the ridge solution of `stats` at `lambda`, SolveRidge's), rounded by
// RoundInt8Gptq with A = G/n - mu mu' + lambda I, the Hessian of the ridge objective SolveRidge
// minimises, so each output's (w - w_q)' A (w - w_q) -- the increase of the objective, which is
// the weighted mean squared change of that output on the rows of `stats` plus the penalty's -- is
// small; each bias is refitted for the rounded weights (b_q = ybar - w_q' mu, the objective's
// minimum over b). Deterministic for any `threads`. Memory: two D x D doubles besides `stats`, no
// more than the ridge solve's matrix and factor, which are freed by then (EstimateTrainingMemory
// counts those).
Int8Head GptqInt8Head(const RidgeStats& stats, double lambda, const RidgeSolution& head, unsigned threads);

}  // namespace rfk::host

// Int8 heads rounded for their outputs, not their weights: the training pipeline's and
// `rfk convert --calibrate`'s use of RoundInt8Gptq (rfk/host/quantize.hpp) on a ridge system.
#pragma once

#include "rfk/host/quantize.hpp"
#include "training/solver.h"

namespace rfk::host {

// The int8 head of `head` (the ridge solution of `stats` at `lambda`, SolveRidge's), rounded by
// RoundInt8Gptq with A = G/n - mu mu' + lambda I, the Hessian of the ridge objective SolveRidge
// minimises, so each output's (w - w_q)' A (w - w_q) -- the increase of the objective, which is
// the weighted mean squared change of that output on the rows of `stats` plus the penalty's -- is
// small; each bias is refitted for the rounded weights (b_q = ybar - w_q' mu, the objective's
// minimum over b). Deterministic for any `threads`. Memory: two D x D doubles besides `stats`
// (the ridge solve's matrix and factor are freed by then, but EstimateTrainingMemory does not count
// these; measured 2026-11-26: peak RSS +14 % on Forest D = 5000, +13 % on Fashion-MNIST D = 4000).
// Time: a Cholesky factorisation of D x D and K x 8 passes of D^2 / 2 (Forest D = 5000: training
// time unchanged within noise, 28.6 s vs 29.0 s f32; Fashion-MNIST: 14.5 s vs 13.5 s).
Int8Head GptqInt8Head(const RidgeStats& stats, double lambda, const RidgeSolution& head, unsigned threads);

}  // namespace rfk::host

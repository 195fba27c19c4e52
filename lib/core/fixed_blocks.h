// PredictFixed's loops on cores with the Arm DSP extension (RFK_FIXED_DSP, fixed_kernels.h; on
// cores with MVE its eight-lane kernels): the phases and features of up to kBlock frequencies at a
// time, then each output's dot product with them by HeadDot, instead of one int64
// multiply-accumulate per (feature, output). The same integers as the
// scalar loops in fixed_predict.cc, which remain the oracle (fixed_check on the DSP presets
// compares both with the host's integers); cores without the extension keep the scalar loops,
// whose code is smaller. Internal to lib/core; included by fixed_predict.cc only.
#pragma once

#include <cstdint>

#include "bytes.h"
#include "fixed_kernels.h"
#include "rfk/fixed.hpp"
#include "rfk/format.hpp"

namespace rfk::core::blocks {

// The features of up to N frequencies, in HeadDot's quad order: cosines and, pair form, sines
// (4 N bytes, on the caller's stack). Each output's dot product with a block is an exact int32 (n <=
// N <= kHeadDotMax per run, two runs: |sum| < 2 * 32 * 2^22 = 2^28), added to its int64
// accumulator. The dense path takes kBlock = 32 features at a time.
inline constexpr std::uint32_t kBlock = 32;
template <std::uint32_t N>
struct FeatureBlock {
  static_assert(N <= fixed::kHeadDotMax && N % 4 == 0, "a block is whole HeadDot quads");
  std::int16_t cos[N], sin[N];
};

// acc[k] += q[k][j0 .. j0 + n) . cos + (pairs) q[k][F + j0 .. F + j0 + n) . sin, for every output
// k (q: the K x D int8 head, row-major).
[[gnu::noinline]] inline void AddBlock(std::int64_t* acc, const std::int8_t* q, std::uint32_t K, std::uint32_t D,
                                       std::uint32_t F, std::uint32_t j0, std::uint32_t n, const std::int16_t* cos,
                                       const std::int16_t* sin, bool pairs) {
  for (std::uint32_t k = 0; k < K; ++k, q += D) {
    std::int32_t sum = fixed::kernels::HeadDot(q + j0, cos, n);
    if (pairs) sum += fixed::kernels::HeadDot(q + F + j0, sin, n);
    acc[k] += sum;
  }
}

// A dense map's features (W: F rows of d int16, row j's phase t_j = phase[j] + sum_j << shift[j]),
// block by block: the block's phases, then its features. Out of line: its block is not on the
// Fastfood path's stack. The section's offsets it reads (format::fixed_params::Layout's head, w,
// shift and phase) come by value: the caller's Layout, whose address is then not taken, need not
// sit in the caller's frame under this one or the Fastfood path's.
[[gnu::noinline]] inline void AccumulateDense(const std::uint8_t* sec, std::uint32_t head_at, std::uint32_t w_at,
                                               std::uint32_t shift_at, std::uint32_t phase_at, const std::int16_t* x,
                                               std::uint32_t d, std::uint32_t F, std::uint32_t K, std::uint32_t D,
                                               bool pairs, std::int64_t* acc) {
  const auto* q = reinterpret_cast<const std::int8_t*>(sec + head_at);
  const auto* w = reinterpret_cast<const std::int16_t*>(sec + w_at);  // 4-aligned in the blob
  const std::uint8_t* shift = sec + shift_at;
  const std::uint8_t* phase = sec + phase_at;
  FeatureBlock<kBlock> z;
  std::uint32_t t[kBlock];
  for (std::uint32_t j0 = 0; j0 < F; j0 += kBlock) {
    const std::uint32_t n = F - j0 < kBlock ? F - j0 : kBlock;
    fixed::kernels::Phases(w, d, x, n, phase, shift, t);
    w += n * d, phase += 4 * n, shift += n;
    fixed::kernels::Features(t, n, pairs, z.cos, z.sin);
    AddBlock(acc, q, K, D, F, j0, n, z.cos, z.sin, pairs);
  }
}

// The features of one Fastfood block: frequencies j0 .. j0 + end at phases turns[0 .. end), in
// runs of up to kTurnsRun, each run's features written to z (2 end int16; PredictFixed passes the
// block's t, d' >= end int32, which FixedFastfoodTurns no longer reads), not to a block on the
// stack: a whole d' = 64 block a run, with no stack for it (against 16-frequency blocks on the
// stack, covtype_ff_fixed on the Cortex-M4F, `cost_fixed`: 55,495 -> 52,735 instructions a
// prediction and 64 B less RAM). kTurnsRun = 128 keeps AddBlock's sum of two runs an exact int32
// (|sum| < 2 * 128 * 2^22 = 2^30).
inline constexpr std::uint32_t kTurnsRun = 128;
inline void AccumulateTurns(const std::uint32_t* turns, std::uint32_t end, const std::int8_t* q, std::uint32_t K,
                            std::uint32_t D, std::uint32_t F, std::uint32_t j0, bool pairs, std::int64_t* acc,
                            std::int16_t* z) {
  for (std::uint32_t i0 = 0; i0 < end; i0 += kTurnsRun) {
    const std::uint32_t n = end - i0 < kTurnsRun ? end - i0 : kTurnsRun;
    fixed::kernels::Features(turns + i0, n, pairs, z, z + n);
    AddBlock(acc, q, K, D, F, j0 + i0, n, z, z + n, pairs);
  }
}

}  // namespace rfk::core::blocks

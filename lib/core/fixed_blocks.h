// PredictFixed's loops on cores with the Arm DSP extension (RFK_FIXED_DSP, fixed_kernels.h): the
// features of up to kBlock frequencies at a time, then each output's dot product with them by
// HeadDot, instead of one int64 multiply-accumulate per (feature, output). The same integers as the
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

// The features of up to kBlock frequencies, in HeadDot's quad order: cosines and, pair form, sines
// (128 B, on the caller's stack). Each output's dot product with a block is an exact int32 (n <=
// kBlock <= kHeadDotMax per run, two runs: |sum| < 2 * 32 * 2^22 = 2^28), added to its int64
// accumulator.
inline constexpr std::uint32_t kBlock = 32;
static_assert(kBlock <= fixed::kHeadDotMax && kBlock % 4 == 0, "a block is whole HeadDot quads");
struct FeatureBlock {
  std::int16_t cos[kBlock], sin[kBlock];
};

// Features i and, when count is 2, i + 1 of a block of n (i + count <= n) at phases t0, t1.
[[gnu::noinline]] inline void SetFeatures(FeatureBlock& z, std::uint32_t i, std::uint32_t n, std::uint32_t t0,
                                          std::uint32_t t1, std::uint32_t count, bool pairs) {
  for (std::uint32_t r = 0; r < count; ++r) {
    const std::uint32_t t = r == 0 ? t0 : t1, slot = fixed::QuadSlot(i + r, n);
    if (pairs) {
      fixed::CosSinTurnsInline(t, z.cos[slot], z.sin[slot]);
    } else {
      z.cos[slot] = fixed::CosTurnsInline(t);
    }
  }
}

// acc[k] += q[k][j0 .. j0 + n) . cos + (pairs) q[k][F + j0 .. F + j0 + n) . sin, for every output
// k (q: the K x D int8 head, row-major).
[[gnu::noinline]] inline void AddBlock(std::int64_t* acc, const std::int8_t* q, std::uint32_t K, std::uint32_t D,
                                       std::uint32_t F, std::uint32_t j0, std::uint32_t n, const FeatureBlock& z,
                                       bool pairs) {
  for (std::uint32_t k = 0; k < K; ++k, q += D) {
    std::int32_t sum = fixed::kernels::HeadDot(q + j0, z.cos, n);
    if (pairs) sum += fixed::kernels::HeadDot(q + F + j0, z.sin, n);
    acc[k] += sum;
  }
}

// A dense map's features (W: F rows of d int16, row j's phase t_j = phase[j] + sum_j << shift[j]),
// block by block, two rows at a time (x read once for both). Out of line: its block is not on the
// Fastfood path's stack.
[[gnu::noinline]] inline void AccumulateDense(const std::uint8_t* sec, const format::fixed_params::Layout& l,
                                               const std::int16_t* x, std::uint32_t d, std::uint32_t F,
                                               std::uint32_t K, std::uint32_t D, bool pairs, std::int64_t* acc) {
  const auto* q = reinterpret_cast<const std::int8_t*>(sec + l.head);
  const auto* w = reinterpret_cast<const std::int16_t*>(sec + l.w);  // 4-aligned in the blob
  const std::uint8_t* shift = sec + l.shift;
  const std::uint8_t* phase = sec + l.phase;
  FeatureBlock z;
  for (std::uint32_t j0 = 0; j0 < F; j0 += kBlock) {
    const std::uint32_t n = F - j0 < kBlock ? F - j0 : kBlock;
    for (std::uint32_t i = 0; i < n; i += 2, w += 2 * d, phase += 8, shift += 2) {
      const std::uint32_t count = n - i < 2 ? 1 : 2;  // a last odd row: its sum twice, one of them unused
      std::uint32_t s0, s1;
      fixed::kernels::PhaseSum2(w, count == 2 ? w + d : w, x, d, s0, s1);
      SetFeatures(z, i, n, LoadU32(phase) + (s0 << shift[0]), count == 2 ? LoadU32(phase + 4) + (s1 << shift[1]) : 0,
                  count, pairs);
    }
    AddBlock(acc, q, K, D, F, j0, n, z, pairs);
  }
}

// The features of one Fastfood block: frequencies j0 .. j0 + end at phases turns[0 .. end).
inline void AccumulateTurns(const std::uint32_t* turns, std::uint32_t end, const std::int8_t* q, std::uint32_t K,
                            std::uint32_t D, std::uint32_t F, std::uint32_t j0, bool pairs, std::int64_t* acc) {
  FeatureBlock z;
  for (std::uint32_t i0 = 0; i0 < end; i0 += kBlock) {
    const std::uint32_t n = end - i0 < kBlock ? end - i0 : kBlock;
    for (std::uint32_t i = 0; i < n; i += 2)
      SetFeatures(z, i, n, turns[i0 + i], n - i < 2 ? 0 : turns[i0 + i + 1], n - i < 2 ? 1 : 2, pairs);
    AddBlock(acc, q, K, D, F, j0 + i0, n, z, pairs);
  }
}

}  // namespace rfk::core::blocks

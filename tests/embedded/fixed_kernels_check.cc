// Parity of the integer path's kernels (lib/core/fixed_kernels.h, RFK_FIXED_KERNEL_LIST): each DSP
// version (and, on cores with MVE, each MVE version) against its scalar reference, the oracle, on
// every platform. On cores with the Arm DSP extension (Cortex-M4, M7, M33, M55; armhf) the DSP
// versions run the SMLAD / SXTB16 instructions; elsewhere they run over the plain C++ definitions
// of those instructions, so their loops, tails and the quad order are checked everywhere. Inputs:
// every length 0..kMaxLen at every start offset 0..3 (unaligned words), pseudo-random values and
// the extremes (-32768, 32767, -128, 127), whose sums wrap; and the joint cosine and sine of the
// DSP loops against CosTurns and SinTurns; the quarter-cosine entries a core built for size
// computes against its table. Prints integers only (no float printf on bare metal);
// returns non-zero on any mismatch.
// Nothing is allocated.
#include <stdio.h>

#include <cstdint>

#include "fixed_fastfood.h"
#include "fixed_kernels.h"
#include "rfk/fixed.hpp"

namespace {

namespace fk = rfk::fixed;
namespace dsp = fk::dsp;
#if RFK_FIXED_MVE
namespace mve = fk::mve;
#endif
constexpr std::uint32_t kMaxLen = 70;  // past two 32-wide blocks and every tail of 8, 4, 2, 1

std::uint32_t state = 12345u;
std::uint32_t Next() {  // xorshift32: the same values on every platform
  state ^= state << 13;
  state ^= state >> 17;
  state ^= state << 5;
  return state;
}
// Round r's values: pseudo-random (r 0), or the extremes with random signs (r 1), or all at the
// most negative value (r 2: the products that wrap).
std::int16_t Value16(int r) {
  if (r == 0) return static_cast<std::int16_t>(Next());
  if (r == 1) return (Next() & 1u) ? std::int16_t{32767} : std::int16_t{-32768};
  return std::int16_t{-32768};
}
std::int8_t Value8(int r) {
  if (r == 0) return static_cast<std::int8_t>(Next());
  if (r == 1) return (Next() & 1u) ? std::int8_t{127} : std::int8_t{-128};
  return std::int8_t{-128};
}

// Buffers with room for a start offset of up to 3 elements (words read unaligned); x's for 3 more,
// Phases' odd strides. 4-aligned, so that offsets 0 and 2 give the word-aligned rows and input
// that the DSP Phases' paired loads take (RFK_FIXED_LDRD).
alignas(4) std::int16_t w0_buf[kMaxLen + 4], x_buf[kMaxLen + 8], z_buf[kMaxLen + 4];
alignas(4) std::int16_t w_rows[5 * (kMaxLen + 4)];  // Phases' rows
std::int8_t q_buf[kMaxLen + 4];
std::uint32_t t_buf[kMaxLen + 4];  // phases

void Fill(int r) {
  for (std::uint32_t i = 0; i < 5 * (kMaxLen + 4); ++i) w_rows[i] = Value16(r);
  for (std::uint32_t i = kMaxLen + 4; i < kMaxLen + 8; ++i) x_buf[i] = Value16(r);
  for (std::uint32_t i = 0; i < kMaxLen + 4; ++i) {
    w0_buf[i] = Value16(r), x_buf[i] = Value16(r), q_buf[i] = Value8(r);
    const std::int16_t z = Value16(r);  // a feature: |z| <= 32767
    z_buf[i] = z == -32768 ? std::int16_t{-32767} : z;
    // Phases: pseudo-random (r 0), or next to a quadrant's boundary (r 1, 2: the mirrored positions'
    // ends, where the table's last entry is read).
    const std::uint32_t quadrant = Next() << 30, near = Next() & 3u;
    t_buf[i] = r == 0 ? Next() : r == 1 ? quadrant + near : quadrant - near;
  }
}

// One kernel on one (offset, length): the scalar reference against the DSP version and, on cores
// with MVE (RFK_FIXED_MVE), the MVE version, on the same inputs.
#if RFK_FIXED_MVE
#define RFK_VERSIONS(X) X(dsp) X(mve)
#else
#define RFK_VERSIONS(X) X(dsp)
#endif
bool ParityPhaseSum(std::uint32_t off, std::uint32_t n) {
  const std::uint32_t want = fk::scalar::PhaseSum(w0_buf + off, x_buf + off, n);
  bool same = true;
#define RFK_ONE(v) same = same && v::PhaseSum(w0_buf + off, x_buf + off, n) == want;
  RFK_VERSIONS(RFK_ONE)
#undef RFK_ONE
  return same;
}
// Up to five rows (two pairs and an odd one) of n columns: rows n + off1 apart, where off1 (0..3)
// makes them word-aligned or not, and x at element offset off or off ^ 1, the other half of a word
// (the DSP version pairs the rows' loads where w is aligned, and x's where x is too: rows aligned
// with x not, a caller's 2-aligned int16 buffer, is its own loop); the rows' values are Fill's.
std::uint8_t phase_bytes[4 * 5], shifts[5];
bool ParityPhases(std::uint32_t off, std::uint32_t n) {
  bool same = true;
  for (std::uint32_t rows = 0; rows <= 5; ++rows)
    for (std::uint32_t pass = 0, xoff = off; pass < 2; ++pass, xoff ^= 1u) {
      const std::uint32_t d = n + (rows & 1u) * (3 - off);  // even and odd strides
      for (std::uint32_t i = 0; i < 5; ++i) {
        shifts[i] = static_cast<std::uint8_t>(Next() % 17);
        for (std::uint32_t b = 0; b < 4; ++b) phase_bytes[4 * i + b] = static_cast<std::uint8_t>(Next());
      }
      std::uint32_t want[5], got[5];
      fk::scalar::Phases(w_rows + off, d, x_buf + xoff, rows, phase_bytes, shifts, want);
#define RFK_ONE(v)                                                           \
  v::Phases(w_rows + off, d, x_buf + xoff, rows, phase_bytes, shifts, got); \
  for (std::uint32_t i = 0; i < rows; ++i) same = same && got[i] == want[i];
      RFK_VERSIONS(RFK_ONE)
#undef RFK_ONE
    }
  return same;
}
// Each version's features of t in both forms against CosTurns and SinTurns (rfk/fixed.hpp, the
// definition) at QuadSlot's places; the slots past n stay as they were.
bool ParityFeatures(std::uint32_t off, std::uint32_t n) {
  std::int16_t zc[kMaxLen + 1], zs[kMaxLen + 1];
  bool same = true;
  for (int pairs = 0; pairs < 2; ++pairs) {
#define RFK_ONE(v)                                                                          \
  for (std::uint32_t j = 0; j <= kMaxLen; ++j) zc[j] = zs[j] = 12345;                       \
  v::Features(t_buf + off, n, pairs != 0, zc, zs);                                           \
  for (std::uint32_t j = 0; j < n; ++j) {                                                   \
    const std::uint32_t slot = fk::QuadSlot(j, n);                                          \
    same = same && zc[slot] == fk::CosTurns(t_buf[off + j]);                                \
    same = same && (pairs ? zs[slot] == fk::SinTurns(t_buf[off + j]) : zs[slot] == 12345); \
  }                                                                                         \
  same = same && zc[n] == 12345 && zs[n] == 12345;
    RFK_ONE(fk::scalar)
    RFK_VERSIONS(RFK_ONE)
#undef RFK_ONE
  }
  return same;
}
// z holds features (|z| <= 32767, as CosTurns gives them) in quad order; HeadDot takes up to
// kHeadDotMax of them.
bool ParityHeadDot(std::uint32_t off, std::uint32_t n) {
  const std::int32_t want = fk::scalar::HeadDot(q_buf + off, z_buf + (3 - off), n);
  bool same = true;
#define RFK_ONE(v) same = same && v::HeadDot(q_buf + off, z_buf + (3 - off), n) == want;
  RFK_VERSIONS(RFK_ONE)
#undef RFK_ONE
  return same;
}

// The transform of n int32 values (n a power of two; other lengths have no transform), round r's
// int16 values: |t| <= 32768, n <= 64, so every sum fits.
bool ParityFwht(std::uint32_t off, std::uint32_t n) {
  if (n == 0 || (n & (n - 1)) != 0) return true;
  static std::int32_t ref[kMaxLen + 4], v[kMaxLen + 4];
  for (std::uint32_t i = 0; i < n; ++i) ref[i] = w0_buf[off + i];
  fk::scalar::Fwht(ref, n);
  bool same = true;
#define RFK_ONE(k)                                                                \
  for (std::uint32_t i = 0; i < n; ++i) v[i] = w0_buf[off + i];                  \
  k::Fwht(v, n);                                                                  \
  for (std::uint32_t i = 0; i < n; ++i) same = same && v[i] == ref[i];
  RFK_VERSIONS(RFK_ONE)
#undef RFK_ONE
  return same;
}

// The transform at lengths 128 and 256, past ParityFwht's: several blocks of the three-stage passes
// and the one or two stages they leave (the DSP version's). Values in [-32768, 32767] from a
// linear congruential sequence: 256 * 32768 = 2^23, every sum fits.
std::uint32_t CheckLongFwht(std::uint32_t* checked) {
  constexpr std::uint32_t kLong = 256;
  static std::int32_t in[kLong], ref[kLong], v[kLong];
  std::uint32_t bad = 0, lcg = 12345u;
  for (std::uint32_t n = 128; n <= kLong; n *= 2)
    for (int round = 0; round < 2; ++round) {
      for (std::uint32_t i = 0; i < n; ++i) {
        lcg = lcg * 1664525u + 1013904223u;
        in[i] = ref[i] = static_cast<std::int32_t>(lcg >> 16) - 32768;
      }
      fk::scalar::Fwht(ref, n);
#define RFK_ONE(k)                                                                                 \
  for (std::uint32_t i = 0; i < n; ++i) v[i] = in[i];                                              \
  k::Fwht(v, n);                                                                                   \
  ++*checked;                                                                                      \
  for (std::uint32_t i = 0; i < n; ++i)                                                            \
    if (v[i] != ref[i]) {                                                                          \
      if (bad++ < 4) printf("fixed kernels: %s Fwht differs (length %u)\n", #k, static_cast<unsigned>(n)); \
      break;                                                                                       \
    }
      RFK_VERSIONS(RFK_ONE)
#undef RFK_ONE
    }
  return bad;
}

// CosSinTurnsInline (the scalar loops' cosine and sine of one phase) and the DSP loops' own
// (dsp::QuarterTable: CosSin, CosTurns) against CosTurns and SinTurns: 262,145 phases a stride of
// 2^14 + 1 apart, and every quadrant boundary with its neighbours.
std::uint32_t CheckCosSin(std::uint32_t* checked) {
  std::uint32_t bad = 0;
  const dsp::QuarterTable table;
  const auto one = [&](std::uint32_t t) {
    std::int16_t c, s, dc, ds;
    fk::CosSinTurnsInline(t, c, s);
    table.CosSin(t, dc, ds);
    ++*checked;
    const std::int16_t cos = fk::CosTurns(t), sin = fk::SinTurns(t);
    if (c != cos || s != sin || dc != cos || ds != sin || table.CosTurns(t) != cos) {
      if (bad++ < 4) printf("fixed kernels: CosSinTurns differs at phase %lu\n", static_cast<unsigned long>(t));
    }
  };
  for (std::uint32_t k = 0, t = 0; k <= (1u << 18); ++k, t += (1u << 14) + 1u) one(t);
  static const std::uint32_t kNear[] = {0u, 1u, 63u, 64u, 65u, 0x3FFFFFu, 0x400000u};
  for (std::uint32_t q = 0; q < 4; ++q)
    for (std::uint32_t e : kNear) one((q << 30) + e), one((q << 30) - e);
  return bad;
}

// FixedFastfoodTurns (the integer Fastfood's block: on Thumb-2 its last step an assembly loop for
// the shifts 1..31, leaving it for any other) against the transform written out in int64 here:
// d = 6, d' = 8, F = 13 (a whole block, then one of 5), shifts 0, 32, 33, 40 and 62 among the
// others (first, last and two in a row), g_shift 0 and 3; pseudo-random inputs and arrays within
// the validator's bounds.
std::uint32_t CheckFastfoodTurns(std::uint32_t* checked) {
  constexpr std::uint32_t d = 6, dp = 8, F = 13, blocks = 2, N = blocks * dp, w = 3;
  static const std::uint8_t kSShift[F] = {0, 1, 5, 31, 32, 33, 40, 62, 62, 2, 30, 31, 32};
  static const std::uint8_t kGShift[blocks] = {3, 0};
  std::int16_t g[N], x[d];
  std::int32_t s_mult[F];
  std::uint8_t phase[4 * F], packed[(N * w + 7) / 8 + N / 8] = {};  // perm, then the signs
  std::uint8_t* const signs = packed + (N * w + 7) / 8;
  for (std::uint32_t i = 0; i < N; ++i) {
    g[i] = static_cast<std::int16_t>(static_cast<std::int32_t>(Next() % 2001u) - 1000);
    const std::uint32_t index = (3u * (i % dp) + i / dp) % dp;  // each block a permutation
    for (std::uint32_t bit = 0; bit < w; ++bit)
      packed[(i * w + bit) / 8] |= static_cast<std::uint8_t>(((index >> bit) & 1u) << ((i * w + bit) % 8));
    signs[i / 8] |= static_cast<std::uint8_t>((Next() & 1u) << (i % 8));
  }
  for (std::uint32_t j = 0; j < F; ++j) {
    s_mult[j] = static_cast<std::int32_t>(Next() % (1u << 21)) - (1 << 20);
    for (std::uint32_t byte = 0; byte < 4; ++byte) phase[4 * j + byte] = static_cast<std::uint8_t>(Next());
  }
  for (std::uint32_t c = 0; c < d; ++c) x[c] = static_cast<std::int16_t>(static_cast<std::int32_t>(Next() % 2001u) - 1000);
  const rfk::core::FixedFastfoodView view{g, s_mult, kSShift, kGShift, packed, signs, phase, d, F, dp, w};
  const auto round_shift = [](std::int64_t p, std::uint32_t n) { return n == 0 ? p : (p + (std::int64_t{1} << (n - 1))) >> n; };
  std::uint32_t bad = 0;
  for (std::uint32_t b = 0; b < blocks; ++b) {
    std::int32_t t[dp], ref_t[dp], v[dp];
    std::uint32_t turns[dp];
    rfk::core::FixedFastfoodTurns(view, x, b, t, turns);
    for (std::uint32_t i = 0; i < dp; ++i) {
      const std::uint32_t k = b * dp + i;
      ref_t[i] = i < d ? (((signs[k / 8] >> (k % 8)) & 1u) ? -x[i] : x[i]) : 0;
    }
    fk::scalar::Fwht(ref_t, dp);
    for (std::uint32_t i = 0; i < dp; ++i) {
      const std::uint32_t index = (3u * i + b) % dp;
      v[i] = static_cast<std::int32_t>(round_shift(std::int64_t{g[b * dp + i]} * ref_t[index], kGShift[b]));
    }
    fk::scalar::Fwht(v, dp);
    for (std::uint32_t i = 0, j = b * dp; i < dp && j < F; ++i, ++j) {
      const std::uint32_t expect = rfk::core::LoadU32(phase + 4 * j) +
                                   static_cast<std::uint32_t>(round_shift(std::int64_t{s_mult[j]} * v[i], kSShift[j]));
      ++*checked;
      if (turns[i] != expect && bad++ < 4)
        printf("fixed kernels: FixedFastfoodTurns differs at frequency %u (shift %u)\n", static_cast<unsigned>(j),
               static_cast<unsigned>(kSShift[j]));
    }
  }
  return bad;
}

// The quarter-wave table's entries as a core built for size computes them (quarter_cos.h: checked
// at compile time already) against the table, at run time on this platform's compiler and CPU.
std::uint32_t CheckQuarterCosEntries(std::uint32_t* checked) {
  std::uint32_t bad = 0;
  for (volatile std::uint32_t i = 0; i <= 256; i = i + 1) {
    ++*checked;
    if (fk::quarter_cos::Entry(i) != fk::kQuarterCos2[i] && bad++ < 4)
      printf("fixed kernels: the computed quarter-cosine entry %lu differs\n", static_cast<unsigned long>(i));
  }
  return bad;
}

}  // namespace

#if defined(__ARM_FEATURE_DSP)
constexpr const char* kDspInstructions = "run";
#else
constexpr const char* kDspInstructions = "emulated";
#endif

int main() {
  // The list makes a kernel without its Parity function fail to compile.
  std::uint32_t checked = 0, mismatches = 0;
#define RFK_CHECK_KERNEL(Name)                                                   \
  for (int r = 0; r < 3; ++r) {                                                  \
    Fill(r);                                                                     \
    for (std::uint32_t off = 0; off < 4; ++off)                                  \
      for (std::uint32_t n = 0; n <= kMaxLen; ++n, ++checked)                    \
        if (!Parity##Name(off, n)) {                                             \
          ++mismatches;                                                          \
          printf("fixed kernels: %s differs (round %d, offset %u, length %u)\n", \
                 #Name, r, static_cast<unsigned>(off), static_cast<unsigned>(n)); \
        }                                                                        \
  }
  RFK_FIXED_KERNEL_LIST(RFK_CHECK_KERNEL)
#undef RFK_CHECK_KERNEL
  mismatches += CheckCosSin(&checked);
  mismatches += CheckLongFwht(&checked);
  mismatches += CheckFastfoodTurns(&checked);
  mismatches += CheckQuarterCosEntries(&checked);
  printf("fixed kernels: %u cases checked, %u mismatches (DSP instructions %s; MVE kernels %s)\n",
         static_cast<unsigned>(checked), static_cast<unsigned>(mismatches), kDspInstructions,
         RFK_FIXED_MVE ? "run" : "absent");
  return mismatches == 0 ? 0 : 1;
}

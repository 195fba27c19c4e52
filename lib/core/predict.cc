// The per-sample and batch prediction paths over a Model that OpenModel validated: scratch
// sizing, feature computation (Fourier features through the kernel table, bin columns), the linear
// head, class labels and feature names (decisions and probabilities: decide.cc). No allocation, no exceptions; reentrant.
#include "fp_contract.h"  // first: no compiler-fused multiply-adds in this file
#include "bin_column.h"
#include "bytes.h"
#include "core_config.h"
#include "fixed_open.h"
#include "rfk/kernels.hpp"
#include "rfk/model.hpp"
#include "scalar_table.h"

namespace rfk {
namespace {

using core::IsFinite;
using core::LoadU32;
using core::BinColumn;
using core::RoundUp;

// True when none of p[0..n) is NaN or +-inf. No early exit, so compilers vectorise it: inputs
// are checked on every prediction, and the early-exit loop took 7.9 us per 256 x 54 floats on x86
// (-O3), about 5% of a batch prediction; this one 2.0 us.
bool AllFinite(const float* p, std::size_t n) {
  std::uint32_t bad = 0;  // not bool: GCC 12 vectorises an integer OR, not a bool one (11 us)
  for (std::size_t i = 0; i < n; ++i) bad |= !IsFinite(p[i]);
  return bad == 0;
}

// x with each NaN (a missing value) replaced by the model's impute value, into xs (not yet
// standardised). False when x holds an infinity, which is not a missing value. Only for models
// with an impute section.
bool ImputeInput(const Model& m, const float* x, float* xs) {
  for (std::uint32_t i = 0; i < m.input_dim; ++i) {
    float v = x[i];
    if (!IsFinite(v)) {
      if (!core::IsNaN(v)) return false;
      v = m.impute[i];
    }
    xs[i] = v;
  }
  return true;
}

// xs = x standardised through kt with the vectors as the model stores them (f32, or f16 widened
// as read); x may be xs. Only for standardised models (IsStandardized). Not inlined: one copy for
// Prepare and Fastfood's blocks (flash).
[[gnu::noinline]] void StandardizeInput(const Model& m, core::Kernels kt, const float* x, float* xs) {
  if (const std::uint16_t* h = StandardizeF16Values(m); core::kFloatQuant && h != nullptr)
    kt->StandardizeF16(x, h, h + m.input_dim, m.input_dim, xs);
  else
    kt->Standardize(x, StandardizeMean(m), InvScale(m), m.input_dim, xs);
}

// The model's Fourier form, known at compile time in a core built for one form (core_config.h).
// Always inlined: an out-of-line copy beside format::IsPhaseForm cost the whole core 20 B.
[[gnu::always_inline]] inline bool PhaseForm(const Model& m) {
  return core::kFormPhase && (!core::kFormPair || format::IsPhaseForm(m.map));
}

}  // namespace

namespace {

// Whether a Fastfood map standardises x into each Fastfood block's work buffer t, where its
// transform starts anyway, rather than into a copy of x: the same operations (the same bits), d
// floats less scratch, one Standardize per Fastfood block more (Cortex-M4F, (54, 1024) models: 4 %
// more instructions with f32 vectors, 13 % with f16 ones). So only in a core built for RAM, with
// blocks smaller than the generic core's (RFK_FEATURE_BLOCK, as `rfk export --config-header`
// writes it); not with binning (its grids read the standardised x) or an impute section (the NaN
// substitution needs the copy).
bool StandardizeInBlocks(const Model& m, std::uint32_t feature_block = core::kFeatureBlock) {
  return feature_block < kFeatureBlock && core::kFloatFastfood && HasFastfoodArrays(m) && m.num_grids == 0 &&
         m.impute == nullptr && IsStandardized(m);
}

}  // namespace

// Scratch layout: x imputed and standardised (d floats; only where Prepare writes it: an impute
// section, or a standardisation not done in Fastfood's blocks, StandardizeInBlocks) | one block of Fourier features (up
// to the core's block, core::kFeatureBlock, floats; in Fastfood's t where it fits there: t is free
// once a span's transforms are done) | Fastfood's buffers (t: d' floats, u: max(d',
// BlockFrequencies) floats; Fastfood maps only) | bin keys (P u64) | bin columns (P u32), each part
// starting on a kScratchAlignment boundary. No part grows with the number of features.
namespace {
struct ScratchLayout {
  std::size_t z, ff, keys, cols, total;
};
ScratchLayout Layout(const Model& m, std::uint32_t feature_block = core::kFeatureBlock) {
  const std::uint32_t F = m.num_frequencies, B = BlockFrequencies(m, feature_block), block = F < B ? F : B;
  const std::size_t block_floats = m.fourier_features == F ? block : 2 * std::size_t{block};  // F = 0: 0
  const std::size_t dp = FastfoodPaddedDim(m), ff_floats = dp == 0 ? 0 : dp + (dp > B ? dp : B);
  const bool x_copy =
      (core::kReadImpute && m.impute != nullptr) || (IsStandardized(m) && !StandardizeInBlocks(m, feature_block));
  const bool z_in_t = core::kFloatFastfood && dp != 0 && block_floats <= dp;
  ScratchLayout l;
  l.z = x_copy ? RoundUp(std::size_t{m.input_dim} * sizeof(float), kScratchAlignment) : 0;
  l.ff = l.z + (z_in_t ? 0 : RoundUp(block_floats * sizeof(float), kScratchAlignment));
  if (z_in_t) l.z = l.ff;
  l.keys = l.ff + RoundUp(ff_floats * sizeof(float), kScratchAlignment);
  l.cols = l.keys + RoundUp(std::size_t{m.num_grids} * sizeof(std::uint64_t), kScratchAlignment);
  l.total = l.cols + RoundUp(std::size_t{m.num_grids} * sizeof(std::uint32_t), kScratchAlignment);
  return l;
}

// Front half of Predict, ComputeFeatures and ComputeBins: checks the arguments, then imputes and
// standardises x into the scratch's first part as the model asks (a Fastfood map may standardise
// in its blocks instead: StandardizeInBlocks). *input: x, or that part; *l: the scratch's layout.
Status Prepare(const Model& m, const float* x, std::size_t x_len, void* scratch, std::size_t scratch_bytes,
               core::Kernels kt, const float** input, ScratchLayout* l) {
  if (!core::kCoreFloat) return Status::kUnsupportedStorage;  // float path compiled out (core_config.h)
  if (HeadView(m).data == nullptr || x == nullptr || scratch == nullptr) return Status::kNullArgument;
  if (core::kCoreFixed && !core::FloatPathRuns(m))
    return Status::kUnsupportedStorage;  // a fixed-only model (no W, or no bin grids): PredictFixed (rfk/fixed.hpp)
  if (x_len != m.input_dim) return Status::kInputDimMismatch;
  if (reinterpret_cast<std::uintptr_t>(scratch) % kScratchAlignment != 0)
    return Status::kMisalignedScratch;
  *l = Layout(m);
  if (scratch_bytes < l->total) return Status::kScratchTooSmall;
  auto* xs = static_cast<float*>(scratch);
  *input = x;
  if (!AllFinite(x, m.input_dim)) {
    if (m.impute == nullptr || !ImputeInput(m, x, xs)) return Status::kNonFiniteInput;
    *input = xs;
  }
  if (IsStandardized(m) && !StandardizeInBlocks(m)) {
    StandardizeInput(m, kt, *input, xs);
    *input = xs;
  }
  return Status::kOk;
}

// Each grid's key and column into the scratch; the columns (null without binning).
const std::uint32_t* Bins(const Model& m, core::Kernels kt, const float* input, std::uint8_t* base,
                          const ScratchLayout& l) {
  if (!core::kFloatBinning || m.num_grids == 0) return nullptr;
  auto* keys = reinterpret_cast<std::uint64_t*>(base + l.keys);
  auto* cols = reinterpret_cast<std::uint32_t*>(base + l.cols);
  kt->BinKeys(m.bin_inv_width, BinOffset(m), input, m.num_grids, m.input_dim, m.bin_seed, keys);
  for (std::uint32_t p = 0; p < m.num_grids; ++p) cols[p] = BinColumn(m, p, keys[p]);
  return cols;
}

// f32 features through FourierQuant in a core built for size (scalar_table.h, kF32AsQuant).
constexpr bool kF32FeaturesAsQuant = core::kF32AsQuant && core::kFloatDense;

// Frequencies [j0, j0 + n) of a dense map into z (pair form: n cosines, then n sines): the
// kernels on W's rows from j0 (j0 a multiple of the panel width, so the rows start a panel in
// either layout) and the phases from j0. The maps and storages a build leaves out
// (core_config.h) are compiled out here: OpenModel refused the models that would need them.
// Inlined into its one caller: its own call was part of each block's cost.
[[gnu::always_inline]] inline void DenseBlock(const Model& m, core::Kernels kt, bool phase, const float* input,
                                              std::uint32_t j0, std::uint32_t n, float* z) {
  const std::uint32_t d = m.input_dim;
  const std::size_t at = std::size_t{j0} * d;  // the element offset of row j0
  const float* b = phase ? m.phase + j0 : nullptr;
  // f16, int8: widened as read (and f32 in a core built for size)
  if (core::kFloatQuant && (kF32FeaturesAsQuant || ProjectionView(m).type != format::Storage::kF32)) {
    WeightsView w = ProjectionView(m);
    w.data = static_cast<const std::uint8_t*>(w.data) + at * format::ElementBytes(w.type);
    if (w.scale != nullptr) w.scale += j0;  // one per row
    kt->FourierQuant(w, m.layout == format::Layout::kPanels, b, input, n, d, m.feature_scale, z);
  } else if (!core::kLayoutRows || m.layout == format::Layout::kPanels) {
    if (phase) kt->FourierPhase(m.projection + at, b, input, n, d, m.feature_scale, z);
    else kt->FourierPair(m.projection + at, input, n, d, m.feature_scale, z);
  } else if (phase) {  // row-major W (format 1.0 writers): the reference kernels
    FourierPhaseRef(m.projection + at, b, input, n, d, m.feature_scale, z);
  } else {
    FourierPairRef(m.projection + at, input, n, d, m.feature_scale, z);
  }
}

// One of Fastfood's diagonals (diag: a.G or a.S) on the block at j0: ub[i] = D[j0 + i] * ub[i]
// through the table's ScaleByDiagonal (each entry widened as WeightAt widens it; the same bits from
// every table). The Fastfood steps take the table as K: core::Kernels from Predict, or the
// `const KernelTable*` FastfoodFeatures' caller names (any table, also where nothing is dispatched).
template <class K>
void FastfoodScale(const FastfoodArrays& a, const void* diag, std::uint32_t j0, float* ub, K kt) {
  kt->ScaleByDiagonal(FastfoodDiagonal(a, diag), j0 / a.dp, j0, a.dp, ub);
}

// Fastfood's G Pi for the block at j0: ub[i] = G[j0 + i] * t[perm[j0 + i]]: the gather, then G as
// FastfoodScale applies a diagonal. The block's packed indices (FastfoodIndex's) are read as one
// stream, LSB first, a byte at a time as the next index needs it (never a byte past the last).
template <class K>
void FastfoodGather(const FastfoodArrays& a, std::uint32_t j0, const float* t, float* ub, K kt) {
  const std::uint32_t w = a.index_bits, mask = (1u << w) - 1u, start = j0 * w;  // < 2^31
  const std::uint8_t* p = a.perm + start / 8;
  std::uint32_t bits = 0, have = 0;  // buffered bits, the next index's at the bottom
  if (w != 0) {
    bits = std::uint32_t{*p++} >> (start % 8);
    have = 8 - start % 8;
  }
  for (std::uint32_t i = 0; i < a.dp; ++i) {
    while (have < w) {
      bits |= std::uint32_t{*p++} << have;
      have += 8;
    }
    ub[i] = t[bits & mask];
    bits >>= w;
    have -= w;
  }
  FastfoodScale(a, a.G, j0, ub, kt);
}


// Block j0 / d' of a Fastfood map's raw projections (FastfoodFeatures' u) into ub[0, d'): B, H,
// G Pi, H, S. t: d' floats of work; x may be t.
template <class K>
void FastfoodBlock(const FastfoodArrays& a, const float* x, std::uint32_t d, std::uint32_t j0, float* t,
                   float* ub, K kt) {
  const std::uint32_t dp = a.dp;
  kt->ApplySigns(a.signs, j0, x, d < dp ? d : dp, dp, t);  // B: t = sign(k) * x, zero-padded
  kt->Fwht(t, dp);
  FastfoodGather(a, j0, t, ub, kt);
  kt->Fwht(ub, dp);
  FastfoodScale(a, a.S, j0, ub, kt);
}

// A Fastfood model's form: the phase form where the model has phases (core_config.h may fix it).
bool FastfoodPhase(const float* phase) { return core::kFormPhase && (!core::kFormPair || phase != nullptr); }

// The Fourier features of one input, block by block in frequency order: emit(j, n, zc, zs) gets
// frequencies [j, j + n) (j a multiple of BlockFrequencies, n <= BlockFrequencies): zc their
// features (pair form: cosines), zs = zc + n their sines (pair form). A Fastfood map's raw
// projections are computed a Fastfood block (d' frequencies) at a time into u, which holds
// max(d', BlockFrequencies).
template <class Emit>
void FourierBlocks(const Model& m, core::Kernels kt, const float* input, std::uint8_t* base,
                   const ScratchLayout& l, Emit&& emit) {
  const std::uint32_t F = m.num_frequencies, B = BlockFrequencies(m, core::kFeatureBlock);
  float* z = reinterpret_cast<float*>(base + l.z);
  if (core::kFloatFastfood && HasFastfoodArrays(m)) {
    const auto& a = core::FastfoodCopy(m);
    float* t = reinterpret_cast<float*>(base + l.ff);
    float* ub = t + a.dp;  // u for [j0, j0 + span): whole Fastfood blocks, whole feature blocks
    const std::uint32_t span = a.dp > B ? a.dp : B;
    // Panel rows past a last Fastfood block of d' < 16 entries are read, never used: defined zeros.
    if (a.dp < format::kPanelWidth)
      for (std::uint32_t i = 0; i < span; ++i) ub[i] = 0.0f;
    const float one = 1.0f;
    const bool in_blocks = StandardizeInBlocks(m);
    for (std::uint32_t j0 = 0; j0 < F; j0 += span) {
      const std::uint32_t sn = F - j0 < span ? F - j0 : span;
      for (std::uint32_t b0 = 0; b0 < sn; b0 += a.dp) {
        if (in_blocks) StandardizeInput(m, kt, input, t);  // x standardised where B takes it: t
        FastfoodBlock(a, in_blocks ? t : input, m.input_dim, j0 + b0, t, ub + b0, kt);
      }
      for (std::uint32_t c0 = 0; c0 < sn; c0 += B) {
        const std::uint32_t n = sn - c0 < B ? sn - c0 : B;
        if (kF32FeaturesAsQuant)
          kt->FourierQuant(WeightsView{WeightType::kF32, ub + c0, nullptr}, true,
                           FastfoodPhase(m.phase) ? m.phase + j0 + c0 : nullptr, &one, n, 1, m.feature_scale, z);
        else if (FastfoodPhase(m.phase)) kt->FourierPhase(ub + c0, m.phase + j0 + c0, &one, n, 1, m.feature_scale, z);
        else kt->FourierPair(ub + c0, &one, n, 1, m.feature_scale, z);
        emit(j0 + c0, n, z, z + n);
      }
    }
    return;
  }
  if (!core::kFloatDense || m.fourier_features == 0) return;
  const bool phase = PhaseForm(m);
  for (std::uint32_t j0 = 0; j0 < F; j0 += B) {
    const std::uint32_t n = F - j0 < B ? F - j0 : B;
    DenseBlock(m, kt, phase, input, j0, n, z);
    emit(j0, n, z, z + n);
  }
}

// out[k] = bias[k] + the head's part over a block's features: columns [col, col + n) of row k
// against z[0, n), and with pair != 0 (the pair form) columns [pair + col, pair + col + n) against
// the sines z[n, 2n), each sine's term after its cosine's (f32, or widened as stored); bias may be
// out. Inlined: a call per block was measurable (the M55's Helium table, (54, 1024) binary pairs:
// 2.998x fewer instructions than its scalar one with it).
[[gnu::always_inline]] inline void HeadPart(const Model& m, core::Kernels kt, std::uint32_t col, std::uint32_t pair,
                                            std::uint32_t n, const float* z, const float* bias, float* out) {
  if (core::kHeadF32 && (!core::kFloatQuant || (!core::kF32AsQuant && HeadView(m).type == format::Storage::kF32))) {
    kt->LinearHead(m.head_weights + col, m.num_features, pair, bias, z, m.num_outputs, n, out);
  } else {
    WeightsView h = HeadView(m);
    h.data = static_cast<const std::uint8_t*>(h.data) + std::size_t{col} * format::ElementBytes(h.type);
    kt->LinearHeadQuant(h, m.num_features, pair, bias, z, m.num_outputs, n, out);
  }
}

}  // namespace

// Here rather than in kernels_scalar.cc: it calls a kernel table's kernels, and the Cortex-M stack
// analysis (targets/cortex-m/footprint.py) takes an indirect call from kernels_scalar.cc for one
// into itself.
void FastfoodFeatures(const FastfoodArrays& a, const float* x, std::uint32_t d, std::uint32_t F,
                      const float* phase, float scale, float* work, float* z,
                      const KernelTable& kt) noexcept {
  float* u = work + a.dp;  // block b's outputs at u + b dp, then zeros to whole panels
  for (std::uint32_t j0 = 0; j0 < F; j0 += a.dp) FastfoodBlock(a, x, d, j0, work, u + j0, &kt);
  for (std::uint32_t j = F; j < FastfoodWorkFloats(a, F) - a.dp; ++j) u[j] = 0.0f;
  const float one = 1.0f;
  if (FastfoodPhase(phase)) kt.FourierPhase(u, phase, &one, F, 1, scale, z);
  else kt.FourierPair(u, &one, F, 1, scale, z);
}

namespace {

Status ComputeFeaturesOf(const Model& model, const float* x, std::size_t x_len, void* scratch,
                         std::size_t scratch_bytes, float* z_out, std::size_t z_len) {
  if (z_out == nullptr) return Status::kNullArgument;
  if (z_len < model.num_features) return Status::kOutputTooSmall;
  const core::Kernels kt{};
  const float* input = nullptr;
  ScratchLayout l;
  const Status s = Prepare(model, x, x_len, scratch, scratch_bytes, kt, &input, &l);
  if (s != Status::kOk) return s;
  auto* base = static_cast<std::uint8_t*>(scratch);
  const std::uint32_t F = model.num_frequencies;
  const bool pair = model.fourier_features != F;
  FourierBlocks(model, kt, input, base, l, [&](std::uint32_t j, std::uint32_t n, const float* zc, const float* zs) {
    for (std::uint32_t i = 0; i < n; ++i) {
      z_out[j + i] = zc[i];
      if (pair) z_out[F + j + i] = zs[i];
    }
  });
  for (std::uint32_t j = 0; j < model.fourier_features; ++j)
    if (!IsFinite(z_out[j])) return Status::kArgumentOutOfRange;
  const std::uint32_t* cols = Bins(model, kt, input, base, l);
  float* zb = z_out + model.fourier_features;
  for (std::uint32_t j = 0; j < BinFeatures(model); ++j) zb[j] = 0.0f;
  for (std::uint32_t p = 0; p < model.num_grids; ++p)
    if (cols[p] != kNoColumn) zb[cols[p]] = model.bin_scale;
  return Status::kOk;
}

Status ComputeBinsOf(const Model& model, const float* x, std::size_t x_len, void* scratch,
                     std::size_t scratch_bytes, std::uint64_t* keys, std::uint32_t* columns, std::size_t len) {
  if (keys == nullptr || columns == nullptr) return Status::kNullArgument;
  if (len < model.num_grids) return Status::kOutputTooSmall;
  const core::Kernels kt{};
  const float* input = nullptr;
  ScratchLayout l;
  const Status s = Prepare(model, x, x_len, scratch, scratch_bytes, kt, &input, &l);
  if (s != Status::kOk) return s;
  auto* base = static_cast<std::uint8_t*>(scratch);
  const std::uint32_t* cols = Bins(model, kt, input, base, l);
  const auto* k = reinterpret_cast<const std::uint64_t*>(base + l.keys);
  for (std::uint32_t p = 0; p < model.num_grids; ++p) {
    keys[p] = k[p];
    columns[p] = cols[p];
  }
  return Status::kOk;
}

// The head goes block by block (FourierBlocks), each block's call taking out as its bias after the
// first: with the scalar kernels, out = bias + the terms in frequency order (a pair's sine after
// its cosine), one accumulator (LinearHeadQuantRef), whatever the block size. Then one weight per
// occupied bin. Outside a pinned core Predict is its one caller, and it is inlined there (GCC -Os
// kept it apart: 24 B more stack on the Cortex-M0); in a pinned core pinned::Predict is, which
// flattens it (below).
#ifndef RFK_PIN_MODEL
[[gnu::always_inline]] inline
#endif
Status PredictOf(const Model& model, const float* x, std::size_t x_len, void* scratch, std::size_t scratch_bytes,
                 float* out, std::size_t out_len) {
  if (!core::kCoreFloat) return Status::kUnsupportedStorage;  // float path compiled out (core_config.h)
  if (out == nullptr) return Status::kNullArgument;
  if (out_len < model.num_outputs) return Status::kOutputTooSmall;
  const core::Kernels kt{};
  const float* input = nullptr;
  ScratchLayout l;
  const Status s = Prepare(model, x, x_len, scratch, scratch_bytes, kt, &input, &l);
  if (s != Status::kOk) return s;
  auto* base = static_cast<std::uint8_t*>(scratch);
  const std::uint32_t F = model.num_frequencies;
  const std::uint32_t pair = model.fourier_features != F ? F : 0;  // the sines' columns start F after
  const float* bias = HeadBias(model);  // the first part adds the bias, every later one out
  FourierBlocks(model, kt, input, base, l, [&](std::uint32_t j, std::uint32_t n, const float* zc, const float*) {
    HeadPart(model, kt, j, pair, n, zc, bias, out);  // zc + n: the sines (FourierBlocks' zs)
    bias = out;
  });
  if (bias != out)  // no Fourier map: the bias plus an empty sum, as LinearHead gives it
    for (std::uint32_t k = 0; k < model.num_outputs; ++k) out[k] = bias[k] + 0.0f;
  // Plus one weight per occupied bin (widened: int8 as scale_k * q), grids in order.
  const std::uint32_t* cols = Bins(model, kt, input, base, l);
  const std::uint32_t D = model.num_features, Df = model.fourier_features;
  for (std::uint32_t p = 0; core::kFloatBinning && p < model.num_grids; ++p) {
    if (cols[p] == kNoColumn) continue;
    for (std::uint32_t k = 0; k < model.num_outputs; ++k)
      out[k] += model.bin_scale * core::BuiltWeightAt(HeadView(model), std::uint64_t{k} * D + Df + cols[p], k);
  }
  // Features are bounded (|z| <= feature_scale); a non-finite output can only come from a cosine
  // argument beyond kSinCosMaxArg, which SinCosRef turns into NaN.
  for (std::uint32_t k = 0; k < model.num_outputs; ++k)
    if (!IsFinite(out[k])) return Status::kArgumentOutOfRange;
  return Status::kOk;
}

static_assert(kBatchBlock <= 64, "PredictBatch marks a block's imputed rows in a 64-bit mask");

// One row of a batch the single-sample way: through Predict itself outside a pinned core, so that
// PredictOf has one caller there and is inlined into it (no frame of its own on the stack); through
// pinned::Predict, PredictOf's one caller there, in a pinned core (whose model is kPinnedModel).
Status PredictRow(const Model& m, const float* x, std::size_t x_len, void* scratch, std::size_t scratch_bytes,
                  float* out, std::size_t out_len) {
#ifdef RFK_PIN_MODEL
  static_cast<void>(m);
  return core::pinned::Predict(x, x_len, scratch, scratch_bytes, out, out_len);
#else
  return Predict(m, x, x_len, scratch, scratch_bytes, out, out_len);
#endif
}

// Rows per block: kBatchBlock, fewer when many outputs would make the head sums (64 B per row
// and output) exceed 32 KiB, but at least 6 (one group of the widest register tile).
std::uint32_t BatchRows(const Model& model) noexcept {
  const std::uint32_t rows = 512u / (model.num_outputs == 0 ? 1u : model.num_outputs);
  return rows < 6u ? 6u : rows > kBatchBlock ? kBatchBlock : rows;
}

// Batch scratch: a block's standardised inputs, the head sums of the Fourier*HeadBatch kernels,
// then one Predict scratch for the maps that go row by row.
std::size_t BatchScratchOf(const Model& model) {
  const std::uint32_t rows = BatchRows(model);
  return RoundUp(std::size_t{rows} * model.input_dim * sizeof(float), kScratchAlignment) +
         RoundUp(HeadBatchScratchFloats(rows, model.num_outputs) * sizeof(float), kScratchAlignment) +
         Layout(model).total;
}

Status PredictBatchOf(const Model& m, const float* X, std::size_t n, std::size_t x_len, void* scratch,
                      std::size_t scratch_bytes, float* out, std::size_t out_len, std::size_t* done) {
  if (done) *done = 0;
  if (n == 0) return Status::kOk;  // nothing to read or write: null buffers are fine
  if (HeadView(m).data == nullptr || X == nullptr || scratch == nullptr || out == nullptr)
    return Status::kNullArgument;
  if (x_len != std::size_t{m.input_dim} * n) return Status::kInputDimMismatch;
  if (out_len < std::size_t{m.num_outputs} * n) return Status::kOutputTooSmall;
  if (reinterpret_cast<std::uintptr_t>(scratch) % kScratchAlignment != 0)
    return Status::kMisalignedScratch;
  if (scratch_bytes < BatchScratchOf(m)) return Status::kScratchTooSmall;
  // Row-major W, quantized W or head, Fastfood and binning maps take the single-sample path, row
  // by row (m.projection is null unless W is f32).
  const bool batched = core::kBatchKernels && m.projection != nullptr && m.head_weights != nullptr &&
                       m.num_grids == 0 && m.layout == format::Layout::kPanels;
  const std::uint32_t d = m.input_dim, K = m.num_outputs;
  const float* bias = HeadBias(m);
  auto* base = static_cast<std::uint8_t*>(scratch);
  auto* xs = reinterpret_cast<float*>(base);
  const std::uint32_t rows = BatchRows(m);
  auto* acc = reinterpret_cast<float*>(base + RoundUp(std::size_t{rows} * d * sizeof(float), kScratchAlignment));
  const std::size_t single_bytes = Layout(m).total;
  void* single = base + (BatchScratchOf(m) - single_bytes);
  const core::Kernels kt{};
  for (std::size_t i0 = 0; i0 < n; i0 += rows) {
    const auto bn = static_cast<std::uint32_t>(n - i0 < rows ? n - i0 : rows);
    const float* xb = X + i0 * d;
    if (!batched) {
      for (std::uint32_t r = 0; r < bn; ++r) {
        const Status s = PredictRow(m, xb + std::size_t{r} * d, d, single, single_bytes, out + (i0 + r) * K, K);
        if (s != Status::kOk) return s;
        if (done) *done = i0 + r + 1;
      }
      continue;
    }
    std::uint64_t imputed = 0;  // bit r: row r of the block went through ImputeInput into xs
    for (std::uint32_t r = 0; r < bn; ++r)
      if (!AllFinite(xb + std::size_t{r} * d, d)) {
        if (m.impute == nullptr || !ImputeInput(m, xb + std::size_t{r} * d, xs + std::size_t{r} * d)) {
          if (done) *done = i0 + r;
          return Status::kNonFiniteInput;
        }
        imputed |= std::uint64_t{1} << r;
      }
    const float* input = xb;
    if (IsStandardized(m) || imputed != 0) {
      for (std::uint32_t r = 0; r < bn; ++r) {
        const float* row = (imputed >> r) & 1u ? xs + std::size_t{r} * d : xb + std::size_t{r} * d;
        float* out_row = xs + std::size_t{r} * d;
        if (IsStandardized(m)) StandardizeInput(m, kt, row, out_row);
        else if (row != out_row) for (std::uint32_t c = 0; c < d; ++c) out_row[c] = row[c];
      }
      input = xs;
    }
    float* ob = out + i0 * K;
    if (PhaseForm(m))
      kt->FourierPhaseHeadBatch(m.projection, m.phase, input, bn, m.num_frequencies, d,
                               m.feature_scale, m.head_weights, bias, K, acc, ob);
    else
      kt->FourierPairHeadBatch(m.projection, input, bn, m.num_frequencies, d, m.feature_scale,
                              m.head_weights, bias, K, acc, ob);
    for (std::uint32_t r = 0; r < bn; ++r) {
      const float* o = ob + std::size_t{r} * K;
      for (std::uint32_t k = 0; k < K; ++k)
        if (!IsFinite(o[k])) {
          if (done) *done = i0 + r;
          return Status::kArgumentOutOfRange;
        }
      if (done) *done = i0 + r + 1;
    }
  }
  return Status::kOk;
}

const char* ClassLabelOf(const Model& model, std::uint32_t index) {
  if (model.label_pool == nullptr || index >= NumClasses(model)) return "";
  return model.label_pool + LoadU32(model.label_offsets + 4 * index);
}

const char* FeatureNameOf(const Model& model, std::uint32_t index) {
  if (model.name_pool == nullptr || index >= model.num_names) return "";
  return model.name_pool + LoadU32(model.name_offsets + 4 * index);
}

// What the bodies above give a Model that is not open (an empty one): Prepare's refusal.
constexpr Status kNotOpen = core::kCoreFloat ? Status::kNullArgument : Status::kUnsupportedStorage;

}  // namespace

// The entry points. A pinned core checks here that the Model is open, then reads kPinnedModel
// (pinned_model.h, ModelOf); a Model that is not open gets what an empty one gets from the bodies.
std::size_t ScratchBytes(const Model& model) noexcept {
  return model.bytes != nullptr ? Layout(core::ModelOf(model)).total : 0;
}
std::size_t ScratchBytes(const Model& model, std::uint32_t feature_block) noexcept {
  if (model.bytes == nullptr || feature_block == 0 || feature_block % kMinFeatureBlock != 0) return 0;
  return Layout(core::ModelOf(model), feature_block).total;
}
Status ComputeFeatures(const Model& model, const float* x, std::size_t x_len, void* scratch,
                       std::size_t scratch_bytes, float* z_out, std::size_t z_len) noexcept {
  if (core::kPinned && model.bytes == nullptr) return kNotOpen;
  return ComputeFeaturesOf(core::ModelOf(model), x, x_len, scratch, scratch_bytes, z_out, z_len);
}
Status ComputeBins(const Model& model, const float* x, std::size_t x_len, void* scratch,
                   std::size_t scratch_bytes, std::uint64_t* keys, std::uint32_t* columns,
                   std::size_t len) noexcept {
  if (core::kPinned && model.bytes == nullptr) return kNotOpen;
  return ComputeBinsOf(core::ModelOf(model), x, x_len, scratch, scratch_bytes, keys, columns, len);
}
Status Predict(const Model& model, const float* x, std::size_t x_len, void* scratch,
               std::size_t scratch_bytes, float* out, std::size_t out_len) noexcept {
#ifdef RFK_PIN_MODEL
  if (model.bytes == nullptr) return kNotOpen;
  return core::pinned::Predict(x, x_len, scratch, scratch_bytes, out, out_len);
#else
  return PredictOf(model, x, x_len, scratch, scratch_bytes, out, out_len);
#endif
}
std::size_t BatchScratchBytes(const Model& model) noexcept {
  return model.bytes != nullptr ? BatchScratchOf(core::ModelOf(model)) : 0;
}
Status PredictBatch(const Model& model, const float* X, std::size_t n, std::size_t x_len,
                    void* scratch, std::size_t scratch_bytes, float* out, std::size_t out_len,
                    std::size_t* done) noexcept {
  if (core::kPinned && model.bytes == nullptr) {
    if (done) *done = 0;
    return n == 0 ? Status::kOk : Status::kNullArgument;
  }
  return PredictBatchOf(core::ModelOf(model), X, n, x_len, scratch, scratch_bytes, out, out_len, done);
}
const char* ClassLabel(const Model& model, std::uint32_t index) noexcept {
  return model.bytes != nullptr ? ClassLabelOf(core::ModelOf(model), index) : "";
}
const char* FeatureName(const Model& model, std::uint32_t index) noexcept {
  return model.bytes != nullptr ? FeatureNameOf(core::ModelOf(model), index) : "";
}

#ifdef RFK_PIN_MODEL
// The C API's calls in a pinned core: the model is open (the handle said so), and is kPinnedModel.
namespace core::pinned {
std::size_t ScratchBytes() noexcept { return Layout(kPinnedModel).total; }
// Flattened: PredictOf, Prepare and Layout inlined, so that kPinnedModel's values fold through
// them (the scratch layout a constant, no frames between; on the Cortex-M4F built for size, the
// house_pair core 64 B smaller and its stack 24 B). The kernels, in their own sources, stay calls.
[[gnu::flatten]] Status Predict(const float* x, std::size_t x_len, void* scratch, std::size_t scratch_bytes, float* out,
               std::size_t out_len) noexcept {
  return PredictOf(kPinnedModel, x, x_len, scratch, scratch_bytes, out, out_len);
}
std::size_t BatchScratchBytes() noexcept { return BatchScratchOf(kPinnedModel); }
Status PredictBatch(const float* X, std::size_t n, std::size_t x_len, void* scratch, std::size_t scratch_bytes,
                    float* out, std::size_t out_len, std::size_t* done) noexcept {
  return PredictBatchOf(kPinnedModel, X, n, x_len, scratch, scratch_bytes, out, out_len, done);
}
Status ComputeBins(const float* x, std::size_t x_len, void* scratch, std::size_t scratch_bytes,
                   std::uint64_t* keys, std::uint32_t* columns, std::size_t len) noexcept {
  return ComputeBinsOf(kPinnedModel, x, x_len, scratch, scratch_bytes, keys, columns, len);
}
const char* ClassLabel(std::uint32_t index) noexcept { return ClassLabelOf(kPinnedModel, index); }
const char* FeatureName(std::uint32_t index) noexcept { return FeatureNameOf(kPinnedModel, index); }
}  // namespace core::pinned
#endif

}  // namespace rfk

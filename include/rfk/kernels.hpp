/// @file
/// Scalar reference kernels of the device core. They define the exact result every optimised
/// (SIMD) path is checked against, and they are what the core runs where no SIMD backend exists.
///
/// Contract for all kernels: no allocation, no exceptions, no library calls except where noted;
/// pointers need only natural float alignment; dot products accumulate in float in index order
/// (c = 0 .. d-1), then add the phase. Build with -ffp-contract=off so that no compiler fuses
/// a*b+c: these kernels are the oracle every SIMD path is checked against, and the host trainer's
/// unfused path computes their bits (lib/host/maps/block_kernels.h).
#pragma once

#include <cstddef>
#include <cstdint>

#include "rfk/format.hpp"

namespace rfk {

/// |x| up to kSinCosFastRange is reduced in float with a 4-part Cody-Waite split of pi/2 (every
/// partial product exact for |k| < 2^16); up to kSinCosMaxArg by exact integer arithmetic on 96
/// bits of 2/pi (rare: large gamma on unscaled data; no double precision, so no soft-float code on
/// cores without a double FPU). Beyond kSinCosMaxArg, and for NaN/inf, both results are NaN:
/// Predict reports that as kArgumentOutOfRange instead of returning a meaningless value.
/// Accuracy, measured against double-precision sin/cos (tests/device/test_kernels.cc):
///   max abs error <= 1.2e-7 for every |x| <= kSinCosMaxArg.
inline constexpr float kSinCosFastRange = 102000.0f;
/// The largest |x| SinCosRef and CosRef compute; beyond it (and for NaN, inf) they give NaN.
inline constexpr float kSinCosMaxArg = 1.0e9f;

/// *sin_out = sin(x), *cos_out = cos(x), as the contract above says.
void SinCosRef(float x, float* sin_out, float* cos_out) noexcept;
/// cos(x), the same bits as SinCosRef's cosine.
float CosRef(float x) noexcept;

/// out[c] = (x[c] - mean[c]) * inv_scale[c]
void StandardizeRef(const float* x, const float* mean, const float* inv_scale, std::uint32_t d,
                    float* out) noexcept;

/// Phase form: z[j] = scale * cos(W[j,:] . x + b[j]),  j < F.
void FourierPhaseRef(const float* W, const float* b, const float* x, std::uint32_t F,
                     std::uint32_t d, float scale, float* z) noexcept;

/// Pair form: z[j] = scale * cos(W[j,:] . x),  z[F + j] = scale * sin(W[j,:] . x),  j < F.
void FourierPairRef(const float* W, const float* x, std::uint32_t F, std::uint32_t d, float scale,
                    float* z) noexcept;

/// x <- H_n x in place: the unnormalised Walsh-Hadamard transform of length n, a power of two
/// (n = 1: nothing to do). Stages h = 1, 2, 4, ..., n/2 in that order, each the butterflies
/// (x[j], x[j+h]) <- (x[j] + x[j+h], x[j] - x[j+h]) for j with bit h clear: adds and subtracts only,
/// so every backend that keeps this order gives these bits exactly. |H_n x|_inf <= n |x|_inf.
void FwhtRef(float* x, std::uint32_t n) noexcept;

// ---------------------------------------------------------------- quantized weights
/// A weight matrix as the model stores it (format::ElementBytes, QuantMatrixBytes): the model's own
/// storage numbers (RFK_FORMAT_STORAGES), of which the kernels read f32, IEEE binary16 bits, int8
/// with one f32 scale per row (real = scale[row] * q), and binary16 bits with one f32 scale per row
/// (kF16Scaled, real = scale[row] * h: heads whose weights pass f16's range). The reference kernels
/// below widen each weight as they read it; no float copy of the matrix is made.
using WeightType = format::Storage;
/// A weight matrix where the model stores it, in its WeightType; rows are read with WeightAt.
struct WeightsView {
  WeightType type = WeightType::kF32;  ///< how the elements are stored
  const void* data = nullptr;     ///< the elements, naturally aligned for their type
  const float* scale = nullptr;   ///< kInt8, kF16Scaled: one per row; otherwise unused
};

// HalfToFloat, below: binary16 bits -> float.
// Always inlined where floats are hardware operations: its callers widen weight by weight in loops,
// and once StandardizeF16 became a fifth caller GCC -Os stopped inlining it (a call per weight: the
// f16 models 8-10 % dearer on the Cortex-M4F, a9a_f16 320,820 -> 353,090 instructions). The
// soft-float size-first builds (lib/core/fp_contract.h's RFK_CORE_PLAIN_LOOPS condition), where each
// float operation is a call anyway, keep one out-of-line copy (144 B less on the Cortex-M0).
#if defined(__OPTIMIZE_SIZE__) && (defined(__SOFTFP__) || defined(__riscv_float_abi_soft))
#define RFK_WIDEN_INLINE_ inline
#else
#define RFK_WIDEN_INLINE_ [[gnu::always_inline]] inline
#endif
/// binary16 bits -> float, exact for every finite value (subnormals included), +-inf and NaN kept;
/// integer operations only (no F16C / FP16 instructions: cores without them run it too).
RFK_WIDEN_INLINE_ float HalfToFloat(std::uint16_t h) noexcept {
  const std::uint32_t sign = std::uint32_t{h & 0x8000u} << 16;
  std::uint32_t exp = (h >> 10) & 0x1Fu, mant = h & 0x3FFu, bits;
  if (exp == 0x1Fu) {
    bits = sign | 0x7F800000u | (mant << 13);
  } else if (exp != 0) {
    bits = sign | ((exp + 112u) << 23) | (mant << 13);
  } else if (mant == 0) {
    bits = sign;
  } else {  // subnormal: mant * 2^-24, normalised
    exp = 113;
    while ((mant & 0x400u) == 0) {
      mant <<= 1;
      --exp;
    }
    bits = sign | (exp << 23) | ((mant & 0x3FFu) << 13);
  }
  float f;
  __builtin_memcpy(&f, &bits, sizeof f);
  return f;
}

static_assert(format::EnumList<format::Storage>::kSupported == (1u << 1 | 1u << 2 | 1u << 3 | 1u << 5),
              "WeightAt, the scalar kernels (kernels_scalar.cc QuantDot, HeadRowQuant) and CheckWeights "
              "(model_open_arrays.cc) know f32, f16, int8 and f16-scaled: another storage needs its case there");
/// Element i of row `row` of w, widened: f32 as is, f16 exactly, int8 as scale[row] * q, f16-scaled
/// as scale[row] * h.
inline float WeightAt(const WeightsView& w, std::uint64_t i, std::uint64_t row) noexcept {
  if (w.type == WeightType::kF32) return static_cast<const float*>(w.data)[i];
  if (w.type == WeightType::kInt8) return w.scale[row] * static_cast<float>(static_cast<const std::int8_t*>(w.data)[i]);
  /// f16, f16-scaled: one inlined HalfToFloat for both (flash on the cores with an FPU).
  const float h = HalfToFloat(static_cast<const std::uint16_t*>(w.data)[i]);
  return w.type == WeightType::kF16 ? h : w.scale[row] * h;
}

/// The arrays of a Fastfood map as they lie in the model (format::fastfood): blocks of dp = d'
/// entries; G and S in `storage`, each a blocks x dp matrix as format::QuantMatrixBytes lays it out
/// (int8: the N = blocks dp bytes, zero padding to 4 bytes, one f32 scale per block); perm indices
/// packed in index_bits (ceil(log2 dp)) bits each, signs bits. dp = 0: none. (`storage` sits in the padding after
/// the counts: rfk_model's fixed size has no room for more.)
struct FastfoodArrays {
  std::uint32_t dp = 0;          ///< d', the padded input dimension (a power of two); 0: no Fastfood map
  std::uint32_t blocks = 0;      ///< ceil(F / d')
  std::uint32_t index_bits = 0;  ///< bits per packed permutation index, ceil(log2 d')
  WeightType storage = WeightType::kF32;  ///< of G and S
  const void* G = nullptr;               ///< the Gaussian scaling diagonal, blocks x d', in `storage`
  const void* S = nullptr;               ///< the length-correcting diagonal, blocks x d', in `storage`
  const std::uint8_t* perm = nullptr;    ///< blocks permutations of [0, d'), index_bits bits each
  const std::uint8_t* signs = nullptr;   ///< B's signs, one bit per entry (set: -1)
};
/// G or S (`data`, a.G or a.S) as a weight matrix whose rows are the blocks: entry k of block b is
/// WeightAt(view, k, b) (f32 as stored, f16 widened exactly, int8 as scale_b * q).
inline WeightsView FastfoodDiagonal(const FastfoodArrays& a, const void* data) noexcept {
  WeightsView w{a.storage, data, nullptr};
  if (format::HasRowScales(a.storage))
    w.scale = reinterpret_cast<const float*>(static_cast<const std::uint8_t*>(data) +
                                             ((std::size_t{a.dp} * a.blocks + 3) / 4 * 4));
  return w;
}
/// u[i] = w_i * u[i], i < n, with w_i = WeightAt(D, first + i, row): one of Fastfood's diagonals
/// (D = FastfoodDiagonal(a, a.G or a.S), row = the block) on a block's values; the scalar table's
/// ScaleByDiagonal (the kernel list below), whose bits every table's gives.
void ScaleByDiagonalRef(const WeightsView& D, std::uint32_t row, std::uint32_t first, std::uint32_t n,
                        float* u) noexcept;
/// Fastfood's B on a block: t[i] = (-1)^s_i v_i for i < dp, v_i = x[i] for i < n and 0 past it
/// (n <= dp; the padding's zeros take their sign too: -0.0f), s_i bit first + i of `signs` (LSB
/// first within each byte). The sign goes in as an XOR of the float's sign bit -- what -v does, bit
/// for bit -- so every table's bits are these. x may be t. The scalar table's ApplySigns.
void ApplySignsRef(const std::uint8_t* signs, std::uint32_t first, const float* x, std::uint32_t n,
                   std::uint32_t dp, float* t) noexcept;
/// Entry k of perm (k < blocks * dp <= 2^24 + 2^16): bits [k w, k w + w) of the packed stream, w =
/// index_bits <= 16, from the (at most 3) bytes that hold them and no byte past them.
inline std::uint32_t FastfoodIndex(const FastfoodArrays& a, std::uint32_t k) noexcept {
  const std::uint32_t w = a.index_bits, p = k * w;
  std::uint32_t v = 0;
  for (std::uint32_t i = p / 8, shift = 0; i * 8 < p + w; ++i, shift += 8) v |= std::uint32_t{a.perm[i]} << shift;
  return (v >> (p % 8)) & ((1u << w) - 1u);
}

/// Floats of scratch FastfoodFeatures needs for F frequencies: one block's input, and every
/// block's outputs rounded up to whole panels.
inline std::uint32_t FastfoodWorkFloats(const FastfoodArrays& a, std::uint32_t F) noexcept {
  const std::uint32_t outputs = a.blocks * a.dp, panels = (F + 15) / 16 * 16;
  return a.dp + (outputs > panels ? outputs : panels);
}

/// out[k] = bias[k] + sum_j H[k,j] z[j]  (H is K x D row-major), accumulated in float from the bias
/// in j order: (((bias[k] + H[k,0] z[0]) + H[k,1] z[1]) + ...). So a sum split into consecutive
/// parts, each part's call taking the previous one's out as its bias, gives the same bits however
/// it is split: Predict's blocks of features change no output bit whatever their size.
void LinearHeadRef(const float* H, const float* bias, const float* z, std::uint32_t K,
                   std::uint32_t D, float* out) noexcept;

/** @{ */
/// The Fourier features over a stored W (F rows, of StoredFrequencies in panels when `panels`,
/// else row-major): as FourierPhaseRef / FourierPairRef, with the dot product of row j
///   f32, f16: sum_c w_jc x_c, each weight widened exactly, in c order (so an f16 W gives the bits
///             the f32 reference kernels give on the widened W);
///   int8:     scale_j * (sum_c float(q_jc) x_c), the sum in c order, then one multiply;
///   f16-scaled: scale_j * (sum_c h_jc x_c), each h widened exactly, the same order and multiply
///             (a power-of-two scale, as rfk writes, makes this the f32 bits on scale_j * h_jc).
void FourierPhaseQuantRef(const WeightsView& W, bool panels, const float* b, const float* x,
                          std::uint32_t F, std::uint32_t d, float scale, float* z) noexcept;
void FourierPairQuantRef(const WeightsView& W, bool panels, const float* x, std::uint32_t F,
                         std::uint32_t d, float scale, float* z) noexcept;
/** @} */
/// out[k] = bias[k] + sum over z[0 .. D) of row k of H (rows `stride` elements apart), each weight
/// widened as WeightAt does (int8: scale_k * float(q_kj); f16: exactly; f16-scaled: scale_k * h_kj),
/// accumulated from the bias in j order: LinearHeadRef's bits on the widened weights. With
/// pair != 0, also the second half, row elements pair + j against z[D + j], each j's term right
/// after the first half's: acc += w_kj z_j, then acc += w_k,pair+j z_D+j (a [cos, sin] pair block:
/// the same bits whatever the block size). H may be f32 too, except in a device core built without
/// the f32 head (lib/core/core_config.h, RFK_HEAD_F32 0), which refuses such a head at open.
void LinearHeadQuantRef(const WeightsView& H, std::uint32_t stride, std::uint32_t pair, const float* bias,
                        const float* z, std::uint32_t K, std::uint32_t D, float* out) noexcept;

/// Random binning: key[p] = a 64-bit hash of grid p's bin vector
/// (floor((x[m] - offset[p*d+m]) * inv_width[p*d+m]))_m, seeded per grid from `seed`. Bin indices
/// are clamped to +-2^30 before hashing (inputs that far out share an edge bin; a NaN index, as
/// from inf * 0, counts as bin 0). Integer-exact: the
/// same x gives the same keys on every platform. x must be finite.
void BinKeysRef(const float* inv_width, const float* offset, const float* x, std::uint32_t P,
                std::uint32_t d, std::uint64_t seed, std::uint64_t* keys) noexcept;

/// Column of `key` in hashed mode with B buckets per grid: p * B + ((key >> 32) * B >> 32).
inline std::uint32_t HashedColumn(std::uint64_t key, std::uint32_t p, std::uint32_t B) noexcept {
  return p * B + static_cast<std::uint32_t>(((key >> 32) * B) >> 32);
}

// ---------------------------------------------------------------- kernel table
/// The one seam between the core and SIMD code. Every backend (scalar, each Highway target, xsimd)
/// fills a KernelTable; RFK_KERNEL_LIST is the single list that generates the table, the parity
/// tests and the benchmarks. W is in panel layout (format::Layout::kPanels): Wp holds
/// StoredFrequencies(F) rows; F need not be a multiple of the panel width. All kernels: no
/// allocation, no exceptions; pointers need natural float alignment only.
///
///   Standardize        out[c] = (x[c] - mean[c]) * inv_scale[c] (out may be x)
///   StandardizeF16     the same with mean and inv_scale stored as binary16 bits, each widened
///                      exactly as it is read (HalfToFloat): the bits Standardize gives on the
///                      widened vectors (out may be x)
///   FourierPhase       z[j] = scale cos(W_j.x + b_j), j < F
///   FourierPair        z[j] = scale cos(W_j.x), z[F + j] = scale sin(W_j.x), j < F
///   Fourier*HeadBatch  batch prediction: out[i*K + k] = bias[k] + H[k*Df .. +Df) . z(X_i) for n
///                      samples (X: n x d row-major; Df = F phase, 2F pair), the features never
///                      stored whole. acc: HeadBatchScratchFloats(n, K) floats of scratch.
///   LinearHead         out[k] = bias[k] + H[k*stride .. +D) . z[0 .. D), plus, with pair != 0,
///                      H[k*stride + pair .. +D) . z[D .. 2D) (a pair block's sines: their head
///                      columns start `pair` after the cosines'); bias may be out (Predict adds
///                      its blocks so). The scalar table sums as LinearHeadQuantRef on f32
///                      weights: from the bias, in j order, each sine's term after its cosine's
///   BinKeys            as BinKeysRef (identical keys from every backend)
///   Fwht               as FwhtRef, in place (n a power of two; identical bits from every backend)
///   ApplySigns         as ApplySignsRef: Fastfood's B (identical bits from every backend)
///   ScaleByDiagonal    u[i] = w_i * u[i], i < n, w_i element first + i of row `row` of D widened as
///                      WeightAt does (f32 as stored, f16 exactly, int8 and f16-scaled as
///                      scale[row] * q, that product first): Fastfood's G and S. One multiply per
///                      element after the widening, so identical bits from every backend
///   FourierQuant       FourierPhaseQuantRef (b given) or FourierPairQuantRef (b null): W stored
///                      f16 or int8 (panels or row-major), each weight widened as it is read
///   LinearHeadQuant    as LinearHeadQuantRef: H stored f16, int8 or f16-scaled, pairs as
///                      LinearHead's (bias may be out)
///   (A device core built for size calls the scalar table's FourierQuant and LinearHeadQuant on
///   f32 W and heads too, whose bits are then the f32 kernels': lib/core/scalar_table.h.)
///
/// Accuracy against the scalar oracle: SIMD backends may fuse multiply-adds and sum in another
/// order; features agree within 1e-5 absolute, head outputs within 1e-5 * max(1, sum_j |H_kj|),
/// bin keys, Walsh-Hadamard transforms, signs and diagonal scalings exactly (tests/device/test_parity.cc).
/// "Identical bits" holds for normal floats (and zeros, infinities): the Cortex-M55's Helium table
/// (lib/core/kernels_helium.h) flushes a denormal operand (below 1.2e-38) to zero, as MVE's vector
/// float operations do, where the scalar table keeps it.
#define RFK_KERNEL_LIST(X)                                                                      \
  X(Standardize, (const float* x, const float* mean, const float* inv_scale, std::uint32_t d,  \
                  float* out))                                                                 \
  X(StandardizeF16, (const float* x, const std::uint16_t* mean, const std::uint16_t* inv_scale, \
                     std::uint32_t d, float* out))                                             \
  X(FourierPhase, (const float* Wp, const float* b, const float* x, std::uint32_t F,           \
                   std::uint32_t d, float scale, float* z))                                    \
  X(FourierPair, (const float* Wp, const float* x, std::uint32_t F, std::uint32_t d,           \
                  float scale, float* z))                                                      \
  X(FourierPhaseHeadBatch, (const float* Wp, const float* b, const float* X, std::uint32_t n,  \
                            std::uint32_t F, std::uint32_t d, float scale, const float* H,     \
                            const float* bias, std::uint32_t K, float* acc, float* out))       \
  X(FourierPairHeadBatch, (const float* Wp, const float* X, std::uint32_t n, std::uint32_t F,  \
                           std::uint32_t d, float scale, const float* H, const float* bias,    \
                           std::uint32_t K, float* acc, float* out))                           \
  X(LinearHead, (const float* H, std::uint32_t stride, std::uint32_t pair, const float* bias,  \
                 const float* z, std::uint32_t K, std::uint32_t D, float* out))                \
  X(BinKeys, (const float* inv_width, const float* offset, const float* x, std::uint32_t P,    \
              std::uint32_t d, std::uint64_t seed, std::uint64_t* keys))                         \
  X(Fwht, (float* x, std::uint32_t n))                                                         \
  X(ApplySigns, (const std::uint8_t* signs, std::uint32_t first, const float* x, std::uint32_t n, \
                 std::uint32_t dp, float* t))                                                  \
  X(ScaleByDiagonal, (const WeightsView& D, std::uint32_t row, std::uint32_t first,            \
                      std::uint32_t n, float* u))                                              \
  X(FourierQuant, (const WeightsView& W, bool panels, const float* b, const float* x,          \
                   std::uint32_t F, std::uint32_t d, float scale, float* z))                   \
  X(LinearHeadQuant, (const WeightsView& H, std::uint32_t stride, std::uint32_t pair,          \
                      const float* bias, const float* z, std::uint32_t K, std::uint32_t D,     \
                      float* out))

/// Scratch of the Fourier*HeadBatch kernels for n samples and K outputs, in floats: lane-wise head
/// sums, one 16-float vector per sample and output.
inline constexpr std::size_t HeadBatchScratchFloats(std::uint32_t n, std::uint32_t K) noexcept {
  return std::size_t{n} * K * 16;
}

/// The kernels one instruction set provides (RFK_KERNEL_LIST): what Predict calls through, chosen at
/// runtime (ActiveKernels). Every table's results agree with ScalarKernels() within the contract's
/// tolerances.
struct KernelTable {
  const char* backend;  ///< "scalar", "hwy", "xsimd"
  const char* target;   ///< "scalar", "AVX3", "AVX2", "SSE4", "NEON", ...
#define RFK_KERNEL_MEMBER(name, params) void(*name) params noexcept;
  RFK_KERNEL_LIST(RFK_KERNEL_MEMBER)
#undef RFK_KERNEL_MEMBER
};

/// z of a Fastfood map for F frequencies (x: d <= a.dp inputs, zero-padded to a.dp): per block,
/// u = S (H (G (Pi (H (B [x; 0]))))) with (Pi t)[i] = t[perm[i]] (rows of the last block past F
/// dropped), then the pair form (phase null) or the phase form with u in place of W x: kt's
/// FourierPair / FourierPhase on u as a one-column W in panels and x = [1] (u_j * 1 + 0 = u_j
/// exactly, also when fused, except that -0 becomes +0). With ScalarKernels() these are the
/// reference bits (the host trainer computes them so); another table's Fwht gives the same bits and
/// its cosines the FourierPair tolerance. work: FastfoodWorkFloats floats. No allocation; features
/// whose argument is beyond kSinCosMaxArg are NaN. (Defined in lib/core/predict.cc.)
void FastfoodFeatures(const FastfoodArrays& a, const float* x, std::uint32_t d, std::uint32_t F,
                      const float* phase, float scale, float* work, float* z,
                      const KernelTable& kt) noexcept;

/// The scalar table: the oracle, compiled everywhere. Its Fourier kernels give bit-identical
/// results to FourierPhaseRef / FourierPairRef on the same W in row-major layout.
const KernelTable& ScalarKernels() noexcept;

/// Every table compiled into this build that this CPU supports, best first (the scalar table is
/// always last). Detection uses CPUID / auxv through the SIMD library, never the environment.
std::size_t KernelTableCount() noexcept;
const KernelTable* KernelTableAt(std::size_t index) noexcept;  ///< null past the end

/// The tables Predict uses: the best by default. SelectKernels("AVX2"), ("hwy-AVX2"),
/// ("xsimd"), ("scalar") ... switches every later call in the process (thread-safe); returns
/// false, changing nothing, when no supported table has that name. Matching: "backend-target",
/// the target alone, or the backend alone (its best target).
const KernelTable& ActiveKernels() noexcept;
/// Switches ActiveKernels() to the table `name` names (as above); false, changing nothing, when none.
bool SelectKernels(const char* name) noexcept;

}  // namespace rfk

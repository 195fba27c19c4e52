// What this build of the core accepts (docs/EMBEDDED.md, "Choosing what the core reads"): the float
// path (RFK_CORE_FLOAT) and the integer path (RFK_CORE_FIXED), both 1 unless the build says 0
// (CMake: -DRFK_CORE_FLOAT=OFF / -DRFK_CORE_FIXED=OFF, or rfk_core_variant). The switch sits at the
// dispatch points only -- OpenModel's validator list (model_open.cc), Predict's entry (predict.cc)
// -- so that the compiler drops the validators and kernels a build cannot use; a model of a kind
// compiled out is refused at open with kUnsupportedMap or kUnsupportedStorage and its field.
// Internal to lib/core.
#pragma once

// rfk/model.hpp: kPinFieldsVersion, Model; through rfk/model_layout.h, the configuration written for
// one model (`rfk export --config-header`) when the build names it (RFK_CONFIG_HEADER), and the
// defaults of the switches below that it leaves unset (RFK_CORE_FLOAT ... RFK_READ_NAMES: 1).
#include "rfk/model.hpp"

// RFK_CORE_SMALL: size over speed (0 unless the build says 1: rfk_add_core's SMALL, rfk.mk's
// RFK_SMALL=1, or -DRFK_CORE_SMALL=1). The same outputs, to the bit, from the core's plainest loops:
// one accumulator a row (RFK_CORE_PLAIN_LOOPS, below); the integer path's cosine table computed
// rather than stored (quarter_cos.h: about 400 bytes less); on cores with the Arm DSP extension or
// MVE, the integer path's scalar kernels (RFK_FIXED_DSP 0: fixed_kernels.h); on those with MVE-F,
// the scalar kernel table alone (RFK_HELIUM 0: kernels_helium.h); the integer Fastfood's roundings
// without their common-shift path (fixed_predict_fastfood.cc). docs/EMBEDDED.md gives what it
// saves and costs per kind and core.
#ifndef RFK_CORE_SMALL
#define RFK_CORE_SMALL 0
#endif
// RFK_CORE_PLAIN_LOOPS: the scalar kernels' plainest loops (kernels_scalar.cc,
// kernels_scalar_maps.cc), where the others keep several sums in registers and unroll. Defined for
// a core built for size, and on builds that optimise for size where every float operation is a
// library call (the soft-float firmware presets: Cortex-M0, M3, M33 without FPU, RV32IMC): there,
// restructured loops save a few instructions next to each call's few dozen and cost flash.
#if !defined(RFK_CORE_PLAIN_LOOPS) && \
    (RFK_CORE_SMALL || (defined(__OPTIMIZE_SIZE__) && (defined(__SOFTFP__) || defined(__riscv_float_abi_soft))))
#define RFK_CORE_PLAIN_LOOPS 1
#endif

// Fastfood maps on the integer path (lib/core/fixed_predict_fastfood.cc, fixed_open_fastfood.cc):
// 1 unless the build says 0 (rfk_core_variant's extra definitions); the smallest fixed-only image
// (targets/cortex-m fixed_image_limits: 16 KiB flash, rfk_core_fixed_min) is built with 0, and
// then a Fastfood fixed model is refused at open with kUnsupportedMap at `fixed`.
// Within the integer path: binning maps (fixed_predict_binning.cc, fixed_open_binning.cc), 1 unless the
// build says 0 (rfk_core_variant's extra definitions: the 16 KB Cortex-M0 image leaves it out). A
// fixed model with grids is then refused at open: kUnsupportedMap at `fixed`.
// Within the float path (each 1 unless the build says 0; `rfk export --config-header` writes them
// for a model): dense Fourier and orthogonal maps (a projection W), Fastfood maps, random binning,
// and storages other than f32 (f16, int8, f16-scaled: W, Fastfood's diagonals, the head). A model
// that needs one compiled out is refused at open: kUnsupportedMap at map_params.map_kind (a map) or
// binning_params, kUnsupportedStorage at map_params.storage or head_params.storage.
// RFK_HEAD_F32: the float path's f32 head (the LinearHead kernel), 1 unless the build says 0;
// `rfk export --config-header` writes 0 for a model whose head is stored f16 or int8, whose core then
// links the quantized head's loop alone. A float model with an f32 head is refused at open:
// kUnsupportedStorage at head.storage.

// The model's form and optional sections (each 1 unless the build says 0; `rfk export
// --config-header` writes them for a model), refused at open when compiled out, at the field named:
// - RFK_FORM_PAIR, RFK_FORM_PHASE: the [cos, sin] pair form and the cos + phase form of the float
//   path's Fourier features (every dense and Fastfood kind has one of the two): kUnsupportedMap at
//   map_params.map_kind.
// - RFK_LAYOUT_ROWS: a row-major W (format 1.0's writers; rfk writes panels): kUnsupportedStorage
//   at map_params.layout.
// - RFK_READ_IMPUTE: the impute section (NaN inputs replaced): kUnsupportedSection at its entry.
// - RFK_READ_CALIBRATION: the calibration section (the calibrated decision, class probabilities):
//   kUnsupportedSection at its entry.
// - RFK_READ_NAMES: the labels and feature_names sections. Never refused: a core without it does
//   not read them (they do not change an output), and ClassLabel / FeatureName give "".
// RFK_BATCH_KERNELS: the float path's batch kernels (Fourier*HeadBatch), which PredictBatch runs on
// blocks of rows of a dense f32 model. Never refused: a core without them predicts each row of a
// batch with Predict (the same outputs within the kernel contract's tolerance, each row's as
// Predict gives it). 1 unless the build says 0; `rfk export --config-header` writes 0 (a firmware
// that predicts one input at a time does not link them).
#ifndef RFK_BATCH_KERNELS
#define RFK_BATCH_KERNELS 1
#endif
// RFK_FEATURE_BLOCK: features per block of Predict (rfk/model.hpp, kFeatureBlock: 128 unless the
// build says otherwise; a positive multiple of kMinFeatureBlock, 32). The scratch holds one block
// (4 bytes a feature), so a smaller block is less RAM; the outputs are the same bits (the scalar
// head's order knows no blocks), for a few more kernel calls a prediction. `rfk export
// --config-header` writes 32.
#ifndef RFK_FEATURE_BLOCK
#define RFK_FEATURE_BLOCK 128
#endif
// RFK_ERROR_FIELDS: the field names of the open's failure reports (ModelError::field,
// rfk_model_error's field: "header.crc32", "map_params.kernel", ...), 1 unless the build says 0.
// Built with 0, every report's field is "" and its status and byte offset are as before, and the
// names are not in the image: each validator's name is dropped where it is written (Field, below).
// The host, whose core has the names, reports the field of the same bytes (`rfk inspect`).
#ifndef RFK_ERROR_FIELDS
#define RFK_ERROR_FIELDS 1
#endif
// RFK_FIXED_ON_USE: on firmware, the whole core reads fixed sections in the images that link the
// integer path's prediction, and only there. OpenModel reaches the fixed section's validator through a constant
// defined beside PredictFixed, which it references weakly (fixed_open.h); a linker does not take an
// object out of an archive for a weak reference (the ELF rule GNU ld, lld and armlink follow), so
// a firmware that links the core from its archive (rfk_add_core, rfk.mk, the installed
// librfk_core.a) and calls none of the integer path's functions that take a model (the C API's
// rfk_predict_fixed, rfk_fixed_scratch_bytes, rfk_quantize_input, ...; in C++ PredictFixed,
// FixedScratchBytes, DecideClassFixed, FixedOutputScale) links neither the validator nor the
// integer path: it refuses a fixed-only model at open (kUnsupportedStorage at `fixed`, its table
// entry: it could not predict it) and opens a model with both paths for rfk_predict without reading
// its fixed section (FixedSection gives null). An image that calls PredictFixed, or that links
// every object of the core by name, reads the section. 1 on firmware targets -- ELF objects for no
// operating system (__ELF__ without __unix__: arm-none-eabi, riscv*-elf), where flash is what this
// saves -- unless the build says 0; 0 elsewhere (a host's core always reads the section).
#if !defined(RFK_FIXED_ON_USE)
#if defined(__ELF__) && !defined(__unix__)
#define RFK_FIXED_ON_USE 1
#else
#define RFK_FIXED_ON_USE 0
#endif
#endif

namespace rfk::core {

inline constexpr bool kCoreFloat = RFK_CORE_FLOAT != 0;  // float models: Predict, every map and storage
inline constexpr bool kCoreFixed = RFK_CORE_FIXED != 0;  // fixed-point models: the fixed section, PredictFixed
inline constexpr bool kFixedDense = kCoreFixed && RFK_FIXED_DENSE != 0;  // dense Fourier fixed models
inline constexpr bool kFixedFastfood = kCoreFixed && RFK_FIXED_FASTFOOD != 0;  // Fastfood fixed models
inline constexpr bool kFixedBinning = kCoreFixed && RFK_FIXED_BINNING != 0;  // binning on the integer path
inline constexpr bool kFloatDense = kCoreFloat && RFK_FLOAT_DENSE != 0;        // W: dense Fourier, ORF
inline constexpr bool kFloatFastfood = kCoreFloat && RFK_FLOAT_FASTFOOD != 0;  // Fastfood's transform
inline constexpr bool kFloatBinning = kCoreFloat && RFK_FLOAT_BINNING != 0;    // bin keys and columns
inline constexpr bool kFloatQuant = kCoreFloat && RFK_FLOAT_QUANT != 0;        // f16 / int8 weights
// Within kFloatQuant, the storages the float path reads for W, Fastfood's diagonals and the head:
// int8, and f16 with f16-scaled (an f16 standardisation needs kFloatQuant alone: with f32 weights
// both may be 0). A model whose weights are stored in one left out is refused at open
// (kUnsupportedStorage), so the kernels compile no widening for it.
inline constexpr bool kFloatInt8 = kFloatQuant && RFK_FLOAT_INT8 != 0;
inline constexpr bool kFloatF16 = kFloatQuant && RFK_FLOAT_F16 != 0;
inline constexpr bool kHeadF32 = kCoreFloat && RFK_HEAD_F32 != 0;              // an f32 head (LinearHead)
static_assert(!kCoreFloat || kHeadF32 || kFloatQuant, "rfk core: RFK_HEAD_F32 and RFK_FLOAT_QUANT are both 0: no head");
inline constexpr bool kFormPair = kCoreFloat && RFK_FORM_PAIR != 0;    // z = [cos, sin] (pair kinds)
inline constexpr bool kFormPhase = kCoreFloat && RFK_FORM_PHASE != 0;  // z = cos(Wx + b) (phase kinds)
inline constexpr bool kLayoutRows = kCoreFloat && RFK_LAYOUT_ROWS != 0;  // row-major W (format 1.0)
inline constexpr bool kReadImpute = RFK_READ_IMPUTE != 0;
inline constexpr bool kReadCalibration = RFK_READ_CALIBRATION != 0;
inline constexpr bool kReadNames = RFK_READ_NAMES != 0;
inline constexpr bool kBatchKernels = kFloatDense && RFK_BATCH_KERNELS != 0;  // PredictBatch's block kernels
static_assert(kCoreFloat || kCoreFixed, "rfk core: RFK_CORE_FLOAT and RFK_CORE_FIXED are both 0");

// Whether the float path reads a quantized W, diagonals or head stored as `st` (f32 is not asked:
// W and the diagonals always, the head with kHeadF32).
constexpr bool QuantStorageBuilt(format::Storage st) {
  return st == format::Storage::kInt8 ? kFloatInt8 : kFloatF16;
}

// Whether weights of a quantized storage `t` (never f32) are int8: a compile-time answer where
// the build reads one quantized storage alone.
constexpr bool IsInt8(WeightType t) { return kFloatInt8 && (!kFloatF16 || t == WeightType::kInt8); }

// WeightAt (rfk/kernels.hpp) for the storages this build reads: f32, and int8 and f16 only where
// built (the others were refused at open). WeightAt's value for every view of such a storage.
// Out of line in a core built for size that has both its callers, the bins' head weights and
// Fastfood's diagonals (one copy for both; each calls it once per bin or diagonal entry).
#if RFK_CORE_SMALL && RFK_FLOAT_BINNING && RFK_FLOAT_FASTFOOD
[[gnu::noinline]]
#endif
inline float BuiltWeightAt(const WeightsView& w, std::uint64_t i, std::uint64_t row) noexcept {
  if (w.type == WeightType::kF32) return static_cast<const float*>(w.data)[i];
  if (IsInt8(w.type))
    return w.scale[row] * static_cast<float>(static_cast<const std::int8_t*>(w.data)[i]);
  const float h = HalfToFloat(static_cast<const std::uint16_t*>(w.data)[i]);
  return w.type == WeightType::kF16 ? h : w.scale[row] * h;
}

// A validator's field name as it writes it (a literal): the name itself, or, built with
// RFK_ERROR_FIELDS 0, an empty value that drops the literal at compile time; FieldText gives what
// the report holds ("" without the names).
#if RFK_ERROR_FIELDS
using Field = const char*;
constexpr const char* FieldText(Field field) { return field; }
#else
struct Field {
  constexpr Field(const char*) {}  // NOLINT(google-explicit-constructor): every literal converts
};
constexpr const char* FieldText(Field) { return ""; }
#endif

inline constexpr std::uint32_t kFeatureBlock = RFK_FEATURE_BLOCK;  // Predict's block in this build
static_assert(kFeatureBlock >= kMinFeatureBlock && kFeatureBlock % kMinFeatureBlock == 0,
              "rfk core: RFK_FEATURE_BLOCK must be a positive multiple of 32");

// A core pinned to one model (`rfk export --config-header --pin`: RFK_PIN_BYTES, RFK_PIN_CRC32,
// RFK_PIN_MODEL, RFK_PIN_FIELDS_VERSION): OpenModel (model_open_pinned.cc) accepts only the bytes
// of that model -- its size and CRC-32, both in the header, and the CRC recomputed over the bytes
// -- and fills the Model from the values `rfk export` took from the host's full OpenModel, which
// checked every field of those very bytes. Any other model is refused with kOtherModel at
// header.crc32 (kBadMagic, kTruncated, kBadChecksum as usual); the validators are not linked.
// The sources choose by the macro itself (#ifdef RFK_PIN_MODEL: one OpenModel or the other).
#ifdef RFK_PIN_MODEL
static_assert(RFK_PIN_FIELDS_VERSION == kPinFieldsVersion,
              "rfk core: the pinned configuration was written for another version of rfk::Model; "
              "write it again with this rfk's `rfk export --config-header --pin`");
// OpenModel's checks without the Model: the bytes are the pinned model's (alignment, size, magic,
// version, CRC-32 against the pin and recomputed), or the status and field that say why not, in
// *error (when not null) as the caller reports them: ModelError (OpenModel) or rfk_model_error
// (rfk_open, which then copies nothing). Defined for those two (model_open_pinned.cc).
template <class Error>
Status CheckPinned(const void* bytes, std::size_t size, Error* error) noexcept;
#endif

}  // namespace rfk::core

// kPinnedModel, the Model of a pinned core (its values, a constant every source sees), and ModelOf.
#include "pinned_model.h"

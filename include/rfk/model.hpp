/// @file
/// The device core's public API: open a model in place, size the scratch memory, predict.
///
/// Contract for everything declared here: no heap allocation, no exceptions, no RTTI, no I/O, no
/// environment access; every function is reentrant. A Model is a read-only view into the caller's
/// bytes (which must outlive it); any number of threads may predict with one Model concurrently,
/// each with its own scratch buffer.
#pragma once

#include <cstddef>
#include <cstdint>

#include "rfk/format.hpp"
#include "rfk/model_layout.h"
#include "rfk/kernels.hpp"
#include "rfk/status.hpp"

namespace rfk {

/// Scratch buffers handed to Predict must be aligned to this many bytes.
inline constexpr std::size_t kScratchAlignment = 16;

#if RFK_MODEL_CONFIGURED && (defined(__GNUC__) || defined(__clang__))
#define RFK_MODEL_STR2_(x) #x
#define RFK_MODEL_STR_(x) RFK_MODEL_STR2_(x)
#define RFK_MODEL_ABI_ [[gnu::abi_tag(RFK_MODEL_STR_(RFK_MODEL_LAYOUT_ID))]]
#else
#define RFK_MODEL_ABI_
#endif

/// A member of a configured Model (rfk/model_layout.h) that the configuration fixes: it reads as
/// the value `v` of type T wherever a T is wanted, and compares as one without the compiler's
/// "comparison is always false" warnings a plain constant draws in loops written for any model.
template <class T, T v>
struct ModelConstant {
  constexpr operator T() const noexcept { return v; }  ///< the value v
};

#if RFK_MODEL_CONFIGURED
/// A configured Model's Fastfood arrays (rfk/model_layout.h): the diagonals' storage and G; d',
/// the block count, S, the permutations and the signs follow from them, d and F (FastfoodOf).
struct FastfoodStored {
  WeightType storage = WeightType::kF32;  ///< of G and S
  const void* G = nullptr;                ///< null: no Fastfood arrays on the float path
};
#endif

/// A validated view of a model blob. Filled by OpenModel; all pointers point into the blob.
///
/// In a core built with a configuration (RFK_CONFIG_HEADER, not pinned: rfk/model_layout.h), the
/// members that configuration never reads are static constants with the value every model it
/// accepts leaves there (0, null, panels), and the informational and redundant ones (total_bytes,
/// the versions, kernel, gamma, seed, bin_gamma, metadata, impute_method; projection_storage and
/// head_storage, which ProjectionView and HeadView give; what the format's arrangement gives, which
/// NumClasses ... FastfoodOf below derive) are not members: the Model holds what prediction reads,
/// 48 bytes on a 32-bit core for a dense f32 model. Its type is then
/// tagged with the layout, so code compiled against another layout does not link with it.
struct RFK_MODEL_ABI_ Model {
  const std::uint8_t* bytes = nullptr;  ///< the blob OpenModel opened (the caller's; not copied)
#if RFK_MODEL_HAS_INFO
  std::uint32_t total_bytes = 0;        ///< the model's size from its header (the blob may be longer)
  std::uint16_t version_major = 0;      ///< format version (format::kVersionMajor)
  std::uint16_t version_minor = 0;      ///< format minor version: additions an older reader skips
#endif

  std::uint32_t input_dim = 0;        ///< d, shared by both maps
  std::uint32_t num_features = 0;     ///< D = fourier_features + bin_features: length of z(x)

  /// Random Fourier map (absent when fourier_features == 0): its kind (dense, orthogonal, Fastfood,
  /// QMC; pair or phase form).
#if RFK_MODEL_HAS_MAP
  format::MapKind map = format::MapKind::kFourier;
#else
  static constexpr ModelConstant<format::MapKind, format::MapKind::RFK_ML_MAP_> map{};
#endif
#if RFK_MODEL_HAS_INFO
  format::Kernel kernel = format::Kernel::kGaussian;  ///< the kernel the map approximates
#endif
#if RFK_MODEL_HAS_FOURIER
  std::uint32_t fourier_features = 0;  ///< dense features, z[0 .. fourier_features)
  std::uint32_t num_frequencies = 0;  ///< F, rows of W
#else
  static constexpr ModelConstant<std::uint32_t, 0> fourier_features{};  // a core that reads binning alone
  static constexpr ModelConstant<std::uint32_t, 0> num_frequencies{};
#endif
#if RFK_MODEL_HAS_INFO
  float gamma = 0.0f;          ///< the kernel's parameter (> 0)
#endif
#if RFK_MODEL_HAS_FLOAT && RFK_MODEL_HAS_FOURIER
  float feature_scale = 0.0f;  ///< multiplies every Fourier feature (sqrt(2/D) phase, 1/sqrt(F) pairs)
#else
  static constexpr float feature_scale = 0.0f;
#endif
#if RFK_MODEL_HAS_INFO
  std::uint64_t seed = 0;      ///< the seed W (and b) were drawn with (informational)
#endif
#if RFK_MODEL_HAS_LAYOUT
  format::Layout layout = format::Layout::kRowMajor;  ///< W's layout (row-major or 16-wide panels)
#else
  static constexpr ModelConstant<format::Layout, format::Layout::kPanels> layout{};
#endif
#if RFK_MODEL_HAS_QUANT && RFK_MODEL_CONFIGURED
  /// The standardisation's byte offset in `bytes` (a multiple of 16; 0: none), plus 1 where it is
  /// f16: StandardizeMean and StandardizeF16Values read it.
  std::uint32_t standardize_at = 0;
#elif RFK_MODEL_HAS_QUANT
  /// The f16 standardisation's byte offset in `bytes` (StandardizeF16Values), 0 when it is f32 or
  /// absent. An offset in what was padding: a pointer would take Model past 384 bytes on 64-bit
  /// hosts (rfk_model's size, rfk.h RFK_MODEL_HANDLE_BYTES), and past 256 bytes on 32-bit ones,
  /// where GCC then builds OpenModel's Model{} on the stack (240 B more of rfk_open's stack on the
  /// Cortex-M).
  std::uint32_t standardize_f16_at = 0;
#else
  static constexpr ModelConstant<std::uint32_t, 0> standardize_f16_at{};
#endif
#if RFK_MODEL_HAS_DENSE
  const float* projection = nullptr;  ///< W in `layout` (see format.hpp) when stored f32, else null
#else
  static constexpr ModelConstant<const float*, nullptr> projection{};
#endif
#if RFK_MODEL_HAS_INFO
  format::Storage projection_storage = format::Storage::kF32;  ///< of W, or of Fastfood's G and S
#endif
#if RFK_MODEL_HAS_QUANT && RFK_MODEL_HAS_DENSE
  WeightsView projection_weights;     ///< W as stored, any storage (data null without W)
#endif
#if RFK_MODEL_HAS_PHASE
  const float* phase = nullptr;       ///< F, or null for the pair form
#else
  static constexpr ModelConstant<const float*, nullptr> phase{};
#endif
#if RFK_MODEL_HAS_FASTFOOD && RFK_MODEL_CONFIGURED
  FastfoodStored fastfood;            ///< Fastfood kinds' G and its storage (FastfoodOf gives the rest)
#elif RFK_MODEL_HAS_FASTFOOD
  FastfoodArrays fastfood;            ///< Fastfood kinds (projection null); dp = 0 otherwise (FastfoodOf)
#else
  static constexpr FastfoodArrays fastfood = {};
#endif
#if RFK_MODEL_HAS_BINNING
  /// Random binning map (absent when num_grids == 0); its columns follow the Fourier features.
  std::uint32_t num_grids = 0;         ///< P
  format::BinMode bin_mode = format::BinMode::kExact;  ///< exact (keys stored) or hashed (B buckets)
  std::uint32_t bin_buckets = 0;       ///< B per grid (hashed mode)
#if RFK_MODEL_HAS_INFO
  std::uint32_t bin_features = 0;      ///< D_B: exact: keys stored; hashed: P * B (BinFeatures)
  float bin_gamma = 0.0f;              ///< the Laplacian kernel's parameter of the binning map
#endif
#if RFK_MODEL_HAS_BIN_FLOAT
  float bin_scale = 0.0f;              ///< value of an occupied bin's feature, 1/sqrt(P)
#else
  static constexpr float bin_scale = 0.0f;
#endif
  std::uint64_t bin_seed = 0;          ///< the seed of the grids and the bin hash
#if RFK_MODEL_HAS_BIN_FLOAT
  const float* bin_inv_width = nullptr;  ///< P x d (the float path's grids; null in a fixed-only model)
#else
  static constexpr ModelConstant<const float*, nullptr> bin_inv_width{};
#endif
#if RFK_MODEL_HAS_INFO
  const float* bin_offset = nullptr;     ///< P x d, after bin_inv_width (BinOffset)
#endif
  const std::uint8_t* bin_grid_start = nullptr;  ///< exact: (P + 1) little-endian u32
#if RFK_MODEL_HAS_INFO
  const std::uint64_t* bin_keys = nullptr;       ///< exact: sorted within each grid (BinKeys)
#endif
#else
  static constexpr ModelConstant<std::uint32_t, 0> num_grids{};
  static constexpr ModelConstant<format::BinMode, format::BinMode::kExact> bin_mode{};
  static constexpr ModelConstant<std::uint32_t, 0> bin_buckets{};
  static constexpr float bin_scale = 0.0f;
  static constexpr std::uint64_t bin_seed = 0;
  static constexpr ModelConstant<const float*, nullptr> bin_inv_width{};
  static constexpr ModelConstant<const std::uint8_t*, nullptr> bin_grid_start{};
#endif

  /// Standardisation (format: `standardize`) in f32: mean and inv_scale, d each; null when it is f16
  /// (standardize_f16_at above) or absent (IsStandardized); StandardizeMean in every build.
#if RFK_MODEL_HAS_FLOAT && !(RFK_MODEL_HAS_QUANT && RFK_MODEL_CONFIGURED)
  const float* mean = nullptr;       ///< subtracted from each input column (d)
#elif !RFK_MODEL_HAS_FLOAT
  static constexpr ModelConstant<const float*, nullptr> mean{};
#endif
#if RFK_MODEL_HAS_INFO
  const float* inv_scale = nullptr;  ///< then multiplied by (d), after mean (InvScale)
#endif

  format::Task task = format::Task::kRegression;  ///< regression, binary or multiclass (K outputs)
  std::uint32_t num_outputs = 0;      ///< K
#if RFK_MODEL_HAS_HEAD_F32
  const float* head_weights = nullptr;  ///< K x D, row-major, when stored f32; else null
#else
  static constexpr ModelConstant<const float*, nullptr> head_weights{};
#endif
#if RFK_MODEL_HAS_INFO
  format::Storage head_storage = format::Storage::kF32;  ///< f32, f16, f16-scaled or int8
#endif
#if RFK_MODEL_HAS_QUANT
  WeightsView head;                     ///< the K x D weights as stored, any storage (HeadView)
#endif
#if RFK_MODEL_HAS_INFO
  const float* head_bias = nullptr;     ///< K, after the weights (HeadBias)
  std::uint32_t num_classes = 0;      ///< 0 for regression, 2 binary, K multi-class (NumClasses)
#endif
#if RFK_MODEL_HAS_NAMES
  const std::uint8_t* label_offsets = nullptr;  ///< (C + 1) little-endian u32, maybe unaligned
  const char* label_pool = nullptr;   ///< the labels' NUL-terminated strings (ClassLabel reads them)
#else
  static constexpr ModelConstant<const std::uint8_t*, nullptr> label_offsets{};
  static constexpr ModelConstant<const char*, nullptr> label_pool{};
#endif

#if RFK_MODEL_HAS_INFO
  const char* metadata = nullptr;     ///< not NUL-terminated; metadata_bytes long
  std::uint32_t metadata_bytes = 0;   ///< 0 without a metadata section
#endif

  /// Optional sections about the inputs (null / 0 when absent).
#if RFK_MODEL_HAS_IMPUTE
  const float* impute = nullptr;      ///< d values that replace NaN inputs (format::impute)
#else
  static constexpr ModelConstant<const float*, nullptr> impute{};
#endif
#if RFK_MODEL_HAS_INFO
  format::ImputeMethod impute_method = format::ImputeMethod::kMean;  ///< how training computed them
#endif
#if RFK_MODEL_HAS_NAMES
  std::uint32_t num_names = 0;        ///< d + 1 when the model stores feature names, else 0
  const std::uint8_t* name_offsets = nullptr;  ///< (num_names + 1) little-endian u32
  const char* name_pool = nullptr;   ///< the names' NUL-terminated strings (FeatureName reads them)
#else
  static constexpr ModelConstant<std::uint32_t, 0> num_names{};
  static constexpr ModelConstant<const std::uint8_t*, nullptr> name_offsets{};
  static constexpr ModelConstant<const char*, nullptr> name_pool{};
#endif

#if RFK_MODEL_HAS_CALIBRATION
  /// Optional calibration of a classifier's outputs (format::calibration); method 0 when absent.
  std::uint32_t calibration_method = 0;  ///< a format::CalibrationMethod number, or 0
#else
  static constexpr ModelConstant<std::uint32_t, 0> calibration_method{};
#endif
#if RFK_MODEL_HAS_FIXED
  /// Byte offset in `bytes` of the fixed section (integer prediction, rfk/fixed.hpp: FixedSection),
  /// 0 when absent. Here, in what was padding, so that Model stays 384 bytes on 64-bit hosts.
  std::uint32_t fixed_offset = 0;
#else
  static constexpr ModelConstant<std::uint32_t, 0> fixed_offset{};
#endif
#if RFK_MODEL_HAS_CALIBRATION
  /// Its parameters in the blob, little-endian f32 (format::calibration): platt A, B;
  /// softmax-temperature A, 0; platt-cubic A, B, C; softmax-vector a[K] then b[K].
  const std::uint8_t* calibration_params = nullptr;
#else
  static constexpr ModelConstant<const std::uint8_t*, nullptr> calibration_params{};
#endif
};

/// W as stored (any storage; data null without W): the member projection_weights, or in a
/// configured core that reads f32 alone (rfk/model_layout.h), `projection` as an f32 view. Copied
/// member by member, so that in a pinned core each is a constant the compiler folds.
inline WeightsView ProjectionView(const Model& m) noexcept {
#if RFK_MODEL_HAS_QUANT && RFK_MODEL_HAS_DENSE
  return WeightsView{m.projection_weights.type, m.projection_weights.data, m.projection_weights.scale};
#else
  return WeightsView{WeightType::kF32, m.projection, nullptr};
#endif
}
/// The head's K x D weights as stored: the member head, or in a configured core that reads f32
/// alone, `head_weights` as an f32 view.
inline WeightsView HeadView(const Model& m) noexcept {
#if RFK_MODEL_HAS_QUANT
  return WeightsView{m.head.type, m.head.data, m.head.scale};
#else
  return WeightsView{WeightType::kF32, m.head_weights, nullptr};
#endif
}


/// Every member of Model, nested views included, by name: what a pinned core's configuration sets
/// (`rfk export --config-header --pin` writes each member's value for one model; lib/core/
/// core_config.h, RFK_PIN_MODEL), in declaration order, as the pinned core's designated initializer
/// takes them (a compiler error otherwise). A member added to Model goes here too, and kPinFieldsVersion
/// goes up so that configurations written before are refused at compile time; the host test
/// "Model: RFK_MODEL_FIELDS lists every member" fails until both are done.
#define RFK_MODEL_FIELDS(X)                                                                                     \
  X(bytes) X(total_bytes) X(version_major) X(version_minor) X(input_dim) X(num_features) X(map) X(kernel)        \
  X(fourier_features) X(num_frequencies) X(gamma) X(feature_scale) X(seed) X(layout) X(standardize_f16_at)      \
  X(projection) X(projection_storage) X(projection_weights.type) X(projection_weights.data)                     \
  X(projection_weights.scale) X(phase) X(fastfood.dp) X(fastfood.blocks) X(fastfood.index_bits)               \
  X(fastfood.storage) X(fastfood.G) X(fastfood.S) X(fastfood.perm) X(fastfood.signs) X(num_grids) X(bin_mode)   \
  X(bin_buckets) X(bin_features) X(bin_gamma) X(bin_scale) X(bin_seed) X(bin_inv_width) X(bin_offset)          \
  X(bin_grid_start) X(bin_keys) X(mean) X(inv_scale) X(task) X(num_outputs) X(head_weights) X(head_storage)    \
  X(head.type) X(head.data) X(head.scale) X(head_bias) X(num_classes) X(label_offsets) X(label_pool)           \
  X(metadata) X(metadata_bytes) X(impute) X(impute_method) X(num_names) X(name_offsets) X(name_pool)           \
  X(calibration_method) X(fixed_offset) X(calibration_params)
/// The version of RFK_MODEL_FIELDS and of RFK_PIN_MODEL's form a pinned configuration was written
/// for (RFK_PIN_FIELDS_VERSION; 2: the array's name, entries in declaration order, nested views grouped;
/// 3: a WeightType is its storage's number, RFK_FORMAT_STORAGES'; 4: the entry macros are RFK_V,
/// RFK_P, RFK_G and RFK_N, which no member's name can be: version 3's G was also Fastfood's member G).
inline constexpr int kPinFieldsVersion = 4;

/// The binary16 bits of an f16 standardisation, mean[d] then inv_scale[d]; null when it is f32 or absent.
inline const std::uint16_t* StandardizeF16Values(const Model& m) noexcept {
#if RFK_MODEL_HAS_QUANT && RFK_MODEL_CONFIGURED
  const std::uint32_t at = m.standardize_at;
  return (at & 1u) != 0 ? reinterpret_cast<const std::uint16_t*>(m.bytes + (at - 1u)) : nullptr;
#else
  return m.standardize_f16_at != 0 ? reinterpret_cast<const std::uint16_t*>(m.bytes + m.standardize_f16_at) : nullptr;
#endif
}
/// The f32 standardisation's means (d), then its inverse scales (InvScale); null when it is f16 or
/// absent.
inline const float* StandardizeMean(const Model& m) noexcept {
#if RFK_MODEL_HAS_QUANT && RFK_MODEL_CONFIGURED
  const std::uint32_t at = m.standardize_at;
  return at != 0 && (at & 1u) == 0 ? reinterpret_cast<const float*>(m.bytes + at) : nullptr;
#else
  return m.mean;
#endif
}
/// Whether the model standardises its inputs (a `standardize` section, f32 or f16).
inline bool IsStandardized(const Model& m) noexcept {
#if RFK_MODEL_HAS_QUANT && RFK_MODEL_CONFIGURED
  return m.standardize_at != 0;
#else
  return m.mean != nullptr || m.standardize_f16_at != 0;
#endif
}

/** @name Members the format's arrangement gives
 * Every build but a configured one (rfk/model_layout.h) stores these as members too; a configured
 * Model derives them from what it stores, in O(1), and the core reads them through these functions
 * only. Valid on an opened model.
 * @{ */
/// C: 0 for regression, 2 for binary, K for multi-class.
inline std::uint32_t NumClasses(const Model& m) noexcept {
#if RFK_MODEL_HAS_INFO
  return m.num_classes;
#else
  return m.task == format::Task::kRegression ? 0u : m.task == format::Task::kBinary ? 2u : m.num_outputs;
#endif
}
/// D_B, the bin features: D - D_F (the head's D is D_F + D_B).
inline std::uint32_t BinFeatures(const Model& m) noexcept {
#if RFK_MODEL_HAS_INFO
  return m.bin_features;
#else
  return m.num_features - m.fourier_features;
#endif
}
/// An f32 standardisation's inverse scales (d), the row after the means; null with mean.
inline const float* InvScale(const Model& m) noexcept {
#if RFK_MODEL_HAS_INFO
  return m.inv_scale;
#else
  const float* mean = StandardizeMean(m);
  return mean != nullptr ? mean + m.input_dim : nullptr;
#endif
}
/// The bin grids' offsets u (P x d), after the inverse widths; null with bin_inv_width.
inline const float* BinOffset(const Model& m) noexcept {
#if RFK_MODEL_HAS_INFO
  return m.bin_offset;
#else
  const float* inv_width = m.bin_inv_width;
  return inv_width != nullptr ? inv_width + std::size_t{m.num_grids} * m.input_dim : nullptr;
#endif
}
/// Whether the float path has a Fastfood map's arrays (a Fastfood kind, not fixed-only).
inline bool HasFastfoodArrays(const Model& m) noexcept { return m.fastfood.G != nullptr; }
/// Fastfood's arrays (all 0 and null without them): the member, or in a configured Model, derived
/// from G, its storage, d and F as the format lays the section out (d' = PaddedDim(d), F / d'
/// blocks rounded up, then S, the permutations and the signs after G; OpenModel checked each).
#if RFK_MODEL_HAS_FASTFOOD && RFK_MODEL_CONFIGURED
/// d' (0 without Fastfood's arrays): FastfoodOf(m).dp. (IndexBits(d) = IndexBits(PaddedDim(d)) = log2 d'.)
inline std::uint32_t FastfoodPaddedDim(const Model& m) noexcept {
  return m.fastfood.G != nullptr ? 1u << format::fastfood::IndexBits(m.input_dim) : 0u;
}
inline FastfoodArrays FastfoodOf(const Model& m) noexcept {
  const auto* g = static_cast<const std::uint8_t*>(m.fastfood.G);
  const std::uint32_t w = format::fastfood::IndexBits(m.input_dim);
  const std::uint32_t dp = g != nullptr ? 1u << w : 0u, blocks = g != nullptr ? ((m.num_frequencies - 1) >> w) + 1 : 0u;
  const std::uint32_t diag = format::fastfood::DiagonalBytes(m.fastfood.storage, dp, blocks);  // 0 without G
  return FastfoodArrays{dp, blocks, w, m.fastfood.storage, g, g + diag, g + 2 * diag,
                        g + 2 * diag + (dp * blocks * w + 7) / 8};  // PermBytes, w known
}
#else
inline std::uint32_t FastfoodPaddedDim(const Model& m) noexcept { return m.fastfood.dp; }
inline const FastfoodArrays& FastfoodOf(const Model& m) noexcept { return m.fastfood; }
#endif
/// Exact mode's keys (D_B u64), after the (P + 1) grid starts and their padding to 8 bytes
/// (format::bin_keys::KeysOffset); null with bin_grid_start (hashed mode).
inline const std::uint64_t* BinKeys(const Model& m) noexcept {
#if RFK_MODEL_HAS_INFO
  return m.bin_keys;
#else
  const std::uint8_t* starts = m.bin_grid_start;
  // KeysOffset(P) in 32 bits: its 64-bit form took 40 B more of a prediction's stack on the Cortex-M0.
  const std::size_t keys_at = (std::size_t{m.num_grids} * 4 + 11) / 8 * 8;
  return starts != nullptr ? reinterpret_cast<const std::uint64_t*>(starts + keys_at) : nullptr;
#endif
}
/// The float head's biases (K f32), after its weights, their padding and (int8, f16-scaled) their
/// scales (format: `head`); null in a core without the float path. The sizes fit 32 bits: the
/// section was checked to lie in the blob.
inline const float* HeadBias(const Model& m) noexcept {
#if RFK_MODEL_HAS_INFO
  return m.head_bias;
#elif RFK_MODEL_HAS_QUANT
  const std::size_t K = m.num_outputs, values = (K * m.num_features * format::ElementBytes(m.head.type) + 3) / 4 * 4;
  return reinterpret_cast<const float*>(static_cast<const std::uint8_t*>(m.head.data) + values +
                                        (format::HasRowScales(m.head.type) ? 4 * K : 0));
#elif RFK_MODEL_HAS_HEAD_F32
  return m.head_weights + std::size_t{m.num_outputs} * m.num_features;
#else
  static_cast<void>(m);
  return nullptr;
#endif
}
/** @} */

/// Where OpenModel found a problem: the field name and its byte offset within the blob. The
/// validators and the order they run in are listed in docs/FORMAT.md ("Limits and checks"); to
/// read the header and section table of bytes that do not open (a tool), use rfk/blob_view.hpp.
struct ModelError {
  Status status = Status::kOk;  ///< what OpenModel returned
  const char* field = "";    ///< e.g. "header.crc32", "section.offset", "head.num_features"; "" from a core built with RFK_ERROR_FIELDS 0
  std::uint32_t offset = 0;  ///< byte offset of that field in the blob
};

/// Validates every size, offset, count, alignment and the checksum once; afterwards the per-sample
/// path does no checks beyond its arguments. `size` may exceed the model's total size (e.g. a flash
/// region); bytes past it are ignored. `error` may be null. On failure *model is left empty.
[[nodiscard]] Status OpenModel(const void* bytes, std::size_t size, Model* model,
                               ModelError* error = nullptr) noexcept;

/// Features per block of Predict: it computes the Fourier features a block at a time and adds each
/// block's part of the head before the next (so no scratch holds all D features), each part's
/// LinearHead call taking the running output as its bias. A block is BlockFrequencies(model)
/// frequencies (kFeatureBlock phases, or half as many [cos, sin] pairs), starting at its
/// multiples, for every map. With the scalar kernels the head is one accumulator from the bias over
/// the features in frequency order, each pair's sine right after its cosine (LinearHeadQuantRef):
/// the same bits on every platform, and for any block size. kFeatureBlock is the generic core's
/// block; a core built with RFK_FEATURE_BLOCK (lib/core/core_config.h: a multiple of
/// kMinFeatureBlock; `rfk export --config-header` writes 32) uses that many features a block.
inline constexpr std::uint32_t kFeatureBlock = 128;
/// The smallest block, and the step between blocks: two panels' worth, so that a pair block (half
/// as many frequencies) starts a panel.
inline constexpr std::uint32_t kMinFeatureBlock = 2 * format::kPanelWidth;
static_assert(kFeatureBlock % kMinFeatureBlock == 0, "a dense block starts a panel");
/// Frequencies per block of `feature_block` features: all of them in the phase form, half as many
/// [cos, sin] pairs.
inline std::uint32_t BlockFrequencies(const Model& model, std::uint32_t feature_block = kFeatureBlock) noexcept {
  return model.fourier_features == model.num_frequencies ? feature_block : feature_block / 2;
}

/// Bytes of scratch memory Predict needs for this model in this build of the core (a multiple of
/// kScratchAlignment): the input imputed and standardised (d floats; not for a model without
/// either, nor, in a core with blocks below kFeatureBlock, for a Fastfood map without binning or
/// impute, which then standardises into its transform's buffer), one block of features (the core's block, kFeatureBlock unless
/// RFK_FEATURE_BLOCK says otherwise; none for a Fastfood map whose d' floats hold it), Fastfood's
/// buffers (d' + max(d', BlockFrequencies) floats) and 12 bytes per binning grid, each part
/// rounded up to kScratchAlignment. It does not grow with the number of features. 0 for a Model
/// that is not open.
std::size_t ScratchBytes(const Model& model) noexcept;
/// The same for a core built with RFK_FEATURE_BLOCK = feature_block (a positive multiple of
/// kMinFeatureBlock; 0 for any other value): what `rfk export` writes for the core it configures.
std::size_t ScratchBytes(const Model& model, std::uint32_t feature_block) noexcept;

/// Computes the model's K raw outputs for one input x of length model.input_dim:
/// regression value, binary decision value (> 0 means class 1), or K one-vs-rest scores.
/// `scratch` must be kScratchAlignment-aligned and at least ScratchBytes(model) long.
/// A NaN input is a missing value: a model with an impute section replaces it by the section's
/// value for that column; a model without one rejects it (kNonFiniteInput), as it rejects +-inf
/// always, instead of returning a meaningless output.
[[nodiscard]] Status Predict(const Model& model, const float* x, std::size_t x_len, void* scratch,
                             std::size_t scratch_bytes, float* out, std::size_t out_len) noexcept;

/// Samples per block of PredictBatch.
inline constexpr std::uint32_t kBatchBlock = 48;
/// Bytes of scratch memory PredictBatch needs for this model (a multiple of kScratchAlignment;
/// independent of n); 0 for a Model that is not open.
std::size_t BatchScratchBytes(const Model& model) noexcept;

/// Predicts n samples (X: n x input_dim, row-major) into out (n x num_outputs), in blocks of up to
/// kBatchBlock samples (checked, standardised, then through the batch kernels, which read each
/// block of W once per block of samples). Scratch: BatchScratchBytes(model), kScratchAlignment-
/// aligned: the block's inputs and 64 B of head sums per sample and output (blocks shrink, down to
/// 6 samples, to keep those under 32 KiB); it does not grow with the number of features.
/// n = 0 is kOk (buffers may be null).
/// Same statuses as Predict; on failure, rows before the failing one hold their outputs and *done
/// (if not null) says how many.
[[nodiscard]] Status PredictBatch(const Model& model, const float* X, std::size_t n,
                                  std::size_t x_len, void* scratch, std::size_t scratch_bytes,
                                  float* out, std::size_t out_len, std::size_t* done = nullptr) noexcept;

/// The class index a classification model's K outputs decide. With a calibration section: the
/// most probable class, by the calibrated logits Probabilities exponentiates (binary t < 0, i.e.
/// p(class 1) > 1/2; multi-class the first maximum of z_k), so Probabilities' value for it is the
/// largest (the first maximum unless two probabilities round to the same float); without the
/// section: DecideClassRaw. 0 for regression models. O(K) multiply-adds:
/// no exp, no division, no libm.
std::uint32_t DecideClass(const Model& model, const float* outputs) noexcept;

/// The uncalibrated decision on the raw outputs: the sign for binary (> 0: class 1), the first
/// maximum for multi-class; 0 for regression models. What `rfk predict --decision raw` prints.
std::uint32_t DecideClassRaw(const Model& model, const float* outputs) noexcept;

/// Class probabilities from a classifier's K raw outputs (as Predict writes them) through the
/// model's calibration section (docs/FORMAT.md): binary: proba[1] = p = 1/(1 + exp(t)), proba[0] =
/// 1 - p, with t = A s + B (platt) or A s + B + C s^3 (platt-cubic), from e^-|t| only so it never
/// overflows; multiclass: proba[k] = exp(z_k - max_j z_j) / sum_j exp(z_j - max_j z_j) with z_k =
/// A s_k (softmax-temperature) or a_k s_k + b_k (softmax-vector). Writes num_classes values
/// (proba_len must be at least that, else kOutputTooSmall); out_len must be at least K (else
/// kInputDimMismatch). kNoCalibration for a model without the section (regression models never
/// have it); kNullArgument for a null pointer; kNonFiniteInput for a NaN or infinite output;
/// kArgumentOutOfRange where z overflows a float (every softmax term then 0). O(K), no allocation,
/// no libm: exp by a degree-7 polynomial, relative error < 1e-6 (the same bits on every target).
[[nodiscard]] Status Probabilities(const Model& model, const float* outputs, std::size_t out_len,
                                   float* proba, std::size_t proba_len) noexcept;

/// NUL-terminated label of class `index` as it was written in the training data ("" if none).
const char* ClassLabel(const Model& model, std::uint32_t index) noexcept;

/// NUL-terminated name of input column `index` (index == input_dim: the training file's label
/// column), from the feature_names section; "" when the model stores no names, index > input_dim,
/// or the core was built without RFK_READ_NAMES (lib/core/core_config.h); likewise ClassLabel.
const char* FeatureName(const Model& model, std::uint32_t index) noexcept;

/// Computes the whole feature vector z(x) (length num_features: the Fourier features, then one
/// entry per bin column, bin_scale where occupied and 0 elsewhere) with the same kernels as
/// Predict; scratch as for Predict. O(num_features): for tests and tools, not the hot path.
[[nodiscard]] Status ComputeFeatures(const Model& model, const float* x, std::size_t x_len,
                                     void* scratch, std::size_t scratch_bytes, float* z,
                                     std::size_t z_len) noexcept;

/// ComputeBins' column for a bin an exact-mode model never saw.
inline constexpr std::uint32_t kNoColumn = 0xFFFFFFFFu;
/// The bin keys of x, one per grid (P = model.num_grids; len >= P), and each grid's column
/// (kNoColumn when an exact-mode model never saw that bin). Scratch as for Predict.
[[nodiscard]] Status ComputeBins(const Model& model, const float* x, std::size_t x_len,
                                 void* scratch, std::size_t scratch_bytes, std::uint64_t* keys,
                                 std::uint32_t* columns, std::size_t len) noexcept;

/// CRC-32 (IEEE 802.3, the zlib/PNG polynomial) of `size` bytes; chain with `crc` = previous result.
std::uint32_t Crc32(const void* data, std::size_t size, std::uint32_t crc = 0) noexcept;

}  // namespace rfk

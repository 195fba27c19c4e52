/// @file
/// The rfk model format, version 1: the one owner of its sections, enum values, constants and
/// field offsets. The device-core reader (lib/core/model_open.cc), the host writer
/// (lib/host/model/model_writer.cc), the bounds-checked header view (rfk/blob_view.hpp, which `rfk
/// inspect` prints) and docs/FORMAT.md all follow this file; a test (tests/model/test_format.cc) fails
/// when FORMAT.md does not list a section or an enum value of the tables below.
///
/// All integers and floats are little-endian; floats are IEEE-754 binary32. A model is one
/// contiguous blob: a 32-byte header, a table of 16-byte section entries, then the sections, each
/// starting at a multiple of kAlignment from the start of the blob. Float arrays are read in place,
/// so the blob itself must sit at an address aligned to kAlignment (flash, a static array declared
/// alignas(16), or a malloc'd buffer).
///
/// Plain C++17, no allocation, usable on bare metal. The name strings below reach an image only
/// through the functions that return them (NameOf, SectionName), which the device core never calls.
#pragma once

#include <cstdint>

namespace rfk::format {

inline constexpr std::uint8_t kMagic[4] = {'R', 'F', 'K', 'M'};  ///< the blob's first four bytes
inline constexpr std::uint16_t kVersionMajor = 1;  ///< readers reject any other major version
inline constexpr std::uint16_t kVersionMinor = 0;  ///< minor bumps only add optional sections
inline constexpr std::uint32_t kAlignment = 16;    ///< blob base and every section offset
inline constexpr std::uint32_t kHeaderBytes = 32;  ///< minimum; header_bytes may grow in 1.x
inline constexpr std::uint32_t kSectionEntryBytes = 16;  ///< one section table entry (namespace entry)
inline constexpr std::uint32_t kMaxSections = 64;  ///< section_count at most

/// Header field offsets (bytes from the start of the blob).
inline constexpr std::uint32_t kOffMagic = 0;          ///< u8[4]  "RFKM"
inline constexpr std::uint32_t kOffVersionMajor = 4;   ///< u16
inline constexpr std::uint32_t kOffVersionMinor = 6;   ///< u16
inline constexpr std::uint32_t kOffTotalBytes = 8;     ///< u32  size of the whole blob
inline constexpr std::uint32_t kOffCrc32 = 12;         ///< u32  CRC-32 of bytes [kCrcStart, total)
inline constexpr std::uint32_t kOffHeaderBytes = 16;   ///< u32  >= kHeaderBytes
inline constexpr std::uint32_t kOffSectionCount = 20;  ///< u32  <= kMaxSections
inline constexpr std::uint32_t kOffSectionTable = 24;  ///< u32  offset of the table, 4-aligned
inline constexpr std::uint32_t kOffFlags = 28;         ///< u32  reserved, 0
inline constexpr std::uint32_t kCrcStart = 16;  ///< the CRC covers everything after itself

/// Section table entry: u16 type, u16 flags, u32 offset, u32 size (bytes), u32 storage.
namespace entry {
inline constexpr std::uint32_t kType = 0;      ///< u16 SectionType
inline constexpr std::uint32_t kFlags = 2;     ///< u16 kSectionRequired or 0
inline constexpr std::uint32_t kOffset = 4;    ///< u32 offset of the data, multiple of kAlignment
inline constexpr std::uint32_t kSize = 8;      ///< u32 bytes of data
/// u32 the Storage of a section whose layout has no storage field of its own: kStandardize (0 or
/// kF32, kF16); written 0 for every other section, and not checked there (it was reserved before).
inline constexpr std::uint32_t kStorage = 12;
}  // namespace entry
inline constexpr std::uint16_t kSectionRequired = 0x0001;  ///< flag: unknown => reader must fail

/// ------------------------------------------------------------------------------------------------
/// The tables. To add a section: one row in RFK_FORMAT_SECTIONS (a type number not yet used: 11..15
/// are reserved for further binning storage, 17..22 for further structured maps (23 is `fixed`), 24..31 for optional
/// sections a reader may skip: what a model says about its inputs (24, 25) and how its outputs
/// become probabilities (26); 27 is input_stats, a host's section outside these tables:
/// kInputStatsSection; the section bit masks hold numbers below 32), a layout namespace below if it
/// has fields, its validator
/// in lib/core/model_open.cc (called from OpenModel in the order of docs/FORMAT.md's "Limits and
/// checks"), its writer in lib/host/model/model_writer.cc (kSectionWriters) and its row in FORMAT.md.
/// To add an enum value: one row in its list, and its row in FORMAT.md; a value the reader cannot
/// use yet is kReserved (the reader answers kUnsupportedMap / kUnsupportedStorage), one it handles
/// is kSupported (its validator and the prediction path must then handle it). Numbers are below 32.
///
/// 24 and up: optional sections a reader may skip: what the model says about its inputs (a reader
/// that skips them predicts complete inputs exactly as one that reads them) and the calibration of
/// its outputs into probabilities (a reader that skips it has the raw outputs, not probabilities).
///
/// Sections: X(enumerator, type number, name, flag the writer sets, bytes: fixed size or kVariable)
#define RFK_FORMAT_SECTIONS(X)                                                                     \
  X(kMapParams, 1, "map_params", kRequired, 48)        /* map_params namespace below */           \
  X(kProjection, 2, "projection", kRequired, kVariable) /* W: F x d in map_params.storage, layout */ \
  X(kPhase, 3, "phase", kRequired, kVariable)          /* b: F f32 in [0, 2 pi) (phase form) */   \
  X(kStandardize, 4, "standardize", kRequired, kVariable) /* mean[d], inv_scale[d]: entry storage */ \
  X(kHead, 5, "head", kRequired, kVariable)            /* head namespace below */                 \
  X(kLabels, 6, "labels", kRequired, kVariable)        /* labels namespace below */               \
  X(kMetadata, 7, "metadata", kOptional, kVariable)    /* UTF-8 "key=value\n" lines */            \
  X(kBinningParams, 8, "binning_params", kRequired, 48) /* binning_params namespace below */      \
  X(kBinGrids, 9, "bin_grids", kRequired, kVariable)   /* P x d f32 1/delta, then P x d f32 u */  \
  X(kBinKeys, 10, "bin_keys", kRequired, kVariable)    /* u32 grid_start[P+1], pad to 8, u64 keys */ \
  X(kFastfood, 16, "fastfood", kRequired, kVariable)   /* fastfood namespace below */             \
  X(kFixed, 23, "fixed", kRequired, kVariable)         /* integer prediction: fixed_params below */ \
  X(kImpute, 24, "impute", kOptional, kVariable)       /* impute namespace below */               \
  X(kFeatureNames, 25, "feature_names", kOptional, kVariable) /* as labels: d + 1 names */      \
  X(kCalibration, 26, "calibration", kOptional, kVariable) /* calibration namespace below */

/// Enum values: X(enumerator, number, name, kSupported or kReserved)
#define RFK_FORMAT_MAP_KINDS(X)                                                                    \
  X(kFourier, 1, "fourier", kSupported)            /* [cos(Wx), sin(Wx)] / sqrt(F), D = 2F */      \
  X(kFourierPhase, 2, "fourier-phase", kSupported) /* sqrt(2/D) cos(Wx + b), D = F */              \
  X(kBinning, 3, "binning", kReserved)             /* binning has its own section (kBinningParams) */ \
  X(kOrthogonal, 4, "orf", kSupported)             /* ORF pairs: W in orthogonal blocks, as kFourier */ \
  X(kStructured, 5, "structured", kReserved)       /* SORF: patented (US 12,079,700 B2), never used */ \
  X(kOrthogonalPhase, 6, "orf-phase", kSupported)  /* ORF, phase form: as kFourierPhase */ \
  X(kFastfood, 7, "fastfood", kSupported)          /* Fastfood pairs: no W, a kFastfood section */ \
  X(kFastfoodPhase, 8, "fastfood-phase", kSupported) /* Fastfood, phase form */ \
  X(kQmc, 9, "qmc", kSupported)                    /* quasi-Monte-Carlo pairs: Sobol W, as kFourier */ \
  X(kQmcPhase, 10, "qmc-phase", kSupported)        /* quasi-Monte-Carlo, phase form: as kFourierPhase */

/// The kernels (Kernel): X(enumerator, number, name, support); each line says its W distribution.
#define RFK_FORMAT_KERNELS(X)                                                                      \
  X(kGaussian, 1, "gaussian", kSupported)   /* exp(-gamma ||x-y||_2^2), W ~ Normal(0, 2 gamma) */  \
  X(kLaplacian, 2, "laplacian", kSupported) /* exp(-gamma ||x-y||_1), W ~ Cauchy(0, gamma) */      \
  X(kCauchy, 3, "cauchy", kSupported)       /* prod 1/(1 + gamma^2 (x_i-y_i)^2), W ~ Laplace */

/// The storages of a weight matrix (Storage), "Quantized storage" below, with their traits:
/// X(enumerator, number, name, support, element bytes, row scales, uses). Row scales: the elements
/// are followed by one f32 scale per row (real = scale[row] x element). Uses: which matrices a model
/// may hold in it (kForW: W and Fastfood's G and S; kForHead; kForStandardize) and kForUser: the
/// `--storage` options offer it (the others are a writer's choice). Everything that asks what a
/// storage is (ElementBytes, HasRowScales, StorageFor, the host's UserStorages) reads these columns.
#define RFK_FORMAT_STORAGES(X)                                                                     \
  X(kF32, 1, "f32", kSupported, 4, false, kForW | kForHead | kForStandardize | kForUser)           \
  X(kF16, 2, "f16", kSupported, 2, false, kForW | kForHead | kForStandardize | kForUser)           \
  X(kInt8, 3, "int8", kSupported, 1, true, kForW | kForHead | kForUser)                            \
  X(kSeed, 4, "seed", kReserved, 0, false, 0)                                                      \
  X(kF16Scaled, 5, "f16-scaled", kSupported, 2, true, kForHead)
// f16: IEEE binary16, rounded to nearest even. int8: symmetric, real = scale q, q in [-127, 127].
// seed: W regenerated from the seed on device (reserved). f16-scaled: real = scale h, h binary16:
// heads whose weights pass f16's range.

/// kPanels: panels of kPanelWidth frequencies, W[j][c] at (j/16)*16*d + c*16 + j%16, rows padded
/// with zeros to a multiple of 16: any SIMD vector of <= 16 lanes loads contiguously, and W streams
/// once per sample. What the writer emits; kRowMajor (W[j][c] at j*d + c) is read too.
#define RFK_FORMAT_LAYOUTS(X)                    \
  X(kRowMajor, 1, "row-major", kSupported)       \
  X(kPanels, 2, "panels", kSupported)

/// The tasks (Task) and what the K outputs mean.
#define RFK_FORMAT_TASKS(X)                                                                        \
  X(kRegression, 1, "regression", kSupported) /* K = 1 output, the prediction */                   \
  X(kBinary, 2, "binary", kSupported)         /* K = 1 output; class 1 if output > 0 else 0 */     \
  X(kMulticlass, 3, "multiclass", kSupported) /* K = number of classes >= 3, one-vs-rest; argmax */

/// The binning map's modes (BinMode).
#define RFK_FORMAT_BIN_MODES(X)                                                                    \
  X(kExact, 1, "exact", kSupported)  /* bins seen in training, keys stored */                      \
  X(kHashed, 2, "hashed", kSupported) /* B buckets per grid, no keys: size fixed in advance */

/// How the impute section's values were computed from the training rows (informational: the
/// device substitutes them whatever the method).
#define RFK_FORMAT_IMPUTE_METHODS(X)                                                               \
  X(kMean, 1, "mean", kSupported)     /* the mean of the column's values present in training */   \
  X(kMedian, 2, "median", kSupported) /* their median */

/// How a classifier's raw outputs s become class probabilities (the calibration section), fitted on
/// held-out decision values at training time.
#define RFK_FORMAT_CALIBRATION_METHODS(X)                                                          \
  X(kPlatt, 1, "platt", kSupported)            /* binary: p(class 1) = 1/(1 + exp(A s + B)) */     \
  X(kSoftmax, 2, "softmax-temperature", kSupported) /* multiclass: p_k = softmax_k(A s), B = 0 */   \
  X(kPlattCubic, 3, "platt-cubic", kSupported) /* binary: 1/(1 + exp(A s + B + C s^3)), A, C <= 0 */ \
  X(kSoftmaxVector, 4, "softmax-vector", kSupported) /* multiclass: softmax_k(a_k s_k + b_k), a >= 0 */
// ------------------------------------------------------------------------------------------------

/// What the lists generate. Numbers are u32 on disk; section types u16.
enum class Support : std::uint8_t { kUnknown, kReserved, kSupported };
/// One value of an enum list: its number on disk, its name (CLI, FORMAT.md) and whether readers
/// support it.
struct EnumValue {
  std::uint32_t number;  ///< the value as stored (u32)
  const char* name;      ///< as the CLI and docs/FORMAT.md spell it
  Support support;       ///< kSupported, or kReserved (defined, refused by this reader)
};
template <class E>
struct EnumList;  ///< per enum: kValues[], and kKnown / kSupported bit masks (bit n = number n)

inline constexpr std::uint32_t kVariable = 0;  ///< section size: not fixed
/// The flag a writer sets on a section's entry: a reader that does not know a required section fails.
enum SectionFlag : std::uint16_t { kOptional = 0, kRequired = kSectionRequired };
/// One row of RFK_FORMAT_SECTIONS: a section's type number, name, flag and size.
struct SectionInfo {
  std::uint16_t type;        ///< the SectionType number (u16 on disk)
  const char* name;          ///< as docs/FORMAT.md and `rfk inspect` name it
  SectionFlag writer_flag;   ///< how writers flag it
  std::uint32_t fixed_bytes;  ///< kVariable or the only valid size
};

/// The number of bits set in v (the generators' check that no two values share a number).
constexpr unsigned BitCount(std::uint32_t v) { return v ? (v & 1u) + BitCount(v >> 1) : 0u; }

/// The generators (a number of 32 or more fails to compile: the masks have 32 bits). A list's rows
/// may carry columns after `support` (the storages' traits); FIRST_ picks `support` out of them.
#define RFK_FORMAT_FIRST_(first, ...) first
#define RFK_FORMAT_ENUMERATOR_(e, n, ...) e = n,
#define RFK_FORMAT_VALUE_(e, n, name, ...) EnumValue{n, name, Support::RFK_FORMAT_FIRST_(__VA_ARGS__, 0)},
#define RFK_FORMAT_KNOWN_BIT_(e, n, ...) | (std::uint32_t{1} << (n))
#define RFK_FORMAT_SUPPORTED_BIT_(e, n, name, ...) \
  | (Support::RFK_FORMAT_FIRST_(__VA_ARGS__, 0) == Support::kSupported ? std::uint32_t{1} << (n) : 0u)
#define RFK_FORMAT_DEFINE_ENUM_(Type, LIST)                                    \
  enum class Type : std::uint32_t { LIST(RFK_FORMAT_ENUMERATOR_) };            \
  template <>                                                                  \
  struct EnumList<Type> {                                                      \
    static constexpr EnumValue kValues[] = {LIST(RFK_FORMAT_VALUE_)};          \
    static constexpr std::uint32_t kKnown = 0 LIST(RFK_FORMAT_KNOWN_BIT_);     \
    static constexpr std::uint32_t kSupported = 0 LIST(RFK_FORMAT_SUPPORTED_BIT_); \
    static_assert(sizeof(kValues) / sizeof(kValues[0]) == BitCount(kKnown),    \
                  "two values of " #Type " share a number");                   \
  };

RFK_FORMAT_DEFINE_ENUM_(MapKind, RFK_FORMAT_MAP_KINDS)
RFK_FORMAT_DEFINE_ENUM_(Kernel, RFK_FORMAT_KERNELS)
RFK_FORMAT_DEFINE_ENUM_(Storage, RFK_FORMAT_STORAGES)
RFK_FORMAT_DEFINE_ENUM_(Layout, RFK_FORMAT_LAYOUTS)
RFK_FORMAT_DEFINE_ENUM_(Task, RFK_FORMAT_TASKS)
RFK_FORMAT_DEFINE_ENUM_(BinMode, RFK_FORMAT_BIN_MODES)
RFK_FORMAT_DEFINE_ENUM_(ImputeMethod, RFK_FORMAT_IMPUTE_METHODS)
RFK_FORMAT_DEFINE_ENUM_(CalibrationMethod, RFK_FORMAT_CALIBRATION_METHODS)

#define RFK_FORMAT_SECTION_ENUMERATOR_(e, n, ...) e = n,
/// The section types (RFK_FORMAT_SECTIONS; docs/FORMAT.md, "Sections").
enum class SectionType : std::uint16_t { RFK_FORMAT_SECTIONS(RFK_FORMAT_SECTION_ENUMERATOR_) };
#define RFK_FORMAT_SECTION_INFO_(e, n, name, flag, bytes) SectionInfo{n, name, flag, bytes},
/// Every known section, in type order.
inline constexpr SectionInfo kSections[] = {RFK_FORMAT_SECTIONS(RFK_FORMAT_SECTION_INFO_)};
#define RFK_FORMAT_SECTION_BIT_(e, n, ...) | (std::uint32_t{1} << (n))
/// Bit t set for every known section type t.
inline constexpr std::uint32_t kKnownSections = 0 RFK_FORMAT_SECTIONS(RFK_FORMAT_SECTION_BIT_);
static_assert(sizeof(kSections) / sizeof(kSections[0]) == BitCount(kKnownSections),
              "two sections share a type number");
#undef RFK_FORMAT_ENUMERATOR_
#undef RFK_FORMAT_VALUE_
#undef RFK_FORMAT_KNOWN_BIT_
#undef RFK_FORMAT_SUPPORTED_BIT_
#undef RFK_FORMAT_DEFINE_ENUM_
#undef RFK_FORMAT_SECTION_ENUMERATOR_
#undef RFK_FORMAT_SECTION_INFO_
#undef RFK_FORMAT_SECTION_BIT_

/// The form of a Fourier map kind: the phase form (D_F = F, a `phase` section) or [cos, sin] pairs
/// (D_F = 2F). Every supported kind is one or the other.
constexpr bool IsPhaseForm(MapKind m) noexcept {
  return m == MapKind::kFourierPhase || m == MapKind::kOrthogonalPhase || m == MapKind::kFastfoodPhase ||
         m == MapKind::kQmcPhase;
}

/// Fastfood kinds keep their frequencies in a kFastfood section instead of W (kProjection).
constexpr bool IsFastfood(MapKind m) noexcept {
  return m == MapKind::kFastfood || m == MapKind::kFastfoodPhase;
}

/// Whether a map kind can approximate a kernel: orthogonal blocks (ORF) and Fastfood's rows keep
/// a row's distribution only for a radial spectral density, and rfk draws them and quasi-Monte-Carlo
/// rows (through the normal quantile) for the Gaussian only; random Fourier features take any kernel.
constexpr bool KernelFitsMap(MapKind m, Kernel k) noexcept {
  return m == MapKind::kFourier || m == MapKind::kFourierPhase || k == Kernel::kGaussian;
}

/// Whether `number` is a value of E this build supports, a reserved one, or no value at all.
/// Compiles to a shift and a test: safe for the device core.
template <class E>
constexpr Support SupportOf(std::uint32_t number) noexcept {
  if (number >= 32 || ((EnumList<E>::kKnown >> number) & 1u) == 0) return Support::kUnknown;
  return ((EnumList<E>::kSupported >> number) & 1u) != 0 ? Support::kSupported : Support::kReserved;
}

/// The format's name of a value ("fourier-phase", "panels"), or "unknown". Host side: the strings.
template <class E>
constexpr const char* NameOf(E value) noexcept {
  for (const EnumValue& v : EnumList<E>::kValues)
    if (v.number == static_cast<std::uint32_t>(value)) return v.name;
  return "unknown";
}

/// Type 27, `input_stats` (optional; layout in the input_stats namespace below), is a host's section
/// and not a row of RFK_FORMAT_SECTIONS: device cores skip it as an unknown optional section, so it
/// costs them no code, no table row and no stack (the Cortex-M0 image is 16 B under its limit:
/// docs/EMBEDDED.md). Hosts read it with rfk::host::ReadInputStats (rfk/host/quantize.hpp).
inline constexpr std::uint16_t kInputStatsSection = 27;

/// The table row of a section type, or null for a type this version does not know.
constexpr const SectionInfo* FindSection(std::uint16_t type) noexcept {
  for (const SectionInfo& s : kSections)
    if (s.type == type) return &s;
  return nullptr;
}
/// The table row of a known section type.
constexpr const SectionInfo& Info(SectionType t) noexcept { return *FindSection(static_cast<std::uint16_t>(t)); }
/// A section type's name: the table's, "input_stats" for kInputStatsSection, else "unknown".
constexpr const char* SectionName(std::uint16_t type) noexcept {
  return FindSection(type) ? FindSection(type)->name : type == kInputStatsSection ? "input_stats" : "unknown";
}

/// kMapParams section layout (48 bytes).
namespace map_params {
inline constexpr std::uint32_t kBytes = Info(SectionType::kMapParams).fixed_bytes;  ///< the section's size
inline constexpr std::uint32_t kMapKind = 0;         ///< u32 MapKind
inline constexpr std::uint32_t kKernel = 4;          ///< u32 Kernel
inline constexpr std::uint32_t kInputDim = 8;        ///< u32 d
inline constexpr std::uint32_t kFourierFeatures = 12; ///< u32 D_F: 2F (pair form) or F (phase form)
inline constexpr std::uint32_t kNumFrequencies = 16; ///< u32 F (rows of W)
inline constexpr std::uint32_t kStorage = 20;        ///< u32 Storage of W, or of Fastfood's G and S
inline constexpr std::uint32_t kLayout = 24;         ///< u32 Layout of W
inline constexpr std::uint32_t kGamma = 28;          ///< f32 kernel parameter, > 0
inline constexpr std::uint32_t kFeatureScale = 32;   ///< f32 multiplies every feature
inline constexpr std::uint32_t kPanelWidthField = 36;  ///< u32 kPanelWidth (panels), 0 (row-major)
inline constexpr std::uint32_t kSeed = 40;           ///< u64 seed W (and b) were drawn with
}  // namespace map_params

/// kBinningParams section layout (48 bytes). The map sends x to one column per grid p:
///   bin_m = floor((x_m - offset[p][m]) * inv_width[p][m]),  key = hash_p(bin_0 .. bin_{d-1}),
///   exact mode:  the key's position in grid p's sorted keys (no column if the key is absent),
///   hashed mode: p * B + ((key >> 32) * B >> 32).
/// Each present column contributes feature_scale (= 1/sqrt(P)) times its head weight.
namespace binning_params {
inline constexpr std::uint32_t kBytes = Info(SectionType::kBinningParams).fixed_bytes;  ///< the section's size
inline constexpr std::uint32_t kNumGrids = 0;       ///< u32 P
inline constexpr std::uint32_t kInputDim = 4;       ///< u32 d, equal to the Fourier map's if both
inline constexpr std::uint32_t kMode = 8;           ///< u32 BinMode
inline constexpr std::uint32_t kBuckets = 12;       ///< u32 B (hashed), 0 (exact)
inline constexpr std::uint32_t kBinFeatures = 16;   ///< u32 D_B: exact: number of keys; hashed: P * B
inline constexpr std::uint32_t kKernel = 20;        ///< u32 Kernel: kLaplacian
inline constexpr std::uint32_t kGamma = 24;         ///< f32 kernel parameter, > 0
inline constexpr std::uint32_t kFeatureScale = 28;  ///< f32 1/sqrt(P)
inline constexpr std::uint32_t kSeed = 32;          ///< u64 seed of the grids and the hash
inline constexpr std::uint32_t kReserved = 40;      ///< u32[2] 0
}  // namespace binning_params

/// kHead section layout: 16-byte header, then the weights K x D (row k = output k) in the head's
/// storage, zero padding to a multiple of 4 bytes, then (int8, f16-scaled) scale K f32, then bias K f32.
namespace head {
inline constexpr std::uint32_t kHeaderBytes = 16;  ///< the section header before the arrays
inline constexpr std::uint32_t kTask = 0;         ///< u32 Task
inline constexpr std::uint32_t kNumOutputs = 4;   ///< u32 K
inline constexpr std::uint32_t kNumFeatures = 8;  ///< u32 D = D_F + D_B, the length of z(x)
inline constexpr std::uint32_t kStorage = 12;     ///< u32 Storage of the weights; 0 (older writers) = f32
}  // namespace head

/// kLabels section layout: u32 count C, u32 reserved, u32 offsets[C + 1] into the string pool that
/// follows; string i is bytes [offsets[i], offsets[i+1]) of the pool, ending in its NUL.
namespace labels {
inline constexpr std::uint32_t kCount = 0;    ///< u32 C, the classes
inline constexpr std::uint32_t kOffsets = 8;  ///< u32 offsets[C + 1] into the pool
}  // namespace labels

/// kImpute section layout: 16-byte header, then value[d] f32: an input that is NaN (a missing
/// value) in column c is replaced by value[c] before standardisation. Models without the section
/// refuse NaN inputs (Status::kNonFiniteInput); an infinity is refused either way.
namespace impute {
inline constexpr std::uint32_t kHeaderBytes = 16;  ///< the section header before the arrays
inline constexpr std::uint32_t kMethod = 0;    ///< u32 ImputeMethod
inline constexpr std::uint32_t kCount = 4;     ///< u32 d, the model's input dimension
inline constexpr std::uint32_t kReserved = 8;  ///< u32[2] 0
}  // namespace impute

/// kFeatureNames section layout: the labels layout (u32 count, u32 reserved, u32 offsets[count +
/// 1], the NUL-terminated names) with count = d + 1: the name of each input column, in order, then
/// the name of the training file's label column ("" when it had none). From a CSV header; hosts
/// match a test file's columns to them by name.
namespace feature_names {
inline constexpr std::uint32_t kCount = 0;    ///< u32 count = d + 1
inline constexpr std::uint32_t kOffsets = 8;  ///< u32 offsets[count + 1] into the pool
}  // namespace feature_names

/// kCalibration section layout, classification models only: u32 method, u32 K (the head's
/// num_outputs), then f32 parameters, all finite. What rfk trains: platt-cubic for binary (K = 1;
/// A, B, C with A <= 0 and C <= 0, so p(class 1) never decreases as s grows; 20 bytes) and
/// softmax-vector for multiclass (K = num_outputs; a[K] >= 0 then b[K]; 8 + 8K bytes). The first
/// methods, still read: platt (A, B; 16 bytes) and softmax-temperature (A, then B = 0; 16 bytes).
namespace calibration {
inline constexpr std::uint32_t kMethod = 0;      ///< u32 CalibrationMethod
inline constexpr std::uint32_t kNumOutputs = 4;  ///< u32 K, the head's
inline constexpr std::uint32_t kScale = 8;       ///< f32 A (platt, softmax-temperature, platt-cubic)
inline constexpr std::uint32_t kBias = 12;       ///< f32 B (0 for softmax-temperature)
inline constexpr std::uint32_t kCubic = 16;      ///< f32 C (platt-cubic)
inline constexpr std::uint32_t kVector = 8;      ///< f32 a[K] then f32 b[K] (softmax-vector)
/// The section's size for a method and K (0 for an unknown method).
constexpr std::uint64_t Bytes(std::uint32_t method, std::uint32_t K) {
  return method == static_cast<std::uint32_t>(CalibrationMethod::kPlatt) ||
                 method == static_cast<std::uint32_t>(CalibrationMethod::kSoftmax)
             ? 16
         : method == static_cast<std::uint32_t>(CalibrationMethod::kPlattCubic)    ? 20
         : method == static_cast<std::uint32_t>(CalibrationMethod::kSoftmaxVector) ? 8 + 8 * std::uint64_t{K}
                                                                                    : 0;
}
}  // namespace calibration

/// input_stats section layout (type kInputStatsSection, optional, host-only): 16-byte header, then
/// mean[d] f32 and sd[d] f32: each input column's mean and standard deviation over the training
/// rows (population form, unweighted), all finite, sd >= 0. rfk train writes it for Fourier-type
/// maps without binning whose standardisation does not hold the means (scaled without centring,
/// or none), with the metadata; `rfk convert` draws inputs from it to estimate and refit what
/// re-storing moves. A reader that skips it predicts exactly as one that reads it.
namespace input_stats {
inline constexpr std::uint32_t kHeaderBytes = 16;  ///< the section header before the arrays
inline constexpr std::uint32_t kCount = 0;     ///< u32 d, the model's input dimension
inline constexpr std::uint32_t kReserved = 4;  ///< u32[3] 0
/// The section's size: the header, then d means and d deviations (f32).
constexpr std::uint64_t Bytes(std::uint32_t d) { return kHeaderBytes + 8 * std::uint64_t{d}; }
}  // namespace input_stats

/// kBinKeys section layout: grid_start[P + 1] u32, zero padding to a multiple of 8, keys u64.
namespace bin_keys {
inline constexpr std::uint32_t kGridStart = 0;  ///< u32 grid_start[P + 1]
/// Where the u64 keys start: after grid_start, 8-aligned.
constexpr std::uint64_t KeysOffset(std::uint32_t P) { return ((std::uint64_t{P} + 1) * 4 + 7) / 8 * 8; }
}  // namespace bin_keys

/// kFastfood section layout: a 16-byte header, then for num_blocks blocks of d' entries each (N =
/// num_blocks * d'): G, then S (the scale 1/(sigma sqrt d') and the chi norms folded in), each a
/// num_blocks x d' matrix in map_params.storage as QuantMatrixBytes lays it out (f32: N f32; f16:
/// N binary16 and padding to 4 bytes; int8: N bytes, padding, then one f32 scale per block), then
/// perm[N] packed in index_bits w = IndexBits(d') bits each, PermBytes = ceil(N w / 8) bytes (index
/// k is bits [k w, k w + w) of the stream whose bit i is bit i % 8 of byte i / 8; each block a
/// permutation of [0, d')), then the sign bits of B, ceil(N / 8) bytes (bit k at byte k / 8, bit
/// k % 8; set: -1). Block b is
/// frequencies [b d', b d' + d') (the last one truncated to F): u = S H G Pi H B [x; 0].
namespace fastfood {
inline constexpr std::uint32_t kHeaderBytes = 16;  ///< the section header before the arrays
inline constexpr std::uint32_t kPaddedDim = 0;   ///< u32 d' = PaddedDim(d)
inline constexpr std::uint32_t kNumBlocks = 4;   ///< u32 ceil(F / d')
inline constexpr std::uint32_t kIndexBits = 8;   ///< u32 IndexBits(d')
inline constexpr std::uint32_t kReserved = 12;   ///< u32 0
inline constexpr std::uint32_t kMaxPaddedDim = 1u << 16;  ///< indices fit in u16
/// d' = the smallest power of two >= d.
constexpr std::uint32_t PaddedDim(std::uint32_t d) {
  std::uint32_t p = 1;
  while (p < d && p < (1u << 31)) p *= 2;
  return p;
}
/// Bits per permutation index: ceil(log2 d'), 0 for d' = 1 (6 for d' = 64, 16 for d' = 65536).
constexpr std::uint32_t IndexBits(std::uint32_t dp) {
  std::uint32_t w = 0;
  while (w < 31 && (1u << w) < dp) ++w;
  return w;
}
/// Bytes of the packed permutations of N indices: ceil(N IndexBits(d') / 8), in 32 bits for N <
/// 2^24 + 2^17 (a reader bounds d' and F first).
constexpr std::uint32_t PermBytes(std::uint32_t dp, std::uint32_t N) { return (N * IndexBits(dp) + 7) / 8; }
}  // namespace fastfood

/// Limits a reader enforces before trusting any count (they bound every product in u64).
inline constexpr std::uint32_t kMaxInputDim = 1u << 24;
inline constexpr std::uint32_t kMaxFeatures = 1u << 24;  ///< D at most
inline constexpr std::uint32_t kMaxOutputs = 1u << 16;   ///< K at most
inline constexpr std::uint32_t kMaxGrids = 1u << 16;     ///< P at most
inline constexpr std::uint32_t kPanelWidth = 16;  ///< frequencies per panel (Layout::kPanels)

/// What RFK_FORMAT_STORAGES' `uses` column says a storage holds (a bit mask).
enum StorageUse : std::uint8_t { kForW = 1, kForHead = 2, kForStandardize = 4, kForUser = 8 };
#define RFK_FORMAT_STORAGE_BYTES_(e, n, name, support, bytes, ...) case Storage::e: return bytes;
#define RFK_FORMAT_STORAGE_SCALES_IS_(e, n, name, support, bytes, scales, ...) || ((scales) && s == Storage::e)
#define RFK_FORMAT_STORAGE_USE_IS_(e, n, name, support, bytes, scales, uses) \
  || (((uses) & use) != 0 && s == Storage::e)
#define RFK_FORMAT_STORAGE_USE_BIT_(e, n, name, support, bytes, scales, uses) \
  | (((uses) & use) != 0 ? std::uint32_t{1} << (n) : 0u)
/// Bytes of one element in storage s; 0 for a number that is not a storage with elements (seed,
/// or none of RFK_FORMAT_STORAGES).
constexpr std::uint32_t ElementBytes(Storage s) {
  switch (s) { RFK_FORMAT_STORAGES(RFK_FORMAT_STORAGE_BYTES_) }
  return 0;
}
// HasRowScales and StorageFor are chains of comparisons (s == kInt8 || s == kF16Scaled) that the
// compiler folds from the table: as small as hand-written ones in the device core (a switch or a
// bit test cost the Cortex-M0's fixed-only image 12-28 bytes).
/// Whether a matrix in storage `s` ends in one f32 scale per row.
constexpr bool HasRowScales(Storage s) { return false RFK_FORMAT_STORAGES(RFK_FORMAT_STORAGE_SCALES_IS_); }
/// Whether storage `s` may hold the matrices of `use` (kForW, kForHead, kForStandardize; kForUser:
/// offered to users).
constexpr bool StorageFor(Storage s, StorageUse use) { return false RFK_FORMAT_STORAGES(RFK_FORMAT_STORAGE_USE_IS_); }
/// The storages that may hold the matrices of `use`, as a mask (bit n: storage number n): what the
/// code that reads or writes those matrices static_asserts it knows.
constexpr std::uint32_t StoragesFor(StorageUse use) { return 0u RFK_FORMAT_STORAGES(RFK_FORMAT_STORAGE_USE_BIT_); }

// Quantized storage (Storage::kF16, kInt8, kF16Scaled) of a matrix of `rows` x `cols` weights, as W
// (rows = StoredFrequencies, one int8 scale per stored row) and the head's weights (rows = K) are
// stored: the elements in the matrix's element order (f32 and f16: 4 and 2 bytes each,
// little-endian; int8: one signed byte, -128 is invalid), zero padding to a multiple of 4 bytes,
// then for int8 and f16-scaled (the head only) the f32 scales, one per row (real value =
// scale[row] * element; finite and > 0). Which storage does what: RFK_FORMAT_STORAGES' columns.

/// n rounded up to a multiple of 4 (the padding after a matrix's elements).
constexpr std::uint64_t Round4(std::uint64_t n) { return (n + 3) / 4 * 4; }
/// Bytes of the elements and their padding: where an int8 matrix's scales start.
constexpr std::uint64_t QuantValuesBytes(Storage s, std::uint64_t rows, std::uint64_t cols) {
  return Round4(rows * cols * ElementBytes(s));
}
/// Bytes of the whole matrix: the elements, the padding and (int8) the scales.
constexpr std::uint64_t QuantMatrixBytes(Storage s, std::uint64_t rows, std::uint64_t cols) {
  return QuantValuesBytes(s, rows, cols) + (HasRowScales(s) ? 4 * rows : 0);
}

namespace fastfood {
/// Bytes of one diagonal (G or S) of `blocks` blocks of d' entries in storage `s`: a blocks x d'
/// matrix, QuantMatrixBytes(s, blocks, d') (int8: one scale per block). In 32 bits, as SectionBytes.
constexpr std::uint32_t DiagonalBytes(Storage s, std::uint32_t dp, std::uint32_t blocks) {
  return (dp * blocks * ElementBytes(s) + 3) / 4 * 4 + (HasRowScales(s) ? 4 * blocks : 0);
}
/// The section's size (f32: 16 + 8 N + ceil(N w / 8) + ceil(N / 8)); in 32 bits for d' <=
/// kMaxPaddedDim and blocks = ceil(F / d'), F <= 2^24 (N <= 2^24 + 2^16), which a reader checks first.
constexpr std::uint32_t SectionBytes(Storage s, std::uint32_t dp, std::uint32_t blocks) {
  const std::uint32_t N = dp * blocks;
  return kHeaderBytes + 2 * DiagonalBytes(s, dp, blocks) + PermBytes(dp, N) + (N + 7) / 8;
}
}  // namespace fastfood

/// Rows of W as stored: F for row-major, F rounded up to a multiple of kPanelWidth for panels.
constexpr std::uint32_t StoredFrequencies(Layout layout, std::uint32_t F) {
  return layout == Layout::kPanels ? (F + kPanelWidth - 1) / kPanelWidth * kPanelWidth : F;
}
/// Where W's element (frequency j, input c) of d inputs lies among the stored elements: j d + c
/// row-major, (j / 16) 16 d + c 16 + j % 16 in panels (Layout's comment).
constexpr std::uint64_t WeightIndex(Layout layout, std::uint64_t j, std::uint64_t c, std::uint64_t d) {
  return layout == Layout::kPanels ? (j / kPanelWidth) * kPanelWidth * d + c * kPanelWidth + j % kPanelWidth
                                   : j * d + c;
}

}  // namespace rfk::format

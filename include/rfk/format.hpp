// The rfk model format, version 1: constants and field offsets shared by the device-core reader
// and the host writer. docs/FORMAT.md is the prose version of this file and must match it.
//
// All integers and floats are little-endian; floats are IEEE-754 binary32. A model is one
// contiguous blob: a 32-byte header, a table of 16-byte section entries, then the sections, each
// starting at a multiple of kAlignment from the start of the blob. Float arrays are read in place,
// so the blob itself must sit at an address aligned to kAlignment (flash, a static array declared
// alignas(16), or a malloc'd buffer).
#pragma once

#include <cstdint>

namespace rfk::format {

inline constexpr std::uint8_t kMagic[4] = {'R', 'F', 'K', 'M'};
inline constexpr std::uint16_t kVersionMajor = 1;  // readers reject any other major version
inline constexpr std::uint16_t kVersionMinor = 0;  // minor bumps only add optional sections
inline constexpr std::uint32_t kAlignment = 16;    // blob base and every section offset
inline constexpr std::uint32_t kHeaderBytes = 32;  // minimum; header_bytes may grow in 1.x
inline constexpr std::uint32_t kSectionEntryBytes = 16;
inline constexpr std::uint32_t kMaxSections = 64;

// Header field offsets (bytes from the start of the blob).
inline constexpr std::uint32_t kOffMagic = 0;          // u8[4]  "RFKM"
inline constexpr std::uint32_t kOffVersionMajor = 4;   // u16
inline constexpr std::uint32_t kOffVersionMinor = 6;   // u16
inline constexpr std::uint32_t kOffTotalBytes = 8;     // u32  size of the whole blob
inline constexpr std::uint32_t kOffCrc32 = 12;         // u32  CRC-32 of bytes [kCrcStart, total)
inline constexpr std::uint32_t kOffHeaderBytes = 16;   // u32  >= kHeaderBytes
inline constexpr std::uint32_t kOffSectionCount = 20;  // u32  <= kMaxSections
inline constexpr std::uint32_t kOffSectionTable = 24;  // u32  offset of the table, 4-aligned
inline constexpr std::uint32_t kOffFlags = 28;         // u32  reserved, 0
inline constexpr std::uint32_t kCrcStart = 16;  // the CRC covers everything after itself

// Section table entry: u16 type, u16 flags, u32 offset, u32 size (bytes), u32 reserved (0).
inline constexpr std::uint16_t kSectionRequired = 0x0001;  // flag: unknown => reader must fail

enum class SectionType : std::uint16_t {
  kMapParams = 1,    // required: MapParams below
  kProjection = 2,   // required: W, num_frequencies x input_dim f32, row-major
  kPhase = 3,        // required for kFourierPhase: b, num_frequencies f32, in [0, 2*pi)
  kStandardize = 4,  // optional section, required flag set: mean[d] f32 then inv_scale[d] f32
  kHead = 5,         // required: HeadParams below
  kLabels = 6,       // required for classification: class label strings
  kMetadata = 7,     // optional: UTF-8 "key=value\n" lines, informational only
  kBinningParams = 8,  // random binning map: BinningParams below
  kBinGrids = 9,       // P x d f32 inverse widths 1/delta, then P x d f32 offsets u
  kBinKeys = 10,       // exact mode: u32 grid_start[P + 1], padding to 8, u64 keys[columns]
  // Reserved: 11..15 further binning storage, 16..23 structured maps.
};

enum class MapKind : std::uint32_t {
  kFourier = 1,       // pair form [cos(Wx), sin(Wx)] / sqrt(F), D = 2F
  kFourierPhase = 2,  // sqrt(2/D) cos(Wx + b), D = F
  kBinning = 3,       // reserved (random binning features)
  kOrthogonal = 4,    // reserved (ORF)
  kStructured = 5,    // reserved (SORF)
};

enum class Kernel : std::uint32_t {
  kGaussian = 1,   // exp(-gamma ||x-y||_2^2)        W ~ Normal(0, 2 gamma)
  kLaplacian = 2,  // exp(-gamma ||x-y||_1)          W ~ Cauchy(0, gamma) per coordinate
  kCauchy = 3,     // prod_i 1/(1 + gamma^2 (x_i-y_i)^2)  W ~ Laplace(0, scale gamma)
};

enum class Storage : std::uint32_t {
  kF32 = 1,   // supported
  kF16 = 2,   // reserved
  kInt8 = 3,  // reserved
  kSeed = 4,  // reserved: W regenerated from the seed on device
};

enum class Layout : std::uint32_t {
  kRowMajor = 1,  // W[j][c] at j*d + c
  kPanels = 2,    // panels of kPanelWidth frequencies: W[j][c] at (j/16)*16*d + c*16 + j%16,
                  // rows padded with zeros to a multiple of 16: any SIMD vector of <= 16 lanes
                  // loads contiguously, and W streams once per sample
};

enum class Task : std::uint32_t {
  kRegression = 1,  // K = 1 output, the prediction
  kBinary = 2,      // K = 1 output; class 1 if output > 0 else class 0
  kMulticlass = 3,  // K = number of classes >= 3, one-vs-rest; argmax
};

// kMapParams section layout (48 bytes).
namespace map_params {
inline constexpr std::uint32_t kBytes = 48;
inline constexpr std::uint32_t kMapKind = 0;         // u32 MapKind
inline constexpr std::uint32_t kKernel = 4;          // u32 Kernel
inline constexpr std::uint32_t kInputDim = 8;        // u32 d
inline constexpr std::uint32_t kFourierFeatures = 12; // u32 D_F: 2F (pair form) or F (phase form)
inline constexpr std::uint32_t kNumFrequencies = 16; // u32 F (rows of W)
inline constexpr std::uint32_t kStorage = 20;        // u32 Storage of W
inline constexpr std::uint32_t kLayout = 24;         // u32 Layout of W
inline constexpr std::uint32_t kGamma = 28;          // f32 kernel parameter, > 0
inline constexpr std::uint32_t kFeatureScale = 32;   // f32 multiplies every feature
inline constexpr std::uint32_t kPanelWidthField = 36;  // u32 kPanelWidth (panels), 0 (row-major)
inline constexpr std::uint32_t kSeed = 40;           // u64 seed W (and b) were drawn with
}  // namespace map_params

// kBinningParams section layout (48 bytes). The map sends x to one column per grid p:
//   bin_m = floor((x_m - offset[p][m]) * inv_width[p][m]),  key = hash_p(bin_0 .. bin_{d-1}),
//   exact mode:  the key's position in grid p's sorted keys (no column if the key is absent),
//   hashed mode: p * B + ((key >> 32) * B >> 32).
// Each present column contributes feature_scale (= 1/sqrt(P)) times its head weight.
enum class BinMode : std::uint32_t {
  kExact = 1,   // bins seen in training, keys stored
  kHashed = 2,  // B buckets per grid, no keys: size fixed in advance
};
namespace binning_params {
inline constexpr std::uint32_t kBytes = 48;
inline constexpr std::uint32_t kNumGrids = 0;       // u32 P
inline constexpr std::uint32_t kInputDim = 4;       // u32 d, equal to the Fourier map's if both
inline constexpr std::uint32_t kMode = 8;           // u32 BinMode
inline constexpr std::uint32_t kBuckets = 12;       // u32 B (hashed), 0 (exact)
inline constexpr std::uint32_t kBinFeatures = 16;   // u32 D_B: exact: number of keys; hashed: P * B
inline constexpr std::uint32_t kKernel = 20;        // u32 Kernel: kLaplacian
inline constexpr std::uint32_t kGamma = 24;         // f32 kernel parameter, > 0
inline constexpr std::uint32_t kFeatureScale = 28;  // f32 1/sqrt(P)
inline constexpr std::uint32_t kSeed = 32;          // u64 seed of the grids and the hash
inline constexpr std::uint32_t kReserved = 40;      // u32[2] 0
}  // namespace binning_params

// kHead section layout: 16-byte header, then weights K x D f32 (row k = output k), then bias K f32.
namespace head {
inline constexpr std::uint32_t kHeaderBytes = 16;
inline constexpr std::uint32_t kTask = 0;         // u32 Task
inline constexpr std::uint32_t kNumOutputs = 4;   // u32 K
inline constexpr std::uint32_t kNumFeatures = 8;  // u32 D = D_F + D_B, the length of z(x)
inline constexpr std::uint32_t kReserved = 12;    // u32 0
}  // namespace head

// kLabels section layout: u32 count C, u32 reserved, u32 offsets[C + 1] into the string pool that
// follows; string i is bytes [offsets[i], offsets[i+1]) of the pool, ending in its NUL.
namespace labels {
inline constexpr std::uint32_t kCount = 0;
inline constexpr std::uint32_t kOffsets = 8;
}  // namespace labels

// Limits a reader enforces before trusting any count (they bound every product in u64).
inline constexpr std::uint32_t kMaxInputDim = 1u << 24;
inline constexpr std::uint32_t kMaxFeatures = 1u << 24;
inline constexpr std::uint32_t kMaxOutputs = 1u << 16;
inline constexpr std::uint32_t kPanelWidth = 16;  // frequencies per panel (Layout::kPanels)

// Rows of W as stored: F for row-major, F rounded up to a multiple of kPanelWidth for panels.
constexpr std::uint32_t StoredFrequencies(Layout layout, std::uint32_t F) {
  return layout == Layout::kPanels ? (F + kPanelWidth - 1) / kPanelWidth * kPanelWidth : F;
}

}  // namespace rfk::format

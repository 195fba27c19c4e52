// Model validation, once, at open: OpenModel runs one small validator per step, in the order of
// docs/FORMAT.md's "Limits and checks, in the order a reader applies them". Each validator reads
// its section where the table put it, checks it, fills its part of the Model, and on a problem
// records the status, the field and its byte offset (ModelError) and returns false. Shared checks
// (enum values, finite floats, weight matrices, string tables) and the standardize section's are in
// model_open_arrays.cc, their state in model_reader.h. No allocation, no exceptions; the sections
// are located once, in a fixed-size table on the stack.
#include "fp_contract.h"  // first: no compiler-fused multiply-adds in this file
#include "core_config.h"
#include "fastfood_perm.h"
#include "fixed_open.h"
#include "model_reader.h"

// A core pinned to one model opens it in model_open_pinned.cc instead (core_config.h, RFK_PIN_MODEL).
#ifndef RFK_PIN_MODEL
#if RFK_FIXED_ON_USE
// The integer path's validator, linked where PredictFixed is (fixed_open.h, RFK_FIXED_ON_USE).
namespace rfk::core {
[[gnu::weak]] extern const FixedSectionCheck kFixedSectionCheck;
}  // namespace rfk::core
#endif

namespace rfk {
namespace open {

using core::IsFinite, core::LoadF32, core::LoadU16, core::LoadU32, core::LoadU64, core::Put;
using f::SectionType;

namespace {

// 1. Header: base alignment, at least 32 bytes, magic, major version, total_bytes within the
// buffer, header_bytes, CRC-32. (The same fields rfk/blob_view.hpp reads for tools; here each size
// is checked before the read that relies on it, so no bounds checks are needed.)
bool CheckHeader(Reader& r, std::size_t size) {
  const std::uint8_t* b = r.b;
  if (reinterpret_cast<std::uintptr_t>(b) % f::kAlignment != 0) return r.Fail(Status::kMisalignedBuffer, "bytes", 0);
  if (size < f::kHeaderBytes) return r.Fail(Status::kTruncated, "header", 0);
  if (LoadU32(b + f::kOffMagic) != LoadU32(f::kMagic))  // one compare: no memcmp in the image
    return r.Fail(Status::kBadMagic, "header.magic", f::kOffMagic);
  const std::uint16_t major = LoadU16(b + f::kOffVersionMajor);
  if (major != f::kVersionMajor) return r.Fail(Status::kUnsupportedVersion, "header.version_major", f::kOffVersionMajor);
  const std::uint32_t total = LoadU32(b + f::kOffTotalBytes);
  if (total < f::kHeaderBytes) return r.Fail(Status::kBadHeader, "header.total_bytes", f::kOffTotalBytes);
  if (total > size) return r.Fail(Status::kTruncated, "header.total_bytes", f::kOffTotalBytes);
  const std::uint32_t header_bytes = LoadU32(b + f::kOffHeaderBytes);
  if (header_bytes < f::kHeaderBytes || header_bytes > total)
    return r.Fail(Status::kBadHeader, "header.header_bytes", f::kOffHeaderBytes);
  if (Crc32(b + f::kCrcStart, total - f::kCrcStart) != LoadU32(b + f::kOffCrc32))
    return r.Fail(Status::kBadChecksum, "header.crc32", f::kOffCrc32);
  r.m.bytes = b;
#if RFK_MODEL_HAS_INFO
  r.m.total_bytes = total;
  r.m.version_major = major;
  r.m.version_minor = LoadU16(b + f::kOffVersionMinor);
#endif
  return true;
}

// 2. Section table: count, position, each entry's alignment, range and order (sections follow the
// table in table order, without overlap); duplicate and unknown-required types.
bool ReadSectionTable(Reader& r) {
  const std::uint8_t* b = r.b;
  const std::uint32_t total = LoadU32(b + f::kOffTotalBytes);  // CheckHeader's
  const std::uint32_t count = LoadU32(b + f::kOffSectionCount), table = LoadU32(b + f::kOffSectionTable);
  if (count == 0 || count > f::kMaxSections)
    return r.Fail(Status::kBadSectionTable, "header.section_count", f::kOffSectionCount);
  if (table < LoadU32(b + f::kOffHeaderBytes) || table % 4 != 0 ||
      std::uint64_t{table} + std::uint64_t{count} * f::kSectionEntryBytes > total)
    return r.Fail(Status::kBadSectionTable, "header.section_table", f::kOffSectionTable);
  std::uint32_t prev_end = table + count * f::kSectionEntryBytes;
  for (std::uint32_t i = 0; i < count; ++i) {
    const std::uint32_t e = table + i * f::kSectionEntryBytes;
    const std::uint32_t off = LoadU32(b + e + f::entry::kOffset), sz = LoadU32(b + e + f::entry::kSize);
    if (off % f::kAlignment != 0)
      return r.Fail(Status::kMisalignedSection, "section.offset", e + f::entry::kOffset);
    if (off < prev_end || std::uint64_t{off} + sz > total)
      return r.Fail(Status::kBadSectionTable, "section.offset", e + f::entry::kOffset);
    prev_end = off + sz;
    const int slot = SlotOf(LoadU16(b + e + f::entry::kType));
    if (slot < 0) {
      if (LoadU16(b + e + f::entry::kFlags) & f::kSectionRequired)
        return r.Fail(Status::kUnknownRequiredSection, "section.type", e);
      continue;  // unknown optional section: skipped
    }
    if (r.sec[slot].present()) return r.Fail(Status::kDuplicateSection, "section.type", e);
    r.sec[slot] = Section{off, sz, e};
  }
  return true;
}

// 3a. map_params, its enum values: map kind, kernel (one the map can approximate), W's storage, layout, panel width.
bool CheckMapKinds(Reader& r, std::uint32_t at) {
  namespace mp = f::map_params;
  const std::uint8_t* p = r.b + at;
  const std::uint32_t layout = LoadU32(p + mp::kLayout);
  if (!CheckValue(r, f::SupportOf<f::MapKind>(LoadU32(p + mp::kMapKind)), "map_params.map_kind",
                  at + mp::kMapKind, Status::kUnsupportedMap) ||
      !CheckValue(r, f::SupportOf<f::Kernel>(LoadU32(p + mp::kKernel)), "map_params.kernel",
                  at + mp::kKernel, Status::kBadValue) ||
      !CheckValue(r, f::SupportOf<f::Storage>(LoadU32(p + mp::kStorage)), "map_params.storage",
                  at + mp::kStorage, Status::kUnsupportedStorage) ||
      // A layout this reader does not know is a storage it cannot read.
      !CheckValue(r, f::SupportOf<f::Layout>(layout), "map_params.layout", at + mp::kLayout,
                  Status::kUnsupportedStorage, Status::kUnsupportedStorage))
    return false;
  const auto storage = static_cast<f::Storage>(LoadU32(p + mp::kStorage));  // W's, or G and S's
  Put(r.m.layout, static_cast<f::Layout>(layout));
#if RFK_MODEL_HAS_INFO
  r.m.projection_storage = storage;
#endif
  if (!f::StorageFor(storage, f::kForW))  // f16-scaled: a head's storage only
    return r.Fail(Status::kUnsupportedStorage, "map_params.storage", at + mp::kStorage);
  if (LoadU32(p + mp::kPanelWidthField) != (layout == static_cast<std::uint32_t>(f::Layout::kPanels) ? f::kPanelWidth : 0u))
    return r.Fail(Status::kBadValue, "map_params.panel_width", at + mp::kPanelWidthField);
  // A configured Model whose map is a constant (rfk/model_layout.h) refuses every other kind here,
  // before anything reads r.m.map.
  const auto kind = static_cast<f::MapKind>(LoadU32(p + mp::kMapKind));
  Put(r.m.map, kind);
  if (r.m.map != kind) return r.Fail(Status::kUnsupportedMap, "map_params.map_kind", at + mp::kMapKind);
  const auto kernel = static_cast<f::Kernel>(LoadU32(p + mp::kKernel));
#if RFK_MODEL_HAS_INFO
  r.m.kernel = kernel;
#endif
  if (!f::KernelFitsMap(r.m.map, kernel))
    return r.Fail(Status::kBadValue, "map_params.kernel", at + mp::kKernel);
  return true;
}

// 3b. map_params, its counts and parameters: d, D_F (2F or F), F, gamma, feature_scale.
bool CheckMapCounts(Reader& r, std::uint32_t at) {
  namespace mp = f::map_params;
  Model& m = r.m;
  const std::uint8_t* p = r.b + at;
  m.input_dim = LoadU32(p + mp::kInputDim);
  // Constants 0 in a core that reads binning alone, which refused map_params before this.
  const std::uint32_t DF = LoadU32(p + mp::kFourierFeatures), F = LoadU32(p + mp::kNumFrequencies);
  Put(m.fourier_features, DF);
  Put(m.num_frequencies, F);
  const float gamma = LoadF32(p + mp::kGamma);
  const float scale = LoadF32(p + mp::kFeatureScale);
  Put(m.feature_scale, scale);
  m.num_features = DF;  // plus the bin features (CheckBinningValues)
#if RFK_MODEL_HAS_INFO
  m.gamma = gamma;
  m.seed = LoadU64(p + mp::kSeed);
#endif
  if (m.input_dim == 0 || m.input_dim > f::kMaxInputDim)
    return r.Fail(Status::kBadValue, "map_params.input_dim", at + mp::kInputDim);
  if (DF == 0 || DF > f::kMaxFeatures)
    return r.Fail(Status::kBadValue, "map_params.fourier_features", at + mp::kFourierFeatures);
  const std::uint64_t want = (f::IsPhaseForm(m.map) ? 1ull : 2ull) * F;
  if (F == 0 || want != DF)
    return r.Fail(Status::kBadValue, "map_params.num_frequencies", at + mp::kNumFrequencies);
  if (!IsFinite(gamma) || !core::IsPositive(gamma))
    return r.Fail(Status::kBadValue, "map_params.gamma", at + mp::kGamma);
  if (!IsFinite(scale))
    return r.Fail(Status::kBadValue, "map_params.feature_scale", at + mp::kFeatureScale);
  return true;
}

// 3a. The kinds this build reads (core_config.h): a core without the integer path refuses a fixed
// section, one without the float path every model without it, and binning unless its integer
// form is built (kFixedBinning): before any validator that the build leaves out could misread
// what it skipped.
bool CheckBuildAccepts(Reader& r) {
  const Section& fixed = r[SectionType::kFixed];
  if (!core::kCoreFixed && fixed.present()) return r.Fail(Status::kUnsupportedStorage, "fixed", fixed.entry);
  if (!core::kCoreFloat && !fixed.present()) return r.Fail(Status::kUnsupportedStorage, "fixed", 0);
  if (!core::kCoreFloat && !core::kFixedBinning && r[SectionType::kBinningParams].present())
    return r.Fail(Status::kUnsupportedMap, "fixed", fixed.entry);
  // A core that reads binning alone (no Fourier map on either path) refuses every map_params.
  constexpr bool kFourierBuilt = (core::kCoreFloat && (core::kFloatDense || core::kFloatFastfood)) ||
                                 (core::kCoreFixed && (core::kFixedDense || core::kFixedFastfood));
  const Section& map = r[SectionType::kMapParams];
  if (!kFourierBuilt && map.present()) return r.Fail(Status::kUnsupportedMap, "map_params", map.entry);
  // A float core without float binning: refused are float bin grids, and binning at all where the
  // integer path has none either (a fixed binning model without grids is the integer path's).
  const Section& bins = r[SectionType::kBinningParams];
  if (core::kCoreFloat && !core::kFloatBinning &&
      (r[SectionType::kBinGrids].present() || (!core::kFixedBinning && bins.present())))
    return r.Fail(Status::kUnsupportedMap, "binning_params", bins.entry);
  return true;
}

// 3c. The float path's map and W storage this build reads (core_config.h), once map_params is
// known: a dense map (its kind, or a W) without kFloatDense, a Fastfood map (its kind, or its
// section) without kFloatFastfood, a form (pair or phase) without its switch, a row-major W without
// kLayoutRows, a W or diagonals stored other than f32 in a storage the build does not read
// (kFloatQuant, kFloatInt8, kFloatF16). By the kind too, not only by the arrays present: a model
// of a kind compiled out whose arrays are missing is refused here, where the validators that
// would miss them are compiled out. A fixed-only model (a fixed section and neither array)
// passes, and a core without the float path reads a model's fixed section whatever float
// sections it also has.
bool CheckFloatMapBuilt(Reader& r, std::uint32_t at) {
  if (!core::kCoreFloat) return true;
  const bool dense = r[SectionType::kProjection].present(), fastfood = r[SectionType::kFastfood].present();
  if (!dense && !fastfood && r[SectionType::kFixed].present()) return true;
  const bool fastfood_kind = f::IsFastfood(r.m.map);
  const bool form_built = f::IsPhaseForm(r.m.map) ? core::kFormPhase : core::kFormPair;
  if (((dense || !fastfood_kind) && !core::kFloatDense) || ((fastfood || fastfood_kind) && !core::kFloatFastfood) ||
      !form_built)
    return r.Fail(Status::kUnsupportedMap, "map_params.map_kind", at + f::map_params::kMapKind);
  if (!fastfood_kind && !core::kLayoutRows && r.MapLayout() != f::Layout::kPanels)
    return r.Fail(Status::kUnsupportedStorage, "map_params.layout", at + f::map_params::kLayout);
  if ((dense || fastfood) && r.MapStorage() != f::Storage::kF32 && !core::QuantStorageBuilt(r.MapStorage()))
    return r.Fail(Status::kUnsupportedStorage, "map_params.storage", at + f::map_params::kStorage);
  return true;
}

// 3. map_params: what the build reads; at least one map (map_params or binning_params); this one's
// fixed size.
bool CheckMapParams(Reader& r) {
  if (!CheckBuildAccepts(r)) return false;
  const Section& s = r[SectionType::kMapParams];
  if (!s.present() && !r[SectionType::kBinningParams].present())
    return r.Fail(Status::kMissingSection, "map_params", 0);
  if (!s.present()) return true;
  if (s.size != f::map_params::kBytes)
    return r.Fail(Status::kBadSectionSize, "map_params.size", s.size_at());
  return CheckMapKinds(r, s.offset) && CheckFloatMapBuilt(r, s.offset) && CheckMapCounts(r, s.offset);
}

// 4. projection (W): with map_params of a kind other than Fastfood only (optional with a fixed
// section); F x d weights (F rounded up to whole panels) in map_params.storage: QuantMatrixBytes.
bool CheckProjection(Reader& r) {
  const Section& s = r[SectionType::kProjection];
  if (!r[SectionType::kMapParams].present() || f::IsFastfood(r.m.map))
    return !s.present() || r.Fail(Status::kBadValue, "projection", s.entry);
  if (core::kCoreFixed && !s.present() && r[SectionType::kFixed].present()) return true;  // fixed-only: no float W
  if (!s.present()) return r.Fail(Status::kMissingSection, "projection", 0);
  const f::Storage st = r.MapStorage();
  const std::uint64_t rows = f::StoredFrequencies(r.MapLayout(), r.m.num_frequencies);
  if (s.size != f::QuantMatrixBytes(st, rows, r.m.input_dim))
    return r.Fail(Status::kBadSectionSize, "projection.size", s.size_at());
#if RFK_MODEL_HAS_QUANT && RFK_MODEL_HAS_DENSE
  WeightsView& w = r.m.projection_weights;
  w.type = st;
  w.data = r.Data(s);
  if (f::HasRowScales(st))
    w.scale = reinterpret_cast<const float*>(r.Data(s) + f::QuantValuesBytes(st, rows, r.m.input_dim));
#endif
  if (st == f::Storage::kF32) Put(r.m.projection, reinterpret_cast<const float*>(r.Data(s)));
  return true;
}

// 5. phase (b): with the phase form only (absent, with W, in a fixed-only model); F floats.
bool CheckPhase(Reader& r) {
  const Section& s = r[SectionType::kPhase];
  // (A float-only core without the phase form has refused phase kinds: CheckFloatMapBuilt.)
  if ((!core::kFormPhase && !core::kCoreFixed) || !r[SectionType::kMapParams].present() || !f::IsPhaseForm(r.m.map))
    return !s.present() || r.Fail(Status::kBadValue, "phase", s.entry);  // the pair form has none
  // A fixed-only model has neither W nor b; with W, the float path reads b.
  if (core::kCoreFixed && !s.present() && r[SectionType::kFixed].present() && !r[SectionType::kProjection].present())
    return true;
  if (!s.present()) return r.Fail(Status::kMissingSection, "phase", 0);
  if (s.size != std::uint64_t{r.m.num_frequencies} * sizeof(float))
    return r.Fail(Status::kBadSectionSize, "phase.size", s.size_at());
  Put(r.m.phase, reinterpret_cast<const float*>(r.Data(s)));
  return true;
}

// 5b. fastfood: present exactly with a Fastfood map kind (optional with a fixed section: a fixed-only
// model keeps its integers there); d' = PaddedDim(d) within kMaxPaddedDim, num_blocks = ceil(F /
// d'), index_bits, the size; the permutations.
bool CheckFastfood(Reader& r) {
  namespace ff = f::fastfood;
  const Section& s = r[SectionType::kFastfood];
  if (!r[SectionType::kMapParams].present() || !f::IsFastfood(r.m.map))
    return !s.present() || r.Fail(Status::kBadValue, "fastfood", s.entry);
  if (core::kCoreFixed && !s.present() && r[SectionType::kFixed].present()) return true;  // fixed-only: in `fixed`
  if (!s.present()) return r.Fail(Status::kMissingSection, "fastfood", 0);
  if (s.size < ff::kHeaderBytes) return r.Fail(Status::kBadSectionSize, "fastfood.size", s.size_at());
  const std::uint8_t* p = r.Data(s);
  const std::uint32_t dp = LoadU32(p + ff::kPaddedDim), blocks = LoadU32(p + ff::kNumBlocks);
  if (dp != ff::PaddedDim(r.m.input_dim) || dp > ff::kMaxPaddedDim)
    return r.Fail(Status::kBadValue, "fastfood.padded_dim", s.offset + ff::kPaddedDim);
  if (blocks != (r.m.num_frequencies - 1) / dp + 1)
    return r.Fail(Status::kBadValue, "fastfood.num_blocks", s.offset + ff::kNumBlocks);
  if (LoadU32(p + ff::kIndexBits) != ff::IndexBits(dp))
    return r.Fail(Status::kBadValue, "fastfood.index_bits", s.offset + ff::kIndexBits);
  const f::Storage st = r.MapStorage();  // of G and S
  if (s.size != ff::SectionBytes(st, dp, blocks))
    return r.Fail(Status::kBadSectionSize, "fastfood.size", s.size_at());
  const std::uint32_t N = dp * blocks;  // <= F + d' <= 2^24 + 2^16
  const std::uint32_t diag = ff::DiagonalBytes(st, dp, blocks);  // a multiple of 4, < 2^27
#if RFK_MODEL_HAS_FASTFOOD && !RFK_MODEL_CONFIGURED
  FastfoodArrays& a = r.m.fastfood;
#else  // a configured core stores G and its storage (FastfoodOf derives the rest), or without
       // Fastfood never calls this (CheckFloatMapBuilt refused it)
  FastfoodArrays a;
#endif
  a.dp = dp;
  a.blocks = blocks;
  a.index_bits = ff::IndexBits(dp);
  a.storage = st;
  a.G = p + ff::kHeaderBytes;
  a.S = p + ff::kHeaderBytes + diag;
  a.perm = p + ff::kHeaderBytes + 2 * diag;
  a.signs = a.perm + ff::PermBytes(dp, N);
#if RFK_MODEL_HAS_FASTFOOD && RFK_MODEL_CONFIGURED
  r.m.fastfood.storage = st;
  r.m.fastfood.G = a.G;
#endif
  // 5c. Each block a permutation of [0, d'); a bad entry is reported at its first bit's byte.
  const std::uint32_t bad = core::FirstBadPermByte(a.perm, dp, blocks);
  return bad == core::kPermsOk || r.Fail(Status::kBadValue, "fastfood.perm", r.Offset(a.perm) + bad);
}

#if RFK_MODEL_HAS_BINNING
// 6b. binning_params' values: P, d (the Fourier map's, if any), mode, kernel, gamma, scale, B, D_B.
bool CheckBinningValues(Reader& r, std::uint32_t at) {
  namespace bp = f::binning_params;
  Model& m = r.m;
  const std::uint8_t* p = r.b + at;
  m.num_grids = LoadU32(p + bp::kNumGrids);
  const std::uint32_t d = LoadU32(p + bp::kInputDim), mode = LoadU32(p + bp::kMode);
  m.bin_buckets = LoadU32(p + bp::kBuckets);
  const std::uint32_t DB = LoadU32(p + bp::kBinFeatures);
  const float gamma = LoadF32(p + bp::kGamma);
#if RFK_MODEL_HAS_INFO
  m.bin_gamma = gamma;
  m.bin_features = DB;
#endif
  const float bin_scale = LoadF32(p + bp::kFeatureScale);
  Put(m.bin_scale, bin_scale);  // checked whether the core stores it or not (rfk/model_layout.h)
  m.bin_seed = LoadU64(p + bp::kSeed);
  if (m.num_grids == 0 || m.num_grids > f::kMaxGrids)
    return r.Fail(Status::kBadValue, "binning_params.num_grids", at + bp::kNumGrids);
  if (d == 0 || d > f::kMaxInputDim || (r[SectionType::kMapParams].present() && d != m.input_dim))
    return r.Fail(Status::kBadValue, "binning_params.input_dim", at + bp::kInputDim);
  m.input_dim = d;
  if (!CheckValue(r, f::SupportOf<f::BinMode>(mode), "binning_params.mode", at + bp::kMode,
                  Status::kBadValue))
    return false;
  m.bin_mode = static_cast<f::BinMode>(mode);
  if (LoadU32(p + bp::kKernel) != static_cast<std::uint32_t>(f::Kernel::kLaplacian))
    return r.Fail(Status::kBadValue, "binning_params.kernel", at + bp::kKernel);
  if (!IsFinite(gamma) || !core::IsPositive(gamma))
    return r.Fail(Status::kBadValue, "binning_params.gamma", at + bp::kGamma);
  if (!IsFinite(bin_scale))
    return r.Fail(Status::kBadValue, "binning_params.feature_scale", at + bp::kFeatureScale);
  if (m.bin_mode == f::BinMode::kHashed
          ? (m.bin_buckets == 0 || std::uint64_t{m.num_grids} * m.bin_buckets != DB)
          : m.bin_buckets != 0)
    return r.Fail(Status::kBadValue, "binning_params.buckets", at + bp::kBuckets);
  if (DB > f::kMaxFeatures || std::uint64_t{DB} + m.fourier_features > f::kMaxFeatures)
    return r.Fail(Status::kBadValue, "binning_params.bin_features", at + bp::kBinFeatures);
  m.num_features = m.fourier_features + DB;  // D_B = BinFeatures(m) from here on
  return true;
}

// 6. binning_params: bin_grids and bin_keys only with it; its fixed size; its values.
bool CheckBinningParams(Reader& r) {
  const Section& s = r[SectionType::kBinningParams];
  if (!s.present()) {
    const Section& grids = r[SectionType::kBinGrids];
    const bool orphans = grids.present() || r[SectionType::kBinKeys].present();
    return !orphans || r.Fail(Status::kBadValue, "bin_grids", grids.entry);
  }
  if (s.size != f::binning_params::kBytes)
    return r.Fail(Status::kBadSectionSize, "binning_params.size", s.size_at());
  return CheckBinningValues(r, s.offset);
}

// 7. bin_grids: with binning_params (optional with a fixed section: a fixed-only model); 1/delta
// then u, P x d floats each.
bool CheckBinGrids(Reader& r) {
  if (r.m.num_grids == 0) return true;
  const Section& s = r[SectionType::kBinGrids];
  if (core::kCoreFixed && !s.present() && r[SectionType::kFixed].present()) return true;  // fixed-only: no float grids
  if (!s.present()) return r.Fail(Status::kMissingSection, "bin_grids", 0);
  if (s.size != 2ull * r.m.num_grids * r.m.input_dim * sizeof(float))
    return r.Fail(Status::kBadSectionSize, "bin_grids.size", s.size_at());
  // A core without the float path's binning stores neither (rfk/model_layout.h), nor reads them.
  const auto* inv_width = reinterpret_cast<const float*>(r.Data(s));
  Put(r.m.bin_inv_width, inv_width);
#if RFK_MODEL_HAS_INFO  // a configured Model derives it (BinOffset)
  r.m.bin_offset = inv_width + std::uint64_t{r.m.num_grids} * r.m.input_dim;
#endif
  return true;
}

// 8b. bin_keys' contents: grid_start from 0 to D_B, non-decreasing; keys strictly increasing
// within each grid (the per-sample binary search relies on it).
bool CheckBinKeyOrder(Reader& r, const Section& s) {
  const std::uint8_t* q = r.Data(s);
  const std::uint64_t keys_at = f::bin_keys::KeysOffset(r.m.num_grids);
  const auto* keys = reinterpret_cast<const std::uint64_t*>(q + keys_at);
  const std::uint32_t P = r.m.num_grids, DB = BinFeatures(r.m);
  std::uint32_t prev = 0;
  for (std::uint32_t g = 0; g <= P; ++g) {
    const std::uint32_t start = LoadU32(q + 4 * g);
    if ((g == 0 && start != 0) || start < prev || start > DB || (g == P && start != DB))
      return r.Fail(Status::kBadValue, "bin_keys.grid_start", s.offset + 4 * g);
    for (std::uint32_t k = prev + 1; g > 0 && k < start; ++k)
      if (keys[k] <= keys[k - 1])
        return r.Fail(Status::kBadValue, "bin_keys.keys",
                      static_cast<std::uint32_t>(s.offset + keys_at + 8ull * k));
    prev = start;
  }
  r.m.bin_grid_start = q;
#if RFK_MODEL_HAS_INFO  // a configured Model derives it (BinKeys)
  r.m.bin_keys = keys;
#endif
  return true;
}

// 8. bin_keys: exact mode only; grid starts and keys, sized by P and D_B.
bool CheckBinKeys(Reader& r) {
  if (r.m.num_grids == 0) return true;
  const Section& s = r[SectionType::kBinKeys];
  if (r.m.bin_mode == f::BinMode::kHashed)
    return !s.present() || r.Fail(Status::kBadValue, "bin_keys", s.entry);
  if (!s.present()) return r.Fail(Status::kMissingSection, "bin_keys", 0);
  if (s.size != f::bin_keys::KeysOffset(r.m.num_grids) + 8ull * BinFeatures(r.m))
    return r.Fail(Status::kBadSectionSize, "bin_keys.size", s.size_at());
  return CheckBinKeyOrder(r, s);
}
#else
// A configured core without binning (rfk/model_layout.h) has no members for it, and never calls
// these: CheckBuildAccepts has refused every model with binning_params.
bool CheckBinningParams(Reader&) { return true; }
bool CheckBinGrids(Reader&) { return true; }
bool CheckBinKeys(Reader&) { return true; }
#endif

// 9b. Fastfood's G, then S (one call site for both: flash on the smallest cores).
bool CheckFastfoodDiagonals(Reader& r) {
  const auto& a = FastfoodOf(r.m);
  for (int i = 0; a.dp != 0 && i < 2; ++i)
    if (!CheckWeights(r, FastfoodDiagonal(a, i == 0 ? a.G : a.S), a.blocks, a.dp, i == 0 ? "fastfood.G" : "fastfood.S",
                      i == 0 ? "fastfood.G_scale" : "fastfood.S_scale"))
      return false;
  return true;
}

// W's and the head's views as the checks below take them: the Model's own where it stores them (no
// copy on the stack under every validator), else made from the f32 pointers (rfk/model_layout.h).
#if RFK_MODEL_HAS_QUANT && RFK_MODEL_HAS_DENSE
const WeightsView& StoredW(const Model& m) { return m.projection_weights; }
#else
WeightsView StoredW(const Model& m) { return ProjectionView(m); }
#endif
#if RFK_MODEL_HAS_QUANT
const WeightsView& StoredHead(const Model& m) { return m.head; }
#else
WeightsView StoredHead(const Model& m) { return HeadView(m); }
#endif

// 9. The maps' float arrays (W, b, Fastfood's G and S, the bin grids) are finite: a NaN or infinity would make every
// prediction meaningless (or, through a bin index, undefined), so it is a corrupt model.
bool CheckMapArraysFinite(Reader& r) {
  const Model& m = r.m;
  const std::uint64_t rows = f::StoredFrequencies(m.layout, m.num_frequencies);
  const auto& w = StoredW(m);
  return (w.data == nullptr || CheckWeights(r, w, rows, m.input_dim, "projection", "projection.scale")) &&
         CheckFinite(r, m.phase, m.phase ? m.num_frequencies : 0u, "phase") &&
         (!core::kFloatFastfood || CheckFastfoodDiagonals(r)) &&
         CheckFinite(r, m.bin_inv_width, m.bin_inv_width ? 2ull * m.num_grids * m.input_dim : 0, "bin_grids");
}

// 11. head: task, K (1, or the classes), D = D_F + D_B, storage (0: f32; any supported one,
// f16-scaled included), size 16 + QuantMatrixBytes(storage, K, D) + 4 K.
bool CheckHead(Reader& r) {
  namespace hf = f::head;
  Model& m = r.m;
  const Section& s = r[SectionType::kHead];  // num_features: D_F + D_B, from the maps' sections
  if (!s.present()) return r.Fail(Status::kMissingSection, "head", 0);
  if (s.size < hf::kHeaderBytes) return r.Fail(Status::kBadSectionSize, "head.size", s.size_at());
  const std::uint8_t* p = r.Data(s);
  const std::uint32_t task = LoadU32(p + hf::kTask);
  if (!CheckValue(r, f::SupportOf<f::Task>(task), "head.task", s.offset + hf::kTask, Status::kBadValue))
    return false;
  m.task = static_cast<f::Task>(task);
  m.num_outputs = LoadU32(p + hf::kNumOutputs);
  const bool k_ok = m.task == f::Task::kMulticlass
                        ? (m.num_outputs >= 3 && m.num_outputs <= f::kMaxOutputs)
                        : m.num_outputs == 1;
  if (!k_ok) return r.Fail(Status::kBadValue, "head.num_outputs", s.offset + hf::kNumOutputs);
  if (LoadU32(p + hf::kNumFeatures) != m.num_features)
    return r.Fail(Status::kBadValue, "head.num_features", s.offset + hf::kNumFeatures);
  const std::uint32_t storage = LoadU32(p + hf::kStorage);
  if (storage != 0 && !CheckValue(r, f::SupportOf<f::Storage>(storage), "head.storage", s.offset + hf::kStorage,
                                  Status::kUnsupportedStorage))
    return false;
  const f::Storage st = storage == 0 ? f::Storage::kF32 : static_cast<f::Storage>(storage);
  // A quantized head where the float path runs the model (not a fixed-only one, whose float head
  // is unused) needs its storage built (kFloatInt8, kFloatF16), an f32 one kHeadF32.
  if (core::kCoreFloat && (st != f::Storage::kF32 ? !core::QuantStorageBuilt(st) : !core::kHeadF32) &&
      (!core::kCoreFixed || FloatRuns(r)))
    return r.Fail(Status::kUnsupportedStorage, "head.storage", s.offset + hf::kStorage);
  const std::uint64_t K = m.num_outputs, D = m.num_features;
  if (s.size != hf::kHeaderBytes + f::QuantMatrixBytes(st, K, D) + 4 * K)
    return r.Fail(Status::kBadSectionSize, "head.size", s.size_at());
#if RFK_MODEL_HAS_INFO
  m.head_storage = st;
#endif
#if RFK_MODEL_HAS_QUANT
  m.head.type = st;
  m.head.data = p + hf::kHeaderBytes;
  if (f::HasRowScales(st))
    m.head.scale = reinterpret_cast<const float*>(p + hf::kHeaderBytes + f::QuantValuesBytes(st, K, D));
#endif
  if (st == f::Storage::kF32) Put(m.head_weights, reinterpret_cast<const float*>(p + hf::kHeaderBytes));
#if RFK_MODEL_HAS_INFO  // a configured Model derives it (HeadBias)
  m.head_bias = reinterpret_cast<const float*>(p + hf::kHeaderBytes + f::QuantMatrixBytes(st, K, D));
#endif
  return true;
}

#if RFK_MODEL_HAS_NAMES
constexpr StringFields kLabelFields = {"labels.size", "labels.count", "labels.offsets", "labels.pool"};
constexpr StringFields kNameFields = {"feature_names.size", "feature_names.count", "feature_names.offsets",
                                      "feature_names.pool"};
#endif

// 12. labels: with classification only; C = 2 (binary) or K; the offsets and the pool. A core
// without kReadNames (core_config.h) neither checks nor reads the section (ClassLabel gives "").
bool CheckLabels(Reader& r) {
  const Section& s = r[SectionType::kLabels];
  if (r.m.task == f::Task::kRegression)
    return !core::kReadNames || !s.present() || r.Fail(Status::kBadValue, "labels", s.entry);
#if RFK_MODEL_HAS_INFO  // a configured Model derives it (NumClasses)
  r.m.num_classes = r.m.task == f::Task::kBinary ? 2u : r.m.num_outputs;
#endif
  if (core::kReadNames && !s.present()) return r.Fail(Status::kMissingSection, "labels", 0);
#if RFK_MODEL_HAS_NAMES  // else kReadNames is 0: a configured core without the names
  if (core::kReadNames && !CheckStrings(r, s, NumClasses(r.m), kLabelFields, &r.m.label_offsets, &r.m.label_pool))
    return false;
#endif
  return true;
}

// 14. standardize and the head (weights and biases) hold finite numbers.
bool CheckLaterArraysFinite(Reader& r) {
  const Model& m = r.m;
  return CheckStandardizeFinite(r) &&
         CheckWeights(r, StoredHead(m), m.num_outputs, m.num_features, "head", "head.scale") &&
         CheckFinite(r, HeadBias(m), m.num_outputs, "head");
}

// 15. impute (optional): size 16 + 4 d, a known method, count = d, finite values; refused by a
// core without kReadImpute (core_config.h).
bool CheckImpute(Reader& r) {
  namespace im = f::impute;
  const Section& s = r[SectionType::kImpute];
  if (!s.present()) return true;
  if (!core::kReadImpute) return r.Fail(Status::kUnsupportedSection, "impute", s.entry);
  if (s.size < im::kHeaderBytes) return r.Fail(Status::kBadSectionSize, "impute.size", s.size_at());
  const std::uint8_t* p = r.Data(s);
  const std::uint32_t method = LoadU32(p + im::kMethod);
  if (f::SupportOf<f::ImputeMethod>(method) == f::Support::kUnknown)
    return r.Fail(Status::kBadValue, "impute.method", s.offset + im::kMethod);
  if (LoadU32(p + im::kCount) != r.m.input_dim) return r.Fail(Status::kBadValue, "impute.count", s.offset + im::kCount);
  if (s.size != im::kHeaderBytes + std::uint64_t{r.m.input_dim} * 4)
    return r.Fail(Status::kBadSectionSize, "impute.size", s.size_at());
  const float* values = reinterpret_cast<const float*>(p + im::kHeaderBytes);
  if (!CheckFinite(r, values, r.m.input_dim, "impute")) return false;
  Put(r.m.impute, values);
#if RFK_MODEL_HAS_INFO
  r.m.impute_method = static_cast<f::ImputeMethod>(method);
#endif
  return true;
}

// 16. feature_names (optional): d + 1 names in the labels layout; not read without kReadNames.
bool CheckFeatureNames(Reader& r) {
  const Section& s = r[SectionType::kFeatureNames];
  if (!s.present() || !core::kReadNames) return true;
#if RFK_MODEL_HAS_NAMES
  const std::uint32_t want = r.m.input_dim + 1;
  if (!CheckStrings(r, s, want, kNameFields, &r.m.name_offsets, &r.m.name_pool)) return false;
  r.m.num_names = want;
#endif
  return true;
}

// 17. calibration (optional): classification only, a method of the task (binary: platt or
// platt-cubic; multiclass: softmax-temperature or softmax-vector), K = the head's, the size the
// method and K give, every parameter finite; B = 0 for softmax-temperature, A <= 0 and C <= 0 for
// platt-cubic, every a_k >= 0 for softmax-vector (signs tested on the bits: no float compare,
// which is a soft-float call on Cortex-M3). Refused by a core without kReadCalibration.
bool CheckCalibration(Reader& r) {
  namespace ca = f::calibration;
  using M = f::CalibrationMethod;
  const Section& s = r[SectionType::kCalibration];
  if (!s.present()) return true;
  if (!core::kReadCalibration) return r.Fail(Status::kUnsupportedSection, "calibration", s.entry);
  if (r.m.task == f::Task::kRegression) return r.Fail(Status::kBadValue, "calibration", s.entry);
  if (s.size < 8) return r.Fail(Status::kBadSectionSize, "calibration.size", s.size_at());
  const std::uint8_t* p = r.Data(s);
  const auto method = static_cast<M>(LoadU32(p + ca::kMethod));
  const bool binary = r.m.task == f::Task::kBinary;
  if (binary ? method != M::kPlatt && method != M::kPlattCubic : method != M::kSoftmax && method != M::kSoftmaxVector)
    return r.Fail(Status::kBadValue, "calibration.method", s.offset + ca::kMethod);
  const std::uint32_t K = LoadU32(p + ca::kNumOutputs);
  if (K != r.m.num_outputs) return r.Fail(Status::kBadValue, "calibration.num_outputs", s.offset + ca::kNumOutputs);
  if (s.size != ca::Bytes(static_cast<std::uint32_t>(method), K))
    return r.Fail(Status::kBadSectionSize, "calibration.size", s.size_at());
  static constexpr core::Field kNames[3] = {"calibration.scale", "calibration.bias", "calibration.cubic"};
  for (std::uint32_t i = 0, at = 8; at < s.size; ++i, at += 4) {
    const std::uint32_t bits = LoadU32(p + at);
    const bool nonzero = (bits & 0x7FFFFFFFu) != 0, negative = (bits >> 31) != 0;
    bool bad = (bits & 0x7F800000u) == 0x7F800000u;                      // inf or NaN
    if (method == M::kPlattCubic && i != 1) bad = bad || (nonzero && !negative);  // A, C <= 0
    if (method == M::kSoftmax && i == 1) bad = bad || nonzero;                    // B = 0
    if (method == M::kSoftmaxVector && i < K) bad = bad || (nonzero && negative);  // a_k >= 0
    if (bad)
      return r.Fail(Status::kBadValue, method != M::kSoftmaxVector ? kNames[i] : i < K ? "calibration.a" : "calibration.b",
                    s.offset + at);
  }
  Put(r.m.calibration_method, static_cast<std::uint32_t>(method));
  Put(r.m.calibration_params, p + 8);
  return true;
}

// 18. fixed (when present): lib/core/fixed_open.cc. Here only located: OpenModel runs the check
// once ReadModel has returned, so its stack does not add to the Reader's (576 B on the Cortex-M0).
bool CheckFixed(Reader& r, Section* fixed) {
  *fixed = r[SectionType::kFixed];
  return true;
}

// Then metadata: informational, not checked.
void ReadMetadata(Reader& r) {
  const Section& s = r[SectionType::kMetadata];
  if (!s.present()) return;
#if RFK_MODEL_HAS_INFO
  r.m.metadata = reinterpret_cast<const char*>(r.Data(s));
  r.m.metadata_bytes = s.size;
#else
  static_cast<void>(r);
#endif
}

// *m emptied, out of line: the temporary Model then lives in this frame, not in OpenModel's, which
// is on the stack under every validator.
[[gnu::noinline]] void Clear(Model* m) { *m = Model{}; }

// Every check but the fixed section's, which it locates in *fixed.
[[gnu::noinline]] Status ReadModel(const void* bytes, std::size_t size, Model* model, ModelError* error,
                                   Section* fixed) {
  Reader r{static_cast<const std::uint8_t*>(bytes), *model, error};
  // A build without the float path (core_config.h) skips what only it reads: Fastfood, binning
  // (unless the integer path has it), the float arrays' values (CheckBuildAccepts has refused the
  // models that would need them).
  constexpr bool kFloat = core::kCoreFloat, kBins = core::kFloatBinning || core::kFixedBinning;
  const bool ok = CheckHeader(r, size) && ReadSectionTable(r) && CheckMapParams(r) && CheckProjection(r) &&
                  CheckPhase(r) && (!core::kFloatFastfood || CheckFastfood(r)) &&
                  (!kBins || (CheckBinningParams(r) && CheckBinGrids(r) && CheckBinKeys(r))) &&
                  (!kFloat || CheckMapArraysFinite(r)) && CheckStandardize(r) && CheckHead(r) && CheckLabels(r) &&
                  (!kFloat || CheckLaterArraysFinite(r)) && CheckImpute(r) && CheckFeatureNames(r) &&
                  CheckCalibration(r) && CheckFixed(r, fixed);
  if (ok) ReadMetadata(r);
  return ok ? Status::kOk : r.status;
}

}  // namespace
}  // namespace open

Status OpenModel(const void* bytes, std::size_t size, Model* model, ModelError* error) noexcept {
  if (error) *error = ModelError{};
  if (model != nullptr) open::Clear(model);
  if (model == nullptr || bytes == nullptr) {
    const core::Field field = model == nullptr ? core::Field("model") : core::Field("bytes");
    if (error) *error = ModelError{Status::kNullArgument, core::FieldText(field), 0};
    return Status::kNullArgument;
  }
  open::Section fixed;
  Status s = open::ReadModel(bytes, size, model, error, &fixed);
  if (core::kCoreFixed && s == Status::kOk && fixed.present()) {
    const auto* blob = static_cast<const std::uint8_t*>(bytes);
#if RFK_FIXED_ON_USE
    if (&core::kFixedSectionCheck != nullptr) {
      s = core::kFixedSectionCheck(blob, fixed.offset, fixed.size, fixed.entry, *model, error);
    } else if (!core::FloatPathRuns(*model)) {  // a fixed-only model, and this image cannot predict it
      s = Status::kUnsupportedStorage;
      if (error) *error = ModelError{s, core::FieldText("fixed"), fixed.entry};
    }
#else
    s = core::CheckFixedSection(blob, fixed.offset, fixed.size, fixed.entry, *model, error);
#endif
  }
  if (s != Status::kOk) open::Clear(model);  // left empty on failure
  return s;
}

}  // namespace rfk
#endif  // RFK_PIN_MODEL

// Model validation (once, at open) and the per-sample prediction path.
#include "fp_contract.h"  // first: no compiler-fused multiply-adds in this file
#include "rfk/model.hpp"

#include <cstring>

#include "rfk/kernels.hpp"

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "rfk reads float arrays in place and supports little-endian targets only"
#endif

namespace rfk {
namespace {

using format::SectionType;

std::uint16_t LoadU16(const std::uint8_t* p) {
  std::uint16_t v;
  std::memcpy(&v, p, sizeof v);
  return v;
}
std::uint32_t LoadU32(const std::uint8_t* p) {
  std::uint32_t v;
  std::memcpy(&v, p, sizeof v);
  return v;
}
std::uint64_t LoadU64(const std::uint8_t* p) {
  std::uint64_t v;
  std::memcpy(&v, p, sizeof v);
  return v;
}
float LoadF32(const std::uint8_t* p) {
  float v;
  std::memcpy(&v, p, sizeof v);
  return v;
}

// False for NaN and +-inf: an exponent test on the bits (no <cmath>, no soft-float call).
bool IsFinite(float v) {
  std::uint32_t bits;
  std::memcpy(&bits, &v, sizeof bits);
  return (bits & 0x7f800000u) != 0x7f800000u;
}

// True when none of p[0..n) is NaN or +-inf. No early exit, so compilers vectorise it: inputs
// are checked on every prediction, and the early-exit loop took 7.9 us per 256 x 54 floats on x86
// (-O3), about 5% of a batch prediction; this one 2.0 us.
bool AllFinite(const float* p, std::size_t n) {
  std::uint32_t bad = 0;  // not bool: GCC 12 vectorises an integer OR, not a bool one (11 us)
  for (std::size_t i = 0; i < n; ++i) bad |= !IsFinite(p[i]);
  return bad == 0;
}

// Index of the first non-finite float of n, or n when all are finite. Floats read in place may be
// unaligned only if the section checks failed, which happens before this is called.
std::uint64_t FirstNonFinite(const float* p, std::uint64_t n) {
  for (std::uint64_t i = 0; i < n; ++i)
    if (!IsFinite(p[i])) return i;
  return n;
}

constexpr std::size_t RoundUp(std::size_t n, std::size_t a) { return (n + a - 1) / a * a; }

struct Section {
  std::uint32_t offset = 0;
  std::uint32_t size = 0;
  std::uint32_t entry = 0;  // offset of its table entry, for error reports
  bool present = false;
};

// Known section types are indexed by their numeric value.
constexpr std::uint16_t kKnownSectionLimit = 11;

struct Opener {
  const std::uint8_t* b;
  ModelError* err;

  Status Fail(Status s, const char* field, std::uint32_t offset) const {
    if (err) *err = ModelError{s, field, offset};
    return s;
  }
};

}  // namespace

Status OpenModel(const void* bytes, std::size_t size, Model* model, ModelError* error) noexcept {
  if (error) *error = ModelError{};
  if (model == nullptr) return Opener{nullptr, error}.Fail(Status::kNullArgument, "model", 0);
  *model = Model{};
  if (bytes == nullptr) return Opener{nullptr, error}.Fail(Status::kNullArgument, "bytes", 0);
  const auto* b = static_cast<const std::uint8_t*>(bytes);
  const Opener op{b, error};
  namespace f = format;

  if (reinterpret_cast<std::uintptr_t>(b) % f::kAlignment != 0)
    return op.Fail(Status::kMisalignedBuffer, "bytes", 0);
  if (size < f::kHeaderBytes) return op.Fail(Status::kTruncated, "header", 0);
  if (std::memcmp(b + f::kOffMagic, f::kMagic, sizeof f::kMagic) != 0)
    return op.Fail(Status::kBadMagic, "header.magic", f::kOffMagic);
  const std::uint16_t major = LoadU16(b + f::kOffVersionMajor);
  if (major != f::kVersionMajor)
    return op.Fail(Status::kUnsupportedVersion, "header.version_major", f::kOffVersionMajor);
  const std::uint32_t total = LoadU32(b + f::kOffTotalBytes);
  if (total < f::kHeaderBytes) return op.Fail(Status::kBadHeader, "header.total_bytes", f::kOffTotalBytes);
  if (total > size) return op.Fail(Status::kTruncated, "header.total_bytes", f::kOffTotalBytes);
  const std::uint32_t header_bytes = LoadU32(b + f::kOffHeaderBytes);
  if (header_bytes < f::kHeaderBytes || header_bytes > total)
    return op.Fail(Status::kBadHeader, "header.header_bytes", f::kOffHeaderBytes);
  if (Crc32(b + f::kCrcStart, total - f::kCrcStart) != LoadU32(b + f::kOffCrc32))
    return op.Fail(Status::kBadChecksum, "header.crc32", f::kOffCrc32);

  const std::uint32_t count = LoadU32(b + f::kOffSectionCount);
  const std::uint32_t table = LoadU32(b + f::kOffSectionTable);
  if (count == 0 || count > f::kMaxSections)
    return op.Fail(Status::kBadSectionTable, "header.section_count", f::kOffSectionCount);
  if (table < header_bytes || table % 4 != 0 ||
      std::uint64_t{table} + std::uint64_t{count} * f::kSectionEntryBytes > total)
    return op.Fail(Status::kBadSectionTable, "header.section_table", f::kOffSectionTable);
  const std::uint32_t data_start = table + count * f::kSectionEntryBytes;

  Section sec[kKnownSectionLimit];
  std::uint32_t prev_end = data_start;
  for (std::uint32_t i = 0; i < count; ++i) {
    const std::uint32_t e = table + i * f::kSectionEntryBytes;
    const std::uint16_t type = LoadU16(b + e);
    const std::uint16_t flags = LoadU16(b + e + 2);
    const std::uint32_t off = LoadU32(b + e + 4);
    const std::uint32_t sz = LoadU32(b + e + 8);
    if (off % f::kAlignment != 0) return op.Fail(Status::kMisalignedSection, "section.offset", e + 4);
    // Sections are stored in table order without overlap, after the table.
    if (off < prev_end || std::uint64_t{off} + sz > total)
      return op.Fail(Status::kBadSectionTable, "section.offset", e + 4);
    prev_end = off + sz;
    if (type == 0 || type >= kKnownSectionLimit) {
      if (flags & f::kSectionRequired)
        return op.Fail(Status::kUnknownRequiredSection, "section.type", e);
      continue;  // unknown optional section: skipped
    }
    if (sec[type].present) return op.Fail(Status::kDuplicateSection, "section.type", e);
    sec[type] = Section{off, sz, e, true};
  }

  Model m;
  m.bytes = b;
  m.total_bytes = total;
  m.version_major = major;
  m.version_minor = LoadU16(b + f::kOffVersionMinor);

  // --- feature map parameters
  const Section& mp = sec[static_cast<int>(SectionType::kMapParams)];
  const Section& bp = sec[static_cast<int>(SectionType::kBinningParams)];
  if (!mp.present && !bp.present) return op.Fail(Status::kMissingSection, "map_params", 0);
  if (mp.present && mp.size != f::map_params::kBytes)
    return op.Fail(Status::kBadSectionSize, "map_params.size", mp.entry + 8);
  if (mp.present) {
    const std::uint8_t* p = b + mp.offset;
    namespace mpf = f::map_params;
    const std::uint32_t kind = LoadU32(p + mpf::kMapKind);
    const std::uint32_t kernel = LoadU32(p + mpf::kKernel);
    const std::uint32_t storage = LoadU32(p + mpf::kStorage);
    const std::uint32_t layout = LoadU32(p + mpf::kLayout);
    if (kind < 1 || kind > 5) return op.Fail(Status::kBadValue, "map_params.map_kind", mp.offset);
    if (kind > 2) return op.Fail(Status::kUnsupportedMap, "map_params.map_kind", mp.offset);
    if (kernel < 1 || kernel > 3)
      return op.Fail(Status::kBadValue, "map_params.kernel", mp.offset + mpf::kKernel);
    if (storage < 1 || storage > 4)
      return op.Fail(Status::kBadValue, "map_params.storage", mp.offset + mpf::kStorage);
    if (storage != 1)
      return op.Fail(Status::kUnsupportedStorage, "map_params.storage", mp.offset + mpf::kStorage);
    if (layout != 1 && layout != 2)
      return op.Fail(Status::kUnsupportedStorage, "map_params.layout", mp.offset + mpf::kLayout);
    m.layout = static_cast<f::Layout>(layout);
    const std::uint32_t pw = LoadU32(p + mpf::kPanelWidthField);
    if (pw != (m.layout == f::Layout::kPanels ? f::kPanelWidth : 0u))
      return op.Fail(Status::kBadValue, "map_params.panel_width", mp.offset + mpf::kPanelWidthField);
    m.map = static_cast<f::MapKind>(kind);
    m.kernel = static_cast<f::Kernel>(kernel);
    m.input_dim = LoadU32(p + mpf::kInputDim);
    m.num_features = LoadU32(p + mpf::kFourierFeatures);
    m.num_frequencies = LoadU32(p + mpf::kNumFrequencies);
    m.gamma = LoadF32(p + mpf::kGamma);
    m.feature_scale = LoadF32(p + mpf::kFeatureScale);
    m.seed = LoadU64(p + mpf::kSeed);
    if (m.input_dim == 0 || m.input_dim > f::kMaxInputDim)
      return op.Fail(Status::kBadValue, "map_params.input_dim", mp.offset + mpf::kInputDim);
    m.fourier_features = m.num_features;
    if (m.num_features == 0 || m.num_features > f::kMaxFeatures)
      return op.Fail(Status::kBadValue, "map_params.fourier_features", mp.offset + mpf::kFourierFeatures);
    const std::uint64_t want_features =
        m.map == f::MapKind::kFourier ? 2ull * m.num_frequencies : m.num_frequencies;
    if (m.num_frequencies == 0 || want_features != m.num_features)
      return op.Fail(Status::kBadValue, "map_params.num_frequencies",
                     mp.offset + mpf::kNumFrequencies);
    if (!IsFinite(m.gamma) || !(m.gamma > 0.0f))
      return op.Fail(Status::kBadValue, "map_params.gamma", mp.offset + mpf::kGamma);
    if (!IsFinite(m.feature_scale))
      return op.Fail(Status::kBadValue, "map_params.feature_scale", mp.offset + mpf::kFeatureScale);
  }

  // --- W, b
  const Section& pr = sec[static_cast<int>(SectionType::kProjection)];
  const Section& ph = sec[static_cast<int>(SectionType::kPhase)];
  if (!mp.present) {
    if (pr.present) return op.Fail(Status::kBadValue, "projection", pr.entry);
    if (ph.present) return op.Fail(Status::kBadValue, "phase", ph.entry);
  } else if (!pr.present) {
    return op.Fail(Status::kMissingSection, "projection", 0);
  } else if (pr.size != std::uint64_t{f::StoredFrequencies(m.layout, m.num_frequencies)} *
                            m.input_dim * sizeof(float)) {
    return op.Fail(Status::kBadSectionSize, "projection.size", pr.entry + 8);
  } else {
    m.projection = reinterpret_cast<const float*>(b + pr.offset);
  }
  if (!mp.present) {
    // no phase to check
  } else if (m.map == f::MapKind::kFourierPhase) {
    if (!ph.present) return op.Fail(Status::kMissingSection, "phase", 0);
    if (ph.size != std::uint64_t{m.num_frequencies} * sizeof(float))
      return op.Fail(Status::kBadSectionSize, "phase.size", ph.entry + 8);
    m.phase = reinterpret_cast<const float*>(b + ph.offset);
  } else if (ph.present) {
    return op.Fail(Status::kBadValue, "phase", ph.entry);  // the pair form has no phase
  }

  // --- random binning map
  if (bp.present) {
    namespace bpf = f::binning_params;
    if (bp.size != bpf::kBytes)
      return op.Fail(Status::kBadSectionSize, "binning_params.size", bp.entry + 8);
    const std::uint8_t* p = b + bp.offset;
    m.num_grids = LoadU32(p + bpf::kNumGrids);
    const std::uint32_t d = LoadU32(p + bpf::kInputDim);
    const std::uint32_t mode = LoadU32(p + bpf::kMode);
    m.bin_buckets = LoadU32(p + bpf::kBuckets);
    m.bin_features = LoadU32(p + bpf::kBinFeatures);
    m.bin_gamma = LoadF32(p + bpf::kGamma);
    m.bin_scale = LoadF32(p + bpf::kFeatureScale);
    m.bin_seed = LoadU64(p + bpf::kSeed);
    if (m.num_grids == 0 || m.num_grids > f::kMaxOutputs)
      return op.Fail(Status::kBadValue, "binning_params.num_grids", bp.offset + bpf::kNumGrids);
    if (d == 0 || d > f::kMaxInputDim || (mp.present && d != m.input_dim))
      return op.Fail(Status::kBadValue, "binning_params.input_dim", bp.offset + bpf::kInputDim);
    m.input_dim = d;
    if (mode != 1 && mode != 2)
      return op.Fail(Status::kBadValue, "binning_params.mode", bp.offset + bpf::kMode);
    m.bin_mode = static_cast<f::BinMode>(mode);
    if (LoadU32(p + bpf::kKernel) != static_cast<std::uint32_t>(f::Kernel::kLaplacian))
      return op.Fail(Status::kBadValue, "binning_params.kernel", bp.offset + bpf::kKernel);
    if (!IsFinite(m.bin_gamma) || !(m.bin_gamma > 0.0f))
      return op.Fail(Status::kBadValue, "binning_params.gamma", bp.offset + bpf::kGamma);
    if (!IsFinite(m.bin_scale))
      return op.Fail(Status::kBadValue, "binning_params.feature_scale", bp.offset + bpf::kFeatureScale);
    const bool hashed = m.bin_mode == f::BinMode::kHashed;
    if (hashed ? (m.bin_buckets == 0 ||
                  std::uint64_t{m.num_grids} * m.bin_buckets != m.bin_features)
               : m.bin_buckets != 0)
      return op.Fail(Status::kBadValue, "binning_params.buckets", bp.offset + bpf::kBuckets);
    if (m.bin_features > f::kMaxFeatures ||
        std::uint64_t{m.bin_features} + m.fourier_features > f::kMaxFeatures)
      return op.Fail(Status::kBadValue, "binning_params.bin_features", bp.offset + bpf::kBinFeatures);

    const Section& bg = sec[static_cast<int>(SectionType::kBinGrids)];
    if (!bg.present) return op.Fail(Status::kMissingSection, "bin_grids", 0);
    if (bg.size != 2ull * m.num_grids * m.input_dim * sizeof(float))
      return op.Fail(Status::kBadSectionSize, "bin_grids.size", bg.entry + 8);
    m.bin_inv_width = reinterpret_cast<const float*>(b + bg.offset);
    m.bin_offset = m.bin_inv_width + std::uint64_t{m.num_grids} * m.input_dim;

    const Section& bk = sec[static_cast<int>(SectionType::kBinKeys)];
    if (hashed) {
      if (bk.present) return op.Fail(Status::kBadValue, "bin_keys", bk.entry);
    } else {
      if (!bk.present) return op.Fail(Status::kMissingSection, "bin_keys", 0);
      const std::uint64_t starts = RoundUp((std::size_t{m.num_grids} + 1) * 4, 8);
      if (bk.size != starts + 8ull * m.bin_features)
        return op.Fail(Status::kBadSectionSize, "bin_keys.size", bk.entry + 8);
      const std::uint8_t* q = b + bk.offset;
      const auto* keys = reinterpret_cast<const std::uint64_t*>(q + starts);
      std::uint32_t prev = 0;
      for (std::uint32_t g = 0; g <= m.num_grids; ++g) {
        const std::uint32_t start = LoadU32(q + 4 * g);
        if ((g == 0 && start != 0) || start < prev || start > m.bin_features ||
            (g == m.num_grids && start != m.bin_features))
          return op.Fail(Status::kBadValue, "bin_keys.grid_start", bk.offset + 4 * g);
        // Keys strictly increase within a grid: the per-sample binary search relies on it.
        for (std::uint32_t k = prev + 1; g > 0 && k < start; ++k)
          if (keys[k] <= keys[k - 1])
            return op.Fail(Status::kBadValue, "bin_keys.keys",
                           static_cast<std::uint32_t>(bk.offset + starts + 8ull * k));
        prev = start;
      }
      m.bin_grid_start = q;
      m.bin_keys = keys;
    }
  } else if (sec[static_cast<int>(SectionType::kBinGrids)].present ||
             sec[static_cast<int>(SectionType::kBinKeys)].present) {
    return op.Fail(Status::kBadValue, "bin_grids", sec[static_cast<int>(SectionType::kBinGrids)].entry);
  }
  m.num_features = m.fourier_features + m.bin_features;

  // Every parameter array must hold finite numbers: a NaN or infinity would make predictions
  // meaningless (or, through a bin index, undefined), so it is a corrupt model.
  struct FloatArray {
    const float* p;
    std::uint64_t n;
    const char* field;
  };
  const FloatArray arrays[] = {
      {m.projection, m.projection ? std::uint64_t{f::StoredFrequencies(m.layout, m.num_frequencies)} * m.input_dim : 0,
       "projection"},
      {m.phase, m.phase ? m.num_frequencies : 0u, "phase"},
      {m.bin_inv_width, m.bin_inv_width ? 2ull * m.num_grids * m.input_dim : 0, "bin_grids"},
  };
  for (const FloatArray& a : arrays) {
    const std::uint64_t bad = FirstNonFinite(a.p, a.n);
    if (bad < a.n)
      return op.Fail(Status::kBadValue, a.field,
                     static_cast<std::uint32_t>(reinterpret_cast<const std::uint8_t*>(a.p + bad) - b));
  }

  const Section& st = sec[static_cast<int>(SectionType::kStandardize)];
  if (st.present) {
    if (st.size != 2ull * m.input_dim * sizeof(float))
      return op.Fail(Status::kBadSectionSize, "standardize.size", st.entry + 8);
    m.mean = reinterpret_cast<const float*>(b + st.offset);
    m.inv_scale = m.mean + m.input_dim;
  }

  // --- linear head
  const Section& hd = sec[static_cast<int>(SectionType::kHead)];
  if (!hd.present) return op.Fail(Status::kMissingSection, "head", 0);
  if (hd.size < f::head::kHeaderBytes)
    return op.Fail(Status::kBadSectionSize, "head.size", hd.entry + 8);
  {
    const std::uint8_t* p = b + hd.offset;
    const std::uint32_t task = LoadU32(p + f::head::kTask);
    if (task < 1 || task > 3) return op.Fail(Status::kBadValue, "head.task", hd.offset);
    m.task = static_cast<f::Task>(task);
    m.num_outputs = LoadU32(p + f::head::kNumOutputs);
    const std::uint32_t head_features = LoadU32(p + f::head::kNumFeatures);
    const bool k_ok = m.task == f::Task::kMulticlass
                          ? (m.num_outputs >= 3 && m.num_outputs <= f::kMaxOutputs)
                          : m.num_outputs == 1;
    if (!k_ok) return op.Fail(Status::kBadValue, "head.num_outputs", hd.offset + f::head::kNumOutputs);
    if (head_features != m.num_features)
      return op.Fail(Status::kBadValue, "head.num_features", hd.offset + f::head::kNumFeatures);
    const std::uint64_t want = f::head::kHeaderBytes +
                               std::uint64_t{m.num_outputs} * (std::uint64_t{m.num_features} + 1) * 4;
    if (hd.size != want) return op.Fail(Status::kBadSectionSize, "head.size", hd.entry + 8);
    m.head_weights = reinterpret_cast<const float*>(p + f::head::kHeaderBytes);
    m.head_bias = m.head_weights + std::uint64_t{m.num_outputs} * m.num_features;
  }

  // --- class labels
  const Section& lb = sec[static_cast<int>(SectionType::kLabels)];
  if (m.task != f::Task::kRegression) {
    if (!lb.present) return op.Fail(Status::kMissingSection, "labels", 0);
    const std::uint8_t* p = b + lb.offset;
    if (lb.size < f::labels::kOffsets) return op.Fail(Status::kBadSectionSize, "labels.size", lb.entry + 8);
    const std::uint32_t c = LoadU32(p + f::labels::kCount);
    const std::uint32_t want_c = m.task == f::Task::kBinary ? 2 : m.num_outputs;
    if (c != want_c) return op.Fail(Status::kBadValue, "labels.count", lb.offset);
    const std::uint64_t pool_start = f::labels::kOffsets + (std::uint64_t{c} + 1) * 4;
    if (pool_start > lb.size) return op.Fail(Status::kBadSectionSize, "labels.size", lb.entry + 8);
    const std::uint64_t pool_size = lb.size - pool_start;
    std::uint32_t prev = 0;
    for (std::uint32_t i = 0; i <= c; ++i) {
      const std::uint32_t o = LoadU32(p + f::labels::kOffsets + 4 * i);
      const std::uint32_t field = lb.offset + f::labels::kOffsets + 4 * i;
      // Offsets start at 0, grow strictly (each label at least its NUL), end at the pool's end.
      if ((i == 0 && o != 0) || (i > 0 && o <= prev) || o > pool_size || (i == c && o != pool_size))
        return op.Fail(Status::kBadValue, "labels.offsets", field);
      if (i > 0 && p[pool_start + o - 1] != 0)
        return op.Fail(Status::kBadValue, "labels.pool", static_cast<std::uint32_t>(lb.offset + pool_start + o - 1));
      prev = o;
    }
    m.num_classes = c;
    m.label_offsets = p + f::labels::kOffsets;
    m.label_pool = reinterpret_cast<const char*>(p + pool_start);
  } else if (lb.present) {
    return op.Fail(Status::kBadValue, "labels", lb.entry);
  }

  {
    const FloatArray later[] = {
        {m.mean, m.mean ? 2ull * m.input_dim : 0, "standardize"},
        {m.head_weights, std::uint64_t{m.num_outputs} * (std::uint64_t{m.num_features} + 1), "head"},
    };
    for (const FloatArray& a : later) {
      const std::uint64_t bad = FirstNonFinite(a.p, a.n);
      if (bad < a.n)
        return op.Fail(Status::kBadValue, a.field,
                       static_cast<std::uint32_t>(reinterpret_cast<const std::uint8_t*>(a.p + bad) - b));
    }
  }

  const Section& md = sec[static_cast<int>(SectionType::kMetadata)];
  if (md.present) {
    m.metadata = reinterpret_cast<const char*>(b + md.offset);
    m.metadata_bytes = md.size;
  }

  *model = m;
  return Status::kOk;
}

// Scratch layout: standardised x (d floats) | Fourier features (fourier_features floats) |
// bin keys (P u64) | bin columns (P u32), each part starting on a kScratchAlignment boundary.
namespace {
struct ScratchLayout {
  std::size_t z, keys, cols, total;
};
ScratchLayout Layout(const Model& m) {
  ScratchLayout l;
  l.z = RoundUp(std::size_t{m.input_dim} * sizeof(float), kScratchAlignment);
  l.keys = l.z + RoundUp(std::size_t{m.fourier_features} * sizeof(float), kScratchAlignment);
  l.cols = l.keys + RoundUp(std::size_t{m.num_grids} * sizeof(std::uint64_t), kScratchAlignment);
  l.total = l.cols + RoundUp(std::size_t{m.num_grids} * sizeof(std::uint32_t), kScratchAlignment);
  return l;
}
}  // namespace

std::size_t ScratchBytes(const Model& model) noexcept { return Layout(model).total; }

namespace {

// Grid p's column for `key`: binary search among the grid's sorted keys (exact mode), or the
// bucket (hashed mode).
std::uint32_t BinColumn(const Model& m, std::uint32_t p, std::uint64_t key) {
  if (m.bin_mode == format::BinMode::kHashed) return HashedColumn(key, p, m.bin_buckets);
  std::uint32_t lo = LoadU32(m.bin_grid_start + 4 * p), hi = LoadU32(m.bin_grid_start + 4 * p + 4);
  while (lo < hi) {
    const std::uint32_t mid = lo + (hi - lo) / 2;
    if (m.bin_keys[mid] < key) lo = mid + 1;
    else hi = mid;
  }
  return lo < LoadU32(m.bin_grid_start + 4 * p + 4) && m.bin_keys[lo] == key ? lo : kNoColumn;
}

struct Computed {
  const float* z = nullptr;            // Fourier features
  const std::uint32_t* cols = nullptr;  // one column per grid (within the binning block)
};

// Shared front half of Predict, ComputeFeatures and ComputeBins.
Status Features(const Model& m, const float* x, std::size_t x_len, void* scratch,
                std::size_t scratch_bytes, Computed* out) {
  if (m.head_weights == nullptr || x == nullptr || scratch == nullptr) return Status::kNullArgument;
  if (x_len != m.input_dim) return Status::kInputDimMismatch;
  if (reinterpret_cast<std::uintptr_t>(scratch) % kScratchAlignment != 0)
    return Status::kMisalignedScratch;
  const ScratchLayout l = Layout(m);
  if (scratch_bytes < l.total) return Status::kScratchTooSmall;
  if (!AllFinite(x, m.input_dim)) return Status::kNonFiniteInput;

  const KernelTable& kt = ActiveKernels();
  auto* base = static_cast<std::uint8_t*>(scratch);
  auto* xs = reinterpret_cast<float*>(base);
  auto* z = reinterpret_cast<float*>(base + l.z);
  const float* input = x;
  if (m.mean != nullptr) {
    kt.Standardize(x, m.mean, m.inv_scale, m.input_dim, xs);
    input = xs;
  }
  if (m.fourier_features != 0) {
    const bool phase = m.map == format::MapKind::kFourierPhase;
    if (m.layout == format::Layout::kPanels) {
      if (phase)
        kt.FourierPhase(m.projection, m.phase, input, m.num_frequencies, m.input_dim, m.feature_scale, z);
      else
        kt.FourierPair(m.projection, input, m.num_frequencies, m.input_dim, m.feature_scale, z);
    } else if (phase) {  // row-major W (format 1.0 writers): the reference kernels
      FourierPhaseRef(m.projection, m.phase, input, m.num_frequencies, m.input_dim, m.feature_scale, z);
    } else {
      FourierPairRef(m.projection, input, m.num_frequencies, m.input_dim, m.feature_scale, z);
    }
  }
  if (m.num_grids != 0) {
    auto* keys = reinterpret_cast<std::uint64_t*>(base + l.keys);
    auto* cols = reinterpret_cast<std::uint32_t*>(base + l.cols);
    kt.BinKeys(m.bin_inv_width, m.bin_offset, input, m.num_grids, m.input_dim, m.bin_seed, keys);
    for (std::uint32_t p = 0; p < m.num_grids; ++p) cols[p] = BinColumn(m, p, keys[p]);
    out->cols = cols;
  }
  out->z = z;
  return Status::kOk;
}

}  // namespace

Status ComputeFeatures(const Model& model, const float* x, std::size_t x_len, void* scratch,
                       std::size_t scratch_bytes, float* z_out, std::size_t z_len) noexcept {
  if (z_out == nullptr) return Status::kNullArgument;
  if (z_len < model.num_features) return Status::kOutputTooSmall;
  Computed c;
  const Status s = Features(model, x, x_len, scratch, scratch_bytes, &c);
  if (s != Status::kOk) return s;
  for (std::uint32_t j = 0; j < model.fourier_features; ++j) {
    if (!IsFinite(c.z[j])) return Status::kArgumentOutOfRange;
    z_out[j] = c.z[j];
  }
  float* zb = z_out + model.fourier_features;
  for (std::uint32_t j = 0; j < model.bin_features; ++j) zb[j] = 0.0f;
  for (std::uint32_t p = 0; p < model.num_grids; ++p)
    if (c.cols[p] != kNoColumn) zb[c.cols[p]] = model.bin_scale;
  return Status::kOk;
}

Status ComputeBins(const Model& model, const float* x, std::size_t x_len, void* scratch,
                   std::size_t scratch_bytes, std::uint64_t* keys, std::uint32_t* columns,
                   std::size_t len) noexcept {
  if (keys == nullptr || columns == nullptr) return Status::kNullArgument;
  if (len < model.num_grids) return Status::kOutputTooSmall;
  Computed c;
  const Status s = Features(model, x, x_len, scratch, scratch_bytes, &c);
  if (s != Status::kOk) return s;
  const auto* k = reinterpret_cast<const std::uint64_t*>(static_cast<const std::uint8_t*>(scratch) +
                                                         Layout(model).keys);
  for (std::uint32_t p = 0; p < model.num_grids; ++p) {
    keys[p] = k[p];
    columns[p] = c.cols[p];
  }
  return Status::kOk;
}

Status Predict(const Model& model, const float* x, std::size_t x_len, void* scratch,
               std::size_t scratch_bytes, float* out, std::size_t out_len) noexcept {
  if (out == nullptr) return Status::kNullArgument;
  if (out_len < model.num_outputs) return Status::kOutputTooSmall;
  Computed c;
  const Status s = Features(model, x, x_len, scratch, scratch_bytes, &c);
  if (s != Status::kOk) return s;
  const std::uint32_t D = model.num_features, Df = model.fourier_features;
  // Head over the Fourier features: the row stride is the full width D.
  ActiveKernels().LinearHead(model.head_weights, D, model.head_bias, c.z, model.num_outputs, Df, out);
  // Plus one weight per occupied bin, grids in order.
  for (std::uint32_t p = 0; p < model.num_grids; ++p) {
    if (c.cols[p] == kNoColumn) continue;
    for (std::uint32_t k = 0; k < model.num_outputs; ++k)
      out[k] += model.bin_scale * model.head_weights[std::uint64_t{k} * D + Df + c.cols[p]];
  }
  // Features are bounded (|z| <= feature_scale); a non-finite output can only come from a cosine
  // argument beyond kSinCosMaxArg, which SinCosRef turns into NaN.
  for (std::uint32_t k = 0; k < model.num_outputs; ++k)
    if (!IsFinite(out[k])) return Status::kArgumentOutOfRange;
  return Status::kOk;
}

namespace {
// Rows per block: kBatchBlock, fewer when many outputs would make the head sums (64 B per row
// and output) exceed 32 KiB, but at least 6 (one group of the widest register tile).
std::uint32_t BatchRows(const Model& model) noexcept {
  const std::uint32_t rows = 512u / (model.num_outputs == 0 ? 1u : model.num_outputs);
  return rows < 6u ? 6u : rows > kBatchBlock ? kBatchBlock : rows;
}
}  // namespace

// Batch scratch: a block's standardised inputs, the head sums of the Fourier*HeadBatch kernels,
// then one Predict scratch for the maps that go row by row.
std::size_t BatchScratchBytes(const Model& model) noexcept {
  const std::uint32_t rows = BatchRows(model);
  return RoundUp(std::size_t{rows} * model.input_dim * sizeof(float), kScratchAlignment) +
         RoundUp(HeadBatchScratchFloats(rows, model.num_outputs) * sizeof(float), kScratchAlignment) +
         ScratchBytes(model);
}

Status PredictBatch(const Model& m, const float* X, std::size_t n, std::size_t x_len,
                    void* scratch, std::size_t scratch_bytes, float* out, std::size_t out_len,
                    std::size_t* done) noexcept {
  if (done) *done = 0;
  if (n == 0) return Status::kOk;  // nothing to read or write: null buffers are fine
  if (m.head_weights == nullptr || X == nullptr || scratch == nullptr || out == nullptr)
    return Status::kNullArgument;
  if (x_len != std::size_t{m.input_dim} * n) return Status::kInputDimMismatch;
  if (out_len < std::size_t{m.num_outputs} * n) return Status::kOutputTooSmall;
  if (reinterpret_cast<std::uintptr_t>(scratch) % kScratchAlignment != 0)
    return Status::kMisalignedScratch;
  if (scratch_bytes < BatchScratchBytes(m)) return Status::kScratchTooSmall;
  // Row-major W and binning maps take the single-sample path, row by row.
  const bool batched = m.fourier_features != 0 && m.num_grids == 0 && m.layout == format::Layout::kPanels;
  const std::uint32_t d = m.input_dim, K = m.num_outputs;
  auto* base = static_cast<std::uint8_t*>(scratch);
  auto* xs = reinterpret_cast<float*>(base);
  const std::uint32_t rows = BatchRows(m);
  auto* acc = reinterpret_cast<float*>(base + RoundUp(std::size_t{rows} * d * sizeof(float), kScratchAlignment));
  void* single = base + (BatchScratchBytes(m) - ScratchBytes(m));
  const KernelTable& kt = ActiveKernels();
  for (std::size_t i0 = 0; i0 < n; i0 += rows) {
    const auto bn = static_cast<std::uint32_t>(n - i0 < rows ? n - i0 : rows);
    const float* xb = X + i0 * d;
    if (!batched) {
      for (std::uint32_t r = 0; r < bn; ++r) {
        const Status s = Predict(m, xb + std::size_t{r} * d, d, single, ScratchBytes(m),
                                 out + (i0 + r) * K, K);
        if (s != Status::kOk) return s;
        if (done) *done = i0 + r + 1;
      }
      continue;
    }
    for (std::uint32_t r = 0; r < bn; ++r)
      if (!AllFinite(xb + std::size_t{r} * d, d)) {
        if (done) *done = i0 + r;
        return Status::kNonFiniteInput;
      }
    const float* input = xb;
    if (m.mean != nullptr) {
      for (std::uint32_t r = 0; r < bn; ++r)
        kt.Standardize(xb + std::size_t{r} * d, m.mean, m.inv_scale, d, xs + std::size_t{r} * d);
      input = xs;
    }
    float* ob = out + i0 * K;
    if (m.map == format::MapKind::kFourierPhase)
      kt.FourierPhaseHeadBatch(m.projection, m.phase, input, bn, m.num_frequencies, d,
                               m.feature_scale, m.head_weights, m.head_bias, K, acc, ob);
    else
      kt.FourierPairHeadBatch(m.projection, input, bn, m.num_frequencies, d, m.feature_scale,
                              m.head_weights, m.head_bias, K, acc, ob);
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

std::uint32_t DecideClass(const Model& model, const float* outputs) noexcept {
  switch (model.task) {
    case format::Task::kBinary:
      return outputs[0] > 0.0f ? 1u : 0u;
    case format::Task::kMulticlass: {
      std::uint32_t best = 0;
      for (std::uint32_t k = 1; k < model.num_outputs; ++k)
        if (outputs[k] > outputs[best]) best = k;
      return best;
    }
    default:
      return 0;
  }
}

const char* ClassLabel(const Model& model, std::uint32_t index) noexcept {
  if (model.label_pool == nullptr || index >= model.num_classes) return "";
  return model.label_pool + LoadU32(model.label_offsets + 4 * index);
}

std::uint32_t Crc32(const void* data, std::size_t size, std::uint32_t crc) noexcept {
  // Nibble-table CRC: 64 bytes of table, ~2 lookups per byte; adequate for a once-per-open check.
  static constexpr std::uint32_t kTable[16] = {
      0x00000000u, 0x1DB71064u, 0x3B6E20C8u, 0x26D930ACu, 0x76DC4190u, 0x6B6B51F4u,
      0x4DB26158u, 0x5005713Cu, 0xEDB88320u, 0xF00F9344u, 0xD6D6A3E8u, 0xCB61B38Cu,
      0x9B64C2B0u, 0x86D3D2D4u, 0xA00AE278u, 0xBDBDF21Cu};
  const auto* p = static_cast<const std::uint8_t*>(data);
  crc = ~crc;
  for (std::size_t i = 0; i < size; ++i) {
    crc ^= p[i];
    crc = (crc >> 4) ^ kTable[crc & 15u];
    crc = (crc >> 4) ^ kTable[crc & 15u];
  }
  return ~crc;
}

}  // namespace rfk

#include "rfk/host/model_writer.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>

#include "rfk/host/quantize.hpp"
#include "rfk/kernels.hpp"
#include "rfk/model.hpp"

namespace rfk::host {
namespace {

namespace f = format;
using Payload = std::vector<std::uint8_t>;

template <typename T>
void AppendPod(Payload* out, const T* data, std::size_t n) {
  const auto* p = reinterpret_cast<const std::uint8_t*>(data);
  out->insert(out->end(), p, p + n * sizeof(T));
}
void AppendU32(Payload* out, std::uint32_t v) { AppendPod(out, &v, 1); }
template <typename T>
void PutAt(Payload* out, std::uint32_t at, T v) { std::memcpy(out->data() + at, &v, sizeof v); }

void Require(bool ok, const char* what) {
  if (!ok) throw std::invalid_argument(std::string("SerializeModel: ") + what);
}

// EncodeMatrix's element orders: row-major, and W's panels (format::WeightIndex).
std::uint64_t RowMajorIndex(std::uint64_t j, std::uint64_t c, std::uint64_t cols) { return j * cols + c; }
std::uint64_t PanelIndex(std::uint64_t j, std::uint64_t c, std::uint64_t cols) {
  return f::WeightIndex(f::Layout::kPanels, j, c, cols);
}

// EncodeMatrix, its QuantizeError naming the matrix and what to store it as instead.
// `scales`: the rows' given scales (ModelSpec::projection_scales etc.), or null.
Payload Encode(const char* what, const char* advice, f::Storage storage, const std::vector<float>& w,
               std::uint64_t rows, std::uint64_t cols, std::uint64_t (*index)(std::uint64_t, std::uint64_t, std::uint64_t),
               const float* scales) {
  try {
    return EncodeMatrix(storage, w, rows, cols, index, scales);
  } catch (const QuantizeError& e) {
    throw QuantizeError(std::string(what) + ": " + e.what() + "; " + advice);
  }
}

const float* Given(const std::vector<float>& scales) { return scales.empty() ? nullptr : scales.data(); }

// Whether every weight rounds to a finite binary16 (|w| < 65520; FloatToHalf's range).
bool FitsF16(const std::vector<float>& w) {
  for (float v : w)
    if (!(std::fabs(v) < 65520.0f)) return false;
  return true;
}

// The spec's vectors agree with its counts.
void CheckSpec(const ModelSpec& s) {
  const std::uint64_t d = s.input_dim, F = s.num_frequencies, D = s.NumFeatures(), K = s.num_outputs;
  const std::uint64_t P = s.num_grids;
  Require(d > 0 && (F > 0 || P > 0) && K > 0, "empty dimensions");
  if (!s.float_arrays) {
    Require(s.projection.empty() && s.phase.empty() && s.fastfood_g.empty() && s.fastfood_s.empty() &&
                s.fastfood_perm.empty() && s.fastfood_signs.empty() && s.bin_inv_width.empty() &&
                s.bin_offset.empty() && s.mean.empty(),
            "float arrays given with float_arrays false");
  } else if (f::IsFastfood(s.map)) {
    const std::uint64_t dp = s.fastfood_dim, N = dp == 0 ? 0 : (F + dp - 1) / dp * dp;
    Require(s.projection.empty() && dp == f::fastfood::PaddedDim(s.input_dim), "fastfood: W given, or d' != PaddedDim(d)");
    Require(s.fastfood_g.size() == N && s.fastfood_s.size() == N &&
                s.fastfood_perm.size() == f::fastfood::PermBytes(s.fastfood_dim, static_cast<std::uint32_t>(N)) &&
                s.fastfood_signs.size() == (N + 7) / 8,
            "fastfood arrays != blocks x d'");
  } else {
    Require(s.projection.size() == F * d, "projection size != F*d");
  }
  Require(!s.float_arrays || (s.bin_inv_width.size() == P * d && s.bin_offset.size() == P * d), "bin grids != P*d");
  Require(P == 0 || s.bin_mode == f::BinMode::kHashed ? s.bin_grid_start.empty() && s.bin_keys.empty()
                                                      : s.bin_grid_start.size() == P + 1,
          "bin keys given for hashed mode, or grid starts != P + 1");
  Require(!s.float_arrays || !f::IsPhaseForm(s.map) || s.phase.size() == F, "phase size != F");
  Require(f::IsPhaseForm(s.map) || s.phase.empty(), "phase given for pair form");
  Require(s.mean.size() == s.inv_scale.size() && (s.mean.empty() || s.mean.size() == d),
          "standardisation size != d");
  Require(s.head_weights.size() == K * D && s.head_bias.size() == K, "head size != K*D, K");
  Require((s.task == f::Task::kRegression) == s.labels.empty(), "labels iff classification");
  Require(s.impute.empty() || s.impute.size() == d, "impute size != d");
  Require(s.input_mean.size() == s.input_sd.size() && (s.input_mean.empty() || s.input_mean.size() == d),
          "input_stats sizes != d");
  Require(s.calibration_method == 0 || s.task != f::Task::kRegression, "calibration for regression");
  const std::uint64_t blocks = f::IsFastfood(s.map) && s.fastfood_dim > 0 ? (F + s.fastfood_dim - 1) / s.fastfood_dim : 0;
  Require(s.projection_scales.empty() || s.projection_scales.size() == f::StoredFrequencies(s.layout, s.num_frequencies),
          "W's row scales != its stored rows");
  Require(s.fastfood_scales.empty() || s.fastfood_scales.size() == 2 * blocks, "Fastfood's scales != 2 x blocks");
  Require(s.head_scales.empty() || s.head_scales.size() == K, "the head's scales != K");
  Require(s.calibration_method == 0 ||
              8 + 4 * std::uint64_t{s.calibration_params.size()} == f::calibration::Bytes(s.calibration_method, s.num_outputs),
          "calibration parameters for the method and K");
  Require(s.feature_names.empty() || s.feature_names.size() == d, "feature names != d");
  Require(!s.feature_names.empty() || s.target_name.empty(), "a target name without feature names");
}

// The labels layout: u32 count, u32 0, u32 offsets[count + 1], then the NUL-terminated strings.
void AppendStrings(const std::vector<std::string>& strings, Payload* p) {
  AppendU32(p, static_cast<std::uint32_t>(strings.size()));
  AppendU32(p, 0);
  std::uint32_t off = 0;
  AppendU32(p, off);
  for (const std::string& l : strings) {
    Require(l.find('\0') == std::string::npos, "a label or name contains NUL");
    off += static_cast<std::uint32_t>(l.size() + 1);
    AppendU32(p, off);
  }
  for (const std::string& l : strings) p->insert(p->end(), l.c_str(), l.c_str() + l.size() + 1);
}

// One writer per section: fills the section's payload (and its entry's storage word, 0 unless
// said) from the spec and returns true, or returns false when this spec has no such section.
// Fixed-size sections start as the table's size in zeros.
bool MapParams(const ModelSpec& s, RawSection* out) {
  if (s.num_frequencies == 0) return false;
  namespace mp = f::map_params;
  Payload* const p = &out->payload;
  p->assign(mp::kBytes, 0);
  PutAt(p, mp::kMapKind, static_cast<std::uint32_t>(s.map));
  PutAt(p, mp::kKernel, static_cast<std::uint32_t>(s.kernel));
  PutAt(p, mp::kInputDim, s.input_dim);
  PutAt(p, mp::kFourierFeatures, s.FourierFeatures());
  PutAt(p, mp::kNumFrequencies, s.num_frequencies);
  PutAt(p, mp::kStorage, static_cast<std::uint32_t>(s.map_storage));
  PutAt(p, mp::kLayout, static_cast<std::uint32_t>(s.layout));
  PutAt(p, mp::kPanelWidthField, s.layout == f::Layout::kPanels ? f::kPanelWidth : 0u);
  PutAt(p, mp::kGamma, s.gamma);
  PutAt(p, mp::kFeatureScale, s.feature_scale);
  PutAt(p, mp::kSeed, s.seed);
  return true;
}

// W in its layout (panel q holds frequencies [16q, 16q + 16) as d rows of 16, zero rows padding
// the last one) and storage (int8: one scale per stored row, padding rows included).
bool Projection(const ModelSpec& s, RawSection* out) {
  if (s.num_frequencies == 0 || f::IsFastfood(s.map) || !s.float_arrays) return false;
  const std::uint64_t d = s.input_dim, rows = f::StoredFrequencies(s.layout, s.num_frequencies);
  std::vector<float> w(s.projection);
  w.resize(rows * d, 0.0f);
  out->payload = Encode("W (projection)", "store W as int8 or f32", s.map_storage, w, rows, d,
                        s.layout == f::Layout::kPanels ? PanelIndex : RowMajorIndex, Given(s.projection_scales));
  return true;
}

// The header, G and S as blocks x d' matrices in the map's storage (int8: one scale per block),
// the permutations and the signs.
bool Fastfood(const ModelSpec& s, RawSection* out) {
  if (s.num_frequencies == 0 || !f::IsFastfood(s.map) || !s.float_arrays) return false;
  namespace ff = f::fastfood;
  Payload* const p = &out->payload;
  const std::uint32_t blocks = (s.num_frequencies - 1) / s.fastfood_dim + 1;
  p->assign(ff::kHeaderBytes, 0);
  PutAt(p, ff::kPaddedDim, s.fastfood_dim);
  PutAt(p, ff::kNumBlocks, blocks);
  PutAt(p, ff::kIndexBits, ff::IndexBits(s.fastfood_dim));
  for (const std::vector<float>* diag : {&s.fastfood_g, &s.fastfood_s}) {
    const bool g = diag == &s.fastfood_g;
    const float* scales = s.fastfood_scales.empty() ? nullptr : s.fastfood_scales.data() + (g ? 0 : blocks);
    const Payload enc = Encode(g ? "Fastfood's G" : "Fastfood's S", "store the map as int8 or f32", s.map_storage,
                               *diag, blocks, s.fastfood_dim, RowMajorIndex, scales);
    p->insert(p->end(), enc.begin(), enc.end());
  }
  AppendPod(p, s.fastfood_perm.data(), s.fastfood_perm.size());
  AppendPod(p, s.fastfood_signs.data(), s.fastfood_signs.size());
  return true;
}

bool Phase(const ModelSpec& s, RawSection* out) {
  Payload* const p = &out->payload;
  AppendPod(p, s.phase.data(), s.phase.size());
  return !s.phase.empty();
}

bool BinningParams(const ModelSpec& s, RawSection* out) {
  Payload* const p = &out->payload;
  if (s.num_grids == 0) return false;
  namespace bp = f::binning_params;
  p->assign(bp::kBytes, 0);
  PutAt(p, bp::kNumGrids, s.num_grids);
  PutAt(p, bp::kInputDim, s.input_dim);
  PutAt(p, bp::kMode, static_cast<std::uint32_t>(s.bin_mode));
  PutAt(p, bp::kBuckets, s.bin_mode == f::BinMode::kHashed ? s.bin_buckets : 0u);
  PutAt(p, bp::kBinFeatures, s.BinFeatures());
  PutAt(p, bp::kKernel, static_cast<std::uint32_t>(f::Kernel::kLaplacian));
  PutAt(p, bp::kGamma, s.bin_gamma);
  PutAt(p, bp::kFeatureScale, s.bin_scale);
  PutAt(p, bp::kSeed, s.bin_seed);
  return true;
}

bool BinGrids(const ModelSpec& s, RawSection* out) {
  Payload* const p = &out->payload;
  AppendPod(p, s.bin_inv_width.data(), s.bin_inv_width.size());
  AppendPod(p, s.bin_offset.data(), s.bin_offset.size());
  return s.num_grids > 0 && s.float_arrays;
}

bool BinKeys(const ModelSpec& s, RawSection* out) {
  Payload* const p = &out->payload;
  if (s.num_grids == 0 || s.bin_mode != f::BinMode::kExact) return false;
  AppendPod(p, s.bin_grid_start.data(), s.bin_grid_start.size());
  p->resize(f::bin_keys::KeysOffset(s.num_grids), 0);
  AppendPod(p, s.bin_keys.data(), s.bin_keys.size());
  return true;
}

// f16 (two rows of d, entry storage f16) where StandardizationStorage allows it for the map's
// storage, else mean and inv_scale in f32.
bool Standardize(const ModelSpec& s, RawSection* out) {
  if (s.mean.empty()) return false;
  std::vector<float> mean(s.mean), inv(s.inv_scale);
  if (StandardizationStorage(s.map_storage, s.num_frequencies > 0 && s.num_grids == 0, &mean, &inv) ==
      f::Storage::kF16) {
    mean.insert(mean.end(), inv.begin(), inv.end());
    out->payload = EncodeMatrix(f::Storage::kF16, mean, 2, s.input_dim, RowMajorIndex);
    out->storage = static_cast<std::uint32_t>(f::Storage::kF16);
    return true;
  }
  AppendPod(&out->payload, s.mean.data(), s.mean.size());
  AppendPod(&out->payload, s.inv_scale.data(), s.inv_scale.size());
  return true;
}

// The header (its storage field 0 for f32, as rfk has always written it), the weights in
// head_storage, the biases.
bool Head(const ModelSpec& s, RawSection* out) {
  Payload* const p = &out->payload;
  const std::uint64_t K = s.num_outputs, D = s.NumFeatures();
  f::Storage storage = s.head_storage;
  if (storage == f::Storage::kF16 && !FitsF16(s.head_weights)) storage = f::Storage::kF16Scaled;
  AppendU32(p, static_cast<std::uint32_t>(s.task));
  AppendU32(p, s.num_outputs);
  AppendU32(p, s.NumFeatures());
  AppendU32(p, storage == f::Storage::kF32 ? 0u : static_cast<std::uint32_t>(storage));
  const Payload enc = Encode("the head", "store the head as int8 or f32 (--head-storage)", storage, s.head_weights,
                             K, D, RowMajorIndex, storage == s.head_storage ? Given(s.head_scales) : nullptr);
  p->insert(p->end(), enc.begin(), enc.end());
  AppendPod(p, s.head_bias.data(), K);
  return true;
}

bool Labels(const ModelSpec& s, RawSection* out) {
  Payload* const p = &out->payload;
  if (s.labels.empty()) return false;
  AppendStrings(s.labels, p);
  return true;
}

bool Metadata(const ModelSpec& s, RawSection* out) {
  Payload* const p = &out->payload;
  p->assign(s.metadata.begin(), s.metadata.end());
  return !s.metadata.empty();
}

bool Impute(const ModelSpec& s, RawSection* out) {
  Payload* const p = &out->payload;
  if (s.impute.empty()) return false;
  AppendU32(p, static_cast<std::uint32_t>(s.impute_method));
  AppendU32(p, s.input_dim);
  AppendU32(p, 0);
  AppendU32(p, 0);
  AppendPod(p, s.impute.data(), s.impute.size());
  return true;
}

bool FeatureNames(const ModelSpec& s, RawSection* out) {
  Payload* const p = &out->payload;
  if (s.feature_names.empty()) return false;
  std::vector<std::string> names = s.feature_names;
  names.push_back(s.target_name);
  AppendStrings(names, p);
  return true;
}

bool Calibration(const ModelSpec& s, RawSection* out) {
  Payload* const p = &out->payload;
  if (s.calibration_method == 0) return false;
  AppendU32(p, s.calibration_method);
  AppendU32(p, s.num_outputs);
  AppendPod(p, s.calibration_params.data(), s.calibration_params.size());
  return true;
}

bool InputStats(const ModelSpec& s, RawSection* out) {
  Payload* const p = &out->payload;
  if (s.input_mean.empty()) return false;
  AppendU32(p, s.input_dim);
  for (int i = 0; i < 3; ++i) AppendU32(p, 0);
  AppendPod(p, s.input_mean.data(), s.input_mean.size());
  AppendPod(p, s.input_sd.data(), s.input_sd.size());
  return true;
}

struct SectionWriter {
  std::uint16_t type;
  bool (*write)(const ModelSpec&, RawSection*);
};
constexpr std::uint16_t T(f::SectionType t) { return static_cast<std::uint16_t>(t); }
// The sections in the order they are laid out in the blob. Readers accept any order, but this one
// is part of what keeps a spec's blob byte-identical from version to version: append new sections.
constexpr SectionWriter kSectionWriters[] = {
    {T(f::SectionType::kMapParams), MapParams},     {T(f::SectionType::kProjection), Projection},
    {T(f::SectionType::kPhase), Phase},             {T(f::SectionType::kBinningParams), BinningParams},
    {T(f::SectionType::kBinGrids), BinGrids},       {T(f::SectionType::kBinKeys), BinKeys},
    {T(f::SectionType::kStandardize), Standardize}, {T(f::SectionType::kHead), Head},
    {T(f::SectionType::kLabels), Labels},           {T(f::SectionType::kMetadata), Metadata},
    {T(f::SectionType::kImpute), Impute},           {T(f::SectionType::kFeatureNames), FeatureNames},
    {T(f::SectionType::kFastfood), Fastfood},       {T(f::SectionType::kCalibration), Calibration},
    {f::kInputStatsSection, InputStats}};

}  // namespace

// Header, section table, the sections each 16-byte aligned, CRC.
std::vector<std::uint8_t> AssembleModel(const std::vector<RawSection>& sections) {
  const std::uint32_t table = f::kHeaderBytes;
  Payload blob(table + sections.size() * f::kSectionEntryBytes, 0);
  auto align = [&blob] { blob.resize((blob.size() + f::kAlignment - 1) / f::kAlignment * f::kAlignment, 0); };
  for (std::size_t i = 0; i < sections.size(); ++i) {
    align();
    const auto off = static_cast<std::uint32_t>(blob.size());
    AppendPod(&blob, sections[i].payload.data(), sections[i].payload.size());
    const auto e = static_cast<std::uint32_t>(table + i * f::kSectionEntryBytes);
    PutAt(&blob, e + f::entry::kType, sections[i].type);
    PutAt(&blob, e + f::entry::kFlags, sections[i].flags);
    PutAt(&blob, e + f::entry::kOffset, off);
    PutAt(&blob, e + f::entry::kSize, static_cast<std::uint32_t>(sections[i].payload.size()));
    PutAt(&blob, e + f::entry::kStorage, sections[i].storage);
  }
  align();
  Require(blob.size() <= 0xFFFFFFFFull, "model larger than 4 GiB");
  std::memcpy(&blob[f::kOffMagic], f::kMagic, sizeof f::kMagic);
  PutAt(&blob, f::kOffVersionMajor, f::kVersionMajor);
  PutAt(&blob, f::kOffVersionMinor, f::kVersionMinor);
  PutAt(&blob, f::kOffTotalBytes, static_cast<std::uint32_t>(blob.size()));
  PutAt(&blob, f::kOffHeaderBytes, f::kHeaderBytes);
  PutAt(&blob, f::kOffSectionCount, static_cast<std::uint32_t>(sections.size()));
  PutAt(&blob, f::kOffSectionTable, table);
  PutAt(&blob, f::kOffCrc32, Crc32(blob.data() + f::kCrcStart, blob.size() - f::kCrcStart));
  return blob;
}

std::vector<RawSection> SectionsOf(const Model& m) {
  const std::uint8_t* b = m.bytes;
  auto load32 = [](const std::uint8_t* p) {
    std::uint32_t v;
    std::memcpy(&v, p, 4);
    return v;
  };
  std::vector<RawSection> sections;
  const std::uint32_t count = load32(b + f::kOffSectionCount), table = load32(b + f::kOffSectionTable);
  for (std::uint32_t i = 0; i < count; ++i) {
    const std::uint8_t* e = b + table + i * f::kSectionEntryBytes;
    RawSection s;
    std::memcpy(&s.type, e + f::entry::kType, 2);
    std::memcpy(&s.flags, e + f::entry::kFlags, 2);
    s.storage = load32(e + f::entry::kStorage);
    const std::uint8_t* p = b + load32(e + f::entry::kOffset);
    s.payload.assign(p, p + load32(e + f::entry::kSize));
    sections.push_back(std::move(s));
  }
  return sections;
}

std::vector<std::uint8_t> WithoutSections(const Model& m, std::initializer_list<std::uint16_t> types) {
  std::vector<RawSection> sections = SectionsOf(m);
  sections.erase(std::remove_if(sections.begin(), sections.end(),
                                [types](const RawSection& s) {
                                  return std::find(types.begin(), types.end(), s.type) != types.end();
                                }),
                 sections.end());
  return AssembleModel(sections);
}

std::vector<std::uint8_t> WithoutSection(const Model& m, f::SectionType type) {
  return WithoutSections(m, {static_cast<std::uint16_t>(type)});
}

std::vector<std::uint8_t> SerializeModel(const ModelSpec& s) {
  CheckSpec(s);
  std::vector<RawSection> sections;  // flags from the format's table
  for (const SectionWriter& w : kSectionWriters) {
    RawSection section;
    if (!w.write(s, &section)) continue;
    const f::SectionInfo* info = f::FindSection(w.type);  // null: input_stats, optional and variable
    Require(!info || info->fixed_bytes == f::kVariable || section.payload.size() == info->fixed_bytes,
            "a fixed-size section has another size");
    section.type = w.type;
    section.flags = static_cast<std::uint16_t>(info ? info->writer_flag : f::kOptional);
    sections.push_back(std::move(section));
  }
  return AssembleModel(sections);
}

bool EncodeSection(const ModelSpec& s, std::uint16_t type, RawSection* out) {
  CheckSpec(s);
  for (const SectionWriter& w : kSectionWriters) {
    if (w.type != type) continue;
    RawSection section;
    if (!w.write(s, &section)) return false;
    out->payload = std::move(section.payload);
    out->storage = section.storage;
    return true;
  }
  return false;
}

void WriteFileAtomic(const std::string& path, const std::vector<std::uint8_t>& bytes,
                     const std::function<bool()>& cancelled) {
  if (cancelled && cancelled()) throw IoError(path + ": not written: cancelled");
  const std::size_t slash = path.find_last_of('/');
  const std::string dir = slash == std::string::npos ? "." : path.substr(0, slash + 1);
  std::string tmpl = (slash == std::string::npos ? std::string() : dir) + ".rfk-tmp-XXXXXX";
  std::vector<char> name(tmpl.begin(), tmpl.end());
  name.push_back('\0');
  const int fd = mkstemp(name.data());
  if (fd < 0) throw IoError(path + ": cannot create a temporary file in " + dir + ": " + std::strerror(errno));
  auto fail = [&](const char* what) {
    const int e = errno;
    ::close(fd);
    ::unlink(name.data());
    throw IoError(path + ": " + what + ": " + std::strerror(e));
  };
  std::size_t done = 0;
  while (done < bytes.size()) {
    const ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      fail("write failed");
    }
    done += static_cast<std::size_t>(n);
  }
  // Keep the permissions of a model being replaced; new files get rw-r--r--.
  struct stat old {};
  const mode_t mode = ::stat(path.c_str(), &old) == 0 ? (old.st_mode & 07777) : 0644;
  if (::fchmod(fd, mode) != 0) fail("chmod failed");
  if (::fsync(fd) != 0) fail("fsync failed");
  if (::close(fd) != 0) {
    const int e = errno;
    ::unlink(name.data());
    throw IoError(path + ": close failed: " + std::strerror(e));
  }
  if (cancelled && cancelled()) {
    ::unlink(name.data());
    throw IoError(path + ": not written: cancelled");
  }
  if (std::rename(name.data(), path.c_str()) != 0) {
    const int e = errno;
    ::unlink(name.data());
    throw IoError(path + ": cannot replace the file: " + std::strerror(e));
  }
}

AlignedBytes ReadFileBytes(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) throw IoError(path + ": cannot open: " + std::strerror(errno));
  struct Closer {
    int fd;
    ~Closer() { ::close(fd); }
  } closer{fd};
  struct stat st {};
  if (::fstat(fd, &st) != 0) throw IoError(path + ": cannot stat: " + std::strerror(errno));
  if (!S_ISREG(st.st_mode)) {
    throw IoError(path + ": not a regular file" + (S_ISDIR(st.st_mode) ? " (a directory)" : ""));
  }
  AlignedBytes bytes(static_cast<std::size_t>(st.st_size));
  std::size_t done = 0;
  while (done < bytes.size()) {
    const ssize_t n = ::read(fd, bytes.data() + done, bytes.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) throw IoError(path + ": read failed: " + std::strerror(errno));
    if (n == 0) throw IoError(path + ": the file shrank while being read");
    done += static_cast<std::size_t>(n);
  }
  return bytes;
}

}  // namespace rfk::host

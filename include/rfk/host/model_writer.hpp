/// @file
/// Host-only: building model blobs (docs/FORMAT.md) and writing files atomically.
#pragma once

#include <cstdint>
#include <functional>
#include <initializer_list>
#include <stdexcept>
#include <string>
#include <vector>

#include "rfk/format.hpp"
#include "rfk/model.hpp"

namespace rfk::host {

class IoError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// Everything a model blob holds, in host containers, and how its weights are stored: the one
/// description SerializeModel encodes (training writes it; RequantizeModel reads a model into one
/// with SpecFromModel, changes the storages and encodes the sections they touch). Serialize
/// validates the counts. The Fourier map is present when num_frequencies > 0, the binning map
/// when num_grids > 0. Weights are given as floats and rounded to their storage by the writer
/// (EncodeMatrix: StoredRow gives the values a storage keeps).
struct ModelSpec {
  format::MapKind map = format::MapKind::kFourier;    ///< the Fourier-type map's kind
  format::Kernel kernel = format::Kernel::kGaussian;  ///< the kernel it approximates
  std::uint32_t input_dim = 0;        ///< d
  std::uint32_t num_frequencies = 0;  ///< F; 0: no Fourier map
  float gamma = 0.0f;                 ///< the kernel's parameter
  float feature_scale = 0.0f;         ///< multiplies every Fourier feature
  std::uint64_t seed = 0;             ///< the seed W was drawn with
  std::vector<float> projection;  ///< F x d, row-major; SerializeModel stores it in `layout`
  format::Layout layout = format::Layout::kPanels;  ///< how SerializeModel lays W out
  std::vector<float> phase;       ///< F (phase form only)
  /// Fastfood kinds (projection empty): the kFastfood section's arrays as stored (format.hpp's
  /// fastfood namespace), for ceil(F / d') blocks of d' = fastfood_dim entries.
  std::uint32_t fastfood_dim = 0;
  std::vector<float> fastfood_g;  ///< G, blocks x d'
  std::vector<float> fastfood_s;  ///< S, blocks x d'
  std::vector<std::uint8_t> fastfood_perm;   ///< packed, IndexBits(d') bits per index (format::fastfood)
  std::vector<std::uint8_t> fastfood_signs;  ///< bits, LSB first; set: -1
  std::uint32_t num_grids = 0;                    ///< P
  format::BinMode bin_mode = format::BinMode::kExact;  ///< exact or hashed
  std::uint32_t bin_buckets = 0;                  ///< B (hashed)
  float bin_gamma = 0.0f;                         ///< the binning map's gamma
  float bin_scale = 0.0f;                         ///< an occupied bin's feature, 1/sqrt(P)
  std::uint64_t bin_seed = 0;                     ///< the grids' and the hash's seed
  std::vector<float> bin_inv_width;               ///< P x d
  std::vector<float> bin_offset;                  ///< P x d
  std::vector<std::uint32_t> bin_grid_start;      ///< exact: P + 1
  std::vector<std::uint64_t> bin_keys;            ///< exact: sorted within each grid

  std::vector<float> mean;        ///< d, or empty
  std::vector<float> inv_scale;   ///< d, or empty

  format::Task task = format::Task::kRegression;  ///< regression, binary or multiclass
  std::uint32_t num_outputs = 1;                  ///< K
  std::vector<float> head_weights;  ///< K x D
  std::vector<float> head_bias;     ///< K
  std::vector<std::string> labels;  ///< classification only
  std::string metadata;             ///< "key=value\n" lines
  /// Optional sections about the inputs (format::impute, format::feature_names).
  std::vector<float> impute;        ///< d values replacing NaN inputs, or empty
  format::ImputeMethod impute_method = format::ImputeMethod::kMean;  ///< how `impute` was computed
  /// Optional calibration of a classifier's outputs (format::calibration): method 0 = none.
  std::uint32_t calibration_method = 0;
  std::vector<float> calibration_params;  ///< what follows method and K (platt: A, B; platt-cubic:
                                          ///< A, B, C; softmax-vector: a[K], b[K]; softmax-temperature: A, 0)
  std::vector<std::string> feature_names;  ///< d names, or empty
  std::string target_name;                 ///< the label column's name (with feature_names)
  /// The host's optional input_stats section (format::input_stats): d means and d deviations, or empty.
  std::vector<float> input_mean;
  std::vector<float> input_sd;  ///< (see input_mean)

  /// false: the float path's arrays -- W, the phases, Fastfood's arrays, the bin grids and the
  /// standardisation -- are left out (their vectors empty), as `rfk convert --fixed-only` leaves
  /// them: the integer path's fixed section, which SerializeModel does not write, predicts.
  bool float_arrays = true;
  /// How W (or Fastfood's G and S) is stored: f32, f16 or int8 (one scale per row of W, per block
  /// of G and S). Ignored without a Fourier map. Not f32: a Fourier-type map without binning stores
  /// its standardisation in f16 where StandardizationStorage allows (mean and inv_scale already
  /// rounded to f16 then, as training leaves them).
  format::Storage map_storage = format::Storage::kF32;
  /// How the head is stored: f32, f16 (f16-scaled instead when a weight is beyond f16's range,
  /// |w| >= 65520), f16-scaled or int8 (one scale per output).
  format::Storage head_storage = format::Storage::kF32;
  /// The row scales of int8 and f16-scaled matrices, when given: W's per stored row
  /// (StoredFrequencies), Fastfood's per block (G's blocks, then S's), the head's per output. Each
  /// weight is then stored as w / scale rounded, so weights that are q x scale (SpecFromModel's, a
  /// GPTQ-rounded head's) keep exactly their q. Empty: computed from the weights (Int8Scale,
  /// F16Scale). They belong to the storage the weights have; whoever changes a storage clears them.
  std::vector<float> projection_scales;
  std::vector<float> fastfood_scales;  ///< (see projection_scales)
  std::vector<float> head_scales;      ///< (see projection_scales)

  /// D_F: 2F for the pair form, F for the phase form.
  std::uint32_t FourierFeatures() const {
    return format::IsPhaseForm(map) ? num_frequencies : 2 * num_frequencies;
  }
  /// D_B: P B (hashed) or the keys stored (exact); 0 without binning.
  std::uint32_t BinFeatures() const {
    if (num_grids == 0) return 0;
    return bin_mode == format::BinMode::kHashed ? num_grids * bin_buckets
                                                 : static_cast<std::uint32_t>(bin_keys.size());
  }
  std::uint32_t NumFeatures() const { return FourierFeatures() + BinFeatures(); }  ///< D = D_F + D_B
};

/// Lays the model out in format version 1 (sections 16-byte aligned, CRC filled in).
/// Throws std::invalid_argument if the spec's vectors disagree with its counts, QuantizeError
/// (rfk/host/quantize.hpp) if a weight does not fit its storage (naming the section and what to do).
std::vector<std::uint8_t> SerializeModel(const ModelSpec& spec);

/// An opened model as a spec: every section SerializeModel writes, its weights widened to floats
/// (as the core reads them), their storages and row scales; SerializeModel(SpecFromModel(m)) gives
/// m's bytes back for a model rfk wrote (sections in SerializeModel's order, none it does not
/// know). Allocates.
ModelSpec SpecFromModel(const rfk::Model& m);

/// One section of a blob being assembled: its table entry's type and flags, and its bytes.
struct RawSection {
  std::uint16_t type = 0;              ///< a format::SectionType number (or kInputStatsSection)
  std::uint16_t flags = 0;             ///< format::kSectionRequired or 0
  std::vector<std::uint8_t> payload;   ///< the section's bytes
  std::uint32_t storage = 0;  ///< the entry's storage word (format::entry::kStorage): 0 but for standardize in f16
};
/// Lays out a 32-byte header, the section table and the sections in this order (each 16-byte
/// aligned, zero padding between), and fills in the sizes and the CRC. Used by SerializeModel and to
/// rewrite sections of an existing model (RequantizeModel).
std::vector<std::uint8_t> AssembleModel(const std::vector<RawSection>& sections);

/// An opened model's sections in table order: each entry's type, flags and storage word, and its bytes.
std::vector<RawSection> SectionsOf(const rfk::Model& m);
/// Section `type` of `spec` as SerializeModel writes it: its payload and entry storage word into
/// *out (type and flags left alone), or false when the spec has no such section (or rfk writes
/// none of that type).
bool EncodeSection(const ModelSpec& spec, std::uint16_t type, RawSection* out);
/// An opened model laid out again without its section of type `type` (every other section, its
/// entry's flags and storage word included, copied as it is, in the same order); the model as it is
/// when it has none. For optional sections (`rfk convert --no-metadata`): dropping a required one
/// makes a model that does not open.
std::vector<std::uint8_t> WithoutSection(const rfk::Model& m, format::SectionType type);
/// The same without every section whose type is in `types` (numbers: host sections such as
/// format::kInputStatsSection have no SectionType).
std::vector<std::uint8_t> WithoutSections(const rfk::Model& m, std::initializer_list<std::uint16_t> types);

/// Writes `bytes` to `path` atomically: a temporary file ".rfk-tmp-XXXXXX" in the same directory,
/// fsync, rename. On any failure the temporary is removed and an existing `path` is left
/// untouched. `cancelled` (optional) is asked before the temporary is created and again just
/// before the rename; true means: remove the temporary, leave `path` alone, throw IoError. (A
/// process killed in between leaves the temporary behind: callers that handle signals set their
/// cancel flag in the handler instead, as the rfk CLI does.)
void WriteFileAtomic(const std::string& path, const std::vector<std::uint8_t>& bytes,
                     const std::function<bool()>& cancelled = {});

/// A file's bytes in storage aligned to format::kAlignment, as OpenModel requires (plain
/// std::vector<uint8_t> storage is only 8-byte aligned on some 32-bit hosts).
class AlignedBytes {
 public:
  /// Always at least one block: data() is never null, even for size 0 (OpenModel then reports a
  /// truncated model, not a null argument).
  explicit AlignedBytes(std::size_t size = 0) : blocks_(size / 16 + 1), size_(size) {}
  std::uint8_t* data() { return reinterpret_cast<std::uint8_t*>(blocks_.data()); }  ///< 16-byte aligned
  const std::uint8_t* data() const { return reinterpret_cast<const std::uint8_t*>(blocks_.data()); }  ///< 16-byte aligned
  std::size_t size() const { return size_; }  ///< the bytes asked for

 private:
  struct alignas(16) Block {
    std::uint8_t b[16];
  };
  std::vector<Block> blocks_;
  std::size_t size_;
};

/// Reads a whole regular file. Throws IoError with the path and the reason (a directory or other
/// non-regular file is refused by name).
AlignedBytes ReadFileBytes(const std::string& path);

}  // namespace rfk::host

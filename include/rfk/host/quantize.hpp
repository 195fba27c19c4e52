/// @file
/// Host-only: quantizing weights to the format's storages (docs/FORMAT.md, "Quantized storage") and
/// re-quantizing a whole model blob without retraining (`rfk train --storage`, `rfk convert`).
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "rfk/format.hpp"
#include "rfk/host/data.hpp"
#include "rfk/host/model_writer.hpp"
#include "rfk/model.hpp"

namespace rfk::host {

/// A value that does not fit a storage (an f32 weight beyond f16's range, a non-finite weight).
class QuantizeError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// f32 -> IEEE binary16 bits, rounded to nearest, ties to even (subnormal halves included).
/// Throws QuantizeError for a non-finite v or one whose rounding exceeds 65504 (f16's largest).
std::uint16_t FloatToHalf(float v);

/// Row `row` of an f16-scaled matrix (the head only): the power of two 2^s that maps max_c |w_c|
/// into f16's top binade, [32768, 65504] (one binade lower where the top one would round past
/// 65504); 1 for an all-zero row; s clamped to >= -126 (a normal f32). Element c is stored as
/// FloatToHalf(w_c / scale), an exact division, and read as scale * h.
float F16Scale(const float* w, std::size_t n);

/// Row `row` of an int8 matrix: scale = max_c |w_c| / 127 (in f32; 1 for an all-zero row), q_c =
/// w_c / scale rounded half away from zero, clamped to [-127, 127].
float Int8Scale(const float* w, std::size_t n);
/// w / scale rounded half away from zero, clamped to [-127, 127] (Int8Scale's q_c). Throws
/// QuantizeError when w / scale is not finite (an infinite or NaN weight).
std::int8_t Int8Quantize(float w, float scale);

/// The stored bytes (format::QuantMatrixBytes) of a rows x cols matrix given row-major in `w`, its
/// element (j, c) placed at index(j, c) of the stored element order (W's panels; identity for the
/// head), int8 and f16-scaled scales per row j: scales[j] when given (rows of them; f16-scaled
/// ones powers of two), else Int8Scale, F16Scale. f32 stores the floats unchanged.
std::vector<std::uint8_t> EncodeMatrix(format::Storage storage, const std::vector<float>& w, std::uint64_t rows,
                                       std::uint64_t cols,
                                       std::uint64_t (*index)(std::uint64_t j, std::uint64_t c, std::uint64_t cols),
                                       const float* scales = nullptr);

/// An int8 head given exactly (K x D row-major q, a scale and a bias per output), for
/// RequantizeModel to store as it is instead of rounding the model's head (GptqInt8Head in
/// rfk_host's training and `rfk convert --calibrate` make one).
struct Int8Head {
  std::vector<std::int8_t> q;  ///< K x D, each in [-127, 127]
  std::vector<float> scale;    ///< K, finite and > 0
  std::vector<float> bias;     ///< K
};

/// Candidate scales per row of RoundInt8Gptq.
inline constexpr int kGptqScaleSteps = 8;

/// Int8 rounding of the rows of w (rows x cols, row-major; rows = outputs) that minimises the
/// change of a quadratic form rather than of the weights: for each row, sequentially from the last
/// column to the first, q_c is the nearest step to w_c plus the rounding errors of the columns
/// already rounded, pushed through the Cholesky factor U of A (A = U'U, U upper) -- Babai's
/// nearest-plane rounding, which is GPTQ / OBQ's error feedback (Frantar et al. 2022; Hassibi &
/// Stork's Optimal Brain Surgeon) in reverse column order. So ||U (w - scale q)||^2 =
/// (w - scale q)' A (w - scale q), the increase of a ridge objective with Hessian A, is small: no
/// bound is claimed, but it is far less than plain rounding's in practice (a9a's head: 6x less,
/// tests/model/test_quantize_aware.cc). Per row, the scale is the one of kGptqScaleSteps candidates
/// Int8Scale(w) * factor (factor 1, 0.95, ..., 0.65, in f32) whose rounding gives the least error,
/// ties to the larger. A (cols x cols, row-major, upper triangle read) must be symmetric positive
/// semi-definite: if its Cholesky factorisation fails, it is damped by 1e-12 of its mean diagonal,
/// then 100x more, up to the mean diagonal (then QuantizeError: a non-finite A). Deterministic: the same bits for any `threads`. O(cols^3 / 3 + rows x
/// kGptqScaleSteps x cols^2). err (if not null) gets each row's (w - scale q)' A (w - scale q).
void RoundInt8Gptq(const std::vector<double>& w, std::uint32_t rows, std::uint32_t cols, std::vector<double> A,
                   unsigned threads, std::vector<std::int8_t>* q, std::vector<float>* scale,
                   std::vector<double>* err = nullptr);

/// A copy of an opened model with its map weights -- W (projection) of a dense Fourier map, or G
/// and S of a Fastfood map -- stored in `w_storage` and its head in `head_storage`, as
/// ModelSpec::map_storage and head_storage say (the standardisation in f16 where that allows;
/// an f16 one stays). The model is read with SpecFromModel (weights widened from their storage)
/// and the sections those storages touch -- map_params, projection, fastfood, standardize, head --
/// are encoded again by SerializeModel's writers; every other section is copied byte for byte
/// (unknown optional ones too, with their entries' storage word), all in the source's order.
/// Throws QuantizeError when a target storage is wider than the source's (precision lost earlier is
/// not restored: convert from the f32 model instead), or a value does not fit. A model without a
/// Fourier map ignores w_storage.
/// With `head` (head_storage int8, its sizes K x D): the head stored is `head` (SetInt8Head), not a
/// rounding of the model's. Weights whose storage stays keep their row scales, hence their bytes.
std::vector<std::uint8_t> RequantizeModel(const Model& m, format::Storage w_storage, format::Storage head_storage,
                                          const Int8Head* head = nullptr);

/// spec's head replaced by `head` (K x D, as the spec's counts), stored int8 with exactly its q,
/// scales and biases (ModelSpec::head_scales). Throws std::logic_error for other sizes.
void SetInt8Head(const Int8Head& head, ModelSpec* spec);

/// Row j of a W that a map stores in `storage`, as the device core reads it, for a host that must
/// compute the device's features (quantization-aware training): each w_c replaced by its stored
/// element as the core widens it (f16: the half; a weight beyond f16's range is left as it is: the
/// model's writer refuses it), and for a storage with row scales (format::HasRowScales) *scale set:
/// the row's real weights are then *scale * w_c (int8: w_c = float(q_c), and the core computes the
/// dot product as *scale * sum_c float(q_c) x_c). f32: unchanged. The same rounding EncodeMatrix
/// applies (one codec per storage, lib/host/model/quantize.cc), so the stored W is this one exactly.
void StoredRow(format::Storage storage, float* w, std::size_t n, float* scale);

/// The most features CalibratedInt8Model refits (its D x D systems).
inline constexpr std::uint32_t kMaxCalibratedFeatures = 20000;

/// Throws CalibratedInt8Model's QuantizeError for a model it cannot calibrate whatever the rows
/// (random binning; D > kMaxCalibratedFeatures): so a caller can refuse before reading the data.
void CheckCalibratable(const Model& m);
/// CalibratedInt8Model's peak memory for a model of D features and `rows` calibration rows of the
/// model's input_dim, estimated from the sizes: three D x D matrices of doubles alive at once (the
/// refit's statistics, and GptqInt8Head's system and its factor; 24 D^2 bytes) and the rows as
/// floats. Measured: Forest Cover's (54, 5000) model refitted on 10,000 drawn rows peaked at 591 MiB
/// resident (`/usr/bin/time -v rfk convert`, 2026-11-28), the estimate 575 MiB (the rest: the
/// process, its libraries and the model); D = 20000 needs
/// about 9 GiB. `rfk convert` checks it against its --memory-limit before refitting.
double CalibrationMemoryBytes(const Model& m, std::size_t rows);
/// What CalibratedInt8Model chose, and how far its outputs and plain rounding's are from the source's.
struct CalibrationReport {
  int chosen = 0;        ///< 0: the refit, 1: m's head GPTQ-rounded, 2: m's head rounded plainly
  double mse = 0;        ///< the chosen candidate's mean squared change of the outputs
  double mse_plain = 0;  ///< plain rounding's
};
/// `rfk convert --storage int8 --calibrate FILE`: m with W stored in `w_storage` and an int8 head
/// fitted on `calibration` (representative inputs; labels, if any, are not used) to reproduce m's
/// raw outputs from the features of the stored W: by ridge at `lambda` (the model's own, from its
/// metadata) with the penalty on the change from m's head (so it is not shrunk towards 0 a second
/// time), then rounded by GptqInt8Head on that ridge system. Three candidates -- that refit, m's
/// head rounded by GptqInt8Head without the refit, and m's head rounded plainly -- are scored on
/// the calibration rows (mean over rows and outputs of the squared difference from m's outputs)
/// and the best is stored, in that order of preference on ties: so on those rows the result is
/// never further from m than plain rounding. Rows like the calibration's are what the refit knows
/// (at least D of them are needed: refused below that). Two passes over the rows. Every other
/// section is copied as RequantizeModel copies it. Throws QuantizeError for a model it cannot
/// calibrate (random binning: its columns are not a fixed D; D > kMaxCalibratedFeatures), too few
/// rows, or a row the model refuses (naming source:line).
std::vector<std::uint8_t> CalibratedInt8Model(const Model& m, format::Storage w_storage, const Dataset& calibration,
                                              double lambda, unsigned threads, CalibrationReport* report = nullptr);

/// The model's standardisation as stored (f32 or f16), widened to double: mean 0 and inv_scale 1 per
/// column without one.
void WidenedStandardization(const Model& m, std::vector<double>* mean, std::vector<double>* inv_scale);

/// The input_stats section widened (ReadInputStats).
struct InputStats {
  std::vector<double> mean;  ///< d: the training columns' means
  std::vector<double> sd;    ///< d: their deviations
};

/// The model's input_stats section (format::input_stats), widened: the training columns' means and
/// deviations. False (out emptied) when the model has none; throws QuantizeError naming the field
/// and its byte offset in the model when the section is malformed (its size, count or reserved
/// words, a non-finite value, a negative deviation). Device cores skip the section unread.
bool ReadInputStats(const Model& m, InputStats* out);

/// What inputs are drawn from without data (DrawDistribution).
struct InputDistribution {
  /// Which section the distribution came from.
  enum Source { kInputStats, kStandardization, kScaleOnly };
  std::vector<double> mean;    ///< d: each column's mean
  std::vector<double> inv_sd;  ///< d: 1 / its deviation (0: the column is constant)
  Source source = kScaleOnly;  ///< where mean and inv_sd came from
};

/// What `rfk convert` draws inputs from, without data: column c independently normal with mean[c]
/// and deviation 1 / inv_sd[c] (at its mean where inv_sd[c] is 0). From the input_stats section
/// when the model has one; else from a centred standardisation (its mean and inv_scale are the
/// training columns' mean and 1 / deviation); else from a standardisation scaled without centring
/// (every mean 0: the draws have the rows' scale but not their location -- kScaleOnly). False
/// without either section. Throws as ReadInputStats.
bool DrawDistribution(const Model& m, InputDistribution* out);

/// The fewest rows DrawnCalibrationRows draws.
inline constexpr std::size_t kRefitMinInputs = 8192;

/// `rfk convert --storage int8` without data: rows for CalibratedInt8Model drawn from
/// DrawDistribution (a stream of its own, the same rows on every run), max(kRefitMinInputs, 2 D)
/// of them, unlabelled, source "drawn inputs". False (out untouched) when the draws would not stand
/// for the training rows: no distribution, or kScaleOnly (measured on Forest Cover at lambda 1e-8:
/// a head refitted on draws about 0 scored 18.39 % test error against 13.94 % for the f32 model
/// and 17.94 % for plain rounding; refitted on draws with the training means and deviations,
/// 13.99 %; docs/RESULTS.md).
bool DrawnCalibrationRows(const Model& m, Dataset* out);

/// The inputs EstimateOutputShift draws.
inline constexpr std::size_t kShiftInputs = 1024;

/// How far a re-stored model's outputs moved from its source's (EstimateOutputShift).
struct OutputShift {
  double rms = 0;        ///< root mean square of converted - source
  double max = 0;        ///< the largest |converted - source|
  double source_sd = 0;  ///< the source's outputs' deviation on the same inputs
  std::size_t inputs = 0;  ///< inputs drawn
  InputDistribution::Source source = InputDistribution::kScaleOnly;  ///< what the inputs were drawn from
};

/// `rfk convert` without data: how far a re-stored model's raw outputs are from its source's, on
/// kShiftInputs inputs drawn from DrawDistribution(source) -- the same draws
/// on every run and machine -- through the core's Predict for both models (so the last digits
/// follow the active kernel table). rms: the root mean square over inputs and outputs of
/// converted - source; max: the largest |converted - source|; source_sd: the source's outputs'
/// standard deviation on those inputs (the root mean square over outputs of each one's). An
/// estimate for data like the training data, not a bound: real rows are not independent normals
/// (docs/RESULTS.md's storage table, 2026-11-28: plain int8 conversions moved the test rows'
/// outputs 0.7x (CPU, Census) to 1.1x this rms; 1.8x with draws about 0, before input_stats), so it says which
/// conversions are close and which are not, not by how much exactly. Returns false (shift zeroed),
/// with no figure, for a model whose draws would mean nothing or that the float path cannot
/// predict: without input_stats or standardisation, with random binning (in exact mode drawn inputs fall in
/// cells training never saw, whose features are 0; hashed, a cell's bucket mixes unrelated
/// training cells: either way the draws do not stand for the rows), without a float map
/// (fixed-only), or two models whose inputs or outputs differ.
bool EstimateOutputShift(const Model& source, const Model& converted, OutputShift* shift);

/// StandardizationStorage's bound on |mean| * inv_scale for an f16 standardisation.
inline constexpr float kStandardizeF16MaxOffset = 8.0f;

/// The storage of the standardisation (mean, inv_scale: d each) in a model whose map weights (W,
/// or Fastfood's G and S) are stored in `w_storage`, for `fourier_only` models (a Fourier-type map,
/// no binning: the bin grids read standardised inputs in f32 and stay exact only with f32 vectors).
/// f16 when w_storage is f16 or int8 and, once rounded to f16 (to nearest even), every value is 0
/// or a normal half (2^-14 <= |v| <= 65504: full precision, subnormals would lose bits) and every
/// column has |mean| * inv_scale <= kStandardizeF16MaxOffset (the mean's rounding then moves a
/// standardised input by at most 2^-11 * 8 = 2^-8 of its training deviation); then mean and
/// inv_scale are replaced by their rounded values (so a host computing the device's features uses
/// the f16 vectors exactly). Otherwise f32, the vectors unchanged. int8 is never chosen: with one
/// scale per vector, covtype's inverse scales (0.0006 to 1.0) made the test error 51 %.
format::Storage StandardizationStorage(format::Storage w_storage, bool fourier_only, std::vector<float>* mean,
                                       std::vector<float>* inv_scale);

/// The storages a user may ask for (--storage, storage=): RFK_FORMAT_STORAGES' rows marked kForUser,
/// in the table's order, named as the format names them (format::NameOf). f16-scaled is chosen by
/// the writer, not asked for.
std::vector<format::Storage> UserStorages();
/// UserStorages' names as a list for messages and help: "f32, f16 or int8".
std::string StorageNames();
/// A name of UserStorages -> the storage; throws std::invalid_argument naming the choices otherwise.
format::Storage ParseStorage(const std::string& name);

}  // namespace rfk::host

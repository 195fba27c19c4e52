/// @file
/// Model export as C source for firmware: the blob as an aligned byte array that the device reads
/// in place from flash, plus, optionally, test vectors (inputs with the host's outputs, classes and
/// bin keys) so the device can check its own predictions against the host's. Host-only: allocates
/// and throws std::invalid_argument on a bad name or inconsistent vectors.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "rfk/model.hpp"

namespace rfk::host {

/// Rows of data with the outputs the host computes for them, exported beside a model so that a
/// device can check its own predictions (`rfk export --vectors`).
struct TestVectors {
  std::uint32_t count = 0;           ///< rows
  std::uint32_t input_dim = 0;       ///< d
  std::uint32_t num_outputs = 0;     ///< K
  std::uint32_t num_grids = 0;       ///< P, or 0: no keys (also for a fixed-only model with grids)
  std::vector<float> inputs;         ///< count x d
  std::vector<float> outputs;        ///< count x K, computed by the scalar reference kernels
  std::vector<std::uint32_t> classes;  ///< count (classification models), else empty
  std::vector<std::uint64_t> keys;   ///< count x P bin keys
  /// Fixed-point models (a fixed section) only, else empty: the inputs as QuantizeInput converts
  /// them (count x d) and PredictFixed's outputs (count x K).
  std::vector<std::int16_t> inputs_q;   ///< count x d
  std::vector<std::int32_t> outputs_q;  ///< count x K
  /// Fixed-point models whose vector inputs are all whole numbers within int32, else empty: those
  /// inputs as integer codes (count x d) and what rfk_quantize_codes makes of them with the
  /// exported constants (count x d).
  std::vector<std::int32_t> codes;     ///< count x d
  std::vector<std::int16_t> codes_q;   ///< count x d
};

/// The exported files. Header-only mode (source empty): the header defines every array `static
/// const`, for a firmware with one translation unit that includes it. Otherwise the header declares
/// the arrays `extern` (inside extern "C" for C++) and `source` defines them once, so any number of
/// files may include the header without duplicating the model in flash.
struct CExport {
  std::string header;  ///< the header's text
  std::string source;  ///< the .c file's text; empty in header-only mode
};

/// The block a configuration from CoreConfigHeader gives Predict (RFK_FEATURE_BLOCK, rfk/model.hpp):
/// the smallest, for the least scratch; the outputs are the same for every block size.
inline constexpr std::uint32_t kConfigFeatureBlock = kMinFeatureBlock;

/// C text for the model, for name "kws" (see CheckCName):
///   kws[KWS_BYTES] (uint8_t, 16-byte aligned), KWS_BYTES, KWS_INPUT_DIM, KWS_OUTPUTS, KWS_CLASSES,
///   KWS_GRIDS, KWS_SCRATCH_BYTES (for a core with kConfigFeatureBlock-feature blocks where the
///   including build defines RFK_FEATURE_BLOCK so -- the header includes RFK_CONFIG_HEADER where
///   the build names one -- else for kFeatureBlock), KWS_BATCH_SCRATCH_BYTES; with vectors KWS_VECTORS, kws_inputs,
///   kws_outputs (float), kws_classes (uint32_t, if any) and kws_keys (uint32_t pairs, high word
///   first: key = (uint64_t)kws_keys[2i] << 32 | kws_keys[2i + 1], if P > 0). A fixed-point
///   model adds KWS_FIXED_SCRATCH_BYTES and its integer input conversion (MakeInputCodes):
///   kws_code_center, kws_code_mult, kws_code_bias (int32_t) and kws_code_shift (uint8_t), and
///   KWS_INPUT_CODES, an initializer for rfk_input_codes; its vectors add kws_inputs_q and
///   kws_outputs_q, and where the inputs are integer codes, KWS_CODE_VECTORS, kws_codes (int32_t)
///   and kws_codes_q (int16_t).
/// The text is C89 and C++98 alike: floats are decimal literals with 9 significant digits (each
/// reads back as exactly the same float on any compiler that rounds decimal constants correctly,
/// as IEEE-754 and C99 Annex F require), no 64-bit integer constants, no // comments.
/// `m` is an opened model (OpenedModel::model()): its bytes are exported; `comment` lands in the
/// preamble; `header_include` is how the source includes the header (e.g. "kws_model.h"), empty
/// for header-only mode. `pinned`: the array of a core pinned to this model (CoreConfigHeader's
/// pin_array), which refers to it by name: header-only mode then defines it with external linkage
/// (C linkage in C++), so one file of the firmware includes the header.
CExport ModelCSource(const Model& m, const std::string& name, const TestVectors* vectors, const std::string& comment,
                     const std::string& header_include, bool pinned = false);

/// Whether the float path (rfk::Predict) can run the opened model: false only for a fixed-only one
/// (`rfk convert --fixed-only`), which keeps no float W, Fastfood diagonals or bin grids.
bool HasFloatPath(const Model& m);

/// The core configuration the model needs (lib/core/core_config.h's switches) as a C header, for a
/// firmware that compiles the core for this model only (rfk_add_core CONFIG, rfk.mk
/// RFK_CONFIG_HEADER, or -DRFK_CONFIG_HEADER='"file"'): the float path where the model has float
/// weights (and within it the dense, Fastfood or binning map and the quantized storages only where
/// the model uses them), the integer path where it has a fixed section (and within it Fastfood and
/// binning only where the model uses them). The core so built refuses a model of another kind at open (never
/// misreads it). `comment` lands in the preamble. With `pin_array` (the name ModelCSource exports the
/// model's array under, `pinned`), also RFK_PIN_*: the core so built opens this model's bytes only
/// (kOtherModel for any other) and reads them through a Model in flash made of the values written
/// here, pointing into that array, instead of linking the validators (lib/core/model_open_pinned.cc).
/// Throws std::invalid_argument where pin_array is not a name CheckCName accepts.
std::string CoreConfigHeader(const Model& m, const std::string& comment, const std::string& pin_array = "");

/// Throws std::invalid_argument unless `name` can name the exported array and prefix its macros
/// in C and C++: an identifier ([A-Za-z_][A-Za-z0-9_]*) that is not a C or C++ keyword, not
/// reserved to the implementation (a leading underscore followed by an upper-case letter or a
/// second underscore), and not in rfk's own API namespace (rfk_*, RFK_*).
void CheckCName(const std::string& name);

}  // namespace rfk::host

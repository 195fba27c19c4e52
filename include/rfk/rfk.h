/** @file
 * rfk C API: the device core for firmware written in C (C99 or later; also valid C++).
 *
 * Contract for every function here, as for the C++ core (rfk/model.hpp) it wraps: no heap
 * allocation, no exceptions escape, no I/O, no environment access, reentrant. The model bytes are
 * read in place and must stay valid and unchanged while an rfk_model refers to them; they must sit
 * at a 16-byte-aligned address (RFK_MODEL_ALIGNMENT), as the arrays written by
 * `rfk export --c-header` do. Any number of threads or tasks may predict with one rfk_model at
 * once, each with its own scratch buffer.
 *
 * Typical use with a header from `rfk export --c-header m.h --name my_model` (all memory is the
 * caller's; nothing is allocated):
 *
 *   static rfk_model model;
 *   static uint8_t scratch[MY_MODEL_SCRATCH_BYTES] RFK_ALIGNED;
 *   if (rfk_open(&model, my_model, MY_MODEL_BYTES, NULL) != RFK_OK) ...
 *   float out[MY_MODEL_OUTPUTS];
 *   rfk_status s = rfk_predict(&model, x, MY_MODEL_INPUT_DIM, scratch, sizeof scratch,
 *                              out, MY_MODEL_OUTPUTS);
 */
#ifndef RFK_RFK_H_
#define RFK_RFK_H_

#include <stddef.h>
#include <stdint.h>

#include "rfk/status_list.h"

/* The configuration `rfk export --config-header` wrote, where the build names it (rfk_add_core's
 * CONFIG and rfk.mk's RFK_CONFIG_HEADER name it for the application too), and the members of the
 * Model it stores: a pinned configuration (RFK_PIN_ARRAY) makes rfk_model one pointer, another one
 * holds only what its kind reads (rfk/model_layout.h). */
#include "rfk/model_layout.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Status codes: RFK_OK (0) and the failures listed in rfk/status_list.h. */
typedef int32_t rfk_status;
enum {
#define RFK_STATUS_C_ENUM(name, c_name, msg) c_name,
  RFK_STATUS_LIST(RFK_STATUS_C_ENUM)
#undef RFK_STATUS_C_ENUM
  RFK_STATUS_COUNT
};

/** @{ */
/** Alignment of model bytes and of scratch buffers, in bytes. */
#define RFK_MODEL_ALIGNMENT 16
#define RFK_SCRATCH_ALIGNMENT 16
#if defined(__GNUC__) || defined(__clang__)
#define RFK_ALIGNED __attribute__((aligned(16)))
#elif defined(_MSC_VER)
#define RFK_ALIGNED __declspec(align(16))
#else
#define RFK_ALIGNED /* use C11 _Alignas(16) or place the object yourself */
#endif
/** @} */

/** Bytes of an rfk_model: rfk::Model's size, 384 on 64-bit hosts and 264 on 32-bit cores (its 26
 * pointers and the padding that follows their size make it 30 pointer widths plus 144 bytes); with
 * a configuration that is not pinned, the configured Model's (rfk/model_layout.h: 64 on a 32-bit
 * core for a dense f32 model). lib/core/capi_handle.h asserts that it holds a Model: one that
 * grows fails the core's build until this does too. */
#if RFK_MODEL_CONFIGURED
#define RFK_MODEL_HANDLE_BYTES RFK_MODEL_CONFIGURED_BYTES
#else
#define RFK_MODEL_HANDLE_BYTES (30 * sizeof(void*) + 144)
#endif

/** An opened model: a validated view into the caller's bytes (no copy). Treat as opaque; it is
 * plain storage, so it may be static, on the stack or inside another struct. Pass it to the other
 * functions only after rfk_open (a failed open leaves it empty: they then return
 * RFK_NULL_ARGUMENT, 0 or ""). With a pinned configuration (`rfk export --config-header --pin`)
 * it is one pointer, to the bytes rfk_open accepted, and rfk_open is named rfk_open_pinned, which
 * only a core built with that configuration defines (a link error, never a corrupted handle). With
 * another configuration it holds the configured Model, and rfk_open is named after its layout
 * (rfk_open_configured_...), for the same reason. */
#ifdef RFK_PIN_ARRAY
typedef struct rfk_model {
  const void* pinned; /**< the model's bytes; null until rfk_open succeeds */
} rfk_model;
#define rfk_open rfk_open_pinned
#else
#if RFK_MODEL_CONFIGURED
#define rfk_open RFK_ML_XCAT_(rfk_open_, RFK_MODEL_LAYOUT_ID)
#endif
typedef struct rfk_model {
  union {
    void* pointer;
    uint64_t integer;
    double real;
  } opaque[(RFK_MODEL_HANDLE_BYTES + 7) / 8]; /**< RFK_MODEL_HANDLE_BYTES, in 8-byte units */
} rfk_model;
#endif

/** Where rfk_open found a problem: the format field's name and its byte offset in the blob. */
typedef struct rfk_model_error {
  rfk_status status; /**< what rfk_open returned */
  const char* field; /**< e.g. "header.crc32"; never null after rfk_open; "" from a core built
                          with RFK_ERROR_FIELDS 0 (docs/EMBEDDED.md) */
  uint32_t offset;   /**< the field's byte offset in the blob */
} rfk_model_error;

/** Validates the whole blob once (sizes, offsets, alignment, enum values, finiteness, CRC-32).
 * `size` may exceed the model (e.g. a whole flash region). On failure *model is left empty and,
 * if `error` is not null, it says where. Cost: one pass over the bytes (the checksum).
 * On a firmware target (no OS), a firmware that links the core from its archive and calls no
 * fixed-point function below (rfk_predict_fixed, ...) links no integer path and does not read a
 * model's fixed section: it refuses a fixed-only model (RFK_UNSUPPORTED_STORAGE at "fixed") and
 * opens a model with both paths for rfk_predict (docs/EMBEDDED.md, "Choosing what the core reads"). */
rfk_status rfk_open(rfk_model* model, const void* bytes, size_t size, rfk_model_error* error);

/** Model facts. */
uint32_t rfk_input_dim(const rfk_model* model);   /**< d: floats per input */
uint32_t rfk_num_outputs(const rfk_model* model); /**< K: floats rfk_predict writes */
uint32_t rfk_num_classes(const rfk_model* model); /**< 0 for regression */
uint32_t rfk_num_grids(const rfk_model* model);   /**< P of the binning map, 0 if none */
uint32_t rfk_num_features(const rfk_model* model); /**< D: Fourier features + bin columns */

/** @{ */
/** Scratch bytes rfk_predict / rfk_compute_bins need (a multiple of RFK_SCRATCH_ALIGNMENT), and
 * rfk_predict_batch. Both depend only on the model's shape, so they can be sized at build time. */
size_t rfk_scratch_bytes(const rfk_model* model);
size_t rfk_batch_scratch_bytes(const rfk_model* model);
/** @} */

/** The model's K raw outputs for one input x of x_len == d floats: the regression value, the binary
 * decision value (> 0 means class 1) or K one-vs-rest scores. Fails with RFK_NON_FINITE_INPUT on
 * NaN/inf inputs and RFK_ARGUMENT_OUT_OF_RANGE where |Wx + b| > 1e9, never returning garbage. */
rfk_status rfk_predict(const rfk_model* model, const float* x, size_t x_len, void* scratch,
                       size_t scratch_bytes, float* out, size_t out_len);

/** n inputs at once (X: n x d floats, row-major, x_len == n * d; out: n x K, out_len >= n * K).
 * Scratch: rfk_batch_scratch_bytes. On failure, *done (if not null) counts the
 * rows before the failing one, which hold their outputs. */
rfk_status rfk_predict_batch(const rfk_model* model, const float* X, size_t n, size_t x_len,
                             void* scratch, size_t scratch_bytes, float* out, size_t out_len,
                             size_t* done);

/** @{ */
/** The class index a classifier's outputs decide and its label as written in the training data
 * (NUL-terminated, "" if none). With a calibration section the decided class is the most probable
 * one (the largest of rfk_probabilities' values, decided on the calibrated logits: no exp);
 * without one, and for rfk_decide_class_raw always, the sign for binary and the first argmax
 * otherwise. 0 for regression. No libm. */
uint32_t rfk_decide_class(const rfk_model* model, const float* outputs);
uint32_t rfk_decide_class_raw(const rfk_model* model, const float* outputs);
const char* rfk_class_label(const rfk_model* model, uint32_t class_index);
/** @} */

/** The name of input column `index` as the training data had it (index == rfk_input_dim: the label
 * column), NUL-terminated; "" when the model stores no names, index is past the label, or the core
 * was built without RFK_READ_NAMES (lib/core/core_config.h). */
const char* rfk_feature_name(const rfk_model* model, uint32_t index);

/** Class probabilities from a classifier's raw outputs (out_len >= K floats from rfk_predict):
 * proba_len >= rfk_num_classes floats, one per class in label order, from the model's calibration
 * section (rfk/format.hpp, docs/FORMAT.md: platt-cubic for binary, softmax-vector for multiclass,
 * and the first methods, platt and softmax-temperature, of older models).
 * RFK_NO_CALIBRATION when the model has none (regression models, models trained with
 * --no-calibration, older models). No allocation, no libm. */
rfk_status rfk_probabilities(const rfk_model* model, const float* outputs, size_t out_len,
                             float* proba, size_t proba_len);

/** @{ */
/** The binning map's 64-bit key per grid, bit-identical on every platform and backend, and each
 * grid's feature column (RFK_NO_COLUMN where an exact-mode model never saw that bin); len >= P. */
#define RFK_NO_COLUMN 0xFFFFFFFFu
rfk_status rfk_compute_bins(const rfk_model* model, const float* x, size_t x_len, void* scratch,
                            size_t scratch_bytes, uint64_t* keys, uint32_t* columns, size_t len);
/** @} */

/** @{ */
/** Fixed-point models (a `fixed` section, written by `rfk convert --fixed`; docs/EMBEDDED.md, "The
 * integer path"): integer inputs, integer outputs, no floating-point operation in between, the same
 * integers on every target. rfk_fixed_scratch_bytes is 0 for a model without the section.
 * rfk_predict_fixed writes K int32 outputs whose real values are out[k] * rfk_fixed_output_scale;
 * RFK_UNSUPPORTED_STORAGE for a model without the section. rfk_decide_class_fixed decides on the
 * integers, uncalibrated (binary out[0] > 0, else the first maximum); the calibrated decision is
 * rfk_decide_class on out[k] * rfk_fixed_output_scale (float). rfk_quantize_input is the host's helper
 * (float arithmetic) from float inputs to the int16 ones; *saturated (if not null) counts the
 * values clamped to +-32767. */
size_t rfk_fixed_scratch_bytes(const rfk_model* model);
rfk_status rfk_predict_fixed(const rfk_model* model, const int16_t* x, size_t x_len, void* scratch,
                             size_t scratch_bytes, int32_t* out, size_t out_len);
uint32_t rfk_decide_class_fixed(const rfk_model* model, const int32_t* outputs);
float rfk_fixed_output_scale(const rfk_model* model);
rfk_status rfk_quantize_input(const rfk_model* model, const float* x, size_t x_len, int16_t* xq,
                              size_t xq_len, uint32_t* saturated);
/** @} */

/** Integer inputs end to end, for a fixed-point model whose inputs are integer codes (an ADC's
 * counts, a sensor's register: the values it was trained on): the int16 inputs by integer
 * arithmetic only, so an FPU-less firmware links no soft-float routine. The constants are the
 * model's input conversion as `rfk export` writes it (NAME_INPUT_CODES, an initializer for this
 * struct): per column c, with d = code[c] - center[c] in 64 bits (clamped to +-2^31),
 *   xq[c] = clamp(round_half_away_from_zero((d * mult[c] + bias[c]) / 2^shift[c]), -32767, 32767).
 * rfk export's constants give rfk_quantize_input's value on the same numbers, or one next to it where
 * that value's fraction lies within about 2^-14 of a half. *saturated (if not null) counts the
 * clamped values. RFK_NULL_ARGUMENT, RFK_INPUT_DIM_MISMATCH (codes_len != dim), RFK_OUTPUT_TOO_SMALL
 * (xq_len < dim), RFK_ARGUMENT_OUT_OF_RANGE (a shift above 62). No model is read; no allocation. */
typedef struct rfk_input_codes {
  uint32_t dim;          /**< d */
  const int32_t* center; /**< d each */
  const int32_t* mult;   /**< d each */
  const int32_t* bias;   /**< d each */
  const uint8_t* shift;  /**< d each, at most 62 */
} rfk_input_codes;
/** The int16 inputs of `codes` through the conversion `conv`, as described above. */
rfk_status rfk_quantize_codes(const rfk_input_codes* conv, const int32_t* codes, size_t codes_len, int16_t* xq,
                              size_t xq_len, uint32_t* saturated);

/** @{ */
/** Status identifier ("kBadChecksum") and message; never null. */
const char* rfk_status_name(rfk_status status);
const char* rfk_status_message(rfk_status status);
/** @} */

/** @{ */
/** Kernel tables compiled in and supported by this CPU, best first (scalar always last), and the
 * one rfk_predict uses. rfk_select_kernels("scalar"), ("NEON"), ("hwy-AVX2"), ... switches it for
 * the whole program and returns 1, or returns 0 and changes nothing. */
size_t rfk_kernel_table_count(void);
const char* rfk_kernel_table_backend(size_t index); /**< null past the end */
const char* rfk_kernel_table_target(size_t index);  /**< null past the end */
int rfk_select_kernels(const char* name);
const char* rfk_active_target(void);
/** @} */

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* RFK_RFK_H_ */

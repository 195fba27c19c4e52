/* The reduced cores (lib/core/core_config.h, docs/EMBEDDED.md "Choosing what the core reads"),
 * built once per variant from this file: RFK_TEST_FIXED_ONLY links rfk_core_fixed_only (RFK_CORE_FLOAT=0),
 * with RFK_TEST_FIXED_MIN too rfk_core_fixed_min (also RFK_FIXED_FASTFOOD=0 and RFK_FIXED_BINNING=0),
 * otherwise rfk_core_float_only (RFK_CORE_FIXED=0). Each must read the kind it keeps exactly as the
 * whole core does (the host's outputs for the first test vector) and refuse the kind it left out at
 * open, with kUnsupportedStorage at the field "fixed": a fixed-only core refuses a model without a
 * fixed section (offset 0), a float-only core one with it (at its table entry); the core without
 * Fastfood and binning refuses a fixed Fastfood or binning model with kUnsupportedMap at "fixed"
 * (its table entry), the fixed-only core reads both. RFK_TEST_DENSE_F32 links rfk_core_dense_f32
 * (float-only without Fastfood, binning or quantized storage): it reads the dense f32 model as the
 * float-only core does and refuses a Fastfood, a binning and an int8 model at open, at the field
 * that names what is missing; as `rfk export --config-header` configures it for house_pair (pairs,
 * no impute, no calibration, names not read), it also refuses the phase form, an impute section
 * and a calibration section, and gives "" for a feature name. RFK_TEST_QUANT_HEAD links
 * rfk_core_quant_head (float-only without the f32 head, RFK_HEAD_F32=0): it reads the int8 model
 * (house_int8) and refuses house_pair's f32 head at head.storage. RFK_TEST_FLOAT_FIRMWARE and
 * RFK_TEST_BOTH_FIRMWARE link the whole core (rfk::core): the first never calls rfk_predict_fixed,
 * so it links no integer path (lib/core/fixed_open.h, RFK_FIXED_ON_USE) and must refuse a fixed-only
 * model at open as the float-only core does, and open house_both (house_pair with its fixed section)
 * for rfk_predict, the host's output; the second calls rfk_predict_fixed and must open both and give
 * the host's integers and output. Returns the number of failed checks. */
#include <stdio.h>
#include <string.h>

#include "a9a_hashed.h"
#include "a9a_hashed_fixed.h"
#include "covtype_ff_fixed.h"
#include "covtype_small_binary.h"
#include "house_both.h"
#include "house_fastfood.h"
#include "house_fixed.h"
#include "house_impute.h"
#include "house_int8.h"
#include "house_pair.h"
#include "house_phase.h"
#include "rfk/rfk.h"

static rfk_model model;
static uint8_t scratch[HOUSE_PAIR_SCRATCH_BYTES] RFK_ALIGNED;
static int failures;

static void check(int ok, const char* what) {
  if (!ok) ++failures;
  printf("%s: %s\n", ok ? "ok" : "FAILED", what);
}

#if !defined(RFK_TEST_BOTH_FIRMWARE)
/* The open is refused as a compiled-out kind: kUnsupportedStorage at "fixed", the offset given. */
static void refused(const uint8_t* bytes, uint32_t size, int at_entry, const char* what) {
  rfk_model_error err;
  const rfk_status s = rfk_open(&model, bytes, size, &err);
  check(s == RFK_UNSUPPORTED_STORAGE && strcmp(err.field, "fixed") == 0 && (at_entry ? err.offset != 0 : err.offset == 0),
        what);
}
#endif

#if !defined(RFK_TEST_FIXED_ONLY)
/* rfk_predict's output for the first test vector within selfcheck's tolerance (1e-4 relative). */
static int host_output(const float* x, size_t d, float want) {
  float out[1];
  const float scale = want > 1.0f ? want : want < -1.0f ? -want : 1.0f;
  return rfk_predict(&model, x, d, scratch, sizeof scratch, out, 1) == RFK_OK && out[0] - want <= 1e-4f * scale &&
         want - out[0] <= 1e-4f * scale;
}
#endif

int main(void) {
#if defined(RFK_TEST_FLOAT_FIRMWARE) || defined(RFK_TEST_BOTH_FIRMWARE)
  check(rfk_open(&model, house_both, HOUSE_BOTH_BYTES, NULL) == RFK_OK &&
            host_output(house_both_inputs, HOUSE_BOTH_INPUT_DIM, house_both_outputs[0]),
        "whole core: house_both's float path gives the host's output");
#if defined(RFK_TEST_FLOAT_FIRMWARE)
  refused(house_fixed, HOUSE_FIXED_BYTES, 1,
          "firmware without rfk_predict_fixed: a fixed-only model is refused (kUnsupportedStorage, fixed)");
#else
  {
    int32_t out[1];
    check(rfk_predict_fixed(&model, house_both_inputs_q, HOUSE_BOTH_INPUT_DIM, scratch, sizeof scratch, out, 1) ==
                  RFK_OK &&
              out[0] == house_both_outputs_q[0],
          "firmware with rfk_predict_fixed: house_both's integer path gives the host's integers");
    check(rfk_open(&model, house_fixed, HOUSE_FIXED_BYTES, NULL) == RFK_OK &&
              rfk_predict_fixed(&model, house_fixed_inputs_q, HOUSE_FIXED_INPUT_DIM, scratch, sizeof scratch, out, 1) ==
                  RFK_OK &&
              out[0] == house_fixed_outputs_q[0],
          "firmware with rfk_predict_fixed: opens a fixed-only model, the host's integers");
  }
#endif
#elif defined(RFK_TEST_FIXED_ONLY)
  int32_t out[1];
  float fout[1];
  refused(house_pair, HOUSE_PAIR_BYTES, 0, "fixed-only core: a float model is refused (kUnsupportedStorage, fixed)");
  check(rfk_open(&model, house_fixed, HOUSE_FIXED_BYTES, NULL) == RFK_OK, "fixed-only core: opens the fixed model");
  check(rfk_predict_fixed(&model, house_fixed_inputs_q, HOUSE_FIXED_INPUT_DIM, scratch, sizeof scratch, out, 1) == RFK_OK &&
            out[0] == house_fixed_outputs_q[0],
        "fixed-only core: the host's integers");
  check(rfk_predict(&model, house_fixed_inputs, HOUSE_FIXED_INPUT_DIM, scratch, sizeof scratch, fout, 1) ==
            RFK_UNSUPPORTED_STORAGE,
        "fixed-only core: rfk_predict answers kUnsupportedStorage");
#if defined(RFK_TEST_FIXED_MIN)
  {
    rfk_model_error err;
    check(rfk_open(&model, a9a_hashed_fixed, A9A_HASHED_FIXED_BYTES, &err) == RFK_UNSUPPORTED_MAP &&
              strcmp(err.field, "fixed") == 0 && err.offset != 0,
          "core without binning: a fixed binning model is refused (kUnsupportedMap, fixed)");
    check(rfk_open(&model, covtype_ff_fixed, COVTYPE_FF_FIXED_BYTES, &err) == RFK_UNSUPPORTED_MAP &&
              strcmp(err.field, "fixed") == 0 && err.offset != 0,
          "core without Fastfood: a Fastfood fixed model is refused (kUnsupportedMap, fixed)");
  }
#else
  check(rfk_open(&model, a9a_hashed_fixed, A9A_HASHED_FIXED_BYTES, NULL) == RFK_OK &&
            rfk_predict_fixed(&model, a9a_hashed_fixed_inputs_q, A9A_HASHED_FIXED_INPUT_DIM, scratch, sizeof scratch,
                              out, 1) == RFK_OK &&
            out[0] == a9a_hashed_fixed_outputs_q[0],
        "fixed-only core: a fixed binning model gives the host's integers");
  check(rfk_open(&model, covtype_ff_fixed, COVTYPE_FF_FIXED_BYTES, NULL) == RFK_OK &&
            rfk_fixed_scratch_bytes(&model) <= sizeof scratch &&
            rfk_predict_fixed(&model, covtype_ff_fixed_inputs_q, COVTYPE_FF_FIXED_INPUT_DIM, scratch, sizeof scratch,
                              out, 1) == RFK_OK &&
            out[0] == covtype_ff_fixed_outputs_q[0],
        "fixed-only core: a Fastfood fixed model gives the host's integers");
#endif
#else
#if defined(RFK_TEST_DENSE_F32)
  {
    rfk_model_error err;
    check(rfk_open(&model, house_fastfood, HOUSE_FASTFOOD_BYTES, &err) == RFK_UNSUPPORTED_MAP &&
              strcmp(err.field, "map_params.map_kind") == 0,
          "dense f32 core: a Fastfood model is refused (kUnsupportedMap, map_params.map_kind)");
    check(rfk_open(&model, a9a_hashed, A9A_HASHED_BYTES, &err) == RFK_UNSUPPORTED_MAP &&
              strcmp(err.field, "binning_params") == 0,
          "dense f32 core: a binning model is refused (kUnsupportedMap, binning_params)");
    check(rfk_open(&model, house_int8, HOUSE_INT8_BYTES, &err) == RFK_UNSUPPORTED_STORAGE &&
              strcmp(err.field, "map_params.storage") == 0,
          "dense f32 core: an int8 model is refused (kUnsupportedStorage, map_params.storage)");
    check(rfk_open(&model, house_phase, HOUSE_PHASE_BYTES, &err) == RFK_UNSUPPORTED_MAP &&
              strcmp(err.field, "map_params.map_kind") == 0,
          "dense f32 core: the phase form is refused (kUnsupportedMap, map_params.map_kind)");
    check(rfk_open(&model, house_impute, HOUSE_IMPUTE_BYTES, &err) == RFK_UNSUPPORTED_SECTION &&
              strcmp(err.field, "impute") == 0 && err.offset != 0,
          "dense f32 core: an impute section is refused (kUnsupportedSection, impute)");
    check(rfk_open(&model, covtype_small_binary, COVTYPE_SMALL_BINARY_BYTES, &err) == RFK_UNSUPPORTED_SECTION &&
              strcmp(err.field, "calibration") == 0 && err.offset != 0,
          "dense f32 core: a calibration section is refused (kUnsupportedSection, calibration)");
    check(rfk_open(&model, house_pair, HOUSE_PAIR_BYTES, NULL) == RFK_OK && rfk_feature_name(&model, 0)[0] == '\0',
          "dense f32 core: feature names are not read (\"\")");
  }
#elif !defined(RFK_TEST_QUANT_HEAD)
  check(rfk_open(&model, house_pair, HOUSE_PAIR_BYTES, NULL) == RFK_OK && strcmp(rfk_feature_name(&model, 0), "1") == 0,
        "float-only core: reads the feature names");
#endif
  refused(house_fixed, HOUSE_FIXED_BYTES, 1, "float-only core: a fixed model is refused (kUnsupportedStorage, fixed)");
#if defined(RFK_TEST_QUANT_HEAD)
  {
    rfk_model_error err;
    check(rfk_open(&model, house_pair, HOUSE_PAIR_BYTES, &err) == RFK_UNSUPPORTED_STORAGE &&
              strcmp(err.field, "head.storage") == 0 && err.offset != 0,
          "core without the f32 head: an f32 head is refused (kUnsupportedStorage, head.storage)");
  }
#define FLOAT_MODEL house_int8
#define FLOAT_MODEL_BYTES HOUSE_INT8_BYTES
#define FLOAT_MODEL_INPUTS house_int8_inputs
#define FLOAT_MODEL_OUTPUTS house_int8_outputs
#else
#define FLOAT_MODEL house_pair
#define FLOAT_MODEL_BYTES HOUSE_PAIR_BYTES
#define FLOAT_MODEL_INPUTS house_pair_inputs
#define FLOAT_MODEL_OUTPUTS house_pair_outputs
#endif
  check(rfk_open(&model, FLOAT_MODEL, FLOAT_MODEL_BYTES, NULL) == RFK_OK, "float-only core: opens the float model");
  check(host_output(FLOAT_MODEL_INPUTS, HOUSE_PAIR_INPUT_DIM, FLOAT_MODEL_OUTPUTS[0]),
        "float-only core: the host's output (selfcheck's tolerance, 1e-4 relative)");
#endif
  return failures;
}

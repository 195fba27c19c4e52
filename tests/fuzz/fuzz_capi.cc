// libFuzzer target for the C API (include/rfk/rfk.h): rfk_open on arbitrary bytes, then every
// function on whatever opens, with inputs taken from the fuzz data itself (so NaN, infinities and
// huge values reach rfk_predict). As for the model target, each input is tried as given and with
// its CRC-32 recomputed. Invariants: every status is a known one, a failed open leaves a model that
// every call refuses, infinite inputs are refused and NaN ones unless the model imputes them, and a batch of one input succeeds wherever the
// single-sample call does.
#include "fuzz_targets.h"

#include <cmath>
#include <cstring>
#include <vector>

#include "rfk/fixed.hpp"
#include "rfk/format.hpp"
#include "rfk/model.hpp"
#include "rfk/rfk.h"

namespace {

bool Known(rfk_status s) { return s >= 0 && s < RFK_STATUS_COUNT; }

// The classes and probabilities of K outputs that rfk_predict gave.
void CheckDecisions(const rfk_model* m, const float* outputs, std::uint32_t K) {
  const std::uint32_t decided = rfk_decide_class(m, outputs);
  const std::uint32_t raw = rfk_decide_class_raw(m, outputs);
  FUZZ_CHECK(rfk_num_classes(m) == 0 ? decided == 0 && raw == 0
                                      : decided < rfk_num_classes(m) && raw < rfk_num_classes(m));
  // Class probabilities: a model with a calibration section gives C values in [0, 1] summing
  // to 1 (or refuses outputs that overflow A s); one without answers RFK_NO_CALIBRATION.
  std::vector<float> proba(rfk_num_classes(m) + 1);
  const rfk_status c = rfk_probabilities(m, outputs, K, proba.data(), proba.size());
  FUZZ_CHECK(c == RFK_OK || c == RFK_NO_CALIBRATION || c == RFK_ARGUMENT_OUT_OF_RANGE);
  if (c == RFK_OK) {
    double sum = 0;
    for (std::uint32_t k = 0; k < rfk_num_classes(m); ++k) {
      FUZZ_CHECK(proba[k] >= 0.0f && proba[k] <= 1.0f);
      sum += proba[k];
    }
    FUZZ_CHECK(sum > 0.999 && sum < 1.001);
    // The decided class is the most probable one (up to exp's rounding).
    for (std::uint32_t k = 0; k < rfk_num_classes(m); ++k) FUZZ_CHECK(proba[decided] >= proba[k] - 1e-6f);
  }
}

void Exercise(const std::uint8_t* bytes, std::size_t size, const std::uint8_t* data, std::size_t n) {
  rfk_model m;
  rfk_model_error e;
  const rfk_status s = rfk_open(&m, bytes, size, &e);
  FUZZ_CHECK(Known(s) && e.status == s && e.field != nullptr);
  FUZZ_CHECK(rfk_status_name(s) != nullptr && rfk_status_message(s) != nullptr);
  float one[1];
  if (s != RFK_OK) {
    FUZZ_CHECK(rfk_scratch_bytes(&m) == 0 && rfk_input_dim(&m) == 0 && rfk_num_outputs(&m) == 0);
    FUZZ_CHECK(rfk_predict(&m, one, 1, nullptr, 0, one, 1) == RFK_NULL_ARGUMENT);
    return;
  }
  const std::size_t scratch_bytes = rfk_batch_scratch_bytes(&m);
  const std::uint32_t d = rfk_input_dim(&m), K = rfk_num_outputs(&m), P = rfk_num_grids(&m);
  if (scratch_bytes > (64u << 20) || rfk_num_features(&m) > (1u << 20) || K > 4096) return;
  FUZZ_CHECK(rfk_scratch_bytes(&m) <= scratch_bytes && d > 0 && K > 0);
  rfk::Model cpp;  // the same bytes through the C++ API: does the model impute missing inputs?
  FUZZ_CHECK(rfk::OpenModel(bytes, size, &cpp, nullptr) == rfk::Status::kOk);
  const bool imputes = cpp.impute != nullptr;
  // A fixed-only model (a fixed section, no float W or Fastfood diagonals): the float path refuses
  // it before it looks at the input.
  const bool fixed_only = rfk::FixedSection(cpp) != nullptr && cpp.fourier_features != 0 &&
                          cpp.projection_weights.data == nullptr && cpp.fastfood.dp == 0;
  std::vector<std::uint64_t> store(scratch_bytes / 8 + 4);
  void* scratch = store.data();
  // Two inputs: the fuzz data's bytes as floats (wrapping around), and a plain pattern.
  std::vector<float> x(2 * std::size_t{d}), out(2 * std::size_t{K}), single(K);
  for (std::size_t i = 0; i < d; ++i) {
    std::uint8_t b[4];
    for (int k = 0; k < 4; ++k) b[k] = n ? data[(4 * i + k) % n] : 0;
    std::memcpy(&x[i], b, 4);
    x[d + i] = static_cast<float>(i % 7) - 3.0f;
  }
  for (std::size_t r = 0; r < 2; ++r) {
    const rfk_status p = rfk_predict(&m, x.data() + r * d, d, scratch, scratch_bytes, single.data(), K);
    FUZZ_CHECK(Known(p));
    bool finite_in = true, any_inf = false;
    for (std::size_t i = 0; i < d; ++i) {
      finite_in = finite_in && std::isfinite(x[r * d + i]);
      any_inf = any_inf || std::isinf(x[r * d + i]);
    }
    // NaN is a missing value: a model with an impute section fills it in and goes on as for a
    // complete input (which may still be out of range), one without refuses it; an infinity is
    // refused always. A fixed-only model is refused whatever the input: one without float W or
    // Fastfood diagonals always (fixed_only), one without bin grids too (the float path reports it).
    FUZZ_CHECK(!fixed_only || p == RFK_UNSUPPORTED_STORAGE);
    const bool refused_fixed = rfk::FixedSection(cpp) != nullptr && p == RFK_UNSUPPORTED_STORAGE;
    FUZZ_CHECK(finite_in || refused_fixed ||
               ((any_inf || !imputes) ? p == RFK_NON_FINITE_INPUT : p != RFK_NON_FINITE_INPUT));
    if (p == RFK_OK) {
      CheckDecisions(&m, single.data(), K);
      std::size_t done = 9;
      const rfk_status q = rfk_predict_batch(&m, x.data() + r * d, 1, d, scratch, scratch_bytes,
                                             out.data(), K, &done);
      FUZZ_CHECK(q == RFK_OK && done == 1);  // what one input passes, a batch of it passes
    }
    if (P > 0) {
      std::vector<std::uint64_t> keys(P);
      std::vector<std::uint32_t> cols(P);
      FUZZ_CHECK(Known(rfk_compute_bins(&m, x.data() + r * d, d, scratch, scratch_bytes, keys.data(),
                                        cols.data(), P)));
    }
  }
  for (std::uint32_t c = 0; c <= rfk_num_classes(&m) + 1; ++c) FUZZ_CHECK(rfk_class_label(&m, c) != nullptr);
}

}  // namespace

int rfk_fuzz::CApi(const std::uint8_t* data, std::size_t size) {
  // Prediction inputs come from the tail: the whole input, then the bytes after the model.
  AsGivenAndWithCrcFixed(data, size, Exercise);
  return 0;
}

#ifdef RFK_FUZZ_ENTRY
extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  return rfk_fuzz::RFK_FUZZ_ENTRY(data, size);
}
#endif

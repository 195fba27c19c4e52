// core_pinned.c's checks of a pinned core's C++ entry points, which read the pinned model itself
// once their Model is open (lib/core/pinned_model.h): on a Model that is not open each gives what
// the generic core gives an empty one, and the Model OpenModel fills predicts as the C API does.
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "rfk/fixed.hpp"
#include "rfk/model.hpp"

using rfk::Status;

extern "C" int pinned_cxx_not_open(void) {
  const rfk::Model empty{};
  alignas(rfk::kScratchAlignment) static unsigned char scratch[64];
  const float x[1] = {0.0f};
  const std::int16_t xq[1] = {0};
  float out[2] = {0.0f, 0.0f}, proba[2];
  std::int32_t out_q[1] = {0};
  std::int16_t q[1];
  std::size_t done = 1;
  const Status predict = rfk::Predict(empty, x, 1, scratch, sizeof scratch, out, 1);
  bool ok = rfk::ScratchBytes(empty) == 0 && rfk::BatchScratchBytes(empty) == 0 && rfk::FixedScratchBytes(empty) == 0;
  // Prepare's refusal of an empty Model: no head (kNullArgument), or no float path at all.
  ok &= predict == Status::kNullArgument || predict == Status::kUnsupportedStorage;
  ok &= rfk::PredictBatch(empty, x, 1, 1, scratch, sizeof scratch, out, 1, &done) == Status::kNullArgument && done == 0;
  ok &= rfk::PredictBatch(empty, x, 0, 0, scratch, sizeof scratch, out, 0) == Status::kOk;
  ok &= rfk::DecideClass(empty, out) == 0 && rfk::DecideClassRaw(empty, out) == 0;
  ok &= rfk::Probabilities(empty, out, 2, proba, 2) == Status::kNoCalibration;
  ok &= std::strcmp(rfk::ClassLabel(empty, 0), "") == 0 && std::strcmp(rfk::FeatureName(empty, 0), "") == 0;
  ok &= rfk::PredictFixed(empty, xq, 1, scratch, sizeof scratch, out_q, 1) == Status::kUnsupportedStorage;
  ok &= rfk::DecideClassFixed(empty, out_q) == 0 && rfk::FixedOutputScale(empty) == 0.0f;
  ok &= rfk::QuantizeInput(empty, x, 1, q, 1, nullptr) == Status::kUnsupportedStorage;
  return ok ? 1 : 0;
}

// Opens bytes with OpenModel and predicts input x (float, or int16 for a fixed-point model) into
// out (one float, or one int32): the Status as a number.
extern "C" int pinned_cxx_predict(const void* bytes, std::size_t size, int fixed, const void* x, std::size_t d,
                                  void* scratch, std::size_t scratch_bytes, void* out) {
  rfk::Model m;
  const Status s = rfk::OpenModel(bytes, size, &m);
  if (s != Status::kOk) return static_cast<int>(s);
  if (fixed)
    return static_cast<int>(rfk::PredictFixed(m, static_cast<const std::int16_t*>(x), d, scratch, scratch_bytes,
                                              static_cast<std::int32_t*>(out), 1));
  return static_cast<int>(
      rfk::Predict(m, static_cast<const float*>(x), d, scratch, scratch_bytes, static_cast<float*>(out), 1));
}

// libFuzzer target: OpenModel on arbitrary bytes, then every public entry point on whatever
// opens. Each input is tried twice: as given (the checksum rejects most mutations) and with its
// CRC-32 recomputed, so mutations reach the section parser and the prediction path.
// Build and run: scripts/fuzz.sh (clang -fsanitize=fuzzer,address,undefined).
#include "fuzz_targets.h"

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <vector>

#include "rfk/fixed.hpp"
#include "rfk/format.hpp"
#include "rfk/model.hpp"

namespace {

void Exercise(const std::uint8_t* bytes, std::size_t size) {
  rfk::Model m;
  rfk::ModelError err;
  if (rfk::OpenModel(bytes, size, &m, &err) != rfk::Status::kOk) return;
  // Bound the work per input; a valid model may legitimately be large.
  if (rfk::BatchScratchBytes(m) > (64u << 20) || m.num_features > (1u << 20) || m.num_outputs > 4096) return;
  std::vector<std::uint64_t> scratch_store(rfk::BatchScratchBytes(m) / 8 + 4);
  void* scratch = scratch_store.data();  // 16-byte aligned from operator new on x86-64
  const std::size_t scratch_bytes = rfk::BatchScratchBytes(m);
  const std::size_t d = m.input_dim, K = m.num_outputs;
  std::vector<float> x(3 * d), out(3 * K), z(m.num_features);
  for (std::size_t i = 0; i < x.size(); ++i) x[i] = static_cast<float>(i % 7) - 3.0f;
  (void)rfk::Predict(m, x.data(), d, scratch, scratch_bytes, out.data(), K);
  (void)rfk::PredictBatch(m, x.data(), 3, 3 * d, scratch, scratch_bytes, out.data(), out.size());
  (void)rfk::ComputeFeatures(m, x.data(), d, scratch, scratch_bytes, z.data(), z.size());
  if (m.num_grids) {
    std::vector<std::uint64_t> keys(m.num_grids);
    std::vector<std::uint32_t> cols(m.num_grids);
    (void)rfk::ComputeBins(m, x.data(), d, scratch, scratch_bytes, keys.data(), cols.data(), m.num_grids);
  }
  if (rfk::FixedSection(m) != nullptr) {  // the integer path, at the int16 extremes and from x
    std::vector<std::int16_t> xq(d, -32768);
    std::vector<std::int32_t> oq(K);
    std::vector<std::uint64_t> acc(rfk::FixedScratchBytes(m) / 8 + 2);
    (void)rfk::PredictFixed(m, xq.data(), d, acc.data(), rfk::FixedScratchBytes(m), oq.data(), K);
    (void)rfk::QuantizeInput(m, x.data(), d, xq.data(), d);
    (void)rfk::PredictFixed(m, xq.data(), d, acc.data(), rfk::FixedScratchBytes(m), oq.data(), K);
    if (K) (void)rfk::DecideClassFixed(m, oq.data());
  }
  for (std::uint32_t c = 0; c <= rfk::NumClasses(m); ++c) (void)rfk::ClassLabel(m, c);
  for (std::uint32_t c = 0; c <= m.num_names; ++c) (void)std::strlen(rfk::FeatureName(m, c));
  // Missing inputs: imputed by a model with the impute section, refused by one without.
  for (std::size_t i = 0; i < x.size(); i += 2) x[i] = std::numeric_limits<float>::quiet_NaN();
  (void)rfk::Predict(m, x.data(), d, scratch, scratch_bytes, out.data(), K);
  (void)rfk::PredictBatch(m, x.data(), 3, 3 * d, scratch, scratch_bytes, out.data(), out.size());
  if (K) (void)rfk::DecideClass(m, out.data());
  if (K) (void)rfk::DecideClassRaw(m, out.data());
  std::vector<float> proba(rfk::NumClasses(m) + 1);
  if (K) (void)rfk::Probabilities(m, out.data(), K, proba.data(), proba.size());
}

}  // namespace

int rfk_fuzz::Model(const std::uint8_t* data, std::size_t size) {
  AsGivenAndWithCrcFixed(data, size, [](const std::uint8_t* bytes, std::size_t n, const std::uint8_t*,
                                        std::size_t) { Exercise(bytes, n); });
  return 0;
}

int rfk_fuzz::OpenStatus(const std::uint8_t* data, std::size_t size) {
  std::vector<std::uint64_t> store(size / 8 + 1);
  if (size > 0) std::memcpy(store.data(), data, size);
  rfk::Model m;
  return static_cast<int>(rfk::OpenModel(store.data(), size, &m, nullptr));
}

#ifdef RFK_FUZZ_ENTRY
extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  return rfk_fuzz::RFK_FUZZ_ENTRY(data, size);
}
#endif

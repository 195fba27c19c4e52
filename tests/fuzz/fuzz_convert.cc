// libFuzzer target for `rfk convert` without data, on whatever model opens: the host's input_stats
// reader, the distribution it draws from, re-storing in f16 and int8, the estimate of how far that
// moved the outputs, (small models) the drawn refit of an int8 head, and host::ConvertModel's whole
// policy. Each input is tried as
// given and with its CRC-32 recomputed (fuzz_targets.h). QuantizeError is a clean refusal.
// Build and run: scripts/fuzz.sh.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "fuzz_targets.h"
#include "rfk/host/convert.hpp"
#include "rfk/host/model_writer.hpp"
#include "rfk/host/opened_model.hpp"
#include "rfk/host/quantize.hpp"
#include "rfk/model.hpp"

namespace {

// The whole of `rfk convert --storage int8` (and --no-metadata) without data, as host::ConvertModel
// runs it: what it writes must open; QuantizeError and TrainError (settings the model refuses) are
// clean refusals.
void ConvertAsTheCliDoes(const rfk::Model& m) {
  rfk::host::ConvertSettings s;
  s.storage = "int8";
  s.threads = 1;
  for (const bool metadata : {true, false}) {
    s.metadata = metadata;
    try {
      const rfk::host::ConvertResult r = rfk::host::ConvertModel(m, s, nullptr, rfk::host::Spelling::kCli, "fuzz", "");
      const rfk::host::OpenedModel opened(r.model);
      FUZZ_CHECK(opened->input_dim == m.input_dim && opened->num_outputs == m.num_outputs);
    } catch (const rfk::host::QuantizeError&) {
    } catch (const rfk::host::TrainError&) {
    }
  }
}

void Exercise(const std::uint8_t* bytes, std::size_t size) {
  namespace f = rfk::format;
  rfk::Model m;
  if (rfk::OpenModel(bytes, size, &m) != rfk::Status::kOk) return;
  // Bound the work per input: the estimate predicts 1024 drawn inputs through both models.
  if (m.num_features > 4096 || m.input_dim > 1024 || m.num_outputs > 64 || rfk::ScratchBytes(m) > (16u << 20)) return;
  try {
    rfk::host::InputStats st;
    if (rfk::host::ReadInputStats(m, &st))
      for (std::size_t c = 0; c < st.mean.size(); ++c)
        FUZZ_CHECK(std::isfinite(st.mean[c]) && std::isfinite(st.sd[c]) && st.sd[c] >= 0);
    for (const f::Storage s : {f::Storage::kF16, f::Storage::kInt8}) {
      std::vector<std::uint8_t> out;
      try {
        out = rfk::host::RequantizeModel(m, s, s);
      } catch (const rfk::host::QuantizeError&) {
        continue;  // a weight the storage cannot hold
      }
      rfk::host::AlignedBytes stored(out.size());
      std::copy(out.begin(), out.end(), stored.data());
      rfk::Model c;
      FUZZ_CHECK(rfk::OpenModel(stored.data(), stored.size(), &c) == rfk::Status::kOk);
      rfk::host::OutputShift shift;
      if (rfk::host::EstimateOutputShift(m, c, &shift)) FUZZ_CHECK(shift.inputs == rfk::host::kShiftInputs);
    }
    rfk::host::Dataset drawn;
    if (m.num_features <= 64 && m.num_grids == 0 && rfk::host::DrawnCalibrationRows(m, &drawn)) {
      FUZZ_CHECK(drawn.rows * drawn.cols == drawn.dense.size());
      const std::vector<std::uint8_t> out = rfk::host::CalibratedInt8Model(m, f::Storage::kInt8, drawn, 1e-6, 1);
      rfk::host::AlignedBytes stored(out.size());
      std::copy(out.begin(), out.end(), stored.data());
      rfk::Model c;
      FUZZ_CHECK(rfk::OpenModel(stored.data(), stored.size(), &c) == rfk::Status::kOk);
    }
  } catch (const rfk::host::QuantizeError&) {
  }
  if (m.num_features <= 64) ConvertAsTheCliDoes(m);
}

}  // namespace

int rfk_fuzz::Convert(const std::uint8_t* data, std::size_t size) {
  AsGivenAndWithCrcFixed(data, size, [](const std::uint8_t* bytes, std::size_t n, const std::uint8_t*,
                                        std::size_t) { Exercise(bytes, n); });
  return 0;
}

#ifdef RFK_FUZZ_ENTRY
extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  return rfk_fuzz::RFK_FUZZ_ENTRY(data, size);
}
#endif

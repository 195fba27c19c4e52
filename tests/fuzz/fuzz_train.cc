// libFuzzer target for the training front end: a tiny training run on fuzzed data. The first
// byte picks the map and selection options, the rest is data content (auto-detected format) read
// by ParseDataset. Train may refuse with DataError or TrainError; whatever it returns must open
// in the device core and predict finite outputs on every training row.
// Build and run: scripts/fuzz.sh.
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "fuzz_targets.h"
#include "rfk/host/data.hpp"
#include "rfk/host/model_writer.hpp"
#include "rfk/host/train.hpp"
#include "rfk/model.hpp"

int rfk_fuzz::Train(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const unsigned sel = data[0];
  const std::string_view content(reinterpret_cast<const char*>(data + 1), size - 1);
  rfk::host::Dataset ds;
  try {
    ds = rfk::host::ParseDataset(content, "fuzz-train");
  } catch (const rfk::host::DataError&) {
    return 0;
  }
  // Keep each run tiny: the point is the front end (targets, scaling, gamma, guards), not scale.
  if (ds.rows > 256 || ds.cols > 32) return 0;

  rfk::host::TrainOptions opt;
  opt.threads = 1;
  opt.features = 8;
  opt.memory_limit = std::uint64_t{256} << 20;
  switch (sel & 3) {
    case 0: break;
    case 1: opt.map = rfk::format::MapKind::kFourierPhase; opt.features = 7; break;
    case 2: opt.fourier = false; opt.grids = 3; break;
    default: opt.grids = 2; break;
  }
  if (opt.grids && (sel & 4)) opt.buckets = 5;
  if (sel & 8) opt.kernel = rfk::format::Kernel::kLaplacian;
  if (sel & 16) {
    opt.gamma_auto = true;
    opt.lambda_auto = true;
    opt.cv_folds = 2;
  }
  if (sel & 32) opt.standardize = 1;
  if (sel & 64) opt.task = rfk::host::TaskChoice::kRegression;
  if (sel & 128) opt.task = rfk::host::TaskChoice::kClassification;

  // Magnitudes in the data: with targets and inputs of modest size, Train's refusal of its own
  // blob (its last-resort self-check) would be a bug; with extreme ones it is a fair refusal.
  double biggest = 0;
  for (const float v : ds.dense) biggest = std::max(biggest, double(std::fabs(v)));
  for (const float v : ds.values) biggest = std::max(biggest, double(std::fabs(v)));
  for (const std::string& l : ds.labels) {
    char* end = nullptr;
    const double y = std::strtod(l.c_str(), &end);
    if (end != l.c_str()) biggest = std::max(biggest, std::fabs(y));
  }
  rfk::host::TrainResult res;
  try {
    res = rfk::host::Train(ds, opt);
  } catch (const rfk::host::TrainError& e) {
    // Matched as a prefix: other messages quote labels, which may hold any text.
    const bool self_check = std::string_view(e.what()).rfind("the trained model fails its own check", 0) == 0;
    FUZZ_CHECK(!self_check || !(biggest <= 1e15));
    return 0;
  }
  rfk::host::AlignedBytes blob(res.model.size());
  std::copy(res.model.begin(), res.model.end(), blob.data());
  rfk::Model m;
  FUZZ_CHECK(rfk::OpenModel(blob.data(), blob.size(), &m, nullptr) == rfk::Status::kOk);
  FUZZ_CHECK(m.input_dim == ds.cols);
  std::vector<std::uint64_t> scratch(rfk::ScratchBytes(m) / 8 + 2);
  std::vector<float> x(ds.cols), out(m.num_outputs);
  for (std::size_t r = 0; r < ds.rows; ++r) {
    rfk::host::DenseRow(ds, r, x.data(), ds.cols);
    FUZZ_CHECK(rfk::Predict(m, x.data(), x.size(), scratch.data(), scratch.size() * 8, out.data(),
                            out.size()) == rfk::Status::kOk);
    for (const float v : out) FUZZ_CHECK(std::isfinite(v));
  }
  return 0;
}

#ifdef RFK_FUZZ_ENTRY
extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  return rfk_fuzz::RFK_FUZZ_ENTRY(data, size);
}
#endif

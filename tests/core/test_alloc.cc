// The device core must not allocate: every operator new and every malloc-family call made from
// the statically linked rfk code (redirected with -Wl,--wrap, see tests/CMakeLists.txt) is
// counted while a model is opened and used.
#include <doctest/doctest.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdlib>
#include <new>
#include <string>
#include <vector>

#include "rfk/host/train.hpp"
#include "rfk/kernels.hpp"
#include "rfk/model.hpp"
#include "test_util.h"

namespace {
std::atomic<long> g_allocations{0};
// Blocks escape through it: a new/delete or malloc/free pair whose block is never used may be
// removed by the compiler (GCC does at -O1), and then nothing would be counted.
void* volatile g_escape = nullptr;
}

extern "C" {
void* __real_malloc(std::size_t);
void* __real_calloc(std::size_t, std::size_t);
void* __real_realloc(void*, std::size_t);
void* __wrap_malloc(std::size_t n) { ++g_allocations; return __real_malloc(n); }
void* __wrap_calloc(std::size_t a, std::size_t b) { ++g_allocations; return __real_calloc(a, b); }
void* __wrap_realloc(void* p, std::size_t n) { ++g_allocations; return __real_realloc(p, n); }
}

// These replacements pair operator new with malloc and operator delete with free; GCC's
// -Wmismatched-new-delete cannot see that pairing through replaced global operators.
#pragma GCC diagnostic ignored "-Wmismatched-new-delete"

void* operator new(std::size_t n) {
  ++g_allocations;
  if (void* p = std::malloc(n ? n : 1)) return p;
  throw std::bad_alloc();
}
void* operator new[](std::size_t n) { return operator new(n); }
void* operator new(std::size_t n, std::align_val_t a) {
  ++g_allocations;
  if (void* p = std::aligned_alloc(static_cast<std::size_t>(a), (n + static_cast<std::size_t>(a) - 1) / static_cast<std::size_t>(a) * static_cast<std::size_t>(a))) return p;
  throw std::bad_alloc();
}
void* operator new[](std::size_t n, std::align_val_t a) { return operator new(n, a); }
void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t) noexcept { std::free(p); }
void operator delete(void* p, std::align_val_t) noexcept { std::free(p); }
void operator delete[](void* p, std::align_val_t) noexcept { std::free(p); }
void operator delete(void* p, std::size_t, std::align_val_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t, std::align_val_t) noexcept { std::free(p); }

TEST_CASE("the allocation counter sees allocations (the check can fail)") {
  const long before = g_allocations.load();
  auto* v = new std::vector<int>(100);
  g_escape = v;
  delete v;
  void* p = malloc(32);  // NOLINT: deliberately through the wrapped symbol
  g_escape = p;
  free(p);
  CHECK(g_allocations.load() - before >= 3);
}

TEST_CASE("OpenModel, ScratchBytes, Predict(Batch) (missing inputs too), ComputeFeatures, ComputeBins, ClassLabel, FeatureName: no allocation, every map and table") {
  using rfk::format::MapKind;
  struct Config {
    bool fourier;
    MapKind map;
    std::uint32_t grids, buckets;
  };
  const Config configs[] = {{true, MapKind::kFourier, 0, 0},  {true, MapKind::kFourierPhase, 0, 0},
                            {false, MapKind::kFourier, 8, 0}, {false, MapKind::kFourier, 8, 64},
                            {true, MapKind::kFourier, 8, 0},  {true, MapKind::kFastfood, 0, 0},
                            {true, MapKind::kFastfoodPhase, 8, 0}};
  for (const Config& cfg : configs) {
    rfk::host::Dataset ds;
    ds.source = "alloc";
    ds.rows = 60;
    ds.cols = 4;
    for (std::size_t i = 0; i < ds.rows; ++i) {
      for (int c = 0; c < 4; ++c) ds.dense.push_back(static_cast<float>((i * 7 + c * 3) % 11) + (i % 2) * 5.0f);
      ds.labels.push_back(i % 2 ? "yes" : "no");
      ds.lines.push_back(i + 1);
    }
    rfk::host::TrainOptions o;
    o.features = 32;
    o.fourier = cfg.fourier;
    o.map = cfg.map;
    o.grids = cfg.grids;
    o.buckets = cfg.buckets;
    o.impute = {1.0f, 2.0f, 3.0f, 4.0f};  // the impute and feature_names sections: read in place too
    ds.feature_names = {"a", "b", "c", "d"};
    ds.label_name = "y";
    const auto bytes = rfk::host::Train(ds, o).model;
    rfk_test::Blob blob(bytes);
    rfk::host::AlignedBytes scratch(1 << 20);  // >= any ScratchBytes / BatchScratchBytes here
    std::vector<float> z(4096), x(4, 1.0f);
    std::uint64_t keys[8];
    std::uint32_t cols[8];
    float out[4];

    // Every kernel table this CPU supports (Highway targets, xsimd, scalar), in turn; names made
    // before counting starts.
    std::vector<std::string> tables;
    for (std::size_t i = 0; i < rfk::KernelTableCount(); ++i)
      tables.push_back(std::string(rfk::KernelTableAt(i)->backend) + "-" + rfk::KernelTableAt(i)->target);
    const std::string active = std::string(rfk::ActiveKernels().backend) + "-" + rfk::ActiveKernels().target;
    const int reps = std::max<int>(10, static_cast<int>(tables.size()));

    const long before = g_allocations.load();
    rfk::Model m;
    REQUIRE(rfk::OpenModel(blob.data(), blob.size(), &m) == rfk::Status::kOk);
    REQUIRE(rfk::ScratchBytes(m) <= scratch.size());
    for (int rep = 0; rep < reps; ++rep) {
      REQUIRE(rfk::SelectKernels(tables[static_cast<std::size_t>(rep) % tables.size()].c_str()));
      REQUIRE(rfk::Predict(m, x.data(), 4, scratch.data(), scratch.size(), out, 4) == rfk::Status::kOk);
      const float missing[4] = {1.0f, NAN, 0.5f, NAN};  // imputed in scratch
      REQUIRE(rfk::Predict(m, missing, 4, scratch.data(), scratch.size(), out, 4) == rfk::Status::kOk);
      REQUIRE(rfk::FeatureName(m, 1)[0] == 'b');
      REQUIRE(rfk::ComputeFeatures(m, x.data(), 4, scratch.data(), scratch.size(), z.data(), z.size()) == rfk::Status::kOk);
      if (cfg.grids)
        REQUIRE(rfk::ComputeBins(m, x.data(), 4, scratch.data(), scratch.size(), keys, cols, 8) == rfk::Status::kOk);
      (void)rfk::ClassLabel(m, rfk::DecideClass(m, out));
      float outs[3 * 4];
      const float X[3 * 4] = {1, 2, 3, 4, 0, NAN, 0, 1, 5, 5, 5, 5};
      REQUIRE(rfk::BatchScratchBytes(m) <= scratch.size());
      REQUIRE(rfk::PredictBatch(m, X, 3, 12, scratch.data(), scratch.size(), outs, 12) == rfk::Status::kOk);
    }
    const long during = g_allocations.load() - before;
    REQUIRE(rfk::SelectKernels(active.c_str()));
    CAPTURE(cfg.grids);
    CAPTURE(cfg.buckets);
    CHECK(during == 0);
  }
}

// rfk benchmarks (Google Benchmark). Speed is measured here, never asserted in tests.
//
//   kernel/<Kernel>/<table>/d:D   every kernel of RFK_KERNEL_LIST on every supported table
//   predict/<form>/<table>/d:D    rfk::Predict, one sample at a time (latency)
//   batch/<form>/<table>/d:D      rfk::PredictBatch over 256 samples (throughput)
//   baseline/naive/d:D            plain loops + std::cos (phase form, K = 1)
//   baseline/eigen/d:D            Eigen GEMV + std::cos (phase form, K = 1)
//   peak_fma                      this CPU's attainable single-thread FMA rate
//   train/project/<path>/d:D      training's projection of a block of kGramRows rows
//                                 (lib/host/maps/block_kernels.h) on each host kernel path this CPU
//                                 runs: separate (the device's unfused operations), avx2, avx512
//   map/..., storage/...          per map and per storage (docs/PERFORMANCE.md), single and batch
//   storage/cold/<storage>/<table>/d:D  one sample at a time, each from the next of enough copies
//                                 of the model to exceed twice the last-level cache: the weights
//                                 come from DRAM every time (flash-like, memory-bound case)
//
// Counters: GFLOPS counts the multiply-adds of the projection and the head (2 flops each; cos
// and sin are not counted), and peak_frac divides that by the peak_fma rate of this same run.
// usage: bench_kernels [--benchmark_filter=...] [--benchmark_repetitions=5] ...
#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <iterator>
#include <utility>
#include <cstring>
#include <fstream>
#include <string>
#include <unistd.h>
#include <vector>

#include "baselines.h"
#include "maps/block_kernels.h"
#include "training/gram.h"
#include "peak_fma.h"
#include "maps/random.h"
#include "rfk/host/model_writer.hpp"
#include "rfk/host/quantize.hpp"
#include "rfk/host/train.hpp"
#include "rfk/kernels.hpp"
#include "rfk/model.hpp"

namespace {

using rfk::KernelTable;
namespace f = rfk::format;

struct Shape {
  std::uint32_t d, D;
};
constexpr Shape kShapes[] = {{16, 256}, {54, 1024}, {123, 500}, {784, 2000}};
double g_peak_flops = 0;  // per second, measured first

std::vector<float> Normal(std::size_t n, double sd, std::uint64_t seed) {
  rfk::host::RandomStream rs(seed, n);
  std::vector<float> v(n);
  for (float& x : v) x = static_cast<float>(sd * rs.Normal());
  return v;
}

void SetFlops(benchmark::State& state, double flops_per_iteration) {
  state.counters["GFLOPS"] = benchmark::Counter(flops_per_iteration * 1e-9, benchmark::Counter::kIsIterationInvariantRate);
  if (g_peak_flops > 0)
    state.counters["peak_frac"] = benchmark::Counter(flops_per_iteration / g_peak_flops,
                                                     benchmark::Counter::kIsIterationInvariantRate);
}

// Inputs for one shape: W (row-major and panels) for F frequencies, phases, a sample block.
struct Inputs {
  std::uint32_t d, F;
  std::vector<float> W, Wp, b, X, mean, inv, H, bias, z, out, acc;
  std::vector<float> iw, off, wht;  // wht: the Walsh-Hadamard input, d padded to a power of two
  std::vector<std::uint64_t> keys;
  Inputs(std::uint32_t d_, std::uint32_t F_, std::uint32_t n = 48) : d(d_), F(F_) {
    W = Normal(std::size_t{F} * d, 1.0 / std::sqrt(double(d)), 1);
    Wp.assign(std::size_t{f::StoredFrequencies(f::Layout::kPanels, F)} * d, 0.0f);
    for (std::uint32_t j = 0; j < F; ++j)
      for (std::uint32_t c = 0; c < d; ++c) Wp[std::size_t{j / 16} * 16 * d + std::size_t{c} * 16 + j % 16] = W[std::size_t{j} * d + c];
    b = Normal(F, 1, 2);
    X = Normal(std::size_t{n} * d, 1, 3);
    mean = Normal(d, 1, 4);
    inv = Normal(d, 1, 5);
    H = Normal(std::size_t{2} * F, 0.1, 6);
    bias = {0.5f};
    z.resize(std::size_t{n} * 2 * F);
    out.resize(n);
    acc.resize(rfk::HeadBatchScratchFloats(n, 1));
    iw = Normal(std::size_t{32} * d, 1, 7);
    for (float& v : iw) v = std::fabs(v) + 0.1f;
    off = Normal(std::size_t{32} * d, 1, 8);
    keys.resize(32);
    std::uint32_t dp = 1;
    while (dp < d) dp *= 2;
    wht.assign(dp, 0.0f);  // zeros stay zeros: a fixed input for every iteration
  }
};

// --- one benchmark per kernel of the list (a kernel without one does not compile)
void BenchStandardize(benchmark::State& s, const KernelTable& t, Inputs& in) {
  for (auto _ : s) {
    t.Standardize(in.X.data(), in.mean.data(), in.inv.data(), in.d, in.z.data());
    benchmark::DoNotOptimize(in.z.data());
  }
}
// Means and inverse scales as binary16 (1.0 and 0.5: the speed does not depend on the values).
void BenchStandardizeF16(benchmark::State& s, const KernelTable& t, Inputs& in) {
  const std::vector<std::uint16_t> mean(in.d, 0x3C00u), inv(in.d, 0x3800u);
  for (auto _ : s) {
    t.StandardizeF16(in.X.data(), mean.data(), inv.data(), in.d, in.z.data());
    benchmark::DoNotOptimize(in.z.data());
  }
}
void BenchFwht(benchmark::State& s, const KernelTable& t, Inputs& in) {
  const auto n = static_cast<std::uint32_t>(in.wht.size());
  for (auto _ : s) {
    t.Fwht(in.wht.data(), n);
    benchmark::DoNotOptimize(in.wht.data());
  }
  std::uint32_t log2n = 0;
  while ((1u << log2n) < n) ++log2n;
  SetFlops(s, double(n) * log2n);  // one add or subtract per element and stage
}
// Fastfood's B over the Walsh-Hadamard input's length (x as long as the block: no padding).
void BenchApplySigns(benchmark::State& s, const KernelTable& t, Inputs& in) {
  const auto n = static_cast<std::uint32_t>(in.wht.size());
  const std::vector<std::uint8_t> signs((n + 7) / 8, 0xA5u);
  for (auto _ : s) {
    t.ApplySigns(signs.data(), 0, in.wht.data(), n, n, in.wht.data());
    benchmark::DoNotOptimize(in.wht.data());
  }
}
// Fastfood's diagonal over the Walsh-Hadamard input's length, f32 (its multiplies as FLOPs).
void BenchScaleByDiagonal(benchmark::State& s, const KernelTable& t, Inputs& in) {
  const auto n = static_cast<std::uint32_t>(in.wht.size());
  const rfk::WeightsView D{rfk::WeightType::kF32, in.b.data(), nullptr};
  const std::uint32_t m = n < in.F ? n : in.F;  // b has F entries
  for (auto _ : s) {
    t.ScaleByDiagonal(D, 0, 0, m, in.wht.data());
    benchmark::DoNotOptimize(in.wht.data());
  }
  SetFlops(s, double(m));
}
void BenchFourierPhase(benchmark::State& s, const KernelTable& t, Inputs& in) {
  for (auto _ : s) {
    t.FourierPhase(in.Wp.data(), in.b.data(), in.X.data(), in.F, in.d, 0.1f, in.z.data());
    benchmark::DoNotOptimize(in.z.data());
  }
  SetFlops(s, 2.0 * in.d * in.F);
}
void BenchFourierPair(benchmark::State& s, const KernelTable& t, Inputs& in) {
  for (auto _ : s) {
    t.FourierPair(in.Wp.data(), in.X.data(), in.F, in.d, 0.1f, in.z.data());
    benchmark::DoNotOptimize(in.z.data());
  }
  SetFlops(s, 2.0 * in.d * in.F);
}
// The batch kernels end in the head (K = 1); GFLOPS counts its multiply-adds too.
constexpr std::uint32_t kKernelBatch = 48;
void BenchFourierPhaseHeadBatch(benchmark::State& s, const KernelTable& t, Inputs& in) {
  for (auto _ : s) {
    t.FourierPhaseHeadBatch(in.Wp.data(), in.b.data(), in.X.data(), kKernelBatch, in.F, in.d, 0.1f,
                            in.H.data(), in.bias.data(), 1, in.acc.data(), in.out.data());
    benchmark::DoNotOptimize(in.out.data());
  }
  SetFlops(s, kKernelBatch * (2.0 * in.d * in.F + 2.0 * in.F));
}
void BenchFourierPairHeadBatch(benchmark::State& s, const KernelTable& t, Inputs& in) {
  for (auto _ : s) {
    t.FourierPairHeadBatch(in.Wp.data(), in.X.data(), kKernelBatch, in.F, in.d, 0.1f, in.H.data(),
                           in.bias.data(), 1, in.acc.data(), in.out.data());
    benchmark::DoNotOptimize(in.out.data());
  }
  SetFlops(s, kKernelBatch * (2.0 * in.d * in.F + 4.0 * in.F));
}
void BenchLinearHead(benchmark::State& s, const KernelTable& t, Inputs& in) {
  for (auto _ : s) {
    t.LinearHead(in.H.data(), 2 * in.F, 0, in.bias.data(), in.z.data(), 1, 2 * in.F, in.out.data());
    benchmark::DoNotOptimize(in.out.data());
  }
  SetFlops(s, 2.0 * 2 * in.F);
}
// The quantized kernels on int8 weights (q = 1, scale 1/127: the speed does not depend on the values).
void BenchFourierQuant(benchmark::State& s, const KernelTable& t, Inputs& in) {
  const std::vector<std::int8_t> q(in.Wp.size(), 1);
  const std::vector<float> scale(in.Wp.size() / in.d, 1.0f / 127);
  rfk::WeightsView W;
  W.type = rfk::WeightType::kInt8;
  W.data = q.data();
  W.scale = scale.data();
  for (auto _ : s) {
    t.FourierQuant(W, true, nullptr, in.X.data(), in.F, in.d, 0.1f, in.z.data());
    benchmark::DoNotOptimize(in.z.data());
  }
  SetFlops(s, 2.0 * in.d * in.F);
}
void BenchLinearHeadQuant(benchmark::State& s, const KernelTable& t, Inputs& in) {
  const std::vector<std::int8_t> q(std::size_t{2} * in.F, 1);
  const float scale = 1.0f / 127;
  rfk::WeightsView H;
  H.type = rfk::WeightType::kInt8;
  H.data = q.data();
  H.scale = &scale;
  for (auto _ : s) {
    t.LinearHeadQuant(H, 2 * in.F, 0, in.bias.data(), in.z.data(), 1, 2 * in.F, in.out.data());
    benchmark::DoNotOptimize(in.out.data());
  }
  SetFlops(s, 2.0 * 2 * in.F);
}
// An f16 head (one output of D = 2F halves) plain or f16-scaled: the scaled one multiplies each
// output's sum by its scale, one multiply per output (head/f16 and head/f16-scaled side by side).
void BenchHeadF16(benchmark::State& s, const KernelTable& t, Inputs& in, bool scaled) {
  const std::vector<std::uint16_t> h(std::size_t{2} * in.F, 0x3C00);  // 1.0: the speed does not depend on it
  const float scale = 2.0f;
  const rfk::WeightsView H{scaled ? rfk::WeightType::kF16Scaled : rfk::WeightType::kF16, h.data(),
                           scaled ? &scale : nullptr};
  for (auto _ : s) {
    t.LinearHeadQuant(H, 2 * in.F, 0, in.bias.data(), in.z.data(), 1, 2 * in.F, in.out.data());
    benchmark::DoNotOptimize(in.out.data());
  }
  SetFlops(s, 2.0 * 2 * in.F);
}
void BenchBinKeys(benchmark::State& s, const KernelTable& t, Inputs& in) {
  for (auto _ : s) {
    t.BinKeys(in.iw.data(), in.off.data(), in.X.data(), 32, in.d, 7, in.keys.data());
    benchmark::DoNotOptimize(in.keys.data());
  }
}

// --- end to end through the public API
struct ModelBytes {
  rfk::host::AlignedBytes bytes;
  rfk::Model model;
};
// `blob` opened from storage aligned as OpenModel requires.
ModelBytes Open(const std::vector<std::uint8_t>& blob) {
  ModelBytes mb{rfk::host::AlignedBytes(blob.size()), {}};
  std::memcpy(mb.bytes.data(), blob.data(), blob.size());
  if (rfk::OpenModel(mb.bytes.data(), mb.bytes.size(), &mb.model) != rfk::Status::kOk) std::abort();
  return mb;
}

// W and the head in `storage` (rfk convert's re-quantization of the f32 model).
ModelBytes MakeModel(f::MapKind map, const Shape& sh, f::Storage storage = f::Storage::kF32) {
  auto spec = rfk::host::RandomFeatureSpec(f::Kernel::kGaussian, map, sh.D, sh.d, 0.5 / sh.d, 1);
  const auto H = Normal(sh.D, 0.1, 9);
  spec.head_weights.assign(H.begin(), H.end());
  ModelBytes f32 = Open(rfk::host::SerializeModel(spec));
  if (storage == f::Storage::kF32) return f32;
  return Open(rfk::host::RequantizeModel(f32.model, storage, storage));
}

// The multiply-adds of a dense map of this form (Fastfood does fewer: GFLOP/s is not its measure).
double PredictFlops(const Shape& sh, f::MapKind map) {
  const double F = f::IsPhaseForm(map) ? sh.D : sh.D / 2.0;
  return 2.0 * sh.d * F + 2.0 * sh.D;
}

void BenchPredict(benchmark::State& s, const KernelTable* t, f::MapKind map, Shape sh,
                  f::Storage storage = f::Storage::kF32) {
  rfk::SelectKernels((std::string(t->backend) + "-" + t->target).c_str());
  ModelBytes mb = MakeModel(map, sh, storage);
  rfk::host::AlignedBytes scratch(rfk::ScratchBytes(mb.model));
  const auto X = Normal(std::size_t{64} * sh.d, 1, 10);
  float out;
  std::size_t i = 0;
  s.counters["model_bytes"] = double(mb.bytes.size());
  for (auto _ : s) {
    if (rfk::Predict(mb.model, X.data() + (i++ % 64) * sh.d, sh.d, scratch.data(), scratch.size(), &out, 1) != rfk::Status::kOk) std::abort();
    benchmark::DoNotOptimize(out);
  }
  SetFlops(s, PredictFlops(sh, map));
}

// The last-level cache's bytes: the larger of glibc's sysconf (on AMD the whole package's L3)
// and Linux's sysfs for cpu0 (index3, else index2: the slice this core shares); 0 if neither says.
double LastLevelCacheBytes() {
  double best = std::max(0.0, double(sysconf(_SC_LEVEL3_CACHE_SIZE)));
  for (const char* idx : {"index3", "index2"}) {
    std::ifstream in(std::string("/sys/devices/system/cpu/cpu0/cache/") + idx + "/size");
    double v = 0;
    char unit = 0;
    if (in >> v >> unit) return std::max(best, v * (unit == 'K' ? 1024.0 : unit == 'M' ? 1048576.0 : 1.0));
  }
  return best;
}

// Single-sample predict where the weights are never in cache: the model is copied until the
// copies hold at least twice the last-level cache (at least 2 copies), and each prediction uses
// the next copy. What it times is the memory-bound case issue 16 names (a W streamed from DRAM).
void BenchPredictCold(benchmark::State& s, const KernelTable* t, Shape sh, f::Storage storage) {
  rfk::SelectKernels((std::string(t->backend) + "-" + t->target).c_str());
  const ModelBytes first = MakeModel(f::MapKind::kFourier, sh, storage);
  const std::vector<std::uint8_t> blob(first.bytes.data(), first.bytes.data() + first.bytes.size());
  const double llc = LastLevelCacheBytes();
  const auto copies = std::max<std::size_t>(2, std::size_t(std::ceil(2 * llc / double(blob.size()))));
  std::vector<ModelBytes> models;
  models.reserve(copies);
  for (std::size_t c = 0; c < copies; ++c) models.push_back(Open(blob));
  rfk::host::AlignedBytes scratch(rfk::ScratchBytes(first.model));
  const auto X = Normal(std::size_t{64} * sh.d, 1, 10);
  float out;
  std::size_t i = 0;
  s.counters["model_bytes"] = double(blob.size());
  s.counters["llc_bytes"] = llc;
  s.counters["copies"] = double(copies);
  for (auto _ : s) {
    const rfk::Model& m = models[i % copies].model;
    if (rfk::Predict(m, X.data() + (i++ % 64) * sh.d, sh.d, scratch.data(), scratch.size(), &out, 1) != rfk::Status::kOk) std::abort();
    benchmark::DoNotOptimize(out);
  }
  SetFlops(s, PredictFlops(sh, f::MapKind::kFourier));
}

void BenchBatch(benchmark::State& s, const KernelTable* t, f::MapKind map, Shape sh,
                f::Storage storage = f::Storage::kF32) {
  rfk::SelectKernels((std::string(t->backend) + "-" + t->target).c_str());
  ModelBytes mb = MakeModel(map, sh, storage);
  rfk::host::AlignedBytes scratch(rfk::BatchScratchBytes(mb.model));
  constexpr std::size_t n = 256;
  const auto X = Normal(n * sh.d, 1, 11);
  std::vector<float> out(n);
  for (auto _ : s) {
    if (rfk::PredictBatch(mb.model, X.data(), n, X.size(), scratch.data(), scratch.size(), out.data(), n) != rfk::Status::kOk) std::abort();
    benchmark::DoNotOptimize(out.data());
  }
  SetFlops(s, n * PredictFlops(sh, map));
  // Seconds per sample: n samples per iteration, inverted rate.
  s.counters["sec_per_sample"] = benchmark::Counter(double(n), benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}

void BenchBaseline(benchmark::State& s, bool eigen, Shape sh) {
  Inputs in(sh.d, sh.D);  // phase form: F = D
  const auto X = Normal(std::size_t{64} * sh.d, 1, 10);
  float out;
  std::size_t i = 0;
  for (auto _ : s) {
    const float* x = X.data() + (i++ % 64) * sh.d;
    if (eigen) rfk_bench::EigenPredict(in.W.data(), in.b.data(), in.H.data(), 0.5f, x, int(sh.D), int(sh.d), 0.1f, in.z.data(), &out);
    else rfk_bench::NaivePredict(in.W.data(), in.b.data(), in.H.data(), 0.5f, x, int(sh.D), int(sh.d), 0.1f, in.z.data(), &out);
    benchmark::DoNotOptimize(out);
  }
  SetFlops(s, PredictFlops(sh, f::MapKind::kFourierPhase));
}

void BenchPeak(benchmark::State& s) {
  float sink = 0;
  double flops = 0;
  for (auto _ : s) flops = rfk_bench::PeakFmaFlops(1 << 16, &sink);
  benchmark::DoNotOptimize(sink);
  s.counters["GFLOPS"] = benchmark::Counter(flops * 1e-9, benchmark::Counter::kIsIterationInvariantRate);
  s.SetLabel(rfk_bench::PeakFmaTarget());
}

std::string ShapeName(const Shape& sh) { return std::to_string(sh.d) + ":" + std::to_string(sh.D); }

// Training's projection (ProjectDense) of kGramRows rows on one host kernel path; skipped where
// this CPU lacks it. Restores the CPU's own path afterwards.
void BenchTrainProject(benchmark::State& s, rfk::host::KernelPath path, Shape sh) {
  const std::size_t R = rfk::host::kGramRows;
  const std::uint32_t F = sh.D / 2;  // the pair form's frequencies
  const std::vector<float> X = Normal(R * sh.d, 1.0, 3), Wt = Normal(std::size_t{sh.d} * F, 0.05, 4);
  std::vector<float> args(R * F);
  if (!rfk::host::SelectHostPath(path)) {
    s.SkipWithError("this CPU does not run the path");
    return;
  }
  for (auto _ : s) {
    rfk::host::ProjectDense(X.data(), R, sh.d, Wt.data(), F, args.data());
    benchmark::DoNotOptimize(args.data());
  }
  rfk::host::SelectHostPath(rfk::host::KernelPath::kBest);
  SetFlops(s, 2.0 * double(R) * sh.d * F);
}

// FAMILY/predict/NAME/TABLE/SHAPE and FAMILY/batch/NAME/TABLE/SHAPE for one model on one table.
void RegisterModel(const std::string& family, const std::string& name, const KernelTable* t,
                   f::MapKind map, Shape sh, f::Storage st) {
  const std::string tail = name + "/" + t->backend + "-" + t->target + "/" + ShapeName(sh);
  benchmark::RegisterBenchmark((family + "/predict/" + tail).c_str(),
                               [=](benchmark::State& s) { BenchPredict(s, t, map, sh, st); });
  benchmark::RegisterBenchmark((family + "/batch/" + tail).c_str(),
                               [=](benchmark::State& s) { BenchBatch(s, t, map, sh, st); });
}

}  // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  {  // the peak first, so every other benchmark can report its fraction of it
    float sink = 0;
    double best = 0;
    for (int rep = 0; rep < 5; ++rep) {
      const auto t0 = std::chrono::steady_clock::now();
      const double flops = rfk_bench::PeakFmaFlops(1 << 22, &sink);
      const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      best = std::max(best, flops / secs);
    }
    g_peak_flops = best;
    benchmark::AddCustomContext("peak_fma_gflops", std::to_string(best * 1e-9));
    benchmark::AddCustomContext("peak_fma_target", rfk_bench::PeakFmaTarget());
  }
  benchmark::RegisterBenchmark("peak_fma", BenchPeak);
  for (auto [path, name] : {std::pair{rfk::host::KernelPath::kSeparate, "separate"},
                            std::pair{rfk::host::KernelPath::kAvx2, "avx2"},
                            std::pair{rfk::host::KernelPath::kAvx512, "avx512"}})
    for (Shape sh : {Shape{54, 1024}, Shape{784, 4000}})
      benchmark::RegisterBenchmark(("train/project/" + std::string(name) + "/" + ShapeName(sh)).c_str(),
                                   [path = path, sh](benchmark::State& s) { BenchTrainProject(s, path, sh); });
  static std::vector<Inputs> inputs;
  inputs.reserve(std::size(kShapes));
  for (const Shape& sh : kShapes) inputs.emplace_back(sh.d, sh.D / 2);  // the default pair form
  for (std::size_t i = 0; i < rfk::KernelTableCount(); ++i) {
    const KernelTable* t = rfk::KernelTableAt(i);
    const std::string tn = std::string(t->backend) + "-" + t->target;
    for (std::size_t k = 0; k < std::size(kShapes); ++k) {
      Inputs* in = &inputs[k];
      const std::string sn = ShapeName(kShapes[k]);
#define RFK_BENCH(kernel, params)                                                           \
  benchmark::RegisterBenchmark(("kernel/" #kernel "/" + tn + "/" + sn).c_str(),             \
                               [t, in](benchmark::State& s) { Bench##kernel(s, *t, *in); });
      RFK_KERNEL_LIST(RFK_BENCH)
#undef RFK_BENCH
      for (bool scaled : {false, true})
        benchmark::RegisterBenchmark(("head/" + std::string(scaled ? "f16-scaled/" : "f16/") + tn + "/" + sn).c_str(),
                                     [t, in, scaled](benchmark::State& s) { BenchHeadF16(s, *t, *in, scaled); });
      for (auto [map, form] : {std::pair{f::MapKind::kFourierPhase, "phase"}, std::pair{f::MapKind::kFourier, "pair"}}) {
        const Shape sh = kShapes[k];
        benchmark::RegisterBenchmark(("predict/" + std::string(form) + "/" + tn + "/" + sn).c_str(),
                                     [t, map = map, sh](benchmark::State& s) { BenchPredict(s, t, map, sh); });
        benchmark::RegisterBenchmark(("batch/" + std::string(form) + "/" + tn + "/" + sn).c_str(),
                                     [t, map = map, sh](benchmark::State& s) { BenchBatch(s, t, map, sh); });
      }
    }
  }
  // Issue 15's per-map comparison: every Fourier-type map (one output) at the shapes of
  // docs/PERFORMANCE.md's "Per map" table; issue 16's per-storage one: dense pairs with W and head
  // in f32, f16 and int8. Both on the table dispatch picks and on the scalar one.
  constexpr Shape kMapShapes[] = {{16, 256}, {54, 1024}, {784, 4000}};
  constexpr std::pair<f::MapKind, const char*> kMaps[] = {
      {f::MapKind::kFourierPhase, "fourier-phase"}, {f::MapKind::kFourier, "fourier"},
      {f::MapKind::kOrthogonal, "orf"}, {f::MapKind::kFastfood, "fastfood"},
      {f::MapKind::kFastfoodPhase, "fastfood-phase"}};
  constexpr Shape kStorageShapes[] = {{54, 1024}, {784, 4000}};
  constexpr std::pair<f::Storage, const char*> kStorages[] = {
      {f::Storage::kF32, "f32"}, {f::Storage::kF16, "f16"}, {f::Storage::kInt8, "int8"}};
  for (const KernelTable* t : {&rfk::ActiveKernels(), &rfk::ScalarKernels()}) {
    for (const Shape& sh : kMapShapes)
      for (const auto& [map, name] : kMaps) RegisterModel("map", name, t, map, sh, f::Storage::kF32);
    for (const Shape& sh : kStorageShapes)
      for (const auto& [st, name] : kStorages) RegisterModel("storage", name, t, f::MapKind::kFourier, sh, st);
  }
  for (const auto& [st, name] : kStorages) {
    const KernelTable* t = &rfk::ActiveKernels();
    const Shape sh = kStorageShapes[1];
    benchmark::RegisterBenchmark(("storage/cold/" + std::string(name) + "/" + t->backend + "-" + t->target + "/" + ShapeName(sh)).c_str(),
                                 [t, sh, st = st](benchmark::State& s) { BenchPredictCold(s, t, sh, st); });
  }
  for (const Shape& sh : kShapes) {
    benchmark::RegisterBenchmark(("baseline/naive/" + ShapeName(sh)).c_str(),
                                 [sh](benchmark::State& s) { BenchBaseline(s, false, sh); });
    benchmark::RegisterBenchmark(("baseline/eigen/" + ShapeName(sh)).c_str(),
                                 [sh](benchmark::State& s) { BenchBaseline(s, true, sh); });
  }
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}

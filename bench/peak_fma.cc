// The attainable single-thread FMA rate of this CPU, measured with Highway on its best target:
// independent multiply-add chains, enough to cover the FMA latency on every target.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "peak_fma.cc"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "hwy/highway.h"
#include "peak_fma.h"

HWY_BEFORE_NAMESPACE();
namespace rfk_bench {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

double FmaLoop(std::uint64_t iterations, float* sink) {
  const hn::ScalableTag<float> d;
  auto a0 = hn::Set(d, 1.0f), a1 = hn::Set(d, 1.1f), a2 = hn::Set(d, 1.2f), a3 = hn::Set(d, 1.3f);
  auto a4 = hn::Set(d, 1.4f), a5 = hn::Set(d, 1.5f), a6 = hn::Set(d, 1.6f), a7 = hn::Set(d, 1.7f);
  auto a8 = hn::Set(d, 1.8f), a9 = hn::Set(d, 1.9f), a10 = hn::Set(d, 2.0f), a11 = hn::Set(d, 2.1f);
  const auto m = hn::Set(d, 0.999999f), c = hn::Set(d, 1e-7f);
  for (std::uint64_t i = 0; i < iterations; ++i) {
    a0 = hn::MulAdd(a0, m, c); a1 = hn::MulAdd(a1, m, c); a2 = hn::MulAdd(a2, m, c);
    a3 = hn::MulAdd(a3, m, c); a4 = hn::MulAdd(a4, m, c); a5 = hn::MulAdd(a5, m, c);
    a6 = hn::MulAdd(a6, m, c); a7 = hn::MulAdd(a7, m, c); a8 = hn::MulAdd(a8, m, c);
    a9 = hn::MulAdd(a9, m, c); a10 = hn::MulAdd(a10, m, c); a11 = hn::MulAdd(a11, m, c);
  }
  auto s = hn::Add(hn::Add(hn::Add(a0, a1), hn::Add(a2, a3)), hn::Add(hn::Add(a4, a5), hn::Add(a6, a7)));
  s = hn::Add(s, hn::Add(hn::Add(a8, a9), hn::Add(a10, a11)));
  *sink = hn::GetLane(s);
  return 12.0 * 2.0 * static_cast<double>(hn::Lanes(d)) * static_cast<double>(iterations);
}

const char* TargetName() { return hwy::TargetName(HWY_TARGET); }

}  // namespace HWY_NAMESPACE
}  // namespace rfk_bench
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace rfk_bench {
HWY_EXPORT(FmaLoop);
HWY_EXPORT(TargetName);
double PeakFmaFlops(std::uint64_t iterations, float* sink) {
  return HWY_DYNAMIC_DISPATCH(FmaLoop)(iterations, sink);
}
const char* PeakFmaTarget() { return HWY_DYNAMIC_DISPATCH(TargetName)(); }
}  // namespace rfk_bench
#endif

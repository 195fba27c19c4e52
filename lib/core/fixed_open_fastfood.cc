// Validation of a fixed section's Fastfood tail (format::fixed_params::FastfoodTail): every range
// FixedFastfoodTurns' overflow bounds assume (lib/core/fixed_predict_fastfood.cc), and the
// permutations (FirstBadPermByte, shared with the float path's validator). Integer arithmetic
// only; no allocation.
#include "fp_contract.h"  // first, as in every core source
#include "bytes.h"
#include "core_config.h"
#include "fastfood_perm.h"
#include "fixed_fastfood.h"

namespace rfk::core {
namespace {

namespace fp = format::fixed_params;

struct TailReader {
  const std::uint8_t* sec;
  std::uint32_t at;  // the section's offset in the blob
  ModelError* err;
  [[gnu::noinline]] Status Fail(Field field, std::uint32_t rel) const {
    if (err) *err = ModelError{Status::kBadValue, FieldText(field), at + rel};
    return Status::kBadValue;
  }
};

// Block b's g (no -32768) and its g_shift: <= 62 and d' ((32768 d max|g| + h) >> g_shift) <=
// 2^31 - 1, h = 2^(g_shift - 1) (0 for 0). 32768 d max|g| < 2^45 and h <= 2^61: u64 exact.
[[gnu::noinline]] Status CheckBlock(const TailReader& r, const fp::FastfoodTail& ff, std::uint32_t d, std::uint32_t b) {
  const std::uint32_t rel = ff.g + 2 * b * ff.dp;
  std::uint32_t gmax = 0;
  for (std::uint32_t i = 0; i < ff.dp; ++i) {
    const auto g = static_cast<std::int16_t>(LoadU16(r.sec + rel + 2 * i));
    if (g == -32768) return r.Fail("fixed.g", rel + 2 * i);
    const std::uint32_t a = static_cast<std::uint32_t>(g < 0 ? -g : g);
    if (a > gmax) gmax = a;
  }
  const std::uint32_t gs = r.sec[ff.g_shift + b];
  if (gs > fp::kMaxSShift) return r.Fail("fixed.g_shift", ff.g_shift + b);
  const std::uint64_t h = gs == 0 ? 0 : std::uint64_t{1} << (gs - 1);
  const std::uint64_t bound = (std::uint64_t{32768} * d * gmax + h) >> gs;  // B_v
  if (bound * ff.dp > 0x7FFFFFFFu) return r.Fail("fixed.g_shift", ff.g_shift + b);  // B_v < 2^61, d' <= 2^15
  return Status::kOk;
}

}  // namespace

Status CheckFixedFastfood(const std::uint8_t* blob, std::uint32_t at, std::uint32_t tail_at, std::uint32_t d,
                          std::uint32_t F, ModelError* err) {
  const fp::FastfoodTail ff = FixedFastfoodTail(tail_at, d, F);
  const TailReader r{blob + at, at, err};
  for (std::uint32_t b = 0; b < ff.blocks; ++b) {
    const Status s = CheckBlock(r, ff, d, b);
    if (s != Status::kOk) return s;
  }
  for (std::uint32_t j = 0; j < F; ++j) {
    if (LoadU32(r.sec + ff.s_mult + 4 * j) == 0x80000000u) return r.Fail("fixed.s_mult", ff.s_mult + 4 * j);
    if (r.sec[ff.s_shift + j] > fp::kMaxSShift) return r.Fail("fixed.s_shift", ff.s_shift + j);
  }
  const std::uint32_t bad = FirstBadPermByte(r.sec + ff.perm, ff.dp, ff.blocks);  // each block a permutation
  return bad == kPermsOk ? Status::kOk : r.Fail("fixed.perm", ff.perm + bad);
}

}  // namespace rfk::core

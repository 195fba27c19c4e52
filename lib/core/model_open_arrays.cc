// OpenModel's checks of arrays that several validators share -- enum values, finite floats, weight
// matrices in any storage, string tables -- and the standardize section's validators (numbered as
// in docs/FORMAT.md's "Limits and checks"; the others are in model_open.cc). Kept out of line in
// this file: each is called from several places (or is new), so none loses inlining into OpenModel.
// No allocation, no exceptions.
#include "fp_contract.h"  // first: no compiler-fused multiply-adds in this file
#include "core_config.h"
#include "fastfood_perm.h"
#include "model_reader.h"
#include "rfk/format.hpp"

namespace rfk::core {

std::uint32_t FirstBadPermByte(const std::uint8_t* perm, std::uint32_t dp, std::uint32_t blocks) noexcept {
  const std::uint32_t w = format::fastfood::IndexBits(dp);
  for (std::uint32_t b = 0; b < blocks; ++b)
    for (std::uint32_t lo = 0; lo < dp; lo += 256) {
      std::uint32_t seen[8] = {};
      for (std::uint32_t i = 0; i < dp; ++i) {
        const std::uint32_t k = b * dp + i;  // < 2^24 + 2^16; k w < 2^29
        std::uint32_t v = 0;                 // bits [k w, k w + w), one at a time
        for (std::uint32_t q = 0, bit = k * w; q < w; ++q, ++bit) v |= ((perm[bit >> 3] >> (bit & 7u)) & 1u) << q;
        const std::uint32_t bit = v - lo;
        if (v >= dp || (bit < 256 && ((seen[bit / 32] >> (bit % 32)) & 1u) != 0)) return k * w / 8;
        if (bit < 256) seen[bit / 32] |= 1u << (bit % 32);
      }
    }
  return kPermsOk;
}

}  // namespace rfk::core

namespace rfk::open {

using core::IsFinite;
using core::LoadU32;
using f::SectionType;

bool CheckValue(Reader& r, f::Support s, core::Field field, std::uint32_t at, Status reserved,
                Status unknown) {
  if (s == f::Support::kSupported) return true;
  return r.Fail(s == f::Support::kReserved ? reserved : unknown, field, at);
}

bool CheckFinite(Reader& r, const float* p, std::uint64_t n, core::Field field) {
  for (std::uint64_t i = 0; i < n; ++i)
    if (!IsFinite(p[i])) return r.Fail(Status::kBadValue, field, r.Offset(p + i));
  return true;
}

bool CheckWeights(Reader& r, const WeightsView& w, std::uint64_t rows, std::uint64_t cols,
                  core::Field field, core::Field scale_field) {
  const std::uint64_t n = rows * cols;
  // A float-only core without kFloatQuant (core_config.h) has refused every other storage at open.
  if (w.type == WeightType::kF32 || (core::kCoreFloat && !core::kFloatQuant && !core::kCoreFixed))
    return CheckFinite(r, static_cast<const float*>(w.data), n, field);
  if (w.type != WeightType::kInt8) {  // f16, f16-scaled
    const auto* h = static_cast<const std::uint16_t*>(w.data);
    for (std::uint64_t i = 0; i < n; ++i)
      if ((h[i] & 0x7C00u) == 0x7C00u) return r.Fail(Status::kBadValue, field, r.Offset(h + i));
    if (w.type == WeightType::kF16) return true;
  } else {
    const auto* q = static_cast<const std::int8_t*>(w.data);
    for (std::uint64_t i = 0; i < n; ++i)
      if (q[i] == -128) return r.Fail(Status::kBadValue, field, r.Offset(q + i));
  }
  for (std::uint64_t i = 0; i < rows; ++i)
    if (!IsFinite(w.scale[i]) || !core::IsPositive(w.scale[i]))
      return r.Fail(Status::kBadValue, scale_field, r.Offset(w.scale + i));
  return true;
}

// 12b. A section of strings (the labels layout): `want` strings; offsets start at 0, grow strictly
// (each string at least its NUL) and end at the pool's end; each string ends in its NUL. On
// success *offsets and *pool point into the section.
bool CheckStrings(Reader& r, const Section& s, std::uint32_t want, const StringFields& name,
                  const std::uint8_t** offsets, const char** pool) {
  if (s.size < f::labels::kOffsets) return r.Fail(Status::kBadSectionSize, name.size, s.size_at());
  const std::uint8_t* p = r.Data(s);
  const std::uint32_t c = LoadU32(p + f::labels::kCount);
  if (c != want) return r.Fail(Status::kBadValue, name.count, s.offset + f::labels::kCount);
  const std::uint64_t pool_start = f::labels::kOffsets + (std::uint64_t{c} + 1) * 4;
  if (pool_start > s.size) return r.Fail(Status::kBadSectionSize, name.size, s.size_at());
  const std::uint64_t pool_size = s.size - pool_start;
  std::uint32_t prev = 0;
  for (std::uint32_t i = 0; i <= c; ++i) {
    const std::uint32_t o = LoadU32(p + f::labels::kOffsets + 4 * i);
    if ((i == 0 && o != 0) || (i > 0 && o <= prev) || o > pool_size || (i == c && o != pool_size))
      return r.Fail(Status::kBadValue, name.offsets, s.offset + f::labels::kOffsets + 4 * i);
    if (i > 0 && p[pool_start + o - 1] != 0)
      return r.Fail(Status::kBadValue, name.pool, static_cast<std::uint32_t>(s.offset + pool_start + o - 1));
    prev = o;
  }
  *offsets = p + f::labels::kOffsets;
  *pool = reinterpret_cast<const char*>(p + pool_start);
  return true;
}


// 11. standardize: mean[d] then inv_scale[d], a 2 x d matrix in the storage its table entry names
// (entry.storage: 0 or f32, f16; int8 and any other supported storage are kUnsupportedStorage for
// this section, an unknown number kBadValue): QuantMatrixBytes(storage, 2, d) bytes. f16 where the
// float path runs the model needs kFloatQuant (core_config.h), else kUnsupportedStorage.
static_assert(f::StoragesFor(f::kForStandardize) == (1u << 1 | 1u << 2),
              "CheckStandardize and Model read a standardize section in f32 or f16 only");
bool CheckStandardize(Reader& r) {
  const Section& s = r[SectionType::kStandardize];
  if (!s.present()) return true;
  const std::uint32_t at = s.entry + f::entry::kStorage, storage = LoadU32(r.b + at);
  const bool half = storage == static_cast<std::uint32_t>(f::Storage::kF16);
  if (storage > static_cast<std::uint32_t>(f::Storage::kF16))
    return r.Fail(f::SupportOf<f::Storage>(storage) == f::Support::kUnknown ? Status::kBadValue
                                                                            : Status::kUnsupportedStorage,
                  "standardize.storage", at);
  if (half && core::kCoreFloat && !core::kFloatQuant && (!core::kCoreFixed || FloatRuns(r)))
    return r.Fail(Status::kUnsupportedStorage, "standardize.storage", at);
  if (s.size != (half ? 4u : 8u) * r.m.input_dim)  // QuantMatrixBytes(storage, 2, d); d <= 2^24
    return r.Fail(Status::kBadSectionSize, "standardize.size", s.size_at());
#if RFK_MODEL_HAS_QUANT && RFK_MODEL_CONFIGURED
  r.m.standardize_at = s.offset + (half ? 1u : 0u);  // s.offset: >= 32, a multiple of 16
#else
  if (half) {
    core::Put(r.m.standardize_f16_at, s.offset);  // >= 32: after the header
  } else {
    const auto* mean = reinterpret_cast<const float*>(r.Data(s));
    core::Put(r.m.mean, mean);
#if RFK_MODEL_HAS_INFO  // a configured Model derives it (InvScale)
    r.m.inv_scale = mean + r.m.input_dim;
#endif
  }
#endif
  return true;
}

// 14, first part: standardize's values are finite (f16: no exponent 31), at the first that is not.
bool CheckStandardizeFinite(Reader& r) {
  const Model& m = r.m;
  const std::uint16_t* half = StandardizeF16Values(m);
  const WeightsView v{half != nullptr ? WeightType::kF16 : WeightType::kF32,
                      half != nullptr ? static_cast<const void*>(half) : StandardizeMean(m), nullptr};
  return !IsStandardized(m) || CheckWeights(r, v, 2, m.input_dim, "standardize", "standardize");
}

}  // namespace rfk::open

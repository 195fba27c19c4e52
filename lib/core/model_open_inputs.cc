// OpenModel's validators of the sections about a model's inputs and outputs: standardize (and its
// values), impute and calibration (numbered as in docs/FORMAT.md's "Limits and checks"; the
// others are in model_open.cc). No allocation, no exceptions.
#include "fp_contract.h"  // first: no compiler-fused multiply-adds in this file
#include "model_reader.h"

namespace rfk::open {

using core::LoadU32;
using f::SectionType;

// 11. standardize: mean[d] then inv_scale[d], a 2 x d matrix in the storage its table entry names
// (entry.storage: 0 or f32, f16; int8 and any other supported storage are kUnsupportedStorage for
// this section, an unknown number kBadValue): QuantMatrixBytes(storage, 2, d) bytes.
bool CheckStandardize(Reader& r) {
  const Section& s = r[SectionType::kStandardize];
  if (!s.present()) return true;
  const std::uint32_t at = s.entry + f::entry::kStorage, storage = LoadU32(r.b + at);
  const f::Storage st = storage == 0 ? f::Storage::kF32 : static_cast<f::Storage>(storage);
  if (st != f::Storage::kF32 && st != f::Storage::kF16)
    return r.Fail(f::SupportOf<f::Storage>(storage) == f::Support::kUnknown ? Status::kBadValue
                                                                            : Status::kUnsupportedStorage,
                  "standardize.storage", at);
  if (s.size != f::QuantMatrixBytes(st, 2, r.m.input_dim))
    return r.Fail(Status::kBadSectionSize, "standardize.size", s.size_at());
  if (st == f::Storage::kF16) {
    r.m.standardize_f16 = reinterpret_cast<const std::uint16_t*>(r.Data(s));
  } else {
    r.m.mean = reinterpret_cast<const float*>(r.Data(s));
    r.m.inv_scale = r.m.mean + r.m.input_dim;
  }
  return true;
}

// 14, first part: standardize's values are finite (f16: no exponent 31), at the first that is not.
bool CheckStandardizeFinite(Reader& r) {
  const Model& m = r.m;
  if (m.standardize_f16 != nullptr)
    return CheckWeights(r, WeightsView{WeightType::kF16, m.standardize_f16, nullptr}, 2, m.input_dim, "standardize",
                        "standardize");
  return CheckFinite(r, m.mean, m.mean ? 2ull * m.input_dim : 0, "standardize");
}

// 15. impute (optional): size 16 + 4 d, a known method, count = d, finite values.
bool CheckImpute(Reader& r) {
  namespace im = f::impute;
  const Section& s = r[SectionType::kImpute];
  if (!s.present()) return true;
  if (s.size < im::kHeaderBytes) return r.Fail(Status::kBadSectionSize, "impute.size", s.size_at());
  const std::uint8_t* p = r.Data(s);
  const std::uint32_t method = LoadU32(p + im::kMethod);
  if (f::SupportOf<f::ImputeMethod>(method) == f::Support::kUnknown)
    return r.Fail(Status::kBadValue, "impute.method", s.offset + im::kMethod);
  if (LoadU32(p + im::kCount) != r.m.input_dim) return r.Fail(Status::kBadValue, "impute.count", s.offset + im::kCount);
  if (s.size != im::kHeaderBytes + std::uint64_t{r.m.input_dim} * 4)
    return r.Fail(Status::kBadSectionSize, "impute.size", s.size_at());
  const float* values = reinterpret_cast<const float*>(p + im::kHeaderBytes);
  if (!CheckFinite(r, values, r.m.input_dim, "impute")) return false;
  r.m.impute = values;
  r.m.impute_method = static_cast<f::ImputeMethod>(method);
  return true;
}

// 17. calibration (optional): classification only, a method of the task (binary: platt or
// platt-cubic; multiclass: softmax-temperature or softmax-vector), K = the head's, the size the
// method and K give, every parameter finite; B = 0 for softmax-temperature, A <= 0 and C <= 0 for
// platt-cubic, every a_k >= 0 for softmax-vector (signs tested on the bits: no float compare,
// which is a soft-float call on Cortex-M3).
bool CheckCalibration(Reader& r) {
  namespace ca = f::calibration;
  using M = f::CalibrationMethod;
  const Section& s = r[SectionType::kCalibration];
  if (!s.present()) return true;
  if (r.m.task == f::Task::kRegression) return r.Fail(Status::kBadValue, "calibration", s.entry);
  if (s.size < 8) return r.Fail(Status::kBadSectionSize, "calibration.size", s.size_at());
  const std::uint8_t* p = r.Data(s);
  const auto method = static_cast<M>(LoadU32(p + ca::kMethod));
  const bool binary = r.m.task == f::Task::kBinary;
  if (binary ? method != M::kPlatt && method != M::kPlattCubic : method != M::kSoftmax && method != M::kSoftmaxVector)
    return r.Fail(Status::kBadValue, "calibration.method", s.offset + ca::kMethod);
  const std::uint32_t K = LoadU32(p + ca::kNumOutputs);
  if (K != r.m.num_outputs) return r.Fail(Status::kBadValue, "calibration.num_outputs", s.offset + ca::kNumOutputs);
  if (s.size != ca::Bytes(static_cast<std::uint32_t>(method), K))
    return r.Fail(Status::kBadSectionSize, "calibration.size", s.size_at());
  static constexpr const char* kNames[3] = {"calibration.scale", "calibration.bias", "calibration.cubic"};
  for (std::uint32_t i = 0, at = 8; at < s.size; ++i, at += 4) {
    const std::uint32_t bits = LoadU32(p + at);
    const bool nonzero = (bits & 0x7FFFFFFFu) != 0, negative = (bits >> 31) != 0;
    bool bad = (bits & 0x7F800000u) == 0x7F800000u;                      // inf or NaN
    if (method == M::kPlattCubic && i != 1) bad = bad || (nonzero && !negative);  // A, C <= 0
    if (method == M::kSoftmax && i == 1) bad = bad || nonzero;                    // B = 0
    if (method == M::kSoftmaxVector && i < K) bad = bad || (nonzero && negative);  // a_k >= 0
    if (bad)
      return r.Fail(Status::kBadValue, method != M::kSoftmaxVector ? kNames[i] : i < K ? "calibration.a" : "calibration.b",
                    s.offset + at);
  }
  r.m.calibration_method = static_cast<std::uint32_t>(method);
  r.m.calibration_params = p + 8;
  return true;
}

}  // namespace rfk::open

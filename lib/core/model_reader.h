// The state OpenModel's validators share (lib/core/model_open.cc, model_open_arrays.cc): the blob,
// where the section table put each known section, the Model being filled, and the failure report.
// Internal to the core: no allocation, no exceptions.
#pragma once

#include "bytes.h"
#include "core_config.h"
#include "rfk/model.hpp"

namespace rfk::open {

namespace f = format;

// One slot per known section type, in the order of the format's table (RFK_FORMAT_SECTIONS).
#define RFK_SLOT_(e, ...) e,
enum class Slot : std::uint8_t { RFK_FORMAT_SECTIONS(RFK_SLOT_) kCount };
#undef RFK_SLOT_
constexpr int SlotOf(std::uint16_t type) {
  switch (type) {
#define RFK_SLOT_CASE_(e, n, ...) \
  case n:                         \
    return static_cast<int>(Slot::e);
    RFK_FORMAT_SECTIONS(RFK_SLOT_CASE_)
#undef RFK_SLOT_CASE_
    default:
      return -1;  // a type this reader does not know
  }
}

struct Section {
  std::uint32_t offset = 0;
  std::uint32_t size = 0;
  std::uint32_t entry = 0;  // offset of its table entry, for error reports; 0: absent
  bool present() const { return entry != 0; }  // entries lie after the 32-byte header
  std::uint32_t size_at() const { return entry + f::entry::kSize; }  // where a bad size is reported
};

// The state of one OpenModel call: the blob, the sections the table names, the model being filled.
struct Reader {
  const std::uint8_t* b;
  Model& m;
  ModelError* err;
  Status status = Status::kOk;
  Section sec[static_cast<int>(Slot::kCount)] = {};

  const Section& operator[](f::SectionType t) const { return sec[SlotOf(static_cast<std::uint16_t>(t))]; }
  const std::uint8_t* Data(const Section& s) const { return b + s.offset; }
  std::uint32_t Offset(const void* p) const {
    return static_cast<std::uint32_t>(static_cast<const std::uint8_t*>(p) - b);
  }
  // map_params' layout and storage (W's, or Fastfood's G and S's) once CheckMapKinds has read them:
  // the Model's, or where a configured core's Model does not store them (rfk/model_layout.h), read
  // again from the blob (map_params is then known to be present and of its size).
  f::Layout MapLayout() const {
#if RFK_MODEL_HAS_LAYOUT
    return m.layout;
#else
    return static_cast<f::Layout>(core::LoadU32(MapParam(f::map_params::kLayout)));
#endif
  }
  f::Storage MapStorage() const {
#if RFK_MODEL_HAS_INFO
    return m.projection_storage;
#else
    return static_cast<f::Storage>(core::LoadU32(MapParam(f::map_params::kStorage)));
#endif
  }
  const std::uint8_t* MapParam(std::uint32_t field) const {
    return b + sec[SlotOf(static_cast<std::uint16_t>(f::SectionType::kMapParams))].offset + field;
  }
  // Out of line: some 50 failure sites each call it instead of repeating its stores (saves flash).
  [[gnu::noinline]] bool Fail(Status s, core::Field field, std::uint32_t offset) {
    status = s;
    if (err) *err = ModelError{s, core::FieldText(field), offset};
    return false;
  }
};

// An enum field: `unknown` (kBadValue for most fields) for a number the format does not define,
// `reserved` for a value it defines but this reader does not support.
bool CheckValue(Reader& r, f::Support s, core::Field field, std::uint32_t at, Status reserved,
                Status unknown = Status::kBadValue);

// n floats at p are finite, else kBadValue at the first that is not (`field` names the section).
bool CheckFinite(Reader& r, const float* p, std::uint64_t n, core::Field field);

// A weight matrix of rows x cols in storage `st` (format.hpp, QuantMatrixBytes) at `view`: f32
// finite, f16 (and f16-scaled) not inf/NaN (exponent 31), int8 not -128; int8 and f16-scaled scales
// finite and > 0. Failures are kBadValue at the element (`field`) or the scale (`scale_field`).
bool CheckWeights(Reader& r, const WeightsView& w, std::uint64_t rows, std::uint64_t cols,
                  core::Field field, core::Field scale_field);

// The field names of a section of strings (labels, feature_names) for error reports.
struct StringFields {
  core::Field size;
  core::Field count;
  core::Field offsets;
  core::Field pool;
};

// A section of strings (the labels layout): `want` strings; offsets start at 0, grow strictly
// (each string at least its NUL) and end at the pool's end; each string ends in its NUL. On
// success *offsets and *pool point into the section.
bool CheckStrings(Reader& r, const Section& s, std::uint32_t want, const StringFields& name,
                  const std::uint8_t** offsets, const char** pool);

// The float path runs this model: it has float map arrays, or no fixed section (a fixed-only model,
// a fixed section and no W, Fastfood section or bin grids, runs on the integer path only).
inline bool FloatRuns(const Reader& r) {
  return !r[f::SectionType::kFixed].present() || r[f::SectionType::kProjection].present() ||
         r[f::SectionType::kFastfood].present() || r[f::SectionType::kBinGrids].present();
}

// The standardize section's validators (model_open_arrays.cc), numbered as in docs/FORMAT.md.
bool CheckStandardize(Reader& r);        // 11
bool CheckStandardizeFinite(Reader& r);  // 14, its first part

}  // namespace rfk::open

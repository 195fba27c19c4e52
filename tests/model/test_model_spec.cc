// One writer (rfk/host/model_writer.hpp): SpecFromModel reads back every section SerializeModel
// writes, so a trained model opened, read into a spec and written again is the same bytes -- for
// each map, storage and optional section training writes; RequantizeModel re-encodes through the
// same writers the sections a storage touches and copies the others, a section rfk does not know
// included, in the source's order.
#include <doctest/doctest.h>

#include <cstdint>
#include <cstring>
#include <functional>
#include <set>
#include <string>
#include <vector>

#include "normal_rows.h"
#include "rfk/host/fixed.hpp"
#include "rfk/host/model_writer.hpp"
#include "rfk/host/quantize.hpp"
#include "rfk/host/train.hpp"
#include "rfk/model.hpp"
#include "test_util.h"

namespace f = rfk::format;
using rfk::host::TrainOptions;

namespace {

rfk::host::Dataset Circle() {
  rfk::host::Dataset ds =
      rfk_test::NormalRows(300, [](float a, float b) { return std::string(a * a + b * b > 1.4f ? "1" : "0"); });
  ds.feature_names = {"a", "b", "c"};
  ds.label_name = "y";
  return ds;
}

// Small, fixed-gamma models (no selection): quick to train.
TrainOptions Small() {
  TrainOptions o;
  o.features = 32;
  o.gamma = 0.5;
  o.lambda = 1e-4;
  o.threads = 2;
  return o;
}

std::vector<std::uint8_t> Rewritten(const std::vector<std::uint8_t>& bytes) {
  rfk_test::Blob blob(bytes);
  rfk::Model m;
  REQUIRE(blob.Open(&m) == rfk::Status::kOk);
  return rfk::host::SerializeModel(rfk::host::SpecFromModel(m));
}

}  // namespace

TEST_CASE("SpecFromModel: every trained model written again from its spec is the same bytes") {
  const rfk::host::Dataset ds = Circle();
  struct Case {
    const char* name;
    std::function<void(TrainOptions*)> set;
  };
  const Case cases[] = {
      {"fourier, calibrated, names, input stats", [](TrainOptions* o) { o->standardize = 0; }},
      {"fourier-phase f16, f16 standardisation", [](TrainOptions* o) {
         o->map = f::MapKind::kFourierPhase;
         o->w_storage = o->head_storage = f::Storage::kF16;
         o->standardize = 1;
       }},
      {"orf int8, GPTQ head", [](TrainOptions* o) {
         o->map = f::MapKind::kOrthogonal;
         o->w_storage = o->head_storage = f::Storage::kInt8;
       }},
      {"fastfood int8 W, f16 head", [](TrainOptions* o) {
         o->map = f::MapKind::kFastfood;
         o->w_storage = f::Storage::kInt8;
         o->head_storage = f::Storage::kF16;
       }},
      {"qmc, imputed, regression", [](TrainOptions* o) {
         o->map = f::MapKind::kQmc;
         o->impute = {0.5f, -0.25f, 0.0f};
         o->task = rfk::host::TaskChoice::kRegression;
       }},
      {"binning exact + fourier", [](TrainOptions* o) { o->grids = 6; }},
      {"binning hashed alone, int8 head, no metadata", [](TrainOptions* o) {
         o->fourier = false;
         o->grids = 6;
         o->buckets = 16;
         o->head_storage = f::Storage::kInt8;
         o->metadata = false;
       }},
  };
  std::set<std::uint16_t> seen;  // the section types the cases wrote
  for (const Case& c : cases) {
    const std::string name = c.name;
    CAPTURE(name);
    TrainOptions o = Small();
    c.set(&o);
    const std::vector<std::uint8_t> bytes = rfk::host::Train(ds, o).model;
    {
      rfk_test::Blob blob(bytes);
      rfk::Model m;
      REQUIRE(blob.Open(&m) == rfk::Status::kOk);
      for (const rfk::host::RawSection& section : rfk::host::SectionsOf(m)) seen.insert(section.type);
    }
    const std::vector<std::uint8_t> again = Rewritten(bytes);
    CHECK(again == bytes);
    if (again != bytes) {  // which sections differ
      rfk_test::Blob a(bytes), b(again);
      rfk::Model ma, mb;
      REQUIRE(a.Open(&ma) == rfk::Status::kOk);
      REQUIRE(b.Open(&mb) == rfk::Status::kOk);
      const auto sa = rfk::host::SectionsOf(ma), sb = rfk::host::SectionsOf(mb);
      for (std::size_t i = 0; i < sa.size() && i < sb.size(); ++i)
        if (sa[i].type != sb[i].type || sa[i].payload != sb[i].payload || sa[i].storage != sb[i].storage)
          MESSAGE("section " << i << ": type " << sa[i].type << " vs " << sb[i].type);
      MESSAGE(sa.size() << " sections vs " << sb.size());
    }
  }
  // Every section type the format defines but the integer path's, and the host's input_stats.
  for (const f::SectionInfo& info : f::kSections) {
    if (info.type == static_cast<std::uint16_t>(f::SectionType::kFixed)) continue;  // rfk convert --fixed writes it
    CAPTURE(info.name);
    CHECK(seen.count(info.type) == 1);
  }
  CHECK(seen.count(f::kInputStatsSection) == 1);
}

TEST_CASE("RequantizeModel: storage sections through the writers, the others copied, an unknown one kept in place") {
  const TrainOptions o = Small();
  const std::vector<std::uint8_t> f32 = rfk::host::Train(Circle(), o).model;
  rfk_test::Blob source(f32);
  rfk::Model m;
  REQUIRE(source.Open(&m) == rfk::Status::kOk);
  // An optional section of a type rfk does not know, between the head and the labels.
  std::vector<rfk::host::RawSection> sections = rfk::host::SectionsOf(m);
  std::size_t at = 0;
  while (sections[at].type != static_cast<std::uint16_t>(f::SectionType::kHead)) ++at;
  rfk::host::RawSection unknown;
  unknown.type = 0x7123;
  unknown.payload = {1, 2, 3, 4, 5};
  unknown.storage = 9;
  sections.insert(sections.begin() + static_cast<std::ptrdiff_t>(at + 1), unknown);
  const std::vector<std::uint8_t> with_unknown = rfk::host::AssembleModel(sections);
  rfk_test::Blob blob(with_unknown);
  REQUIRE(blob.Open(&m) == rfk::Status::kOk);

  const std::vector<std::uint8_t> q = rfk::host::RequantizeModel(m, f::Storage::kInt8, f::Storage::kInt8);
  rfk_test::Blob qb(q);
  rfk::Model mq;
  REQUIRE(qb.Open(&mq) == rfk::Status::kOk);
  const std::vector<rfk::host::RawSection> out = rfk::host::SectionsOf(mq);
  REQUIRE(out.size() == sections.size());
  rfk::host::ModelSpec spec = rfk::host::SpecFromModel(m);
  spec.map_storage = spec.head_storage = f::Storage::kInt8;
  for (std::size_t i = 0; i < out.size(); ++i) {
    CAPTURE(out[i].type);
    CHECK(out[i].type == sections[i].type);
    CHECK(out[i].flags == sections[i].flags);
    rfk::host::RawSection expected = sections[i];
    bool storage = false;
    for (const f::SectionType t : {f::SectionType::kMapParams, f::SectionType::kProjection, f::SectionType::kFastfood,
                                   f::SectionType::kStandardize, f::SectionType::kHead})
      storage = storage || out[i].type == static_cast<std::uint16_t>(t);
    if (storage) REQUIRE(rfk::host::EncodeSection(spec, out[i].type, &expected));
    CHECK(out[i].payload == expected.payload);
    CHECK(out[i].storage == expected.storage);
  }
  CHECK(StandardizeF16Values(mq) != nullptr);  // int8 W: the standardisation goes f16
  CHECK(mq.projection_storage == f::Storage::kInt8);
  CHECK(mq.head_storage == f::Storage::kInt8);
  // f32 to f32 changes nothing, the unknown section included.
  CHECK(rfk::host::RequantizeModel(m, f::Storage::kF32, f::Storage::kF32) == with_unknown);
}

TEST_CASE("RequantizeModel: a fixed-only model (no float arrays) re-stored as it is, int8 head and all") {
  const rfk::host::Dataset ds = Circle();
  for (const bool fastfood : {false, true}) {
    CAPTURE(fastfood);
    TrainOptions o = Small();
    if (fastfood) o.map = f::MapKind::kFastfood;
    rfk_test::Blob trained(rfk::host::Train(ds, o).model);
    rfk::Model m;
    REQUIRE(trained.Open(&m) == rfk::Status::kOk);
    rfk::host::FixedReport rep;
    const std::vector<std::uint8_t> fixed_only = rfk::host::FixedModel(m, ds, &rep, true);
    rfk_test::Blob blob(fixed_only);
    REQUIRE(blob.Open(&m) == rfk::Status::kOk);
    REQUIRE(m.projection_weights.data == nullptr);
    CHECK_FALSE(rfk::host::SpecFromModel(m).float_arrays);
    CHECK(rfk::host::RequantizeModel(m, f::Storage::kInt8, f::Storage::kInt8) == fixed_only);
    CHECK_THROWS_AS(rfk::host::RequantizeModel(m, f::Storage::kInt8, f::Storage::kF16), rfk::host::QuantizeError);
  }
}

// The standardisation stored f16 (docs/FORMAT.md, "standardize"; the table entry's storage word):
// which models get it (StandardizationStorage), the layout and size, features bit for bit those of
// an f32 section holding the widened vectors on every kernel table, each corrupted field refused
// with its status, field and offset, and leaving the metadata section out (WithoutSection).
#include <doctest/doctest.h>

#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "maps/random.h"
#include "rfk/host/model_writer.hpp"
#include "rfk/host/quantize.hpp"
#include "rfk/host/train.hpp"
#include "rfk/kernels.hpp"
#include "rfk/model.hpp"
#include "test_util.h"

namespace {

namespace f = rfk::format;
using rfk_test::Requantized;
using rfk::Status;
using rfk_test::Blob;

// A model trained on d Gaussian columns (column c: mean c / 4, deviation 1 + c % 3), binary labels.
std::vector<std::uint8_t> Trained(f::MapKind map, std::uint32_t d, std::uint32_t D, std::uint32_t grids = 0) {
  rfk::host::Dataset ds;
  ds.source = "t";
  ds.cols = d;
  rfk::host::RandomStream rs(17, 3);
  for (int i = 0; i < 200; ++i) {
    double sum = 0;
    for (std::uint32_t c = 0; c < d; ++c) {
      ds.dense.push_back(static_cast<float>(rs.Normal() * (1 + c % 3) + c / 4.0));
      sum += std::sin(ds.dense.back());
    }
    ds.labels.push_back(sum > 0 ? "1" : "0");
    ds.lines.push_back(std::size_t(i) + 1);
    ++ds.rows;
  }
  rfk::host::TrainOptions o;
  o.map = map;
  o.features = D;
  o.grids = grids;
  o.fourier = D > 0;
  o.standardize = 1;  // centred: dense columns with means
  return rfk::host::Train(ds, o).model;
}

// The model with its f16 standardize section replaced by an f32 one holding the widened vectors.
std::vector<std::uint8_t> WidenedStandardize(const std::vector<std::uint8_t>& bytes) {
  Blob b(bytes);
  rfk::Model m;
  REQUIRE(b.Open(&m) == Status::kOk);
  REQUIRE(m.standardize_f16_at != 0);
  std::vector<rfk::host::RawSection> sections;
  const std::uint32_t count = b.U32(f::kOffSectionCount), table = b.U32(f::kOffSectionTable);
  for (std::uint32_t i = 0; i < count; ++i) {
    const std::uint32_t e = table + i * f::kSectionEntryBytes;
    rfk::host::RawSection s;
    std::memcpy(&s.type, b.data() + e, 2);
    std::memcpy(&s.flags, b.data() + e + 2, 2);
    const std::uint8_t* p = b.data() + b.U32(e + f::entry::kOffset);
    if (s.type == static_cast<std::uint16_t>(f::SectionType::kStandardize)) {
      std::vector<float> v(2 * m.input_dim);
      for (std::size_t c = 0; c < v.size(); ++c) v[c] = rfk::HalfToFloat(rfk::StandardizeF16Values(m)[c]);
      s.payload.resize(4 * v.size());
      std::memcpy(s.payload.data(), v.data(), s.payload.size());
    } else {
      s.payload.assign(p, p + b.U32(e + f::entry::kSize));
    }
    sections.push_back(s);
  }
  return rfk::host::AssembleModel(sections);
}

std::vector<float> Features(const std::vector<std::uint8_t>& bytes, const std::vector<float>& X, std::uint32_t d) {
  Blob b(bytes);
  rfk::Model m;
  REQUIRE(b.Open(&m) == Status::kOk);
  rfk::host::AlignedBytes scratch(rfk::ScratchBytes(m));
  const std::size_t n = X.size() / d;
  std::vector<float> z(n * m.num_features);
  for (std::size_t i = 0; i < n; ++i)
    REQUIRE(rfk::ComputeFeatures(m, X.data() + i * d, d, scratch.data(), scratch.size(), z.data() + i * m.num_features,
                                 m.num_features) == Status::kOk);
  return z;
}

}  // namespace

TEST_CASE("StandardizationStorage: f16 for quantized Fourier-type maps whose vectors fit, rounded in place") {
  std::vector<float> mean = {0.0f, 1.5f, -3.1f}, inv = {1.0f, 0.3f, 2.0f};
  CHECK(rfk::host::StandardizationStorage(f::Storage::kF32, true, &mean, &inv) == f::Storage::kF32);
  CHECK(rfk::host::StandardizationStorage(f::Storage::kInt8, false, &mean, &inv) == f::Storage::kF32);
  CHECK(inv[1] == 0.3f);  // unchanged when f32 is chosen
  CHECK(rfk::host::StandardizationStorage(f::Storage::kInt8, true, &mean, &inv) == f::Storage::kF16);
  CHECK(inv[1] == rfk::HalfToFloat(rfk::host::FloatToHalf(0.3f)));
  CHECK(inv[1] != 0.3f);
  CHECK(mean[2] == rfk::HalfToFloat(rfk::host::FloatToHalf(-3.1f)));
  // Each reason to keep f32: beyond f16's range, an f16 subnormal, an offset |mean| * inv_scale over 8.
  for (const auto& bad : std::vector<std::pair<float, float>>{{70000.0f, 1.0f}, {0.0f, 1e-5f}, {100.0f, 0.1f}}) {
    std::vector<float> m = {0.0f, bad.first}, s = {1.0f, bad.second};
    CAPTURE(bad.first);
    CHECK(rfk::host::StandardizationStorage(f::Storage::kF16, true, &m, &s) == f::Storage::kF32);
    CHECK(s[1] == bad.second);
  }
  std::vector<float> zero = {0.0f}, zinv = {0.0f};  // a constant column: inv_scale 0 is kept
  CHECK(rfk::host::StandardizationStorage(f::Storage::kF16, true, &zero, &zinv) == f::Storage::kF16);
}

TEST_CASE("an f16 standardize section: entry storage 2, 4d bytes, features as the widened f32 section's") {
  const std::uint32_t d = 13;
  for (f::MapKind map : {f::MapKind::kFourier, f::MapKind::kFastfood}) {
    const std::vector<std::uint8_t> f32 = Trained(map, d, 64);
    for (f::Storage st : {f::Storage::kF16, f::Storage::kInt8}) {
      CAPTURE(f::NameOf(map));
      CAPTURE(f::NameOf(st));
      const std::vector<std::uint8_t> q = Requantized(f32, st, st);
      Blob b(q);
      rfk::Model m;
      REQUIRE(b.Open(&m) == Status::kOk);
      REQUIRE(m.standardize_f16_at != 0);
      CHECK(m.mean == nullptr);
      const std::size_t e = b.Entry(f::SectionType::kStandardize);
      CHECK(b.U32(e + f::entry::kStorage) == 2);
      CHECK(b.U32(e + f::entry::kSize) == 4 * d);
      const std::vector<float> X = [&] {
        rfk::host::RandomStream rs(5, 9);
        std::vector<float> v(40 * d);
        for (float& x : v) x = static_cast<float>(rs.Normal() * 2);
        return v;
      }();
      const std::vector<std::uint8_t> widened = WidenedStandardize(q);
      for (std::size_t t = 0; t < rfk::KernelTableCount(); ++t) {
        CAPTURE(rfk::KernelTableAt(t)->target);
        const rfk::KernelTable& table = *rfk::KernelTableAt(t);
        REQUIRE(rfk::SelectKernels(table.backend == std::string("scalar") ? "scalar"
                                       : (std::string(table.backend) + "-" + table.target).c_str()));
        const std::vector<float> a = Features(q, X, d), w = Features(widened, X, d);
        CHECK(std::memcmp(a.data(), w.data(), 4 * a.size()) == 0);
      }
      REQUIRE(rfk::SelectKernels((std::string(rfk::KernelTableAt(0)->backend) + "-" + rfk::KernelTableAt(0)->target).c_str()));
      // Converting again keeps the f16 section as it is.
      CHECK(Requantized(q, f::Storage::kInt8, f::Storage::kInt8) == Requantized(Requantized(f32, st, st), f::Storage::kInt8, f::Storage::kInt8));
    }
    // f32 storage, and a map with binning, keep f32 standardisation.
    Blob f32b(Requantized(f32, f::Storage::kF32, f::Storage::kInt8));
    rfk::Model m32;
    REQUIRE(f32b.Open(&m32) == Status::kOk);
    CHECK(m32.mean != nullptr);
    CHECK(f32b.U32(f32b.Entry(f::SectionType::kStandardize) + f::entry::kStorage) == 0);
  }
  Blob binned(Requantized(Trained(f::MapKind::kFourier, d, 64, 4), f::Storage::kInt8, f::Storage::kInt8));
  rfk::Model mb;
  REQUIRE(binned.Open(&mb) == Status::kOk);
  CHECK(mb.mean != nullptr);
}

TEST_CASE("a corrupt standardize storage, size or f16 value is refused with its field and offset") {
  const std::uint32_t d = 9;
  const std::vector<std::uint8_t> q = Requantized(Trained(f::MapKind::kFourier, d, 32), f::Storage::kInt8, f::Storage::kInt8);
  const std::size_t e = Blob(q).Entry(f::SectionType::kStandardize);
  REQUIRE(e != 0);
  struct Case {
    std::uint32_t storage;
    Status status;
    const char* field;
    std::size_t at;
  };
  for (const Case& c : {Case{3, Status::kUnsupportedStorage, "standardize.storage", e + f::entry::kStorage},
                        Case{4, Status::kUnsupportedStorage, "standardize.storage", e + f::entry::kStorage},
                        Case{99, Status::kBadValue, "standardize.storage", e + f::entry::kStorage},
                        Case{0xFFFFFFFFu, Status::kBadValue, "standardize.storage", e + f::entry::kStorage},
                        Case{0, Status::kBadSectionSize, "standardize.size", e + f::entry::kSize},
                        Case{1, Status::kBadSectionSize, "standardize.size", e + f::entry::kSize}}) {
    Blob b(q);
    b.SetU32(e + f::entry::kStorage, c.storage);
    b.FixCrc();
    rfk::ModelError err;
    CAPTURE(c.storage);
    CHECK(b.Open(nullptr, &err) == c.status);
    CHECK(std::string(err.field) == c.field);
    CHECK(err.offset == c.at);
  }
  // A wrong size with the storage right.
  {
    Blob b(q);
    b.SetU32(e + f::entry::kSize, 4 * d - 4);
    b.FixCrc();
    rfk::ModelError err;
    CHECK(b.Open(nullptr, &err) == Status::kBadSectionSize);
    CHECK(std::string(err.field) == "standardize.size");
    CHECK(err.offset == e + f::entry::kSize);
  }
  // Each half that is infinite or NaN (exponent 31), in the means and in the inverse scales.
  const std::uint32_t at = Blob(q).U32(e + f::entry::kOffset);
  for (std::uint32_t i : {0u, d - 1, d, 2 * d - 1})
    for (std::uint16_t bits : {std::uint16_t{0x7C00}, std::uint16_t{0xFC00}, std::uint16_t{0x7E01}}) {
      Blob b(q);
      b.SetU16(at + 2 * i, bits);
      b.FixCrc();
      rfk::ModelError err;
      CAPTURE(i);
      CHECK(b.Open(nullptr, &err) == Status::kBadValue);
      CHECK(std::string(err.field) == "standardize");
      CHECK(err.offset == at + 2 * i);
    }
}

TEST_CASE("WithoutSection leaves the metadata out and every other section as it was") {
  const std::vector<std::uint8_t> q = Requantized(Trained(f::MapKind::kFastfood, 9, 32), f::Storage::kInt8, f::Storage::kInt8);
  Blob b(q);
  rfk::Model m;
  REQUIRE(b.Open(&m) == Status::kOk);
  REQUIRE(m.metadata_bytes > 0);
  const std::vector<std::uint8_t> out = rfk::host::WithoutSection(m, f::SectionType::kMetadata);
  Blob o(out);
  rfk::Model mo;
  REQUIRE(o.Open(&mo) == Status::kOk);
  CHECK(mo.metadata == nullptr);
  CHECK(o.Entry(f::SectionType::kMetadata) == 0);
  CHECK(out.size() == q.size() - f::kSectionEntryBytes - (m.metadata_bytes + 15) / 16 * 16);
  CHECK(std::memcmp(rfk::StandardizeF16Values(mo), rfk::StandardizeF16Values(m), 4 * m.input_dim) == 0);
  CHECK(o.U32(o.Entry(f::SectionType::kStandardize) + f::entry::kStorage) == 2);
  CHECK(std::memcmp(mo.fastfood.perm, m.fastfood.perm, f::fastfood::PermBytes(m.fastfood.dp, m.fastfood.dp * m.fastfood.blocks)) == 0);
  CHECK(rfk::host::WithoutSection(mo, f::SectionType::kMetadata) == out);  // none left: the model as it is
}

TEST_CASE("rfk convert --no-metadata: alone or with a storage, the model opens without metadata") {
  rfk_test::TempDir dir;
  rfk::host::WriteFileAtomic(dir.Path("in.rfk"), Trained(f::MapKind::kFastfood, 9, 32));
  const rfk_test::CommandResult alone =
      rfk_test::Run(std::string(RFK_CLI) + " convert -m " + dir.Path("in.rfk") + " --no-metadata -o " + dir.Path("a.rfk"));
  REQUIRE(alone.status == 0);
  const rfk_test::CommandResult both = rfk_test::Run(std::string(RFK_CLI) + " convert -m " + dir.Path("in.rfk") +
                                                     " --storage int8 --no-metadata -o " + dir.Path("b.rfk"));
  REQUIRE(both.status == 0);
  CHECK(both.err.find("standardisation f16, no metadata") != std::string::npos);
  for (const char* name : {"a.rfk", "b.rfk"}) {
    const rfk::host::AlignedBytes bytes = rfk::host::ReadFileBytes(dir.Path(name));
    rfk::Model m;
    CAPTURE(name);
    REQUIRE(rfk::OpenModel(bytes.data(), bytes.size(), &m) == Status::kOk);
    CHECK(m.metadata == nullptr);
  }
  const rfk_test::CommandResult nothing =
      rfk_test::Run(std::string(RFK_CLI) + " convert -m " + dir.Path("in.rfk") + " -o " + dir.Path("c.rfk"));
  CHECK(nothing.status == 1);
  CHECK(nothing.err.find("--no-metadata") != std::string::npos);
}

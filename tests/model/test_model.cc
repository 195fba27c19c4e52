// Model format: round trip, determinism, and one distinct status for each kind of corruption.
#include <doctest/doctest.h>

#include <cmath>
#include <string>
#include <thread>
#include <vector>

#include "rfk/fixed.hpp"
#include "rfk/host/data.hpp"
#include "rfk/host/model_writer.hpp"
#include "rfk/host/opened_model.hpp"
#include "rfk/host/train.hpp"
#include "rfk/kernels.hpp"
#include "rfk/model.hpp"
#include "test_util.h"

namespace {

namespace f = rfk::format;
using rfk::Status;
using rfk_test::Blob;

// A small dense 3-class dataset: three Gaussian blobs in 5-D, deterministic.
rfk::host::Dataset Blobs(std::size_t n, std::uint64_t seed) {
  rfk::host::Dataset ds;
  ds.source = "blobs";
  ds.rows = n;
  ds.cols = 5;
  std::uint64_t s = seed;
  auto uni = [&s] {
    s = s * 6364136223846793005ull + 1442695040888963407ull;
    return double(s >> 11) * 0x1.0p-53;
  };
  for (std::size_t i = 0; i < n; ++i) {
    const int c = static_cast<int>(i % 3);
    for (int k = 0; k < 5; ++k)
      ds.dense.push_back(static_cast<float>(10.0 * (k == c) + 40.0 + 3.0 * (uni() - 0.5) * 2));
    ds.labels.push_back(c == 0 ? "cat" : c == 1 ? "dog" : "emu");
    ds.lines.push_back(i + 1);
  }
  return ds;
}

rfk::host::TrainOptions SmallOptions() {
  rfk::host::TrainOptions o;
  o.features = 64;
  o.seed = 9;
  o.gamma = 0;      // the data-scale gamma and a fixed lambda: these tests need a given model, not
  o.lambda = 1e-4;  // the default's search (which picks a lambda with larger, less rounding-proof weights)
  return o;
}

std::vector<std::uint8_t> SmallModel(f::MapKind map = f::MapKind::kFourier) {
  auto o = SmallOptions();
  o.map = map;
  return rfk::host::Train(Blobs(300, 1), o).model;
}

}  // namespace

TEST_CASE("round trip: train -> write -> read -> open -> the same predictions as in memory") {
  rfk_test::TempDir tmp;
  for (f::MapKind map : {f::MapKind::kFourier, f::MapKind::kFourierPhase}) {
    const auto bytes = SmallModel(map);
    const std::string path = tmp.Path("m.rfk");
    rfk::host::WriteFileAtomic(path, bytes);
    const rfk::host::AlignedBytes back = rfk::host::ReadFileBytes(path);
    REQUIRE(back.size() == bytes.size());
    CHECK(std::memcmp(back.data(), bytes.data(), bytes.size()) == 0);

    Blob mem(bytes);
    rfk::Model a, b;
    REQUIRE(mem.Open(&a) == Status::kOk);
    REQUIRE(rfk::OpenModel(back.data(), back.size(), &b) == Status::kOk);
    CHECK(a.task == f::Task::kMulticlass);
    CHECK(a.num_outputs == 3);
    CHECK(std::string(rfk::ClassLabel(a, 0)) == "cat");
    CHECK(std::string(rfk::ClassLabel(a, 2)) == "emu");
    CHECK(std::string(rfk::ClassLabel(a, 3)).empty());
    CHECK(a.mean != nullptr);  // dense data: standardised by default

    const auto test = Blobs(90, 77);
    rfk::host::AlignedBytes scratch(rfk::ScratchBytes(a));
    std::size_t correct = 0;
    for (std::size_t i = 0; i < test.rows; ++i) {
      float oa[3], ob[3];
      REQUIRE(rfk::Predict(a, &test.dense[i * 5], 5, scratch.data(), scratch.size(), oa, 3) == Status::kOk);
      REQUIRE(rfk::Predict(b, &test.dense[i * 5], 5, scratch.data(), scratch.size(), ob, 3) == Status::kOk);
      CHECK(std::memcmp(oa, ob, sizeof oa) == 0);
      correct += rfk::ClassLabel(a, rfk::DecideClass(a, oa)) == test.labels[i];
    }
    CHECK(correct == test.rows);  // well separated blobs
  }
}

TEST_CASE("predictions agree with an independent double-precision evaluation of the model") {
  const auto bytes = SmallModel(f::MapKind::kFourierPhase);
  Blob blob(bytes);
  rfk::Model m;
  REQUIRE(blob.Open(&m) == Status::kOk);
  REQUIRE(m.layout == f::Layout::kPanels);
  const auto test = Blobs(30, 5);
  rfk::host::AlignedBytes scratch(rfk::ScratchBytes(m));
  for (std::size_t i = 0; i < test.rows; ++i) {
    const float* x = &test.dense[i * 5];
    std::vector<double> z(m.num_features);
    for (std::uint32_t j = 0; j < m.num_frequencies; ++j) {
      double arg = m.phase[j];
      for (std::uint32_t c = 0; c < 5; ++c)
        arg += double(m.projection[(j / 16) * 16 * 5 + c * 16 + j % 16]) *  // panel layout
               ((double(x[c]) - m.mean[c]) * m.inv_scale[c]);
      z[j] = m.feature_scale * std::cos(arg);
    }
    float out[3];
    REQUIRE(rfk::Predict(m, x, 5, scratch.data(), scratch.size(), out, 3) == Status::kOk);
    for (std::uint32_t k = 0; k < 3; ++k) {
      double ref = m.head_bias[k];
      for (std::uint32_t j = 0; j < m.num_features; ++j) ref += double(m.head_weights[k * m.num_features + j]) * z[j];
      CHECK(out[k] == doctest::Approx(ref).epsilon(1e-4).scale(1.0));
    }
  }
}

TEST_CASE("same seed and data give byte-identical models, for any thread count") {
  const auto data = Blobs(700, 3);
  auto o = SmallOptions();
  o.threads = 1;
  const auto one = rfk::host::Train(data, o).model;
  o.threads = 2;
  const auto two = rfk::host::Train(data, o).model;
  o.threads = 5;
  const auto five = rfk::host::Train(data, o).model;
  CHECK(one == two);
  CHECK(one == five);
  o.seed = 10;
  CHECK(rfk::host::Train(data, o).model != one);
}

TEST_CASE("models are byte-identical at many threads too: several Gram tiles and blocks, weighted CV") {
  // D = 1100: three tiles of G per side (gram.h, kGramTile = 512); 4500 rows: three blocks of 1500
  // (gram.h, kGramRows = 2048). More threads than tiles, blocks or cores.
  const auto data = Blobs(4500, 3);
  auto o = SmallOptions();
  o.features = 1100;
  o.threads = 1;
  const auto one = rfk::host::Train(data, o).model;
  o.threads = 16;
  CHECK(rfk::host::Train(data, o).model == one);
  // Selection: held-out scores through DGEMM on fixed chunks, weighted losses.
  const auto small = Blobs(2100, 4);
  o.features = 520;
  o.lambda_auto = true;
  o.class_weight = rfk::host::ClassWeight::kBalanced;
  o.threads = 1;
  const auto a = rfk::host::Train(small, o);
  o.threads = 7;
  const auto b = rfk::host::Train(small, o);
  CHECK(a.model == b.model);
  REQUIRE(a.report.cv.size() == b.report.cv.size());
  for (std::size_t i = 0; i < a.report.cv.size(); ++i) CHECK(a.report.cv[i].error == b.report.cv[i].error);
}

TEST_CASE("cross-validated selection is deterministic and reports its grid") {
  const auto data = Blobs(240, 4);
  auto o = SmallOptions();
  o.gamma_auto = true;
  o.lambda_auto = true;
  o.threads = 1;
  const auto a = rfk::host::Train(data, o);
  o.threads = 2;
  const auto b = rfk::host::Train(data, o);
  CHECK(a.model == b.model);
  CHECK(a.report.cv.size() == 7 * 8);
  bool chosen = false;
  for (const auto& p : a.report.cv) chosen |= p.gamma == a.report.gamma && p.lambda == a.report.lambda;
  CHECK(chosen);
}

// ------------------------------------------------------------------ corruption

TEST_CASE("each kind of corruption returns its own status and names the field: the header") {
  const auto bytes = SmallModel();
  {
    Blob ok(bytes);
    REQUIRE(ok.Open() == Status::kOk);
  }
  rfk::ModelError err;
  SUBCASE("truncation") {
    Blob b(bytes);
    CHECK(rfk::OpenModel(b.data(), b.size() - 1, nullptr, nullptr) == Status::kNullArgument);
    rfk::Model m;
    CHECK(rfk::OpenModel(b.data(), b.size() - 1, &m, &err) == Status::kTruncated);
    CHECK(std::string(err.field) == "header.total_bytes");
    CHECK(rfk::OpenModel(b.data(), 10, &m) == Status::kTruncated);
    CHECK(m.projection == nullptr);  // left empty on failure
    // A Model that is not open needs no scratch (the C API's handle says the same: 0).
    CHECK(rfk::ScratchBytes(m) == 0);
    CHECK(rfk::ScratchBytes(m, 32) == 0);
    CHECK(rfk::BatchScratchBytes(m) == 0);
    CHECK(rfk::FixedScratchBytes(m) == 0);
  }
  SUBCASE("bad magic") {
    Blob b(bytes);
    b.data()[0] = 'X';
    CHECK(b.Open(nullptr, &err) == Status::kBadMagic);
    CHECK(err.offset == 0);
  }
  SUBCASE("unsupported version") {
    Blob b(bytes);
    b.SetU16(f::kOffVersionMajor, 2);
    CHECK(b.Open() == Status::kUnsupportedVersion);
  }
  SUBCASE("bad checksum") {
    Blob b(bytes);
    b.data()[b.size() / 2] ^= 0x10;
    CHECK(b.Open(nullptr, &err) == Status::kBadChecksum);
    CHECK(err.offset == f::kOffCrc32);
  }
  SUBCASE("absurd section count") {
    Blob b(bytes);
    b.SetU32(f::kOffSectionCount, 100000);
    b.FixCrc();
    CHECK(b.Open() == Status::kBadSectionTable);
  }
}

TEST_CASE("each kind of corruption returns its own status and names the field: the section table") {
  const auto bytes = SmallModel();
  rfk::ModelError err;
  SUBCASE("absurd input dimension") {
    Blob b(bytes);
    const std::size_t e = b.Entry(f::SectionType::kMapParams);
    b.SetU32(b.U32(e + 4) + f::map_params::kInputDim, 0xFFFFFFFFu);
    b.FixCrc();
    CHECK(b.Open(nullptr, &err) == Status::kBadValue);
    CHECK(std::string(err.field) == "map_params.input_dim");
  }
  SUBCASE("counts that do not match the section size") {
    Blob b(bytes);
    const std::size_t e = b.Entry(f::SectionType::kMapParams);
    b.SetU32(b.U32(e + 4) + f::map_params::kInputDim, 6);
    b.FixCrc();
    CHECK(b.Open(nullptr, &err) == Status::kBadSectionSize);
    CHECK(std::string(err.field) == "projection.size");
  }
  SUBCASE("a section running past the end") {
    Blob b(bytes);
    const std::size_t e = b.Entry(f::SectionType::kMetadata);
    b.SetU32(e + 8, 1u << 30);
    b.FixCrc();
    CHECK(b.Open() == Status::kBadSectionTable);
  }
  SUBCASE("misaligned section") {
    Blob b(bytes);
    const std::size_t e = b.Entry(f::SectionType::kHead);
    b.SetU32(e + 4, b.U32(e + 4) + 4);
    b.FixCrc();
    CHECK(b.Open(nullptr, &err) == Status::kMisalignedSection);
    CHECK(err.offset == e + 4);
  }
  SUBCASE("misaligned buffer") {
    rfk::host::AlignedBytes shifted(bytes.size() + 4);
    std::memcpy(shifted.data() + 4, bytes.data(), bytes.size());
    rfk::Model m;
    CHECK(rfk::OpenModel(shifted.data() + 4, bytes.size(), &m) == Status::kMisalignedBuffer);
  }
  SUBCASE("duplicate section") {
    Blob b(bytes);
    const std::size_t e = b.Entry(f::SectionType::kMetadata);
    b.SetU16(e, static_cast<std::uint16_t>(f::SectionType::kLabels));
    b.FixCrc();
    CHECK(b.Open() == Status::kDuplicateSection);
  }
  SUBCASE("unknown sections: required fails, optional is skipped") {
    Blob b(bytes);
    const std::size_t e = b.Entry(f::SectionType::kMetadata);
    b.SetU16(e, 200);
    b.FixCrc();
    rfk::Model m;
    CHECK(b.Open(&m) == Status::kOk);
    CHECK(m.metadata == nullptr);
    b.SetU16(e + 2, f::kSectionRequired);
    b.FixCrc();
    CHECK(b.Open() == Status::kUnknownRequiredSection);
  }
  SUBCASE("a known section the model has no use for") {
    Blob b(bytes);  // the pair form: a phase section is out of place
    const std::size_t e = b.Entry(f::SectionType::kMetadata);
    b.SetU16(e, static_cast<std::uint16_t>(f::SectionType::kPhase));
    b.FixCrc();
    CHECK(b.Open(nullptr, &err) == Status::kBadValue);
    CHECK(std::string(err.field) == "phase");
    CHECK(err.offset == e);
  }
  SUBCASE("missing required section") {
    Blob b(bytes);
    const std::size_t e = b.Entry(f::SectionType::kHead);
    b.SetU16(e, 201);  // now an unknown optional section
    b.SetU16(e + 2, 0);
    b.FixCrc();
    CHECK(b.Open(nullptr, &err) == Status::kMissingSection);
    CHECK(std::string(err.field) == "head");
  }
}

TEST_CASE("each kind of corruption returns its own status and names the field: the values") {
  const auto bytes = SmallModel();
  rfk::ModelError err;
  SUBCASE("reserved map kind and storage") {
    Blob b(bytes);
    const std::uint32_t p = b.U32(b.Entry(f::SectionType::kMapParams) + 4);
    b.SetU32(p + f::map_params::kMapKind, static_cast<std::uint32_t>(f::MapKind::kBinning));
    b.FixCrc();
    CHECK(b.Open() == Status::kUnsupportedMap);
    b.SetU32(p + f::map_params::kMapKind, 77);
    b.FixCrc();
    CHECK(b.Open() == Status::kBadValue);
    b.SetU32(p + f::map_params::kMapKind, 1);
    b.SetU32(p + f::map_params::kStorage, static_cast<std::uint32_t>(f::Storage::kSeed));
    b.FixCrc();
    CHECK(b.Open(nullptr, &err) == Status::kUnsupportedStorage);
    CHECK(std::string(err.field) == "map_params.storage");
    CHECK(err.offset == p + f::map_params::kStorage);
    // A supported storage whose bytes do not match W's: f16 over f32 bytes.
    b.SetU32(p + f::map_params::kStorage, static_cast<std::uint32_t>(f::Storage::kF16));
    b.FixCrc();
    CHECK(b.Open(nullptr, &err) == Status::kBadSectionSize);
    CHECK(std::string(err.field) == "projection.size");
  }
  SUBCASE("non-finite parameters (W, head) are corrupt, not silently propagated") {
    for (f::SectionType type : {f::SectionType::kProjection, f::SectionType::kHead}) {
      Blob b(bytes);
      const std::uint32_t off = b.U32(b.Entry(type) + 4);
      const float nan = NAN;
      std::memcpy(b.data() + off + 32, &nan, 4);  // inside W; inside the head's weights
      b.FixCrc();
      CHECK(b.Open(nullptr, &err) == Status::kBadValue);
      CHECK(std::string(err.field) == (type == f::SectionType::kHead ? "head" : "projection"));
      CHECK(err.offset == off + 32);
    }
  }
  SUBCASE("label offsets pointing outside their pool") {
    Blob b(bytes);
    const std::uint32_t p = b.U32(b.Entry(f::SectionType::kLabels) + 4);
    b.SetU32(p + f::labels::kOffsets + 4, 5000);
    b.FixCrc();
    CHECK(b.Open(nullptr, &err) == Status::kBadValue);
    CHECK(std::string(err.field) == "labels.offsets");
  }
}

TEST_CASE("OpenedModel holds its own aligned copy, survives a move, and names what does not open") {
  std::vector<std::uint8_t> bytes = SmallModel();
  rfk::host::OpenedModel first(bytes, "small.rfk");
  const std::vector<float> x = {45, 40, 40, 40, 40};
  std::vector<float> before(first->num_outputs), after(first->num_outputs);
  std::vector<std::uint8_t> scratch(rfk::ScratchBytes(first.model()));
  REQUIRE(rfk::Predict(first.model(), x.data(), x.size(), scratch.data(), scratch.size(), before.data(),
                       before.size()) == Status::kOk);
  CHECK(reinterpret_cast<std::uintptr_t>(first.data()) % f::kAlignment == 0);
  std::fill(bytes.begin(), bytes.end(), 0);  // the source is copied, not borrowed
  const rfk::host::OpenedModel moved = std::move(first);
  CHECK(moved.Bytes() == SmallModel());
  REQUIRE(rfk::Predict(moved.model(), x.data(), x.size(), scratch.data(), scratch.size(), after.data(),
                       after.size()) == Status::kOk);
  CHECK(after == before);

  std::vector<std::uint8_t> bad = SmallModel();
  bad[0] = 'X';
  try {
    rfk::host::OpenedModel opened(bad, "bad.rfk");
    FAIL("bytes with a bad magic opened");
  } catch (const rfk::host::ModelOpenError& e) {
    CHECK(e.status() == Status::kBadMagic);
    CHECK(std::string(e.what()).rfind("bad.rfk: ", 0) == 0);
    CHECK(std::string(e.what()).find("byte offset 0") != std::string::npos);
  }
  const rfk_test::TempDir tmp;
  const std::string path = tmp.Path("bad_magic.rfk");
  rfk::host::WriteFileAtomic(path, bad);
  const rfk::host::OpenedModel inspected = rfk::host::OpenedModel::InspectFile(path);
  CHECK(inspected.status() == Status::kBadMagic);
  CHECK(inspected.size() == bad.size());
  CHECK_THROWS_AS(rfk::host::OpenedModel::ReadFile(path), rfk::host::ModelOpenError);
}

TEST_CASE("every truncated prefix is rejected cleanly") {
  const auto bytes = SmallModel();
  Blob b(bytes);
  for (std::size_t n = 0; n < b.size(); ++n) {
    rfk::Model m;
    REQUIRE(rfk::OpenModel(b.data(), n, &m) != Status::kOk);
  }
}

TEST_CASE("bytes flipped behind a recomputed checksum never open into an inconsistent model") {
  const auto bytes = SmallModel();
  std::uint64_t s = 99;
  int opened = 0;
  for (int trial = 0; trial < 3000; ++trial) {
    Blob b(bytes);
    s = s * 6364136223846793005ull + 1;
    const std::size_t at = f::kCrcStart + (s >> 33) % (512 - f::kCrcStart);  // header, table, params
    b.data()[at] ^= static_cast<std::uint8_t>(1u << ((s >> 20) % 8));
    b.FixCrc();
    rfk::Model m;
    if (b.Open(&m) != Status::kOk) continue;
    ++opened;
    // Whatever opened must be safe to predict with.
    std::vector<float> x(m.input_dim, 0.5f), out(m.num_outputs);
    rfk::host::AlignedBytes scratch(rfk::ScratchBytes(m));
    const Status st = rfk::Predict(m, x.data(), x.size(), scratch.data(), scratch.size(), out.data(), out.size());
    CHECK((st == Status::kOk || st == Status::kArgumentOutOfRange));
  }
  CHECK(opened > 0);  // flips in unused or float bytes still open
}

TEST_CASE("Predict checks its arguments") {
  const auto bytes = SmallModel();
  Blob b(bytes);
  rfk::Model m;
  REQUIRE(b.Open(&m) == Status::kOk);
  rfk::host::AlignedBytes scratch(rfk::ScratchBytes(m) + 16);
  std::vector<float> x(5, 40.0f), out(3);
  CHECK(rfk::Predict(m, x.data(), 4, scratch.data(), rfk::ScratchBytes(m), out.data(), 3) == Status::kInputDimMismatch);
  CHECK(rfk::Predict(m, x.data(), 5, scratch.data(), rfk::ScratchBytes(m) - 1, out.data(), 3) == Status::kScratchTooSmall);
  CHECK(rfk::Predict(m, x.data(), 5, scratch.data() + 4, rfk::ScratchBytes(m), out.data(), 3) == Status::kMisalignedScratch);
  CHECK(rfk::Predict(m, x.data(), 5, scratch.data(), rfk::ScratchBytes(m), out.data(), 2) == Status::kOutputTooSmall);
  CHECK(rfk::Predict(m, nullptr, 5, scratch.data(), rfk::ScratchBytes(m), out.data(), 3) == Status::kNullArgument);
  for (float v : {NAN, -NAN, INFINITY, -INFINITY}) {
    x[2] = v;
    CHECK(rfk::Predict(m, x.data(), 5, scratch.data(), rfk::ScratchBytes(m), out.data(), 3) == Status::kNonFiniteInput);
  }
  x[2] = 3e38f;  // finite, but the cosine argument leaves the kernel's domain
  CHECK(rfk::Predict(m, x.data(), 5, scratch.data(), rfk::ScratchBytes(m), out.data(), 3) == Status::kArgumentOutOfRange);
  Blob empty(bytes);
  rfk::Model none;
  CHECK(rfk::Predict(none, x.data(), 0, scratch.data(), scratch.size(), out.data(), 3) == Status::kNullArgument);
  CHECK(std::string(rfk::StatusName(Status::kBadChecksum)) == "kBadChecksum");
  CHECK(std::string(rfk::StatusName(static_cast<Status>(999))) == "kUnknownStatus");
}

TEST_CASE("panel and row-major layouts give bit-identical scalar predictions") {
  REQUIRE(rfk::SelectKernels("scalar"));
  for (f::MapKind map : {f::MapKind::kFourier, f::MapKind::kFourierPhase}) {
    // 37 frequencies: two full panels and a padded one.
    auto spec = rfk::host::RandomFeatureSpec(f::Kernel::kGaussian, map, map == f::MapKind::kFourier ? 74 : 37, 5, 0.3, 4);
    for (std::size_t j = 0; j < spec.head_weights.size(); ++j) spec.head_weights[j] = 0.01f * float(j % 13) - 0.05f;
    spec.layout = f::Layout::kPanels;
    Blob panels(rfk::host::SerializeModel(spec));
    spec.layout = f::Layout::kRowMajor;
    Blob rows(rfk::host::SerializeModel(spec));
    rfk::Model a, b;
    REQUIRE(panels.Open(&a) == Status::kOk);
    REQUIRE(rows.Open(&b) == Status::kOk);
    CHECK(a.layout == f::Layout::kPanels);
    CHECK(b.layout == f::Layout::kRowMajor);
    CHECK(panels.size() > rows.size());  // 11 padding rows
    rfk::host::AlignedBytes scratch(rfk::ScratchBytes(a));
    const auto test = Blobs(20, 8);
    for (std::size_t i = 0; i < test.rows; ++i) {
      std::vector<float> za(a.num_features), zb(b.num_features);
      REQUIRE(rfk::ComputeFeatures(a, &test.dense[i * 5], 5, scratch.data(), scratch.size(), za.data(), za.size()) == Status::kOk);
      REQUIRE(rfk::ComputeFeatures(b, &test.dense[i * 5], 5, scratch.data(), scratch.size(), zb.data(), zb.size()) == Status::kOk);
      CHECK(std::memcmp(za.data(), zb.data(), za.size() * sizeof(float)) == 0);
    }
  }
  REQUIRE(rfk::SelectKernels(rfk::KernelTableAt(0)->target));
}

TEST_CASE("PredictBatch agrees with Predict row by row, for every map and batch size") {
  const auto train = Blobs(300, 21), test = Blobs(29, 22);
  struct Config {
    bool fourier;
    f::MapKind map;
    std::uint32_t grids;
  };
  for (const Config& cfg : {Config{true, f::MapKind::kFourier, 0}, Config{true, f::MapKind::kFourierPhase, 0},
                            Config{false, f::MapKind::kFourier, 6}, Config{true, f::MapKind::kFourier, 6}}) {
    auto o = SmallOptions();
    o.fourier = cfg.fourier;
    o.map = cfg.map;
    o.grids = cfg.grids;
    Blob b(rfk::host::Train(train, o).model);
    rfk::Model m;
    REQUIRE(b.Open(&m) == Status::kOk);
    rfk::host::AlignedBytes scratch(rfk::BatchScratchBytes(m)), one(rfk::ScratchBytes(m));
    for (std::size_t n : {std::size_t{0}, std::size_t{1}, std::size_t{8}, std::size_t{29}}) {
      std::vector<float> batch(n * 3, -1.0f), single(3);
      std::size_t done = 99;
      REQUIRE(rfk::PredictBatch(m, test.dense.data(), n, n * 5, scratch.data(), scratch.size(), batch.data(), batch.size(), &done) == Status::kOk);
      CHECK(done == n);
      for (std::size_t i = 0; i < n; ++i) {
        REQUIRE(rfk::Predict(m, &test.dense[i * 5], 5, one.data(), one.size(), single.data(), 3) == Status::kOk);
        for (int k = 0; k < 3; ++k) CHECK(batch[i * 3 + k] == doctest::Approx(single[k]).epsilon(1e-5).scale(1.0));
      }
    }
    std::vector<float> out(29 * 3);
    CHECK(rfk::PredictBatch(m, test.dense.data(), 29, 29 * 5 - 1, scratch.data(), scratch.size(), out.data(), out.size()) == Status::kInputDimMismatch);
    CHECK(rfk::PredictBatch(m, test.dense.data(), 29, 29 * 5, scratch.data(), scratch.size() - 1, out.data(), out.size()) == Status::kScratchTooSmall);
    CHECK(rfk::PredictBatch(m, test.dense.data(), 29, 29 * 5, scratch.data(), scratch.size(), out.data(), out.size() - 1) == Status::kOutputTooSmall);
    std::vector<float> bad(test.dense.begin(), test.dense.begin() + 29 * 5);
    for (float v : {NAN, INFINITY, -INFINITY}) {
      CAPTURE(v);
      bad[13 * 5 + 2] = v;
      bad[20 * 5 + 4] = v;
      std::size_t done = 0;
      CHECK(rfk::PredictBatch(m, bad.data(), 29, 29 * 5, scratch.data(), scratch.size(), out.data(), out.size(), &done) == Status::kNonFiniteInput);
      CHECK(done == 13);  // the first bad row; the rows before it hold their outputs
    }
  }
}

TEST_CASE("PredictBatch with many outputs takes smaller blocks and still agrees with Predict") {
  // 40 outputs: 64 B of head sums per sample and output would be 120 KiB for 48-sample blocks;
  // blocks of 12 keep them under 32 KiB.
  for (f::MapKind map : {f::MapKind::kFourier, f::MapKind::kFourierPhase}) {
    auto spec = rfk::host::RandomFeatureSpec(f::Kernel::kGaussian, map, 70, 5, 0.3, 9);
    const std::uint32_t K = 40, D = spec.FourierFeatures();
    spec.task = f::Task::kMulticlass;
    spec.num_outputs = K;
    spec.head_weights.resize(std::size_t{K} * D);
    for (std::size_t j = 0; j < spec.head_weights.size(); ++j) spec.head_weights[j] = 0.01f * float(j % 17) - 0.08f;
    spec.head_bias.assign(K, 0.25f);
    spec.labels.clear();
    for (std::uint32_t k = 0; k < K; ++k) spec.labels.push_back("c" + std::to_string(k));
    Blob b(rfk::host::SerializeModel(spec));
    rfk::Model m;
    REQUIRE(b.Open(&m) == Status::kOk);
    CHECK(rfk::BatchScratchBytes(m) <= 32768 + 12 * 5 * sizeof(float) + rfk::ScratchBytes(m) + 64);
    const auto test = Blobs(61, 23);
    rfk::host::AlignedBytes scratch(rfk::BatchScratchBytes(m)), one(rfk::ScratchBytes(m));
    std::vector<float> batch(std::size_t{61} * K), single(K);
    REQUIRE(rfk::PredictBatch(m, test.dense.data(), 61, 61 * 5, scratch.data(), scratch.size(), batch.data(), batch.size()) == Status::kOk);
    for (std::size_t i = 0; i < 61; ++i) {
      REQUIRE(rfk::Predict(m, &test.dense[i * 5], 5, one.data(), one.size(), single.data(), K) == Status::kOk);
      for (std::uint32_t k = 0; k < K; ++k)
        CHECK(batch[i * K + k] == doctest::Approx(single[k]).epsilon(1e-5).scale(1.0));
    }
  }
}

TEST_CASE("many threads share one model, each with its own scratch: bit-identical to one thread") {
  auto o = SmallOptions();
  o.grids = 6;  // Fourier + binning: every kernel of the prediction path
  Blob b(rfk::host::Train(Blobs(300, 31), o).model);
  rfk::Model m;
  REQUIRE(b.Open(&m) == Status::kOk);
  const auto test = Blobs(200, 32);
  const std::size_t n = test.rows, K = m.num_outputs;
  std::vector<float> ref(n * K);
  {
    rfk::host::AlignedBytes scratch(rfk::ScratchBytes(m));
    for (std::size_t i = 0; i < n; ++i)
      REQUIRE(rfk::Predict(m, &test.dense[i * 5], 5, scratch.data(), scratch.size(), &ref[i * K], K) == Status::kOk);
  }
  constexpr int kThreads = 8;
  std::vector<std::vector<float>> got(kThreads, std::vector<float>(n * K)), batch(kThreads, std::vector<float>(n * K));
  std::vector<int> failures(kThreads, 0);
  std::vector<std::thread> pool;
  for (int t = 0; t < kThreads; ++t) {
    pool.emplace_back([&, t] {
      rfk::host::AlignedBytes scratch(rfk::ScratchBytes(m)), bscratch(rfk::BatchScratchBytes(m));
      for (int rep = 0; rep < 3; ++rep) {
        for (std::size_t i = 0; i < n; ++i)
          failures[t] += rfk::Predict(m, &test.dense[i * 5], 5, scratch.data(), scratch.size(), &got[t][i * K], K) != Status::kOk;
        failures[t] += rfk::PredictBatch(m, test.dense.data(), n, n * 5, bscratch.data(), bscratch.size(), batch[t].data(), n * K) != Status::kOk;
      }
    });
  }
  for (auto& th : pool) th.join();
  std::vector<float> ref_batch(n * K);
  rfk::host::AlignedBytes bscratch(rfk::BatchScratchBytes(m));
  REQUIRE(rfk::PredictBatch(m, test.dense.data(), n, n * 5, bscratch.data(), bscratch.size(), ref_batch.data(), n * K) == Status::kOk);
  for (int t = 0; t < kThreads; ++t) {
    CHECK(failures[t] == 0);
    CHECK(std::memcmp(got[t].data(), ref.data(), ref.size() * sizeof(float)) == 0);
    CHECK(std::memcmp(batch[t].data(), ref_batch.data(), ref_batch.size() * sizeof(float)) == 0);
  }
}

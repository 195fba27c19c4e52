// The idx reader (MNIST's format: big-endian type code, dimensions and payload) and its errors, and
// smoke tests on the real datasets when RFK_SHARED_DIR is defined.
#include <doctest/doctest.h>

#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "rfk/host/data.hpp"

#include "data_files.h"

using namespace rfk_test::data;  // the readers' names and the helpers (data_files.h)

TEST_CASE("data: idx images and labels") {
  TempDir dir;
  // 3 records of 2x2 unsigned bytes.
  const std::string pixels = {0, 1, 2, 3, 10, 11, 12, static_cast<char>(255), 7, 7, 7, 7};
  for (const bool gz : {false, true}) {
    CAPTURE(gz);
    const std::string sfx = gz ? ".gz" : "";
    const auto write = [&](const std::string& name, const std::string& content) {
      return gz ? dir.Gz(name + sfx, content) : dir.Plain(name, content);
    };
    const std::string images = write("train-images-idx3-ubyte", Idx(0x08, {3, 2, 2}, pixels));
    write("train-labels-idx1-ubyte", Idx(0x08, {3}, std::string{9, 0, 3}));
    CHECK(DetectFormat(images) == DataFormat::kIdx);
    const Dataset ds = ReadDataset(images);
    CHECK(ds.format == DataFormat::kIdx);
    CHECK_FALSE(ds.sparse);
    CHECK(ds.rows == 3);
    CHECK(ds.cols == 4);
    CHECK(ds.dense == std::vector<float>{0, 1, 2, 3, 10, 11, 12, 255, 7, 7, 7, 7});
    CHECK(ds.labels == std::vector<std::string>{"9", "0", "3"});
    CHECK(ds.lines == std::vector<std::uint64_t>{1, 2, 3});
  }
  SUBCASE("explicit labels file, 2-dim images") {
    const std::string images = dir.Plain("x.idx", Idx(0x08, {2, 3}, std::string{1, 2, 3, 4, 5, 6}));
    ReadOptions o;
    o.idx_labels = dir.Gz("y.idx.gz", Idx(0x08, {2}, std::string{1, 2}));
    const Dataset ds = ReadDataset(images, o);
    CHECK(ds.rows == 2);
    CHECK(ds.cols == 3);
    CHECK(ds.labels == std::vector<std::string>{"1", "2"});
    o.idx_labels.clear();
    CHECK_ERROR(images, o, images + ": ", "cannot derive the idx labels file name");
  }
  SUBCASE("element types") {
    ReadOptions o;
    o.idx_labels = dir.Plain("lab", Idx(0x0C, {2}, Be32(7) + Be32(0xffffffffu)));
    const auto read = [&](unsigned char type, const std::string& payload) {
      return ReadDataset(dir.Plain("img", Idx(type, {2, 2}, payload)), o);
    };
    Dataset ds = read(0x09, std::string{-1, 2, -128, 127});
    CHECK(ds.dense == std::vector<float>{-1, 2, -128, 127});
    CHECK(ds.labels == std::vector<std::string>{"7", "-1"});
    ds = read(0x0B, std::string{static_cast<char>(0xff), static_cast<char>(0xfe), 1, 0, 0, 5, 0x7f,
                                static_cast<char>(0xff)});
    CHECK(ds.dense == std::vector<float>{-2, 256, 5, 32767});
    ds = read(0x0C, Be32(0xfffffffdu) + Be32(1000000) + Be32(0) + Be32(1));
    CHECK(ds.dense == std::vector<float>{-3, 1e6f, 0, 1});
    ds = read(0x0D, BeFloat(0.25f) + BeFloat(-1.5f) + BeFloat(3e38f) + BeFloat(1e-40f));
    CHECK(ds.dense == std::vector<float>{0.25f, -1.5f, 3e38f, 1e-40f});
    ds = read(0x0E, BeDouble(0.5) + BeDouble(-2) + BeDouble(1e-300) + BeDouble(8));
    CHECK(ds.dense == std::vector<float>{0.5f, -2, 0, 8});
    // Float labels print in shortest form.
    o.idx_labels = dir.Plain("flab", Idx(0x0D, {2}, BeFloat(1.5f) + BeFloat(-3.0f)));
    ds = read(0x08, std::string{1, 2, 3, 4});
    CHECK(ds.labels == std::vector<std::string>{"1.5", "-3"});
  }
}

TEST_CASE("data: idx errors") {
  TempDir dir;
  const ReadOptions o;
  const std::string labels3 = Idx(0x08, {3}, std::string{1, 2, 3});
  dir.Plain("a-labels-idx1-ubyte", labels3);
  const std::string images = dir.File("a-images-idx3-ubyte");
  const auto put = [&](const std::string& content) { return dir.Plain("a-images-idx3-ubyte", content); };
  const ReadOptions idx = Format(DataFormat::kIdx);

  put(Idx(0x08, {3, 2, 2}, std::string(11, '\1')));
  CHECK_ERROR(images, o, images + ": ", "truncated: the idx header declares 28 bytes, the data ends at byte offset 27");
  put(Idx(0x08, {3, 2, 2}, std::string(13, '\1')));
  CHECK_ERROR(images, o, images + ": byte offset 28: ", "declares (28 bytes)");
  put(Idx(0x08, {3, 2, 2}, std::string(12, '\1')).substr(0, 10));
  CHECK_ERROR(images, idx, images + ": ", "truncated idx header");
  put(Idx(0x08, {3}, std::string(3, '\1')));
  CHECK_ERROR(images, o, images + ": byte offset 3: ", "at least 2 dimensions");
  put(Idx(0x08, {3, 0, 2}, ""));
  CHECK_ERROR(images, o, images + ": byte offset 8: ", "dimension 2 is zero");
  put(Idx(0x08, {0xffffffffu, 0xffffffffu, 0xffffffffu}, std::string(100, '\1')));
  CHECK_ERROR(images, idx, images + ": ", "impossibly large");
  put(Idx(0x08, {0xffffff, 0xffff}, std::string(100, '\1')));
  CHECK_ERROR(images, idx, images + ": ", "truncated");
  put(std::string("\0\0\x07\x02", 4) + Be32(1) + Be32(1) + "x");
  CHECK_ERROR(images, idx, images + ": byte offset 2: ", "unknown idx element type 7");
  put(std::string("\1\0\x08\x02", 4) + Be32(1) + Be32(1) + "x");
  CHECK_ERROR(images, idx, images + ": byte offset 0: ", "not an idx file");
  put(Idx(0x0D, {3, 1}, BeFloat(1) + BeFloat(std::numeric_limits<float>::quiet_NaN()) + BeFloat(2)));
  CHECK_ERROR(images, o, images + ": byte offset 16: ", "non-finite");
  put(Idx(0x0E, {3, 1}, BeDouble(1) + BeDouble(2) + BeDouble(1e300)));
  CHECK_ERROR(images, o, images + ": byte offset 28: ", "out-of-float-range");

  put(Idx(0x08, {2, 2}, std::string(4, '\1')));
  const std::string labels = dir.File("a-labels-idx1-ubyte");
  CHECK_ERROR(images, o, labels + ": 3 labels, but ", "has 2 records");
  dir.Plain("a-labels-idx1-ubyte", Idx(0x08, {2, 1}, std::string(2, '\1')));
  CHECK_ERROR(images, o, labels + ": byte offset 3: ", "exactly 1 dimension");
  dir.Plain("a-labels-idx1-ubyte", Idx(0x08, {2}, std::string(3, '\1')));
  CHECK_ERROR(images, o, labels + ": byte offset 10: ", "data after the end");
  dir.Plain("a-labels-idx1-ubyte", Idx(0x0D, {2}, BeFloat(1) + BeFloat(std::numeric_limits<float>::infinity())));
  CHECK_ERROR(images, o, labels + ": byte offset 12: ", "non-finite label");
  fs::remove(labels);
  CHECK_ERROR(images, o, labels + ": cannot open: ", "No such file");
}

TEST_CASE("data: real datasets") {
#ifdef RFK_SHARED_DIR
  const std::string shared = RFK_SHARED_DIR;
  const std::string a9a = shared + "/datasets/adult_a9a/a9a.gz";
  const std::string a9a_t = shared + "/datasets/adult_a9a/a9a.t.gz";
  if (fs::exists(a9a) && fs::exists(a9a_t)) {
    const Dataset train = ReadDataset(a9a);
    CHECK(train.format == DataFormat::kLibsvm);
    CHECK(train.rows == 32561);
    CHECK(train.cols == 123);
    std::map<std::string, int> counts;
    for (const std::string& l : train.labels) ++counts[l];
    CHECK(counts == std::map<std::string, int>{{"-1", 24720}, {"+1", 7841}});
    CHECK(train.lines.back() == 32561);

    ReadOptions o;
    CHECK(ReadDataset(a9a_t, o).cols == 122);
    o.min_cols = 123;
    o.max_cols = 123;
    const Dataset test = ReadDataset(a9a_t, o);
    CHECK(test.rows == 16281);
    CHECK(test.cols == 123);
    o.max_cols = 122;
    CHECK(Contains(ErrorOf(a9a, o), "exceeds the model's input dimension 122"));
  } else {
    MESSAGE("a9a not found under " << shared << "; skipped");
  }

  const std::string house = shared + "/datasets/census_house16H/house_16h.csv.gz";
  if (fs::exists(house)) {
    const Dataset ds = ReadDataset(house);
    CHECK(ds.format == DataFormat::kCsv);
    CHECK(ds.rows == 22784);
    CHECK(ds.cols == 16);
    CHECK(ds.labels.front() == "125500");
    CHECK(ds.lines.front() == 2);
    CHECK(ds.dense.front() == 3961.0f);
  } else {
    MESSAGE("house_16h not found; skipped");
  }

  const std::string cov = shared + "/datasets/covtype/covertype-small.data.csv.gz";
  if (fs::exists(cov)) {
    ReadOptions o;
    o.label_col = 0;
    const Dataset ds = ReadDataset(cov, o);
    CHECK(ds.rows == 100000);
    CHECK(ds.cols == 53);
  } else {
    MESSAGE("covtype not found; skipped");
  }
#else
  MESSAGE("RFK_SHARED_DIR not defined; shared-dataset tests skipped");
#endif

  const std::string fmnist = "/usr/share/datasets/fashion-mnist/";
  if (fs::exists(fmnist + "t10k-images-idx3-ubyte.gz") &&
      fs::exists(fmnist + "t10k-labels-idx1-ubyte.gz")) {
    const Dataset ds = ReadDataset(fmnist + "t10k-images-idx3-ubyte.gz");
    CHECK(ds.format == DataFormat::kIdx);
    CHECK(ds.rows == 10000);
    CHECK(ds.cols == 784);
    std::map<std::string, int> counts;
    for (const std::string& l : ds.labels) ++counts[l];
    CHECK(counts.size() == 10);
    CHECK(counts["0"] == 1000);
    CHECK(counts["9"] == 1000);
    float lo = 1e9f, hi = -1e9f;
    for (const float v : ds.dense) {
      lo = std::min(lo, v);
      hi = std::max(hi, v);
    }
    CHECK(lo == 0.0f);
    CHECK(hi == 255.0f);
  } else {
    MESSAGE("Fashion-MNIST not found under " << fmnist << "; skipped");
  }
}

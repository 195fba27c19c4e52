// Tests for the host data readers (rfk/host/data.hpp): small generated files for LIBSVM and CSV,
// plain and gzip'd, and every error path. (idx and the real datasets: test_data_idx.cc.)
#include "rfk/host/data.hpp"

#include <doctest/doctest.h>
#include <zlib.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <map>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "data_files.h"

using namespace rfk_test::data;  // the readers' names and the helpers (data_files.h)

TEST_CASE("data: format names") {
  CHECK(rfk::host::ParseDataFormat("auto") == DataFormat::kAuto);
  CHECK(rfk::host::ParseDataFormat("libsvm") == DataFormat::kLibsvm);
  CHECK(rfk::host::ParseDataFormat("svmlight") == DataFormat::kLibsvm);
  CHECK(rfk::host::ParseDataFormat("csv") == DataFormat::kCsv);
  CHECK(rfk::host::ParseDataFormat("idx") == DataFormat::kIdx);
  CHECK_THROWS_AS(rfk::host::ParseDataFormat("parquet"), DataError);
  CHECK(std::string(rfk::host::DataFormatName(DataFormat::kLibsvm)) == "libsvm");
  CHECK(std::string(rfk::host::DataFormatName(DataFormat::kCsv)) == "csv");
  CHECK(std::string(rfk::host::DataFormatName(DataFormat::kIdx)) == "idx");
  CHECK(std::string(rfk::host::DataFormatName(DataFormat::kAuto)) == "auto");
}

TEST_CASE("data: libsvm, plain and gzip'd") {
  TempDir dir;
  const std::string text =
      "# a comment line\n"
      "+1 1:0.5 3:-2 7:1e-3 \n"
      "\n"
      "-1 qid:4 2:+2 3:.25   # trailing comment\r\n"
      "   \t \n"
      "2\n"
      "-1\t5:1e-50 6:1e-40";  // no final newline
  for (const bool gz : {false, true}) {
    CAPTURE(gz);
    const std::string p = gz ? dir.Gz("small.svm.gz", text) : dir.Plain("small.svm", text);
    CHECK(DetectFormat(p) == DataFormat::kLibsvm);
    const Dataset ds = ReadDataset(p);
    CHECK(ds.source == p);
    CHECK(ds.format == DataFormat::kLibsvm);
    CHECK(ds.sparse);
    CHECK(ds.dense.empty());
    REQUIRE(ds.rows == 4);
    CHECK(ds.cols == 7);
    CHECK(ds.labels == std::vector<std::string>{"+1", "-1", "2", "-1"});
    CHECK(ds.lines == std::vector<std::uint64_t>{2, 4, 6, 7});
    CHECK(ds.row_ptr == std::vector<std::uint64_t>{0, 3, 5, 5, 7});
    CHECK(ds.col_idx == std::vector<std::uint32_t>{0, 2, 6, 1, 2, 4, 5});
    REQUIRE(ds.values.size() == 7);
    CHECK(ds.values[0] == 0.5f);
    CHECK(ds.values[1] == -2.0f);
    CHECK(ds.values[2] == 1e-3f);
    CHECK(ds.values[3] == 2.0f);
    CHECK(ds.values[4] == 0.25f);
    CHECK(ds.values[5] == 0.0f);  // underflows to zero
    CHECK(ds.values[6] == 1e-40f);  // subnormal kept
  }
}

TEST_CASE("data: libsvm min_cols and max_cols") {
  TempDir dir;
  const std::string p = dir.Plain("a.svm", "1 2:1\n-1 5:1\n");
  ReadOptions o;
  CHECK(ReadDataset(p, o).cols == 5);
  o.min_cols = 9;
  CHECK(ReadDataset(p, o).cols == 9);
  o.min_cols = 3;
  CHECK(ReadDataset(p, o).cols == 5);
  o.max_cols = 5;
  CHECK(ReadDataset(p, o).cols == 5);
  o.max_cols = 4;
  CHECK(ErrorOf(p, o) == p + ":2: feature index 5 exceeds the model's input dimension 4");
}

TEST_CASE("data: libsvm errors name file and line") {
  TempDir dir;
  const ReadOptions o;
  struct Case {
    std::string body;  // the bad line is always line 2
    std::string part;
  };
  const Case cases[] = {
      {"1 abc\n", "expected 'index:value', got 'abc'"},
      {"1 0:1\n", "feature index 0"},
      {"1 3:1 2:1\n", "strictly increasing: 2 after 3"},
      {"1 3:1 3:1\n", "strictly increasing: 3 after 3"},
      {"1 -3:1\n", "bad feature index"},
      {"1 :1\n", "bad feature index"},
      {"1 x:1\n", "bad feature index"},
      {"1 99999999999:1\n", "too large"},
      {"1 99999999999999999999999:1\n", "too large"},
      {"1 3:abc\n", "bad feature value in '3:abc'"},
      {"1 3:\n", "bad feature value"},
      {"1 3:1:2\n", "bad feature value"},
      {"1 3:1.5x\n", "bad feature value"},
      {"1 3:nan\n", "non-finite"},
      {"1 3:-inf\n", "non-finite"},
      {"1 3:1e39\n", "out of float range"},
      {"1 3:-1e400\n", "out of float range"},
      {"1 3:++1\n", "bad feature value"},
      {"3:1 4:1\n", "expected a label"},
      {"1 3:1\x01\n", "bad feature value in '3:1\\x01'"},
      {std::string("1 3:1\0\n", 7), "bad feature value"},
  };
  int i = 0;
  for (const Case& c : cases) {
    CAPTURE(c.body);
    const std::string p = dir.Plain("bad" + std::to_string(i++) + ".svm", "1 1:1\n" + c.body);
    CHECK_ERROR(p, Format(DataFormat::kLibsvm), p + ":2: ", c.part);
  }
  // NUL inside a token (the C-string table above cannot carry one).
  const std::string nul = dir.Plain("nul.svm", std::string("1 1:1\n1 2:3\0004:1\n", 16));
  CHECK_ERROR(nul, o, nul + ":2: ", "bad feature value in '2:3\\x004:1'");
  // Labels must be finite numbers (kept as written).
  for (const char* bad : {"\x02 2:1\n", "a,b,c\n", "nan 1:1\n", "1e39\n"}) {
    const std::string lab = dir.Plain("lab.svm", "1 1:1\n" + std::string(bad));
    CHECK_ERROR(lab, o, lab + ":2: ", "expected a finite numeric label");
  }
}

TEST_CASE("data: empty inputs are errors") {
  TempDir dir;
  for (const DataFormat f : {DataFormat::kAuto, DataFormat::kLibsvm, DataFormat::kCsv}) {
    CAPTURE(static_cast<int>(f));
    const std::string empty = dir.Plain("empty", "");
    CHECK_ERROR(empty, Format(f), empty + ": ", "no data rows");
    const std::string blank = dir.Gz("blank.gz", "\n\n  \n");
    CHECK_ERROR(blank, Format(f), blank + ": ", "no data rows");
  }
  const std::string comments = dir.Plain("comments.svm", "# only\n# comments\n");
  CHECK_ERROR(comments, Format(DataFormat::kLibsvm), comments + ": ", "no data rows");
  const std::string header_only = dir.Plain("h.csv", "a,b,label\n");
  CHECK_ERROR(header_only, Format(DataFormat::kCsv), header_only + ": ", "no data rows");
  const std::string idx_empty = dir.Plain("e-images-idx3-ubyte", "");
  CHECK_ERROR(idx_empty, Format(DataFormat::kIdx), idx_empty + ": ", "truncated idx header");
}

TEST_CASE("data: missing file") {
  TempDir dir;
  const std::string p = dir.File("does-not-exist.csv");
  CHECK(ErrorOf(p) == p + ": cannot open: No such file or directory");
  for (const DataFormat f : {DataFormat::kLibsvm, DataFormat::kCsv, DataFormat::kIdx}) {
    CHECK(ErrorOf(p, Format(f)) == p + ": cannot open: No such file or directory");
  }
  CHECK_THROWS_AS(DetectFormat(p), DataError);
}

TEST_CASE("data: truncated and corrupt gzip") {
  TempDir dir;
  std::string text;
  for (int i = 0; i < 20000; ++i) text += std::to_string(i % 3) + " " + std::to_string(i % 50 + 1) + ":0.5\n";
  const std::string full = ReadBytes(dir.Gz("full.svm.gz", text));
  REQUIRE(full.size() > 1000);
  CHECK(ReadDataset(dir.File("full.svm.gz")).rows == 20000);

  for (const std::size_t keep : {full.size() - 4, full.size() - 8, full.size() / 2, std::size_t{20}}) {
    CAPTURE(keep);
    const std::string p = dir.Plain("cut.svm.gz", full.substr(0, keep));
    CHECK_ERROR(p, Format(DataFormat::kLibsvm), p + ": ", "truncated");
    CHECK_ERROR(p, Format(DataFormat::kCsv), p + ": ", "");
  }
  std::string corrupt = full;
  corrupt[corrupt.size() - 6] = static_cast<char>(corrupt[corrupt.size() - 6] ^ 0x55);  // CRC
  const std::string p = dir.Plain("crc.svm.gz", corrupt);
  CHECK_ERROR(p, Format(DataFormat::kLibsvm), p + ": ", "corrupt compressed data");
  corrupt = full;
  for (std::size_t i = 100; i < 140; ++i) corrupt[i] = static_cast<char>(corrupt[i] ^ 0xa5);
  const std::string q = dir.Plain("mid.svm.gz", corrupt);
  CHECK_ERROR(q, Format(DataFormat::kLibsvm), q + ":", "");
}

TEST_CASE("data: csv basics and header detection") {
  TempDir dir;
  SUBCASE("header with text feature names, label last") {
    const std::string text = "\xEF\xBB\xBF" "age,hours,income\r\n39, 40 ,  <=50K \r\n\r\n50,13.5,>50K\r\n";
    for (const bool gz : {false, true}) {
      const std::string p = gz ? dir.Gz("adult.csv.gz", text) : dir.Plain("adult.csv", text);
      CHECK(DetectFormat(p) == DataFormat::kCsv);
      const Dataset ds = ReadDataset(p);
      CHECK(ds.format == DataFormat::kCsv);
      CHECK_FALSE(ds.sparse);
      CHECK(ds.rows == 2);
      CHECK(ds.cols == 2);
      CHECK(ds.dense == std::vector<float>{39, 40, 50, 13.5f});
      CHECK(ds.labels == std::vector<std::string>{"<=50K", ">50K"});
      CHECK(ds.lines == std::vector<std::uint64_t>{2, 4});
      CHECK(ds.row_ptr.empty());
    }
  }
  SUBCASE("numeric feature names, non-numeric label name (house_16h style)") {
    const std::string p = dir.Plain("h.csv", "1,2,y\n0.5,1,125500\n2,3,19100\n");
    const Dataset ds = ReadDataset(p);
    CHECK(ds.rows == 2);
    CHECK(ds.labels == std::vector<std::string>{"125500", "19100"});
    CHECK(ds.lines == std::vector<std::uint64_t>{2, 3});
  }
  SUBCASE("text labels on every row are not a header") {
    const std::string p = dir.Plain("t.csv", "1,2,yes\n3,4,no\n");
    const Dataset ds = ReadDataset(p);
    CHECK(ds.rows == 2);
    CHECK(ds.labels == std::vector<std::string>{"yes", "no"});
    CHECK(ds.dense == std::vector<float>{1, 2, 3, 4});
  }
  SUBCASE("single row with a text label") {
    const Dataset ds = ReadDataset(dir.Plain("one.csv", "1,2,yes\n"));
    CHECK(ds.rows == 1);
    CHECK(ds.labels == std::vector<std::string>{"yes"});
  }
}

TEST_CASE("data: csv without a header, forced headers, label columns, separators and extremes") {
  TempDir dir;
  SUBCASE("no header") {
    const Dataset ds = ReadDataset(dir.Plain("n.csv", "1,2,3\n4,5,6\n"));
    CHECK(ds.rows == 2);
    CHECK(ds.dense == std::vector<float>{1, 2, 4, 5});
    CHECK(ds.labels == std::vector<std::string>{"3", "6"});
    CHECK(ds.lines == std::vector<std::uint64_t>{1, 2});
  }
  SUBCASE("forced header / forced no header") {
    const std::string p = dir.Plain("f.csv", "1,2,3\n4,5,6\n");
    ReadOptions o;
    o.csv_header = 1;
    Dataset ds = ReadDataset(p, o);
    CHECK(ds.rows == 1);
    CHECK(ds.labels == std::vector<std::string>{"6"});
    const std::string q = dir.Plain("g.csv", "a,b,c\n4,5,6\n");
    o.csv_header = 0;
    CHECK_ERROR(q, o, q + ":1: ", "column 1: expected a number, got 'a'");
  }
  SUBCASE("label column choice") {
    const std::string p = dir.Plain("l.csv", "1,2,3,4\n5,6,7,8\n");
    ReadOptions o;
    o.label_col = 0;
    Dataset ds = ReadDataset(p, o);
    CHECK(ds.labels == std::vector<std::string>{"1", "5"});
    CHECK(ds.dense == std::vector<float>{2, 3, 4, 6, 7, 8});
    o.label_col = 2;
    ds = ReadDataset(p, o);
    CHECK(ds.labels == std::vector<std::string>{"3", "7"});
    CHECK(ds.dense == std::vector<float>{1, 2, 4, 5, 6, 8});
    o.label_col = -4;
    CHECK(ReadDataset(p, o).labels == std::vector<std::string>{"1", "5"});
    o.label_col = 4;
    CHECK_ERROR(p, o, p + ":1: ", "label column 4 is out of range for 4 columns");
    o.label_col = -5;
    CHECK_ERROR(p, o, p + ":1: ", "label column -5 is out of range");
  }
  SUBCASE("semicolon and tab delimiters, quoted fields") {
    Dataset ds = ReadDataset(dir.Plain("s.csv", "x;y;cls\n1.5;-2;\"a;b\"\n"));
    CHECK(ds.dense == std::vector<float>{1.5f, -2});
    CHECK(ds.labels == std::vector<std::string>{"a;b"});
    ds = ReadDataset(dir.Plain("t.tsv", "1\t2\tc\n3\t4\td\n"));
    CHECK(ds.dense == std::vector<float>{1, 2, 3, 4});
    CHECK(ds.labels == std::vector<std::string>{"c", "d"});
    ds = ReadDataset(dir.Plain("q.csv", "\"f1\",\"f2\",\"label\"\n\" 1 \",\"2\",\"say \"\"hi\"\"\"\n"));
    CHECK(ds.dense == std::vector<float>{1, 2});
    CHECK(ds.labels == std::vector<std::string>{"say \"hi\""});
  }
  SUBCASE("extreme but finite values") {
    const Dataset ds = ReadDataset(dir.Plain("e.csv", "3.4028234e38,1e-50,-0,1\n"));
    CHECK(ds.dense == std::vector<float>{3.4028234e38f, 0.0f, 0.0f});
  }
}

TEST_CASE("data: csv errors name file, line and column") {
  TempDir dir;
  const ReadOptions o;
  struct Case {
    std::string body;  // line 1 is "1,2,3"; the bad line is line 3
    std::string part;
  };
  const Case cases[] = {
      {"1,2\n", "expected 3 fields, got 2"},
      {"1,2,3,4\n", "expected 3 fields, got 4"},
      {"1,x,3\n", "column 2: expected a number, got 'x'"},
      {"1,,3\n", "column 2: empty field"},
      {" ,1,3\n", "column 1: empty field"},
      {"1,nan,3\n", "column 2: missing value 'nan'"},
      {"inf,1,3\n", "column 1: non-finite value 'inf'"},
      {"1,1e39,3\n", "column 2: value out of float range"},
      {"1,2,\n", "column 3: empty label"},
      {"1,2,\"3\n", "unterminated quoted field starting at column 3"},
      {"1,\"2\"x,3\n", "column 2: unexpected text after a closing quote"},
      {"1,2\",3\n", "column 2: quote inside an unquoted field"},
      {std::string("1,2\0,3\n", 7), "column 2: expected a number, got '2\\x00'"},
      {"1,0x10,3\n", "column 2: expected a number, got '0x10'"},
      {"1,2,\x01\n", "column 3: control character in label"},
  };
  int i = 0;
  for (const Case& c : cases) {
    CAPTURE(c.body);
    const std::string p = dir.Plain("bad" + std::to_string(i++) + ".csv", "1,2,3\n\n" + c.body);
    CHECK_ERROR(p, Format(DataFormat::kCsv), p + ":3: ", c.part);
  }
  const std::string single = dir.Plain("single.csv", "1\n2\n");
  CHECK_ERROR(single, o, single + ":1: ", "single column");
}

TEST_CASE("data: format detection") {
  TempDir dir;
  CHECK(DetectFormat(dir.Plain("a", "# c\n\n1 2:3\n")) == DataFormat::kLibsvm);
  CHECK(DetectFormat(dir.Plain("b", "1\n-1 qid:3 2:3\n")) == DataFormat::kLibsvm);
  CHECK(DetectFormat(dir.Gz("c.gz", "1 2:3\n")) == DataFormat::kLibsvm);
  CHECK(DetectFormat(dir.Plain("d", "1,2,3\n")) == DataFormat::kCsv);
  CHECK(DetectFormat(dir.Plain("e", "1\t2\t3\n")) == DataFormat::kCsv);
  CHECK(DetectFormat(dir.Gz("f.gz", "a b,c\n")) == DataFormat::kCsv);
  CHECK(DetectFormat(dir.Plain("g", "")) == DataFormat::kCsv);
  CHECK(DetectFormat(dir.Plain("h", Idx(0x08, {1, 1}, "x"))) == DataFormat::kIdx);
  CHECK(DetectFormat(dir.Gz("i.gz", Idx(0x0E, {1}, BeDouble(1)))) == DataFormat::kIdx);
  CHECK(DetectFormat(dir.Plain("j", std::string("\0\0\x08\x05", 4))) == DataFormat::kCsv);
}

TEST_CASE("data: ParseDataset reads content in memory exactly as ReadDataset reads the file") {
  TempDir dir;
  const auto same = [](const Dataset& a, const Dataset& b) {
    CHECK(a.format == b.format);
    CHECK(a.rows == b.rows);
    CHECK(a.cols == b.cols);
    CHECK(a.sparse == b.sparse);
    CHECK(a.dense == b.dense);
    CHECK(a.row_ptr == b.row_ptr);
    CHECK(a.col_idx == b.col_idx);
    CHECK(a.values == b.values);
    CHECK(a.labels == b.labels);
    CHECK(a.lines == b.lines);
  };
  const std::string svm = "# c\n+1 1:0.5 3:2 # tail\n\n-1 qid:4 2:1e-3\n";
  const Dataset from_memory = rfk::host::ParseDataset(svm, "mem.svm");
  CHECK(from_memory.source == "mem.svm");
  same(from_memory, ReadDataset(dir.Plain("a.svm", svm)));
  const std::string csv = "\xEF\xBB\xBF" "a;b;y\r\n1;2;x\r\n3;\"4\";\"y \"\"q\"\"\"\r\n";
  same(rfk::host::ParseDataset(csv, "mem.csv"), ReadDataset(dir.Plain("a.csv", csv)));
  CHECK(rfk::host::DetectContentFormat(svm) == DataFormat::kLibsvm);
  CHECK(rfk::host::DetectContentFormat(csv) == DataFormat::kCsv);

  const std::string images = Idx(0x0B, {2, 2}, std::string{0, 1, 0, 2, -1, -1, 0, 3});
  const std::string labels = Idx(0x08, {2}, std::string{4, 5});
  ReadOptions o;
  o.idx_labels = dir.Plain("y", labels);
  same(rfk::host::ParseDataset(images, "x", {}, labels), ReadDataset(dir.Plain("x", images), o));

  // Errors name the given name (and line), as for a file.
  try {
    rfk::host::ParseDataset("1 2:x\n", "mem.svm");
    FAIL("no error");
  } catch (const DataError& e) {
    CHECK(std::string(e.what()) == "mem.svm:1: bad feature value in '2:x'");
  }
  try {
    rfk::host::ParseDataset(images, "x", {}, Idx(0x08, {3}, std::string{4, 5, 6}));
    FAIL("no error");
  } catch (const DataError& e) {
    CHECK(std::string(e.what()) == "x (labels): 3 labels, but x has 2 records");
  }
}

TEST_CASE("data: long lines and binary garbage never crash") {
  TempDir dir;
  // One LIBSVM row of ~1.5M features (about 13 MB), spanning many read chunks.
  std::string big = "1";
  const std::uint32_t n = 1500000;
  for (std::uint32_t i = 1; i <= n; ++i) big += " " + std::to_string(i) + ":1";
  big += "\n-1 1:2\n";
  const Dataset ds = ReadDataset(dir.Gz("big.svm.gz", big));
  CHECK(ds.rows == 2);
  CHECK(ds.cols == n);
  CHECK(ds.row_ptr == std::vector<std::uint64_t>{0, n, n + 1});
  CHECK(ds.lines == std::vector<std::uint64_t>{1, 2});

  // A 10 MB CSV line of junk: rejected with a message, not a crash.
  const std::string junk = dir.Plain("junk.csv", "1,2\n" + std::string(10 << 20, 'z') + "\n");
  CHECK_ERROR(junk, ReadOptions(), junk + ":2: ", "expected 2 fields, got 1");

  std::mt19937 gen(12345);
  for (int round = 0; round < 40; ++round) {
    std::string bytes(static_cast<std::size_t>(gen() % 5000), '\0');
    for (char& c : bytes) c = static_cast<char>(gen() & 0xff);
    if (round % 4 == 1) bytes.insert(0, std::string("\0\0\x08\x03", 4));  // idx-like magic
    if (round % 4 == 2) bytes.insert(0, "1 2:3\n");                      // libsvm-like start
    if (round % 4 == 3) bytes.insert(0, "1,2,3\n");                      // csv-like start
    const std::string p = round % 2 ? dir.Gz("garbage.gz", bytes) : dir.Plain("garbage", bytes);
    for (const DataFormat f : {DataFormat::kAuto, DataFormat::kLibsvm, DataFormat::kCsv, DataFormat::kIdx}) {
      try {
        ReadDataset(p, Format(f));
      } catch (const DataError& e) {
        CHECK(StartsWith(e.what(), p));
      }
    }
  }
}

TEST_CASE("data: concurrent reads") {
  TempDir dir;
  std::string text;
  for (int i = 0; i < 5000; ++i) text += std::to_string(i % 7) + "," + std::to_string(i) + ",0.5\n";
  const std::string p = dir.Gz("c.csv.gz", text);
  std::vector<std::size_t> rows(4, 0);
  std::vector<std::thread> threads;
  for (std::size_t t = 0; t < rows.size(); ++t) {
    threads.emplace_back([&rows, &p, t] { rows[t] = ReadDataset(p).rows; });
  }
  for (std::thread& t : threads) t.join();
  CHECK(rows == std::vector<std::size_t>(4, 5000));
}

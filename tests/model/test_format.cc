// The format's tables (include/rfk/format.hpp) against what follows them: docs/FORMAT.md, the
// reader's statuses for every enum value, the writer's flags and sizes, the validators' order, and
// the bounds-checked BlobView on truncated and garbage bytes.
#include <doctest/doctest.h>

#include <cctype>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "rfk/blob_view.hpp"
#include "rfk/format.hpp"
#include "rfk/host/model_writer.hpp"
#include "rfk/host/train.hpp"
#include "rfk/model.hpp"
#include "test_util.h"

namespace {

namespace f = rfk::format;
using rfk::Status;

std::string Source(const std::string& relative) {
  return rfk_test::ReadText(std::string(RFK_SOURCE_DIR) + "/" + relative);
}

// The first line of FORMAT.md that starts with `prefix`, or "".
std::string DocRow(const std::string& doc, const std::string& prefix) {
  std::istringstream in(doc);
  for (std::string line; std::getline(in, line);)
    if (line.rfind(prefix, 0) == 0) return line;
  return "";
}

// The cells of a Markdown table row "| a | b | c |" -> {"a", "b", "c"}.
std::vector<std::string> Cells(const std::string& row) {
  std::vector<std::string> out;
  std::size_t at = row.find('|');
  while (at != std::string::npos) {
    const std::size_t next = row.find('|', at + 1);
    if (next == std::string::npos) break;
    std::string cell = row.substr(at + 1, next - at - 1);
    cell.erase(0, cell.find_first_not_of(' '));
    cell.erase(cell.find_last_not_of(' ') + 1);
    out.push_back(cell);
    at = next;
  }
  return out;
}

// Every "N `name`" in `text` (a number, a space, a backquoted name of [a-z0-9-]).
// (Parsed by hand: GCC 12's -Wmaybe-uninitialized trips over std::regex under the asan preset.)
std::set<std::string> NumberedNames(const std::string& text) {
  const auto digit = [](char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; };
  const auto name_char = [&](char c) { return std::islower(static_cast<unsigned char>(c)) || digit(c) || c == '-'; };
  std::set<std::string> out;
  for (std::size_t q = text.find(" `"); q != std::string::npos; q = text.find(" `", q + 1)) {
    std::size_t d = q;
    while (d > 0 && digit(text[d - 1])) --d;
    const std::size_t end = text.find('`', q + 2);
    if (d == q || (d > 0 && std::isalpha(static_cast<unsigned char>(text[d - 1]))) || end == std::string::npos) continue;
    const std::string name = text.substr(q + 2, end - q - 2);
    bool plain = !name.empty();
    for (char c : name) plain = plain && name_char(c);
    if (plain) out.insert(text.substr(d, end + 1 - d));
  }
  return out;
}

// Checks that `row` (FORMAT.md's row of an enum field) lists exactly E's values as "N `name`",
// the reserved ones after the word "reserved".
template <class E>
void CheckEnumRow(const std::string& row) {
  REQUIRE_MESSAGE(!row.empty(), "FORMAT.md has no row for this field");
  const std::set<std::string> listed = NumberedNames(row);
  std::set<std::string> want;
  for (const f::EnumValue& v : f::EnumList<E>::kValues) {
    const std::string text = std::to_string(v.number) + " `" + v.name + "`";
    want.insert(text);
    CAPTURE(text);
    const std::size_t at = row.find(text);
    CHECK(at != std::string::npos);
    if (v.support == f::Support::kReserved) CHECK(row.rfind("reserved", at) != std::string::npos);
  }
  CHECK(listed == want);
}

std::string Row(std::uint32_t offset, const char* type, const char* field) {
  return "| " + std::to_string(offset) + " | " + type + " | `" + field + "`";
}

}  // namespace

TEST_CASE("FORMAT.md lists every section of the table: type, name, the writer's flag, fixed size") {
  const std::string doc = Source("docs/FORMAT.md");
  REQUIRE(!doc.empty());
  for (const f::SectionInfo& s : f::kSections) {
    CAPTURE(s.name);
    const std::string row = DocRow(doc, "| " + std::to_string(s.type) + " | `" + s.name + "` |");
    REQUIRE_MESSAGE(!row.empty(), "FORMAT.md's section table has no row for type " << s.type);
    const auto cells = Cells(row);
    REQUIRE(cells.size() == 5);
    CHECK(cells[3] == (s.writer_flag == f::kRequired ? "required" : "optional"));
    if (s.fixed_bytes != f::kVariable) CHECK(cells[4].find(std::to_string(s.fixed_bytes) + " bytes") != std::string::npos);
  }
}

TEST_CASE("input_stats: a host's optional section, outside the core's table, documented with its layout") {
  // Not a row of RFK_FORMAT_SECTIONS: the device core skips it as an unknown optional section.
  CHECK(f::FindSection(f::kInputStatsSection) == nullptr);
  CHECK(std::string(f::SectionName(f::kInputStatsSection)) == "input_stats");
  CHECK((f::kKnownSections >> f::kInputStatsSection & 1u) == 0);
  const std::string doc = Source("docs/FORMAT.md");
  const auto cells = Cells(DocRow(doc, "| " + std::to_string(f::kInputStatsSection) + " | `input_stats` |"));
  REQUIRE(cells.size() == 5);
  CHECK(cells[3] == "optional");
  CHECK(f::input_stats::Bytes(54) == 16 + 8 * 54);
  const std::size_t at = doc.find("### `input_stats`");
  REQUIRE(at != std::string::npos);
  CHECK(!DocRow(doc.substr(at), Row(f::input_stats::kCount, "u32", "count")).empty());
  CHECK(!DocRow(doc.substr(at), "| " + std::to_string(f::input_stats::kHeaderBytes) + " | f32[d] | `mean` |").empty());
}

TEST_CASE("FORMAT.md lists every enum value of the tables with its number and name") {
  const std::string doc = Source("docs/FORMAT.md");
  CheckEnumRow<f::MapKind>(DocRow(doc, Row(f::map_params::kMapKind, "u32", "map_kind")));
  CheckEnumRow<f::Kernel>(DocRow(doc, Row(f::map_params::kKernel, "u32", "kernel")));
  CheckEnumRow<f::Storage>(DocRow(doc, Row(f::map_params::kStorage, "u32", "storage")));
  CheckEnumRow<f::Layout>(DocRow(doc, Row(f::map_params::kLayout, "u32", "layout")));
  CheckEnumRow<f::BinMode>(DocRow(doc, Row(f::binning_params::kMode, "u32", "mode")));
  CheckEnumRow<f::Task>(DocRow(doc, Row(f::head::kTask, "u32", "task")));
  CheckEnumRow<f::ImputeMethod>(DocRow(doc, Row(f::impute::kMethod, "u32", "method")));
  // The calibration section's method row is the second "| 0 | u32 | `method`" row: after its heading.
  const std::size_t cal = doc.find("### `calibration`");
  REQUIRE(cal != std::string::npos);
  CheckEnumRow<f::CalibrationMethod>(DocRow(doc.substr(cal), Row(f::calibration::kMethod, "u32", "method")));
}

TEST_CASE("FORMAT.md's quantized storage table: each storage's matrices, element bytes and row scales") {
  const std::string doc = Source("docs/FORMAT.md");
  const std::size_t at = doc.find("### Quantized storage");
  REQUIRE(at != std::string::npos);
  unsigned rows = 0;
  for (const f::EnumValue& v : f::EnumList<f::Storage>::kValues) {
    if (v.support != f::Support::kSupported) continue;
    CAPTURE(v.name);
    const auto s = static_cast<f::Storage>(v.number);
    const auto cells = Cells(DocRow(doc.substr(at), std::string("| `") + v.name + "` |"));
    REQUIRE(cells.size() == 5);
    ++rows;
    std::string holds;
    const std::pair<f::StorageUse, const char*> uses[] = {
        {f::kForW, "W"}, {f::kForHead, "head"}, {f::kForStandardize, "standardize"}};
    for (const auto& [use, name] : uses)
      if (f::StorageFor(s, use)) holds += std::string(holds.empty() ? "" : ", ") + name;
    CHECK(cells[1] == holds);
    CHECK(cells[3] == std::to_string(f::ElementBytes(s)));
    CHECK((cells[4].find("`scale[rows]`") != std::string::npos) == f::HasRowScales(s));
  }
  CHECK(rows == f::BitCount(f::EnumList<f::Storage>::kSupported));
}

TEST_CASE("FORMAT.md names OpenModel's validators in the order it runs them") {
  const std::string code = Source("lib/core/model_open.cc"), doc = Source("docs/FORMAT.md");
  const std::size_t open = code.find("const bool ok = "), end = code.find(';', open);
  REQUIRE(open != std::string::npos);
  std::vector<std::string> in_code, in_doc;
  const std::string chain = code.substr(open, end - open);  // "Check...(r, size) && Read...(r) && ..."
  const auto ident = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
  for (std::size_t at = chain.find("(r"); at != std::string::npos; at = chain.find("(r", at + 1)) {
    std::size_t b = at;
    while (b > 0 && ident(chain[b - 1])) --b;
    in_code.push_back(chain.substr(b, at - b));
  }
  const std::size_t section = doc.find("## Limits and checks, in the order a reader applies them");
  REQUIRE(section != std::string::npos);
  std::istringstream list(doc.substr(section, doc.find("\n## ", section + 1) - section));
  for (std::string line; std::getline(list, line);) {  // "3. `CheckMapParams`: ..."
    const std::size_t dot = line.find(". `");
    if (dot == 0 || dot == std::string::npos || line.find_first_not_of("0123456789") != dot) continue;
    in_doc.push_back(line.substr(dot + 3, line.find('`', dot + 3) - dot - 3));
  }
  CHECK(in_code.size() >= 10);
  CHECK(in_doc == in_code);
}

TEST_CASE("the table's enum checks: supported, reserved and unknown numbers") {
  CHECK(f::SupportOf<f::MapKind>(1) == f::Support::kSupported);
  CHECK(f::SupportOf<f::MapKind>(5) == f::Support::kReserved);
  CHECK(f::SupportOf<f::Storage>(2) == f::Support::kSupported);  // f16
  CHECK(f::SupportOf<f::Storage>(3) == f::Support::kSupported);  // int8
  CHECK(f::SupportOf<f::Storage>(4) == f::Support::kReserved);   // seed
  // The first number past the table's kinds (computed: a new map kind does not touch this test).
  std::uint32_t past = 0;
  while ((f::EnumList<f::MapKind>::kKnown >> past) != 0) ++past;
  REQUIRE(past < 31);
  for (std::uint32_t n : {0u, past, 31u, 32u, 0xFFFFFFFFu}) CHECK(f::SupportOf<f::MapKind>(n) == f::Support::kUnknown);
  CHECK(std::string(f::NameOf(f::MapKind::kFourierPhase)) == "fourier-phase");
  CHECK(std::string(f::NameOf(static_cast<f::Task>(9))) == "unknown");
  CHECK(std::string(f::SectionName(8)) == "binning_params");
  CHECK(std::string(f::SectionName(17)) == "unknown");
}

namespace {

// A small trained model: Fourier (pair form), three classes, standardised.
std::vector<std::uint8_t> Model() {
  rfk::host::Dataset ds;
  ds.source = "t";
  ds.cols = 2;
  for (int i = 0; i < 60; ++i) {
    ds.dense.push_back(float(i % 3) + 0.01f * float(i));
    ds.dense.push_back(float(i % 5));
    ds.labels.push_back(std::to_string(i % 3));
    ds.lines.push_back(std::size_t(i) + 1);
    ++ds.rows;
  }
  rfk::host::TrainOptions o;
  o.features = 32;
  return rfk::host::Train(ds, o).model;
}

// OpenModel's verdict with the u32 at `field` of the map_params section set to `value`.
rfk::ModelError WithMapField(const std::vector<std::uint8_t>& bytes, std::uint32_t field, std::uint32_t value) {
  rfk_test::Blob b(bytes);
  b.SetU32(b.U32(b.Entry(f::SectionType::kMapParams) + f::entry::kOffset) + field, value);
  b.FixCrc();
  rfk::ModelError err;
  (void)b.Open(nullptr, &err);
  return err;
}

}  // namespace

TEST_CASE("every enum value of map_params gets the status its table row gives it") {
  const auto bytes = Model();
  const rfk_test::Blob blob(bytes);
  const std::uint32_t section = blob.U32(blob.Entry(f::SectionType::kMapParams) + f::entry::kOffset);
  struct Field {
    std::uint32_t at;
    const char* name;
    f::Support (*support)(std::uint32_t);
    Status reserved, unknown;
  };
  namespace mp = f::map_params;
  const Field fields[] = {
      {mp::kMapKind, "map_params.map_kind", f::SupportOf<f::MapKind>, Status::kUnsupportedMap, Status::kBadValue},
      {mp::kKernel, "map_params.kernel", f::SupportOf<f::Kernel>, Status::kBadValue, Status::kBadValue},
      {mp::kStorage, "map_params.storage", f::SupportOf<f::Storage>, Status::kUnsupportedStorage, Status::kBadValue},
      {mp::kLayout, "map_params.layout", f::SupportOf<f::Layout>, Status::kUnsupportedStorage,
       Status::kUnsupportedStorage}};
  for (const Field& fd : fields) {
    for (std::uint32_t n = 0; n < 40; ++n) {
      CAPTURE(fd.name);
      CAPTURE(n);
      const rfk::ModelError err = WithMapField(bytes, fd.at, n);
      if (fd.at == mp::kStorage && fd.support(n) == f::Support::kSupported &&
          !f::StorageFor(static_cast<f::Storage>(n), f::kForW)) {  // f16-scaled: a head's only
        CHECK(err.status == Status::kUnsupportedStorage);
        CHECK(std::string(err.field) == fd.name);
        CHECK(err.offset == section + fd.at);
        continue;
      }
      switch (fd.support(n)) {
        case f::Support::kSupported:  // may fail later (e.g. the phase form without b), not here
          CHECK(std::string(err.field) != fd.name);
          break;
        case f::Support::kReserved:
        case f::Support::kUnknown:
          CHECK(err.status == (fd.support(n) == f::Support::kReserved ? fd.reserved : fd.unknown));
          CHECK(std::string(err.field) == fd.name);
          CHECK(err.offset == section + fd.at);
          break;
      }
    }
  }
}

TEST_CASE("the writer sets each section's flag and fixed size from the table") {
  rfk_test::Blob b(Model());
  const rfk::BlobView v(b.data(), b.size());
  REQUIRE(v.table_readable());
  std::set<std::uint16_t> seen;
  for (std::uint32_t i = 0; i < v.section_count().value; ++i) {
    const rfk::SectionEntryView e = v.Entry(i);
    const f::SectionInfo* info = f::FindSection(e.type.value);
    REQUIRE(info != nullptr);
    CAPTURE(info->name);
    CHECK(e.flags.value == info->writer_flag);
    if (info->fixed_bytes != f::kVariable) CHECK(e.size.value == info->fixed_bytes);
    seen.insert(e.type.value);
  }
  CHECK(seen.count(static_cast<std::uint16_t>(f::SectionType::kMetadata)) == 1);
  CHECK(seen.count(static_cast<std::uint16_t>(f::SectionType::kMapParams)) == 1);
}

TEST_CASE("BlobView reads what lies in the buffer, and says so, on every prefix of a model") {
  const auto bytes = Model();
  rfk_test::Blob full(bytes);
  const rfk::BlobView whole(full.data(), full.size());
  REQUIRE(whole.CheckCrc() == rfk::CrcCheck::kOk);
  REQUIRE(whole.table_readable());
  const std::uint32_t count = whole.section_count().value;
  for (std::size_t n = 0; n <= full.size(); ++n) {
    CAPTURE(n);
    const rfk::BlobView v(full.data(), n);
    CHECK(v.magic_bytes() == std::min<std::size_t>(n, 4));
    CHECK(v.magic_ok() == (n >= 4));
    const auto check = [&](auto field, auto want, std::size_t end) {
      CHECK(field.readable == (n >= end));
      CHECK(field.value == (n >= end ? want : 0));
    };
    check(v.version_major(), whole.version_major().value, 6);
    check(v.total_bytes(), whole.total_bytes().value, 12);
    check(v.section_table(), whole.section_table().value, 28);
    check(v.flags(), whole.flags().value, 32);
    const std::size_t table_end = whole.section_table().value + std::size_t{count} * f::kSectionEntryBytes;
    CHECK(v.table_readable() == (n >= table_end));
    const rfk::SectionEntryView last = v.Entry(count - 1);
    check(last.size, whole.Entry(count - 1).size.value, table_end - 4);
    CHECK(v.CheckCrc() == (n == full.size() ? rfk::CrcCheck::kOk : rfk::CrcCheck::kUnverifiable));
  }
  full.data()[full.size() - 1] ^= 1;
  CHECK(whole.CheckCrc() == rfk::CrcCheck::kMismatch);
}

TEST_CASE("BlobView on null, garbage and absurd tables reads nothing beyond the buffer") {
  const rfk::BlobView none(nullptr, 100);
  CHECK(none.size() == 0);
  CHECK_FALSE(none.crc32().readable);
  CHECK(none.CheckCrc() == rfk::CrcCheck::kUnverifiable);
  rfk::host::AlignedBytes junk(64);
  for (std::size_t i = 0; i < junk.size(); ++i) junk.data()[i] = static_cast<std::uint8_t>(0xF0 + i);
  const rfk::BlobView v(junk.data(), junk.size());
  CHECK_FALSE(v.magic_ok());
  CHECK_FALSE(v.table_readable());  // section_count 0xFFFEFDFC-ish
  const rfk::SectionEntryView e = v.Entry(3);  // table offset far beyond 64 bytes
  CHECK_FALSE(e.type.readable);
  CHECK_FALSE(e.storage.readable);
  CHECK(e.offset.value == 0);
}

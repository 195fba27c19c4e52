// The CLI suites' shared fixture (test_cli_data.cc, test_cli_tables.cc): a three-class table of
// 150 rows written as CSV in whatever layout a test needs, trained on with a fixed gamma and lambda.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "test_util.h"

namespace rfk_test::cli_fixture {

inline std::string Cli() { return RFK_CLI; }

inline bool Has(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

inline double JsonNumber(const std::string& json, const std::string& key) {
  const auto at = json.find("\"" + key + "\": ");
  if (at == std::string::npos) return NAN;
  return std::strtod(json.c_str() + at + key.size() + 4, nullptr);
}

// 150 rows of three classes a, b, c (50 each, in turn) separated along x1 and x3; x2 is noise.
struct Row {
  std::string x1, x2, x3, label;
};
inline std::vector<Row> Rows() {
  std::vector<Row> rows;
  std::uint64_t s = 5;
  const auto noise = [&s] {
    s = s * 6364136223846793005ull + 1442695040888963407ull;
    return static_cast<double>(s >> 40) / static_cast<double>(1ull << 24) - 0.5;  // [-0.5, 0.5)
  };
  for (int i = 0; i < 150; ++i) {
    const int c = i % 3;
    char b[3][32];
    std::snprintf(b[0], sizeof b[0], "%.3f", c + 0.8 * noise());
    std::snprintf(b[1], sizeof b[1], "%.3f", 2 * noise());
    std::snprintf(b[2], sizeof b[2], "%.3f", 0.5 * c + 0.6 * noise());
    rows.push_back({b[0], b[1], b[2], std::string(1, static_cast<char>('a' + c))});
  }
  return rows;
}

// The rows as CSV: `header` (empty: none), then `line(i, row)` for each.
template <class Line>
std::string Csv(const std::string& header, Line line) {
  std::string out = header.empty() ? "" : header + "\n";
  const std::vector<Row> rows = Rows();
  for (std::size_t i = 0; i < rows.size(); ++i) out += line(i, rows[i]) + "\n";
  return out;
}

inline std::string Plain(std::size_t, const Row& r) { return r.x1 + "," + r.x2 + "," + r.x3 + "," + r.label; }

struct Fixture {
  rfk_test::TempDir tmp;
  std::string Write(const std::string& name, const std::string& text) {
    rfk_test::WriteText(tmp.Path(name), text);
    return tmp.Path(name);
  }
  // rfk train on `file` with `args` into name.rfk (fixed gamma and lambda: a given model).
  rfk_test::CommandResult Train(const std::string& file, const std::string& name, const std::string& args = "") {
    return rfk_test::Run(Cli() + " train --train " + file + " -D 64 --gamma 0.5 --lambda 1e-3 " + args + " -o " +
                         tmp.Path(name + ".rfk"));
  }
  std::string Model(const std::string& name) { return tmp.Path(name + ".rfk"); }
};


}  // namespace rfk_test::cli_fixture

// Distributed training's shares of the rows (lib/host/row_source.h RankRange, RankRows): the ranks'
// shares are the data's rows once each, with their global indices, and the blocks a pass cuts from
// them are the blocks one process cuts -- the property that makes a P-rank model's statistics the
// same block sums as the one-process model's (docs/PERFORMANCE.md, "Training with MPI"). The
// ranks themselves (MPI) are tested end to end by tests/mpi_train.py (ctest mpi_train).
#include <doctest/doctest.h>

#include <cstdio>
#include <string>
#include <tuple>
#include <vector>

#include "gram.h"
#include "row_source.h"
#include "test_util.h"

namespace {

using rfk::host::Dataset;
using rfk::host::FileSource;
using rfk::host::kGramRows;
using rfk::host::RankRange;
using rfk::host::RankRows;
using rfk::host::RowBlocks;
using rfk::host::RowSource;

// n rows of d values (LIBSVM: every third entry left out), labels 0/1.
std::string Text(std::size_t n, std::size_t d, bool libsvm) {
  std::string t;
  char buf[64];
  for (std::size_t i = 0; i < n; ++i) {
    t += std::to_string(i % 2);
    for (std::size_t j = 0; j < d; ++j) {
      const double v = static_cast<double>((i * 7 + j * 13) % 101) / 17.0;
      if (libsvm && (i + j) % 3 == 0) continue;
      if (libsvm) std::snprintf(buf, sizeof buf, " %zu:%.4g", j + 1, v);
      else std::snprintf(buf, sizeof buf, ",%.4g", v);
      t += buf;
    }
    t += "\n";
  }
  return t;
}

// A block as a pass sees it: its group, its rows' global indices, and their values densely.
using Block = std::tuple<std::size_t, std::vector<std::uint32_t>, std::vector<float>>;

// Groups like folds and a strided sample together: row r in group r % 3, rows r % 5 == 4 in none.
std::vector<Block> Blocks(RowSource& source) {
  std::vector<Block> out;
  const std::size_t d = source.meta().cols;
  RowBlocks(3, kGramRows)
      .Run(source, [](std::size_t r) { return r % 5 == 4 ? -1 : static_cast<int>(r % 3); },
           [&](std::size_t g, const Dataset& block, const std::uint32_t* rows, std::size_t R) {
             std::vector<float> x(R * d);
             for (std::size_t r = 0; r < R; ++r) rfk::host::DenseRow(block, r, x.data() + r * d, d);
             out.emplace_back(g, std::vector<std::uint32_t>(rows, rows + R), std::move(x));
           });
  return out;
}

void CheckShares(const std::string& path) {
  FileSource source(path, {}, 5000);  // small chunks: their ends fall inside the ranks' shares
  const std::size_t n = source.meta().rows;
  const std::vector<Block> whole = Blocks(source);
  for (int P = 1; P <= 5; ++P) {
    CAPTURE(P);
    std::vector<Block> joined;
    std::size_t next = 0;
    for (int r = 0; r < P; ++r) {
      const auto [begin, end] = RankRange(n, r, P, kGramRows);
      CHECK(begin == next);
      CHECK(begin % kGramRows == 0);
      next = end;
      RankRows share(source, begin, end);
      CHECK(share.meta().rows == n);  // the whole data's description
      std::size_t expect = begin;
      share.ForEach([&](std::size_t first, const Dataset& chunk) {
        CHECK(first == expect);
        CHECK(chunk.labels.size() == chunk.rows);
        expect = first + chunk.rows;
      });
      CHECK(expect == (begin < end ? end : begin));
      const std::vector<Block> part = Blocks(share);
      joined.insert(joined.end(), part.begin(), part.end());
    }
    CHECK(next == n);
    CHECK(joined == whole);
  }
}

}  // namespace

TEST_CASE("ranks: shares cover the rows once in whole blocks and cut the blocks of one process") {
  const rfk_test::TempDir dir;
  const std::string csv = dir.Path("d.csv"), svm = dir.Path("d.svm");
  rfk_test::WriteText(csv, Text(3 * kGramRows + 777, 4, false));
  rfk_test::WriteText(svm, Text(3 * kGramRows + 777, 6, true));
  CheckShares(csv);
  CheckShares(svm);
}

TEST_CASE("ranks: RankRange splits whole blocks evenly and may leave small data's ranks without rows") {
  CHECK(RankRange(10 * kGramRows, 0, 4, kGramRows) == std::make_pair(std::size_t{0}, 2 * kGramRows));
  CHECK(RankRange(10 * kGramRows, 1, 4, kGramRows) == std::make_pair(2 * kGramRows, 5 * kGramRows));
  CHECK(RankRange(10 * kGramRows + 1, 3, 4, kGramRows) == std::make_pair(8 * kGramRows, 10 * kGramRows + 1));
  CHECK(RankRange(100, 0, 3, kGramRows) == std::make_pair(std::size_t{0}, std::size_t{0}));
  CHECK(RankRange(100, 2, 3, kGramRows) == std::make_pair(std::size_t{0}, std::size_t{100}));
}

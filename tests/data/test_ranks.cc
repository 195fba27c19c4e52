// Distributed training's shares of the rows (lib/host/data/row_source.h RankRange, RankRows): the ranks'
// shares are the data's rows once each, with their global indices, and the blocks a pass cuts from
// them are the blocks one process cuts -- the property that makes a P-rank model's statistics the
// same block sums as the one-process model's (docs/PERFORMANCE.md, "Training with MPI"). The
// ranks themselves (MPI) are tested end to end by tests/mpi_train.py (ctest mpi_train).
#include <doctest/doctest.h>

#include <cstdio>
#include <string>
#include <tuple>
#include <vector>

#include "training/gram.h"
#include "data/row_source.h"
#include "test_util.h"

namespace {

using rfk::host::Dataset;
using rfk::host::FileSource;
using rfk::host::DatasetSource;
using rfk::host::kGramRows;
using rfk::host::kGramWindow;
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
  RowBlocks(3, kGramWindow, kGramRows)
      .Run(source, [](std::size_t r) { return r % 5 == 4 ? -1 : static_cast<int>(r % 3); },
           [&](std::size_t g, const Dataset& block, const std::uint32_t* local, const std::uint32_t* rows, std::size_t R) {
             std::vector<float> x(R * d);
             for (std::size_t r = 0; r < R; ++r) rfk::host::DenseRow(block, local[r], x.data() + r * d, d);
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
      const auto [begin, end] = RankRange(n, r, P, kGramWindow);
      CHECK(begin == next);
      CHECK(begin % kGramWindow == 0);
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

TEST_CASE("ranks: shares cover the rows once in whole windows and cut the blocks of one process") {
  const rfk_test::TempDir dir;
  const std::string csv = dir.Path("d.csv"), svm = dir.Path("d.svm");
  rfk_test::WriteText(csv, Text(3 * kGramWindow + 777, 4, false));
  rfk_test::WriteText(svm, Text(3 * kGramWindow + 777, 6, true));
  CheckShares(csv);
  CheckShares(svm);
}

TEST_CASE("ranks: a group's rows in a window are cut into the fewest blocks of at most kGramRows, evenly") {
  // One group: full windows are three blocks of 1920 rows; the last window's 4097 rows three
  // blocks of 1366, 1366 and 1365. Three groups, a third of the rows each: one block per group and
  // window.
  Dataset data;
  data.cols = 1;
  data.rows = 2 * kGramWindow + 4097;
  data.dense.resize(data.rows);
  for (std::size_t r = 0; r < data.rows; ++r) data.dense[r] = static_cast<float>(r);  // exact below 2^24
  DatasetSource source(data);
  const auto cut = [&](std::size_t groups) {
    std::vector<std::tuple<std::size_t, std::size_t, std::size_t>> blocks;  // group, first global row, rows
    RowBlocks(groups, kGramWindow, kGramRows)
        .Run(source, [groups](std::size_t r) { return static_cast<int>(r % groups); },
             [&](std::size_t g, const Dataset& rows, const std::uint32_t* local, const std::uint32_t* global, std::size_t R) {
               for (std::size_t r = 0; r < R; ++r) {  // the block's rows, in order, hold their values
                 CHECK(local[r] < rows.rows);
                 if (r > 0) CHECK(global[r] > global[r - 1]);
                 CHECK(rows.dense[local[r]] == static_cast<float>(global[r]));
               }
               blocks.emplace_back(g, global[0], R);
             });
    return blocks;
  };
  std::vector<std::tuple<std::size_t, std::size_t, std::size_t>> one;
  for (std::size_t b = 0; b < 6; ++b) one.emplace_back(0, b * 1920, 1920);
  one.emplace_back(0, 2 * kGramWindow, 1366);
  one.emplace_back(0, 2 * kGramWindow + 1366, 1366);
  one.emplace_back(0, 2 * kGramWindow + 2732, 1365);
  CHECK(cut(1) == one);
  const auto three = cut(3);
  REQUIRE(three.size() == 9);
  for (std::size_t b = 0; b < 9; ++b) {
    const std::size_t window = b / 3, g = b % 3;
    CHECK(std::get<0>(three[b]) == g);
    CHECK(std::get<1>(three[b]) == window * kGramWindow + g);
    CHECK(std::get<2>(three[b]) == (window < 2 ? 1920 : (g < 2 ? 1366 : 1365)));
  }
}

TEST_CASE("ranks: RankRange splits whole windows evenly and may leave small data's ranks without rows") {
  CHECK(RankRange(10 * kGramWindow, 0, 4, kGramWindow) == std::make_pair(std::size_t{0}, 2 * kGramWindow));
  CHECK(RankRange(10 * kGramWindow, 1, 4, kGramWindow) == std::make_pair(2 * kGramWindow, 5 * kGramWindow));
  CHECK(RankRange(10 * kGramWindow + 1, 3, 4, kGramWindow) == std::make_pair(8 * kGramWindow, 10 * kGramWindow + 1));
  CHECK(RankRange(100, 0, 3, kGramWindow) == std::make_pair(std::size_t{0}, std::size_t{0}));
  CHECK(RankRange(100, 2, 3, kGramWindow) == std::make_pair(std::size_t{0}, std::size_t{100}));
}

TEST_CASE("ranks: a strided sample's rows regrouped per window and group and cut by CutBlocks are the sample pass's blocks") {
  // FourierDesign keeps the calibration sample's features from the fit's pass, whose blocks are
  // cut from all of a fold's rows, and scores them in the blocks a pass over the sample alone would
  // cut: per (window, fold) the kept rows joined, then CutBlocks. Small windows (60 rows, blocks of
  // at most 8) and uneven groups (group 0 holds about half the rows) so that groups take several
  // blocks per window in both passes; stride 3; groups 0 and 1 sampled, group 2 not.
  Dataset data;
  data.cols = 1;
  data.rows = 1000;
  data.dense.resize(data.rows);
  for (std::size_t r = 0; r < data.rows; ++r) data.dense[r] = static_cast<float>(r);
  DatasetSource source(data);
  const std::size_t window = 60, max_rows = 8, stride = 3;
  const auto group = [](std::size_t r) { return static_cast<int>((r * 2654435761u >> 7) % 4 % 3); };  // 0 twice as often
  using Cut = std::vector<std::pair<std::size_t, std::vector<std::uint32_t>>>;  // (group, global rows) per block
  Cut sample_pass;
  RowBlocks(2, window, max_rows)
      .Run(source, [&](std::size_t r) { return r % stride == 0 && group(r) < 2 ? group(r) : -1; },
           [&](std::size_t g, const Dataset&, const std::uint32_t*, const std::uint32_t* rows, std::size_t R) {
             sample_pass.emplace_back(g, std::vector<std::uint32_t>(rows, rows + R));
           });
  struct Kept {
    std::size_t g, window;
    std::vector<std::uint32_t> rows;
  };
  std::vector<Kept> kept;
  std::size_t split = 0;  // fit blocks that a group's rows in one window needed beyond the first
  RowBlocks(3, window, max_rows)
      .Run(source, [&](std::size_t r) { return group(r); },
           [&](std::size_t g, const Dataset&, const std::uint32_t*, const std::uint32_t* rows, std::size_t R) {
             std::vector<std::uint32_t> s;
             for (std::size_t r = 0; r < R; ++r)
               if (rows[r] % stride == 0) s.push_back(rows[r]);
             if (g >= 2 || s.empty()) return;
             const std::size_t w = s.back() / window;
             if (!kept.empty() && kept.back().g == g && kept.back().window == w) {
               kept.back().rows.insert(kept.back().rows.end(), s.begin(), s.end());
               ++split;
             } else {
               kept.push_back({g, w, s});
             }
           });
  Cut regrouped;
  for (const Kept& k : kept)
    rfk::host::CutBlocks(k.rows.size(), max_rows, [&](std::size_t first, std::size_t R) {
      regrouped.emplace_back(k.g, std::vector<std::uint32_t>(k.rows.begin() + first, k.rows.begin() + first + R));
    });
  CHECK(split > 10);  // the case at issue: fit blocks joined before they are cut again
  CHECK(sample_pass.size() > kept.size());  // and some joined groups cut into several blocks
  CHECK(regrouped == sample_pass);
}

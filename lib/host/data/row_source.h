// The training rows as the pipeline reads them: a source of chunks of consecutive rows with their
// global row indices -- the whole in-memory Dataset as one chunk, or a file read chunk by chunk
// (ChunkedReader) for data larger than memory. Every pass of training (statistics, selection
// points, the fit, calibration, the training error) is one ForEach over the source, and every
// decision in it is a function of the global row index, never of the chunks: the same options and
// seed give the same model bytes whether the data was in memory or streamed.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "rfk/host/data.hpp"

namespace rfk::host {

class RowSource {
 public:
  virtual ~RowSource() = default;
  // The data without its rows' contents where it is streamed: source, format, rows, cols, sparse,
  // names (in memory: the Dataset itself).
  virtual const Dataset& meta() const = 0;
  // fn(first, chunk) for chunks of consecutive rows covering all rows in order; chunk.cols ==
  // meta().cols. Throws DataError for a file that cannot be read again.
  virtual void ForEach(const std::function<void(std::size_t first, const Dataset& chunk)>& fn) = 0;
  // Streamed from a file: its chunk size in bytes (0: in memory), chunks per pass, and the
  // largest parsed chunk's bytes.
  virtual std::size_t chunk_bytes() const { return 0; }
  virtual std::size_t chunks() const { return 1; }
  virtual double chunk_memory() const { return 0; }
};

// The whole Dataset as one chunk.
class DatasetSource final : public RowSource {
 public:
  explicit DatasetSource(const Dataset& data) : data_(data) {}
  const Dataset& meta() const override { return data_; }
  void ForEach(const std::function<void(std::size_t, const Dataset&)>& fn) override { fn(0, data_); }

 private:
  const Dataset& data_;
};

// A file read in chunks (ChunkedReader).
class FileSource final : public RowSource {
 public:
  FileSource(const std::string& path, const ReadOptions& options, std::size_t chunk_bytes)
      : reader_(path, options, chunk_bytes) {}
  const Dataset& meta() const override { return reader_.meta(); }
  void ForEach(const std::function<void(std::size_t, const Dataset&)>& fn) override { reader_.ForEach(fn); }
  std::size_t chunk_bytes() const override { return reader_.chunk_bytes(); }
  std::size_t chunks() const override { return reader_.chunks(); }
  // The largest parsed chunk, its text (the read buffer, and its copy given to the parser), and
  // zlib's buffer.
  double chunk_memory() const override {
    return reader_.largest_chunk_bytes() + 3.0 * static_cast<double>(reader_.chunk_bytes()) + double(1u << 20);
  }

 private:
  ChunkedReader reader_;
};

// A rank's share of distributed training (rfk/host/ranks.hpp): rows [begin, end) of `source`,
// with their global indices (ForEach's `first`), and meta() the whole data's (rows: all of them),
// so that every decision of a pass stays a function of the global row index. Chunks that straddle
// a boundary are copied in part (rows, labels, lines, weights); the rest are handed on as they are.
class RankRows final : public RowSource {
 public:
  RankRows(RowSource& source, std::size_t begin, std::size_t end) : source_(source), begin_(begin), end_(end) {}
  const Dataset& meta() const override { return source_.meta(); }
  void ForEach(const std::function<void(std::size_t, const Dataset&)>& fn) override;
  std::size_t chunk_bytes() const override { return source_.chunk_bytes(); }
  std::size_t chunks() const override { return source_.chunks(); }
  double chunk_memory() const override { return source_.chunk_memory(); }

 private:
  RowSource& source_;
  std::size_t begin_, end_;
};

// Rank `rank` of `ranks`' rows [begin, end) of n: whole windows of `window_rows` (the trainer
// passes kGramWindow, gram.h: a pass over all rows then cuts the same blocks as one process does),
// split as evenly as they go, in rank order; the last rank's end is n. A rank may get no rows.
std::pair<std::size_t, std::size_t> RankRange(std::size_t n, int rank, int ranks, std::size_t window_rows);

// Rows [begin, end) of `data` (dense or sparse) with their labels, lines and weights.
Dataset SliceRows(const Dataset& data, std::size_t begin, std::size_t end);

// A group's n rows in one window cut into the fewest blocks of at most max_rows rows, as equal as
// they go (the first ones a row longer): fn(first, R) for each block, in order. RowBlocks's rule;
// a caller that regroups a window's rows itself (FourierDesign's kept calibration features) cuts
// them with it into the same blocks.
template <class Fn>
void CutBlocks(std::size_t n, std::size_t max_rows, Fn&& fn) {
  if (n == 0) return;
  const std::size_t blocks = (n + max_rows - 1) / max_rows, base = n / blocks, longer = n % blocks;
  for (std::size_t b = 0, first = 0; b < blocks; ++b) {
    const std::size_t R = base + (b < longer ? 1 : 0);
    fn(first, R);
    first += R;
  }
}

// Rows of a pass routed into groups (cross-validation folds, a sample): the data's global rows are
// cut into windows of `window_rows` consecutive rows, and a group's rows in one window into the
// fewest blocks of at most `max_rows` rows, as equal as they go (the first ones a row longer) --
// the same blocks whatever the chunks, and whatever the ranks when their shares start at window
// boundaries (RankRange), so that sums over blocks (gram.h) depend on neither. RowBlocks::Run
// calls fn(g, rows, local, global, R) for each window's blocks, in window order, in group order
// within a window and in row order within a group, skipping empty ones: `rows` holds the window's
// rows of every group (dense, or sparse like the source), and the block is its rows local[0 .. R)
// (ascending), whose global indices are global[0 .. R). Memory: the rows of one window, kept
// between windows (one allocation for dense rows).
class RowBlocks {
 public:
  using GroupOf = std::function<int(std::size_t row)>;  // the row's group, or < 0 for none
  using BlockFn = std::function<void(std::size_t g, const Dataset& rows, const std::uint32_t* local,
                                     const std::uint32_t* global, std::size_t R)>;
  RowBlocks(std::size_t groups, std::size_t window_rows, std::size_t max_rows)
      : groups_(groups), window_rows_(window_rows), max_rows_(max_rows) {}
  void Run(RowSource& source, const GroupOf& group_of, const BlockFn& fn);

 private:
  void Append(const Dataset& chunk, std::size_t r);  // chunk's row r onto window_
  void Flush(const BlockFn& fn);                       // the window's blocks, then empties it

  std::size_t groups_, window_rows_, max_rows_;
  Dataset window_;                                // the window's rows that have a group, in order
  std::vector<std::vector<std::uint32_t>> local_;   // per group: its rows' indices in window_
  std::vector<std::vector<std::uint32_t>> global_;  // per group: their global indices
};

// The rows `rows` (ascending global indices) as one dense Dataset, in that order: one pass.
Dataset GatherRows(RowSource& source, const std::vector<std::size_t>& rows);

}  // namespace rfk::host

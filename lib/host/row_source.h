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

// Rows of a pass routed into groups (cross-validation folds, a sample): a group's rows, in row
// order, are cut into blocks of `block_rows` -- the same blocks whatever the chunks, so that sums
// over blocks (gram.h) do not depend on them. RowBlocks::Run calls fn(g, block, rows, R) for
// each block as it fills, then for each group's last, partial block in group order: `block` holds
// the block's R rows (dense, or sparse like the source), `rows` their global indices. Memory:
// one block per group.
class RowBlocks {
 public:
  using GroupOf = std::function<int(std::size_t row)>;  // the row's group, or < 0 for none
  using BlockFn = std::function<void(std::size_t g, const Dataset& block, const std::uint32_t* rows, std::size_t R)>;
  RowBlocks(std::size_t groups, std::size_t block_rows) : groups_(groups), block_rows_(block_rows) {}
  void Run(RowSource& source, const GroupOf& group_of, const BlockFn& fn);

 private:
  struct Pending {
    Dataset block;
    std::vector<std::uint32_t> rows;
  };
  void Append(const Dataset& chunk, std::size_t r, Pending* p) const;

  std::size_t groups_, block_rows_;
};

// The rows `rows` (ascending global indices) as one dense Dataset, in that order: one pass.
Dataset GatherRows(RowSource& source, const std::vector<std::size_t>& rows);

}  // namespace rfk::host

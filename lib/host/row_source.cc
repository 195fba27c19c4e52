#include "row_source.h"

#include <algorithm>

namespace rfk::host {

void RowBlocks::Append(const Dataset& chunk, std::size_t r, Pending* p) const {
  Dataset& b = p->block;
  if (chunk.sparse) {
    if (b.row_ptr.empty()) b.row_ptr.push_back(0);
    for (std::uint64_t t = chunk.row_ptr[r]; t < chunk.row_ptr[r + 1]; ++t) {
      b.col_idx.push_back(chunk.col_idx[t]);
      b.values.push_back(chunk.values[t]);
    }
    b.row_ptr.push_back(b.col_idx.size());
  } else {
    const auto* x = chunk.dense.data() + r * chunk.cols;
    b.dense.insert(b.dense.end(), x, x + chunk.cols);
  }
  ++b.rows;
}

void RowBlocks::Run(RowSource& source, const GroupOf& group_of, const BlockFn& fn) {
  std::vector<Pending> pending(groups_);
  const Dataset& meta = source.meta();
  for (Pending& p : pending) {
    p.block.cols = meta.cols;
    p.block.sparse = meta.sparse;
    p.block.source = meta.source;
  }
  auto flush = [&](std::size_t g) {
    Pending& p = pending[g];
    if (p.rows.empty()) return;
    fn(g, p.block, p.rows.data(), p.rows.size());
    p.rows.clear();
    p.block.rows = 0;
    p.block.dense.clear();
    p.block.row_ptr.clear();
    p.block.col_idx.clear();
    p.block.values.clear();
  };
  std::size_t window = 0;  // the window of the rows in the pending blocks
  source.ForEach([&](std::size_t first, const Dataset& chunk) {
    for (std::size_t r = 0; r < chunk.rows; ++r) {
      const std::size_t row = first + r;
      if (row / block_rows_ != window) {
        for (std::size_t g = 0; g < groups_; ++g) flush(g);
        window = row / block_rows_;
      }
      const int g = group_of(row);
      if (g < 0) continue;
      Pending& p = pending[static_cast<std::size_t>(g)];
      Append(chunk, r, &p);
      p.rows.push_back(static_cast<std::uint32_t>(row));
    }
  });
  for (std::size_t g = 0; g < groups_; ++g) flush(g);
}

Dataset GatherRows(RowSource& source, const std::vector<std::size_t>& rows) {
  const std::size_t d = source.meta().cols;
  Dataset out;
  out.source = source.meta().source;
  out.rows = rows.size();
  out.cols = d;
  out.dense.resize(rows.size() * d);
  source.ForEach([&](std::size_t first, const Dataset& chunk) {
    auto it = std::lower_bound(rows.begin(), rows.end(), first);
    for (; it != rows.end() && *it < first + chunk.rows; ++it) {
      const auto q = static_cast<std::size_t>(it - rows.begin());
      DenseRow(chunk, *it - first, out.dense.data() + q * d, d);
    }
  });
  return out;
}

void RankRows::ForEach(const std::function<void(std::size_t, const Dataset&)>& fn) {
  if (begin_ >= end_) return;
  source_.ForEach([&](std::size_t first, const Dataset& chunk) {
    const std::size_t a = std::max(first, begin_), b = std::min(first + chunk.rows, end_);
    if (a >= b) return;
    if (a == first && b == first + chunk.rows) return fn(first, chunk);
    fn(a, SliceRows(chunk, a - first, b - first));
  });
}

std::pair<std::size_t, std::size_t> RankRange(std::size_t n, int rank, int ranks, std::size_t block_rows) {
  const std::size_t blocks = (n + block_rows - 1) / block_rows, P = static_cast<std::size_t>(ranks);
  const auto at = [&](std::size_t r) { return std::min(n, blocks * r / P * block_rows); };
  const auto r = static_cast<std::size_t>(rank);
  return {at(r), r + 1 == P ? n : at(r + 1)};
}

Dataset SliceRows(const Dataset& data, std::size_t begin, std::size_t end) {
  Dataset out;
  out.source = data.source;
  out.format = data.format;
  out.rows = end - begin;
  out.cols = data.cols;
  out.sparse = data.sparse;
  out.has_labels = data.has_labels;
  if (data.sparse) {
    const std::uint64_t t0 = data.row_ptr[begin], t1 = data.row_ptr[end];
    for (std::size_t r = begin; r <= end; ++r) out.row_ptr.push_back(data.row_ptr[r] - t0);
    out.col_idx.assign(data.col_idx.begin() + static_cast<std::ptrdiff_t>(t0), data.col_idx.begin() + static_cast<std::ptrdiff_t>(t1));
    out.values.assign(data.values.begin() + static_cast<std::ptrdiff_t>(t0), data.values.begin() + static_cast<std::ptrdiff_t>(t1));
  } else {
    out.dense.assign(data.dense.begin() + static_cast<std::ptrdiff_t>(begin * data.cols),
                     data.dense.begin() + static_cast<std::ptrdiff_t>(end * data.cols));
  }
  const auto part = [begin, end](const auto& v, auto* o) {
    if (v.size() >= end) o->assign(v.begin() + static_cast<std::ptrdiff_t>(begin), v.begin() + static_cast<std::ptrdiff_t>(end));
  };
  part(data.labels, &out.labels);
  part(data.lines, &out.lines);
  part(data.weights, &out.weights);
  return out;
}

}  // namespace rfk::host

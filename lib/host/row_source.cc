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
  source.ForEach([&](std::size_t first, const Dataset& chunk) {
    for (std::size_t r = 0; r < chunk.rows; ++r) {
      const int g = group_of(first + r);
      if (g < 0) continue;
      Pending& p = pending[static_cast<std::size_t>(g)];
      Append(chunk, r, &p);
      p.rows.push_back(static_cast<std::uint32_t>(first + r));
      if (p.rows.size() == block_rows_) flush(static_cast<std::size_t>(g));
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

}  // namespace rfk::host

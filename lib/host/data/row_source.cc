#include "data/row_source.h"

#include <algorithm>

namespace rfk::host {

void RowBlocks::Append(const Dataset& chunk, std::size_t r) {
  Dataset& w = window_;
  if (chunk.sparse) {
    if (w.row_ptr.empty()) w.row_ptr.push_back(0);
    for (std::uint64_t t = chunk.row_ptr[r]; t < chunk.row_ptr[r + 1]; ++t) {
      w.col_idx.push_back(chunk.col_idx[t]);
      w.values.push_back(chunk.values[t]);
    }
    w.row_ptr.push_back(w.col_idx.size());
  } else {
    const auto* x = chunk.dense.data() + r * chunk.cols;
    w.dense.insert(w.dense.end(), x, x + chunk.cols);
  }
  ++w.rows;
}

void RowBlocks::Flush(const BlockFn& fn) {
  for (std::size_t g = 0; g < groups_; ++g) {
    std::vector<std::uint32_t>& local = local_[g];
    CutBlocks(local.size(), max_rows_, [&](std::size_t first, std::size_t R) {
      fn(g, window_, local.data() + first, global_[g].data() + first, R);
    });
    local.clear();
    global_[g].clear();
  }
  window_.rows = 0;
  window_.dense.clear();
  window_.row_ptr.clear();
  window_.col_idx.clear();
  window_.values.clear();
}

void RowBlocks::Run(RowSource& source, const GroupOf& group_of, const BlockFn& fn) {
  const Dataset& meta = source.meta();
  window_ = Dataset();
  window_.cols = meta.cols;
  window_.sparse = meta.sparse;
  window_.source = meta.source;
  if (!meta.sparse) window_.dense.reserve(std::min(window_rows_, meta.rows) * meta.cols);
  local_.assign(groups_, {});
  global_.assign(groups_, {});
  std::size_t window = 0;  // the window of the rows held
  source.ForEach([&](std::size_t first, const Dataset& chunk) {
    for (std::size_t r = 0; r < chunk.rows; ++r) {
      const std::size_t row = first + r;
      if (row / window_rows_ != window) {
        Flush(fn);
        window = row / window_rows_;
      }
      const int g = group_of(row);
      if (g < 0) continue;
      local_[static_cast<std::size_t>(g)].push_back(static_cast<std::uint32_t>(window_.rows));
      global_[static_cast<std::size_t>(g)].push_back(static_cast<std::uint32_t>(row));
      Append(chunk, r);
    }
  });
  Flush(fn);
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

std::pair<std::size_t, std::size_t> RankRange(std::size_t n, int rank, int ranks, std::size_t window_rows) {
  const std::size_t windows = (n + window_rows - 1) / window_rows, P = static_cast<std::size_t>(ranks);
  const auto at = [&](std::size_t r) { return std::min(n, windows * r / P * window_rows); };
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

#include "maps/bin_features.h"

#include <algorithm>

#include "parallel.h"
#include "maps/random.h"
#include "rfk/format.hpp"
#include "rfk/host/train.hpp"
#include "rfk/kernels.hpp"
#include "training/sparse_ridge.h"
#include "maps/streams.h"

namespace rfk::host {

GridDraws DrawGrids(std::uint32_t P, std::uint32_t d, std::uint64_t seed) {
  GridDraws g;
  g.delta.resize(std::size_t{P} * d);
  g.frac.resize(std::size_t{P} * d);
  for (std::uint32_t p = 0; p < P; ++p) {
    RandomStream rs(seed, kGridStream + p);
    for (std::uint32_t m = 0; m < d; ++m) {
      const double e1 = -PortableLog(rs.Uniform()), e2 = -PortableLog(rs.Uniform());
      g.delta[std::size_t{p} * d + m] = e1 + e2;
      g.frac[std::size_t{p} * d + m] = rs.Uniform();
    }
  }
  return g;
}

Grids GridsAt(const GridDraws& g, double gamma) {
  const double gm = static_cast<float>(gamma);  // the model stores gamma as f32
  Grids out;
  out.inv_width.resize(g.delta.size());
  out.offset.resize(g.delta.size());
  for (std::size_t i = 0; i < g.delta.size(); ++i) {
    out.inv_width[i] = static_cast<float>(gm / g.delta[i]);
    out.offset[i] = static_cast<float>(g.frac[i] * g.delta[i] / gm);
  }
  return out;
}

std::vector<std::uint64_t> ComputeKeys(const Dataset& data, const InputScaling& scaling,
                                       const Grids& grids, std::uint32_t P, std::uint64_t seed,
                                       unsigned threads) {
  const std::size_t n = data.rows;
  const auto d = static_cast<std::uint32_t>(data.cols);
  std::vector<std::uint64_t> keys(std::size_t{P} * n);
  Parallel(threads, [&](unsigned t) {
    std::vector<float> x(d);
    std::vector<std::uint64_t> k(P);
    for (std::size_t i = t; i < n; i += threads) {
      DenseRow(data, i, x.data(), d);
      if (!scaling.empty())
        StandardizeRef(x.data(), scaling.mean.data(), scaling.inv_scale.data(), d, x.data());
      BinKeysRef(grids.inv_width.data(), grids.offset.data(), x.data(), P, d, seed, k.data());
      for (std::uint32_t p = 0; p < P; ++p) keys[std::size_t{p} * n + i] = k[p];
    }
  });
  return keys;
}

namespace {

// Hashed mode: every row's bucket; the buckets the training rows hit, per grid.
void HashedColumns(const std::vector<std::uint64_t>& keys, std::size_t n, std::uint32_t P,
                   const std::vector<std::uint32_t>& train_rows, std::uint32_t buckets,
                   unsigned threads, BinColumns* bc) {
  bc->count = P * buckets;
  Parallel(threads, [&](unsigned t) {
    for (std::uint32_t p = t; p < P; p += threads) {
      std::vector<char> hit(buckets, 0);
      for (std::size_t i = 0; i < n; ++i)
        bc->cols[std::size_t{p} * n + i] = HashedColumn(keys[std::size_t{p} * n + i], p, buckets);
      for (std::uint32_t i : train_rows) hit[bc->cols[std::size_t{p} * n + i] - p * buckets] = 1;
      bc->occupied[p] = static_cast<std::uint32_t>(std::count(hit.begin(), hit.end(), 1));
    }
  });
}

// Exact mode's key table: the distinct keys the training rows occupy, sorted within each grid.
void ExactTable(const std::vector<std::uint64_t>& keys, std::size_t n, std::uint32_t P,
                const std::vector<std::uint32_t>& train_rows, unsigned threads, BinColumns* bc) {
  std::vector<std::vector<std::uint64_t>> per_grid(P);
  Parallel(threads, [&](unsigned t) {
    for (std::uint32_t p = t; p < P; p += threads) {
      auto& k = per_grid[p];
      k.reserve(train_rows.size());
      for (std::uint32_t i : train_rows) k.push_back(keys[std::size_t{p} * n + i]);
      std::sort(k.begin(), k.end());
      k.erase(std::unique(k.begin(), k.end()), k.end());
    }
  });
  bc->grid_start.push_back(0);
  for (std::uint32_t p = 0; p < P; ++p) {
    if (bc->table.size() + per_grid[p].size() > format::kMaxFeatures)
      throw TrainError("the training data occupy more than 2^24 bins; use --bins-per-grid (hashed mode) or fewer --grids");
    bc->table.insert(bc->table.end(), per_grid[p].begin(), per_grid[p].end());
    bc->grid_start.push_back(static_cast<std::uint32_t>(bc->table.size()));
    bc->occupied[p] = static_cast<std::uint32_t>(per_grid[p].size());
  }
  bc->count = bc->grid_start.back();
}

// Exact mode: every row's column, the position of its key in its grid's table (or none).
void ExactColumns(const std::vector<std::uint64_t>& keys, std::size_t n, std::uint32_t P,
                  unsigned threads, BinColumns* bc) {
  Parallel(threads, [&](unsigned t) {
    for (std::uint32_t p = t; p < P; p += threads) {
      const auto b = bc->table.begin() + bc->grid_start[p], e = bc->table.begin() + bc->grid_start[p + 1];
      for (std::size_t i = 0; i < n; ++i) {
        const std::uint64_t key = keys[std::size_t{p} * n + i];
        const auto it = std::lower_bound(b, e, key);
        bc->cols[std::size_t{p} * n + i] =
            it != e && *it == key ? static_cast<std::uint32_t>(it - bc->table.begin()) : kNoBinColumn;
      }
    }
  });
}

}  // namespace

BinColumns BuildColumns(const std::vector<std::uint64_t>& keys, std::size_t n, std::uint32_t P,
                        const std::vector<std::uint32_t>& train_rows, std::uint32_t buckets,
                        unsigned threads) {
  BinColumns bc;
  bc.cols.resize(std::size_t{P} * n);
  bc.occupied.resize(P);
  if (buckets > 0) {
    HashedColumns(keys, n, P, train_rows, buckets, threads, &bc);
  } else {
    ExactTable(keys, n, P, train_rows, threads, &bc);
    ExactColumns(keys, n, P, threads, &bc);
  }
  return bc;
}

}  // namespace rfk::host

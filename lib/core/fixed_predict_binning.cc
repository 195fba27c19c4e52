// The integer path's binning map (format::fixed_params::binning; contract: rfk/fixed.hpp,
// PredictFixed and FixedBinColumn). Its own translation unit behind kFixedBinning (core_config.h):
// a core built without it links none of this. Integer operations only: the bins from
// fixed::BinIndex, the keys from bin_hash's 64-bit integer steps (as the float map's BinKeys), the
// columns as the float path finds them (bin_column.h).
#include "fp_contract.h"  // first, as in every core source
#include "fixed_predict_binning.h"

#include "bin_column.h"
#include "bin_hash.h"
#include "bytes.h"
#include "rfk/fixed.hpp"

namespace rfk {
namespace {

namespace fb = format::fixed_params::binning;

// Grid p's column (within the binning block) for x, or kNoColumn; t is the model's tail.
std::uint32_t GridColumn(const Model& m, const std::uint8_t* sec, const fb::Layout& t, const std::int16_t* x,
                         std::uint32_t p) {
  const std::uint32_t d = m.input_dim;
  // The arrays start 4-aligned in the blob (sections are 16-aligned, the offsets multiples of 4):
  // read in place (LoadU32 is a memcpy call per value on the Cortex-M0).
  const auto* mult = reinterpret_cast<const std::uint16_t*>(sec + t.mult);
  const auto* frac = reinterpret_cast<const std::uint32_t*>(sec + t.frac);
  const auto* base = reinterpret_cast<const std::int32_t*>(sec + t.base);
  std::uint64_t h = bin_hash::Seed(m.bin_seed, p);
  for (std::uint32_t c = 0, i = p * d; c < d; ++c, ++i)
    h = bin_hash::Step(h, fixed::BinIndex(x[c], mult[i], sec[t.shift + i], frac[i], base[i]));
  return core::BinColumn(m, p, bin_hash::Final(h));
}

}  // namespace

std::uint32_t FixedBinColumn(const Model& m, const std::int16_t* x, std::uint32_t p) noexcept {
  const std::uint8_t* sec = FixedSection(m);
  if (sec == nullptr || x == nullptr || p >= m.num_grids) return kNoColumn;
  return GridColumn(m, sec, fixed::BinningLayout(m), x, p);
}

namespace core {

// Bounds: each grid adds one int8 weight per output (|.| <= 127), so |acc[k]| <= 127 P < 2^24
// before the scaling and 127 P 32767 < 2^38 after it; the grids' columns are disjoint ranges of
// the head (hashed: p B + [0, B); exact: [grid_start[p], grid_start[p+1])), so each head weight
// is added at most once and the validator's output bound (sum over every column) covers them.
void AccumulateFixedBins(const Model& m, const std::uint8_t* sec, const std::int16_t* x, std::int64_t* acc) {
  const fb::Layout t = fixed::BinningLayout(m);
  const std::uint32_t K = m.num_outputs, D = m.num_features, Df = m.fourier_features;
  const format::fixed_params::Layout l = format::fixed_params::LayoutOf(m.input_dim, m.num_frequencies, K, D);
  const auto* q = reinterpret_cast<const std::int8_t*>(sec + l.head);
  for (std::uint32_t p = 0; p < m.num_grids; ++p) {
    const std::uint32_t col = GridColumn(m, sec, t, x, p);
    if (col == kNoColumn) continue;
    for (std::uint32_t k = 0; k < K; ++k) acc[k] += q[std::size_t{k} * D + Df + col];
  }
  for (std::uint32_t k = 0; k < K; ++k) acc[k] *= fixed::kCosScale;  // a bin's feature: full scale
}

}  // namespace core
}  // namespace rfk

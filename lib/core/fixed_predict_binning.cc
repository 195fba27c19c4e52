// FixedBinColumn (contract: rfk/fixed.hpp): one grid's column of the integer path's binning map,
// for hosts and tests; PredictFixed runs the map through fixed_predict_binning.h itself.
#include "fp_contract.h"  // first, as in every core source
#include "fixed_predict_binning.h"

namespace rfk {

std::uint32_t FixedBinColumn(const Model& m, const std::int16_t* x, std::uint32_t p) noexcept {
  const std::uint8_t* sec = FixedSection(m);
  if (sec == nullptr || x == nullptr || p >= m.num_grids) return kNoColumn;
  return core::GridColumn(m, sec, fixed::BinningLayout(m), x, p);
}

}  // namespace rfk

// The integer path's binning map (fixed_predict_binning.cc), called by PredictFixed when the build has
// kFixedBinning (core_config.h) and the model has grids. Internal to lib/core.
#pragma once

#include <cstdint>

#include "rfk/model.hpp"

namespace rfk::core {

// acc[k] = 32767 * (sum over grids p of head[k][D_F + column_p]) for the int16 input x, the
// column of grid p's bin key as the float path finds it (none: nothing added); acc holds K zeros
// on entry and |acc[k]| < 2^38 on return. sec is the model's fixed section, which OpenModel
// checked. No allocation; O(P d + P log keys + P K).
void AccumulateFixedBins(const Model& m, const std::uint8_t* sec, const std::int16_t* x, std::int64_t* acc);

}  // namespace rfk::core

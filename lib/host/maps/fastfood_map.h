// Fastfood (fastfood_map.cc): the registry's draw and memory_bytes for --map fastfood and
// fastfood-phase (Gaussian kernel; TrainError for other kernels, naming the valid choices, and for
// inputs wider than format::fastfood::kMaxPaddedDim). A pure function of the seed (block b from
// stream kFastfoodStream + b), never of the thread count.
#pragma once

#include <memory>

#include "maps/fourier_map.h"

namespace rfk::host {

std::unique_ptr<FourierDraws> DrawFastfood(const FourierMapParams& params);
double FastfoodMapBytes(double F, double d);

}  // namespace rfk::host

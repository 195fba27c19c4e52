// The names of kernels, maps and tasks, for options (--kernel, --map) and reports. Moved verbatim
// from the trainer; they may later be derived from the format header's tables.
#include <string>

#include "rfk/format.hpp"
#include "rfk/host/train.hpp"

namespace rfk::host {

using format::Kernel;
using format::MapKind;
using format::Task;

format::Kernel ParseKernel(const std::string& name) {
  if (name == "gaussian" || name == "rbf") return Kernel::kGaussian;
  if (name == "laplacian") return Kernel::kLaplacian;
  if (name == "cauchy") return Kernel::kCauchy;
  throw TrainError("unknown kernel '" + name + "' (expected gaussian, laplacian or cauchy)");
}
format::MapKind ParseMap(const std::string& name) {
  if (name == "fourier") return MapKind::kFourier;
  if (name == "fourier-phase") return MapKind::kFourierPhase;
  throw TrainError("unknown map '" + name + "' (expected fourier or fourier-phase)");
}
const char* KernelName(Kernel k) {
  switch (k) {
    case Kernel::kGaussian: return "gaussian";
    case Kernel::kLaplacian: return "laplacian";
    case Kernel::kCauchy: return "cauchy";
  }
  return "unknown";
}
const char* MapName(MapKind m) {
  switch (m) {
    case MapKind::kFourier: return "fourier";
    case MapKind::kFourierPhase: return "fourier-phase";
    case MapKind::kBinning: return "binning";
    case MapKind::kOrthogonal: return "orthogonal";
    case MapKind::kStructured: return "structured";
  }
  return "unknown";
}
const char* TaskName(Task t) {
  switch (t) {
    case Task::kRegression: return "regression";
    case Task::kBinary: return "binary classification";
    case Task::kMulticlass: return "multi-class classification";
  }
  return "unknown";
}

}  // namespace rfk::host

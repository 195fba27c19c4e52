// The names of kernels, maps and tasks, for options (--kernel, --map) and reports. Moved verbatim
// from the trainer; map names are the format table's.
#include <string>

#include "maps/fourier_map.h"
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
// The Fourier-type maps training can draw (the registry, fourier_map.h), by their format names.
std::string FourierMapNames() {
  std::string names;
  for (const format::EnumValue& v : format::EnumList<MapKind>::kValues)
    if (FindFourierMap(static_cast<MapKind>(v.number)) != nullptr)
      names += (names.empty() ? "" : ", ") + std::string(v.name);
  return names;
}
format::MapKind ParseMap(const std::string& name) {
  for (const format::EnumValue& v : format::EnumList<MapKind>::kValues) {
    const auto map = static_cast<MapKind>(v.number);
    if (FindFourierMap(map) != nullptr && name == v.name) return map;
  }
  throw TrainError("unknown map '" + name + "' (expected " + FourierMapNames() + ")");
}
const char* KernelName(Kernel k) { return format::NameOf(k); }
const char* MapName(MapKind m) { return format::NameOf(m); }
const char* TaskName(Task t) {
  switch (t) {
    case Task::kRegression: return "regression";
    case Task::kBinary: return "binary classification";
    case Task::kMulticlass: return "multi-class classification";
  }
  return "unknown";
}

}  // namespace rfk::host

// ParseTrainSettings: the one reading of training's options, for the CLI and Python alike.
#include "rfk/host/settings.hpp"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <system_error>

#include "rfk/host/quantize.hpp"

namespace rfk::host {

namespace {

// The options whose Python parameter is not the flag's own name with '_' for '-'.
struct Renamed {
  const char* flag;
  const char* python;
};
constexpr Renamed kRenamed[] = {
    {"--lambda", "alpha"}, {"--features", "n_features"}, {"--seed", "random_state"}, {"--folds", "cv"}};

// --map: the Fourier part and whether binning is asked for.
void ParseMaps(const TrainSettings& s, Spelling sp, TrainOptions* opt) {
  std::string fourier_part = s.map;
  bool binning = false;
  if (s.map == "binning") {
    binning = true;
    fourier_part.clear();
  } else if (const auto plus = s.map.find("+binning"); plus != std::string::npos && plus + 8 == s.map.size()) {
    binning = true;
    fourier_part = s.map.substr(0, plus);
  }
  opt->fourier = !fourier_part.empty();
  if (opt->fourier) {
    try {
      opt->map = ParseMap(fourier_part);
    } catch (const TrainError& e) {
      // e names the Fourier maps; each may also be followed by "+binning".
      const std::string what = e.what(), list = what.substr(what.find("(expected ") + 10);
      throw TrainError("unknown " + OptionName("--map", sp) + " '" + s.map + "' (expected binning, or a Fourier map " +
                       "with or without +binning: " + list);
    }
  }
  opt->kernel = ParseKernel(s.kernel);
  if (!opt->fourier && s.kernel_given && opt->kernel != format::Kernel::kLaplacian)
    throw TrainError(OptionGiven("--map", "binning", sp) + " approximates the laplacian kernel; " +
                     OptionGiven("--kernel", s.kernel, sp) + " applies to Fourier maps only");
  if (binning) {
    if (s.grids == 0) throw TrainError(OptionName("--grids", sp) + " must be at least 1");
    opt->grids = s.grids;
    opt->buckets = s.buckets;
    if (s.bin_gamma != "default" && (!ParseDouble(s.bin_gamma, &opt->bin_gamma) || !(opt->bin_gamma > 0)))
      throw TrainError(OptionName("--bin-gamma", sp) + " must be a positive number or 'default'; got '" + s.bin_gamma +
                       "'");
  } else if (s.buckets != 0) {
    throw TrainError(OptionName("--bins-per-grid", sp) + " needs a binning map (" +
                     OptionGiven("--map", "binning", sp) +
                     " or fourier+binning)");
  }
}

// --gamma, --lambda, --task and --class-weight.
void ParseFit(const TrainSettings& s, Spelling sp, TrainOptions* opt) {
  if (s.gamma == "auto") {
    opt->gamma_auto = true;
  } else if (s.gamma == "scale") {
    opt->gamma = 0;
  } else if (s.gamma != "default") {
    if (!ParseDouble(s.gamma, &opt->gamma) || !(opt->gamma > 0))
      throw TrainError(OptionName("--gamma", sp) + " must be a positive number, 'scale', 'auto' or 'default'; got '" +
                       s.gamma + "'");
  }
  if (!opt->fourier && opt->gamma > 0) {  // binning alone: --gamma is the binning map's gamma
    opt->bin_gamma = opt->gamma;
    opt->gamma = 0;
  }
  if (s.lambda == "auto") {
    opt->lambda_auto = true;
  } else if (s.lambda != "default" && (!ParseDouble(s.lambda, &opt->lambda) || opt->lambda < 0)) {
    throw TrainError(OptionName("--lambda", sp) + " must be a number >= 0, 'auto' or 'default'; got '" + s.lambda +
                     "'");
  }
  if (s.task == "auto") opt->task = TaskChoice::kAuto;
  else if (s.task == "classification") opt->task = TaskChoice::kClassification;
  else if (s.task == "regression") opt->task = TaskChoice::kRegression;
  else throw TrainError(OptionName("--task", sp) + " must be auto, classification or regression");
  if (s.class_weight == "balanced") opt->class_weight = ClassWeight::kBalanced;
  else if (s.class_weight != "none")
    throw TrainError(OptionName("--class-weight", sp) + " must be none or balanced; got '" + s.class_weight + "'");
}

// --storage and --head-storage (the head follows --storage unless --head-storage is given).
void ParseStorages(const TrainSettings& s, Spelling sp, TrainOptions* opt) {
  try {
    opt->w_storage = ParseStorage(s.storage);
    opt->head_storage = s.head_storage.empty() ? opt->w_storage : ParseStorage(s.head_storage);
  } catch (const std::invalid_argument& e) {
    throw TrainError(OptionName("--storage", sp) + " / " + OptionName("--head-storage", sp) + ": " + e.what());
  }
}

// Strictly a decimal integer, the whole string, in T's range: "-1" is not 2^64 - 1.
template <typename T>
bool ParseDecimal(const std::string& s, T* v) {
  const char* b = s.data();
  const auto [end, ec] = std::from_chars(b, b + s.size(), *v);
  return !s.empty() && ec == std::errc() && end == b + s.size();
}

// --features ("default" or a decimal integer; its range is ValidateOptions's) and --max-model-bytes.
void ParseFeatures(const TrainSettings& s, Spelling sp, TrainOptions* opt) {
  if (s.features != "default") {
    if (!ParseDecimal(s.features, &opt->features) || opt->features == 0)
      throw TrainError(OptionName("--features", sp) + " must be 'default' or a positive integer; got '" +
                       s.features + "'");
  }
  if (s.max_model_bytes == "physical" || !ParseMemoryLimit(s.max_model_bytes, &opt->max_model_bytes))
    throw TrainError(OptionName("--max-model-bytes", sp) + " must be a size such as 64K or 16M; got '" +
                     s.max_model_bytes + "'");
}

}  // namespace

std::string OptionGiven(const std::string& cli_flag, const std::string& value, Spelling spelling) {
  return spelling == Spelling::kCli ? cli_flag + " " + value : OptionName(cli_flag, spelling) + "='" + value + "'";
}

std::string OptionName(const std::string& cli_flag, Spelling spelling) {
  if (spelling == Spelling::kCli) return cli_flag;
  for (const Renamed& r : kRenamed)
    if (cli_flag == r.flag) return r.python;
  std::string name = cli_flag.substr(cli_flag.find_first_not_of('-'));
  for (char& c : name)
    if (c == '-') c = '_';
  return name;
}

TrainOptions ParseTrainSettings(const TrainSettings& s, Spelling sp) {
  TrainOptions opt;
  opt.spelling = sp;
  ParseMaps(s, sp, &opt);
  ParseFeatures(s, sp, &opt);
  if (!ParseDecimal(s.seed, &opt.seed))
    throw TrainError(OptionName("--seed", sp) + " must be an integer from 0 to 18446744073709551615; got '" + s.seed +
                     "'");
  opt.threads = s.threads;
  opt.cv_folds = s.folds;
  opt.calibrate = s.calibrate;
  opt.metadata = s.metadata;
  opt.memory_limit = MemoryLimitOption(s.memory_limit, sp);
  opt.standardize = s.standardize;
  ParseFit(s, sp, &opt);
  ParseStorages(s, sp, &opt);
  return opt;
}

bool ParseDouble(const std::string& s, double* v) {
  if (s.empty()) return false;
  char* end = nullptr;
  *v = std::strtod(s.c_str(), &end);
  return end == s.c_str() + s.size() && std::isfinite(*v);
}

bool ParseMemoryLimit(const std::string& s, std::uint64_t* bytes) {
  if (s == "physical") {
    *bytes = 0;
    return true;
  }
  double scale = 1;
  std::string num = s;
  if (!num.empty()) {
    switch (num.back()) {
      case 'K': case 'k': scale = 1024.0; break;
      case 'M': case 'm': scale = 1024.0 * 1024; break;
      case 'G': case 'g': scale = 1024.0 * 1024 * 1024; break;
      case 'T': case 't': scale = 1024.0 * 1024 * 1024 * 1024; break;
      default: break;
    }
    if (scale != 1) num.pop_back();
  }
  double v = 0;
  if (!ParseDouble(num, &v) || !(v * scale >= 1) || v * scale > 1e18) return false;
  *bytes = static_cast<std::uint64_t>(v * scale);
  return true;
}

std::string HumanBytes(double b) {
  char buf[32];
  if (b < 1024) std::snprintf(buf, sizeof buf, "%.0f B", b);
  else if (b < 1024 * 1024) std::snprintf(buf, sizeof buf, "%.1f KiB", b / 1024);
  else if (b < 1024.0 * 1024 * 1024) std::snprintf(buf, sizeof buf, "%.2f MiB", b / (1024 * 1024));
  else std::snprintf(buf, sizeof buf, "%.2f GiB", b / (1024.0 * 1024 * 1024));
  return buf;
}

std::uint64_t MemoryLimitOption(const std::string& s, Spelling sp) {
  std::uint64_t bytes = 0;
  if (!ParseMemoryLimit(s, &bytes))
    throw TrainError(OptionName("--memory-limit", sp) + " must be 'physical' or a size such as 512M or 8G; got '" + s +
                     "'");
  return bytes;
}

}  // namespace rfk::host

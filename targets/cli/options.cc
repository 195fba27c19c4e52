// Option parsing shared by the subcommands: the data-reading options, numbers and sizes.
#include <cmath>
#include <cstdlib>

#include "cli.hpp"

namespace rfk::cli {

host::ReadOptions DataArgs::Options() const {
  host::ReadOptions o;
  o.format = host::ParseDataFormat(format);
  o.label_col = label_col;
  o.idx_labels = idx_labels;
  return o;
}

void DataArgs::Add(CLI::App* app) {
  app->add_option("--format", format, "Input format: auto, libsvm, csv or idx")->capture_default_str();
  app->add_option("--label-col", label_col, "CSV label column, 0-based; negative counts from the end")
      ->capture_default_str();
  app->add_option("--idx-labels", idx_labels, "idx labels file (default: derived from the images file name)");
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

}  // namespace rfk::cli

// Printing helpers: JSON strings and numbers, byte counts, the progress bar.
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <cstdio>

#include "cli.hpp"

namespace rfk::cli {

std::string JsonEscape(const std::string& s) {
  std::string o;
  for (unsigned char c : s) {
    switch (c) {
      case '"': o += "\\\""; break;
      case '\\': o += "\\\\"; break;
      case '\n': o += "\\n"; break;
      case '\t': o += "\\t"; break;
      default:
        if (c < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\u%04x", c);
          o += buf;
        } else {
          o += static_cast<char>(c);
        }
    }
  }
  return o;
}

std::string Num(double v) {
  if (!std::isfinite(v)) return "null";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.9g", v);
  return buf;
}

void PrintNotes(const host::Dataset& data, bool quiet) {
  if (!quiet)
    for (const std::string& n : data.notes) std::fprintf(stderr, "rfk: note: %s: %s\n", data.source.c_str(), n.c_str());
  for (const std::string& w : data.warnings)
    std::fprintf(stderr, "rfk: warning: %s: %s\n", data.source.c_str(), w.c_str());
}

ProgressBar::ProgressBar(bool lines) : tty_(::isatty(STDERR_FILENO) == 1), lines_(lines) {}

void ProgressBar::Update(std::uint64_t done, std::uint64_t total, const std::string& what) {
  if (!tty_) {
    if (lines_ && what != what_) std::fprintf(stderr, "rfk: progress: %s\n", what.c_str());
    what_ = what;
    return;
  }
  const auto now = Clock::now();
  if (what != what_) {
    what_ = what;
    phase_start_ = now;
    phase_done0_ = done;
  }
  if (done < total && now - last_ < std::chrono::milliseconds(100)) return;
  last_ = now;
  const double secs = std::chrono::duration<double>(now - phase_start_).count();
  const double rate = secs > 0 ? double(done - phase_done0_) / secs : 0.0;
  const double frac = total ? double(done) / double(total) : 1.0;
  const int width = 24, filled = static_cast<int>(frac * width);
  const double eta = rate > 0 ? double(total - done) / rate : 0.0;
  std::fprintf(stderr, "\r[%.*s%*s] %3.0f%% %.1fk rows/s ETA %4.0fs  %-44.44s", filled,
               "########################", width - filled, "", frac * 100, rate / 1000, eta, what.c_str());
  shown_ = true;
}

void ProgressBar::Finish() {
  if (shown_) std::fprintf(stderr, "\r%*s\r", 106, "");
  shown_ = false;
}

std::vector<float> CalibrationParams(const rfk::Model& m) {
  if (m.calibration_method == 0) return {};
  const std::uint64_t bytes = format::calibration::Bytes(m.calibration_method, m.num_outputs);
  std::vector<float> v((bytes - 8) / 4);
  std::memcpy(v.data(), m.calibration_params, v.size() * sizeof(float));  // LE f32 (format.hpp)
  return v;
}

std::string CalibrationText(std::uint32_t method, const std::vector<float>& p, const char* positive) {
  using M = format::CalibrationMethod;
  const std::string name = format::NameOf(static_cast<M>(method));
  char buf[320];
  switch (static_cast<M>(method)) {
    case M::kPlatt:
      std::snprintf(buf, sizeof buf, "p(%s) = 1/(1 + exp(A s + B)), A = %.6g, B = %.6g", positive, p[0], p[1]);
      break;
    case M::kPlattCubic:
      std::snprintf(buf, sizeof buf, "p(%s) = 1/(1 + exp(A s + B + C s^3)), A = %.6g, B = %.6g, C = %.6g", positive,
                    p[0], p[1], p[2]);
      break;
    case M::kSoftmax:
      std::snprintf(buf, sizeof buf, "p = softmax(A s), A = %.6g (temperature %.6g)", p[0], 1.0 / p[0]);
      break;
    case M::kSoftmaxVector: {
      const std::size_t K = p.size() / 2;
      const auto a = std::minmax_element(p.begin(), p.begin() + static_cast<std::ptrdiff_t>(K));
      const auto b = std::minmax_element(p.begin() + static_cast<std::ptrdiff_t>(K), p.end());
      std::snprintf(buf, sizeof buf, "p_k = softmax_k(a_k s_k + b_k), a in [%.4g, %.4g], b in [%.4g, %.4g]", *a.first,
                    *a.second, *b.first, *b.second);
      break;
    }
    default: return name;
  }
  return name + ", " + buf;
}

std::string CalibrationJson(std::uint32_t method, const std::vector<float>& p) {
  std::string js = "{\"method\": \"" + std::string(format::NameOf(static_cast<format::CalibrationMethod>(method))) +
                   "\", \"params\": [";
  for (std::size_t q = 0; q < p.size(); ++q) js += (q ? ", " : "") + Num(p[q]);
  return js + "]";
}

}  // namespace rfk::cli

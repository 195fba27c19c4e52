// Printing helpers: JSON strings and numbers, byte counts, the progress bar.
#include <unistd.h>

#include <cmath>
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

std::string HumanBytes(double b) {
  char buf[32];
  if (b < 1024) std::snprintf(buf, sizeof buf, "%.0f B", b);
  else if (b < 1024 * 1024) std::snprintf(buf, sizeof buf, "%.1f KiB", b / 1024);
  else if (b < 1024.0 * 1024 * 1024) std::snprintf(buf, sizeof buf, "%.2f MiB", b / (1024 * 1024));
  else std::snprintf(buf, sizeof buf, "%.2f GiB", b / (1024.0 * 1024 * 1024));
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

}  // namespace rfk::cli

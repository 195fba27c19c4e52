// Input for the data readers: a zlib file or a caller's buffer, split into lines; number
// parsing; message helpers (data_internal.h).
#include <algorithm>
#include <cerrno>
#include <cfloat>
#include <charconv>
#include <cmath>
#include <cstring>
#include <system_error>
#include <utility>

#include "data/data_internal.h"

namespace rfk::host::data_io {

namespace {

// Upper bound on one text line; beyond it the input is treated as garbage.
constexpr std::size_t kMaxLine = std::size_t{1} << 30;

// For a string from_chars accepted as a decimal number but whose value is outside double's range:
// true if it is huge (overflow), false if it is tiny (underflow).
bool DecimalIsHuge(const char* b, const char* e) {
  if (b < e && (*b == '-' || *b == '+')) ++b;
  long long int_digits = 0;     // digits before '.'
  long long first_nonzero = -1;  // position of the first nonzero digit among all digits
  long long pos = 0;
  bool in_fraction = false;
  for (; b < e && *b != 'e' && *b != 'E'; ++b) {
    if (*b == '.') {
      in_fraction = true;
      continue;
    }
    if (first_nonzero < 0 && *b != '0') first_nonzero = pos;
    if (!in_fraction) ++int_digits;
    ++pos;
  }
  if (first_nonzero < 0) return false;
  long long exp10 = 0;
  if (b < e) {  // exponent
    ++b;
    bool neg = false;
    if (b < e && (*b == '-' || *b == '+')) neg = *b++ == '-';
    for (; b < e; ++b) exp10 = std::min(exp10 * 10 + (*b - '0'), 1'000'000'000LL);
    if (neg) exp10 = -exp10;
  }
  // The first nonzero digit has weight 10^(int_digits - 1 - first_nonzero + exp10).
  return int_digits - 1 - first_nonzero + exp10 > 0;
}

}  // namespace

[[noreturn]] void Fail(std::string msg) { throw DataError(std::move(msg)); }

std::string At(const std::string& path, std::uint64_t line) {
  return path + ":" + std::to_string(line) + ": ";
}

std::string Quote(std::string_view s) {
  constexpr std::size_t kMax = 40;
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out = "'";
  for (std::size_t i = 0; i < s.size() && i < kMax; ++i) {
    const auto c = static_cast<unsigned char>(s[i]);
    if (c >= 0x20 && c < 0x7f) {
      out += static_cast<char>(c);
    } else {
      out += "\\x";
      out += kHex[c >> 4];
      out += kHex[c & 15];
    }
  }
  out += s.size() > kMax ? "'..." : "'";
  return out;
}

bool HasControlChar(std::string_view s) {
  return std::any_of(s.begin(), s.end(),
                     [](char c) { return static_cast<unsigned char>(c) < 0x20 || c == 0x7f; });
}

Num ParseFloat(const char* b, const char* e, float* out) {
  if (b < e && *b == '+') {
    ++b;
    if (b < e && (*b == '+' || *b == '-')) return Num::kBad;
  }
  if (b == e) return Num::kBad;
  float v = 0;
  auto [ptr, ec] = std::from_chars(b, e, v);
  if (ptr != e || ec == std::errc::invalid_argument) return Num::kBad;
  if (ec == std::errc::result_out_of_range) {
    double d = 0;
    auto [dptr, dec] = std::from_chars(b, e, d);
    if (dptr != e || dec == std::errc::invalid_argument) return Num::kBad;
    if (dec == std::errc::result_out_of_range) {
      if (DecimalIsHuge(b, e)) return Num::kRange;
      d = *b == '-' ? -0.0 : 0.0;
    }
    if (std::fabs(d) > static_cast<double>(FLT_MAX)) return Num::kRange;
    v = static_cast<float>(d);
  }
  if (!std::isfinite(v)) return Num::kNonFinite;
  *out = v;
  return Num::kOk;
}

Input::Input(const std::string& path) : path_(path) {
  errno = 0;
  file_ = gzopen(path.c_str(), "rb");
  if (file_ == nullptr) {
    const int err = errno;
    Fail(path + ": cannot open: " +
         (err != 0 ? std::generic_category().message(err) : std::string("out of memory")));
  }
  gzbuffer(file_, 256u << 10);
}

Input::~Input() {
  if (file_ != nullptr) gzclose(file_);
}

std::size_t Input::Read(void* dst, std::size_t n) {
  if (file_ == nullptr) {  // memory (or a closed file, which has nothing left)
    const std::size_t k = std::min(n, mem_.size());
    if (k != 0) std::memcpy(dst, mem_.data(), k);
    mem_.remove_prefix(k);
    return k;
  }
  std::size_t total = 0;
  while (total < n) {
    const auto want = static_cast<unsigned>(std::min<std::size_t>(n - total, 1u << 30));
    const int got = gzread(file_, static_cast<char*>(dst) + total, want);
    if (got < 0) ThrowError();
    total += static_cast<std::size_t>(got);
    if (static_cast<unsigned>(got) < want) {
      // End of data, or an error zlib reports only through gzerror (a truncated stream
      // yields a short read with Z_BUF_ERROR).
      int errnum = Z_OK;
      gzerror(file_, &errnum);
      if (errnum != Z_OK) ThrowError();
      break;
    }
  }
  return total;
}

void Input::Close() {
  mem_ = {};
  if (file_ == nullptr) return;
  const int rc = gzclose(file_);
  file_ = nullptr;
  if (rc == Z_BUF_ERROR) Fail(path_ + ": truncated compressed data (unexpected end of file)");
  if (rc != Z_OK) Fail(path_ + ": error closing file (zlib code " + std::to_string(rc) + ")");
}

std::size_t Input::Chunk() const {
  return file_ != nullptr ? kChunk : std::min(kChunk, mem_.size() / 4 + 16);
}

void Input::ThrowError() {
  int errnum = Z_OK;
  std::string msg = gzerror(file_, &errnum);
  // zlib prefixes its messages with the path it was opened with.
  const std::string prefix = path_ + ": ";
  if (msg.compare(0, prefix.size(), prefix) == 0) msg.erase(0, prefix.size());
  if (errnum == Z_BUF_ERROR) Fail(path_ + ": truncated compressed data (" + msg + ")");
  if (errnum == Z_DATA_ERROR) Fail(path_ + ": corrupt compressed data (" + msg + ")");
  Fail(path_ + ": read error: " + msg);
}

bool LineReader::Next(std::string_view* line) {
  for (;;) {
    if (scan_ < end_) {
      const void* nl = std::memchr(buf_.data() + scan_, '\n', end_ - scan_);
      if (nl != nullptr) {
        const std::size_t pos = static_cast<std::size_t>(static_cast<const char*>(nl) - buf_.data());
        Emit(pos, line);
        begin_ = scan_ = pos + 1;
        return true;
      }
      scan_ = end_;
    }
    if (eof_) {
      if (begin_ == end_) return false;
      Emit(end_, line);
      begin_ = scan_ = end_;
      return true;
    }
    if (end_ - begin_ > kMaxLine) {
      Fail(At(file_.path(), line_no_ + 1) + "line longer than " + std::to_string(kMaxLine) +
           " bytes");
    }
    if (begin_ > 0) {
      std::memmove(buf_.data(), buf_.data() + begin_, end_ - begin_);
      end_ -= begin_;
      scan_ -= begin_;
      begin_ = 0;
    }
    if (buf_.size() - end_ < chunk_) buf_.resize(std::max(buf_.size() * 2, end_ + chunk_));
    const std::size_t want = buf_.size() - end_;
    const std::size_t got = file_.Read(buf_.data() + end_, want);
    end_ += got;
    eof_ = got < want;
  }
}

void LineReader::Emit(std::size_t stop, std::string_view* line) {
  std::string_view s(buf_.data() + begin_, stop - begin_);
  if (!s.empty() && s.back() == '\r') s.remove_suffix(1);
  if (line_no_ == 0 && s.substr(0, 3) == "\xEF\xBB\xBF") s.remove_prefix(3);
  ++line_no_;
  *line = s;
}

}  // namespace rfk::host::data_io

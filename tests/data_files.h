// What the data-reader suites share (test_data.cc, test_data_idx.cc): a temporary folder that
// writes plain and gzip'd files, the reader's error as text, and big-endian idx payloads.
#pragma once

#include <doctest/doctest.h>
#include <zlib.h>

#include <chrono>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "rfk/host/data.hpp"

namespace rfk_test::data {

namespace fs = std::filesystem;
using rfk::host::DataError;
using rfk::host::DataFormat;
using rfk::host::Dataset;
using rfk::host::DetectFormat;
using rfk::host::ReadDataset;
using rfk::host::ReadOptions;

// A fresh directory under the system temp directory, removed with its contents on destruction.
class TempDir {
 public:
  TempDir() {
    std::random_device rd;
    for (int attempt = 0;; ++attempt) {
      const auto stamp = std::chrono::steady_clock::now().time_since_epoch().count();
      path_ = fs::temp_directory_path() /
              ("rfk_test_data_" + std::to_string(rd()) + "_" + std::to_string(stamp));
      if (fs::create_directory(path_)) break;
      REQUIRE(attempt < 100);
    }
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path_, ec);
  }

  std::string File(const std::string& name) const { return (path_ / name).string(); }

  std::string Plain(const std::string& name, const std::string& content) const {
    const std::string p = File(name);
    std::ofstream out(p, std::ios::binary);
    out.write(content.data(), static_cast<std::streamsize>(content.size()));
    REQUIRE(out.good());
    return p;
  }

  std::string Gz(const std::string& name, const std::string& content) const {
    const std::string p = File(name);
    gzFile f = gzopen(p.c_str(), "wb");
    REQUIRE(f != nullptr);
    if (!content.empty()) {
      REQUIRE(gzwrite(f, content.data(), static_cast<unsigned>(content.size())) ==
              static_cast<int>(content.size()));
    }
    REQUIRE(gzclose(f) == Z_OK);
    return p;
  }

 private:
  fs::path path_;
};

inline std::string ReadBytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

// The DataError message of reading path, or "" (and a test failure) if the read succeeds.
inline std::string ErrorOf(const std::string& path, const ReadOptions& opt = {}) {
  try {
    ReadDataset(path, opt);
  } catch (const DataError& e) {
    return e.what();
  }
  FAIL_CHECK("no DataError for " << path);
  return "";
}

inline bool StartsWith(const std::string& s, const std::string& prefix) {
  return s.compare(0, prefix.size(), prefix) == 0;
}

inline bool Contains(const std::string& s, const std::string& part) {
  return s.find(part) != std::string::npos;
}

#define CHECK_ERROR(path, opt, prefix, part)                              \
  do {                                                                    \
    const std::string msg_ = ErrorOf(path, opt);                          \
    INFO("message: " << msg_);                                            \
    CHECK(StartsWith(msg_, prefix));                                      \
    CHECK(Contains(msg_, part));                                          \
  } while (0)

inline ReadOptions Format(DataFormat f) {
  ReadOptions o;
  o.format = f;
  return o;
}

// Big-endian idx file: type code, dims, and the raw (already big-endian) payload.
inline std::string Idx(unsigned char type, const std::vector<std::uint32_t>& dims,
                const std::string& payload) {
  std::string s = {'\0', '\0', static_cast<char>(type), static_cast<char>(dims.size())};
  for (const std::uint32_t d : dims) {
    for (int shift = 24; shift >= 0; shift -= 8) s += static_cast<char>((d >> shift) & 0xff);
  }
  return s + payload;
}

inline std::string Be32(std::uint32_t v) {
  std::string s;
  for (int shift = 24; shift >= 0; shift -= 8) s += static_cast<char>((v >> shift) & 0xff);
  return s;
}

inline std::string BeFloat(float f) {
  std::uint32_t bits;
  std::memcpy(&bits, &f, sizeof bits);
  return Be32(bits);
}

inline std::string BeDouble(double d) {
  std::uint64_t bits;
  std::memcpy(&bits, &d, sizeof bits);
  return Be32(static_cast<std::uint32_t>(bits >> 32)) + Be32(static_cast<std::uint32_t>(bits));
}

}  // namespace rfk_test::data

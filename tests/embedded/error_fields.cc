// error_fields: the open's failure reports of a core built without field names (RFK_ERROR_FIELDS 0,
// lib/core/core_config.h) against the whole core's. Built twice from this file: linked with
// rfk_core (names) and with rfk_core_nofields (RFK_TEST_NO_FIELDS). For each model file given, every
// 4-byte word of its first 4 KiB and every 8th word after it is set to 0xFFFFFFFF, then to 0, the
// CRC-32 written again (but where the word is the CRC's), and the bytes opened: one line per change,
// "model word value status offset", on stdout. A core with the names must name a field in every
// failure, one without them must give "" (never null). The test (error_fields.cmake) runs both
// builds on the same files and requires the same lines: the same status at the same byte offset
// for every change. Returns the number of failed checks (and 2 for a file it cannot read).
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <vector>

#include "rfk/format.hpp"
#include "rfk/model.hpp"

namespace {

constexpr bool kNoFields =
#ifdef RFK_TEST_NO_FIELDS
    true;
#else
    false;
#endif

// The model's bytes in an aligned buffer (the open requires format::kAlignment).
struct Blob {
  std::vector<std::uint64_t> words;
  std::size_t size = 0;
  std::uint8_t* bytes() { return reinterpret_cast<std::uint8_t*>(words.data()); }
};

bool Read(const char* path, Blob* blob) {
  std::ifstream f(path, std::ios::binary);
  const std::vector<char> bytes((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  if (!f.good() && !f.eof()) return false;
  blob->size = bytes.size();
  blob->words.assign((bytes.size() + 7) / 8, 0);
  std::memcpy(blob->bytes(), bytes.data(), bytes.size());
  return blob->size >= rfk::format::kHeaderBytes;
}

void Store(std::uint8_t* p, std::uint32_t v) { std::memcpy(p, &v, sizeof v); }  // little-endian hosts

}  // namespace

int main(int argc, char** argv) {
  namespace f = rfk::format;
  int failures = 0;
  for (int file = 1; file < argc; ++file) {
    Blob blob;
    if (!Read(argv[file], &blob)) {
      std::fprintf(stderr, "error_fields: cannot read %s\n", argv[file]);
      return 2;
    }
    rfk::Model model;
    rfk::ModelError error;
    if (rfk::OpenModel(blob.bytes(), blob.size, &model, &error) != rfk::Status::kOk) {
      std::printf("FAILED: %s does not open (status %d at %u)\n", argv[file], static_cast<int>(error.status),
                  static_cast<unsigned>(error.offset));
      ++failures;
      continue;
    }
    Blob changed = blob;
    const std::uint32_t values[2] = {0xFFFFFFFFu, 0u};
    for (std::size_t at = 0; at + 4 <= blob.size; at += at < 4096 ? 4 : 32) {
      for (int v = 0; v < 2; ++v) {
        std::memcpy(changed.bytes(), blob.bytes(), blob.size);
        Store(changed.bytes() + at, values[v]);
        if (at != f::kOffCrc32 && blob.size >= f::kCrcStart)
          Store(changed.bytes() + f::kOffCrc32, rfk::Crc32(changed.bytes() + f::kCrcStart, blob.size - f::kCrcStart));
        error = rfk::ModelError{};
        const rfk::Status s = rfk::OpenModel(changed.bytes(), blob.size, &model, &error);
        std::printf("%d %zu %d %d %u\n", file, at, v, static_cast<int>(s), static_cast<unsigned>(error.offset));
        const bool named = error.field != nullptr && error.field[0] != '\0';
        if (error.field == nullptr || (s != rfk::Status::kOk && named == kNoFields)) {
          std::printf("FAILED: %s, word at %zu set to %08x: status %d, field \"%s\" (%s)\n", argv[file], at,
                      static_cast<unsigned>(values[v]), static_cast<int>(s), error.field ? error.field : "(null)",
                      kNoFields ? "a core without names gave one" : "no field named");
          ++failures;
        }
      }
    }
  }
  std::fprintf(stderr, "error_fields: %d failed checks\n", failures);
  return failures;
}

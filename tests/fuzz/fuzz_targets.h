// The fuzz harnesses, one function per libFuzzer target. scripts/fuzz.sh builds each into its own
// fuzzer binary (compiled with -DRFK_FUZZ_ENTRY=<function>, which defines LLVMFuzzerTestOneInput
// to call it); the normal test binary links the same functions and replays every committed input
// under tests/fuzz/regressions/<target>/ through them (tests/core/test_fuzz_regressions.cc).
//
// Contract of each function: returns 0 for every input. A bug shows as a sanitizer report, an
// uncaught exception, or an abort from a violated invariant (FUZZ_CHECK), never as a return value.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "rfk/format.hpp"
#include "rfk/model.hpp"

namespace rfk_fuzz {

int Model(const std::uint8_t* data, std::size_t size);   // OpenModel + every predict entry point
int OpenStatus(const std::uint8_t* data, std::size_t size);  // OpenModel's status (an aligned copy)
int CApi(const std::uint8_t* data, std::size_t size);    // the same through the C API (rfk/rfk.h)
int Libsvm(const std::uint8_t* data, std::size_t size);  // the LIBSVM reader (and DetectFormat)
int Csv(const std::uint8_t* data, std::size_t size);     // the CSV reader
int Idx(const std::uint8_t* data, std::size_t size);     // the idx reader: images then labels
int Train(const std::uint8_t* data, std::size_t size);   // a tiny training run on fuzzed data
int Convert(const std::uint8_t* data, std::size_t size); // rfk convert without data (host)

}  // namespace rfk_fuzz

namespace rfk_fuzz {

// For the model-reading targets: calls exercise(bytes, size, tail, tail_size) on a 16-byte-aligned
// copy of the input (models must be aligned), with the whole input as tail; then, when the
// header's total_bytes fits the input, once more with the CRC-32 recomputed, so mutations reach
// past the checksum, and with the bytes after the model as tail.
template <class Exercise>
void AsGivenAndWithCrcFixed(const std::uint8_t* data, std::size_t size, const Exercise& exercise) {
  std::vector<std::uint64_t> store(size / 8 + 2);
  auto* bytes = reinterpret_cast<std::uint8_t*>(store.data());
  if (size > 0) std::memcpy(bytes, data, size);
  exercise(bytes, size, data, size);
  namespace f = rfk::format;
  if (size < f::kHeaderBytes) return;
  std::uint32_t total;
  std::memcpy(&total, bytes + f::kOffTotalBytes, 4);
  if (total < f::kCrcStart || total > size) return;
  const std::uint32_t crc = rfk::Crc32(bytes + f::kCrcStart, total - f::kCrcStart);
  std::memcpy(bytes + f::kOffCrc32, &crc, 4);
  exercise(bytes, size, data + total, size - total);
}

}  // namespace rfk_fuzz

#define FUZZ_CHECK(cond)                                                                \
  do {                                                                                  \
    if (!(cond)) {                                                                      \
      std::fprintf(stderr, "fuzz invariant violated: %s (%s:%d)\n", #cond, __FILE__, __LINE__); \
      std::abort();                                                                     \
    }                                                                                   \
  } while (0)

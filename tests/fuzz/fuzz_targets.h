// The fuzz harnesses, one function per libFuzzer target. scripts/fuzz.sh builds each into its own
// fuzzer binary (compiled with -DRFK_FUZZ_ENTRY=<function>, which defines LLVMFuzzerTestOneInput
// to call it); the normal test binary links the same functions and replays every committed input
// under tests/fuzz/regressions/<target>/ through them (tests/test_fuzz_regressions.cc).
//
// Contract of each function: returns 0 for every input. A bug shows as a sanitizer report, an
// uncaught exception, or an abort from a violated invariant (FUZZ_CHECK), never as a return value.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>

namespace rfk_fuzz {

int Model(const std::uint8_t* data, std::size_t size);   // OpenModel + every predict entry point
int CApi(const std::uint8_t* data, std::size_t size);    // the same through the C API (rfk/rfk.h)
int Libsvm(const std::uint8_t* data, std::size_t size);  // the LIBSVM reader (and DetectFormat)
int Csv(const std::uint8_t* data, std::size_t size);     // the CSV reader
int Idx(const std::uint8_t* data, std::size_t size);     // the idx reader: images then labels
int Train(const std::uint8_t* data, std::size_t size);   // a tiny training run on fuzzed data

}  // namespace rfk_fuzz

#define FUZZ_CHECK(cond)                                                                \
  do {                                                                                  \
    if (!(cond)) {                                                                      \
      std::fprintf(stderr, "fuzz invariant violated: %s (%s:%d)\n", #cond, __FILE__, __LINE__); \
      std::abort();                                                                     \
    }                                                                                   \
  } while (0)

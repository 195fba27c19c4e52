// doctest main. RFK_TARGET=<name> (e.g. scalar, AVX2, hwy-SSE4) runs the whole suite with that
// kernel table active, as the CLI does; the core itself never reads the environment.
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include <cstdio>
#include <cstdlib>

#include "rfk/kernels.hpp"

int main(int argc, char** argv) {
  if (const char* target = std::getenv("RFK_TARGET"); target != nullptr && *target != '\0') {
    if (!rfk::SelectKernels(target)) {
      std::fprintf(stderr, "RFK_TARGET=%s: no such kernel table on this CPU\n", target);
      return 2;
    }
    std::fprintf(stderr, "[rfk] kernel table forced by RFK_TARGET: %s-%s\n",
                 rfk::ActiveKernels().backend, rfk::ActiveKernels().target);
  }
  doctest::Context context(argc, argv);
  return context.run();
}

// libFuzzer target model_configured (scripts/fuzz.sh): fuzz_model.cc's harness on several configured
// cores in one binary (a libFuzzer entry of its own, so not a fuzz_*.cc: the test suite's glob
// leaves it out). Each core is lib/core compiled with one `rfk export --config-header`
// configuration (of one seed model's kind) and its namespaces renamed (-Drfk=rfk_cfg<N>
// -Drfk_fuzz=rfk_fuzz_cfg<N>), so that the cores link side by side; the C API's sources, whose
// names cannot be renamed, are left out. Every input goes through every core: each must open the
// kind it was configured for and refuse every other input with a status, never misread one.
// Built with -D'RFK_FUZZ_CONFIGS(X)=X(1) X(2) ...', one X per core. Before fuzzing, each core must
// open the model it was configured from (RFK_FUZZ_CONFIG_SEEDS: their paths, in core order,
// separated by ':'), or the target would fuzz refusals alone.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>

#ifndef RFK_FUZZ_CONFIGS
#error "RFK_FUZZ_CONFIGS(X) lists the configured cores (scripts/fuzz.sh)"
#endif

#define RFK_FUZZ_DECLARE(n)                                             \
  namespace rfk_fuzz_cfg##n {                                           \
  int Model(const std::uint8_t* data, std::size_t size);                \
  int OpenStatus(const std::uint8_t* data, std::size_t size);           \
  }
RFK_FUZZ_CONFIGS(RFK_FUZZ_DECLARE)
#undef RFK_FUZZ_DECLARE

namespace {
using OpenFn = int (*)(const std::uint8_t*, std::size_t);
#define RFK_FUZZ_OPEN(n) &rfk_fuzz_cfg##n::OpenStatus,
constexpr OpenFn kOpen[] = {RFK_FUZZ_CONFIGS(RFK_FUZZ_OPEN)};
#undef RFK_FUZZ_OPEN
}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  const char* seeds = std::getenv("RFK_FUZZ_CONFIG_SEEDS");
  if (seeds == nullptr) return 0;  // a replay or a minimisation: no seed check
  std::stringstream list(seeds);
  std::string path;
  std::size_t core = 0;
  for (; std::getline(list, path, ':'); ++core) {
    std::ifstream f(path, std::ios::binary);
    const std::string bytes((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
    const int status = core < sizeof kOpen / sizeof kOpen[0]
                           ? kOpen[core](reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size())
                           : -1;
    if (!f || status != 0) {
      std::fprintf(stderr, "model_configured: core %zu does not open %s, the model it was configured from (status %d)\n",
                   core + 1, path.c_str(), status);
      std::abort();
    }
  }
  if (core != sizeof kOpen / sizeof kOpen[0]) {
    std::fprintf(stderr, "model_configured: %zu seeds for %zu cores\n", core, sizeof kOpen / sizeof kOpen[0]);
    std::abort();
  }
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
#define RFK_FUZZ_CALL(n) static_cast<void>(rfk_fuzz_cfg##n::Model(data, size));
  RFK_FUZZ_CONFIGS(RFK_FUZZ_CALL)
#undef RFK_FUZZ_CALL
  return 0;
}

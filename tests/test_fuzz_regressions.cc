// Every input the fuzzers ever crashed on (tests/fuzz/regressions/) goes through the fuzz harness
// itself; under the asan preset (AddressSanitizer + UndefinedBehaviorSanitizer) a relapse fails.
#include <doctest/doctest.h>

#include <cstdint>
#include <filesystem>
#include <string>

#include "test_util.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);

TEST_CASE("fuzz regressions: every committed crash input is handled cleanly") {
  const std::filesystem::path dir = std::filesystem::path(RFK_SOURCE_DIR) / "tests/fuzz/regressions";
  int inputs = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    const std::string bytes = rfk_test::ReadText(entry.path().string());
    CAPTURE(entry.path().filename().string());
    CHECK(LLVMFuzzerTestOneInput(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size()) == 0);
    ++inputs;
  }
  CHECK(inputs > 0);
}

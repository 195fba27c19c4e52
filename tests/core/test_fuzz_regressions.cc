// Every input the fuzzers ever failed on (tests/fuzz/regressions/<target>/) goes through that
// target's harness itself (tests/fuzz/fuzz_targets.h); under the asan preset (AddressSanitizer +
// UndefinedBehaviorSanitizer) a relapse fails. A directory naming no known target fails too, so
// no committed input is silently skipped.
#include <doctest/doctest.h>

#include <cstdint>
#include <filesystem>
#include <map>
#include <string>

#include "fuzz/fuzz_targets.h"
#include "test_util.h"

TEST_CASE("fuzz regressions: every committed input is handled cleanly by its target") {
  using Target = int (*)(const std::uint8_t*, std::size_t);
  // model_dense's inputs also go through the whole core here (its own core: fuzz/replay.cc).
  const std::map<std::string, Target> targets = {{"model", rfk_fuzz::Model},
                                                 {"model_dense", rfk_fuzz::Model},
                                                 {"capi", rfk_fuzz::CApi},
                                                 {"libsvm", rfk_fuzz::Libsvm},
                                                 {"csv", rfk_fuzz::Csv},
                                                 {"idx", rfk_fuzz::Idx},
                                                 {"train", rfk_fuzz::Train},
                                                 {"convert", rfk_fuzz::Convert}};
  const std::filesystem::path dir = std::filesystem::path(RFK_SOURCE_DIR) / "tests/fuzz/regressions";
  std::map<std::string, int> inputs;
  for (const auto& sub : std::filesystem::directory_iterator(dir)) {
    const std::string name = sub.path().filename().string();
    CAPTURE(name);
    REQUIRE(sub.is_directory());
    const auto target = targets.find(name);
    REQUIRE_MESSAGE(target != targets.end(), "no fuzz target named " << name);
    for (const auto& entry : std::filesystem::directory_iterator(sub.path())) {
      const std::string bytes = rfk_test::ReadText(entry.path().string());
      CAPTURE(entry.path().filename().string());
      CHECK(target->second(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size()) == 0);
      ++inputs[name];
    }
  }
  CHECK(inputs["model"] > 0);
}

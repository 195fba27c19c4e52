// Replays every file of a directory through the model fuzz target's harness (fuzz_model.cc) on the
// core this program links: the test suite replays tests/fuzz/regressions/ on the whole core
// (test_fuzz_regressions.cc); this serves the targets that fuzz a configured core
// (scripts/fuzz.sh's model_dense: the core `rfk export --config-header` makes for a dense f32
// model). Exit 0 when every input was handled; a relapse is a sanitizer report under the asan
// preset, and a crash anywhere. usage: rfk_fuzz_replay_<core> DIR
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

#include "fuzz_targets.h"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s DIR\n", argv[0]);
    return 2;
  }
  int inputs = 0;
  for (const auto& entry : std::filesystem::directory_iterator(argv[1])) {
    std::ifstream f(entry.path(), std::ios::binary);
    const std::string bytes((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
    if (rfk_fuzz::Model(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size()) != 0) return 1;
    ++inputs;
  }
  std::printf("fuzz replay: %d inputs of %s handled\n", inputs, argv[1]);
  return inputs > 0 ? 0 : 1;  // an empty directory replays nothing: a mistake in the test's setup
}

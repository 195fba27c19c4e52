// rfk info: the SIMD kernel tables compiled in and supported here, and the one in use.
#include <cstdio>
#include <cstdlib>
#include <memory>

#include <CLI/CLI.hpp>

#include "cli.hpp"
#include "rfk/kernels.hpp"

namespace rfk::cli {
namespace {

int RunInfo(bool json) {
  const rfk::KernelTable& active = rfk::ActiveKernels();
  const char* forced = std::getenv("RFK_TARGET");
  if (json) {
    std::printf("{\"version\": \"%s\", \"tables\": [", RFK_VERSION);
    for (std::size_t i = 0; i < rfk::KernelTableCount(); ++i) {
      const rfk::KernelTable* t = rfk::KernelTableAt(i);
      std::printf("%s{\"backend\": \"%s\", \"target\": \"%s\"}", i ? ", " : "", t->backend, t->target);
    }
    std::printf("], \"active\": {\"backend\": \"%s\", \"target\": \"%s\"}, \"forced_by_env\": %s}\n",
                active.backend, active.target, forced && *forced ? "true" : "false");
  } else {
    std::printf("rfk %s\nkernel tables compiled and supported by this CPU (best first):\n", RFK_VERSION);
    for (std::size_t i = 0; i < rfk::KernelTableCount(); ++i) {
      const rfk::KernelTable* t = rfk::KernelTableAt(i);
      std::printf("  %s-%s%s\n", t->backend, t->target, t == &active ? "   <- active" : "");
    }
    std::printf("active: %s-%s%s\n", active.backend, active.target,
                forced && *forced ? " (forced by RFK_TARGET)" : " (best available)");
  }
  return 0;
}

}  // namespace

Command AddInfo(CLI::App& app) {
  auto json = std::make_shared<bool>(false);
  CLI::App* cmd = app.add_subcommand("info", "Show the compiled SIMD kernel tables and the one in use");
  cmd->add_flag("--json", *json, "Print exactly one JSON object");
  return {cmd, [json] { return RunInfo(*json); }};
}

}  // namespace rfk::cli

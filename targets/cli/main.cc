// rfk: train, predict, evaluate, inspect and export random-feature models from the command line.
// This file builds the CLI11 app from the subcommands (each registers its own options in its own
// file: train.cc, predict.cc, eval.cc, info.cc, inspect.cc, export.cc), parses, and runs the one
// given. Exit status: 0 on success, 1 for an error ("rfk: error: ..."), 2 for a bad command line.
#include <cstdio>
#include <cstdlib>
#include <new>
#include <string>
#include <vector>

#include <unistd.h>

#include <CLI/CLI.hpp>

#include "cli.hpp"
#include "rfk/host/train.hpp"
#include "rfk/kernels.hpp"

namespace {

// RFK_TARGET forces a kernel table (e.g. scalar, AVX2, hwy-SSE4) for benchmarking and checks.
bool SelectTargetFromEnvironment() {
  const char* target = std::getenv("RFK_TARGET");
  if (target == nullptr || *target == '\0' || rfk::SelectKernels(target)) return true;
  std::string names;
  for (std::size_t i = 0; i < rfk::KernelTableCount(); ++i)
    names += std::string(i ? ", " : "") + rfk::KernelTableAt(i)->backend + "-" + rfk::KernelTableAt(i)->target;
  std::fprintf(stderr, "rfk: error: RFK_TARGET=%s names no kernel table on this CPU (available: %s)\n", target,
               names.c_str());
  return false;
}

// CLI11's message, reworded where its own wording is cryptic ("--train: At Most 1 required but
// received 2").
std::string ParseMessage(const CLI::ParseError& e) {
  std::string m = e.what();
  const std::string at_most = ": At Most 1 required but received ";
  if (const std::size_t p = m.find(at_most); p != std::string::npos)
    return m.substr(0, p) + " takes one value but was given " + m.substr(p + at_most.size()) + "; give it once";
  const std::string excludes = " excludes ";
  if (const std::size_t p = m.find(excludes); p != std::string::npos)
    return m.substr(0, p) + " and " + m.substr(p + excludes.size()) + " cannot be used together";
  return m;
}

// `rfk train` on a CPU that OpenBLAS does not know would run its generic kernels, 2-3x slower
// (rfk/host/train.hpp, BetterBlasCore); OpenBLAS reads OPENBLAS_CORETYPE only when it loads, so
// train restarts itself once with it set. The user's own OPENBLAS_CORETYPE is never overridden (and
// stops a second restart); if the restart fails, training goes on with OpenBLAS's own choice.
void RestartWithBetterBlas(int argc, char** argv) {
  if (argc < 2 || std::string(argv[1]) != "train") return;
  const std::string core = rfk::host::BetterBlasCore();
  if (core.empty() || setenv("OPENBLAS_CORETYPE", core.c_str(), 1) != 0) return;
  execv("/proc/self/exe", argv);
  unsetenv("OPENBLAS_CORETYPE");
}

}  // namespace

int main(int argc, char** argv) {
  namespace cli = rfk::cli;
  RestartWithBetterBlas(argc, argv);
  CLI::App app{"rfk: random-feature kernel machines (Rahimi & Recht 2007), trained here, run anywhere"};
  app.require_subcommand(1);
  app.set_version_flag("--version", "rfk " RFK_VERSION);
  // In this order in `rfk --help`.
  const std::vector<cli::Command> commands = {cli::AddTrain(app), cli::AddPredict(app), cli::AddEval(app),
                                              cli::AddInfo(app),  cli::AddInspect(app), cli::AddExport(app),
                                              cli::AddConvert(app)};
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) return app.exit(e);  // --help, --version
    // CLI11's own errors (unknown option, a value that does not convert, a missing argument) in
    // the same form as rfk's, with the usage exit status and the subcommand's help as the hint.
    const std::vector<CLI::App*> given = app.get_subcommands();
    const std::string help = given.empty() ? "rfk --help" : "rfk " + given.front()->get_name() + " --help";
    std::fprintf(stderr, "rfk: error: %s\nRun '%s' for the options.\n", ParseMessage(e).c_str(), help.c_str());
    return 2;
  }
  if (!SelectTargetFromEnvironment()) return 1;
  try {
    for (const cli::Command& c : commands)
      if (*c.app) return c.run();
  } catch (const std::bad_alloc&) {
    std::fflush(stdout);
    std::fprintf(stderr, "rfk: error: out of memory\n");
    return 1;
  } catch (const std::exception& e) {
    std::fflush(stdout);
    std::fprintf(stderr, "rfk: error: %s\n", e.what());
    return 1;
  }
  return 2;
}

// Signals during `rfk train`, and the model write they must not tear.
// SIGINT, SIGTERM, SIGHUP: while training, nothing is on disk yet, so the handler ends the
// process at once (after a message) by the signal's default action: no temporary file exists and
// an existing output file is untouched. While the model is being written (g_writing) it only
// records the signal; WriteFileAtomic's cancel check then removes the temporary and keeps the old
// output, and WriteModelAtomically reports the interruption.
#include <signal.h>
#include <unistd.h>

#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "cli.hpp"

namespace rfk::cli {
namespace {

volatile std::sig_atomic_t g_writing = 0;
volatile std::sig_atomic_t g_signal = 0;

extern "C" void OnTerminationSignal(int sig) {
  if (g_writing) {
    g_signal = sig;
    return;
  }
  static const char kMsg[] = "\nrfk: interrupted; no model written\n";
  const ssize_t ignored = ::write(STDERR_FILENO, kMsg, sizeof kMsg - 1);
  (void)ignored;
  std::signal(sig, SIG_DFL);
  std::raise(sig);
}

[[noreturn]] void DieBySignal(int sig) {
  std::fflush(stdout);
  std::signal(sig, SIG_DFL);
  std::raise(sig);
  std::_Exit(128 + sig);
}

}  // namespace

void InstallTrainSignalHandlers() {
  struct sigaction sa {};
  sa.sa_handler = OnTerminationSignal;
  sigemptyset(&sa.sa_mask);
  for (int sig : {SIGINT, SIGTERM, SIGHUP}) sigaddset(&sa.sa_mask, sig);
  for (int sig : {SIGINT, SIGTERM, SIGHUP}) sigaction(sig, &sa, nullptr);
  // A file size limit (ulimit -f) then fails the write with EFBIG, which removes the temporary,
  // instead of killing the process with a partial temporary on disk.
  std::signal(SIGXFSZ, SIG_IGN);
}

void WriteModelAtomically(const std::string& path, const std::vector<std::uint8_t>& model) {
  g_writing = 1;
  try {
    host::WriteFileAtomic(path, model, [] { return g_signal != 0; });
  } catch (const host::IoError&) {
    g_writing = 0;
    if (g_signal == 0) throw;
    std::fprintf(stderr, "rfk: interrupted (%s) while writing %s; no model written, the file is "
                 "unchanged\n", strsignal(g_signal), path.c_str());
    DieBySignal(g_signal);
  }
  g_writing = 0;
  if (g_signal != 0) {
    std::fprintf(stderr, "rfk: interrupted (%s) just after %s was written; that model is "
                 "complete\n", strsignal(g_signal), path.c_str());
    DieBySignal(g_signal);
  }
}

}  // namespace rfk::cli

// The rfk CLI under hostile use: absurd sizes refused up front with the memory they would need,
// interrupted or failed training that leaves no partial model, and a sweep of bad arguments and
// files, each a clear message and a non-zero exit (never a crash: status 128+ is a signal).
#include <doctest/doctest.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <filesystem>
#include <string>
#include <vector>

#include "rfk/host/model_writer.hpp"
#include "test_util.h"

extern char** environ;

namespace {

std::string Cli() { return RFK_CLI; }

bool Has(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

// Names of leftover temporaries of WriteFileAtomic in `dir`.
std::vector<std::string> TempFiles(const std::string& dir) {
  std::vector<std::string> out;
  for (const auto& e : std::filesystem::directory_iterator(dir)) {
    const std::string name = e.path().filename().string();
    if (name.rfind(".rfk-tmp-", 0) == 0) out.push_back(name);
  }
  return out;
}

// n rows of a 4-feature regression problem.
std::string Csv(int n) {
  std::string csv = "a,b,c,d,y\n";
  for (int i = 0; i < n; ++i) {
    const int a = i % 17, b = (i * 7) % 13, c = (i * 3) % 11, d = i % 5;
    csv += std::to_string(a) + "," + std::to_string(b) + "," + std::to_string(c) + "," +
           std::to_string(d) + "," + std::to_string(a * 0.5 - b + c * d) + "\n";
  }
  return csv;
}

// The `rfk` arguments as a running child with stderr on a pipe (read end in err_fd).
struct Child {
  pid_t pid = -1;
  int err_fd = -1;
};

Child Spawn(const std::vector<std::string>& args) {
  int fds[2];
  REQUIRE(::pipe(fds) == 0);
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&fa, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_adddup2(&fa, fds[1], STDERR_FILENO);
  posix_spawn_file_actions_addclose(&fa, fds[0]);
  posix_spawn_file_actions_addclose(&fa, fds[1]);
  std::vector<char*> argv;
  for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  Child c;
  const int rc = posix_spawn(&c.pid, argv[0], &fa, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&fa);
  ::close(fds[1]);
  REQUIRE(rc == 0);
  c.err_fd = fds[0];
  return c;
}

// Reads the child's stderr until `marker` appears (if not empty) or the pipe closes.
std::string ReadUntil(int fd, const std::string& marker) {
  std::string got;
  char buf[4096];
  while (marker.empty() || !Has(got, marker)) {
    const ssize_t n = ::read(fd, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    got.append(buf, static_cast<std::size_t>(n));
  }
  return got;
}

std::string ReadAll(int fd) { return ReadUntil(fd, ""); }

}  // namespace

TEST_CASE("resource guard: an absurd D or P is refused up front, stating the memory it needs") {
  rfk_test::TempDir tmp;
  rfk_test::WriteText(tmp.Path("d.csv"), Csv(2000));
  const std::string model = tmp.Path("m.rfk");

  // D = 2^24: the D x D ridge statistics alone are 2 PiB -- more than any machine's memory.
  const auto d = rfk_test::Run(Cli() + " train --train " + tmp.Path("d.csv") + " -D 16777216 -o " + model);
  INFO(d.err);
  CHECK(d.status == 1);
  CHECK(Has(d.err, "rfk: error: training would need about "));
  CHECK(Has(d.err, " PiB of memory"));
  CHECK(Has(d.err, "the ridge statistics"));
  CHECK(Has(d.err, "(physical memory)"));
  CHECK(Has(d.err, "use fewer --features"));
  CHECK_FALSE(std::filesystem::exists(model));

  // P grids x n rows of bin keys against an explicit limit (machine-independent).
  const auto p = rfk_test::Run(Cli() + " train --train " + tmp.Path("d.csv") +
                               " --map binning -P 400 --memory-limit 4M -o " + model);
  INFO(p.err);
  CHECK(p.status == 1);
  CHECK(Has(p.err, "the bin keys and columns, grids x rows"));
  CHECK(Has(p.err, "more than the limit of 4 MiB (--memory-limit)"));
  CHECK(Has(p.err, "use fewer --grids"));
  CHECK_FALSE(std::filesystem::exists(model));

  // Within the limit, training goes ahead and reports its estimate.
  const auto ok = rfk_test::Run(Cli() + " train --train " + tmp.Path("d.csv") +
                                " --map binning -P 20 --memory-limit 64M -o " + model);
  INFO(ok.err);
  CHECK(ok.status == 0);
  CHECK(Has(ok.out, "estimated peak (limit 64.00 MiB)"));

  const auto bad = rfk_test::Run(Cli() + " train --train " + tmp.Path("d.csv") + " --memory-limit 12X -o " + model);
  CHECK(bad.status == 1);
  CHECK(Has(bad.err, "--memory-limit must be"));
}

TEST_CASE("SIGINT during training: non-zero exit, the existing model unchanged, no temporary left") {
  rfk_test::TempDir tmp;
  // A training that runs for seconds past its first progress line (the line comes after the
  // first 512 of 40000 rows went through the default's first cross-validation pass, D = 1000, on
  // one thread); the signal is sent once that line is seen, so it lands inside training. Were training ever to finish first, the
  // checks below fail: no silent pass.
  rfk_test::WriteText(tmp.Path("d.csv"), Csv(40000));
  const std::string model = tmp.Path("m.rfk");
  rfk_test::WriteText(model, "the user's previous model");
  for (const int sig : {SIGINT, SIGTERM}) {
    CAPTURE(sig);
    Child c = Spawn({Cli(), "train", "--train", tmp.Path("d.csv"), "-D", "1000", "--threads", "1",
                     "--progress", "-o", model});
    std::string err = ReadUntil(c.err_fd, "rfk: progress: step 1 of ");  // the default's first CV pass
    REQUIRE_MESSAGE(Has(err, "rfk: progress:"), err);
    REQUIRE(::kill(c.pid, sig) == 0);
    err += ReadAll(c.err_fd);
    ::close(c.err_fd);
    int status = 0;
    REQUIRE(::waitpid(c.pid, &status, 0) == c.pid);
    INFO(err);
    CHECK(WIFSIGNALED(status));
    CHECK(WTERMSIG(status) == sig);
    CHECK(Has(err, "rfk: interrupted; no model written"));
    CHECK(rfk_test::ReadText(model) == "the user's previous model");
    CHECK(TempFiles(tmp.Path("")).empty());
  }
}

TEST_CASE("a model write that fails midway (file size limit) leaves the old model and no temporary") {
  rfk_test::TempDir tmp;
  rfk_test::WriteText(tmp.Path("d.csv"), Csv(300));
  const std::string model = tmp.Path("m.rfk");
  rfk_test::WriteText(model, "the user's previous model");
  // ulimit -f 2: writes beyond 1 or 2 KiB (the shell's block size) fail; the model is ~6 KiB.
  const auto r = rfk_test::Run("ulimit -f 2 && exec " + Cli() + " train --train " + tmp.Path("d.csv") +
                               " -D 400 -o " + model);
  INFO(r.err);
  CHECK(r.status == 1);
  CHECK(Has(r.err, "rfk: error: " + model + ": write failed: File too large"));
  CHECK(rfk_test::ReadText(model) == "the user's previous model");
  CHECK(TempFiles(tmp.Path("")).empty());
}

TEST_CASE("WriteFileAtomic: cancelled before the rename, the temporary goes and the old file stays") {
  rfk_test::TempDir tmp;
  const std::string path = tmp.Path("m.rfk");
  rfk_test::WriteText(path, "old");
  const std::vector<std::uint8_t> bytes(100000, 7);
  for (const int cancel_at : {1, 2}) {
    CAPTURE(cancel_at);
    int calls = 0;
    CHECK_THROWS_WITH_AS(rfk::host::WriteFileAtomic(path, bytes, [&] { return ++calls == cancel_at; }),
                         (path + ": not written: cancelled").c_str(), rfk::host::IoError);
    CHECK(calls == cancel_at);
    CHECK(rfk_test::ReadText(path) == "old");
    CHECK(TempFiles(tmp.Path("")).empty());
  }
  int calls = 0;
  rfk::host::WriteFileAtomic(path, bytes, [&] { return ++calls > 2; });
  CHECK(calls == 2);
  CHECK(rfk_test::ReadText(path).size() == bytes.size());
}

TEST_CASE("CLI sweep: bad arguments and files give a clear message and a non-zero exit") {
  rfk_test::TempDir tmp;
  const std::string csv = tmp.Path("c.csv"), model = tmp.Path("m.rfk"), out = tmp.Path("o.rfk");
  rfk_test::WriteText(csv, "a,b,y\n1,2,x\n2,3,y\n3,1,x\n4,4,y\n5,2,x\n");
  rfk_test::WriteText(tmp.Path("empty.csv"), "");
  rfk_test::WriteText(tmp.Path("header.csv"), "a,b,y\n");
  rfk_test::WriteText(tmp.Path("huge-y.csv"), "a,y\n1,2.5\n2,3e39\n");
  rfk_test::WriteText(tmp.Path("wide.csv"), "a,b,c,y\n1,2,3,x\n2,3,4,y\n");
  rfk_test::WriteText(tmp.Path("wide-nohead.csv"), "1,2,3,4,x\n2,3,4,5,y\n");
  std::filesystem::create_directory(tmp.Path("dir"));
  REQUIRE(rfk_test::Run(Cli() + " train --train " + csv + " -D 8 -o " + model).status == 0);
  const std::string train = Cli() + " train --train " + csv + " -o " + out + " ";
  struct Case {
    std::string command, message;
  };
  const std::vector<Case> cases = {
      {train + "-D 0", "--features must be 'default' or a positive integer; got '0'"},
      {train + "-D -5", "--features"},
      {train + "-D 99999999999", "--features"},
      {train + "-D 20000000", "--features must be between 1 and 16777216"},
      {train + "--max-model-bytes 5", "--max-model-bytes 5 B holds no feature of this data"},
      {train + "--max-model-bytes physical", "--max-model-bytes must be a size such as 64K or 16M"},
      {train + "-D 7", "even"},
      {train + "--map binning -P 0", "--grids must be at least 1"},
      {train + "--map binning -P 4294967295", "--grids must be between 1 and 65536"},
      {train + "--map binning -P 65536 -B 65536", "exceeds the format's 2^24 columns"},
      {train + "-B 8", "--bins-per-grid needs a binning map"},
      {train + "--lambda auto --folds 0", "cross-validation needs 2 <= folds <= rows"},
      {train + "--lambda auto --folds 100", "cross-validation needs 2 <= folds <= rows"},
      {train + "--threads -1", "--threads"},
      {train + "--gamma nan", "--gamma must be a positive number"},
      {train + "--gamma inf", "--gamma must be a positive number"},
      {train + "--gamma -1", "--gamma must be a positive number"},
      {train + "--gamma 0", "--gamma must be a positive number"},
      {train + "--gamma 1e-300", "--gamma 1e-300 is outside the float range"},
      {train + "--gamma 1e39", "--gamma 1e+39 is outside the float range"},
      {train + "--map binning -P 2 --gamma 1e-60", "--gamma 1e-60 is outside the float range"},
      {train + "--map fourier+binning -P 2 --bin-gamma 1e-40", "--bin-gamma 1e-40 is outside"},
      {train + "--map fourier+binning -P 2 --bin-gamma nan", "--bin-gamma must be a positive number"},
      {train + "--lambda nan", "--lambda must be a number >= 0"},
      {train + "--lambda inf", "--lambda must be a number >= 0"},
      {train + "--lambda -1", "--lambda must be a number >= 0"},
      {train + "--lambda 0", "use --lambda > 0"},
      {train + "--seed -1", "--seed must be an integer"},
      {train + "--seed 18446744073709551616", "--seed must be an integer"},
      {train + "--label-col 5", "label column 5 is out of range for 3 columns"},
      {train + "--format bogus", "unknown data format 'bogus'"},
      {Cli() + " train --train " + tmp.Path("huge-y.csv") + " --task regression -o " + out,
       "huge-y.csv:3: label '3e39' is beyond the float range of the model's outputs"},
      {Cli() + " train --train " + tmp.Path("empty.csv") + " -o " + out, "empty.csv: no data rows"},
      {Cli() + " train --train " + tmp.Path("header.csv") + " -o " + out, "header.csv: no data rows"},
      {Cli() + " train --train " + tmp.Path("dir") + " -o " + out, "dir: read error: Is a directory"},
      {Cli() + " train --train " + tmp.Path("nope.csv") + " -o " + out, "nope.csv: cannot open"},
      {Cli() + " train --train " + csv + " -o ''", "--output must name a file"},
      {Cli() + " train --train " + csv + " -o " + tmp.Path("dir"), "dir: cannot replace the file: Is a directory"},
      {Cli() + " train --train " + csv + " -o " + csv + "/m.rfk", "cannot create a temporary file"},
      {Cli() + " predict -m " + model + " " + tmp.Path("wide.csv"),
       "wide.csv:1: the header does not match the model's features: not among the model's features 'c' (the model "
       "takes 'a', 'b')"},
      {Cli() + " eval -m " + model + " " + tmp.Path("wide.csv"), "not among the model's features 'c'"},
      {Cli() + " predict -m " + model + " " + tmp.Path("wide-nohead.csv"),
       "the rows have 5 columns; the model takes 2 features: expected 2 (features only) or 3 (features and a label)"},
      {Cli() + " eval -m " + model + " " + tmp.Path("wide-nohead.csv"), "the model takes 2 features"},
      {Cli() + " predict -m " + model + " " + tmp.Path("empty.csv"), "empty.csv: no data rows"},
      {Cli() + " predict -m " + model + " " + tmp.Path("header.csv"), "header.csv: no data rows"},
      {Cli() + " predict -m " + model + " " + tmp.Path("dir"), "dir: read error: Is a directory"},
      {Cli() + " predict -m " + tmp.Path("dir") + " " + csv, "dir: not a regular file (a directory)"},
      {Cli() + " inspect " + tmp.Path("dir"), "dir: not a regular file (a directory)"},
      {Cli() + " predict -m " + csv + " " + csv, "not an rfk model (bad magic)"},
      {Cli() + " predict -m " + tmp.Path("empty.csv") + " " + csv, "[kTruncated] at field 'header'"},
      {Cli() + " eval -m " + model + " /dev/null", "/dev/null: no data rows"},
  };
  for (const Case& c : cases) {
    CAPTURE(c.command);
    const auto r = rfk_test::Run(c.command);
    INFO(r.err);
    CHECK(r.status > 0);
    CHECK(r.status < 128);  // an error exit, not a signal
    CHECK(Has(r.err, "rfk: error: "));  // one form for every error, CLI11's parse errors included
    CHECK(Has(r.err, c.message));
    CHECK_FALSE(std::filesystem::exists(out));
    CHECK(TempFiles(tmp.Path("")).empty());
  }
}

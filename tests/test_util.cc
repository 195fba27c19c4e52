#include "test_util.h"

#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "rfk/host/quantize.hpp"

namespace rfk_test {

TempDir::TempDir() {
  static std::atomic<int> counter{0};
  dir_ = std::filesystem::temp_directory_path() /
         ("rfk-test-" + std::to_string(::getpid()) + "-" + std::to_string(counter++));
  std::filesystem::remove_all(dir_);
  std::filesystem::create_directories(dir_);
}
TempDir::~TempDir() {
  std::error_code ec;
  std::filesystem::remove_all(dir_, ec);
}

std::size_t Blob::Entry(rfk::format::SectionType type) const {
  namespace f = rfk::format;
  const std::uint32_t count = U32(f::kOffSectionCount), table = U32(f::kOffSectionTable);
  for (std::uint32_t i = 0; i < count; ++i) {
    const std::size_t e = table + i * f::kSectionEntryBytes;
    std::uint16_t t;
    std::memcpy(&t, storage.data() + e, 2);
    if (t == static_cast<std::uint16_t>(type)) return e;
  }
  return 0;
}

void Blob::FixCrc() {
  namespace f = rfk::format;
  const std::uint32_t total = U32(f::kOffTotalBytes);
  SetU32(f::kOffCrc32, rfk::Crc32(storage.data() + f::kCrcStart, total - f::kCrcStart));
}

std::string ReadText(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

void WriteText(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
}

CommandResult Run(const std::string& command) {
  TempDir tmp;
  const std::string out = tmp.Path("out"), err = tmp.Path("err");
  CommandResult r;
  const int raw = std::system((command + " >" + out + " 2>" + err + " </dev/null").c_str());
  r.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
  r.out = ReadText(out);
  r.err = ReadText(err);
  return r;
}

std::string SharedDataset(const std::string& relative) {
#ifdef RFK_SHARED_DIR
  const std::string p = std::string(RFK_SHARED_DIR) + "/datasets/" + relative;
  if (std::filesystem::exists(p)) return p;
#endif
  return "";
}

std::vector<std::uint8_t> Requantized(const std::vector<std::uint8_t>& bytes, rfk::format::Storage map,
                                      rfk::format::Storage head) {
  Blob b(bytes);
  rfk::Model m;
  if (b.Open(&m) != rfk::Status::kOk) throw std::runtime_error("Requantized: the model does not open");
  return rfk::host::RequantizeModel(m, map, head);
}

}  // namespace rfk_test

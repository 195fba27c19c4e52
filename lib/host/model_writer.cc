#include "rfk/host/model_writer.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

#include "rfk/model.hpp"

namespace rfk::host {
namespace {

namespace f = format;

class Blob {
 public:
  void Put16(std::uint32_t at, std::uint16_t v) { std::memcpy(&b_[at], &v, 2); }
  void Put32(std::uint32_t at, std::uint32_t v) { std::memcpy(&b_[at], &v, 4); }
  void Put64(std::uint32_t at, std::uint64_t v) { std::memcpy(&b_[at], &v, 8); }
  void PutF32(std::uint32_t at, float v) { std::memcpy(&b_[at], &v, 4); }
  std::uint32_t Append(const void* data, std::size_t n) {
    const auto at = static_cast<std::uint32_t>(b_.size());
    const auto* p = static_cast<const std::uint8_t*>(data);
    b_.insert(b_.end(), p, p + n);
    return at;
  }
  void AlignTo(std::size_t a) { b_.resize((b_.size() + a - 1) / a * a, 0); }
  std::vector<std::uint8_t>& bytes() { return b_; }

 private:
  std::vector<std::uint8_t> b_;
};

struct PendingSection {
  f::SectionType type;
  bool required;
  std::vector<std::uint8_t> payload;
};

template <typename T>
void AppendPod(std::vector<std::uint8_t>* out, const T* data, std::size_t n) {
  const auto* p = reinterpret_cast<const std::uint8_t*>(data);
  out->insert(out->end(), p, p + n * sizeof(T));
}
void AppendU32(std::vector<std::uint8_t>* out, std::uint32_t v) { AppendPod(out, &v, 1); }

void Require(bool ok, const char* what) {
  if (!ok) throw std::invalid_argument(std::string("SerializeModel: ") + what);
}

}  // namespace

std::vector<std::uint8_t> SerializeModel(const ModelSpec& s) {
  const std::uint64_t d = s.input_dim, F = s.num_frequencies, D = s.NumFeatures(), K = s.num_outputs;
  const std::uint64_t P = s.num_grids;
  Require(d > 0 && (F > 0 || P > 0) && K > 0, "empty dimensions");
  Require(s.projection.size() == F * d, "projection size != F*d");
  Require(s.bin_inv_width.size() == P * d && s.bin_offset.size() == P * d, "bin grids != P*d");
  Require(P == 0 || s.bin_mode == f::BinMode::kHashed ? s.bin_grid_start.empty() && s.bin_keys.empty()
                                                      : s.bin_grid_start.size() == P + 1,
          "bin keys given for hashed mode, or grid starts != P + 1");
  Require(s.map != f::MapKind::kFourierPhase || s.phase.size() == F, "phase size != F");
  Require(s.map == f::MapKind::kFourierPhase || s.phase.empty(), "phase given for pair form");
  Require(s.mean.size() == s.inv_scale.size() && (s.mean.empty() || s.mean.size() == d),
          "standardisation size != d");
  Require(s.head_weights.size() == K * D && s.head_bias.size() == K, "head size != K*D, K");
  Require((s.task == f::Task::kRegression) == s.labels.empty(), "labels iff classification");

  std::vector<PendingSection> sections;
  if (F > 0) {
    std::vector<std::uint8_t> p(f::map_params::kBytes, 0);
    auto put32 = [&](std::uint32_t at, std::uint32_t v) { std::memcpy(&p[at], &v, 4); };
    namespace mp = f::map_params;
    put32(mp::kMapKind, static_cast<std::uint32_t>(s.map));
    put32(mp::kKernel, static_cast<std::uint32_t>(s.kernel));
    put32(mp::kInputDim, s.input_dim);
    put32(mp::kFourierFeatures, s.FourierFeatures());
    put32(mp::kNumFrequencies, s.num_frequencies);
    put32(mp::kStorage, static_cast<std::uint32_t>(f::Storage::kF32));
    put32(mp::kLayout, static_cast<std::uint32_t>(s.layout));
    put32(mp::kPanelWidthField, s.layout == f::Layout::kPanels ? f::kPanelWidth : 0);
    std::memcpy(&p[mp::kGamma], &s.gamma, 4);
    std::memcpy(&p[mp::kFeatureScale], &s.feature_scale, 4);
    std::memcpy(&p[mp::kSeed], &s.seed, 8);
    sections.push_back({f::SectionType::kMapParams, true, std::move(p)});
  }
  if (F > 0) {
    std::vector<std::uint8_t> p;
    if (s.layout == f::Layout::kPanels) {
      // Panel q holds frequencies [16q, 16q + 16) as d rows of 16 (zero rows pad the last one).
      const std::uint64_t Fs = f::StoredFrequencies(s.layout, s.num_frequencies), pw = f::kPanelWidth;
      std::vector<float> packed(Fs * d, 0.0f);
      for (std::uint64_t j = 0; j < F; ++j)
        for (std::uint64_t c = 0; c < d; ++c)
          packed[(j / pw) * pw * d + c * pw + j % pw] = s.projection[j * d + c];
      AppendPod(&p, packed.data(), packed.size());
    } else {
      AppendPod(&p, s.projection.data(), s.projection.size());
    }
    sections.push_back({f::SectionType::kProjection, true, std::move(p)});
  }
  if (!s.phase.empty()) {
    std::vector<std::uint8_t> p;
    AppendPod(&p, s.phase.data(), s.phase.size());
    sections.push_back({f::SectionType::kPhase, true, std::move(p)});
  }
  if (P > 0) {
    namespace bp = f::binning_params;
    std::vector<std::uint8_t> p(bp::kBytes, 0);
    auto put32 = [&](std::uint32_t at, std::uint32_t v) { std::memcpy(&p[at], &v, 4); };
    put32(bp::kNumGrids, s.num_grids);
    put32(bp::kInputDim, s.input_dim);
    put32(bp::kMode, static_cast<std::uint32_t>(s.bin_mode));
    put32(bp::kBuckets, s.bin_mode == f::BinMode::kHashed ? s.bin_buckets : 0);
    put32(bp::kBinFeatures, s.BinFeatures());
    put32(bp::kKernel, static_cast<std::uint32_t>(f::Kernel::kLaplacian));
    std::memcpy(&p[bp::kGamma], &s.bin_gamma, 4);
    std::memcpy(&p[bp::kFeatureScale], &s.bin_scale, 4);
    std::memcpy(&p[bp::kSeed], &s.bin_seed, 8);
    sections.push_back({f::SectionType::kBinningParams, true, std::move(p)});
    std::vector<std::uint8_t> g;
    AppendPod(&g, s.bin_inv_width.data(), s.bin_inv_width.size());
    AppendPod(&g, s.bin_offset.data(), s.bin_offset.size());
    sections.push_back({f::SectionType::kBinGrids, true, std::move(g)});
    if (s.bin_mode == f::BinMode::kExact) {
      std::vector<std::uint8_t> k;
      AppendPod(&k, s.bin_grid_start.data(), s.bin_grid_start.size());
      k.resize((k.size() + 7) / 8 * 8, 0);
      AppendPod(&k, s.bin_keys.data(), s.bin_keys.size());
      sections.push_back({f::SectionType::kBinKeys, true, std::move(k)});
    }
  }
  if (!s.mean.empty()) {
    std::vector<std::uint8_t> p;
    AppendPod(&p, s.mean.data(), s.mean.size());
    AppendPod(&p, s.inv_scale.data(), s.inv_scale.size());
    // Required: a reader that skipped standardisation would predict garbage.
    sections.push_back({f::SectionType::kStandardize, true, std::move(p)});
  }
  {
    std::vector<std::uint8_t> p;
    AppendU32(&p, static_cast<std::uint32_t>(s.task));
    AppendU32(&p, s.num_outputs);
    AppendU32(&p, static_cast<std::uint32_t>(D));
    AppendU32(&p, 0);
    AppendPod(&p, s.head_weights.data(), s.head_weights.size());
    AppendPod(&p, s.head_bias.data(), s.head_bias.size());
    sections.push_back({f::SectionType::kHead, true, std::move(p)});
  }
  if (!s.labels.empty()) {
    std::vector<std::uint8_t> p;
    AppendU32(&p, static_cast<std::uint32_t>(s.labels.size()));
    AppendU32(&p, 0);
    std::uint32_t off = 0;
    AppendU32(&p, off);
    for (const std::string& l : s.labels) {
      Require(l.find('\0') == std::string::npos, "label contains NUL");
      off += static_cast<std::uint32_t>(l.size() + 1);
      AppendU32(&p, off);
    }
    for (const std::string& l : s.labels) p.insert(p.end(), l.c_str(), l.c_str() + l.size() + 1);
    sections.push_back({f::SectionType::kLabels, true, std::move(p)});
  }
  if (!s.metadata.empty()) {
    std::vector<std::uint8_t> p(s.metadata.begin(), s.metadata.end());
    sections.push_back({f::SectionType::kMetadata, false, std::move(p)});
  }

  Blob blob;
  blob.bytes().resize(f::kHeaderBytes, 0);
  const std::uint32_t table = f::kHeaderBytes;
  blob.bytes().resize(table + sections.size() * f::kSectionEntryBytes, 0);
  for (std::size_t i = 0; i < sections.size(); ++i) {
    blob.AlignTo(f::kAlignment);
    const std::uint32_t off = blob.Append(sections[i].payload.data(), sections[i].payload.size());
    const auto e = static_cast<std::uint32_t>(table + i * f::kSectionEntryBytes);
    blob.Put16(e, static_cast<std::uint16_t>(sections[i].type));
    blob.Put16(e + 2, sections[i].required ? f::kSectionRequired : 0);
    blob.Put32(e + 4, off);
    blob.Put32(e + 8, static_cast<std::uint32_t>(sections[i].payload.size()));
  }
  blob.AlignTo(f::kAlignment);
  Require(blob.bytes().size() <= 0xFFFFFFFFull, "model larger than 4 GiB");
  std::memcpy(&blob.bytes()[f::kOffMagic], f::kMagic, 4);
  blob.Put16(f::kOffVersionMajor, f::kVersionMajor);
  blob.Put16(f::kOffVersionMinor, f::kVersionMinor);
  blob.Put32(f::kOffTotalBytes, static_cast<std::uint32_t>(blob.bytes().size()));
  blob.Put32(f::kOffHeaderBytes, f::kHeaderBytes);
  blob.Put32(f::kOffSectionCount, static_cast<std::uint32_t>(sections.size()));
  blob.Put32(f::kOffSectionTable, table);
  blob.Put32(f::kOffCrc32, Crc32(blob.bytes().data() + f::kCrcStart,
                                 blob.bytes().size() - f::kCrcStart));
  return std::move(blob.bytes());
}

void WriteFileAtomic(const std::string& path, const std::vector<std::uint8_t>& bytes,
                     const std::function<bool()>& cancelled) {
  if (cancelled && cancelled()) throw IoError(path + ": not written: cancelled");
  const std::size_t slash = path.find_last_of('/');
  const std::string dir = slash == std::string::npos ? "." : path.substr(0, slash + 1);
  std::string tmpl = (slash == std::string::npos ? std::string() : dir) + ".rfk-tmp-XXXXXX";
  std::vector<char> name(tmpl.begin(), tmpl.end());
  name.push_back('\0');
  const int fd = mkstemp(name.data());
  if (fd < 0) throw IoError(path + ": cannot create a temporary file in " + dir + ": " + std::strerror(errno));
  auto fail = [&](const char* what) {
    const int e = errno;
    ::close(fd);
    ::unlink(name.data());
    throw IoError(path + ": " + what + ": " + std::strerror(e));
  };
  std::size_t done = 0;
  while (done < bytes.size()) {
    const ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      fail("write failed");
    }
    done += static_cast<std::size_t>(n);
  }
  // Keep the permissions of a model being replaced; new files get rw-r--r--.
  struct stat old {};
  const mode_t mode = ::stat(path.c_str(), &old) == 0 ? (old.st_mode & 07777) : 0644;
  if (::fchmod(fd, mode) != 0) fail("chmod failed");
  if (::fsync(fd) != 0) fail("fsync failed");
  if (::close(fd) != 0) {
    const int e = errno;
    ::unlink(name.data());
    throw IoError(path + ": close failed: " + std::strerror(e));
  }
  if (cancelled && cancelled()) {
    ::unlink(name.data());
    throw IoError(path + ": not written: cancelled");
  }
  if (std::rename(name.data(), path.c_str()) != 0) {
    const int e = errno;
    ::unlink(name.data());
    throw IoError(path + ": cannot replace the file: " + std::strerror(e));
  }
}

AlignedBytes ReadFileBytes(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) throw IoError(path + ": cannot open: " + std::strerror(errno));
  struct Closer {
    int fd;
    ~Closer() { ::close(fd); }
  } closer{fd};
  struct stat st {};
  if (::fstat(fd, &st) != 0) throw IoError(path + ": cannot stat: " + std::strerror(errno));
  if (!S_ISREG(st.st_mode)) {
    throw IoError(path + ": not a regular file" + (S_ISDIR(st.st_mode) ? " (a directory)" : ""));
  }
  AlignedBytes bytes(static_cast<std::size_t>(st.st_size));
  std::size_t done = 0;
  while (done < bytes.size()) {
    const ssize_t n = ::read(fd, bytes.data() + done, bytes.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) throw IoError(path + ": read failed: " + std::strerror(errno));
    if (n == 0) throw IoError(path + ": the file shrank while being read");
    done += static_cast<std::size_t>(n);
  }
  return bytes;
}

}  // namespace rfk::host

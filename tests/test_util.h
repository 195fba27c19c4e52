// Shared helpers for the doctest suites.
#pragma once

#include <cstdint>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include "rfk/format.hpp"
#include "rfk/host/model_writer.hpp"
#include "rfk/model.hpp"

namespace rfk_test {

// A fresh directory under the system temp dir, removed when the object dies.
class TempDir {
 public:
  TempDir();
  ~TempDir();
  std::string Path(const std::string& name) const { return (dir_ / name).string(); }

 private:
  std::filesystem::path dir_;
};

// A model blob in 16-byte aligned storage that tests may mutate.
struct Blob {
  explicit Blob(const std::vector<std::uint8_t>& bytes) : storage(bytes.size()) {
    std::memcpy(storage.data(), bytes.data(), bytes.size());
  }
  rfk::host::AlignedBytes storage;
  std::uint8_t* data() { return storage.data(); }
  std::size_t size() const { return storage.size(); }
  std::uint32_t U32(std::size_t at) const {
    std::uint32_t v;
    std::memcpy(&v, storage.data() + at, 4);
    return v;
  }
  void SetU32(std::size_t at, std::uint32_t v) { std::memcpy(storage.data() + at, &v, 4); }
  void SetU16(std::size_t at, std::uint16_t v) { std::memcpy(storage.data() + at, &v, 2); }
  // Offset of the table entry of the first section of `type`, or 0.
  std::size_t Entry(rfk::format::SectionType type) const;
  void FixCrc();
  rfk::Status Open(rfk::Model* m = nullptr, rfk::ModelError* err = nullptr) {
    rfk::Model local;
    return rfk::OpenModel(storage.data(), storage.size(), m ? m : &local, err);
  }
};

// Runs a shell command; returns its exit status and captures stdout/stderr.
struct CommandResult {
  int status = -1;
  std::string out, err;
};
CommandResult Run(const std::string& command);

std::string ReadText(const std::string& path);
void WriteText(const std::string& path, const std::string& text);

// `bytes` (a model that opens) re-stored in W storage `map` and head storage `head` by
// rfk::host::RequantizeModel -- always through the writer, f32 to f32 included. Throws
// std::runtime_error if the model does not open.
std::vector<std::uint8_t> Requantized(const std::vector<std::uint8_t>& bytes, rfk::format::Storage map,
                                      rfk::format::Storage head);

// ../shared/datasets path, or "" when the checkout has no ../shared beside it.
std::string SharedDataset(const std::string& relative);

// True in builds whose code runs at full speed (NDEBUG, no sanitizer): the Release presets, native
// and cross. Tests whose real-data work takes minutes at -O0 or under a sanitizer (the default
// pipeline's cross-validation on a9a) do a cheaper share of it in the other builds; what they
// assert does not depend on the build type.
#if defined(NDEBUG) && !defined(__SANITIZE_ADDRESS__) && !defined(__SANITIZE_THREAD__)
inline constexpr bool kOptimisedBuild = true;
#else
inline constexpr bool kOptimisedBuild = false;
#endif

}  // namespace rfk_test

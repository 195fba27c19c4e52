// OpenModel of a core pinned to one model (core_config.h, RFK_PIN_MODEL): the model's identity -- its
// magic, version, size and CRC-32, the header's first 16 bytes -- against the pin, the CRC
// recomputed over the bytes; the Model is kPinnedModel, a constant in flash made of the values
// `rfk export --pin` wrote, which the host's full OpenModel read from those same bytes, pointing
// into the model's array (RFK_PIN_ARRAY). So the pinned core gives every output the generic core
// gives for that model and links none of the validators. No allocation, no exceptions.
#include "fp_contract.h"  // first: no compiler-fused multiply-adds in this file
#include "core_config.h"

#ifdef RFK_PIN_MODEL
#include "bytes.h"
#include "rfk/rfk.h"

namespace rfk::core {

namespace {

// The failure report, out of line (several call sites). Error's status is Status or rfk_status,
// which have the same values (capi.cc checks them).
template <class Error>
[[gnu::noinline]] Status Refuse(Error* error, Status s, const char* field, std::uint32_t offset) {
  if (error) *error = Error{static_cast<decltype(error->status)>(s), field, offset};
  return s;
}

}  // namespace

template <class Error>
Status CheckPinned(const void* bytes, std::size_t size, Error* error) noexcept {
  if (bytes == nullptr) return Refuse(error, Status::kNullArgument, "bytes", 0);
  const auto* b = static_cast<const std::uint8_t*>(bytes);
  namespace f = format;
  if (reinterpret_cast<std::uintptr_t>(b) % f::kAlignment != 0) return Refuse(error, Status::kMisalignedBuffer, "bytes", 0);
  if (size < f::kHeaderBytes) return Refuse(error, Status::kTruncated, "header", 0);
  if (LoadU32(b + f::kOffMagic) != LoadU32(f::kMagic)) return Refuse(error, Status::kBadMagic, "header.magic", f::kOffMagic);
  // Version, size and checksum as pinned (the CRC covers every byte after it): another model, or
  // this one changed, is refused before any of it is read.
  if (LoadU32(b + f::kOffVersionMajor) != (RFK_PIN_VERSION) || LoadU32(b + f::kOffTotalBytes) != (RFK_PIN_BYTES) ||
      LoadU32(b + f::kOffCrc32) != (RFK_PIN_CRC32))
    return Refuse(error, Status::kOtherModel, "header.crc32", f::kOffCrc32);
  if (size < (RFK_PIN_BYTES)) return Refuse(error, Status::kTruncated, "header.total_bytes", f::kOffTotalBytes);
  if (Crc32(b + f::kCrcStart, (RFK_PIN_BYTES) - f::kCrcStart) != (RFK_PIN_CRC32))
    return Refuse(error, Status::kBadChecksum, "header.crc32", f::kOffCrc32);
  return Refuse(error, Status::kOk, "", 0);
}

template Status CheckPinned(const void*, std::size_t, ModelError*) noexcept;
template Status CheckPinned(const void*, std::size_t, rfk_model_error*) noexcept;

}  // namespace rfk::core

namespace rfk {

Status OpenModel(const void* bytes, std::size_t size, Model* model, ModelError* error) noexcept {
  if (model == nullptr) {
    if (error) *error = ModelError{Status::kNullArgument, "model", 0};
    return Status::kNullArgument;
  }
  // Emptied first (bytes null: every other call then fails cleanly).
  *model = Model{};
  const Status s = core::CheckPinned(bytes, size, error);
  if (s == Status::kOk) *model = core::kPinnedModel;
  return s;
}

}  // namespace rfk
#endif

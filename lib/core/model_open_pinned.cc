// OpenModel of a core pinned to one model (core_config.h, RFK_PIN_MODEL): the model's identity -- its
// magic, version, size and CRC-32, the header's first 16 bytes -- against the pin, the CRC
// recomputed over the bytes, then the Model filled from the values `rfk export --pin` wrote, which
// the host's full OpenModel read from those same bytes. So the pinned core gives every output the
// generic core gives for that model and links none of the validators. No allocation, no exceptions.
#include "fp_contract.h"  // first: no compiler-fused multiply-adds in this file
#include "core_config.h"

#ifdef RFK_PIN_MODEL
#include "bytes.h"

namespace rfk {
namespace {

// The failure report, out of line (four call sites).
[[gnu::noinline]] Status Refuse(ModelError* error, Status s, const char* field, std::uint32_t offset) {
  if (error) *error = ModelError{s, field, offset};
  return s;
}

// The pinned values, each converted to its member's type; pointers are offsets into the blob. The
// members not named are zero (OpenModel zeroed *m).
void Fill(const std::uint8_t* b, Model* m) {
#define RFK_PIN_VALUE_(field, value) m->field = static_cast<decltype(m->field)>(value);
#define RFK_PIN_OFFSET_(field, at) m->field = static_cast<decltype(m->field)>(static_cast<const void*>(b + (at)));
  RFK_PIN_MODEL(RFK_PIN_VALUE_, RFK_PIN_OFFSET_)
#if RFK_READ_NAMES
  RFK_PIN_NAMES(RFK_PIN_VALUE_, RFK_PIN_OFFSET_)
#endif
#undef RFK_PIN_VALUE_
#undef RFK_PIN_OFFSET_
}

}  // namespace

Status OpenModel(const void* bytes, std::size_t size, Model* model, ModelError* error) noexcept {
  if (error) *error = ModelError{};
  if (model == nullptr || bytes == nullptr)
    return Refuse(error, Status::kNullArgument, model == nullptr ? "model" : "bytes", 0);
  // Emptied (bytes null: every other call then fails cleanly) by zeroing it: the pin lists each
  // member whose value is not zero, so that Fill stores those only.
  std::memset(static_cast<void*>(model), 0, sizeof *model);
  const auto* b = static_cast<const std::uint8_t*>(bytes);
  namespace f = format;
  if (reinterpret_cast<std::uintptr_t>(b) % f::kAlignment != 0) return Refuse(error, Status::kMisalignedBuffer, "bytes", 0);
  if (size < f::kHeaderBytes) return Refuse(error, Status::kTruncated, "header", 0);
  if (core::LoadU32(b + f::kOffMagic) != core::LoadU32(f::kMagic))
    return Refuse(error, Status::kBadMagic, "header.magic", f::kOffMagic);
  // Version, size and checksum as pinned (the CRC covers every byte after it): another model, or
  // this one changed, is refused before any of it is read.
  if (core::LoadU32(b + f::kOffVersionMajor) != (RFK_PIN_VERSION) || core::LoadU32(b + f::kOffTotalBytes) != (RFK_PIN_BYTES) ||
      core::LoadU32(b + f::kOffCrc32) != (RFK_PIN_CRC32))
    return Refuse(error, Status::kOtherModel, "header.crc32", f::kOffCrc32);
  if (size < (RFK_PIN_BYTES)) return Refuse(error, Status::kTruncated, "header.total_bytes", f::kOffTotalBytes);
  if (Crc32(b + f::kCrcStart, (RFK_PIN_BYTES) - f::kCrcStart) != (RFK_PIN_CRC32))
    return Refuse(error, Status::kBadChecksum, "header.crc32", f::kOffCrc32);
  Fill(b, model);
  return Status::kOk;
}

}  // namespace rfk
#endif

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

// The pinned model's bytes: `rfk export --c-header --name <RFK_PIN_ARRAY> --pin`'s array.
extern "C" const std::uint8_t RFK_PIN_ARRAY[];

namespace rfk::core {
namespace {

// A pinned value, converted to the type of the member it initializes (a constant expression: an
// enum from its number, a float from its exact hex literal, an integer).
template <typename A>
struct PinValue {
  A value;
  template <typename T>
  constexpr operator T() const noexcept {  // NOLINT(google-explicit-constructor): the point of it
    return static_cast<T>(value);
  }
};
template <typename A>
constexpr PinValue<A> Pin(A value) noexcept {
  return {value};
}

}  // namespace

// The designated initializer in declaration order (GCC refuses any other order): an extension
// before C++20 that both GCC and Clang accept, warnings off here only. The pointers are address
// constants, so the object is initialized statically, in flash (__constinit makes GCC refuse
// otherwise); members not listed are zero.
#if defined(__GNUC__) && !defined(__clang__)
#define RFK_CONSTINIT_
#else
#define RFK_CONSTINIT_
#endif
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wpragmas"                  // GCC: an option below it does not know
#pragma GCC diagnostic ignored "-Wunknown-warning-option"  // Clang: the same
#pragma GCC diagnostic ignored "-Wpedantic"
#pragma GCC diagnostic ignored "-Wc++20-extensions"
#pragma GCC diagnostic ignored "-Wc++20-designator"
#pragma GCC diagnostic ignored "-Wc99-designator"
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"  // the point: members not listed are zero
#define RFK_PIN_V_(member, value) .member = Pin(value),
#define RFK_PIN_P_(member, pointee, at) \
  .member = reinterpret_cast<const pointee*>(RFK_PIN_ARRAY + (at)),
#define RFK_PIN_G_(view, entries) .view = {entries},
#if RFK_READ_NAMES
#define RFK_PIN_N_(entry) entry
#else
#define RFK_PIN_N_(entry)
#endif
RFK_CONSTINIT_ const Model kPinnedModel = {RFK_PIN_MODEL(RFK_PIN_V_, RFK_PIN_P_, RFK_PIN_G_, RFK_PIN_N_)};
#undef RFK_PIN_V_
#undef RFK_PIN_P_
#undef RFK_PIN_G_
#undef RFK_PIN_N_
#pragma GCC diagnostic pop
#undef RFK_CONSTINIT_

namespace {

// The failure report, out of line (four call sites).
[[gnu::noinline]] Status Refuse(ModelError* error, Status s, const char* field, std::uint32_t offset) {
  if (error) *error = ModelError{s, field, offset};
  return s;
}

}  // namespace

Status CheckPinned(const void* bytes, std::size_t size, ModelError* error) noexcept {
  if (error) *error = ModelError{};
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
  return Status::kOk;
}

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

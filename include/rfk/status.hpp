// Status codes of the device core. One X-macro list generates the enum and the name table, so
// the two cannot drift apart. Allocation-free, exception-free; safe on bare metal.
#pragma once

#include <cstdint>

namespace rfk {

// X(name, "message")
#define RFK_STATUS_LIST(X)                                                                    \
  X(kOk, "ok")                                                                                \
  X(kNullArgument, "a required pointer argument is null")                                    \
  X(kTruncated, "model is shorter than its header says (truncated)")                         \
  X(kBadMagic, "not an rfk model (bad magic)")                                                \
  X(kUnsupportedVersion, "unsupported model format version")                                  \
  X(kMisalignedBuffer, "model bytes are not aligned to rfk::format::kAlignment")              \
  X(kBadHeader, "malformed model header")                                                     \
  X(kBadChecksum, "model checksum mismatch (corrupted)")                                      \
  X(kBadSectionTable, "malformed section table (count, range or overlap)")                    \
  X(kMisalignedSection, "model section is not aligned to rfk::format::kAlignment")            \
  X(kDuplicateSection, "model section appears twice")                                         \
  X(kMissingSection, "a required model section is missing")                                   \
  X(kUnknownRequiredSection, "model has a required section this version does not know")      \
  X(kBadSectionSize, "model section size does not match its counts")                          \
  X(kBadValue, "model field has an invalid value (count, enum or parameter)")                 \
  X(kUnsupportedMap, "feature map kind not supported by this build")                          \
  X(kUnsupportedStorage, "weight storage type not supported by this build")                   \
  X(kInputDimMismatch, "input length does not match the model's input dimension")             \
  X(kNonFiniteInput, "input contains NaN or infinity")                                        \
  X(kArgumentOutOfRange, "a feature argument |Wx+b| exceeds 1e9 (input far outside training)") \
  X(kOutputTooSmall, "output buffer is smaller than the model's number of outputs")           \
  X(kScratchTooSmall, "scratch buffer is smaller than ScratchBytes(model)")                   \
  X(kMisalignedScratch, "scratch buffer is not aligned to rfk::kScratchAlignment")

enum class Status : std::int32_t {
#define RFK_STATUS_ENUM(name, msg) name,
  RFK_STATUS_LIST(RFK_STATUS_ENUM)
#undef RFK_STATUS_ENUM
};

// Short identifier ("kBadChecksum") and human message; never null, also for unknown values.
const char* StatusName(Status s) noexcept;
const char* StatusMessage(Status s) noexcept;

}  // namespace rfk

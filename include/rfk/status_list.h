/* The one list of the device core's status codes, shared by C++ (rfk/status.hpp: enum class
 * rfk::Status and its name table) and C (rfk/rfk.h: the RFK_* constants). Values are the list
 * positions, so both languages agree by construction; append only, never reorder.
 * Plain preprocessor text: valid C99 and C++17. */
#ifndef RFK_STATUS_LIST_H_
#define RFK_STATUS_LIST_H_

/* X(C++ name, C name, "message") */
#define RFK_STATUS_LIST(X)                                                                          \
  X(kOk, RFK_OK, "ok")                                                                              \
  X(kNullArgument, RFK_NULL_ARGUMENT, "a required pointer argument is null")                        \
  X(kTruncated, RFK_TRUNCATED, "model is shorter than its header says (truncated)")                 \
  X(kBadMagic, RFK_BAD_MAGIC, "not an rfk model (bad magic)")                                       \
  X(kUnsupportedVersion, RFK_UNSUPPORTED_VERSION, "unsupported model format version")               \
  X(kMisalignedBuffer, RFK_MISALIGNED_BUFFER, "model bytes are not aligned to rfk::format::kAlignment") \
  X(kBadHeader, RFK_BAD_HEADER, "malformed model header")                                           \
  X(kBadChecksum, RFK_BAD_CHECKSUM, "model checksum mismatch (corrupted)")                          \
  X(kBadSectionTable, RFK_BAD_SECTION_TABLE, "malformed section table (count, range or overlap)")   \
  X(kMisalignedSection, RFK_MISALIGNED_SECTION, "model section is not aligned to rfk::format::kAlignment") \
  X(kDuplicateSection, RFK_DUPLICATE_SECTION, "model section appears twice")                        \
  X(kMissingSection, RFK_MISSING_SECTION, "a required model section is missing")                    \
  X(kUnknownRequiredSection, RFK_UNKNOWN_REQUIRED_SECTION,                                         \
    "model has a required section this version does not know")                                    \
  X(kBadSectionSize, RFK_BAD_SECTION_SIZE, "model section size does not match its counts")          \
  X(kBadValue, RFK_BAD_VALUE, "model field has an invalid value (count, enum or parameter)")        \
  X(kUnsupportedMap, RFK_UNSUPPORTED_MAP, "feature map kind not supported by this build")           \
  X(kUnsupportedStorage, RFK_UNSUPPORTED_STORAGE, "weight storage type not supported by this build") \
  X(kInputDimMismatch, RFK_INPUT_DIM_MISMATCH, "input length does not match the model's input dimension") \
  X(kNonFiniteInput, RFK_NON_FINITE_INPUT, "input contains NaN or infinity")                        \
  X(kArgumentOutOfRange, RFK_ARGUMENT_OUT_OF_RANGE,                                                 \
    "a feature argument |Wx+b| exceeds 1e9 (input far outside training)")                          \
  X(kOutputTooSmall, RFK_OUTPUT_TOO_SMALL, "output buffer is smaller than the model's number of outputs") \
  X(kScratchTooSmall, RFK_SCRATCH_TOO_SMALL, "scratch buffer is smaller than ScratchBytes(model)")   \
  X(kMisalignedScratch, RFK_MISALIGNED_SCRATCH, "scratch buffer is not aligned to rfk::kScratchAlignment") \
  X(kNoCalibration, RFK_NO_CALIBRATION, "model has no calibration section (no class probabilities)") \
  X(kUnsupportedSection, RFK_UNSUPPORTED_SECTION, "model section not read by this build of the core") \
  X(kOtherModel, RFK_OTHER_MODEL, "not the model this core was pinned to (rfk export --pin)")

#endif /* RFK_STATUS_LIST_H_ */

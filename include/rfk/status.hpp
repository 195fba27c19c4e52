/// @file
/// Status codes of the device core. One X-macro list generates the enum and the name table, so
/// the two cannot drift apart. Allocation-free, exception-free; safe on bare metal.
#pragma once

#include <cstdint>

#include "rfk/status_list.h"

namespace rfk {

/// What a core function returns: kOk (0), or the failure rfk/status_list.h lists (with RFK_* names
/// in C). Numbers are stable within a major version.
enum class Status : std::int32_t {
#define RFK_STATUS_ENUM(name, c_name, msg) name,
  RFK_STATUS_LIST(RFK_STATUS_ENUM)
#undef RFK_STATUS_ENUM
};

/// Short identifier ("kBadChecksum"); never null, also for unknown values.
const char* StatusName(Status s) noexcept;
/// Human message ("the checksum does not match"); never null, also for unknown values.
const char* StatusMessage(Status s) noexcept;

}  // namespace rfk

#include "fp_contract.h"  // first: no compiler-fused multiply-adds in this file
#include "rfk/status.hpp"

namespace rfk {
namespace {
struct StatusInfo {
  const char* name;
  const char* message;
};
constexpr StatusInfo kStatusInfo[] = {
#define RFK_STATUS_INFO(name, c_name, msg) {#name, msg},
    RFK_STATUS_LIST(RFK_STATUS_INFO)
#undef RFK_STATUS_INFO
};
constexpr auto kStatusCount = sizeof(kStatusInfo) / sizeof(kStatusInfo[0]);

const StatusInfo* Lookup(Status s) noexcept {
  const auto i = static_cast<std::uint32_t>(s);
  return i < kStatusCount ? &kStatusInfo[i] : nullptr;
}
}  // namespace

const char* StatusName(Status s) noexcept {
  const StatusInfo* info = Lookup(s);
  return info ? info->name : "kUnknownStatus";
}

const char* StatusMessage(Status s) noexcept {
  const StatusInfo* info = Lookup(s);
  return info ? info->message : "unknown status";
}

}  // namespace rfk

// Runs the host training kernels (lib/host/maps/block_kernels.h) on one path while in scope, then
// restores the path in use before. ok() is false, and nothing changed, where this CPU or build
// lacks the path.
#pragma once

#include "maps/block_kernels.h"

namespace rfk_test {

class HostPathScope {
 public:
  explicit HostPathScope(rfk::host::KernelPath path)
      : before_(rfk::host::HostPath()), ok_(rfk::host::SelectHostPath(path)) {}
  ~HostPathScope() { rfk::host::SelectHostPath(before_); }
  HostPathScope(const HostPathScope&) = delete;
  HostPathScope& operator=(const HostPathScope&) = delete;
  bool ok() const { return ok_; }

 private:
  rfk::host::KernelPath before_;
  bool ok_;
};

}  // namespace rfk_test

// The fixed section's validator (docs/FORMAT.md, "fixed"), called by OpenModel after every other
// section is checked, so `m` already holds d, F, the map kind, K and D. Internal to lib/core.
#pragma once

#include <cstdint>

#include "rfk/model.hpp"

namespace rfk::core {

// Checks the section at blob + offset (`size` bytes, its table entry at `entry`) against m, and on
// success sets m.fixed_offset. On failure returns the status and fills *err (if not null) with the
// field and its byte offset; m is left as it was. No allocation, no float operation.
Status CheckFixedSection(const std::uint8_t* blob, std::uint32_t offset, std::uint32_t size,
                         std::uint32_t entry, Model& m, ModelError* err);

}  // namespace rfk::core

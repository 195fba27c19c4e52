// Fastfood's packed permutations (format.hpp's fastfood section; a fixed section's Fastfood tail
// packs them the same way: format_fixed.hpp), checked at open by both paths' validators with this
// one function (model_open_arrays.cc), each reporting its own field. Internal to lib/core.
#pragma once

#include <cstdint>

namespace rfk::core {

// Where the first bad entry of `blocks` packed permutations of [0, dp) starts -- the byte of its
// first bit, from perm -- or kPermsOk when every block is a permutation. dp is a power of two <=
// 2^16, IndexBits(dp) bits an entry, blocks * dp <= 2^24 + 2^16; an entry is bad when it is >= dp
// or repeats an index earlier in its block (block-major order). Reads no byte past the last
// entry's. No allocation: indices are counted 256 values at a time in a 32-byte bit set on the
// stack, (dp / 256) dp steps a block.
inline constexpr std::uint32_t kPermsOk = 0xFFFFFFFFu;  // no byte offset: they are below 2^27
std::uint32_t FirstBadPermByte(const std::uint8_t* perm, std::uint32_t dp, std::uint32_t blocks) noexcept;

}  // namespace rfk::core

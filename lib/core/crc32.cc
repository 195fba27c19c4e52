// CRC-32 (IEEE 802.3, the zlib/PNG polynomial): the model's checksum, and the header view's check
// of it. No allocation; no table larger than 64 bytes (flash matters more than speed here), and
// none in a core built for size (RFK_CORE_SMALL). Run once per open.
#include "fp_contract.h"  // first: no compiler-fused multiply-adds in this file
#include "core_config.h"  // RFK_CORE_SMALL
#include "rfk/blob_view.hpp"
#include "rfk/model.hpp"

namespace rfk {

std::uint32_t Crc32(const void* data, std::size_t size, std::uint32_t crc) noexcept {
  const auto* p = static_cast<const std::uint8_t*>(data);
  crc = ~crc;
#if RFK_CORE_SMALL
  // A bit at a time: no table, about four times the instructions of the nibble table's loop
  // (Cortex-M4F: about 40 a byte).
  for (std::size_t i = 0; i < size; ++i) {
    crc ^= p[i];
    for (int k = 0; k < 8; ++k) crc = (crc >> 1) ^ (0xEDB88320u & (0u - (crc & 1u)));
  }
#else
  // Nibble-table CRC: 64 bytes of table, two lookups per byte.
  static constexpr std::uint32_t kTable[16] = {
      0x00000000u, 0x1DB71064u, 0x3B6E20C8u, 0x26D930ACu, 0x76DC4190u, 0x6B6B51F4u,
      0x4DB26158u, 0x5005713Cu, 0xEDB88320u, 0xF00F9344u, 0xD6D6A3E8u, 0xCB61B38Cu,
      0x9B64C2B0u, 0x86D3D2D4u, 0xA00AE278u, 0xBDBDF21Cu};
  for (std::size_t i = 0; i < size; ++i) {
    crc ^= p[i];
    crc = (crc >> 4) ^ kTable[crc & 15u];
    crc = (crc >> 4) ^ kTable[crc & 15u];
  }
#endif
  return ~crc;
}

CrcCheck BlobView::CheckCrc() const noexcept {
  const std::uint32_t total = total_bytes().value;
  if (size_ < format::kHeaderBytes || total < format::kCrcStart || total > size_) return CrcCheck::kUnverifiable;
  return Crc32(b_ + format::kCrcStart, total - format::kCrcStart) == crc32().value ? CrcCheck::kOk
                                                                                     : CrcCheck::kMismatch;
}

}  // namespace rfk

// CRC-32 (IEEE 802.3, the zlib/PNG polynomial): the model's checksum, and the header view's check
// of it. No allocation; no table larger than 64 bytes (flash matters more than speed here).
#include "fp_contract.h"  // first: no compiler-fused multiply-adds in this file
#include "rfk/blob_view.hpp"
#include "rfk/model.hpp"

namespace rfk {

std::uint32_t Crc32(const void* data, std::size_t size, std::uint32_t crc) noexcept {
  // Nibble-table CRC: 64 bytes of table, ~2 lookups per byte; adequate for a once-per-open check.
  static constexpr std::uint32_t kTable[16] = {
      0x00000000u, 0x1DB71064u, 0x3B6E20C8u, 0x26D930ACu, 0x76DC4190u, 0x6B6B51F4u,
      0x4DB26158u, 0x5005713Cu, 0xEDB88320u, 0xF00F9344u, 0xD6D6A3E8u, 0xCB61B38Cu,
      0x9B64C2B0u, 0x86D3D2D4u, 0xA00AE278u, 0xBDBDF21Cu};
  const auto* p = static_cast<const std::uint8_t*>(data);
  crc = ~crc;
  for (std::size_t i = 0; i < size; ++i) {
    crc ^= p[i];
    crc = (crc >> 4) ^ kTable[crc & 15u];
    crc = (crc >> 4) ^ kTable[crc & 15u];
  }
  return ~crc;
}

CrcCheck BlobView::CheckCrc() const noexcept {
  const std::uint32_t total = total_bytes().value;
  if (size_ < format::kHeaderBytes || total < format::kCrcStart || total > size_) return CrcCheck::kUnverifiable;
  return Crc32(b_ + format::kCrcStart, total - format::kCrcStart) == crc32().value ? CrcCheck::kOk
                                                                                     : CrcCheck::kMismatch;
}

}  // namespace rfk

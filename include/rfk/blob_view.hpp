/// @file
/// A bounds-checked view of a model blob's header and section table, for any bytes: a truncated
/// file, garbage, or a model that OpenModel refuses. Each field says whether its bytes lie inside
/// the buffer (a field that does not is read as 0). Nothing here validates: OpenModel does that;
/// this is what tools (`rfk inspect`) print, and what OpenModel itself reads the header through.
///
/// Contract: no allocation, no exceptions, reentrant; never reads outside [bytes, bytes + size).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "rfk/format.hpp"

namespace rfk {

template <class T>
struct BlobField {
  T value = 0;
  bool readable = false;  ///< false: the field lies (partly) beyond the buffer; value is 0
};

struct SectionEntryView {
  std::uint32_t at = 0;  ///< byte offset of the entry in the blob
  BlobField<std::uint16_t> type, flags;
  BlobField<std::uint32_t> offset, size, storage;
};

enum class CrcCheck { kUnverifiable, kOk, kMismatch };

class BlobView {
 public:
  BlobView(const void* bytes, std::size_t size) noexcept
      : b_(static_cast<const std::uint8_t*>(bytes)), size_(bytes ? size : 0) {}

  const std::uint8_t* bytes() const noexcept { return b_; }
  std::size_t size() const noexcept { return size_; }

  /// The magic's first magic_bytes() bytes (0..4: fewer when the buffer is shorter).
  const std::uint8_t* magic() const noexcept { return b_ + format::kOffMagic; }
  std::size_t magic_bytes() const noexcept { return size_ < 4 ? size_ : 4; }
  bool magic_ok() const noexcept {
    return magic_bytes() == 4 && std::memcmp(magic(), format::kMagic, 4) == 0;
  }
  BlobField<std::uint16_t> version_major() const noexcept { return U16(format::kOffVersionMajor); }
  BlobField<std::uint16_t> version_minor() const noexcept { return U16(format::kOffVersionMinor); }
  BlobField<std::uint32_t> total_bytes() const noexcept { return U32(format::kOffTotalBytes); }
  BlobField<std::uint32_t> crc32() const noexcept { return U32(format::kOffCrc32); }
  BlobField<std::uint32_t> header_bytes() const noexcept { return U32(format::kOffHeaderBytes); }
  BlobField<std::uint32_t> section_count() const noexcept { return U32(format::kOffSectionCount); }
  BlobField<std::uint32_t> section_table() const noexcept { return U32(format::kOffSectionTable); }
  BlobField<std::uint32_t> flags() const noexcept { return U32(format::kOffFlags); }

  /// The stored CRC-32 against the bytes it covers: kUnverifiable when the header is not all in
  /// the buffer or total_bytes is below kCrcStart or beyond the buffer. O(total_bytes).
  CrcCheck CheckCrc() const noexcept;

  /// True when section_count and section_table are readable, section_count <= kMaxSections and
  /// the whole table lies inside the buffer.
  bool table_readable() const noexcept {
    const BlobField<std::uint32_t> count = section_count(), table = section_table();
    return count.readable && table.readable && count.value <= format::kMaxSections &&
           std::uint64_t{table.value} + std::uint64_t{count.value} * format::kSectionEntryBytes <= size_;
  }
  /// Entry i of the section table (at section_table + 16 i), each field read if in the buffer.
  SectionEntryView Entry(std::uint32_t i) const noexcept {
    const std::uint64_t e = std::uint64_t{section_table().value} + std::uint64_t{i} * format::kSectionEntryBytes;
    SectionEntryView v;
    v.at = static_cast<std::uint32_t>(e);
    v.type = U16(e + format::entry::kType);
    v.flags = U16(e + format::entry::kFlags);
    v.offset = U32(e + format::entry::kOffset);
    v.size = U32(e + format::entry::kSize);
    v.storage = U32(e + format::entry::kStorage);
    return v;
  }

 private:
  BlobField<std::uint16_t> U16(std::uint64_t at) const noexcept { return Load<std::uint16_t>(at); }
  BlobField<std::uint32_t> U32(std::uint64_t at) const noexcept { return Load<std::uint32_t>(at); }

  template <class T>
  BlobField<T> Load(std::uint64_t at) const noexcept {
    BlobField<T> f;
    if (at > size_ || size_ - at < sizeof(T)) return f;
    std::memcpy(&f.value, b_ + at, sizeof(T));
    f.readable = true;
    return f;
  }

  const std::uint8_t* b_;
  std::size_t size_;
};

}  // namespace rfk

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

/// One header or table field of a blob as BlobView reads it: its little-endian value, and whether
/// its bytes lie in the buffer.
template <class T>
struct BlobField {
  T value = 0;  ///< the field's value; 0 when not readable
  bool readable = false;  ///< false: the field lies (partly) beyond the buffer; value is 0
};

/// One section table entry as BlobView reads it (format::entry's fields), each checked for bounds.
struct SectionEntryView {
  std::uint32_t at = 0;  ///< byte offset of the entry in the blob
  BlobField<std::uint16_t> type;     ///< a format::SectionType number (or one this reader does not know)
  BlobField<std::uint16_t> flags;    ///< format::kSectionRequired or 0
  BlobField<std::uint32_t> offset;   ///< where the section starts in the blob
  BlobField<std::uint32_t> size;     ///< its bytes
  BlobField<std::uint32_t> storage;  ///< the entry's storage word (format::Storage of its matrix, or 0)
};

/// What BlobView::CheckCrc found: the stored CRC-32 could not be checked, matches, or does not.
enum class CrcCheck { kUnverifiable, kOk, kMismatch };

/// A bounds-checked, read-only view of any bytes as a model blob's header and section table.
class BlobView {
 public:
  /// A view of `size` bytes at `bytes` (null: an empty view). Neither copied nor validated.
  BlobView(const void* bytes, std::size_t size) noexcept
      : b_(static_cast<const std::uint8_t*>(bytes)), size_(bytes ? size : 0) {}

  const std::uint8_t* bytes() const noexcept { return b_; }  ///< the bytes viewed
  std::size_t size() const noexcept { return size_; }         ///< their number

  /// The magic's first magic_bytes() bytes (0..4: fewer when the buffer is shorter).
  const std::uint8_t* magic() const noexcept { return b_ + format::kOffMagic; }
  std::size_t magic_bytes() const noexcept { return size_ < 4 ? size_ : 4; }  ///< 0..4, see magic()
  /// Whether all four magic bytes are in the buffer and are format::kMagic.
  bool magic_ok() const noexcept {
    return magic_bytes() == 4 && std::memcmp(magic(), format::kMagic, 4) == 0;
  }
  // The header's fields (docs/FORMAT.md, "Header"), each as stored, unchecked.
  BlobField<std::uint16_t> version_major() const noexcept { return U16(format::kOffVersionMajor); }  ///< header.version_major
  BlobField<std::uint16_t> version_minor() const noexcept { return U16(format::kOffVersionMinor); }  ///< header.version_minor
  BlobField<std::uint32_t> total_bytes() const noexcept { return U32(format::kOffTotalBytes); }      ///< header.total_bytes
  BlobField<std::uint32_t> crc32() const noexcept { return U32(format::kOffCrc32); }                 ///< header.crc32
  BlobField<std::uint32_t> header_bytes() const noexcept { return U32(format::kOffHeaderBytes); }    ///< header.header_bytes
  BlobField<std::uint32_t> section_count() const noexcept { return U32(format::kOffSectionCount); }  ///< header.section_count
  BlobField<std::uint32_t> section_table() const noexcept { return U32(format::kOffSectionTable); }  ///< header.section_table
  BlobField<std::uint32_t> flags() const noexcept { return U32(format::kOffFlags); }                 ///< header.flags

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

// The idx reader (MNIST family): a binary images file (records x features, any idx element
// type) and its labels file (one dimension, one label per record); dense rows. Messages name
// byte offsets.
#include <charconv>
#include <cfloat>
#include <cmath>
#include <cstring>

#include "data/data_internal.h"

namespace rfk::host::data_io {

namespace {

std::size_t IdxElemSize(unsigned type) {
  switch (type) {
    case 0x08: case 0x09: return 1;
    case 0x0B: return 2;
    case 0x0C: case 0x0D: return 4;
    case 0x0E: return 8;
    default: return 0;
  }
}


std::uint32_t LoadBe32(const unsigned char* p) {
  return static_cast<std::uint32_t>(p[0]) << 24 | static_cast<std::uint32_t>(p[1]) << 16 |
         static_cast<std::uint32_t>(p[2]) << 8 | static_cast<std::uint32_t>(p[3]);
}

std::uint64_t LoadBe64(const unsigned char* p) {
  return static_cast<std::uint64_t>(LoadBe32(p)) << 32 | LoadBe32(p + 4);
}

// One element as a double (exact for every idx type).
double IdxValue(unsigned type, const unsigned char* p) {
  switch (type) {
    case 0x08: return p[0];
    case 0x09: return static_cast<std::int8_t>(p[0]);
    case 0x0B: return static_cast<std::int16_t>(static_cast<std::uint16_t>(p[0] << 8 | p[1]));
    case 0x0C: return static_cast<std::int32_t>(LoadBe32(p));
    case 0x0D: {
      const std::uint32_t bits = LoadBe32(p);
      float f;
      std::memcpy(&f, &bits, sizeof f);
      return f;
    }
    default: {
      const std::uint64_t bits = LoadBe64(p);
      double v;
      std::memcpy(&v, &bits, sizeof v);
      return v;
    }
  }
}

struct IdxHeader {
  unsigned type = 0;
  std::size_t elem_size = 0;
  std::vector<std::uint64_t> dims;
  std::uint64_t header_bytes = 0;
  std::uint64_t count = 0;  // product of dims
};

IdxHeader ReadIdxHeader(Input& f) {
  const std::string& path = f.path();
  unsigned char h[4];
  const std::size_t got = f.Read(h, 4);
  if (got < 4) {
    Fail(path + ": truncated idx header: the file has " + std::to_string(got) +
         " bytes, the magic number needs 4");
  }
  if (h[0] != 0 || h[1] != 0) Fail(path + ": byte offset 0: not an idx file (bad magic number)");
  IdxHeader hd;
  hd.type = h[2];
  hd.elem_size = IdxElemSize(hd.type);
  if (hd.elem_size == 0) {
    Fail(path + ": byte offset 2: unknown idx element type " + std::to_string(hd.type));
  }
  const unsigned nd = h[3];
  if (nd == 0) Fail(path + ": byte offset 3: idx file with zero dimensions");
  std::vector<unsigned char> raw(4 * std::size_t{nd});
  const std::size_t got_dims = f.Read(raw.data(), raw.size());
  hd.header_bytes = 4 + raw.size();
  if (got_dims < raw.size()) {
    Fail(path + ": truncated idx header: " + std::to_string(nd) + " dimensions need " +
         std::to_string(hd.header_bytes) + " bytes, the file ends at byte offset " +
         std::to_string(4 + got_dims));
  }
  hd.count = 1;
  // Payloads beyond 2^56 bytes are certainly not real files; the bound also keeps the
  // size arithmetic below from overflowing.
  constexpr std::uint64_t kLimit = std::uint64_t{1} << 56;
  for (unsigned i = 0; i < nd; ++i) {
    const std::uint64_t dim = LoadBe32(raw.data() + 4 * i);
    if (dim == 0) {
      Fail(path + ": byte offset " + std::to_string(4 + 4 * i) + ": dimension " +
           std::to_string(i + 1) + " is zero");
    }
    hd.dims.push_back(dim);
    if (hd.count > kLimit / dim) Fail(path + ": idx header declares an impossibly large payload");
    hd.count *= dim;
  }
  if (hd.count > kLimit / hd.elem_size) {
    Fail(path + ": idx header declares an impossibly large payload");
  }
  return hd;
}

// Reads exactly hd.count elements and checks that the file ends there, then closes f and calls
// sink(bytes, first_element, n_elements) per chunk. Memory grows only as data actually arrives,
// so a garbage header cannot trigger a huge allocation.
template <class Sink>
void ReadIdxPayload(Input& f, const IdxHeader& hd, Sink&& sink) {
  const std::string& path = f.path();
  const std::uint64_t expected = hd.header_bytes + hd.count * hd.elem_size;
  std::vector<std::vector<unsigned char>> chunks;
  std::uint64_t done = 0;  // elements read
  while (done < hd.count) {
    const std::size_t want = static_cast<std::size_t>(
        std::min<std::uint64_t>(hd.count - done, kChunk / hd.elem_size)) * hd.elem_size;
    chunks.emplace_back(want);
    const std::size_t got = f.Read(chunks.back().data(), want);
    if (got < want) {
      Fail(path + ": truncated: the idx header declares " + std::to_string(expected) +
           " bytes, the data ends at byte offset " +
           std::to_string(hd.header_bytes + done * hd.elem_size + got));
    }
    done += want / hd.elem_size;
  }
  unsigned char extra;
  if (f.Read(&extra, 1) != 0) {
    Fail(path + ": byte offset " + std::to_string(expected) +
         ": data after the end the idx header declares (" + std::to_string(expected) +
         " bytes)");
  }
  f.Close();
  std::uint64_t first = 0;
  for (std::vector<unsigned char>& chunk : chunks) {
    const std::size_t k = chunk.size() / hd.elem_size;
    sink(chunk.data(), first, k);
    first += k;
    std::vector<unsigned char>().swap(chunk);
  }
}


// Reads the images file into ds->dense; returns the number of records.
std::uint64_t ReadIdxImages(Input& images, Dataset* ds) {
  const std::string& path = images.path();
  const IdxHeader hd = ReadIdxHeader(images);
  if (hd.dims.size() < 2) {
    Fail(path + ": byte offset 3: an idx images file needs at least 2 dimensions (records x "
                "features), this one has " + std::to_string(hd.dims.size()));
  }
  ReadIdxPayload(images, hd, [&](const unsigned char* p, std::uint64_t first, std::size_t k) {
    if (first == 0) ds->dense.resize(static_cast<std::size_t>(hd.count));
    float* out = ds->dense.data() + first;
    if (hd.type == 0x08) {  // the common case (MNIST), kept branch-free
      for (std::size_t i = 0; i < k; ++i) out[i] = p[i];
      return;
    }
    for (std::size_t i = 0; i < k; ++i) {
      const double v = IdxValue(hd.type, p + i * hd.elem_size);
      if (!std::isfinite(v) || std::fabs(v) > static_cast<double>(FLT_MAX)) {
        Fail(path + ": byte offset " +
             std::to_string(hd.header_bytes + (first + i) * hd.elem_size) +
             ": non-finite or out-of-float-range value");
      }
      out[i] = static_cast<float>(v);
    }
  });
  ds->rows = static_cast<std::size_t>(hd.dims[0]);
  ds->cols = static_cast<std::size_t>(hd.count / hd.dims[0]);
  return hd.dims[0];
}

// Reads the labels file, which must hold n labels (for `images`, named in messages), into
// ds->labels as text: integers in decimal, floats in their shortest round-trip form.
void ReadIdxLabels(Input& labels, std::uint64_t n, const std::string& images, Dataset* ds) {
  const std::string& labels_path = labels.path();
  const IdxHeader lh = ReadIdxHeader(labels);
  if (lh.dims.size() != 1) {
    Fail(labels_path + ": byte offset 3: an idx labels file needs exactly 1 dimension, this one "
                       "has " + std::to_string(lh.dims.size()));
  }
  if (lh.dims[0] != n) {
    Fail(labels_path + ": " + std::to_string(lh.dims[0]) + " labels, but " + images + " has " +
         std::to_string(n) + " records");
  }
  ds->labels.reserve(static_cast<std::size_t>(n));
  ReadIdxPayload(labels, lh, [&](const unsigned char* p, std::uint64_t first, std::size_t k) {
    for (std::size_t i = 0; i < k; ++i) {
      const unsigned char* e = p + i * lh.elem_size;
      char text[64];
      std::to_chars_result r{};
      if (lh.type == 0x0D || lh.type == 0x0E) {
        const double v = IdxValue(lh.type, e);
        if (!std::isfinite(v)) {
          Fail(labels_path + ": byte offset " +
               std::to_string(lh.header_bytes + (first + i) * lh.elem_size) +
               ": non-finite label");
        }
        r = lh.type == 0x0D ? std::to_chars(text, text + sizeof text, static_cast<float>(v))
                            : std::to_chars(text, text + sizeof text, v);
      } else {
        r = std::to_chars(text, text + sizeof text, static_cast<long long>(IdxValue(lh.type, e)));
      }
      ds->labels.emplace_back(text, r.ptr);
    }
  });
}

}  // namespace

bool IsIdxMagic(const unsigned char* h) {
  return h[0] == 0 && h[1] == 0 && IdxElemSize(h[2]) != 0 && h[3] >= 1 && h[3] <= 4;
}


std::string DeriveIdxLabels(const std::string& images) {
  static constexpr std::string_view kImages = "images-idx3-ubyte";
  static constexpr std::string_view kLabels = "labels-idx1-ubyte";
  const std::size_t slash = images.find_last_of('/');
  const std::size_t base = slash == std::string::npos ? 0 : slash + 1;
  const std::size_t pos = images.rfind(kImages);
  if (pos == std::string::npos || pos < base) {
    Fail(images + ": cannot derive the idx labels file name (no 'images-idx3-ubyte' in the "
                  "file name); set the labels file explicitly");
  }
  std::string out = images;
  out.replace(pos, kImages.size(), kLabels);
  return out;
}

Dataset ReadIdx(Input& images, const std::function<Input*()>& open_labels) {
  Dataset ds = NewDataset(images.path(), DataFormat::kIdx);
  const std::uint64_t n = ReadIdxImages(images, &ds);
  Input* labels = open_labels();
  ds.has_labels = labels != nullptr;
  if (labels != nullptr) ReadIdxLabels(*labels, n, ds.source, &ds);
  ds.lines.resize(ds.rows);
  for (std::size_t i = 0; i < ds.rows; ++i) ds.lines[i] = i + 1;
  return ds;
}

}  // namespace rfk::host::data_io

// rfk inspect: every header field, the section table and the checksum of any file (read through
// the core's bounds-checked BlobView, so truncated or garbage files print what can be read), then,
// when the model opens, its maps, head, labels, feature names, impute values, calibration and metadata.
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "cli.hpp"
#include "rfk/blob_view.hpp"
#include "rfk/fixed.hpp"
#include "rfk/host/train.hpp"

namespace rfk::cli {
namespace {

namespace f = rfk::format;

struct Inspected {
  std::string path;
  host::OpenedModel opened;  // InspectFile: bytes that do not open are kept with their status
  rfk::Status s() const { return opened.status(); }
  const rfk::ModelError& err() const { return opened.error(); }
  const rfk::Model& m() const { return opened.model(); }
  bool ok() const { return s() == rfk::Status::kOk; }
  BlobView view() const { return BlobView(opened.data(), opened.size()); }
};

const char* CrcName(CrcCheck c) {
  return c == CrcCheck::kUnverifiable ? "unverifiable" : c == CrcCheck::kOk ? "ok" : "mismatch";
}

std::uint32_t GridBins(const rfk::Model& m, std::uint32_t p) {
  std::uint32_t a0, a1;
  std::memcpy(&a0, m.bin_grid_start + 4 * p, 4);
  std::memcpy(&a1, m.bin_grid_start + 4 * p + 4, 4);
  return a1 - a0;
}

// One weight matrix's storage: its bytes (elements, padding and int8 or f16-scaled scales) and the scales' range.
struct WeightInfo {
  const char* name;   // "projection", "fastfood.G", "fastfood.S", "head" (the JSON's "section")
  const char* label;  // the text's: "W", "G", "S", "head"
  f::Storage storage;
  std::uint64_t bytes;
  float scale_min = 0, scale_max = 0;  // int8, f16-scaled only
};
std::vector<WeightInfo> Weights(const rfk::Model& m) {
  std::vector<WeightInfo> out;
  // scale_rows: the rows with weights (W's panel padding rows have scale 1 and no weights).
  auto add = [&out](const char* name, const char* label, f::Storage st, const rfk::WeightsView& w, std::uint64_t rows,
                    std::uint64_t cols, std::uint64_t scale_rows) {
    WeightInfo i{name, label, st, f::QuantMatrixBytes(st, rows, cols)};
    for (std::uint64_t r = 0; w.scale && r < scale_rows; ++r) {
      i.scale_min = r == 0 || w.scale[r] < i.scale_min ? w.scale[r] : i.scale_min;
      i.scale_max = r == 0 || w.scale[r] > i.scale_max ? w.scale[r] : i.scale_max;
    }
    out.push_back(i);
  };
  if (m.projection_weights.data)
    add("projection", "W", m.projection_storage, m.projection_weights,
        f::StoredFrequencies(m.layout, m.num_frequencies), m.input_dim, m.num_frequencies);
  if (m.fastfood.dp) {  // G and S: blocks x d' each, one int8 scale per block
    add("fastfood.G", "G", m.projection_storage, rfk::FastfoodDiagonal(m.fastfood, m.fastfood.G), m.fastfood.blocks, m.fastfood.dp, m.fastfood.blocks);
    add("fastfood.S", "S", m.projection_storage, rfk::FastfoodDiagonal(m.fastfood, m.fastfood.S), m.fastfood.blocks, m.fastfood.dp, m.fastfood.blocks);
  }
  if (rfk::IsStandardized(m)) {  // mean and inv_scale: a 2 x d matrix, f32 or f16
    const bool half = m.standardize_f16_at != 0;
    add("standardize", "standardize", half ? f::Storage::kF16 : f::Storage::kF32,
        rfk::WeightsView{half ? rfk::WeightType::kF16 : rfk::WeightType::kF32,
                         half ? static_cast<const void*>(rfk::StandardizeF16Values(m)) : m.mean, nullptr},
        2, m.input_dim, 0);
  }
  add("head", "head", m.head_storage, m.head, m.num_outputs, m.num_features, m.num_outputs);
  return out;
}

// The fixed section's parts (docs/FORMAT.md "fixed"), in bytes: the int16 inputs' offsets and
// scales; the map's integers (W, shifts and phases; a Fastfood map's phases, then its tail); the
// int8 head with its multipliers, shifts and biases; the binning tail. From the layout the
// validator checked, so with the 32-byte header they add up to the section's size.
struct FixedParts {
  float unit = 0;
  std::uint64_t inputs = 0, map = 0, head = 0, binning = 0;
};
FixedParts FixedPartsOf(const rfk::Model& m) {
  namespace fp = f::fixed_params;
  const bool fastfood = f::IsFastfood(m.map);
  const fp::Layout l = fp::LayoutOf(m.input_dim, m.num_frequencies, m.num_outputs, m.num_features, !fastfood);
  FixedParts p;
  p.unit = rfk::FixedOutputScale(m);
  p.inputs = l.w - l.offset;
  p.map = l.head - l.w;
  p.head = l.bytes - l.head;
  std::uint64_t end = l.bytes;
  if (fastfood) {
    end = fp::FastfoodTailOf(l.bytes, m.input_dim, m.num_frequencies).bytes;
    p.map += end - l.bytes;
  }
  if (m.num_grids) p.binning = fp::binning::LayoutOf(end, m.num_grids, m.input_dim).bytes - end;
  return p;
}

void JsonHeader(const Inspected& in, std::ostringstream& js) {
  const BlobView v = in.view();
  js << "{\"file\": \"" << JsonEscape(in.path) << "\", \"file_bytes\": " << v.size() << ", \"status\": \""
     << rfk::StatusName(in.s()) << "\"";
  if (!in.ok())
    js << ", \"error\": {\"message\": \"" << JsonEscape(rfk::StatusMessage(in.s())) << "\", \"field\": \""
       << in.err().field << "\", \"offset\": " << in.err().offset << "}";
  js << ", \"header\": {\"magic\": \""
     << JsonEscape(std::string(reinterpret_cast<const char*>(v.magic()), v.magic_bytes()))
     << "\", \"version_major\": " << v.version_major().value << ", \"version_minor\": " << v.version_minor().value
     << ", \"total_bytes\": " << v.total_bytes().value << ", \"crc32\": " << v.crc32().value
     << ", \"crc32_status\": \"" << CrcName(v.CheckCrc()) << "\", \"header_bytes\": " << v.header_bytes().value
     << ", \"section_count\": " << v.section_count().value << ", \"section_table\": " << v.section_table().value
     << ", \"flags\": " << v.flags().value << "}, \"sections\": [";
  for (std::uint32_t i = 0; v.table_readable() && i < v.section_count().value; ++i) {
    const SectionEntryView e = v.Entry(i);
    js << (i ? ", " : "") << "{\"type\": " << e.type.value << ", \"name\": \"" << f::SectionName(e.type.value)
       << "\", \"flags\": " << e.flags.value << ", \"offset\": " << e.offset.value << ", \"size\": " << e.size.value
       << "}";
  }
  js << "]";
}

void JsonModel(const rfk::Model& m, std::ostringstream& js) {
  js << ", \"input_dim\": " << m.input_dim << ", \"num_features\": " << m.num_features
     << ", \"standardized\": " << (rfk::IsStandardized(m) ? "true" : "false");
  if (m.fourier_features)
    js << ", \"map\": {\"kind\": \"" << host::MapName(m.map) << "\", \"kernel\": \"" << host::KernelName(m.kernel)
       << "\", \"num_features\": " << m.fourier_features << ", \"num_frequencies\": " << m.num_frequencies
       << ", \"gamma\": " << Num(m.gamma) << ", \"feature_scale\": " << Num(m.feature_scale)
       << ", \"seed\": " << m.seed << "}";
  if (m.fastfood.dp)
    js << ", \"fastfood\": {\"padded_dim\": " << m.fastfood.dp << ", \"num_blocks\": "
       << m.fastfood.blocks << ", \"index_bits\": " << m.fastfood.index_bits << "}";
  if (m.num_grids)
    js << ", \"binning\": {\"grids\": " << m.num_grids << ", \"mode\": \"" << f::NameOf(m.bin_mode)
       << "\", \"buckets\": " << m.bin_buckets << ", \"columns\": " << m.bin_features
       << ", \"gamma\": " << Num(m.bin_gamma) << ", \"feature_scale\": " << Num(m.bin_scale)
       << ", \"seed\": " << m.bin_seed << "}";
  js << ", \"head\": {\"task\": \"" << f::NameOf(m.task) << "\", \"num_outputs\": " << m.num_outputs
     << "}, \"weights\": [";
  const std::vector<WeightInfo> weights = Weights(m);
  for (std::size_t i = 0; i < weights.size(); ++i) {
    const WeightInfo& w = weights[i];
    js << (i ? ", " : "") << "{\"section\": \"" << w.name << "\", \"storage\": \"" << f::NameOf(w.storage)
       << "\", \"bytes\": " << w.bytes;
    if (f::HasRowScales(w.storage)) js << ", \"scale_min\": " << Num(w.scale_min) << ", \"scale_max\": " << Num(w.scale_max);
    js << "}";
  }
  js << "], \"labels\": [";
  for (std::uint32_t c = 0; c < m.num_classes; ++c)
    js << (c ? ", " : "") << "\"" << JsonEscape(rfk::ClassLabel(m, c)) << "\"";
  js << "]";
  if (rfk::FixedSection(m)) {
    const FixedParts p = FixedPartsOf(m);
    js << ", \"fixed\": {\"output_unit\": " << Num(p.unit) << ", \"inputs_bytes\": " << p.inputs
       << ", \"map_bytes\": " << p.map << ", \"head_bytes\": " << p.head << ", \"binning_bytes\": " << p.binning
       << ", \"scratch_bytes\": " << rfk::FixedScratchBytes(m) << "}";
  }
  js << ", \"scratch_bytes\": " << rfk::ScratchBytes(m) << ", \"metadata\": \""
     << JsonEscape(std::string(m.metadata ? m.metadata : "", m.metadata_bytes)) << "\"";
}

// The stored feature names and label name, and the impute section: full lists.
void JsonInputs(const rfk::Model& m, std::ostringstream& js) {
  if (m.num_names) {
    js << ", \"feature_names\": [";
    for (std::uint32_t i = 0; i < m.input_dim; ++i)
      js << (i ? ", " : "") << "\"" << JsonEscape(rfk::FeatureName(m, i)) << "\"";
    js << "], \"label_name\": \"" << JsonEscape(rfk::FeatureName(m, m.input_dim)) << "\"";
  }
  if (m.impute) {
    js << ", \"impute\": {\"method\": \"" << f::NameOf(m.impute_method) << "\", \"values\": [";
    for (std::uint32_t i = 0; i < m.input_dim; ++i) js << (i ? ", " : "") << Num(m.impute[i]);
    js << "]}";
  }
  if (m.calibration_method != 0)
    js << ", \"calibration\": " << CalibrationJson(m.calibration_method, CalibrationParams(m)) << "}";
}

void PrintJson(const Inspected& in) {
  std::ostringstream js;
  JsonHeader(in, js);
  if (in.ok()) {
    JsonModel(in.m(), js);
    JsonInputs(in.m(), js);
  }
  js << "}\n";
  std::fputs(js.str().c_str(), stdout);
}

void TextHeader(const Inspected& in) {
  const BlobView v = in.view();
  std::printf("file:            %s (%zu bytes)\n", in.path.c_str(), v.size());
  std::printf("status:          %s%s", rfk::StatusName(in.s()), in.ok() ? "\n" : "");
  if (!in.ok()) std::printf(": %s (field '%s', offset %u)\n", rfk::StatusMessage(in.s()), in.err().field, in.err().offset);
  std::printf("magic:           %.4s\nversion:         %u.%u\ntotal_bytes:     %u\n",
              v.magic_bytes() == 4 ? reinterpret_cast<const char*>(v.magic()) : "????", v.version_major().value,
              v.version_minor().value, v.total_bytes().value);
  std::printf("crc32:           0x%08x (%s)\nheader_bytes:    %u\nflags:           %u\n", v.crc32().value,
              CrcName(v.CheckCrc()), v.header_bytes().value, v.flags().value);
  std::printf("sections:        %u (table at offset %u)\n", v.section_count().value, v.section_table().value);
  for (std::uint32_t i = 0; v.table_readable() && i < v.section_count().value; ++i) {
    const SectionEntryView e = v.Entry(i);
    std::printf("  [%u] %-12s type %-3u %-8s offset %-8u size %u\n", i, f::SectionName(e.type.value), e.type.value,
                (e.flags.value & f::kSectionRequired) ? "required" : "optional", e.offset.value, e.size.value);
  }
}

void TextMaps(const rfk::Model& m) {
  std::printf("dimensions:      d = %u inputs, D = %u features (%u Fourier + %u bin columns)\n", m.input_dim,
              m.num_features, m.fourier_features, m.bin_features);
  if (m.fourier_features)
    std::printf("fourier map:     %s, kernel %s, gamma %.9g, F = %u, feature_scale %.9g, seed %llu\n",
                host::MapName(m.map), host::KernelName(m.kernel), double(m.gamma), m.num_frequencies,
                double(m.feature_scale), static_cast<unsigned long long>(m.seed));
  if (m.fastfood.dp)
    std::printf("fastfood:        %u blocks of d' = %u (the last %u), permutation indices %u bits, G and S %s\n",
                m.fastfood.blocks, m.fastfood.dp, m.num_frequencies - (m.fastfood.blocks - 1) * m.fastfood.dp,
                m.fastfood.index_bits, f::NameOf(m.projection_storage));
  if (!m.num_grids) return;
  const std::string mode = m.bin_mode == f::BinMode::kHashed ? "hashed, B = " + std::to_string(m.bin_buckets)
                                                             : "exact, " + std::to_string(m.bin_features) + " bins";
  std::printf("binning map:     P = %u grids, %s, kernel laplacian, gamma %.9g, scale %.9g, seed %llu\n",
              m.num_grids, mode.c_str(), double(m.bin_gamma), double(m.bin_scale),
              static_cast<unsigned long long>(m.bin_seed));
  if (m.bin_mode != f::BinMode::kExact) return;
  std::printf("bins per grid:  ");
  for (std::uint32_t p = 0; p < m.num_grids; ++p) std::printf(" %u", GridBins(m, p));
  std::printf("\n");
}

// The metadata's lines, each indented by two spaces after the first.
std::string IndentedMetadata(const rfk::Model& m) {
  std::string t(m.metadata, m.metadata_bytes);
  for (std::size_t p = 0; (p = t.find('\n', p)) != std::string::npos && p + 1 < t.size(); p += 3)
    t.replace(p, 1, "\n  ");
  if (!t.empty() && t.back() == '\n') t.pop_back();
  return t;
}

// Text lists stop after this many columns and say how many more there are (--json: all).
constexpr std::uint32_t kTextColumns = 12;

// "'a', 'b', 'c' and 9 more" of the stored feature names.
std::string TextNames(const rfk::Model& m) {
  std::string s;
  for (std::uint32_t i = 0; i < m.input_dim && i < kTextColumns; ++i)
    s += (i ? ", '" : "'") + std::string(rfk::FeatureName(m, i)) + "'";
  if (m.input_dim > kTextColumns) s += " and " + std::to_string(m.input_dim - kTextColumns) + " more";
  return s;
}

// The impute section: the method, then "name = value" (or the values alone without names) for
// the first columns, and the range of all values beyond that many.
std::string TextImpute(const rfk::Model& m) {
  std::string s = f::NameOf(m.impute_method);
  float lo = m.impute[0], hi = m.impute[0];
  for (std::uint32_t i = 0; i < m.input_dim; ++i) {
    lo = std::min(lo, m.impute[i]);
    hi = std::max(hi, m.impute[i]);
    if (i >= kTextColumns) continue;
    s += i ? ", " : ": ";
    if (m.num_names) s += std::string(rfk::FeatureName(m, i)) + " = ";
    s += Num(m.impute[i]);
  }
  if (m.input_dim > kTextColumns)
    s += " and " + std::to_string(m.input_dim - kTextColumns) + " more (all values in [" + Num(lo) + ", " + Num(hi) + "])";
  return s;
}

void TextModel(const rfk::Model& m) {
  TextMaps(m);
  std::printf("standardized:    %s\nhead:            %s, K = %u outputs\n", rfk::IsStandardized(m) ? "yes" : "no",
              host::TaskName(m.task), m.num_outputs);
  for (const WeightInfo& w : Weights(m)) {
    // Labels line up at column 17; a longer one ("standardize storage:") keeps a space before its value.
    std::printf("%-16s %s, %llu bytes", (std::string(w.label) + " storage:").c_str(),
                f::NameOf(w.storage),
                static_cast<unsigned long long>(w.bytes));
    if (f::HasRowScales(w.storage))
      std::printf(", scales %.9g .. %.9g", double(w.scale_min), double(w.scale_max));
    std::printf("\n");
  }
  if (m.num_classes) {
    std::printf("labels:          ");
    for (std::uint32_t c = 0; c < m.num_classes; ++c) std::printf("%s%s", c ? ", " : "", rfk::ClassLabel(m, c));
    std::printf("\n");
  }
  if (m.num_names)
    std::printf("feature names:   %s; label column '%s'\n", TextNames(m).c_str(), rfk::FeatureName(m, m.input_dim));
  if (m.impute) std::printf("impute:          %s\n", TextImpute(m).c_str());
  if (m.calibration_method != 0)
    std::printf("calibration:     %s\n",
                CalibrationText(m.calibration_method, CalibrationParams(m), m.num_classes == 2 ? rfk::ClassLabel(m, 1) : "")
                    .c_str());
  if (rfk::FixedSection(m)) {
    const FixedParts p = FixedPartsOf(m);
    std::printf("fixed:           integer path, int16 inputs, int32 outputs in units of %.9g; inputs %llu "
                "bytes, map %llu, int8 head %llu",
                double(p.unit), static_cast<unsigned long long>(p.inputs), static_cast<unsigned long long>(p.map),
                static_cast<unsigned long long>(p.head));
    if (p.binning) std::printf(", binning %llu (%u grids x %u columns)", static_cast<unsigned long long>(p.binning),
                               m.num_grids, m.input_dim);
    std::printf("; scratch %zu bytes\n", rfk::FixedScratchBytes(m));
  }
  std::printf("scratch_bytes:   %zu\n", rfk::ScratchBytes(m));
  if (m.metadata_bytes) std::printf("metadata:\n  %s\n", IndentedMetadata(m).c_str());
}

int RunInspect(const std::string& path, bool json) {
  const Inspected in{path, host::OpenedModel::InspectFile(path)};
  if (json) {
    PrintJson(in);
  } else {
    TextHeader(in);
    if (in.ok()) TextModel(in.m());
  }
  return in.ok() ? 0 : 1;
}

struct InspectArgs {
  std::string model;
  bool json = false;
};

}  // namespace

Command AddInspect(CLI::App& app) {
  auto a = std::make_shared<InspectArgs>();
  CLI::App* cmd = app.add_subcommand("inspect", "Show every header field, the sections and the checksum");
  cmd->add_option("model", a->model, "Model file")->required();
  cmd->add_flag("--json", a->json, "Print exactly one JSON object");
  return {cmd, [a] { return RunInspect(a->model, a->json); }};
}

}  // namespace rfk::cli

// The LIBSVM / svmlight reader: "label index:value ..." per line, 1-based strictly increasing
// indices, '#' comments, "qid:" tokens skipped; sparse rows.
#include <algorithm>
#include <charconv>
#include <system_error>

#include "data/data_internal.h"

namespace rfk::host::data_io {

namespace {

// Parses one "index:value" token after feature index `prev` into the 1-based index and the
// value. Returns false for a "qid:" token (skipped). Throws, prefixed by where(), for anything
// else that is not a feature of this row.
template <class Where>
bool ParseFeature(std::string_view tok, std::uint64_t prev, const ReadOptions& opt, Where&& where,
                  std::uint64_t* index_out, float* value_out) {
  const std::size_t colon = tok.find(':');
  if (colon == std::string_view::npos)
    Fail(where() + "expected 'index:value', got " + Quote(tok));
  if (tok.substr(0, colon) == "qid") return false;
  const char* const tb = tok.data();
  std::uint64_t index = 0;
  const auto [iptr, iec] = std::from_chars(tb, tb + colon, index);
  if (colon == 0 || iptr != tb + colon || iec == std::errc::invalid_argument)
    Fail(where() + "bad feature index in " + Quote(tok));
  if (iec == std::errc::result_out_of_range)
    Fail(where() + "feature index in " + Quote(tok) + " is too large");
  if (index == 0) Fail(where() + "feature index 0 in " + Quote(tok) + " (indices are 1-based)");
  if (index <= prev) {
    Fail(where() + "feature indices must be strictly increasing: " + std::to_string(index) +
         " after " + std::to_string(prev));
  }
  if (opt.max_cols != 0 && index > opt.max_cols) {
    Fail(where() + "feature index " + std::to_string(index) +
         " exceeds the model's input dimension " + std::to_string(opt.max_cols));
  }
  if (index > std::uint64_t{UINT32_MAX})
    Fail(where() + "feature index " + std::to_string(index) + " is too large");
  switch (ParseFloat(tb + colon + 1, tb + tok.size(), value_out)) {
    case Num::kOk: break;
    case Num::kBad: Fail(where() + "bad feature value in " + Quote(tok));
    case Num::kRange: Fail(where() + "feature value out of float range in " + Quote(tok));
    case Num::kNonFinite: Fail(where() + "non-finite feature value in " + Quote(tok));
  }
  *index_out = index;
  return true;
}

}  // namespace

Dataset ReadLibsvm(Input& file, const ReadOptions& opt) {
  const std::string& path = file.path();
  Dataset ds = NewDataset(path, DataFormat::kLibsvm);
  ds.sparse = true;
  ds.row_ptr.push_back(0);
  std::uint64_t max_index = 0;

  LineReader in(file, file.Chunk());
  std::string_view line;
  int labelled = opt.labels == LabelColumn::kAbsent ? 0 : opt.labels == LabelColumn::kRequired ? 1 : -1;
  while (in.Next(&line)) {
    if (const auto hash = line.find('#'); hash != std::string_view::npos) line = line.substr(0, hash);
    const char* p = line.data();
    const char* const e = p + line.size();
    const std::string_view label = NextToken(p, e);
    if (label.empty()) continue;  // blank or comment line
    const auto where = [&] { return At(path, in.line_no()); };
    if (labelled < 0) {  // LabelColumn::kOptional: the first row decides for the file
      labelled = label.find(':') == std::string_view::npos;
      if (!labelled) ds.notes.push_back("the rows start with index:value: read as features only (no label)");
    }
    if (!labelled) {
      p = label.data();  // the first token is a feature
    } else {
      if (label.find(':') != std::string_view::npos)
        Fail(where() + "expected a label before the features, got " + Quote(label));
      float label_value = 0;
      if (ParseFloat(label, &label_value) != Num::kOk)
        Fail(where() + "expected a finite numeric label, got " + Quote(label));
      ds.labels.emplace_back(label);
    }

    std::uint64_t prev = 0, index = 0;
    float v = 0;
    for (std::string_view tok = NextToken(p, e); !tok.empty(); tok = NextToken(p, e)) {
      if (!ParseFeature(tok, prev, opt, where, &index, &v)) continue;
      ds.col_idx.push_back(static_cast<std::uint32_t>(index - 1));
      ds.values.push_back(v);
      prev = index;
    }
    max_index = std::max(max_index, prev);
    ds.lines.push_back(in.line_no());
    ds.row_ptr.push_back(ds.col_idx.size());
  }
  in.Close();
  if (ds.lines.empty()) Fail(path + ": no data rows");
  ds.rows = ds.lines.size();
  ds.has_labels = labelled != 0;
  ds.cols = std::max<std::size_t>(opt.min_cols, static_cast<std::size_t>(max_index));
  return ds;
}

}  // namespace rfk::host::data_io

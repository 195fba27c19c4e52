// Categorical CSV columns (data_internal.h, Categories): numbered while a training file is read,
// expanded into one-hot features named "NAME=TEXT" after it, and found again by those names when
// a file is read for a model.
#include <algorithm>
#include <cctype>
#include <limits>

#include "data/data_internal.h"

namespace rfk::host::data_io {

void Categories::Add(std::size_t j, std::size_t d) {
  index_.resize(d, -1);
  index_[j] = static_cast<int>(columns_.size());
  columns_.push_back({j, {}});
}

float Categories::Number(std::size_t j, const std::string& text) {
  Column& c = columns_[static_cast<std::size_t>(index_[j])];
  const auto it = c.number.emplace(text, static_cast<std::uint32_t>(c.number.size())).first;
  return static_cast<float>(it->second);
}

void Categories::Expand(const std::string& path, Dataset* ds) const {
  const std::size_t n = ds->rows, d = ds->cols;
  // Per feature: its first output column and width; per categorical one, appearance -> sorted rank.
  std::vector<std::size_t> first(d), width(d, 1);
  std::vector<std::vector<std::uint32_t>> rank(d);
  std::vector<std::string> names;
  std::size_t cols = 0;
  for (std::size_t j = 0; j < d; ++j) {
    first[j] = cols;
    const std::string& name = ds->feature_names[j];
    if (!Has(j)) {
      names.push_back(name);
      ++cols;
      continue;
    }
    const Column& c = columns_[static_cast<std::size_t>(index_[j])];
    if (c.number.size() > kMaxCategories)
      Fail(path + ": column " + Quote(name) + " holds " + std::to_string(c.number.size()) + " different texts, more "
           "than the " + std::to_string(kMaxCategories) + " a categorical column may have: not a category (a name, "
           "an identifier, free text?); --drop-col " + name + " leaves it out");
    rank[j].resize(c.number.size());
    std::uint32_t r = 0;
    std::string list;
    for (const auto& [text, number] : c.number) {  // std::map: sorted by text
      rank[j][number] = r++;
      names.push_back(name + "=" + text);
      if (r <= 6) list += (r > 1 ? ", " : "") + Quote(text);
    }
    if (c.number.size() > 6) list += ", ...";
    width[j] = c.number.size();
    cols += width[j];
    ds->notes.push_back("column " + Quote(name) + " holds text: one-hot encoded as " + std::to_string(width[j]) +
                        " features (" + list + ")");
  }
  std::vector<float> out(n * cols, 0.0f);
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < d; ++j) {
      const float v = ds->dense[i * d + j];
      float* o = out.data() + i * cols + first[j];
      if (!Has(j)) {
        *o = v;
      } else if (v != v) {  // missing: NaN in each of its features, for --missing to fill
        std::fill(o, o + width[j], std::numeric_limits<float>::quiet_NaN());
        ds->missing += width[j] - 1;
      } else {
        o[rank[j][static_cast<std::size_t>(v)]] = 1.0f;
      }
    }
  ds->dense = std::move(out);
  ds->cols = cols;
  ds->feature_names = std::move(names);
}

std::size_t CategoryOf(const std::vector<std::string>& names, const std::vector<std::size_t>& fields,
                       const std::string& name, std::string* category) {
  std::size_t best = CsvPlan::kNone;
  for (std::size_t f : fields) {
    const std::string& c = names[f];
    if (c.empty() || name.size() <= c.size() + 1 || name.compare(0, c.size(), c) != 0 || name[c.size()] != '=') continue;
    if (best == CsvPlan::kNone || c.size() > names[best].size()) best = f;
  }
  if (best != CsvPlan::kNone) *category = name.substr(names[best].size() + 1);
  return best;
}

}  // namespace rfk::host::data_io

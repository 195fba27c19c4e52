// Reading data for a model.
#include "cli.hpp"

namespace rfk::cli {

host::Dataset ReadForModel(const std::string& path, const DataArgs& args, const rfk::Model& m,
                           host::LabelColumn labels, bool quiet, bool allow_missing) {
  host::ReadOptions o = args.Options();
  o.min_cols = m.input_dim;
  o.max_cols = m.input_dim;
  o.model_inputs = m.input_dim;
  for (std::uint32_t i = 0; i < m.num_names && i < m.input_dim; ++i) o.model_names.push_back(rfk::FeatureName(m, i));
  o.model_label = rfk::FeatureName(m, m.input_dim);
  o.labels = labels;
  o.missing_as_nan = allow_missing && m.impute != nullptr;
  host::Dataset data = host::ReadDataset(path, o);
  if (data.missing != 0)
    data.notes.push_back(std::to_string(data.missing) + " missing value" + (data.missing == 1 ? "" : "s") +
                         " filled in with the model's stored " + rfk::format::NameOf(m.impute_method) +
                         " of each column (from training's --missing)");
  PrintNotes(data, quiet);
  if (data.cols != m.input_dim)
    throw CliError(path + ": rows have " + std::to_string(data.cols) + " features but the model expects " +
                   std::to_string(m.input_dim));
  return data;
}

}  // namespace rfk::cli

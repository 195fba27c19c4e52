// rfk predict: one prediction per line (class labels or values); with --scores, a tab-separated
// table that adds the model's raw outputs.
#include <cstdio>
#include <memory>

#include "cli.hpp"

namespace rfk::cli {
namespace {

struct PredictArgs {
  std::string model, file;
  bool scores = false, no_label = false, quiet = false;
  DataArgs data;
};

// The --scores table's header: the prediction, then one column per raw output -- the decision
// value of a binary model (> 0 means its second class), each class's one-vs-rest score of a
// multi-class model; a regression model's one output is its prediction.
std::string ScoresHeader(const rfk::Model& m) {
  std::string h = "prediction";
  if (m.task == rfk::format::Task::kBinary)
    h += std::string("\tdecision (> 0: ") + rfk::ClassLabel(m, 1) + ")";
  else if (m.task == rfk::format::Task::kMulticlass)
    for (std::uint32_t c = 0; c < m.num_classes; ++c) h += std::string("\tscore ") + rfk::ClassLabel(m, c);
  return h + "\n";
}

int RunPredict(const PredictArgs& a) {
  const LoadedModel lm = LoadModel(a.model);
  const rfk::Model& m = lm.model;
  const host::Dataset data = ReadForModel(a.file, a.data, m,
                                          a.no_label ? host::LabelColumn::kAbsent : host::LabelColumn::kOptional,
                                          a.quiet);
  std::vector<std::string> preds;
  std::vector<float> scores;
  preds.reserve(data.rows);
  Evaluate(m, data, &preds, a.scores ? &scores : nullptr);
  const bool extra = a.scores && m.task != rfk::format::Task::kRegression;
  std::string out = a.scores ? ScoresHeader(m) : std::string();
  for (std::size_t i = 0; i < preds.size(); ++i) {
    out += preds[i];
    for (std::uint32_t k = 0; extra && k < m.num_outputs; ++k) out += "\t" + Num(scores[i * m.num_outputs + k]);
    out += '\n';
  }
  std::fwrite(out.data(), 1, out.size(), stdout);
  return 0;
}

}  // namespace

Command AddPredict(CLI::App& app) {
  auto a = std::make_shared<PredictArgs>();
  CLI::App* cmd = app.add_subcommand("predict", "Print one prediction per line (class labels or values)");
  cmd->add_option("-m,--model", a->model, "Model file")->required();
  cmd->add_option("file", a->file,
                  "Data to predict: features only, or with a label column (ignored); columns matched to the "
                  "model's by name when the file has a header")
      ->required();
  cmd->add_flag("--no-label", a->no_label,
                "The file has no label column (default: decided from the columns: as many as the model's "
                "features means none; LIBSVM rows that start with index:value have none)");
  cmd->add_flag("-q,--quiet", a->quiet, "No notes on stderr (warnings still)");
  cmd->add_flag("--scores", a->scores,
                "Print a tab-separated table with a header: the prediction, then the raw outputs "
                "(binary: the decision value; multi-class: each class's score)");
  a->data.Add(cmd);
  a->data.AddWeightColumn(cmd, false);
  return {cmd, [a] { return RunPredict(*a); }};
}

}  // namespace rfk::cli

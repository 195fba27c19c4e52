// rfk predict: one prediction per line (class labels or values); with --scores and/or --proba, a
// tab-separated table that adds the model's raw outputs and/or its calibrated class probabilities.
#include <cstdio>
#include <memory>

#include <CLI/CLI.hpp>

#include "cli.hpp"

namespace rfk::cli {
namespace {

struct PredictArgs {
  std::string model, file;
  bool scores = false, proba = false, no_label = false, quiet = false;
  Decision decision = Decision::kCalibrated;
  DataArgs data;
};

// The --scores table's header: the prediction, then one column per raw output -- the decision
// value of a binary model (> 0 means its second class), each class's one-vs-rest score of a
// multi-class model; a regression model's one output is its prediction. With --proba, then one
// column per class: its calibrated probability ("p <label>").
std::string ScoresHeader(const rfk::Model& m, bool scores, bool proba) {
  std::string h = "prediction";
  if (scores && m.task == rfk::format::Task::kBinary)
    h += std::string("\tdecision (> 0: ") + rfk::ClassLabel(m, 1) + ")";
  else if (scores && m.task == rfk::format::Task::kMulticlass)
    for (std::uint32_t c = 0; c < m.num_classes; ++c) h += std::string("\tscore ") + rfk::ClassLabel(m, c);
  for (std::uint32_t c = 0; proba && c < m.num_classes; ++c) h += std::string("\tp ") + rfk::ClassLabel(m, c);
  return h + "\n";
}

int RunPredict(const PredictArgs& a) {
  const host::OpenedModel lm = host::OpenedModel::ReadFile(a.model);
  const rfk::Model& m = lm.model();
  if (a.proba && m.calibration_method == 0) ThrowNoCalibration(m, a.model);
  const host::Dataset data = ReadForModel(a.file, a.data, m,
                                          a.no_label ? host::LabelColumn::kAbsent : host::LabelColumn::kOptional,
                                          a.quiet);
  std::vector<std::string> preds;
  std::vector<float> scores, proba;
  preds.reserve(data.rows);
  Evaluate(m, data, &preds, a.scores ? &scores : nullptr, a.proba ? &proba : nullptr, a.decision);
  const bool extra = a.scores && m.task != rfk::format::Task::kRegression;
  std::string out = a.scores || a.proba ? ScoresHeader(m, a.scores, a.proba) : std::string();
  for (std::size_t i = 0; i < preds.size(); ++i) {
    out += preds[i];
    for (std::uint32_t k = 0; extra && k < m.num_outputs; ++k) out += "\t" + Num(scores[i * m.num_outputs + k]);
    for (std::uint32_t c = 0; a.proba && c < m.num_classes; ++c) out += "\t" + Num(proba[i * m.num_classes + c]);
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
  cmd->add_flag("--proba", a->proba,
                "Print a tab-separated table with a header: the prediction, then each class's probability "
                "(\"p <label>\") from the model's calibration (fitted on held-out outputs by rfk train: Platt scaling "
                "with a cubic term for binary, a scale and a bias per class for multi-class); the prediction is "
                "their argmax (unless --decision raw); with --scores, after the raw outputs");
  AddDecisionOption(cmd, &a->decision);
  a->data.Add(cmd);
  a->data.AddWeightColumn(cmd, false);
  return {cmd, [a] { return RunPredict(*a); }};
}

}  // namespace rfk::cli

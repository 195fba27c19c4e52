// rfk eval: error rate or RMSE of a model on labelled data, and the per-sample latency.
#include <cstdio>
#include <cstring>
#include <memory>

#include <CLI/CLI.hpp>

#include "cli.hpp"

namespace rfk::cli {
namespace {

struct EvalArgs {
  std::string model, file;
  bool json = false;
  Decision decision = Decision::kCalibrated;
  DataArgs data;
};

void PrintJson(const EvalArgs& a, const rfk::Model& m, const EvalResult& e) {
  std::printf("{\"model\": \"%s\", \"data\": \"%s\", \"task\": \"%s\", \"n\": %zu, ", JsonEscape(a.model).c_str(),
              JsonEscape(a.file).c_str(), rfk::format::NameOf(m.task), e.n);
  if (e.classification)
    std::printf("\"error_rate\": %s, \"accuracy\": %s, \"unknown_labels\": %zu, \"decision\": \"%s\", ",
                Num(e.error_rate).c_str(), Num(e.accuracy).c_str(), e.unknown_labels, e.decision);
  else
    std::printf("\"rmse\": %s, \"rel_rmse\": %s, ", Num(e.rmse).c_str(), Num(e.rel_rmse).c_str());
  if (e.has_proba)
    std::printf("\"log_loss\": %s, \"brier\": %s, \"ece\": %s, ", Num(e.log_loss).c_str(), Num(e.brier).c_str(),
                Num(e.ece).c_str());
  if (e.fixed_point) std::printf("\"fixed_point\": true, \"saturated_inputs\": %llu, ", static_cast<unsigned long long>(e.saturated));
  std::printf("\"predict_us_per_sample\": %s, \"model_bytes\": %u%s}\n", Num(e.predict_us).c_str(), m.total_bytes,
              MetricsJson(e).c_str());
}

void PrintText(const rfk::Model& m, const EvalResult& e) {
  std::printf("n:                     %zu\n", e.n);
  if (e.classification) {
    std::printf("error_rate:            %.6f\naccuracy:              %.6f\n", e.error_rate, e.accuracy);
    std::printf("decision:              %s\n", std::strcmp(e.decision, "calibrated") == 0
                                                    ? "calibrated (the most probable class)"
                                                    : "raw (sign / first maximum of the outputs)");
    if (e.unknown_labels)
      std::printf("unknown_labels:        %zu (labels the model never saw; counted as errors)\n", e.unknown_labels);
  } else {
    std::printf("rmse:                  %.9g\nrel_rmse:              %.6f\n", e.rmse, e.rel_rmse);
  }
  if (e.has_proba)
    std::printf("log_loss:              %.6f (calibrated probabilities: mean -ln p of the true class)\n"
                "brier:                 %.6f\n"
                "ece:                   %.6f (15 equal-width bins of the top class's probability)\n",
                e.log_loss, e.brier, e.ece);
  PrintMetricsText(e);
  if (e.fixed_point)
    std::printf("fixed_point:           integer path; %llu input values saturated (clamped to +-32767)\n",
                static_cast<unsigned long long>(e.saturated));
  std::printf("predict_us_per_sample: %.3f\nmodel_bytes:           %u\n", e.predict_us, m.total_bytes);
}

// Accuracy no better than always predicting the most frequent class: say so (stderr).
void WarnBaseline(const EvalResult& e) {
  if (e.classification && e.accuracy <= e.majority_rate)
    std::fprintf(stderr,
                 "rfk: warning: accuracy %.4f is no better than always predicting '%s' (%.4f): look at "
                 "balanced_accuracy (%.4f) and the per-class recall\n",
                 e.accuracy, e.majority_label.c_str(), e.majority_rate, e.balanced_accuracy);
}

int RunEval(const EvalArgs& a) {
  const host::OpenedModel lm = host::OpenedModel::ReadFile(a.model);
  const host::Dataset data = ReadForModel(a.file, a.data, lm.model(), host::LabelColumn::kRequired);
  const EvalResult e = Evaluate(lm.model(), data, nullptr, nullptr, nullptr, a.decision);
  if (a.json)
    PrintJson(a, lm.model(), e);
  else
    PrintText(lm.model(), e);
  WarnBaseline(e);
  return 0;
}

}  // namespace

Command AddEval(CLI::App& app) {
  auto a = std::make_shared<EvalArgs>();
  CLI::App* cmd = app.add_subcommand(
      "eval", "Evaluate a model on labelled data: error, balanced accuracy, per-class precision and recall, "
              "confusion matrix, ROC AUC (binary); RMSE, MAE, R^2 (regression); per-sample latency");
  cmd->add_option("-m,--model", a->model, "Model file")->required();
  cmd->add_option("file", a->file, "Labelled data")->required();
  cmd->add_flag("--json", a->json, "Print exactly one JSON object");
  AddDecisionOption(cmd, &a->decision);
  a->data.Add(cmd);
  a->data.AddWeightColumn(cmd, false);
  return {cmd, [a] { return RunEval(*a); }};
}

}  // namespace rfk::cli

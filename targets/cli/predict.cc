// rfk predict: one prediction per line (class labels or values).
#include <cstdio>
#include <memory>

#include "cli.hpp"

namespace rfk::cli {
namespace {

struct PredictArgs {
  std::string model, file;
  DataArgs data;
};

int RunPredict(const PredictArgs& a) {
  const LoadedModel lm = LoadModel(a.model);
  const host::Dataset data = ReadForModel(a.file, a.data, lm.model);
  std::vector<std::string> preds;
  preds.reserve(data.rows);
  Evaluate(lm.model, data, &preds);
  std::string out;
  for (const std::string& p : preds) {
    out += p;
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
  cmd->add_option("file", a->file, "Data to predict, in a training format (its label column is read but ignored)")
      ->required();
  a->data.Add(cmd);
  return {cmd, [a] { return RunPredict(*a); }};
}

}  // namespace rfk::cli

// rfk export: a model as C for firmware (an aligned const array read in place from flash): a
// header alone (static definitions, one translation unit), or a header of extern declarations and
// a .c file that defines the arrays once; optionally with test vectors, rows of a data file with
// the host's outputs.
#include <cmath>
#include <cstdio>
#include <memory>

#include <CLI/CLI.hpp>

#include "cli.hpp"
#include "rfk/fixed.hpp"
#include "rfk/host/c_export.hpp"
#include "rfk/host/fixed.hpp"
#include "rfk/rfk.h"
#include "rfk/kernels.hpp"

namespace rfk::cli {
namespace {

struct ExportArgs {
  std::string model, c_header, c_source, name, vectors, config_header;
  std::uint32_t count = 32;
  bool pin = false;  // --pin: RFK_PIN_* in the config header
  DataArgs data;
};

// The first `count` rows of the data file with the outputs, classes and bin keys the scalar
// reference kernels give on this host, so a device can check its own predictions (targets/cortex-m
// does). The oracle: whatever table is active for this process, vectors come from the scalar kernels.
// A fixed-point model's vector: x as QuantizeInput converts it and PredictFixed's outputs (the
// classes stay the float path's: a device decides the integers itself, rfk_decide_class_fixed).
void AddFixedVector(const ExportArgs& a, const rfk::Model& m, const std::vector<float>& x, std::uint64_t line,
                    host::TestVectors* v, std::vector<float>* real) {
  std::vector<std::int16_t> xq(m.input_dim);
  std::vector<std::int32_t> out(m.num_outputs);
  host::AlignedBytes scratch(rfk::FixedScratchBytes(m));
  rfk::Status s = rfk::QuantizeInput(m, x.data(), x.size(), xq.data(), xq.size());
  if (s == rfk::Status::kOk)
    s = rfk::PredictFixed(m, xq.data(), xq.size(), scratch.data(), scratch.size(), out.data(), out.size());
  if (s != rfk::Status::kOk) throw CliError(a.vectors + ":" + std::to_string(line) + ": " + rfk::StatusMessage(s));
  v->inputs_q.insert(v->inputs_q.end(), xq.begin(), xq.end());
  v->outputs_q.insert(v->outputs_q.end(), out.begin(), out.end());
  for (std::size_t k = 0; k < out.size(); ++k) (*real)[k] = static_cast<float>(out[k] * double(rfk::FixedOutputScale(m)));
}

// A fixed-point model's vectors as integer codes, where every input is a whole number within int32:
// the codes and rfk_quantize_codes' int16 inputs for them, with the constants the export writes.
void AddCodeVectors(const rfk::Model& m, host::TestVectors* v) {
  for (const float value : v->inputs)
    if (!(value == std::nearbyint(value) && std::fabs(value) < 2147483520.0f)) return;  // 2^31 - 128: a float
  v->codes.assign(v->inputs.begin(), v->inputs.end());
  v->codes_q.resize(v->codes.size());
  const host::InputCodes c = host::MakeInputCodes(m);
  const rfk_input_codes conv = c.View();
  for (std::size_t r = 0; r < v->count; ++r)
    if (rfk_quantize_codes(&conv, v->codes.data() + r * m.input_dim, m.input_dim, v->codes_q.data() + r * m.input_dim,
                           m.input_dim, nullptr) != RFK_OK)
      throw CliError("rfk_quantize_codes refused the exported constants");
}

host::TestVectors MakeVectors(const ExportArgs& a, const rfk::Model& m) {
  const host::Dataset data = ReadForModel(a.vectors, a.data, m);
  const rfk::KernelTable& previous = rfk::ActiveKernels();
  rfk::SelectKernels("scalar");
  host::TestVectors v;
  v.input_dim = m.input_dim;
  v.num_outputs = m.num_outputs;
  // A fixed-only model (no float W or bin grids) has no float outputs or bin keys: its outputs are
  // the integers' real values, and no keys are exported.
  const bool float_path = host::HasFloatPath(m);
  v.num_grids = float_path ? m.num_grids : 0;
  host::AlignedBytes scratch(rfk::ScratchBytes(m));
  std::vector<float> x(m.input_dim), out(m.num_outputs);
  std::vector<std::uint64_t> keys(v.num_grids);
  std::vector<std::uint32_t> cols(v.num_grids);
  for (std::size_t r = 0; r < data.rows && v.count < a.count; ++r) {
    host::DenseRow(data, r, x.data(), x.size());
    std::vector<float> real(m.num_outputs);
    if (rfk::FixedSection(m) != nullptr) AddFixedVector(a, m, x, data.lines[r], &v, &real);
    const rfk::Status s = float_path ? rfk::Predict(m, x.data(), x.size(), scratch.data(), scratch.size(), out.data(),
                                                    out.size())
                                     : rfk::Status::kOk;
    if (!float_path) out = real;
    if (s != rfk::Status::kOk)
      throw CliError(a.vectors + ":" + std::to_string(data.lines[r]) + ": " + rfk::StatusMessage(s));
    if (v.num_grids > 0 && rfk::ComputeBins(m, x.data(), x.size(), scratch.data(), scratch.size(), keys.data(),
                                            cols.data(), keys.size()) != rfk::Status::kOk)
      throw CliError(a.vectors + ":" + std::to_string(data.lines[r]) + ": bin keys failed");
    v.inputs.insert(v.inputs.end(), x.begin(), x.end());
    v.outputs.insert(v.outputs.end(), out.begin(), out.end());
    if (m.num_classes > 0) v.classes.push_back(rfk::DecideClass(m, out.data()));
    v.keys.insert(v.keys.end(), keys.begin(), keys.end());
    ++v.count;
  }
  rfk::SelectKernels((std::string(previous.backend) + "-" + previous.target).c_str());
  if (rfk::FixedSection(m) != nullptr) AddCodeVectors(m, &v);
  return v;
}

int RunExport(const ExportArgs& a) {
  const host::OpenedModel lm = host::OpenedModel::ReadFile(a.model);
  const rfk::Model& m = lm.model();
  host::CheckCName(a.name);  // before reading any vectors: a bad name fails fast
  if (a.pin && a.config_header.empty()) throw CliError("--pin pins the core that --config-header configures: give both");
  host::TestVectors v;
  std::string comment = "model: " + a.model + " (" + std::to_string(m.total_bytes) + " bytes)";
  if (!a.vectors.empty()) {
    if (a.count == 0) throw CliError("--count must be at least 1");
    v = MakeVectors(a, m);
    comment += "\ntest vectors: the first " + std::to_string(v.count) + " rows of " + a.vectors;
  }
  const std::size_t slash = a.c_header.find_last_of('/');
  const std::string include = a.c_source.empty() ? std::string()
                                                 : a.c_header.substr(slash == std::string::npos ? 0 : slash + 1);
  const host::CExport c = host::ModelCSource(m, a.name,
                                             a.vectors.empty() ? nullptr : &v, comment, include, a.pin);
  host::WriteFileAtomic(a.c_header, std::vector<std::uint8_t>(c.header.begin(), c.header.end()));
  if (!a.c_source.empty())
    host::WriteFileAtomic(a.c_source, std::vector<std::uint8_t>(c.source.begin(), c.source.end()));
  if (!a.config_header.empty()) {
    const std::string h = host::CoreConfigHeader(m, "model: " + a.model, a.pin ? a.name : std::string());
    host::WriteFileAtomic(a.config_header, std::vector<std::uint8_t>(h.begin(), h.end()));
  }
  std::fprintf(stderr, "rfk: wrote %s%s (%s model%s)\n", a.c_header.c_str(),
               a.c_source.empty() ? "" : (" and " + a.c_source).c_str(), HumanBytes(m.total_bytes).c_str(),
               a.vectors.empty() ? "" : (", " + std::to_string(v.count) + " test vectors").c_str());
  return 0;
}

}  // namespace

Command AddExport(CLI::App& app) {
  auto a = std::make_shared<ExportArgs>();
  CLI::App* cmd = app.add_subcommand("export", "Write a model as C source for firmware (read in place from flash)");
  cmd->add_option("-m,--model", a->model, "Model file")->required();
  cmd->add_option("--c-header", a->c_header,
                  "Header to write: the model's sizes and its aligned byte array (static const, for one "
                  "translation unit), or with --c-source its extern declaration")
      ->required();
  cmd->add_option("--c-source", a->c_source,
                  "Also write this .c file, which defines the arrays once (it includes the header by its "
                  "file name), so any number of files may include the header");
  cmd->add_option("--config-header", a->config_header,
                  "Also write the core configuration this model needs (lib/core/core_config.h's switches), "
                  "for a firmware that builds the core for this model only (rfk_add_core CONFIG, rfk.mk "
                  "RFK_CONFIG_HEADER)");
  cmd->add_flag("--pin", a->pin,
               "With --config-header: pin the core to this model's bytes (its size and CRC-32): it opens "
               "this model only, without linking the validators (2-5 KB less flash; docs/EMBEDDED.md), and "
               "reads it through --name's array, which the header then defines with external linkage");
  cmd->add_option("--name", a->name,
                  "C identifier of the array (macros use it in upper case); not a C/C++ keyword, nor rfk_*")
      ->required();
  cmd->add_option("--vectors", a->vectors, "Also embed test vectors: rows of this data file with the host's outputs");
  cmd->add_option("--count", a->count, "Rows of --vectors to embed")->capture_default_str();
  a->data.Add(cmd);
  return {cmd, [a] { return RunExport(*a); }};
}

}  // namespace rfk::cli

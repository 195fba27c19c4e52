// rfk convert: the same model with its map weights (W, or Fastfood's G and S) and the head stored
// in another storage (host::UserStorages),
// re-quantized from the stored weights without retraining; every other section is copied as is.
// With --calibrate FILE (an int8 head): the head is refitted on FILE's rows to reproduce the
// source model's outputs from the stored W's features, then rounded for its outputs. Without it,
// a classifier's int8 head whose outputs moved far is refitted so on inputs drawn from the
// model's input statistics (RefitOnDraws; --no-refit keeps plain rounding).
// Written atomically; a storage wider than the source's is refused (it cannot restore precision).
#include <cstdio>
#include <memory>

#include <CLI/CLI.hpp>

#include "cli.hpp"
#include "rfk/host/convert.hpp"

namespace rfk::cli {
namespace {

struct ConvertArgs {
  std::string model, output, storage, head_storage, calibrate, memory_limit = "physical";
  unsigned threads = 0;
  bool quiet = false, fixed = false, fixed_only = false, no_metadata = false, no_refit = false;
  DataArgs data;
};

host::ConvertSettings Settings(const ConvertArgs& a) {
  host::ConvertSettings s;
  s.storage = a.storage;
  s.head_storage = a.head_storage;
  s.calibrate = !a.calibrate.empty();
  s.fixed = a.fixed;
  s.fixed_only = a.fixed_only;
  s.metadata = !a.no_metadata;
  s.refit = !a.no_refit;
  s.memory_limit = a.memory_limit;
  s.threads = a.threads;
  return s;
}

// "rfk: wrote FILE (SIZE, RATIO of SOURCE SIZE): what it holds".
void PrintWrote(const ConvertArgs& a, const rfk::Model& m, const host::ConvertResult& r) {
  const std::string size = HumanBytes(double(r.model.size()));
  const double ratio = double(r.model.size()) / double(m.total_bytes);
  if (a.fixed || a.fixed_only) {
    std::fprintf(stderr, "rfk: wrote %s (%s, %.3gx of %s): %s%s\n", a.output.c_str(), size.c_str(), ratio,
                 HumanBytes(double(m.total_bytes)).c_str(),
                 a.fixed_only ? "the integer (fixed) section, without the float W (integer prediction only)"
                              : "the float model and its integer (fixed) section",
                 a.no_metadata ? ", no metadata" : "");
    return;
  }
  const host::OpenedModel written(r.model, a.output);
  const rfk::Model& c = written.model();
  const bool has_w = m.projection_weights.data != nullptr || m.fastfood.dp != 0;
  const char* standardization = !IsStandardized(c) ? "" : c.standardize_f16_at ? ", standardisation f16"
                                                                                : ", standardisation f32";
  std::fprintf(stderr, "rfk: wrote %s (%s, %.3gx of %s): %s %s, head %s%s%s%s\n", a.output.c_str(), size.c_str(),
               ratio, HumanBytes(double(m.total_bytes)).c_str(), m.fastfood.dp ? "G and S" : "W",
               has_w ? rfk::format::NameOf(r.w_storage) : "none", rfk::format::NameOf(c.head_storage),  // f16-scaled
               !a.calibrate.empty() ? " (calibrated)" : r.refitted ? " (refitted on drawn inputs)" : "",
               standardization, a.no_metadata ? ", no metadata" : "");
}

// The conversion is host::ConvertModel's (rfk.convert's too); reading the calibration file,
// writing the result and printing what was done are this command's.
int RunConvert(const ConvertArgs& a) {
  MemoryLimitOption(a.memory_limit);  // a bad value is refused before anything is read
  const host::ConvertSettings s = Settings(a);
  const host::OpenedModel source = host::OpenedModel::ReadFile(a.model);
  const rfk::Model& m = source.model();
  // What the model alone refuses is refused before the data is read (a large file takes a while).
  host::CheckConvert(m, s, host::Spelling::kCli, a.model);
  host::Dataset rows;
  if (s.calibrate) rows = ReadForModel(a.calibrate, a.data, m, host::LabelColumn::kOptional, a.quiet);
  const host::ConvertResult r =
      host::ConvertModel(m, s, s.calibrate ? &rows : nullptr, host::Spelling::kCli, a.model, a.calibrate);
  WriteModelAtomically(a.output, r.model);
  PrintWrote(a, m, r);
  for (const host::ConvertMessage& msg : r.messages)
    if (msg.warning || !a.quiet) std::fprintf(stderr, "rfk: %s\n", msg.text.c_str());
  return 0;
}

}  // namespace

Command AddConvert(CLI::App& app) {
  auto a = std::make_shared<ConvertArgs>();
  CLI::App* cmd = app.add_subcommand("convert", "Re-store a model's weights as " + host::StorageNames() + ", without retraining");
  cmd->add_option("-m,--model", a->model, "Model file to read")->required();
  cmd->add_option("-o,--output", a->output, "Model file to write (atomically)")->required();
  cmd->add_option("--storage", a->storage,
                  host::StorageNames() + ": storage of the map's weights (W, or Fastfood's G and S) and the head "
                  "(int8: one f32 scale per row of W or of the head, per block of Fastfood's d'); not wider "
                  "than the source's");
  cmd->add_option("--head-storage", a->head_storage, host::StorageNames() + ": the head's storage, overriding --storage");
  cmd->add_option("--calibrate", a->calibrate,
                  "Representative data (e.g. the training file; labels not needed, at least as many rows as "
                  "the head has features): refit the int8 head to reproduce this model's outputs from the "
                  "stored W's features (ridge at the model's lambda), then round it to change its outputs "
                  "least (GPTQ-style). Fourier-type maps without binning");
  cmd->add_flag("--fixed", a->fixed,
                "Add the integer prediction path (a fixed section: int16 inputs and W, q15 features, int8 head, "
                "int32 outputs; no float operation), scaled from --calibrate's input ranges. Fourier-type maps "
                "(fourier, orf, fastfood and their phase forms) and random binning, alone or binning beside a "
                "dense map");
  cmd->add_flag("--fixed-only", a->fixed_only,
                "As --fixed, and leave out the float W, phases, standardisation and input statistics (the head "
                "stored int8): the smallest model, which only the integer path predicts");
  cmd->add_flag("--no-refit", a->no_refit,
                "Keep plain rounding where a classifier's int8 head moved its outputs far (by more than 0.05 RMS "
                "on inputs drawn from the model's input statistics) instead of refitting it on drawn inputs");
  cmd->add_option("--memory-limit", a->memory_limit,
                  "M|physical: the most memory the head's refit (--calibrate, or the drawn refit) may take, e.g. "
                  "512M or 8G (default: physical memory); about 24 D^2 bytes. Past it --calibrate is refused and "
                  "the drawn refit skipped (plain rounding, with a warning)");
  cmd->add_option("--threads", a->threads,
                  "Worker threads for --calibrate and the drawn refit (0 = all cores; the model does not depend on it)")
      ->capture_default_str();
  cmd->add_flag("--no-metadata", a->no_metadata,
                "Leave out the optional sections a device does not use: the metadata (producer, kernel, gamma, "
                "lambda, seed, rows: informational; --calibrate and the drawn refit need its lambda) and the "
                "input statistics (the drawn refit's)");
  cmd->add_flag("-q,--quiet", a->quiet, "No notes (warnings and errors still on stderr)");
  a->data.Add(cmd);
  a->data.AddWeightColumn(cmd, false);  // --calibrate with a weighted fit's training file
  return {cmd, [a] { return RunConvert(*a); }};
}

}  // namespace rfk::cli

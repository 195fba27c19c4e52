// rfk convert: the same model with its map weights (W, or Fastfood's G and S) and the head stored
// in another storage (f32, f16, int8),
// re-quantized from the stored weights without retraining; every other section is copied as is.
// Written atomically; a storage wider than the source's is refused (it cannot restore precision).
#include <cstdio>
#include <memory>

#include "cli.hpp"
#include "rfk/host/quantize.hpp"

namespace rfk::cli {
namespace {

struct ConvertArgs {
  std::string model, output, storage, head_storage;
};

int RunConvert(const ConvertArgs& a) {
  if (a.storage.empty() && a.head_storage.empty())
    throw CliError("nothing to convert: give --storage (W and the head) and/or --head-storage");
  const LoadedModel lm = LoadModel(a.model);
  const rfk::Model& m = lm.model;
  rfk::format::Storage w = m.projection_storage, h = m.head_storage;
  try {
    if (!a.storage.empty()) w = h = host::ParseStorage(a.storage);
    if (!a.head_storage.empty()) h = host::ParseStorage(a.head_storage);
  } catch (const std::invalid_argument& e) {
    throw CliError(std::string("--storage / --head-storage: ") + e.what());
  }
  std::vector<std::uint8_t> out;
  try {
    out = host::RequantizeModel(m, w, h);
  } catch (const host::QuantizeError& e) {
    throw CliError(a.model + ": cannot convert: " + e.what());
  }
  // What was written must open: the converter and the reader agree on the layout.
  host::AlignedBytes check(out.size());
  std::copy(out.begin(), out.end(), check.data());
  rfk::Model reopened;
  rfk::ModelError err;
  if (rfk::OpenModel(check.data(), check.size(), &reopened, &err) != rfk::Status::kOk)
    throw std::logic_error(std::string("convert produced a model that does not open: ") + err.field);
  WriteModelAtomically(a.output, out);
  const bool has_w = m.projection_weights.data != nullptr || m.fastfood.dp != 0;
  std::fprintf(stderr, "rfk: wrote %s (%s, %.3gx of %s): %s %s, head %s\n", a.output.c_str(),
               HumanBytes(double(out.size())).c_str(), double(out.size()) / double(m.total_bytes),
               HumanBytes(double(m.total_bytes)).c_str(), m.fastfood.dp ? "G and S" : "W",
               has_w ? rfk::format::NameOf(w) : "none", rfk::format::NameOf(h));
  return 0;
}

}  // namespace

Command AddConvert(CLI::App& app) {
  auto a = std::make_shared<ConvertArgs>();
  CLI::App* cmd = app.add_subcommand("convert", "Re-store a model's weights as f32, f16 or int8, without retraining");
  cmd->add_option("-m,--model", a->model, "Model file to read")->required();
  cmd->add_option("-o,--output", a->output, "Model file to write (atomically)")->required();
  cmd->add_option("--storage", a->storage,
                  "f32, f16 or int8: storage of the map's weights (W, or Fastfood's G and S) and the head "
                  "(int8: one f32 scale per row of W or of the head, per block of Fastfood's d'); not wider "
                  "than the source's");
  cmd->add_option("--head-storage", a->head_storage, "f32, f16 or int8: the head's storage, overriding --storage");
  return {cmd, [a] { return RunConvert(*a); }};
}

}  // namespace rfk::cli

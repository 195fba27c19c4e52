// rfk convert: the same model with its map weights (W, or Fastfood's G and S) and the head stored
// in another storage (f32, f16, int8),
// re-quantized from the stored weights without retraining; every other section is copied as is.
// With --calibrate FILE (an int8 head): the head is refitted on FILE's rows to reproduce the
// source model's outputs from the stored W's features, then rounded for its outputs. Without it,
// a classifier's int8 head whose outputs moved far is refitted so on inputs drawn from the
// model's input statistics (RefitOnDraws; --no-refit keeps plain rounding).
// Written atomically; a storage wider than the source's is refused (it cannot restore precision).
#include <cstdio>
#include <algorithm>
#include <memory>
#include <thread>

#include "cli.hpp"
#include "rfk/fixed.hpp"
#include "rfk/host/fixed.hpp"
#include "rfk/host/quantize.hpp"

namespace rfk::cli {
namespace {

struct ConvertArgs {
  std::string model, output, storage, head_storage, calibrate, memory_limit = "physical";
  unsigned threads = 0;
  bool quiet = false, fixed = false, fixed_only = false, no_metadata = false, no_refit = false;
  DataArgs data;
  unsigned Threads() const { return threads > 0 ? threads : std::max(1u, std::min(64u, std::thread::hardware_concurrency())); }
};

// "" when a refit of m's head on `rows` rows fits under --memory-limit (physical memory by
// default; none known: no check), else why not, e.g. "the refit would need about 9.02 GiB of memory
// (three D x D matrices of doubles, D = 20000), more than the limit of 7.6 GiB (physical memory)".
std::string RefitMemoryRefusal(const ConvertArgs& a, const rfk::Model& m, std::size_t rows) {
  const std::uint64_t given = MemoryLimitOption(a.memory_limit);
  const double limit = given ? static_cast<double>(given) : host::PhysicalMemoryBytes();
  const double need = host::CalibrationMemoryBytes(m, rows);
  if (limit <= 0 || need <= limit) return "";
  return "the refit would need about " + HumanBytes(need) + " of memory (three D x D matrices of doubles, D = " +
         std::to_string(m.num_features) + "), more than the limit of " + HumanBytes(limit) +
         (given ? " (--memory-limit)" : " (physical memory)");
}

// The model's lambda from its metadata's "lambda=" line; a CliError naming the model without one.
double ModelLambda(const rfk::Model& m, const std::string& path) {
  const std::string md(m.metadata != nullptr ? m.metadata : "", m.metadata_bytes);
  double lambda = -1;
  for (std::size_t at = 0; at < md.size();) {
    const std::size_t end = std::min(md.find('\n', at), md.size());
    if (md.compare(at, 7, "lambda=") == 0 && !ParseDouble(md.substr(at + 7, end - at - 7), &lambda)) lambda = -1;
    at = end + 1;
  }
  if (!(lambda >= 0))
    throw CliError(path + ": --calibrate refits the head with the model's ridge penalty, and its metadata has no "
                   "valid lambda= line");
  return lambda;
}

// The converted model: plainly re-quantized, or with --calibrate the calibrated int8 head.
std::vector<std::uint8_t> Convert(const ConvertArgs& a, const rfk::Model& m, rfk::format::Storage w,
                                  rfk::format::Storage h) {
  try {
    if (a.calibrate.empty()) return host::RequantizeModel(m, w, h);
    if (h != rfk::format::Storage::kInt8)
      throw CliError("--calibrate refits an int8 head: give --storage int8 or --head-storage int8");
    const double lambda = ModelLambda(m, a.model);
    // What the model alone refuses is refused before the data is read (a large file takes a while).
    host::CheckCalibratable(m);
    if (const std::string too_big = RefitMemoryRefusal(a, m, 0); !too_big.empty())
      throw CliError("--calibrate: " + too_big);
    const host::Dataset data = ReadForModel(a.calibrate, a.data, m, host::LabelColumn::kOptional, a.quiet);
    const std::string too_big = RefitMemoryRefusal(a, m, data.rows);
    if (!too_big.empty()) throw CliError("--calibrate: " + too_big);
    host::CalibrationReport rep;
    std::vector<std::uint8_t> out = host::CalibratedInt8Model(m, w, data, lambda, a.Threads(), &rep);
    static const char* const kChosen[] = {"the head refitted", "the head not refitted (the refit was worse)",
                                          "plain rounding (both GPTQ heads were worse)"};
    if (!a.quiet)
      std::fprintf(stderr, "rfk: calibrated on %zu rows of %s: %s; mean squared change of the outputs there %.3g "
                           "(plain rounding %.3g)\n", data.rows, a.calibrate.c_str(), kChosen[rep.chosen], rep.mse,
                   rep.mse_plain);
    return out;
  } catch (const host::QuantizeError& e) {
    throw CliError(a.model + ": cannot convert: " + e.what());
  }
}

// --fixed: the model with a fixed section, its input ranges from --calibrate's rows.
std::vector<std::uint8_t> ConvertFixed(const ConvertArgs& a, const rfk::Model& m) {
  if (a.calibrate.empty())
    throw CliError("--fixed and --fixed-only need --calibrate FILE (e.g. the training data): the input ranges set the int16 scales");
  if (!a.storage.empty() || !a.head_storage.empty())
    throw CliError("--fixed and --fixed-only choose their own integer storage: leave out --storage and --head-storage");
  const host::Dataset data = ReadForModel(a.calibrate, a.data, m, host::LabelColumn::kOptional, a.quiet);
  host::FixedReport rep;
  std::vector<std::uint8_t> out;
  try {
    out = host::FixedModel(m, data, &rep, a.fixed_only);
  } catch (const host::QuantizeError& e) {
    throw CliError(a.model + ": cannot convert to fixed point: " + e.what());
  }
  if (rep.clamped_weights != 0)
    std::fprintf(stderr, "rfk: warning: %llu weights of W exceed the integer path's range (an input step of more than "
                         "16,383 periods) and were clamped: those features are noise; standardise the inputs\n",
                 static_cast<unsigned long long>(rep.clamped_weights));
  if (rep.clamped_bins != 0)
    std::fprintf(stderr, "rfk: warning: %llu (grid, column) pairs of the bin grids exceed the integer path's range "
                         "(more than 32,768 bins per input step, or a bin beyond 2^30) and were clamped\n",
                 static_cast<unsigned long long>(rep.clamped_bins));
  if (!a.quiet)
    std::fprintf(stderr, "rfk: fixed point from %zu rows of %s: %llu of %llu input values saturated (clamped to "
                         "+-32767), %u rows of W with fewer than 15 significant bits, output unit %.6g\n",
                 data.rows, a.calibrate.c_str(), static_cast<unsigned long long>(rep.saturated),
                 static_cast<unsigned long long>(rep.values), rep.coarse_rows, double(rep.output_scale));
  return out;
}

// What a converter wrote, opened (in aligned storage that lives as long as this): it must open,
// the converter and the reader agreeing on the layout.
struct Reopened {
  explicit Reopened(const std::vector<std::uint8_t>& out) : bytes(out.size()) {
    std::copy(out.begin(), out.end(), bytes.data());
    rfk::ModelError err;
    if (rfk::OpenModel(bytes.data(), bytes.size(), &m, &err) != rfk::Status::kOk)
      throw std::logic_error(std::string("convert produced a model that does not open: ") + err.field);
  }
  host::AlignedBytes bytes;
  rfk::Model m;
};

// Classification outputs (each class coded +-1) that moved by more than this root mean square on
// EstimateOutputShift's inputs: plain rounding is then refitted on drawn inputs where the model
// says what its inputs are like (DrawnCalibrationRows), and reported as a warning where it cannot
// be. Plain int8 conversions of docs/RESULTS.md's storage table (2026-11-28 02:30, inputs drawn
// from input_stats): Forest Cover's (54, 5000) Fourier model estimated 0.049 at lambda 1e-6 (test
// error +0.05 points), 0.14 at 1e-7 (+0.53), 0.38 at 1e-8 (+4.00; +3.45 and +2.54 on earlier
// builds: at that lambda the loss follows the head's last bits), its (54, 1024) Fastfood model 0.12
// (+0.52); the other classifiers at most 0.016 (within 0.03 points). The classifiers' test rows
// moved 0.9-1.1x these estimates (with draws about 0, before input_stats: 1.0-1.8x).
constexpr double kShiftWarning = 0.05;

const char* DrawnFrom(host::InputDistribution::Source s) {
  switch (s) {
    case host::InputDistribution::kInputStats:
      return "the model's input statistics (each column normal, with its training mean and deviation)";
    case host::InputDistribution::kStandardization:
      return "the model's standardisation (each column normal, with its training mean and deviation)";
    case host::InputDistribution::kScaleOnly:
      break;
  }
  return "the model's standardisation (each column normal about 0 with its training deviation: the model "
         "stores no means)";
}

// The move's figures, as "0.234 RMS (largest 0.892; each class is coded +-1)".
std::string Move(const host::OutputShift& s, bool classifier) {
  char buf[160];
  if (classifier)
    std::snprintf(buf, sizeof buf, "%.3g RMS (largest %.3g; each class is coded +-1)", s.rms, s.max);
  else
    std::snprintf(buf, sizeof buf, "%.3g RMS (largest %.3g; the outputs' own deviation there %.3g)", s.rms, s.max,
                  s.source_sd);
  return buf;
}

// A conversion without data: plain rounding, then -- an int8 head over Fourier-type features of a
// classifier whose outputs moved far, and a model that says what its inputs are like -- the head
// refitted on drawn inputs (CalibratedInt8Model on DrawnCalibrationRows). *out becomes the refit;
// what was done is reported after the file is written (Report).
struct DrawnRefit {
  bool estimated = false, far = false, refitted = false;
  host::OutputShift plain;
  host::CalibrationReport rep;
  std::size_t rows = 0;
  std::string not_refitted;  // why a far move was not refitted ("" when it was, or was not far)
};

DrawnRefit RefitOnDraws(const ConvertArgs& a, const rfk::Model& source, const rfk::Model& plain, rfk::format::Storage w,
                        rfk::format::Storage h, std::vector<std::uint8_t>* out) {
  DrawnRefit r;
  try {
    r.estimated = host::EstimateOutputShift(source, plain, &r.plain);
  } catch (const host::QuantizeError& e) {
    throw CliError(a.model + ": " + e.what());
  }
  r.far = r.estimated && source.task != rfk::format::Task::kRegression && r.plain.rms > kShiftWarning;
  if (!r.far) return r;
  if (h != rfk::format::Storage::kInt8 || source.num_grids > 0) {
    r.not_refitted = "train with this storage (rfk train --storage), which fits the head to the stored W";
    return r;
  }
  const char* const calibrate = "--calibrate FILE (e.g. the training data) refits the int8 head to the stored W's "
                                "features and rounds it for its outputs, or train with --storage int8";
  if (a.no_refit) {
    r.not_refitted = std::string("--no-refit: plainly rounded; ") + calibrate;
    return r;
  }
  host::Dataset rows;
  if (!host::DrawnCalibrationRows(source, &rows)) {
    r.not_refitted = std::string("the model stores no means of its inputs to draw from (it has no input_stats "
                                 "section: trained before rfk wrote one, or with --no-metadata), so it was not "
                                 "refitted; ") + calibrate;
    return r;
  }
  const std::string too_big = RefitMemoryRefusal(a, source, rows.rows);
  if (!too_big.empty()) {
    r.not_refitted = "not refitted: " + too_big + "; train with --storage int8, or convert on a machine where the refit fits";
    return r;
  }
  double lambda;
  try {
    lambda = ModelLambda(source, a.model);
  } catch (const CliError&) {
    r.not_refitted = std::string("the model's metadata has no lambda= line for a refit; ") + calibrate;
    return r;
  }
  try {
    *out = host::CalibratedInt8Model(source, w, rows, lambda, a.Threads(), &r.rep);
  } catch (const host::QuantizeError& e) {
    r.not_refitted = std::string("not refitted: ") + e.what() + "; " + calibrate;
    return r;
  }
  r.refitted = true;
  r.rows = rows.rows;
  return r;
}

// After a conversion without data: how far the outputs moved on the drawn inputs, what the drawn
// refit did, and what to do where a classifier's still moved far.
void Report(const ConvertArgs& a, const rfk::Model& source, const rfk::Model& converted, rfk::format::Storage h,
            const DrawnRefit& r) {
  const bool calibrable = h == rfk::format::Storage::kInt8 && source.num_grids == 0;
  if (!r.estimated) {
    if (calibrable && !a.quiet)
      std::fprintf(stderr, "rfk: note: the int8 head is rounded weight by weight; --calibrate FILE (e.g. the "
                           "training data) refits it to the stored W and rounds it for its outputs\n");
    return;
  }
  const bool classifier = source.task != rfk::format::Task::kRegression;
  const std::string plain = Move(r.plain, classifier);
  if (r.refitted) {
    host::OutputShift after;
    const bool ok = host::EstimateOutputShift(source, converted, &after);
    // Refitted heads move the outputs less systematically than rounded ones: Forest Cover's (54,
    // 5000) model at lambda 1e-8 (2026-11-28), drawn refit 0.054 here and 0.064 on the test rows,
    // test error +0.02 points (plain rounding 0.38 and 0.39, +4.00). So a warning only past twice
    // the plain threshold.
    const bool still_far = ok && after.rms > 2 * kShiftWarning;
    static const char* const kChosen[] = {"the head refitted", "the head not refitted (the refit was worse)",
                                          "plain rounding (both GPTQ heads were worse)"};
    if (!a.quiet || still_far)
      std::fprintf(stderr, "rfk: %s: plain rounding moved the outputs by %s on %zu inputs drawn from %s: enough to "
                           "change decisions near the boundary, so the int8 head was refitted on %zu other drawn "
                           "inputs to reproduce the source's outputs from the stored W's features, and rounded for "
                           "them (%s; --no-refit keeps plain rounding). The outputs now move by %s on the first %zu\n",
                   still_far ? "warning" : "note", plain.c_str(), r.plain.inputs, DrawnFrom(r.plain.source), r.rows,
                   kChosen[r.rep.chosen], ok ? Move(after, classifier).c_str() : "?", r.plain.inputs);
    if (still_far)
      std::fprintf(stderr, "rfk: warning: --calibrate FILE (e.g. the training data) refits the head on real rows, "
                           "or train with --storage int8\n");
    return;
  }
  if (!r.far && a.quiet) return;
  std::fprintf(stderr, "rfk: %s: re-storing moved the outputs by %s on %zu inputs drawn from %s%s\n",
               r.far ? "warning" : "note", plain.c_str(), r.plain.inputs, DrawnFrom(r.plain.source),
               r.far ? ": enough to change decisions near the boundary (a weakly regularised head's large weights "
                       "cancel each other, and their rounding does not)"
                     : "");
  if (!r.far && !classifier && calibrable)  // no scale to judge a regression's move by: the way to a smaller one
    std::fprintf(stderr, "rfk: note: --calibrate FILE (e.g. the training data) refits the int8 head to the stored W "
                         "and rounds it for its outputs\n");
  if (r.far) std::fprintf(stderr, "rfk: warning: %s\n", r.not_refitted.c_str());
}

// The model without the optional sections a device does not use: the metadata (with
// `with_metadata` false: --no-metadata) and the input statistics.
std::vector<std::uint8_t> WithoutHostSections(const rfk::Model& m, bool with_metadata = false) {
  if (with_metadata) return host::WithoutSections(m, {rfk::format::kInputStatsSection});
  return host::WithoutSections(
      m, {static_cast<std::uint16_t>(rfk::format::SectionType::kMetadata), rfk::format::kInputStatsSection});
}

int RunConvert(const ConvertArgs& a) {
  MemoryLimitOption(a.memory_limit);  // a bad value is refused before anything is read
  if (a.fixed || a.fixed_only) {
    const LoadedModel lm = LoadModel(a.model);
    std::vector<std::uint8_t> out = ConvertFixed(a, lm.model);
    // --fixed-only leaves no float map to re-store or refit: the input statistics serve nothing.
    if (a.no_metadata || a.fixed_only) {
      const Reopened fixed(out);
      out = WithoutHostSections(fixed.m, !a.no_metadata);
    }
    WriteModelAtomically(a.output, out);
    std::fprintf(stderr, "rfk: wrote %s (%s, %.3gx of %s): %s%s\n", a.output.c_str(), HumanBytes(double(out.size())).c_str(),
                 double(out.size()) / double(lm.model.total_bytes), HumanBytes(double(lm.model.total_bytes)).c_str(),
                 a.fixed_only ? "the integer (fixed) section, without the float W (integer prediction only)"
                              : "the float model and its integer (fixed) section",
                 a.no_metadata ? ", no metadata" : "");
    return 0;
  }
  const bool restore = !a.storage.empty() || !a.head_storage.empty();
  if (!restore && !a.no_metadata)
    throw CliError("nothing to convert: give --storage (W and the head), --head-storage, --fixed / --fixed-only and/or --no-metadata");
  const LoadedModel lm = LoadModel(a.model);
  const rfk::Model& m = lm.model;
  rfk::format::Storage w = m.projection_storage, h = m.head_storage;
  try {
    if (!a.storage.empty()) w = h = host::ParseStorage(a.storage);
    if (!a.head_storage.empty()) h = host::ParseStorage(a.head_storage);
  } catch (const std::invalid_argument& e) {
    throw CliError(std::string("--storage / --head-storage: ") + e.what());
  }
  std::vector<std::uint8_t> out = restore ? Convert(a, m, w, h) : std::vector<std::uint8_t>(m.bytes, m.bytes + m.total_bytes);
  auto check = std::make_unique<const Reopened>(out);
  DrawnRefit refit;
  if (restore && a.calibrate.empty()) {
    refit = RefitOnDraws(a, m, check->m, w, h, &out);
    if (refit.refitted) check = std::make_unique<const Reopened>(out);  // the refitted bytes, opened
  }
  const rfk::Model& reopened = check->m;
  if (a.no_metadata) out = WithoutHostSections(reopened);
  WriteModelAtomically(a.output, out);
  const bool has_w = m.projection_weights.data != nullptr || m.fastfood.dp != 0;
  const char* standardization = !IsStandardized(reopened) ? "" : reopened.standardize_f16_at ? ", standardisation f16" : ", standardisation f32";
  std::fprintf(stderr, "rfk: wrote %s (%s, %.3gx of %s): %s %s, head %s%s%s%s\n", a.output.c_str(),
               HumanBytes(double(out.size())).c_str(), double(out.size()) / double(m.total_bytes),
               HumanBytes(double(m.total_bytes)).c_str(), m.fastfood.dp ? "G and S" : "W",
               has_w ? rfk::format::NameOf(w) : "none", rfk::format::NameOf(reopened.head_storage),  // f16-scaled
               !a.calibrate.empty() ? " (calibrated)" : refit.refitted ? " (refitted on drawn inputs)" : "",
               standardization, a.no_metadata ? ", no metadata" : "");
  if (restore && a.calibrate.empty()) Report(a, m, reopened, h, refit);
  if (restore && rfk::FixedSection(m) != nullptr && !a.quiet)
    std::fprintf(stderr, "rfk: note: the integer (fixed) section is copied as it was, made from the source's "
                         "weights: eval, predict and export use it and predict as before; --storage changed the float "
                         "path only\n");
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

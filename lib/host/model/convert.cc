// ConvertModel: `rfk convert` and rfk.convert's policy -- re-storing, the drawn refit of a far-moved
// int8 head, the fixed section -- and the messages that say what it did.
#include "rfk/host/convert.hpp"

#include <algorithm>
#include <cstdio>
#include <thread>

#include "rfk/fixed.hpp"
#include "rfk/host/fixed.hpp"
#include "rfk/host/opened_model.hpp"

namespace rfk::host {

namespace {

namespace f = rfk::format;

// The options in the words an interface uses for them.
struct Words {
  std::string calibrate, calibrate_rows, no_refit, memory_limit, storages, train_storage, train_int8, fixed;
  explicit Words(Spelling sp)
      : calibrate(OptionName("--calibrate", sp)),
        calibrate_rows(sp == Spelling::kCli ? "--calibrate FILE" : "calibrate=X"),
        no_refit(sp == Spelling::kCli ? "--no-refit" : "refit=False"),
        memory_limit(OptionName("--memory-limit", sp)),
        storages(OptionName("--storage", sp) + " / " + OptionName("--head-storage", sp)),
        train_storage(sp == Spelling::kCli ? "rfk train --storage" : "training with storage="),
        train_int8(sp == Spelling::kCli ? "--storage int8" : "storage='int8'"),
        fixed(sp == Spelling::kCli ? "--fixed and --fixed-only" : "fixed and fixed_only") {}
};

// The storages asked for: (W's, the head's), each the source's where not given.
std::pair<f::Storage, f::Storage> Storages(const Model& m, const ConvertSettings& s, const Words& w) {
  f::Storage ws = m.projection_storage, hs = m.head_storage;
  try {
    if (!s.storage.empty()) ws = hs = ParseStorage(s.storage);
    if (!s.head_storage.empty()) hs = ParseStorage(s.head_storage);
  } catch (const std::invalid_argument& e) {
    throw TrainError(w.storages + ": " + e.what());
  }
  return {ws, hs};
}

unsigned Threads(const ConvertSettings& s) {
  return s.threads > 0 ? s.threads : std::max(1u, std::min(64u, std::thread::hardware_concurrency()));
}

// "" when a refit of m's head on `rows` rows fits under the memory limit (physical memory by
// default; none known: no check), else why not, e.g. "the refit would need about 9.02 GiB of memory
// (three D x D matrices of doubles, D = 20000), more than the limit of 7.6 GiB (physical memory)".
std::string RefitMemoryRefusal(const ConvertSettings& s, Spelling sp, const Model& m, std::size_t rows) {
  const std::uint64_t given = MemoryLimitOption(s.memory_limit, sp);
  const double limit = given ? static_cast<double>(given) : PhysicalMemoryBytes();
  const double need = CalibrationMemoryBytes(m, rows);
  if (limit <= 0 || need <= limit) return "";
  return "the refit would need about " + HumanBytes(need) + " of memory (three D x D matrices of doubles, D = " +
         std::to_string(m.num_features) + "), more than the limit of " + HumanBytes(limit) +
         (given ? " (" + OptionName("--memory-limit", sp) + ")" : " (physical memory)");
}

// The model's lambda from its metadata's "lambda=" line; -1 without a valid one.
double ModelLambda(const Model& m) {
  const std::string md(m.metadata != nullptr ? m.metadata : "", m.metadata_bytes);
  double lambda = -1;
  for (std::size_t at = 0; at < md.size();) {
    const std::size_t end = std::min(md.find('\n', at), md.size());
    if (md.compare(at, 7, "lambda=") == 0 && !ParseDouble(md.substr(at + 7, end - at - 7), &lambda)) lambda = -1;
    at = end + 1;
  }
  return lambda >= 0 ? lambda : -1;
}

const char* const kChosen[] = {"the head refitted", "the head not refitted (the refit was worse)",
                               "plain rounding (both GPTQ heads were worse)"};

}  // namespace

void CheckConvert(const Model& m, const ConvertSettings& s, Spelling sp, const std::string& source_name) {
  const Words w(sp);
  MemoryLimitOption(s.memory_limit, sp);
  if (s.fixed || s.fixed_only) {
    if (!s.calibrate)
      throw TrainError(w.fixed + " need " + w.calibrate_rows +
                       " (e.g. the training data): the input ranges set the int16 scales");
    if (!s.storage.empty() || !s.head_storage.empty())
      throw TrainError(w.fixed + " choose their own integer storage: leave out " + OptionName("--storage", sp) +
                       " and " + OptionName("--head-storage", sp));
    return;
  }
  const bool restore = !s.storage.empty() || !s.head_storage.empty();
  if (!restore && s.metadata)
    throw TrainError("nothing to convert: give " + OptionName("--storage", sp) + " (W and the head), " +
                     OptionName("--head-storage", sp) + ", " + w.fixed + (sp == Spelling::kCli ? " and/or " : " or ") +
                     (sp == Spelling::kCli ? "--no-metadata" : "metadata=False"));
  const f::Storage hs = Storages(m, s, w).second;
  if (!s.calibrate) return;
  if (!restore || hs != f::Storage::kInt8)
    throw TrainError(w.calibrate + " refits an int8 head: give " + w.train_int8 + " or " +
                     (sp == Spelling::kCli ? "--head-storage int8" : "head_storage='int8'"));
  if (ModelLambda(m) < 0)
    throw TrainError(source_name + ": " + w.calibrate + " refits the head with the model's ridge penalty, and its " +
                     "metadata has no valid lambda= line");
  try {
    CheckCalibratable(m);
  } catch (const QuantizeError& e) {
    throw QuantizeError(source_name + ": cannot convert: " + e.what());
  }
  if (const std::string too_big = RefitMemoryRefusal(s, sp, m, 0); !too_big.empty())
    throw TrainError(w.calibrate + ": " + too_big);
}

namespace {

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

const char* DrawnFrom(InputDistribution::Source s) {
  switch (s) {
    case InputDistribution::kInputStats:
      return "the model's input statistics (each column normal, with its training mean and deviation)";
    case InputDistribution::kStandardization:
      return "the model's standardisation (each column normal, with its training mean and deviation)";
    case InputDistribution::kScaleOnly:
      break;
  }
  return "the model's standardisation (each column normal about 0 with its training deviation: the model "
         "stores no means)";
}

// The move's figures, as "0.234 RMS (largest 0.892; each class is coded +-1)".
std::string Move(const OutputShift& s, bool classifier) {
  char buf[160];
  if (classifier)
    std::snprintf(buf, sizeof buf, "%.3g RMS (largest %.3g; each class is coded +-1)", s.rms, s.max);
  else
    std::snprintf(buf, sizeof buf, "%.3g RMS (largest %.3g; the outputs' own deviation there %.3g)", s.rms, s.max,
                  s.source_sd);
  return buf;
}

// One conversion under way: its settings, words and what it has said so far.
struct Conversion {
  const Model& source;
  const ConvertSettings& s;
  Spelling sp;
  Words w;
  const std::string& source_name;
  ConvertResult out;

  void Note(const std::string& text) { out.messages.push_back({false, text}); }
  void Warn(const std::string& text) { out.messages.push_back({true, text}); }
  std::string CalibrateAdvice() const {
    return w.calibrate_rows + " (e.g. the training data) refits the int8 head to the stored W's features and rounds "
           "it for its outputs, or train with " + w.train_int8;
  }
};

// Without data: plain rounding, then -- an int8 head over Fourier-type features of a classifier
// whose outputs moved far, and a model that says what its inputs are like -- the head refitted on
// drawn inputs (CalibratedInt8Model on DrawnCalibrationRows). c->out.model becomes the refit.
struct DrawnRefit {
  bool estimated = false, far = false, refitted = false;
  OutputShift plain;
  CalibrationReport rep;
  std::size_t rows = 0;
  std::string not_refitted;  // why a far move was not refitted ("" when it was, or was not far)
};

DrawnRefit RefitOnDraws(Conversion* c, const Model& plain, f::Storage ws, f::Storage hs) {
  DrawnRefit r;
  try {
    r.estimated = EstimateOutputShift(c->source, plain, &r.plain);
  } catch (const QuantizeError& e) {
    throw QuantizeError(c->source_name + ": " + e.what());
  }
  r.far = r.estimated && c->source.task != f::Task::kRegression && r.plain.rms > kShiftWarning;
  if (!r.far) return r;
  if (hs != f::Storage::kInt8 || c->source.num_grids > 0) {
    r.not_refitted = "train with this storage (" + c->w.train_storage + "), which fits the head to the stored W";
    return r;
  }
  if (!c->s.refit) {
    r.not_refitted = c->w.no_refit + ": plainly rounded; " + c->CalibrateAdvice();
    return r;
  }
  Dataset rows;
  if (!DrawnCalibrationRows(c->source, &rows)) {
    r.not_refitted = "the model stores no means of its inputs to draw from (it has no input_stats section: trained "
                     "before rfk wrote one, or without metadata), so it was not refitted; " + c->CalibrateAdvice();
    return r;
  }
  if (const std::string too_big = RefitMemoryRefusal(c->s, c->sp, c->source, rows.rows); !too_big.empty()) {
    r.not_refitted = "not refitted: " + too_big + "; train with " + c->w.train_int8 +
                     ", or convert on a machine where the refit fits";
    return r;
  }
  const double lambda = ModelLambda(c->source);
  if (lambda < 0) {
    r.not_refitted = "the model's metadata has no lambda= line for a refit; " + c->CalibrateAdvice();
    return r;
  }
  try {
    c->out.model = CalibratedInt8Model(c->source, ws, rows, lambda, Threads(c->s), &r.rep);
  } catch (const QuantizeError& e) {
    r.not_refitted = std::string("not refitted: ") + e.what() + "; " + c->CalibrateAdvice();
    return r;
  }
  r.refitted = true;
  r.rows = rows.rows;
  return r;
}

// After a refit on drawn inputs: how far the outputs moved before and after.
void ReportRefit(Conversion* c, const Model& converted, const DrawnRefit& r) {
  const bool classifier = c->source.task != f::Task::kRegression;
  OutputShift after;
  const bool ok = EstimateOutputShift(c->source, converted, &after);
  // Refitted heads move the outputs less systematically than rounded ones: Forest Cover's (54,
  // 5000) model at lambda 1e-8 (2026-11-28), drawn refit 0.054 here and 0.064 on the test rows,
  // test error +0.02 points (plain rounding 0.38 and 0.39, +4.00). So a warning only past twice
  // the plain threshold.
  const bool still_far = ok && after.rms > 2 * kShiftWarning;
  const std::string counts = std::to_string(r.plain.inputs);
  const std::string text = std::string(still_far ? "warning" : "note") + ": plain rounding moved the outputs by " +
                           Move(r.plain, classifier) + " on " + counts + " inputs drawn from " +
                           DrawnFrom(r.plain.source) + ": enough to change decisions near the boundary, so the int8 " +
                           "head was refitted on " + std::to_string(r.rows) + " other drawn inputs to reproduce the " +
                           "source's outputs from the stored W's features, and rounded for them (" +
                           kChosen[r.rep.chosen] + "; " + c->w.no_refit + " keeps plain rounding). The outputs now " +
                           "move by " + (ok ? Move(after, classifier) : "?") + " on the first " + counts;
  if (still_far) {
    c->Warn(text);
    c->Warn("warning: " + c->w.calibrate_rows + " (e.g. the training data) refits the head on real rows, or train " +
            "with " + c->w.train_int8);
  } else {
    c->Note(text);
  }
}

// After a conversion without data: how far the outputs moved on the drawn inputs, what the drawn
// refit did, and what to do where a classifier's still moved far.
void Report(Conversion* c, const Model& converted, f::Storage hs, const DrawnRefit& r) {
  const bool calibrable = hs == f::Storage::kInt8 && c->source.num_grids == 0;
  if (!r.estimated) {
    if (calibrable)
      c->Note("note: the int8 head is rounded weight by weight; " + c->w.calibrate_rows + " (e.g. the training " +
              "data) refits it to the stored W and rounds it for its outputs");
    return;
  }
  if (r.refitted) return ReportRefit(c, converted, r);
  const bool classifier = c->source.task != f::Task::kRegression;
  const std::string text = std::string(r.far ? "warning" : "note") + ": re-storing moved the outputs by " +
                           Move(r.plain, classifier) + " on " + std::to_string(r.plain.inputs) + " inputs drawn from " +
                           DrawnFrom(r.plain.source) +
                           (r.far ? ": enough to change decisions near the boundary (a weakly regularised head's "
                                    "large weights cancel each other, and their rounding does not)"
                                  : "");
  if (r.far) c->Warn(text);
  else c->Note(text);
  if (!r.far && !classifier && calibrable)  // no scale to judge a regression's move by: the way to a smaller one
    c->Note("note: " + c->w.calibrate_rows + " (e.g. the training data) refits the int8 head to the stored W and " +
            "rounds it for its outputs");
  if (r.far) c->Warn("warning: " + r.not_refitted);
}

// The model without the optional sections a device does not use: the metadata (unless
// `with_metadata`) and the input statistics.
std::vector<std::uint8_t> WithoutHostSections(const Model& m, bool with_metadata) {
  if (with_metadata) return WithoutSections(m, {f::kInputStatsSection});
  return WithoutSections(m, {static_cast<std::uint16_t>(f::SectionType::kMetadata), f::kInputStatsSection});
}

// fixed / fixed_only: the model with a fixed section, its input ranges from the calibration rows.
void ConvertFixed(Conversion* c, const Dataset& rows, const std::string& rows_name) {
  FixedReport rep;
  try {
    c->out.model = FixedModel(c->source, rows, &rep, c->s.fixed_only);
  } catch (const QuantizeError& e) {
    throw QuantizeError(c->source_name + ": cannot convert to fixed point: " + e.what());
  }
  if (rep.clamped_weights != 0)
    c->Warn("warning: " + std::to_string(rep.clamped_weights) + " weights of W exceed the integer path's range (an " +
            "input step of more than 16,383 periods) and were clamped: those features are noise; standardise the "
            "inputs");
  if (rep.clamped_bins != 0)
    c->Warn("warning: " + std::to_string(rep.clamped_bins) + " (grid, column) pairs of the bin grids exceed the " +
            "integer path's range (more than 32,768 bins per input step, or a bin beyond 2^30) and were clamped");
  char scale[32];
  std::snprintf(scale, sizeof scale, "%.6g", double(rep.output_scale));
  c->Note("fixed point from " + std::to_string(rows.rows) + " rows of " + rows_name + ": " +
          std::to_string(rep.saturated) + " of " + std::to_string(rep.values) + " input values saturated (clamped " +
          "to +-32767), " + std::to_string(rep.coarse_rows) + " rows of W with fewer than 15 significant bits, " +
          "output unit " + scale);
  // fixed_only leaves no float map to re-store or refit: the input statistics serve nothing.
  if (!c->s.metadata || c->s.fixed_only)
    c->out.model = WithoutHostSections(OpenedModel(c->out.model, "the converted model").model(), c->s.metadata);
}

// A re-stored model: plainly re-quantized (then refitted on drawn inputs where its outputs moved
// far), or with calibration rows the calibrated int8 head; without the host sections when the
// settings leave the metadata out.
void Restore(Conversion* c, const Dataset* rows, const std::string& rows_name) {
  const auto [ws, hs] = Storages(c->source, c->s, c->w);
  c->out.w_storage = ws;
  try {
    if (c->s.calibrate) {
      CalibrationReport rep;
      if (const std::string too_big = RefitMemoryRefusal(c->s, c->sp, c->source, rows->rows); !too_big.empty())
        throw TrainError(c->w.calibrate + ": " + too_big);
      c->out.model = CalibratedInt8Model(c->source, ws, *rows, ModelLambda(c->source), Threads(c->s), &rep);
      char mse[96];
      std::snprintf(mse, sizeof mse, "%.3g (plain rounding %.3g)", rep.mse, rep.mse_plain);
      c->Note("calibrated on " + std::to_string(rows->rows) + " rows of " + rows_name + ": " + kChosen[rep.chosen] +
              "; mean squared change of the outputs there " + mse);
    } else {
      c->out.model = RequantizeModel(c->source, ws, hs);
    }
  } catch (const QuantizeError& e) {
    throw QuantizeError(c->source_name + ": cannot convert: " + e.what());
  }
  OpenedModel check(c->out.model, "the converted model");
  if (!c->s.calibrate) {
    const DrawnRefit refit = RefitOnDraws(c, check.model(), ws, hs);
    if (refit.refitted) check = OpenedModel(c->out.model, "the refitted model");
    c->out.refitted = refit.refitted;
    Report(c, check.model(), hs, refit);
  }
  if (!c->s.metadata) c->out.model = WithoutHostSections(check.model(), false);
  if (FixedSection(c->source) != nullptr)
    c->Note("note: the integer (fixed) section is copied as it was, made from the source's weights: the integer path "
            "predicts as before; the storage changed the float path only");
}

}  // namespace

ConvertResult ConvertModel(const Model& source, const ConvertSettings& s, const Dataset* calibration, Spelling sp,
                           const std::string& source_name, const std::string& calibration_name) {
  CheckConvert(source, s, sp, source_name);
  if ((s.calibrate || s.fixed || s.fixed_only) && calibration == nullptr)
    throw std::invalid_argument("ConvertModel: calibration rows are asked for and not given");
  Conversion c{source, s, sp, Words(sp), source_name, {}};
  if (s.fixed || s.fixed_only) {
    ConvertFixed(&c, *calibration, calibration_name);
    return std::move(c.out);
  }
  c.out.w_storage = source.projection_storage;
  const bool restore = !s.storage.empty() || !s.head_storage.empty();
  if (restore) Restore(&c, calibration, calibration_name);
  else c.out.model = WithoutHostSections(source, false);  // CheckConvert: nothing else asked for
  return std::move(c.out);
}

}  // namespace rfk::host

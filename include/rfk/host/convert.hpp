/// @file
/// Host-only: converting a model -- its weights re-stored (f32, f16, int8), the integer path's
/// fixed section added, the optional sections left out -- with the policy `rfk convert` and
/// rfk.convert share: what is refused, when an int8 head is refitted (on given rows, or on inputs
/// drawn from the model's input statistics), and what is reported.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "rfk/host/data.hpp"
#include "rfk/host/quantize.hpp"
#include "rfk/host/settings.hpp"
#include "rfk/model.hpp"

namespace rfk::host {

/// What to convert to, as the user gives it (`rfk convert`'s options, rfk.convert's parameters).
struct ConvertSettings {
  std::string storage;                ///< W's and the head's storage (ParseStorage); empty: the source's
  std::string head_storage;           ///< the head's alone, overriding storage; empty: as storage
  bool calibrate = false;             ///< rows to calibrate on are given (--calibrate FILE, calibrate=X)
  bool fixed = false;                 ///< add the integer path's fixed section (needs calibration rows)
  bool fixed_only = false;            ///< as fixed, and drop the float map (integer prediction only)
  bool metadata = true;               ///< false: leave out the metadata and input statistics
  bool refit = true;                  ///< false: keep plain rounding where a head moved far (--no-refit)
  std::string memory_limit = "physical";  ///< the refit's limit (MemoryLimitOption)
  unsigned threads = 0;                   ///< 0: all cores (the result does not depend on it)
};

/// A line for the user, in the order made: a note (an interface may leave notes out when asked to
/// be quiet) or a warning (always shown). The text starts with "note: " or "warning: " where the
/// CLI prints it so, and names options as the conversion's Spelling spells them.
struct ConvertMessage {
  bool warning = false;  ///< a warning (always shown), else a note
  std::string text;      ///< one line, without a trailing newline
};

/// What ConvertModel made and said.
struct ConvertResult {
  std::vector<std::uint8_t> model;       ///< the converted model's bytes (they open)
  std::vector<ConvertMessage> messages;  ///< in the order made
  format::Storage w_storage = format::Storage::kF32;  ///< W's storage asked for (the source's when kept)
  bool refitted = false;  ///< the int8 head was refitted on drawn inputs (no calibration rows given)
};

/// What can be refused before calibration rows are read (a large file takes a while): settings
/// that do not parse or do not go together, a model that cannot be calibrated, a refit beyond the
/// memory limit, and nothing to convert. Throws TrainError (settings) or QuantizeError (the model),
/// naming options as `spelling` spells them and the model as `source_name`.
void CheckConvert(const Model& source, const ConvertSettings& s, Spelling spelling, const std::string& source_name);

/// `source` converted as `s` asks; `calibration` the rows given to calibrate on (required when
/// s.calibrate or s.fixed/fixed_only; labels not used), named `calibration_name` in messages. Runs
/// CheckConvert first. What a converter writes is opened before it is used (it must open). Throws
/// TrainError and QuantizeError as CheckConvert, and QuantizeError for what the conversion cannot
/// do. Allocates; uses up to s.threads threads for a refit.
ConvertResult ConvertModel(const Model& source, const ConvertSettings& s, const Dataset* calibration,
                           Spelling spelling, const std::string& source_name, const std::string& calibration_name);

}  // namespace rfk::host

/// @file
/// Host-only: the training options as a user gives them -- text and numbers, before they are
/// understood -- and the one parser that turns them into TrainOptions, for every interface (the
/// CLI's flags, the Python estimators' parameters). An error names the option as the interface
/// spells it.
#pragma once

#include <cstdint>
#include <string>

#include "rfk/host/train.hpp"

namespace rfk::host {

/// The options every interface gives training, with the CLI's defaults. Words where the value may
/// be a word: features "default" or a positive integer; gamma "default", "scale", "auto" or a
/// positive number; lambda "default", "auto" or a number >= 0; bin_gamma "default" or a positive number; seed a decimal integer; memory_limit
/// "physical" or a size (ParseMemoryLimit).
struct TrainSettings {
  std::string map = "fourier";  ///< a Fourier map (FourierMapNames), binning, or a Fourier map + "+binning"
  std::string kernel = "gaussian";       ///< gaussian, laplacian or cauchy (ParseKernel)
  bool kernel_given = false;  ///< the kernel was named (binning alone refuses any but laplacian)
  std::string features = "default";      ///< D of the Fourier map: "default" or a number (--features, n_features)
  std::string max_model_bytes = "16M";   ///< the default D's budget: a size (ParseMemoryLimit's, not "physical")
  std::uint32_t grids = 30;              ///< P of a binning map (--grids)
  std::uint32_t buckets = 0;             ///< B per grid, hashed mode; 0: exact mode (--bins-per-grid)
  std::string bin_gamma = "default";     ///< binning's gamma beside a Fourier map
  std::string gamma = "default";         ///< the kernel's gamma (see above)
  std::string lambda = "default";        ///< the ridge penalty (--lambda, alpha)
  std::string task = "auto";             ///< auto, classification, regression
  std::string class_weight = "none";     ///< none or balanced
  std::string seed = "1";                ///< the random features' seed (--seed, random_state)
  unsigned threads = 0;                  ///< worker threads; 0: all cores (the model does not depend on it)
  std::uint32_t folds = 3;               ///< cross-validation folds (--folds, cv)
  std::string memory_limit = "physical"; ///< refuse training estimated above it
  int standardize = -1;                  ///< -1 auto, 0 off, 1 on
  bool calibrate = true;                 ///< fit a classifier's calibration section
  bool metadata = true;                  ///< write the metadata and input statistics sections
  std::string storage = "f32";           ///< W's and (unless head_storage) the head's storage
  std::string head_storage;              ///< the head's storage; empty: as storage
};

/// The TrainOptions `s` asks for; TrainError naming the option (as `spelling` spells it) and the
/// value for one that does not parse or does not fit the others (bins_per_grid without binning).
/// What needs the data (folds against the rows, the weights) is ValidateOptions's, at training.
TrainOptions ParseTrainSettings(const TrainSettings& s, Spelling spelling);

/// The option `cli_flag` (e.g. "--bins-per-grid") as `spelling` spells it ("bins_per_grid").
std::string OptionName(const std::string& cli_flag, Spelling spelling);
/// The option with its value as `spelling` writes it: "--map binning", "map='binning'".
std::string OptionGiven(const std::string& cli_flag, const std::string& value, Spelling spelling);

/// A finite number, the whole string; false for anything else.
bool ParseDouble(const std::string& s, double* v);
/// "physical" (0), or a positive number of bytes with an optional K, M, G or T suffix (powers of
/// 1024), e.g. 512M. Returns false for anything else.
bool ParseMemoryLimit(const std::string& s, std::uint64_t* bytes);
/// A size for people: "512 B", "1.5 KiB", "3.07 MiB", "2.50 GiB".
std::string HumanBytes(double bytes);
/// A memory limit's bytes (0: physical memory), or a TrainError saying what the option takes.
std::uint64_t MemoryLimitOption(const std::string& s, Spelling spelling);

}  // namespace rfk::host

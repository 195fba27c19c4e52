// Model assembly: a fitted design and its head become a model blob -- the ModelSpec (the
// design's maps, standardisation, the head rounded to float, labels, metadata, the storages of
// --storage and --head-storage), serialised once and opened once more by the device core.
#pragma once

#include <cstdint>
#include <vector>

#include "training/design.h"
#include "training/train_context.h"

namespace rfk::host {

struct AssembledModel {
  std::vector<std::uint8_t> blob;  // docs/FORMAT.md
  Head stored;                     // the head as the model holds it: float values, in double
};

// After design.Fit: assembles, serialises and checks the model (CheckModelOpens). `head` is
// D x K; the model stores it K x D in float. Throws TrainError if the core refuses the blob.
AssembledModel AssembleModel(const Design& design, const Head& head, const TrainContext& ctx);

// Train never returns a model the device core would refuse: the blob is opened once more (a
// parameter that only a float can hold badly, e.g. a gamma that rounds to 0, would otherwise
// surface only at prediction time). Throws TrainError naming the field.
void CheckModelOpens(const std::vector<std::uint8_t>& blob);

}  // namespace rfk::host

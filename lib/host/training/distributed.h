// Distributed training's side of the pipeline (rfk/host/ranks.hpp): the check that every rank
// trains the same thing, and each rank's share of the rows. No MPI here: the Ranks interface.
#pragma once

#include <memory>

#include "data/input_stats.h"
#include "data/row_source.h"
#include "rfk/host/ranks.hpp"
#include "rfk/host/train.hpp"
#include "training/targets.h"

namespace rfk::host {

// opt.ranks when it has more than one rank, else null (one process: nothing is distributed).
Ranks* DistributedRanks(const TrainOptions& opt);

// After the statistics pass, before the first reduction: every rank compares a fingerprint of its
// data's sizes, targets, weights, standardisation, default gamma and the options that decide the
// passes with every other rank's; if any differ, every rank throws the same RanksError naming the
// first rank that differs from rank 0 and what differs (never a reduction left waiting). A
// fingerprint, not a comparison of every value: the inputs' columns enter through their sums.
// Then refuses binning (its design holds every row in one process), a RanksError too.
void CheckRanksAgree(Ranks& ranks, const Dataset& meta, const TrainOptions& opt, const Targets& targets,
                     const InputScaling& scaling, double gamma_default);

// This rank's share of `source` (RankRows over RankRange with kGramWindow windows).
std::unique_ptr<RowSource> RankShare(RowSource& source, const Ranks& ranks);

}  // namespace rfk::host

// Repetitions (--repetitions R): a sweep runs every configuration once per round, each round in its own
// order shuffled from the seed, so the host's slow spells spread over all configurations instead of
// landing on a few (Kalibera & Jones, "Rigorous benchmarking in reasonable time"). Each round's row
// goes to rounds.csv; runs.csv holds one row per configuration summarising its rounds: the median of
// the rounds' medians with a bootstrap 95 % interval over rounds (frame_ms_ci_low/high,
// draw_ms_ci_low/high). GL-free: the runner measures, this file orders and summarises.
#pragma once
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "harness/results/csv.h"

namespace firelab::harness {

// The order of round `round` (1-based) over `count` configurations: the identity with one round (a
// single pass keeps the experiment's order), otherwise a permutation drawn from `seed` and the round, the
// same every time (so --resume continues the same order).
std::vector<size_t> roundOrder(size_t count, int round, int rounds, uint64_t seed);

// With a baseline to compare against (an experiment's [experiment] baseline), paired ratios are only as
// steady as the host between the two runs of a pair, so each round keeps a configuration near its baseline:
// the configurations that differ only in the baseline's setting form a group (`group[i]`), the groups run in
// an order shuffled per round, each group's members in a shuffled order with the baseline (`isBaseline[i]`)
// moved to the group's middle, the place nearest the others. With one round, the experiment's order.
std::vector<size_t> groupedRoundOrder(const std::vector<size_t>& group, const std::vector<bool>& isBaseline, int round,
                                      int rounds, uint64_t seed);

// One configuration's summary row from its rounds' rows (any order). Only rows with status ok count:
// timing columns are medians over those rounds (fps from the median frame time), frame and draw time
// get their bootstrap intervals, frames and seconds are summed, alive_mean averaged, the quality columns
// come from the round that scored the picture, `rounds` is the count and `round` is empty. With no ok
// round the latest row is returned with rounds 0 (its status says why).
Row summariseRounds(const std::vector<Row>& rounds);

// rounds.csv beside runs.csv: `DIR/rounds.csv` for `DIR/runs.csv`, else `NAME.rounds.csv` for `NAME.csv`.
std::filesystem::path roundsCsvFor(const std::filesystem::path& runsCsv);

}  // namespace firelab::harness

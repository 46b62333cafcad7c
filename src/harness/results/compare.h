// Each configuration of a sweep against a baseline at the same remaining settings: per round, the paired
// ratio of its frame (and draw) time to the baseline's, summarised as a median with a bootstrap 95 %
// interval. compareToBaseline(dir, "strategy=points") writes dir/ratios.csv (columns: docs/csv.md).
#pragma once
#include <array>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "harness/results/stats.h"

namespace firelab::harness {

inline constexpr std::array<std::string_view, 25> kRatioColumns{"experiment",
                                                                "run_key",
                                                                "series",
                                                                "baseline",
                                                                "baseline_key",
                                                                "strategy",
                                                                "particles",
                                                                "inner_axis",
                                                                "inner_value",
                                                                "rounds",
                                                                "paired_by",
                                                                "pairs",
                                                                "canary_off_rounds",
                                                                "frame_ms",
                                                                "baseline_frame_ms",
                                                                "frame_ratio_median",
                                                                "frame_ratio_ci_low",
                                                                "frame_ratio_ci_high",
                                                                "draw_ratio_median",
                                                                "draw_ratio_ci_low",
                                                                "draw_ratio_ci_high",
                                                                "cpu_ratio_median",
                                                                "cpu_ratio_ci_low",
                                                                "cpu_ratio_ci_high",
                                                                "note"};

// A run_key's `name=value` parts. With the sweep's axis names (meta.json, in order) a value may hold
// ';' (a label, a path); without them the key is split on ';' and a part that does not start with a
// setting name and '=' belongs to the value before it. "single" (nothing swept) has no parts.
// Throws Error(BadFile) when the key does not name `axisNames` in order.
using KeyParts = std::vector<std::pair<std::string, std::string>>;
KeyParts splitRunKey(std::string_view key, const std::vector<std::string>& axisNames = {});

// One configuration against its baseline: a row of ratios.csv. Where both were drawn in alternation
// (frames.csv) the ratios are per pair of frames of one cycle, their interval a bootstrap over processes,
// then blocks of kBlockCycles cycles (frame_pairs.h); otherwise per round, as before.
struct RatioRow {
    std::string experiment, runKey, series, baselineKey, strategy, particles, innerAxis, innerValue;
    size_t rounds = 0;                        // rounds in which both ran ok; 0: no figures
    std::string pairedBy;                     // "frames" (ratios per pair of frames) or "rounds[: why]"
    size_t pairs = 0;                         // the ratios the figures summarise: pairs of frames, or rounds
    size_t canaryOffRounds = 0;               // of those rounds, the ones either ran while the canary was off
    double frameMs = 0, baselineFrameMs = 0;  // medians over those rounds of each one's frame_ms_median
    Interval frameRatio;
    std::optional<Interval> drawRatio;  // absent when no paired round has both draw times
    std::optional<Interval> cpuRatio;   // the same for the CPU time (cpu_ms_median)
    std::string note;                   // why a row has no figures ("" when it has)
};

struct Comparison {
    std::filesystem::path file;         // the ratios.csv written
    std::string baseline;               // KEY=VALUE, VALUE as the sweep spells it
    std::vector<RatioRow> rows;         // in runs.csv order, baseline configurations left out
    std::vector<std::string> warnings;  // configurations without figures, said once each
};

// Reads dir/rounds.csv (or, in a folder written before repetitions, dir/runs.csv as round 1) and
// dir/meta.json (its axes, when recorded), and writes dir/ratios.csv atomically. `baseline` is KEY=VALUE
// of a swept setting and one of its values. Intervals are seeded by the run_key's FNV-1a hash, so the
// file is the same each time. Throws Error: MissingFile (no folder, no runs.csv), BadValue (not
// KEY=VALUE; VALUE not swept), UnknownName (KEY not swept), BadFile (unreadable CSV or meta.json), Io.
Comparison compareToBaseline(const std::filesystem::path& dir, const std::string& baseline);
// The same after a sweep or a merge, when the experiment names a baseline: its warnings, and a failure, said on
// stderr as warnings (the measurements stand without ratios.csv).
void writeRatiosOrWarn(const std::filesystem::path& dir, const std::string& baseline);

// A baseline is one KEY=VALUE ("strategy=points"); several ("strategy=points;particles=100", each KEY a setting:
// a label's value may hold '=' and ';') throw Error(BadValue) naming `flag`, the text and how many it holds.
void checkOneKeyValue(const std::string& baseline, const std::string& flag);

}  // namespace firelab::harness

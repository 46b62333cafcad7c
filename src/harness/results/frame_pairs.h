// Frame-level pairing (issue #37's alternation): the configurations of a group that are compared with each
// other are drawn in one process, one frame each per cycle in an order shuffled per cycle, so that a pair of
// frames a few milliseconds apart shares the machine's state, which changes for seconds at a time. Every
// measured frame of such a run is one row of frames.csv beside runs.csv (columns: kFrameColumns,
// docs/csv.md); compare pairs a configuration's frames with its baseline's by cycle and summarises the
// ratios as a median with a bootstrap interval over processes, then blocks of consecutive cycles.
#pragma once
#include <array>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "harness/results/stats.h"

namespace firelab::harness {

inline constexpr std::array<std::string_view, 10> kFrameColumns{
    "experiment", "run_key", "group_key", "process", "round", "cycle", "slot", "frame_ms", "cpu_ms", "draw_ms"};

// One measured frame of an alternated run: which configuration, in which run (the group's key, its process
// and round), at which cycle and in which place of that cycle's order (slot 0 first).
struct FrameRecord {
    std::string experiment, runKey, groupKey;
    long process = 1, round = 1, cycle = 0;
    int slot = 0;
    double frameMs = 0, cpuMs = 0, drawMs = 0;
};

// Consecutive cycles resampled together by the bootstrap: neighbours in time share the machine's state.
inline constexpr long kBlockCycles = 8;

// frames.csv beside runs.csv: DIR/frames.csv for DIR/runs.csv, else NAME.frames.csv for NAME.csv.
std::filesystem::path framesCsvFor(const std::filesystem::path& runsCsv);
// Appends records (the header first when the file is new or empty). Throws Error(Io).
void appendFrameRecords(const std::filesystem::path& file, const std::vector<FrameRecord>& records);
// Replaces the file (temp + rename) with the records (merge joins the shards' files). Throws Error(Io).
void writeFrameRecords(const std::filesystem::path& file, const std::vector<FrameRecord>& records);
// The file's records (none when it does not exist); a later record of the same configuration, run and cycle
// replaces an earlier one (a run measured again after --resume). Throws Error(BadFile) naming the file and
// the line for a header that is not kFrameColumns or a field that is not a number.
std::vector<FrameRecord> readFrameRecords(const std::filesystem::path& file);

// A configuration's frames against its baseline's: a ratio per cycle in which both were drawn in the same
// alternated run (group, process, round). A cycle where either frame is not positive or over 10 times its
// configuration's median in that run (a stopped process, a clock that jumped) is left out. Each ratio's
// cluster is its process and its block its round and cycle / kBlockCycles.
struct FramePairs {
    Clusters frame, cpu, draw;  // the ratios, mine / the baseline's
    size_t pairs = 0, rounds = 0;
    std::vector<double> mineMs, baseMs;  // the paired frames' own times
};
FramePairs pairFrames(const std::vector<FrameRecord>& mine, const std::vector<FrameRecord>& base);

}  // namespace firelab::harness

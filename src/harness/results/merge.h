// Joining runs.csv files: `firelab merge` (shard folders into one) and what it shares with a sweep's
// --resume, reading a runs.csv to continue it, whole rows kept and every other record set aside with its
// file and line.
#pragma once
#include <filesystem>
#include <string>
#include <vector>

#include "harness/results/csv.h"

namespace firelab::harness {

// Joins shard folders' runs.csv (one row per run_key: ok beats failed) and their rounds.csv (a repeated
// sweep's rounds, for compare's intervals) into a new outDir with a meta.json holding the shards' (parsed),
// then plots. Refuses (Error BadValue) an outDir that already holds results, shards whose meta.json records
// another experiment, configuration or inputs, a shard that has not finished (interrupted or running), a
// shard K/N given twice or missing, and a run (or round) measured in two shards; malformed rows are reported
// (file:line) and kept in outDir/runs.rejected.csv. Throws firelab::Error.
struct MergeSummary {
    size_t rows = 0, shards = 0;  // shards: distinct folders read (one named twice is read once)
};
MergeSummary mergeShards(const std::vector<std::filesystem::path>& shardDirs, const std::filesystem::path& outDir,
                         const std::filesystem::path& dataDir, const std::string& commandLine);

// A record of a runs.csv that is not a whole firelab row, with where it was and why it was refused.
struct RejectedRecord {
    std::string file;
    size_t line = 0;
    std::string text, why;
};

struct CheckedRuns {
    std::vector<Row> rows;
    std::vector<RejectedRecord> rejected;
};

// Reads a runs.csv being continued (--resume) or joined (merge): firelab's header (else BadFile), then
// whole rows. Every other record (a wrong field count, no key or status, a stray header, a torn last
// line, a row of another experiment when `experiment` is given) is returned aside, with its line.
CheckedRuns readCheckedRuns(const std::filesystem::path& csv, const std::string& experiment);

// Reports each rejected record on stderr (file:line and why) and appends it to `aside`
// (file,line,reason,record), so that nothing is dropped or kept without a word.
void keepAside(const std::vector<RejectedRecord>& rejected, const std::filesystem::path& aside);

}  // namespace firelab::harness

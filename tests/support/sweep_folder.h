// Sweep folders for the tests of what --resume, merge and compare make of them. checkComplete and friends read
// what a sweep wrote; writeSweepFolder writes one as a sweep leaves it, with the library's own writers and
// without measuring anything (no GL, no process): runs.csv (and rounds.csv, for several rounds) with a whole row
// per configuration of the shard, its setting columns as the runner fills them and its figures empty, and
// meta.json with the experiment, the shard, when it finished, the runs done, and the configuration with its inputs'
// fingerprints as a sweep records them (describe, inputFingerprints; the JSON from writeMergedMeta's writer).
#pragma once
#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "harness/results/csv.h"
#include "harness/results/inputs.h"
#include "harness/results/meta.h"
#include "harness/results/rounds.h"
#include "harness/settings/experiment.h"
#include "support/scratch_dir.h"

namespace firelab::testing {

using Strings = std::vector<std::string>;

inline size_t countOf(const std::string& text, const std::string& what) {
    size_t n = 0;
    for (size_t pos = text.find(what); pos != std::string::npos; pos = text.find(what, pos + what.size())) ++n;
    return n;
}

// Tiny runs: a 64x48 framebuffer, one warm-up frame, three measured frames.
inline std::string tinyToml(const std::string& name, const std::string& sweep, const std::string& run = "") {
    return "[experiment]\nname = \"" + name + "\"\n\n[run]\nwidth = 64\nheight = 48\nwarmup = 1\nframes = 3\n" + run +
           "\n[sweep]\n" + sweep;
}

// The run keys the library plans for `file` with the command line's `overrides` (in order).
inline Strings plannedKeys(const std::filesystem::path& file,
                           const std::vector<std::pair<std::string, std::string>>& overrides = {}) {
    auto e = harness::loadExperiment(file);
    for (const auto& [name, value] : overrides) e.override(name, value);
    Strings keys;
    for (const auto& r : harness::expand(e)) keys.push_back(r.key);
    return keys;
}

inline Strings keysOf(const std::vector<harness::Row>& rows) {
    Strings keys;
    for (const auto& r : rows) keys.push_back(r.at("run_key"));
    return keys;
}

// The file is whole rows only: ends in a newline, every record has every column, one header.
inline void expectWholeRows(const std::filesystem::path& csv) {
    const std::string text = readFile(csv);
    const std::string header = harness::runsHeaderLine();
    ASSERT_FALSE(text.empty());
    EXPECT_EQ(text.back(), '\n') << "torn last line";
    EXPECT_EQ(text.rfind(header, 0), 0u) << "the header is not the first line";
    EXPECT_EQ(countOf(text, header), 1u) << "the header appears more than once";
    for (const auto& record : harness::parseCsv(text)) EXPECT_EQ(record.size(), harness::runsHeader().size());
}

// Every planned key exactly once, every row ok.
inline void expectComplete(const std::filesystem::path& csv, const Strings& planned) {
    expectWholeRows(csv);
    const auto rows = harness::readRunsCsv(csv);
    std::map<std::string, int> seen;
    for (const auto& r : rows) {
        ++seen[r.at("run_key")];
        EXPECT_EQ(r.at("status"), "ok") << r.at("run_key");
    }
    EXPECT_EQ(rows.size(), planned.size());
    for (const auto& k : planned) EXPECT_EQ(seen[k], 1) << k;
    EXPECT_EQ(seen.size(), planned.size());
}

// A run's row as the runner starts it (experiment, key, every setting column), status ok, one round.
inline harness::Row unmeasuredRow(const harness::PlannedRun& run, const std::string& experiment, int round) {
    harness::Row row;
    harness::setField(row, "experiment", experiment);
    harness::setField(row, "run_key", run.key);
    for (const auto& n : harness::settingColumns())
        harness::setField(row, harness::csvColumn(n), harness::settingText(run.settings, n));
    harness::setField(row, "status", "ok");
    harness::setField(row, "round", std::to_string(round));
    harness::setField(row, "rounds", "1");
    return row;
}

using Overrides = std::vector<std::pair<std::string, std::string>>;

// Writes `dir` as the sweep of `experimentFile` leaves it once every run of its shard ("K/N", or "" for the whole
// sweep) is done, with the command line's `overrides` (in order) and the runs' inputs found in `dataDir`.
inline void writeSweepFolder(const std::filesystem::path& dir, const std::filesystem::path& experimentFile,
                             const std::string& shardText = "", const Overrides& overrides = {},
                             const std::filesystem::path& dataDir = FIRELAB_SOURCE_DIR) {
    namespace fs = std::filesystem;
    harness::Experiment e = harness::loadExperiment(experimentFile);
    for (const auto& [name, value] : overrides) e.override(name, value);
    const std::vector<harness::PlannedRun> all = harness::expand(e, experimentFile.string());
    std::optional<std::pair<size_t, size_t>> shard;
    if (!shardText.empty()) shard = harness::parseShard(shardText);
    const int rounds = all.front().settings.repetitions;
    std::vector<harness::Row> summaries, roundRows;
    for (const auto& run : all) {
        if (shard && run.index % shard->second != shard->first - 1) continue;
        for (int round = 1; round <= rounds; ++round) roundRows.push_back(unmeasuredRow(run, e.name, round));
        harness::Row summary = unmeasuredRow(run, e.name, 1);
        if (rounds > 1) summary["round"] = "", summary["rounds"] = std::to_string(rounds);
        summaries.push_back(summary);
    }
    fs::create_directories(dir);
    harness::writeRunsCsv(dir / "runs.csv", summaries);
    if (rounds > 1) harness::writeRunsCsv(dir / "rounds.csv", roundRows);
    harness::ExperimentConfig config = harness::describe(e, experimentFile.string());
    config.inputs = harness::inputFingerprints(all, experimentFile, dataDir);
    harness::writeMergedMeta(dir / "meta.json", {}, config, summaries.size(), 0, "firelab sweep (written by a test)");
    auto meta = nlohmann::ordered_json::parse(readFile(dir / "meta.json"));
    meta.erase("merged");  // a sweep's meta.json, not a merge's
    meta.erase("shards");
    meta["shard"] = shardText;
    meta["finished"] = "2026-01-01T00:00:00Z";
    meta["runs"] = {{"planned", all.size()}, {"done", summaries.size()}, {"failed", 0}};
    writeFile(dir / "meta.json", meta.dump(2) + "\n");
}

}  // namespace firelab::testing

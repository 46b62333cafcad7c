// Small sweep folders for the tests of compare (compareToBaseline and `firelab compare`): rounds.csv and
// runs.csv rows of strategy x particles with chosen frame and draw times, and the meta.json naming the axes.
#pragma once
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "harness/results/csv.h"
#include "support/scratch_dir.h"

namespace firelab::testing {
namespace fs = std::filesystem;
using harness::Row;

// A rounds.csv row: `frame` 0 makes the round a failed one.
inline Row roundRow(const std::string& strategy, const std::string& particles, int round, double frame,
                    double draw = 0) {
    Row r;
    r["experiment"] = "cmp";
    r["run_key"] = "strategy=" + strategy + ";particles=" + particles;
    r["strategy"] = strategy;
    r["particles"] = particles;
    r["round"] = std::to_string(round);
    r["rounds"] = "1";
    r["status"] = frame > 0 ? "ok" : "error: shader failed";
    if (frame > 0) r["frame_ms_median"] = std::to_string(frame);
    if (draw > 0) r["draw_ms_median"] = std::to_string(draw);
    return r;
}

// The parsed ratios.csv: one map per row, by column.
inline std::vector<std::map<std::string, std::string>> readRatios(const fs::path& file) {
    const auto records = harness::parseCsv(readFile(file));
    std::vector<std::map<std::string, std::string>> rows;
    for (size_t r = 1; r < records.size(); ++r) {
        std::map<std::string, std::string> row;
        for (size_t c = 0; c < records[0].size(); ++c) row[records[0][c]] = records[r].at(c);
        rows.push_back(row);
    }
    return rows;
}

// meta.json recording `axes` (JSON object text) as a sweep's configuration.
inline void writeCompareMeta(const fs::path& dir, const std::string& axes) {
    writeFile(dir / "meta.json", R"({"experiment": "cmp", "config": {"settings": {}, "axes": )" + axes + "}}");
}

// rounds.csv, runs.csv and a meta.json of strategy x particles.
inline void writeCompareSweep(const fs::path& dir, const std::vector<Row>& rounds, const std::vector<Row>& runs) {
    harness::writeRunsCsv(dir / "rounds.csv", rounds);
    harness::writeRunsCsv(dir / "runs.csv", runs);
    writeCompareMeta(dir, R"({"strategy": ["points", "billboards-instanced"], "particles": ["1000", "10000"]})");
}

// Five rounds, written in a shuffled order as a sweep with repetitions writes them. billboards-instanced
// at 1000 against points at 1000, per round (ms): 3/1, 4/2, 100/failed, 1.5/1, 5/2: paired ratios 3, 2,
// 1.5, 2.5. Its draw time is half its frame time, the baseline's a quarter: draw ratios twice as large.
// At 10000 points failed in every round.
inline void writeFiveRounds(const fs::path& dir) {
    const double bb[] = {3, 4, 100, 1.5, 5}, pts[] = {1, 2, 0, 1, 2};
    std::vector<Row> rounds;
    for (int round : {4, 1, 3, 5, 2}) {
        const auto i = static_cast<size_t>(round - 1);
        rounds.push_back(roundRow("billboards-instanced", "1000", round, bb[i], bb[i] / 2));
        rounds.push_back(roundRow("points", "10000", round, 0));
        rounds.push_back(roundRow("points", "1000", round, pts[i], pts[i] / 4));
        rounds.push_back(roundRow("billboards-instanced", "10000", round, 20 + round));
    }
    std::vector<Row> runs;
    for (const auto* key : {"points", "billboards-instanced"})
        for (const auto* n : {"1000", "10000"}) {
            Row r = roundRow(key, n, 1, 1);
            r["round"] = "";
            r["rounds"] = "5";
            runs.push_back(r);
        }
    writeCompareSweep(dir, rounds, runs);
}

}  // namespace firelab::testing

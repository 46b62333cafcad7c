#include "harness/results/merge.h"

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <map>
#include <optional>
#include <set>
#include <sstream>

#include "core/error.h"
#include "harness/measure/sweep.h"  // checkWritableFolder, makePlots
#include "harness/results/meta.h"

namespace firelab::harness {
namespace fs = std::filesystem;

namespace {

std::string whyMalformed(const std::vector<std::string>& fields, const std::string& experiment) {
    if (std::string why = whyNotARunRow(fields); !why.empty()) return why;
    if (!experiment.empty() && fields[0] != experiment) return "experiment '" + fields[0] + "', not '" + experiment + "'";
    return "";
}

}  // namespace

CheckedRuns readCheckedRuns(const fs::path& csv, const std::string& experiment) {
    readRunsCsv(csv);  // the header check and its message
    std::ifstream in(csv, std::ios::binary);
    std::stringstream buffer;
    buffer << in.rdbuf();
    const std::string text = buffer.str();
    std::vector<size_t> starts;
    auto records = parseCsv(text, &starts);
    CheckedRuns out;
    size_t line = 1, counted = 0;
    auto lineAt = [&](size_t offset) {
        line += static_cast<size_t>(std::count(text.begin() + static_cast<long>(counted), text.begin() + static_cast<long>(offset), '\n'));
        counted = offset;
        return line;
    };
    auto raw = [&](size_t from, size_t to) {
        std::string r = text.substr(from, to - from);
        while (!r.empty() && (r.back() == '\n' || r.back() == '\r')) r.pop_back();
        return r;
    };
    for (size_t r = 1; r < records.size(); ++r) {
        const std::string why = whyMalformed(records[r], experiment);
        if (why.empty()) {
            out.rows.push_back(toRow(std::move(records[r])));
        } else {
            out.rejected.push_back({csv.string(), lineAt(starts[r]), raw(starts[r], starts[r + 1]), why});
        }
    }
    // After the last newline: a whole row that lost its newline is kept, anything else is a torn write.
    const size_t tail = starts.back();
    if (!records.empty() && tail < text.size()) {
        auto last = parseCsv(text.substr(tail) + "\n");
        if (last.size() == 1 && whyMalformed(last[0], experiment).empty()) {
            out.rows.push_back(toRow(std::move(last[0])));
        } else {
            out.rejected.push_back({csv.string(), lineAt(tail), raw(tail, text.size()), "a torn last line (an interrupted write)"});
        }
    }
    return out;
}

void keepAside(const std::vector<RejectedRecord>& rejected, const fs::path& aside) {
    if (rejected.empty()) return;
    std::vector<std::string> lines;
    for (const auto& r : rejected) {
        std::fprintf(stderr, "firelab: warning: %s:%zu: malformed row (%s): left out, kept in %s\n", r.file.c_str(),
                     r.line, r.why.c_str(), aside.c_str());
        lines.push_back(csvLine({r.file, std::to_string(r.line), r.why, r.text}));
    }
    appendCsvLines(aside, csvLine({"file", "line", "reason", "record"}), lines);
}

MergeSummary mergeShards(const std::vector<fs::path>& shardDirs, const fs::path& outDir, const fs::path& dataDir,
                         const std::string& commandLine) {
    if (shardDirs.empty()) throw Error(ErrorCode::BadValue, "firelab merge: name at least one shard folder");
    if (outDir.empty()) throw Error(ErrorCode::BadValue, "--out '': empty; name the folder to merge into");
    std::error_code ec;
    for (const char* name : {"runs.csv", "meta.json"})
        if (fs::exists(outDir / name, ec) || fs::is_symlink(outDir / name, ec))
            throw Error(ErrorCode::BadValue, "--out " + outDir.string() + ": already holds " + name +
                                                 "; merge never overwrites results, choose a new folder");
    // A folder named twice is read once.
    std::vector<fs::path> dirs;
    std::set<fs::path> seen;
    for (const auto& dir : shardDirs) {
        const fs::path canonical = fs::weakly_canonical(dir, ec);
        if (seen.insert(canonical.empty() ? dir : canonical).second) dirs.push_back(dir);
    }
    // Every shard is a sweep folder of one experiment and one configuration, checked before any reading.
    std::optional<ExperimentConfig> config;
    std::string experiment;
    fs::path first;
    std::vector<fs::path> metas;
    for (const auto& dir : dirs) {
        const fs::path csv = dir / "runs.csv", metaFile = dir / "meta.json";
        if (!fs::exists(csv, ec)) throw Error(ErrorCode::MissingFile, csv.string() + ": no such file (not a shard folder?)");
        if (!fs::exists(metaFile, ec))
            throw Error(ErrorCode::MissingFile, metaFile.string() + ": no such file (not a sweep folder?): without it "
                                                                    "the shards cannot be checked to be one sweep");
        const MetaRecord m = readMeta(metaFile);
        metas.push_back(metaFile);
        std::vector<std::string> diffs;
        if (first.empty()) {
            first = dir, experiment = m.experiment, config = m.config;
        } else if (m.config && config) {
            diffs = configDifferences(*config, *m.config);
        } else if (m.experiment != experiment) {
            diffs.push_back("experiment: '" + experiment + "' there, '" + m.experiment + "' here");
        }
        if (!diffs.empty()) {
            std::string msg = "firelab merge: " + dir.string() + " is not a shard of the sweep in " + first.string() +
                              " :";
            for (const auto& d : diffs) msg += "\n  " + d;
            throw Error(ErrorCode::BadValue, msg);
        }
        if (!m.config)
            std::fprintf(stderr, "firelab: warning: %s records no configuration (an older firelab): only its "
                                 "experiment is checked\n", metaFile.c_str());
    }
    // One row per run: an ok row beats a failed one, and among equals the latest started wins.
    std::map<std::string, Row> byKey;
    std::vector<std::string> order;
    std::vector<RejectedRecord> rejected;
    for (const auto& dir : dirs) {
        CheckedRuns read = readCheckedRuns(dir / "runs.csv", experiment);
        rejected.insert(rejected.end(), read.rejected.begin(), read.rejected.end());
        for (auto& row : read.rows) {
            const std::string key = row["run_key"];
            auto it = byKey.find(key);
            if (it == byKey.end()) {
                order.push_back(key);
                byKey.emplace(key, std::move(row));
                continue;
            }
            const bool okNew = row["status"] == "ok", okOld = it->second["status"] == "ok";
            if (okNew > okOld || (okNew == okOld && row["started"] > it->second["started"])) it->second = std::move(row);
        }
    }
    std::vector<Row> rows;
    for (const auto& key : order) rows.push_back(std::move(byKey[key]));
    checkWritableFolder(outDir, "--out");
    keepAside(rejected, outDir / "runs.rejected.csv");
    writeRunsCsv(outDir / "runs.csv", rows);
    writeMergedMeta(outDir / "meta.json", metas, config, rows.size(), rejected.size(), commandLine);
    makePlots(outDir / "runs.csv", outDir, dataDir);
    return {rows.size(), dirs.size()};
}

}  // namespace firelab::harness

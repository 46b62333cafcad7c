#include "harness/results/merge.h"

#include <algorithm>
#include <cstdlib>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <map>
#include <optional>
#include <set>
#include <sstream>

#include "core/error.h"
#include "core/atomic_file.h"
#include "core/text.h"
#include "harness/results/compare.h"
#include "harness/results/frame_pairs.h"
#include "harness/results/plots.h"
#include "harness/results/meta.h"
#include "harness/platform/interrupt.h"
#include "harness/platform/lock.h"

namespace firelab::harness {
namespace fs = std::filesystem;

namespace {

std::string whyMalformed(const std::vector<std::string>& fields, const std::string& experiment) {
    if (std::string why = whyNotARunRow(fields); !why.empty()) return why;
    if (!experiment.empty() && fields[0] != experiment)
        return "experiment '" + fields[0] + "', not '" + experiment + "'";
    return "";
}

// Present in --out while a merge writes it: an interrupted merge (the marker still there) may be run again
// into the same folder, which is otherwise refused once it holds results.
constexpr const char* kMergeMarker = ".merge-in-progress";

// merge's arguments: at least one shard, and a folder to merge into.
void checkMergeArguments(const std::vector<fs::path>& shardDirs, const fs::path& outDir) {
    if (shardDirs.empty()) throw Error(ErrorCode::BadValue, "firelab merge: name at least one shard folder");
    if (outDir.empty()) throw Error(ErrorCode::BadValue, "--out '': empty; name the folder to merge into");
}

// What an interrupted merge's marker names: the experiment and its shard folders (canonical), one per line.
std::string markerText(const std::string& experiment, const std::vector<fs::path>& shardDirs) {
    std::string text =
        "firelab merge writes this folder; run the same merge again if it was interrupted\n" + experiment + "\n";
    std::error_code ec;
    std::vector<std::string> dirs;  // sorted: the same shards named in another order are the same merge
    for (const auto& dir : shardDirs) dirs.push_back(fs::weakly_canonical(dir, ec).string());
    std::sort(dirs.begin(), dirs.end());
    for (const auto& dir : dirs) text += dir + "\n";
    return text;
}

// --out holds no results (merge never overwrites), or only what an interrupted merge of the same shards left:
// checked under the folder's lock, so a sweep or another merge writing it is named, not joined.
void checkOutFolder(const fs::path& outDir, const std::string& marker) {
    std::error_code ec;
    if (fs::exists(outDir / kMergeMarker, ec)) {
        std::ifstream in(outDir / kMergeMarker, std::ios::binary);
        const std::string there((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        const bool namesShards = std::count(there.begin(), there.end(), '\n') > 1;  // an older firelab's: none
        if (namesShards && there != marker)
            throw Error(ErrorCode::BadValue, "--out " + outDir.string() +
                                                 " holds an interrupted merge of other shards (" +
                                                 (outDir / kMergeMarker).string() +
                                                 " names them): merge those again into it, or choose a new folder");
        std::fprintf(stderr, "firelab: %s holds an interrupted merge of these shards: merging into it again\n",
                     outDir.c_str());
        return;
    }
    for (const char* name : {"runs.csv", "meta.json"})
        if (fs::exists(outDir / name, ec) || fs::is_symlink(outDir / name, ec))
            throw Error(ErrorCode::BadValue, "--out " + outDir.string() + ": already holds " + name +
                                                 "; merge never overwrites results, choose a new folder");
}

// A folder named twice (by any path) is refused, as a shard given twice is.
void refuseRepeatedFolders(const std::vector<fs::path>& shardDirs) {
    std::map<fs::path, fs::path> seen;  // canonical -> as first named
    std::error_code ec;
    for (const auto& dir : shardDirs) {
        const fs::path canonical = fs::weakly_canonical(dir, ec);
        const auto [it, fresh] = seen.emplace(canonical.empty() ? dir : canonical, dir);
        if (!fresh)
            throw Error(ErrorCode::BadValue, "firelab merge: " + it->second.string() + " and " + dir.string() +
                                                 " name the same folder; give each shard once");
    }
}

// The sweep the shards belong to, as the first one's meta.json records it, and every shard's meta.json
// (for the merged one).
struct ShardedSweep {
    fs::path first;
    std::string experiment, baseline;
    std::optional<ExperimentConfig> config;
    std::vector<fs::path> metas;
    std::map<size_t, fs::path> shardIndex;  // K of "K/N" -> its folder
    size_t shardCount = 0;                  // N, when the shards record it
};

// A shard that did not finish (interrupted, or still running) would merge as if complete: refused.
void checkFinished(const fs::path& dir, const MetaRecord& m) {
    if (m.finished) return;
    throw Error(ErrorCode::BadValue, "firelab merge: " + dir.string() +
                                         " has not finished (its meta.json says "
                                         "\"finished\": \"\": interrupted, or still running); finish it with its sweep "
                                         "command and --resume, then merge");
}

// A merged folder is not a shard (its meta.json holds its shards'), and a shard whose inputs changed while it
// ran measured two versions of them: both refused.
void checkIsAShard(const fs::path& dir, const MetaRecord& m) {
    if (m.merged)
        throw Error(ErrorCode::BadValue, "firelab merge: " + dir.string() + " is a merge of " +
                                             std::to_string(m.mergedShards) +
                                             " shard(s), not a shard; merge the shard folders themselves");
    if (m.inputsChanged.empty()) return;
    std::string msg = "firelab merge: " + dir.string() +
                      " read inputs that changed while it ran (meta.json's inputs_changed_during_sweep), so its "
                      "runs measured two versions of them:";
    for (const auto& c : m.inputsChanged) msg += "\n  " + c;
    throw Error(ErrorCode::BadValue, msg + "\nmeasure that shard again into a new folder, then merge");
}

// A shard's files hold what its meta.json says it measured: as many configurations in runs.csv as "done",
// and, for a repeated sweep, each configuration's ok rounds (its `rounds`) in rounds.csv. A row or a round
// lost from a file (edited, truncated, copied in part) would otherwise merge as a smaller sweep.
void checkShardFiles(const fs::path& dir, const MetaRecord& m) {
    const CheckedRuns runs = readCheckedRuns(dir / "runs.csv", m.experiment);
    std::set<std::string> keys;
    std::map<std::string, long> okRounds;  // run_key -> the rounds its summary counts
    for (const Row& row : runs.rows) {
        keys.insert(row.at("run_key"));
        const std::string& n = row.at("rounds");
        if (!n.empty()) okRounds[row.at("run_key")] = std::strtol(n.c_str(), nullptr, 10);
    }
    if (m.runsDone && keys.size() < *m.runsDone)
        throw Error(ErrorCode::BadValue,
                    "firelab merge: " + (dir / "runs.csv").string() + " holds " + std::to_string(keys.size()) +
                        " run(s), but its meta.json says " + std::to_string(*m.runsDone) +
                        " were done: rows are missing; finish the shard with --resume, then merge");
    std::error_code ec;
    const fs::path roundsFile = dir / "rounds.csv";
    const bool repeated = std::any_of(okRounds.begin(), okRounds.end(), [](const auto& r) { return r.second > 1; });
    if (!fs::exists(roundsFile, ec)) {
        if (repeated)
            throw Error(ErrorCode::MissingFile, "firelab merge: " + roundsFile.string() + ": no such file, but " +
                                                    (dir / "runs.csv").string() +
                                                    " summarises several rounds: its rounds are lost, and merge would "
                                                    "count them once");
        return;
    }
    std::map<std::string, long> held;
    for (const Row& row : readCheckedRuns(roundsFile, m.experiment).rows)
        if (row.at("status") == "ok") ++held[row.at("run_key")];
    for (const auto& [key, n] : okRounds)
        if (held[key] < n)
            throw Error(ErrorCode::BadValue, "firelab merge: " + roundsFile.string() + " holds " +
                                                 std::to_string(held[key]) + " ok round(s) of run " + key + ", but " +
                                                 (dir / "runs.csv").string() + " summarises " + std::to_string(n) +
                                                 ": rounds are missing");
}

// Each shard K of N at most once, and all N of them: a merge of some shards is not the sweep.
void recordShard(ShardedSweep& sweep, const fs::path& dir, const std::string& shard) {
    if (shard.empty()) return;
    const auto [k, n] = parseShard(shard);
    if (sweep.shardCount != 0 && n != sweep.shardCount)
        throw Error(ErrorCode::BadValue, "firelab merge: " + dir.string() + " is shard " + shard + ", of " +
                                             std::to_string(n) + ", not of " + std::to_string(sweep.shardCount));
    sweep.shardCount = n;
    if (const auto it = sweep.shardIndex.find(k); it != sweep.shardIndex.end())
        throw Error(ErrorCode::BadValue, "firelab merge: " + dir.string() + " and " + it->second.string() +
                                             " are both shard " + shard + "; give each shard once");
    sweep.shardIndex.emplace(k, dir);
}

void checkEveryShard(const ShardedSweep& sweep) {
    if (sweep.shardCount == 0) return;
    std::string missing;
    for (size_t k = 1; k <= sweep.shardCount; ++k)
        if (!sweep.shardIndex.count(k))
            missing += (missing.empty() ? "" : ", ") + std::to_string(k) + "/" + std::to_string(sweep.shardCount);
    if (!missing.empty())
        throw Error(ErrorCode::BadValue,
                    "firelab merge: shard " + missing + " missing; merge every shard of the sweep");
}

// A shard folder's meta.json, once the folder is seen to hold runs.csv and meta.json.
fs::path shardMeta(const fs::path& dir) {
    std::error_code ec;
    const fs::path csv = dir / "runs.csv", metaFile = dir / "meta.json";
    if (!fs::exists(csv, ec))
        throw Error(ErrorCode::MissingFile, csv.string() + ": no such file (not a shard folder?)");
    if (!fs::exists(metaFile, ec))
        throw Error(ErrorCode::MissingFile, metaFile.string() +
                                                ": no such file (not a sweep folder?): without it "
                                                "the shards cannot be checked to be one sweep");
    return metaFile;
}

// How a later shard differs from the sweep: its configuration when both record one, else its experiment.
std::vector<std::string> shardDifferences(const ShardedSweep& sweep, const MetaRecord& m) {
    if (m.baseline != sweep.baseline) return {"baseline: '" + sweep.baseline + "' there, '" + m.baseline + "' here"};
    if (m.config && sweep.config) return configDifferences(*sweep.config, *m.config);
    if (m.experiment != sweep.experiment)
        return {"experiment: '" + sweep.experiment + "' there, '" + m.experiment + "' here"};
    return {};
}

// Every shard is a sweep folder of one experiment and one configuration, checked before any reading.
ShardedSweep checkShards(const std::vector<fs::path>& dirs) {
    ShardedSweep sweep;
    for (const auto& dir : dirs) {
        const fs::path metaFile = shardMeta(dir);
        const MetaRecord m = readMeta(metaFile);
        checkIsAShard(dir, m);
        checkFinished(dir, m);
        checkShardFiles(dir, m);
        recordShard(sweep, dir, m.shard);
        sweep.metas.push_back(metaFile);
        if (sweep.first.empty()) {
            sweep.first = dir, sweep.experiment = m.experiment, sweep.config = m.config, sweep.baseline = m.baseline;
        } else if (const auto diffs = shardDifferences(sweep, m); !diffs.empty()) {
            std::string msg =
                "firelab merge: " + dir.string() + " is not a shard of the sweep in " + sweep.first.string() + ":";
            for (const auto& d : diffs) msg += "\n  " + d;
            throw Error(ErrorCode::BadValue, msg);
        }
        if (!m.config)
            std::fprintf(stderr,
                         "firelab: warning: %s records no configuration (an older firelab): only its "
                         "experiment is checked\n",
                         metaFile.c_str());
    }
    checkEveryShard(sweep);
    return sweep;
}

// Which of two rows of one run the merge keeps: an ok row beats a failed one; of two failures the later in
// the shards' order (never by wall-clock start, which a skewed clock would decide). Two ok rows of one run are
// two measurements the merge cannot choose between: refused, naming both files.
bool replaces(const Row& row, const Row& kept, const fs::path& file, const fs::path& keptFile) {
    const bool okNew = row.at("status") == "ok", okOld = kept.at("status") == "ok";
    if (okNew && okOld && file == keptFile)  // one file: a row written twice, not two shards
        throw Error(ErrorCode::BadValue, "firelab merge: " + file.string() + " holds two ok rows of run " +
                                             row.at("run_key") +
                                             " (a row copied or edited in?); a run has one row: keep one, then merge");
    if (okNew && okOld)
        throw Error(ErrorCode::BadValue, "firelab merge: run " + row.at("run_key") + " is measured in both " +
                                             keptFile.string() + " and " + file.string() +
                                             "; give each shard once (a run belongs to one shard)");
    return okNew >= okOld;
}

// The runs compared with one baseline run (their run keys the same but for the baseline's setting) were measured
// in one shard: a ratio of runs from two machines would be a wrong answer without a word. Shards of a firelab
// before issue #36 were dealt run by run and split them: refused.
void checkPairsWhole(const std::map<std::string, std::pair<Row, fs::path>>& byKey, const std::string& baseline) {
    if (baseline.empty()) return;
    const std::string setting = baseline.substr(0, baseline.find('='));
    std::map<std::string, std::pair<fs::path, std::string>> groups;  // the key less the baseline's -> file, a run
    for (const auto& [key, kept] : byKey) {
        std::string rest;
        for (const std::string& part : core::split(key, ';'))
            if (part.substr(0, part.find('=')) != setting) rest += part + ";";
        const auto [it, fresh] = groups.emplace(rest, std::make_pair(kept.second, key));
        if (!fresh && it->second.first != kept.second)
            throw Error(ErrorCode::BadValue,
                        "firelab merge: " + it->second.second + " (" + it->second.first.string() + ") and " + key +
                            " (" + kept.second.string() + ") are compared with the baseline " + baseline +
                            " but were measured in different shards, so their ratio would mix machines; measure the "
                            "shards again (a shard now keeps a baseline's group whole)");
    }
}

// One row per run, in the order the shards first list them, and every record set aside.
CheckedRuns chooseRows(const std::vector<fs::path>& dirs, const std::string& experiment, const std::string& baseline) {
    std::map<std::string, std::pair<Row, fs::path>> byKey;  // each run's row and the file it came from
    std::vector<std::string> order;
    CheckedRuns merged;
    for (const auto& dir : dirs) {
        CheckedRuns read = readCheckedRuns(dir / "runs.csv", experiment);
        merged.rejected.insert(merged.rejected.end(), read.rejected.begin(), read.rejected.end());
        for (auto& row : read.rows) {
            const std::string key = row.at("run_key");
            auto it = byKey.find(key);
            if (it == byKey.end()) {
                order.push_back(key);
                byKey.emplace(key, std::make_pair(std::move(row), dir / "runs.csv"));
            } else if (replaces(row, it->second.first, dir / "runs.csv", it->second.second)) {
                it->second = {std::move(row), dir / "runs.csv"};
            }
        }
    }
    for (const auto& key : order) merged.rows.push_back(std::move(byKey[key].first));
    checkPairsWhole(byKey, baseline);
    return merged;
}

// A repeated sweep's rounds.csv, every shard's joined (each run's rounds are in its one shard, so a
// (run_key, round) pair twice is refused, as two measurements of one run are); nothing when no shard has one.
std::optional<CheckedRuns> chooseRounds(const std::vector<fs::path>& dirs, const std::string& experiment) {
    std::optional<CheckedRuns> merged;
    std::map<std::pair<std::string, std::string>, fs::path> seen;
    for (const auto& dir : dirs) {
        std::error_code ec;
        const fs::path file = dir / "rounds.csv";
        if (!fs::exists(file, ec)) continue;
        if (!merged) merged.emplace();
        CheckedRuns read = readCheckedRuns(file, experiment);
        merged->rejected.insert(merged->rejected.end(), read.rejected.begin(), read.rejected.end());
        for (auto& row : read.rows) {
            const auto key = std::make_pair(row.at("run_key"), row.at("round"));
            if (const auto [it, fresh] = seen.emplace(key, file); !fresh)
                throw Error(ErrorCode::BadValue, "firelab merge: round " + key.second + " of run " + key.first +
                                                     " is in both " + it->second.string() + " and " + file.string() +
                                                     "; give each shard once");
            merged->rows.push_back(std::move(row));
        }
    }
    return merged;
}

void writeMerged(const fs::path& outDir, const std::vector<fs::path>& dirs, const CheckedRuns& merged,
                 const std::optional<CheckedRuns>& rounds, const ShardedSweep& sweep, const fs::path& dataDir,
                 const std::string& commandLine) {
    std::ofstream(outDir / kMergeMarker, std::ios::binary) << markerText(sweep.experiment, dirs);
    std::error_code ec;
    for (const char* aside : {"runs.rejected.csv", "rounds.rejected.csv"}) fs::remove(outDir / aside, ec);  // a retry's
    keepAside(merged.rejected, outDir / "runs.rejected.csv");
    if (rounds) {  // before runs.csv: compare reads the rounds beside it
        keepAside(rounds->rejected, outDir / "rounds.rejected.csv");
        writeRunsCsv(outDir / "rounds.csv", rounds->rows);
    }
    std::vector<FrameRecord> frames;  // the alternated runs' frames: each group ran whole in one shard
    for (const auto& dir : dirs) {
        auto more = readFrameRecords(dir / "frames.csv");
        frames.insert(frames.end(), std::make_move_iterator(more.begin()), std::make_move_iterator(more.end()));
    }
    if (!frames.empty()) writeFrameRecords(outDir / "frames.csv", frames);
    writeRunsCsv(outDir / "runs.csv", merged.rows);
    writeMergedMeta(outDir / "meta.json", sweep.metas, sweep.config, merged.rows.size(), merged.rejected.size(),
                    commandLine);
    writeRatiosOrWarn(outDir, sweep.baseline);  // ratios.csv, as the whole sweep writes it
    makePlots(outDir / "runs.csv", outDir, dataDir);
    if (!stopRequested())
        fs::remove(outDir / kMergeMarker, ec);  // complete, plots and report too: from here the
                                                // folder holds results
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
        line += static_cast<size_t>(
            std::count(text.begin() + static_cast<long>(counted), text.begin() + static_cast<long>(offset), '\n'));
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
            out.rejected.push_back(
                {csv.string(), lineAt(tail), raw(tail, text.size()), "a torn last line (an interrupted write)"});
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
    checkMergeArguments(shardDirs, outDir);
    refuseRepeatedFolders(shardDirs);
    const std::vector<fs::path>& dirs = shardDirs;
    const ShardedSweep sweep = checkShards(dirs);
    const CheckedRuns merged = chooseRows(dirs, sweep.experiment, sweep.baseline);
    const std::optional<CheckedRuns> rounds = chooseRounds(dirs, sweep.experiment);
    // One writer per folder: a sweep or another merge into it is named and refused, never interleaved.
    core::checkWritableFolder(outDir, "--out");
    const WriterLock lock(outDir, "--out");
    checkOutFolder(outDir, markerText(sweep.experiment, dirs));
    writeMerged(outDir, dirs, merged, rounds, sweep, dataDir, commandLine);
    return {merged.rows.size(), dirs.size()};
}

}  // namespace firelab::harness

#include "harness/measure/sweep.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <tuple>

#include "core/atomic_file.h"
#include "core/text.h"
#include "harness/results/compare.h"
#include "harness/results/csv.h"
#include "harness/results/merge.h"
#include "harness/results/plots.h"
#include "harness/settings/effect.h"
#include "harness/platform/interrupt.h"
#include "harness/platform/lock.h"
#include "harness/results/inputs.h"
#include "harness/results/meta.h"
#include "harness/platform/process.h"
#include "harness/results/rounds.h"
#include "harness/results/frame_pairs.h"
#include "harness/results/stats.h"
#include "harness/measure/canary.h"
#include "render/particles/particle_material.h"
#include "core/error.h"
#include "sim/snapshot.h"

namespace firelab::harness {
namespace fs = std::filesystem;

namespace {

std::string duration(double seconds) {
    char buf[32];
    const long s = static_cast<long>(seconds + 0.5);
    if (s >= 3600)
        std::snprintf(buf, sizeof buf, "%ldh%02ldm", s / 3600, (s / 60) % 60);
    else
        std::snprintf(buf, sizeof buf, "%ldm%02lds", s / 60, s % 60);
    return buf;
}

// --resume continues only the sweep it started: the same experiment, shard and configuration as the
// folder's meta.json records. Throws Error(BadValue) listing every difference.
void checkResumable(const fs::path& metaFile, const ExperimentConfig& here, const std::string& shard) {
    std::error_code ec;
    if (!fs::exists(metaFile, ec))
        throw Error(ErrorCode::MissingFile, "--resume: " + metaFile.string() +
                                                ": no such file, so what the folder holds cannot be checked; "
                                                "choose another --out");
    const MetaRecord there = readMeta(metaFile);
    if (there.merged)  // its meta.json keeps each shard's: a sweep's would replace them
        throw Error(ErrorCode::BadValue, "--resume: " + metaFile.parent_path().string() + " is a merge of " +
                                             std::to_string(there.mergedShards) +
                                             " shard(s), not a sweep to continue; resume the shard that is "
                                             "incomplete, then merge the shards again into a new folder");
    std::vector<std::string> diffs;
    if (there.shard != shard) diffs.push_back("shard: '" + there.shard + "' there, '" + shard + "' here");
    if (there.config) {
        // More rounds continue a sweep of several rounds (each round is its own measurement); fewer would leave
        // rounds on file that meta.json no longer counts, and runs.csv would summarise them all: refused.
        auto rounds = [](const ExperimentConfig& c) {
            for (const auto& [name, value] : c.settings)
                if (name == "repetitions") return std::atoi(value.c_str());
            return 1;
        };
        const bool roundsMayChange = rounds(*there.config) > 1 && rounds(here) >= rounds(*there.config);
        for (auto& d : configDifferences(*there.config, here))
            if (!(roundsMayChange && d.rfind("repetitions:", 0) == 0)) diffs.push_back(std::move(d));
    } else {
        if (there.experiment != here.experiment)
            diffs.push_back("experiment: '" + there.experiment + "' there, '" + here.experiment + "' here");
        std::fprintf(stderr,
                     "firelab: warning: %s records no configuration (an older firelab): only the experiment "
                     "and the shard are checked\n",
                     metaFile.c_str());
    }
    if (diffs.empty()) return;
    std::string msg = "--resume: " + metaFile.parent_path().string() +
                      " holds another sweep; continuing it would mix configurations:";
    for (const auto& d : diffs) msg += "\n  " + d;
    throw Error(ErrorCode::BadValue, msg + "\nrun with the same settings, or choose another --out");
}

// What --resume does to runs.csv before appending, so that the file ends with each configuration once,
// with its latest outcome: a key whose latest row is ok is done (that row kept); every older row of a
// key, and the latest of a key that failed (it runs again), move to runs.history.csv; malformed records
// move to runs.rejected.csv.
struct ResumePlan {
    std::set<std::string> done;
    std::vector<Row> keep, history;
    std::vector<RejectedRecord> rejected;
};

// What --resume counts as one measurement: a configuration (run_key) or, with several rounds, one round
// of it ("run_key#round").
std::string doneKey(const std::string& runKey, int round, int rounds) {
    return rounds > 1 ? runKey + "#" + std::to_string(round) : runKey;
}

ResumePlan planResume(const fs::path& csv, const std::string& experiment, int rounds) {
    CheckedRuns read = readCheckedRuns(csv, experiment);
    ResumePlan plan;
    plan.rejected = std::move(read.rejected);
    auto keyOf = [&](const Row& row) {
        return doneKey(row.at("run_key"), std::atoi(row.count("round") ? row.at("round").c_str() : "1"), rounds);
    };
    std::map<std::string, size_t> latest;
    for (size_t i = 0; i < read.rows.size(); ++i) latest[keyOf(read.rows[i])] = i;
    for (size_t i = 0; i < read.rows.size(); ++i) {
        Row& row = read.rows[i];
        const std::string key = keyOf(row);
        if (latest[key] == i && row.at("status") == "ok") {
            plan.done.insert(key);
            plan.keep.push_back(std::move(row));
        } else {
            plan.history.push_back(std::move(row));
        }
    }
    return plan;
}

// Carries out a plan: history and rejected rows first (appended), then runs.csv replaced at once.
void applyResume(const ResumePlan& plan, const fs::path& csv) {
    if (plan.history.empty() && plan.rejected.empty()) return;  // the file is already one row per key
    const fs::path dir = csv.parent_path();
    keepAside(plan.rejected, dir / (csv.stem().string() + ".rejected.csv"));
    if (!plan.history.empty()) {
        const fs::path history = dir / (csv.stem().string() + ".history.csv");
        std::vector<std::string> lines;
        for (const auto& row : plan.history) lines.push_back(csvLine(rowFields(row)));
        appendCsvLines(history, runsHeaderLine(), lines);
        std::fprintf(stderr, "firelab: %zu earlier row(s) (failed runs to measure again, or repeats) moved to %s\n",
                     plan.history.size(), history.c_str());
    }
    writeRunsCsv(csv, plan.keep);
}

// A round's row: its round and count, its process, and (the row being its own summary) intervals equal to
// its medians.
Row withRound(Row row, int round, int process) {
    row = summariseRounds({row});
    if (row["rounds"] == "0") row["rounds"] = "1";  // a failed round is still one round's row
    row["round"] = std::to_string(round);
    row["process"] = std::to_string(process);
    row["processes"] = "1";
    return row;
}

// Disk space held back for meta.json's last write: released first when a row cannot be written (a
// full disk) and before the final meta.json, so that meta.json can still say what runs.csv holds.
// Best effort: where it cannot be reserved (a file size limit, a disk already full) there is none.
class SpaceReserve {
public:
    explicit SpaceReserve(fs::path file) : file_(std::move(file)) {
        if (file_.empty()) return;
        const int fd = ::open(file_.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
        if (fd < 0) {
            file_.clear();
            return;
        }
        (void)::posix_fallocate(fd, 0, 1 << 20);
        ::close(fd);
    }
    ~SpaceReserve() { release(); }
    SpaceReserve(const SpaceReserve&) = delete;
    SpaceReserve& operator=(const SpaceReserve&) = delete;
    void release() {
        std::error_code ec;
        if (!file_.empty()) fs::remove(file_, ec);
        file_.clear();
    }

private:
    fs::path file_;
};

}  // namespace

namespace {
// What is already in the sweep's files: a folder with results is refused without --resume; with it,
// the folder must hold this sweep (meta.json) and the plan says which runs (or rounds) are done.
ResumePlan planOutputs(const SweepOptions& o, const fs::path& record, const ExperimentConfig& config,
                       const std::string& shardText, int rounds) {
    std::error_code ec;
    // A file with firelab's header and no row holds no results (a sweep that failed at its first meta.json
    // write leaves one): a rerun may start over, and --resume has nothing to continue.
    auto holdsRows = [&](const fs::path& f) {
        return fs::exists(f, ec) && fs::file_size(f, ec) > 0 && !readRunsCsv(f).empty();  // BadFile if not ours
    };
    for (const fs::path& f : {o.csv, record}) {
        if (!holdsRows(f)) continue;
        if (o.refuseExisting && !o.resume)
            throw Error(ErrorCode::BadValue, f.string() +
                                                 " already holds results; pass --resume to complete it, "
                                                 "or choose another --out");
    }
    if (!o.resume) return {};
    const bool hasRecord = holdsRows(record);
    // A folder with results must say what they are (a missing meta.json is refused); one without may.
    if (!o.outDir.empty() && (hasRecord || fs::exists(o.outDir / "meta.json", ec)))
        checkResumable(o.outDir / "meta.json", config, shardText);
    return hasRecord ? planResume(record, o.experiment.name, rounds) : ResumePlan{};  // failed runs run again
}

// `run --repetitions R --csv F` appends rounds 1..R of each configuration to F.rounds.csv: a configuration
// that already has rounds there (an earlier run, or one interrupted) would repeat its round numbers, and the
// summaries would mix two measurements. Refused, naming it; `run` does not resume (a sweep does).
void refuseRepeatedRounds(const fs::path& record, const std::vector<const PlannedRun*>& runs) {
    std::error_code ec;
    if (!fs::exists(record, ec)) return;
    // A configuration is its settings (a lone run's key is "single" whatever they are).
    auto settingsOf = [](auto&& textOf) {
        std::vector<std::string> out;
        for (const auto& name : settingColumns()) out.push_back(textOf(name));
        return out;
    };
    std::set<std::vector<std::string>> present;
    for (const Row& row : readRunsCsv(record))
        present.insert(
            settingsOf([&](const std::string& n) { return row.count(csvColumn(n)) ? row.at(csvColumn(n)) : ""; }));
    for (const PlannedRun* r : runs)
        if (present.count(settingsOf([&](const std::string& n) { return settingText(r->settings, n); })))
            throw Error(ErrorCode::BadValue, record.string() + " already holds rounds of this configuration (" +
                                                 r->key +
                                                 "; an earlier or interrupted run): measuring it again would repeat "
                                                 "their round numbers; write to another --csv, or measure it with "
                                                 "`firelab sweep`, which --resume finishes");
}

// `run --csv` into the runs.csv (or rounds.csv) of a sweep's folder: its row would join results its meta.json does
// not count, and compare would then fail on it. Refused, naming the sweep; a run writes elsewhere.
void refuseASweepsRecord(const fs::path& csv, const fs::path& folder) {
    const std::string name = csv.filename().string();
    if (name != "runs.csv" && name != "rounds.csv") return;
    std::string experiment = "a sweep";
    try {
        experiment = "sweep '" + readMeta(folder / "meta.json").experiment + "'";
    } catch (const Error&) {}  // not a sweep's meta.json: still that folder's record
    throw Error(ErrorCode::BadValue, "--csv " + csv.string() + ": the " + name + " of " + experiment + " (" +
                                         (folder / "meta.json").string() +
                                         "); a lone run's row would mix into its results. Write to another --csv, "
                                         "or measure more with that sweep (firelab sweep FILE --out " +
                                         folder.string() + " --resume)");
}

// What render::checkSprite checks of a layer's options.
auto spriteKey(const render::RenderOptions& o) { return std::tuple(o.texture, o.flipbook, o.flipbookBlend, o.hull); }

// Sprites are files too, the references' included: a missing or unreadable one is refused before any row.
void checkSprites(const std::vector<const PlannedRun*>& runs, const fs::path& dataDir) {
    // Each distinct sprite and the flipbook options checked against it, checked once.
    std::set<std::tuple<std::string, render::FlipbookLayout, render::FlipbookBlend, render::Hull>> sprites;
    for (const PlannedRun* r : runs) {
        if (sprites.insert(spriteKey(r->settings.render)).second) render::checkSprite(dataDir, r->settings.render);
        for (const auto& layer : resolveLayers(r->settings))  // each layer's own sprite
            if (sprites.insert(spriteKey(layer.render)).second) {
                try {
                    render::checkSprite(dataDir, layer.render);
                } catch (const Error& e) {
                    throw Error(e.code(),
                                "--effect " + r->settings.effect + ", layer '" + layer.name + "': " + e.what());
                }
            }
        if (!r->settings.quality.enabled) continue;
        const auto ref = referenceSettings(r->settings, r->settings.quality.reference).render;
        if (!sprites.insert(spriteKey(ref)).second) continue;
        try {
            render::checkSprite(dataDir, ref);
        } catch (const Error& e) {
            throw Error(e.code(), "--reference '" + referenceText(r->settings.quality.reference) + "': " + e.what());
        }
    }
}

// An experiment's baseline, KEY and VALUE as the sweep spells them (both empty: none).
struct Baseline {
    std::string key, value;
};

// [experiment] baseline = "KEY=VALUE" names a swept setting and one of its values (as the sweep spells it
// or any spelling of it: particles=1e3 is particles=1000). Throws Error(BadValue) naming the file.
Baseline checkBaseline(const Experiment& e, const ExperimentConfig& config, const std::string& source) {
    if (e.baseline.empty()) return {};
    checkOneKeyValue(e.baseline, (source.empty() ? "" : source + ": ") + "[experiment] baseline");
    const std::string where = (source.empty() ? "" : source + ": ") + "[experiment] baseline '" + e.baseline + "'";
    const auto eq = e.baseline.find('=');
    if (eq == std::string::npos) throw Error(ErrorCode::BadValue, where + ": expected KEY=VALUE, e.g. strategy=points");
    const std::string key = e.baseline.substr(0, eq), value = e.baseline.substr(eq + 1);
    std::vector<std::string> axes;
    for (const auto& [name, values] : config.axes) {
        axes.push_back(name);
        if (name != key) continue;
        RunSettings probe;
        std::string canonical = value;
        try {
            applySetting(probe, key, value);
            canonical = settingText(probe, key);
        } catch (const Error&) {}
        if (std::find(values.begin(), values.end(), canonical) != values.end()) return {key, canonical};
        throw Error(ErrorCode::BadValue, where + ": " + key + " is swept over " + core::join(values));
    }
    throw Error(ErrorCode::BadValue, where + ": " + key + " is not swept; the swept settings are " +
                                         (axes.empty() ? "none" : core::join(axes)));
}

// Which configurations each round keeps together (groupedRoundOrder): those that differ only in the
// baseline's setting, the baseline in their middle. Without a baseline every configuration is its own group.
struct Pairing {
    std::vector<size_t> group;
    std::vector<bool> isBaseline;
};

Pairing pairWithBaseline(const std::vector<const PlannedRun*>& runs, const Baseline& baseline,
                         const ExperimentConfig& config) {
    Pairing p;
    const std::string& key = baseline.key;
    std::map<std::string, size_t> ids;
    for (size_t i = 0; i < runs.size(); ++i) {
        std::string rest = key.empty() ? runs[i]->key : "";
        for (const auto& [name, values] : config.axes)
            if (!key.empty() && name != key) rest += name + "=" + settingText(runs[i]->settings, name) + ";";
        p.group.push_back(ids.emplace(rest, ids.size()).first->second);
        p.isBaseline.push_back(!key.empty() && settingText(runs[i]->settings, key) == baseline.value);
    }
    return p;
}

// Why a group's configurations cannot be drawn in alternation in one process, or "" when they can: they must
// draw the same number of warm-up and measured frames at the same step, into windows of one size, each frame
// fenced (--timing latency: with frames in flight one configuration's frame would overlap the next's).
std::string whyNotAlternated(const std::vector<const PlannedRun*>& members) {
    const RunSettings& a = members.front()->settings;
    std::vector<std::string> differ;
    for (const PlannedRun* r : members) {
        const RunSettings& b = r->settings;
        auto note = [&](bool same, const char* name) {
            if (!same && std::find(differ.begin(), differ.end(), name) == differ.end()) differ.push_back(name);
        };
        note(a.width == b.width, "width");
        note(a.height == b.height, "height");
        note(a.warmup == b.warmup, "warmup");
        note(a.frames == b.frames, "frames");
        note(a.dt == b.dt, "dt");
    }
    if (!differ.empty()) return core::join(differ) + " differ within the group";
    for (const PlannedRun* r : members)
        if (r->settings.timing != Timing::Latency) return "--timing throughput keeps frames in flight";
    return "";
}

// The combinations a strategy cannot draw, which the sweep leaves out: said once, before any run.
void reportLeftOut(const std::vector<std::string>& leftOut) {
    if (leftOut.empty()) return;
    std::fprintf(
        stderr,
        "firelab: %zu combination(s) left out, their strategy cannot draw them or their options refuse each other:\n",
        leftOut.size());
    constexpr size_t kShown = 5;
    for (size_t i = 0; i < std::min(leftOut.size(), kShown); ++i) std::fprintf(stderr, "  %s\n", leftOut[i].c_str());
    if (leftOut.size() > kShown) std::fprintf(stderr, "  ... and %zu more\n", leftOut.size() - kShown);
}

// The runs of this shard (all of them without --shard), in the experiment's order. A shard takes whole groups:
// the configurations compared with one baseline (pairWithBaseline's), so that every paired ratio is measured in
// one shard, on one machine. A group is dealt by the smallest index of its runs in the full cross product, modulo
// N; without a baseline each run is its own group, dealt by its own index.
std::vector<const PlannedRun*> shardRuns(const std::vector<PlannedRun>& all,
                                         const std::optional<std::pair<size_t, size_t>>& shard,
                                         const Baseline& baseline, const ExperimentConfig& config) {
    std::vector<const PlannedRun*> every;
    for (const auto& r : all) every.push_back(&r);
    if (!shard) return every;
    const Pairing pairing = pairWithBaseline(every, baseline, config);
    std::map<size_t, size_t> dealtBy;  // group -> the smallest index of its runs
    for (size_t i = 0; i < every.size(); ++i) {
        auto [it, fresh] = dealtBy.emplace(pairing.group[i], every[i]->index);
        if (!fresh) it->second = std::min(it->second, every[i]->index);
    }
    std::vector<const PlannedRun*> selected;
    for (size_t i = 0; i < every.size(); ++i)
        if (dealtBy[pairing.group[i]] % shard->second == shard->first - 1) selected.push_back(every[i]);
    return selected;
}

// "K/N", or empty without --shard.
std::string describeShard(const std::optional<std::pair<size_t, size_t>>& shard) {
    return shard ? std::to_string(shard->first) + "/" + std::to_string(shard->second) : std::string();
}

// The folders a sweep writes to (--out, --csv's, --save-frames), created and each seen to be writable.
void checkOutputFolders(const SweepOptions& o) {
    if (!o.outDir.empty()) core::checkWritableFolder(o.outDir, "--out");
    if (!o.csv.parent_path().empty()) core::checkWritableFolder(o.csv.parent_path(), "--csv");
    if (!o.saveFrames.empty()) core::checkWritableFolder(o.saveFrames, "--save-frames");
}

// `run --csv F`: not another file's rounds (F.rounds.csv is F.csv's), and with several rounds a name ending
// in .csv, whose rounds file is its own (F and F.csv would share F.rounds.csv).
void checkRunCsvName(const fs::path& csv, int rounds) {
    const std::string name = csv.filename().string();
    const std::string roundsSuffix = ".rounds.csv";
    if (name == "rounds.csv" ||
        (name.size() > roundsSuffix.size() &&
         name.compare(name.size() - roundsSuffix.size(), roundsSuffix.size(), roundsSuffix) == 0))
        throw Error(ErrorCode::BadValue, "--csv " + csv.string() +
                                             ": a rounds file (each round of a repeated run), "
                                             "which firelab writes beside its runs.csv; name the runs.csv (F.csv)");
    if (rounds > 1 && csv.extension() != ".csv")
        throw Error(ErrorCode::BadValue, "--csv " + csv.string() + ": with --repetitions, name it ending in .csv (" +
                                             csv.string() +
                                             ".csv): its rounds go to NAME.rounds.csv, which another "
                                             "NAME.csv would share");
}

// Everything a sweep checks before its first run, so that a mistake costs no run and changes no file;
// and the results folder's lock, which keeps what was checked true while the sweep runs.
struct SweepPlan {
    explicit SweepPlan(const SweepOptions& o);
    SweepPlan(const SweepPlan&) = delete;
    SweepPlan& operator=(const SweepPlan&) = delete;

    std::vector<PlannedRun> all;
    std::vector<const PlannedRun*> selected;  // into `all`
    std::optional<WriterLock> folderLock;
    fs::path metaFile;  // empty: the sweep has no folder
    FrameOutput frames;
    std::string shardText;  // "K/N" or empty
    ExperimentConfig config;
    int rounds = 1;      // every process's together
    int perProcess = 1;  // --repetitions: the rounds of each process
    int processes = 1;   // --processes
    fs::path record;     // where each round's row goes
    ResumePlan resume;
    Baseline baseline;
};

SweepPlan::SweepPlan(const SweepOptions& o) {
    std::vector<std::string> leftOut;
    all = expand(o.experiment, o.source, &leftOut);
    reportLeftOut(leftOut);
    config = describe(o.experiment, o.source);
    baseline = checkBaseline(o.experiment, config, o.source);
    selected = shardRuns(all, o.shard, baseline, config);
    checkOutputFolders(o);
    // One writer per results folder (a second sweep or --resume stops here, naming the first), and per
    // CSV (CsvAppender). Taken before the CSV is read, so the runs already done cannot change under us.
    if (!o.outDir.empty() && o.process == 0) folderLock.emplace(o.outDir, "--out");  // a process: its parent's
    // `run --csv` into a sweep's folder: the sweep's lock too (a repeated sweep replaces its runs.csv each
    // round, so the file's own lock would not stop this run's row from being lost).
    else if (const fs::path folder = o.csv.parent_path().empty() ? fs::path(".") : o.csv.parent_path();
             o.process == 0 && fs::exists(folder / "meta.json")) {
        folderLock.emplace(folder, "--csv");
        refuseASweepsRecord(o.csv, folder);
    }
    metaFile = o.outDir.empty() || o.process > 0 ? fs::path() : o.outDir / "meta.json";  // a process: its parent's
    if (!metaFile.empty()) core::checkedOutputPath(metaFile);
    // Scored frames go beside the results (for report.html), and with --save-frames under the experiment's
    // name there (two experiments' runs may share a key: one folder would mix or overwrite their frames).
    frames = {o.saveFrames.empty() ? fs::path() : o.saveFrames / o.experiment.name, o.outDir};
    shardText = describeShard(o.shard);
    config.inputs = inputFingerprints(all, o.source, o.dataDir);  // before planOutputs: --resume compares them
    // With several rounds every round's row goes to rounds.csv and runs.csv summarises them; with one,
    // runs.csv is the record itself.
    perProcess = all.front().settings.repetitions;  // one value per sweep (kSweepWide), as is processes
    processes = all.front().settings.processes;
    rounds = perProcess * processes;
    if (processes > 1 && o.outDir.empty())
        throw Error(ErrorCode::BadValue, "--processes " + std::to_string(processes) +
                                             ": a sweep of several processes needs its results folder; measure it "
                                             "with `firelab sweep` (firelab run measures in one process)");
    if (o.process > processes)
        throw Error(ErrorCode::BadValue, "--process " + std::to_string(o.process) + ": the sweep has " +
                                             std::to_string(processes) + " process(es) (--processes)");
    if (o.outDir.empty()) checkRunCsvName(o.csv, rounds);
    record = rounds > 1 ? roundsCsvFor(o.csv) : o.csv;
    resume = planOutputs(o, record, config, shardText, rounds);
    if (!o.refuseExisting && !o.resume && rounds > 1) refuseRepeatedRounds(record, selected);
    checkSprites(selected, o.dataDir);
}

// The progress line on a terminal (none elsewhere): the measurement's place, its round, strategy and key,
// and the time left at the pace of the runs measured so far.
class Progress {
public:
    Progress(size_t total, int rounds) : total_(total), rounds_(rounds) {}
    void next() { ++k_; }  // each measurement counts, a resumed one too
    void measured() { ++measured_; }
    void show(const PlannedRun& r, int round) const {
        if (!tty_) return;
        const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
        const std::string eta = measured_ ? duration(elapsed / double(measured_) * double(total_ - k_ + 1)) : "?";
        const std::string roundText =
            rounds_ > 1 ? "round " + std::to_string(round) + "/" + std::to_string(rounds_) + " " : "";
        std::fprintf(stderr, "\r\033[K[%zu/%zu] %s%s %s  ETA %s", k_, total_, roundText.c_str(),
                     r.settings.strategy.c_str(), r.key.c_str(), eta.c_str());
    }
    // What erases the line before a message takes its place.
    const char* erase() const { return tty_ ? "\r\033[K" : ""; }

private:
    bool tty_ = ::isatty(STDERR_FILENO);
    std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
    size_t total_, k_ = 0, measured_ = 0;
    int rounds_;
};

// How long the machine's CPU use is sampled before the first run and after the last (/proc/stat counts in
// hundredths of a second: 0.3 s on 2 cores resolves 0.03 of a core).
constexpr std::chrono::milliseconds kLoadWindow{300};

// Samples what else the machine is doing; says so when it is not quiet, `when` naming the moment.
MachineLoad checkMachineLoad(const char* when) {
    const MachineLoad load = sampleMachineLoad(kLoadWindow);
    if (!load.known)
        std::fprintf(stderr, "firelab: warning: %s: the quiet-machine check %s was not made\n",
                     describeLoad(load).c_str(), when);
    else if (!machineIsQuiet(load))
        std::fprintf(stderr,
                     "firelab: warning: the machine is not quiet %s: %s; on a software renderer its frame times move "
                     "with that load (meta.json keeps the figure; results/README.md, \"Figures on a noisy machine\")\n",
                     when, describeLoad(load).c_str());
    return load;
}

// meta.json as the sweep starts (written now when it has a folder); finishMeta completes it.
MetaInfo startMeta(const SweepOptions& o, const SweepPlan& plan, Runner& runner) {
    MetaInfo meta;
    meta.loadBefore = checkMachineLoad("before the first run");
    meta.experiment = o.experiment.name;
    meta.description = o.experiment.description;
    meta.question = o.experiment.question;
    meta.baseline = o.experiment.baseline;
    meta.commandLine = o.commandLine;
    meta.started = utcTimestamp();
    std::error_code ec;
    if (o.resume && !plan.metaFile.empty() && fs::exists(plan.metaFile, ec))  // checked by checkResumable
        meta.earlierSessions = readMeta(plan.metaFile).sessions;
    meta.dataDir = o.dataDir;
    meta.runsPlanned = plan.all.size();
    meta.runsInShard = plan.selected.size();
    meta.shard = plan.shardText;
    meta.config = plan.config;
    meta.gl = runner.glInfo();
    meta.glError = runner.contextError();
    if (!plan.metaFile.empty()) writeMeta(plan.metaFile, meta);
    return meta;
}

// Each configuration's rounds that --resume kept, for runs.csv's summaries (none with one round).
std::map<std::string, std::vector<Row>> resumedRounds(const SweepPlan& plan) {
    std::map<std::string, std::vector<Row>> roundsOf;
    if (plan.rounds > 1)
        for (const Row& row : plan.resume.keep) roundsOf[row.at("run_key")].push_back(row);
    return roundsOf;
}

// A sweep under way, once its plan holds: the files it appends to, the runner, and what it has done.
class SweepRun {
public:
    SweepRun(const SweepOptions& o, const SweepPlan& plan)
        : o_(o),
          plan_(plan),
          csv_(o.process == 0 && plan.processes > 1 ? nullptr : std::make_unique<CsvAppender>(plan.record)),
          summaries_(plan.rounds > 1 && o.outDir.empty() ? std::make_unique<CsvAppender>(o.csv) : nullptr),
          roundsOf_(resumedRounds(plan)),
          reserve_(plan.metaFile.empty() ? fs::path() : o.outDir / ".meta.json.reserve"),
          runner_(o.dataDir, o.debugContext),
          meta_(startMeta(o, plan, runner_)),
          progress_(plan.selected.size() * static_cast<size_t>(o.process > 0 ? plan.perProcess : plan.rounds),
                    plan.rounds),
          pairing_(pairWithBaseline(plan.selected, plan.baseline, plan.config)) {
        sum_.planned = plan.all.size();
        sum_.selected = plan.selected.size();
        findAlternatedGroups();
    }

    bool interrupted() const { return sum_.interrupted; }
    void runRound(int round);
    void runProcesses();
    // The process a round is measured in: rounds 1..R the first, R+1..2R the second... (R = --repetitions).
    int processOf(int round) const { return (round - 1) / plan_.perProcess + 1; }
    SweepSummary finish();

private:
    bool runOne(const PlannedRun& r, int round);
    bool runGroup(size_t group, int round);
    size_t indexOf(const PlannedRun& r) const {
        return static_cast<size_t>(std::find(plan_.selected.begin(), plan_.selected.end(), &r) -
                                   plan_.selected.begin());
    }
    void appendFrames(const std::vector<FrameRecord>& frames);
    void findAlternatedGroups();
    void flagCanary();
    void warmUpOnce(const PlannedRun& r);
    void keep(const PlannedRun& r, Row row);
    void append(const Row& row);
    std::vector<Row> summaryRows() const;
    void finishMeta();

    const SweepOptions& o_;
    const SweepPlan& plan_;
    SweepSummary sum_;
    std::unique_ptr<CsvAppender> csv_;        // the record; none in the parent of --processes (its processes append)
    std::unique_ptr<CsvAppender> summaries_;  // firelab run with several rounds: summaries appended to --csv
    std::map<std::string, std::vector<Row>> roundsOf_;  // each configuration's rounds so far, resumed and new
    SpaceReserve reserve_;
    Runner runner_;
    MetaInfo meta_;
    Progress progress_;
    const Pairing pairing_;
    std::map<size_t, std::vector<const PlannedRun*>> groupMembers_;  // by group, in the experiment's order
    std::map<size_t, std::string> groupKeys_;                        // a group's name: its baseline's run_key
    std::map<size_t, std::string> whyAlone_;  // the groups that cannot alternate, and why (paired_by)
    std::set<size_t> alternated_;             // the groups drawn in alternation
    bool warm_ = false;
};

// Which groups are drawn in alternation: with --pairing frames, those of two or more configurations that
// can share a process (canAlternate); the others run alone, their rows saying why in paired_by.
void SweepRun::findAlternatedGroups() {
    for (size_t i = 0; i < plan_.selected.size(); ++i) groupMembers_[pairing_.group[i]].push_back(plan_.selected[i]);
    for (size_t i = 0; i < plan_.selected.size(); ++i)  // a group is named by its baseline, else its first
        if (pairing_.isBaseline[i] || !groupKeys_.count(pairing_.group[i]))
            groupKeys_[pairing_.group[i]] = plan_.selected[i]->key;
    for (const auto& [g, members] : groupMembers_) {
        if (members.size() < 2 || plan_.baseline.key.empty()) continue;
        if (members.front()->settings.pairing == PairBy::Rounds) {
            whyAlone_[g] = "rounds: --pairing rounds";
            continue;
        }
        if (const std::string why = whyNotAlternated(members); !why.empty()) {
            whyAlone_[g] = "rounds: " + why;
            std::fprintf(stderr,
                         "firelab: %s and the configurations compared with it run alone, not in alternation: %s\n",
                         groupKeys_[g].c_str(), why.c_str());
            continue;
        }
        alternated_.insert(g);
    }
}

void SweepRun::appendFrames(const std::vector<FrameRecord>& frames) {
    try {
        appendFrameRecords(framesCsvFor(o_.csv), frames);
    } catch (const Error& e) {
        if (e.code() != ErrorCode::Io) throw;
        sum_.interrupted = true;
        throw Error(e.code(), std::string(e.what()) +
                                  "; the rows of this round are whole: free some space, then "
                                  "finish with --resume");
    }
}

void SweepRun::runRound(int round) {
    const uint64_t orderSeed = plan_.all.front().settings.params.seed;
    const std::vector<size_t> order =
        groupedRoundOrder(pairing_.group, pairing_.isBaseline, round, plan_.rounds, orderSeed);
    std::set<size_t> groupsDone;
    for (const size_t i : order) {
        const size_t g = pairing_.group[i];
        if (alternated_.count(g)) {  // the whole group at its first member in the round's order
            if (groupsDone.insert(g).second && !runGroup(g, round)) break;
        } else if (!runOne(*plan_.selected[i], round)) {
            break;
        }
    }
    // After each round runs.csv summarises every round so far, so an interrupted sweep still has one.
    if (plan_.rounds > 1 && !o_.outDir.empty()) {
        try {
            writeRunsCsv(o_.csv, summaryRows());
        } catch (const Error& e) {
            if (e.code() != ErrorCode::Io) throw;
            throw Error(e.code(), std::string(e.what()) + "; every round so far is whole in " + plan_.record.string() +
                                      ": free some space, then finish with --resume");
        }
    }
}

// --processes K, in the parent: firelab started again once per process (`--process k` added to its own
// command line), each measuring its rounds into this folder, one after the other; a process whose rounds are
// all done (--resume) is not started again. Then the record is read back for the summaries.
void SweepRun::runProcesses() {
    auto roundsDone = [&](int k) {
        for (int round = (k - 1) * plan_.perProcess + 1; round <= k * plan_.perProcess; ++round)
            for (const PlannedRun* r : plan_.selected)
                if (!plan_.resume.done.count(doneKey(r->key, round, plan_.rounds))) return false;
        return true;
    };
    if (o_.relaunch.empty())
        throw Error(ErrorCode::Internal, "--processes: the sweep was not given the command line to start again");
    for (int k = 1; k <= plan_.processes; ++k) {
        if (stopRequested()) break;
        if (roundsDone(k)) {
            sum_.skipped += plan_.selected.size() * static_cast<size_t>(plan_.perProcess);
            continue;
        }
        std::fprintf(stderr, "%sfirelab: process %d of %d (rounds %d to %d)\n", progress_.erase(), k, plan_.processes,
                     (k - 1) * plan_.perProcess + 1, k * plan_.perProcess);
        std::vector<std::string> argv = o_.relaunch;
        argv.insert(argv.end(), {"--process", std::to_string(k)});
        const int rc = runProcess(argv);
        if (rc == 130 || rc == -1 || stopRequested()) break;  // interrupted: --resume starts it again
        if (rc == 2)
            throw Error(ErrorCode::BadValue,
                        "--processes: process " + std::to_string(k) + " refused its rounds (its message is above)");
    }
    sum_.interrupted = stopRequested();
    // What the processes measured: every row the record holds beyond those --resume kept.
    const std::vector<Row> rows = readRunsCsv(plan_.record);
    roundsOf_.clear();
    for (const Row& row : rows) roundsOf_[row.at("run_key")].push_back(row);
    sum_.done = rows.size() > plan_.resume.keep.size() ? rows.size() - plan_.resume.keep.size() : 0;
    for (size_t i = plan_.resume.keep.size(); i < rows.size(); ++i) sum_.failed += rows[i].at("status") != "ok";
}

// A group in one round, its members drawn in alternation: skipped when --resume found every member's round
// done (else all of them are measured again: the frames pair within one run). False when a stop was requested.
bool SweepRun::runGroup(size_t g, int round) {
    const auto& members = groupMembers_.at(g);
    const bool allDone = std::all_of(members.begin(), members.end(), [&](const PlannedRun* r) {
        return plan_.resume.done.count(doneKey(r->key, round, plan_.rounds)) > 0;
    });
    for (size_t k = 0; k < members.size(); ++k) progress_.next();
    if (allDone) {
        sum_.skipped += members.size();
        return true;
    }
    if (stopRequested()) {
        sum_.interrupted = true;
        return false;
    }
    progress_.show(*members.front(), round);
    warmUpOnce(*members.front());
    std::vector<PlannedRun> planned;  // the picture is the same in every round: the first round scores it
    for (const PlannedRun* r : members) {
        planned.push_back(*r);
        if (round > 1) planned.back().settings.quality.enabled = false;
    }
    std::vector<const PlannedRun*> pointers;
    for (const auto& p : planned) pointers.push_back(&p);
    const std::string& groupKey = groupKeys_.at(g);
    const GroupRun run{
        o_.experiment.name, groupKey, round, processOf(round),
        plan_.all.front().settings.params.seed ^ fnv1a(groupKey) ^ (0x9E3779B97F4A7C15ULL * unsigned(round))};
    GroupResult result = runner_.runGroup(pointers, run, &stopRequested(), plan_.frames);
    for (size_t k = 0; k < members.size(); ++k) progress_.measured();
    if (stopRequested()) {  // cut short: discarded, measured again on --resume
        sum_.interrupted = true;
        return false;
    }
    for (size_t k = 0; k < members.size(); ++k)
        keep(*members[k], withRound(std::move(result.rows[k]), round, processOf(round)));
    if (!result.frames.empty()) appendFrames(result.frames);
    return true;
}

// One configuration in one round: skipped when --resume found it done, else measured and kept. False
// when a stop was requested, before the run or during it: the sweep ends with this round.
bool SweepRun::runOne(const PlannedRun& r, int round) {
    progress_.next();
    if (plan_.resume.done.count(doneKey(r.key, round, plan_.rounds))) {
        ++sum_.skipped;
        return true;
    }
    if (stopRequested()) {
        sum_.interrupted = true;
        return false;
    }
    progress_.show(r, round);
    warmUpOnce(r);
    // The picture is the same in every round: the first round scores it, later rounds only time.
    PlannedRun planned = r;
    if (round > 1) planned.settings.quality.enabled = false;
    std::vector<FrameRecord> records;
    Row row = runner_.run(planned, o_.experiment.name, &stopRequested(), plan_.frames,
                          o_.outDir.empty() ? nullptr : &records, round, processOf(round));
    if (const auto why = whyAlone_.find(pairing_.group[indexOf(r)]); why != whyAlone_.end())
        row["paired_by"] = why->second;
    progress_.measured();
    if (stopRequested()) {  // the run in progress was cut short: discard it, it will run on --resume
        sum_.interrupted = true;
        return false;
    }
    keep(r, withRound(std::move(row), round, processOf(round)));
    if (!records.empty()) appendFrames(records);
    return true;
}

// The first run of a process measures slower (about +15% on llvmpipe: code and caches are cold): its
// configuration runs once first, unrecorded, so every row sees a warm process.
void SweepRun::warmUpOnce(const PlannedRun& r) {
    if (warm_) return;
    warm_ = true;
    PlannedRun warmUp = r;
    warmUp.settings.frames = std::min(warmUp.settings.frames, 30);
    warmUp.settings.quality.enabled = false;
    runner_.run(warmUp, o_.experiment.name, &stopRequested());
}

// A measured row into the record (and the summaries' rounds); a failed run is said at once.
void SweepRun::keep(const PlannedRun& r, Row row) {
    append(row);
    if (plan_.rounds > 1) roundsOf_[r.key].push_back(row);
    ++sum_.done;
    if (row["status"] != "ok") {
        ++sum_.failed;
        std::fprintf(stderr, "%sfirelab: run %s: %s\n", progress_.erase(), r.key.c_str(), row["status"].c_str());
    }
}

// Appends a row; a full disk ends the sweep: whole rows stay, and meta.json counts them.
void SweepRun::append(const Row& row) {
    try {
        if (!csv_) csv_ = std::make_unique<CsvAppender>(plan_.record);
        csv_->append(row);
    } catch (const Error& e) {
        if (e.code() != ErrorCode::Io) throw;  // a row the schema refuses is a bug, not a full disk
        sum_.interrupted = true;
        std::string metaNote;
        try {
            finishMeta();
        } catch (const Error& m) {
            metaNote = "; " + std::string(m.what());
        }
        std::fprintf(stderr, "%s", progress_.erase());
        throw Error(e.code(), std::string(e.what()) + metaNote + "; " + std::to_string(sum_.done + sum_.skipped) +
                                  " run(s) are in it: free some space, then finish with --resume");
    }
}

// runs.csv from the rounds so far, one summary row per configuration in the experiment's order.
std::vector<Row> SweepRun::summaryRows() const {
    std::vector<Row> rows;
    for (const PlannedRun* r : plan_.selected)
        if (auto it = roundsOf_.find(r->key); it != roundsOf_.end()) rows.push_back(summariseRounds(it->second));
    return rows;
}

// meta.json's counts are what runs.csv holds: rewritten at the end, or when a row cannot be written.
void SweepRun::finishMeta() {
    meta_.finished = sum_.interrupted ? "" : utcTimestamp();
    meta_.runsDone = sum_.done + sum_.skipped;
    meta_.runsFailed = sum_.failed;
    if (plan_.rounds > 1) {
        const auto rows = summaryRows();
        meta_.runsDone = static_cast<size_t>(
            std::count_if(rows.begin(), rows.end(), [](const Row& r) { return r.at("rounds") != "0"; }));
        meta_.runsFailed = rows.size() - meta_.runsDone;
    }
    reserve_.release();
    if (plan_.metaFile.empty()) return;
    if (!meta_.loadAfter) meta_.loadAfter = checkMachineLoad("after the last run");
    writeMeta(plan_.metaFile, meta_);
}

// The inputs read again after the last run, against their fingerprints from the start: an effect, sprite or
// camera path edited while the sweep ran was read in two versions by its runs (each run reads its inputs
// afresh). Said, listed in meta.json, and the command ends with 1; --resume and merge then refuse the file.
std::vector<std::string> changedInputs(const SweepOptions& o, const SweepPlan& plan) {
    std::vector<std::pair<std::string, std::string>> now;
    try {
        now = inputFingerprints(plan.all, o.source, o.dataDir);
    } catch (const Error& e) {
        return {e.what()};  // one went missing
    }
    ExperimentConfig after = plan.config;
    after.inputs = now;
    return configDifferences(plan.config, after);
}

namespace {
std::optional<CanarySample> canaryOf(const Row& row) {
    const auto value = [&](const char* column) {
        const auto it = row.find(column);
        return it == row.end() || it->second.empty() ? 0.0 : std::strtod(it->second.c_str(), nullptr);
    };
    const CanarySample c{value("canary_cpu_ms"), value("canary_gl_ms")};
    if (c.cpuMs <= 0 && c.glMs <= 0) return std::nullopt;
    return c;
}

// Sets canary_off in every round that has a canary: 1 when it is off `sweep` (canaryOff); returns how many.
size_t setCanaryFlags(std::vector<Row>& rows, const CanarySample& sweep) {
    size_t off = 0;
    for (Row& row : rows)
        if (const auto c = canaryOf(row)) {
            const bool flagged = canaryOff(*c, sweep);
            row["canary_off"] = flagged ? "1" : "0";
            off += flagged;
        }
    return off;
}
}  // namespace

// Once every round is in, the canary's median over the sweep is known: each round's canary_off is set
// against it, in the record (rewritten whole) and in the rounds the summaries are made from, and the
// number of rounds flagged is said. A lone `run --csv` leaves its file as appended (it may hold other rows).
void SweepRun::flagCanary() {
    if (o_.outDir.empty() || o_.process > 0 || sum_.done == 0) return;  // a process: its parent flags them all
    std::vector<Row> rows = readRunsCsv(plan_.record);
    std::vector<CanarySample> all;
    for (const Row& row : rows)
        if (const auto c = canaryOf(row); c && row.at("status") == "ok") all.push_back(*c);
    if (all.empty()) return;
    const CanarySample median = medianOf(all);
    const size_t off = setCanaryFlags(rows, median);
    writeRunsCsv(plan_.record, rows);
    for (auto& [key, rounds] : roundsOf_) setCanaryFlags(rounds, median);
    std::fprintf(stderr,
                 "%sfirelab: canary (the machine's state, measured beside the frames): %.3g ms CPU, %.3g ms GL median; "
                 "%zu of %zu round(s) measured while it was more than %.0f%% off (canary_off in %s)\n",
                 progress_.erase(), median.cpuMs, median.glMs, off, rows.size(), kCanaryMargin * 100.0,
                 plan_.record.filename().c_str());
}

// After the last round: the summaries of `firelab run`, meta.json's counts, and for a whole sweep with a
// folder the ratios and plots.
SweepSummary SweepRun::finish() {
    if (sum_.done > 0 && !stopRequested()) sum_.inputsChanged = changedInputs(o_, plan_);  // a stop: --resume checks
    for (const std::string& c : sum_.inputsChanged)
        std::fprintf(stderr, "%sfirelab: error: changed while the sweep ran, so its runs read two versions of it: %s\n",
                     progress_.erase(), c.c_str());
    meta_.inputsChanged = sum_.inputsChanged;
    if (summaries_ && !stopRequested())
        for (const Row& row : summaryRows()) summaries_->append(row);
    std::fprintf(stderr, "%s", progress_.erase());
    sum_.interrupted = sum_.interrupted || stopRequested();
    flagCanary();
    if (plan_.rounds > 1 && !o_.outDir.empty() && sum_.done > 0) writeRunsCsv(o_.csv, summaryRows());
    finishMeta();
    if (!plan_.metaFile.empty() && !sum_.interrupted && !o_.shard) writeRatiosOrWarn(o_.outDir, o_.experiment.baseline);
    if (!plan_.metaFile.empty() && o_.plots && !sum_.interrupted) makePlots(o_.csv, o_.outDir, o_.dataDir);
    sum_.interrupted = sum_.interrupted || stopRequested();  // a signal while plotting ends the plots
    return sum_;
}

}  // namespace

SweepSummary runSweep(const SweepOptions& o) {
    StopScope stopScope;  // a signal from here on stops the sweep at a safe point: exit 130, no row
    const SweepPlan plan(o);
    if (stopRequested())  // a signal during the checks: stop before anything is written
        return {.planned = plan.all.size(), .selected = plan.selected.size(), .interrupted = true, .inputsChanged = {}};
    applyResume(plan.resume, plan.record);  // every check has passed: now the record may change
    SweepRun sweep(o, plan);
    if (plan.processes > 1 && o.process == 0) {
        sweep.runProcesses();
    } else {  // this process's rounds: all of them, or process k's of a --processes sweep
        const int first = o.process > 0 ? (o.process - 1) * plan.perProcess + 1 : 1;
        const int last = o.process > 0 ? o.process * plan.perProcess : plan.rounds;
        for (int round = first; round <= last && !sweep.interrupted(); ++round) sweep.runRound(round);
    }
    return sweep.finish();
}

}  // namespace firelab::harness

#include "harness/sweep.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <optional>
#include <set>
#include <sstream>

#include "harness/csv.h"
#include "harness/interrupt.h"
#include "harness/lock.h"
#include "harness/meta.h"
#include "harness/process.h"
#include "render/particle_common.h"
#include "sim/error.h"
#include "sim/snapshot.h"

namespace firelab::harness {
namespace fs = std::filesystem;

namespace {

std::string duration(double seconds) {
    char buf[32];
    const long s = static_cast<long>(seconds + 0.5);
    if (s >= 3600) std::snprintf(buf, sizeof buf, "%ldh%02ldm", s / 3600, (s / 60) % 60);
    else std::snprintf(buf, sizeof buf, "%ldm%02lds", s / 60, s % 60);
    return buf;
}

void checkWritableFolder(const fs::path& dir, const std::string& flag) {
    std::error_code ec;
    fs::create_directories(dir, ec);
    const fs::path probe = dir / (".firelab-write-test." + std::to_string(::getpid()));
    {
        std::ofstream p(probe);
        if (!p) throw Error(ErrorCode::Io, flag + " " + dir.string() + ": cannot write there");
    }
    fs::remove(probe, ec);
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

bool makePlots(const fs::path& csv, const fs::path& outDir, const fs::path& dataDir) {
    const fs::path script = dataDir / "scripts" / "plot.py";
    const char* python = "/usr/bin/python3";
    std::error_code ec;
    if (!fs::exists(script, ec) || !fs::exists(python, ec)) {
        std::fprintf(stderr, "firelab: warning: no plots (%s or %s missing)\n", script.c_str(), python);
        return false;
    }
    if (runProcess({python, script.string(), csv.string(), "--out", outDir.string()}) != 0) {
        std::fprintf(stderr, "firelab: warning: plotting failed (%s %s)\n", python, script.c_str());
        return false;
    }
    return true;
}

SweepSummary runSweep(const SweepOptions& o) {
    StopScope stopScope;  // a signal from here on stops the sweep at a safe point: exit 130, no row
    // Everything that can be checked is checked before the first run.
    const auto all = expand(o.experiment, o.source);
    std::vector<const PlannedRun*> selected;
    for (const auto& r : all)
        if (!o.shard || r.index % o.shard->second == o.shard->first - 1) selected.push_back(&r);
    if (!o.outDir.empty()) checkWritableFolder(o.outDir, "--out");
    if (!o.csv.parent_path().empty()) checkWritableFolder(o.csv.parent_path(), "--csv");
    if (!o.saveFrames.empty()) checkWritableFolder(o.saveFrames, "--save-frames");
    // One writer per results folder (a second sweep or --resume stops here, naming the first), and per
    // CSV (CsvAppender). Taken before the CSV is read, so the runs already done cannot change under us.
    std::optional<WriterLock> folderLock;
    if (!o.outDir.empty()) folderLock.emplace(o.outDir, "--out");
    const fs::path metaFile = o.outDir.empty() ? fs::path() : o.outDir / "meta.json";
    if (!metaFile.empty()) sim::checkedOutputPath(metaFile);
    // Scored frames go beside the results (for report.html) when the sweep has a folder.
    const FrameOutput frames{o.saveFrames, o.outDir};
    std::set<std::string> done;
    std::error_code ec;
    const bool csvExists = fs::exists(o.csv, ec) && fs::file_size(o.csv, ec) > 0;
    if (csvExists) {
        const auto rows = readRunsCsv(o.csv);  // throws BadFile for a file that is not ours
        if (o.refuseExisting && !o.resume)
            throw Error(ErrorCode::BadValue, o.csv.string() + " already holds results; pass --resume to complete it, "
                                                             "or choose another --out");
        if (o.resume)  // runs that failed are measured again
            for (const auto& row : rows)
                if (row.at("experiment") == o.experiment.name && row.at("status") == "ok") done.insert(row.at("run_key"));
    }

    // Sprites are files too: a missing or unreadable one is refused here, before any row.
    std::set<std::pair<std::string, bool>> sprites;  // each distinct sprite, checked once
    for (const PlannedRun* r : selected)
        if (sprites.insert({r->settings.render.texture, r->settings.render.flipbook}).second)
            render::checkSprite(o.dataDir, r->settings.render);

    SweepSummary sum;
    sum.planned = all.size();
    sum.selected = selected.size();
    if (stopRequested()) {  // a signal during the checks: stop before anything is written
        sum.interrupted = true;
        return sum;
    }
    CsvAppender csv(o.csv);
    SpaceReserve reserve(metaFile.empty() ? fs::path() : o.outDir / ".meta.json.reserve");
    Runner runner(o.dataDir, o.debugContext);
    MetaInfo meta;
    meta.experiment = o.experiment.name;
    meta.description = o.experiment.description;
    meta.commandLine = o.commandLine;
    meta.started = utcTimestamp();
    meta.dataDir = o.dataDir;
    meta.runsPlanned = all.size();
    meta.runsInShard = selected.size();
    if (o.shard) meta.shard = std::to_string(o.shard->first) + "/" + std::to_string(o.shard->second);
    meta.gl = runner.glInfo();
    meta.glError = runner.contextError();
    if (!metaFile.empty()) writeMeta(metaFile, meta);
    // meta.json's counts are what runs.csv holds: rewritten at the end, or when a row cannot be written.
    const auto finishMeta = [&] {
        meta.finished = sum.interrupted ? "" : utcTimestamp();
        meta.runsDone = sum.done + sum.skipped;
        meta.runsFailed = sum.failed;
        reserve.release();
        if (!metaFile.empty()) writeMeta(metaFile, meta);
    };
    const bool tty = ::isatty(STDERR_FILENO);
    const auto start = std::chrono::steady_clock::now();
    size_t k = 0, measuredRuns = 0;
    for (const PlannedRun* r : selected) {
        ++k;
        if (done.count(r->key)) {
            ++sum.skipped;
            continue;
        }
        if (stopRequested()) break;
        if (tty) {
            const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
            const std::string eta = measuredRuns ? duration(elapsed / double(measuredRuns) *
                                                            double(selected.size() - k + 1))
                                                 : "?";
            std::fprintf(stderr, "\r\033[K[%zu/%zu] %s %s  ETA %s", k, selected.size(), r->settings.strategy.c_str(),
                         r->key.c_str(), eta.c_str());
        }
        if (measuredRuns == 0) {
            // The first run of a process measures slower (about +15% on llvmpipe: code and caches are
            // cold): run its configuration once, unrecorded, so every row sees a warm process.
            PlannedRun warmUp = *r;
            warmUp.settings.frames = std::min(warmUp.settings.frames, 30);
            warmUp.settings.quality.enabled = false;
            runner.run(warmUp, o.experiment.name, &stopRequested());
        }
        Row row = runner.run(*r, o.experiment.name, &stopRequested(), frames);
        ++measuredRuns;
        if (stopRequested()) {  // the run in progress was cut short: discard it, it will run on --resume
            sum.interrupted = true;
            break;
        }
        try {
            csv.append(row);
        } catch (const Error& e) {  // a full disk: whole rows stay, and meta.json counts them
            sum.interrupted = true;
            std::string metaNote;
            try {
                finishMeta();
            } catch (const Error& m) {
                metaNote = "; " + std::string(m.what());
            }
            if (tty) std::fprintf(stderr, "\r\033[K");
            throw Error(e.code(), std::string(e.what()) + metaNote + "; " + std::to_string(sum.done + sum.skipped) +
                                      " run(s) are in it: free some space, then finish with --resume");
        }
        ++sum.done;
        if (row["status"] != "ok") {
            ++sum.failed;
            std::fprintf(stderr, "%sfirelab: run %s: %s\n", tty ? "\r\033[K" : "", r->key.c_str(), row["status"].c_str());
        }
    }
    if (tty) std::fprintf(stderr, "\r\033[K");
    sum.interrupted = sum.interrupted || stopRequested();
    finishMeta();
    if (!metaFile.empty() && o.plots && !sum.interrupted) makePlots(o.csv, o.outDir, o.dataDir);
    sum.interrupted = sum.interrupted || stopRequested();  // a signal while plotting ends the plots
    return sum;
}

size_t mergeShards(const std::vector<fs::path>& shardDirs, const fs::path& outDir, const fs::path& dataDir,
                   const std::string& commandLine) {
    if (shardDirs.empty()) throw Error(ErrorCode::BadValue, "firelab merge: name at least one shard folder");
    // One row per run: an ok row beats a failed one, and among equals the latest started wins.
    std::map<std::string, Row> byKey;
    std::vector<std::string> order;
    std::string metas;
    for (const auto& dir : shardDirs) {
        const fs::path csv = dir / "runs.csv";
        std::error_code ec;
        if (!fs::exists(csv, ec)) throw Error(ErrorCode::MissingFile, csv.string() + ": no such file (not a shard folder?)");
        for (auto& row : readRunsCsv(csv)) {
            const std::string key = row["experiment"] + "\n" + row["run_key"];
            auto it = byKey.find(key);
            if (it == byKey.end()) {
                order.push_back(key);
                byKey.emplace(key, std::move(row));
                continue;
            }
            const bool okNew = row["status"] == "ok", okOld = it->second["status"] == "ok";
            if (okNew > okOld || (okNew == okOld && row["started"] > it->second["started"])) it->second = std::move(row);
        }
        std::ifstream m(dir / "meta.json");
        std::stringstream text;
        text << m.rdbuf();
        metas += (metas.empty() ? "" : ",\n") + (text.str().empty() ? std::string("null") : text.str());
    }
    std::vector<Row> rows;
    for (const auto& key : order) rows.push_back(std::move(byKey[key]));
    checkWritableFolder(outDir, "--out");
    {
        sim::AtomicFile out(outDir / "runs.csv");
        out.stream() << csvLine(std::vector<std::string>(kRunColumns.begin(), kRunColumns.end()));
        for (const auto& row : rows) out.stream() << csvLine(rowFields(row));
        out.commit();
    }
    {
        sim::AtomicFile meta(outDir / "meta.json");
        meta.stream() << "{\n  \"merged\": " << "\"" << jsonEscape(utcTimestamp()) << "\",\n  \"command_line\": \""
                      << jsonEscape(commandLine) << "\",\n  \"runs\": " << rows.size() << ",\n  \"shards\": [\n"
                      << metas << "\n  ]\n}\n";
        meta.commit();
    }
    makePlots(outDir / "runs.csv", outDir, dataDir);
    return rows.size();
}

}  // namespace firelab::harness

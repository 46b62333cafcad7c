#include "app/harness_commands.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <optional>

#include "app/flag_checks.h"
#include "app/model_flags.h"
#include "app/render_flags.h"
#include "harness/platform/lock.h"
#include "harness/results/compare.h"
#include "harness/results/csv.h"
#include "harness/results/merge.h"
#include "harness/platform/data_dir.h"
#include "harness/settings/experiment.h"
#include "harness/measure/sweep.h"
#include "harness/results/plots.h"
#include "core/error.h"

namespace firelab::app {
namespace fs = std::filesystem;

namespace {

struct SettingFlags {
    ModelFlags model;
    RenderFlags render;
    Flags run;

    void addTo(CLI::App& cmd) {
        // The run-level settings from harness::visitRunSettings (the render options are RenderFlags').
        for (const auto& setting : harness::runSettings()) {
            if (setting.renderOption) continue;
            auto& [text, opt] = run[setting.name];
            const std::string help = harness::settingHelp(setting);
            // On/off settings are flags: --quality alone means true, --quality=false turns it off.
            opt = setting.kind == harness::SettingInfo::Kind::Flag
                      ? cmd.add_flag("--" + setting.name + "{true}", text, help)
                      : cmd.add_option("--" + setting.name, text, help);
            opt->group("Run (lists make sweep axes)");
        }
        render.addTo(cmd, "Render (lists make sweep axes)");
        model.addTo(cmd, false);
    }
    void applyTo(harness::Experiment& e) const {
        for (const auto& given : {givenFlags(run), render.given(), model.given()})
            for (const auto& [name, text] : given) e.override(name, text);
    }
};

int exitCode(const harness::SweepSummary& s) {
    if (s.interrupted) return 130;
    return s.failed || !s.inputsChanged.empty() ? 1 : 0;
}

// `resumable`: the command takes --resume (sweep); `run` does not, and says what to do instead.
void report(const harness::SweepSummary& s, const fs::path& csv, bool resumable) {
    std::fprintf(
        stderr,
        "firelab: %zu run(s) measured, %zu failed, %zu already present, of %zu selected (%zu planned) -> %s%s\n",
        s.done, s.failed, s.skipped, s.selected, s.planned, csv.c_str(),
        !s.interrupted ? ""
        : resumable    ? " [interrupted: finish with --resume]"
                       : " [interrupted: the rows written are whole; measure the rest into another --csv]");
}

// One line per row of the runs just written, for the terminal.
void printRows(const fs::path& csv, size_t last) {
    const auto rows = harness::readRunsCsv(csv);
    const size_t from = rows.size() > last ? rows.size() - last : 0;
    for (size_t i = from; i < rows.size(); ++i) {
        const auto& r = rows[i];
        std::printf("%-22s %9s particles  %10s ms median  %8s fps  %s\n", r.at("strategy").c_str(),
                    r.at("particles").c_str(), r.at("frame_ms_median").c_str(), r.at("fps").c_str(),
                    r.at("status").c_str());
    }
}

}  // namespace

struct HarnessCommands::Impl {
    Impl(const std::string& d, std::string c) : dataDirFlag(d), commandLine(std::move(c)) {}
    const std::string& dataDirFlag;
    std::string commandLine;
    CLI::App* run = nullptr;
    CLI::App* sweep = nullptr;
    CLI::App* merge = nullptr;
    CLI::App* compare = nullptr;
    SettingFlags runFlags, sweepFlags;
    std::string runConfig, runCsv = "runs.csv";
    std::string sweepFile, sweepOut, shard, runSaveFrames, sweepSaveFrames;
    bool resume = false, noPlots = false, debug = false;
    std::vector<std::string> mergeDirs;
    std::string mergeOut;
    std::string compareDir, compareBaseline, compareMetric = "frame";
    bool compareNoPlots = false;
    CLI::Option *runConfigOpt = nullptr, *runCsvOpt = nullptr, *runSaveOpt = nullptr, *sweepOutOpt = nullptr,
                *sweepSaveOpt = nullptr, *mergeOutOpt = nullptr;

    void addRun(CLI::App& cli) {
        run = cli.add_subcommand("run",
                                 "measure one configuration, or the cross product of list-valued flags, into a CSV");
        runFlags.addTo(*run);
        runConfigOpt =
            run->add_option("--config", runConfig, "TOML with [run], [model] (and [sweep]) tables; flags override it");
        runCsvOpt = run->add_option("--csv", runCsv, "CSV to append one row per run to")->capture_default_str();
        run->add_flag("--debug-context", debug, "use a GL debug context");
        runSaveOpt =
            run->add_option("--save-frames", runSaveFrames,
                            "with --quality: keep every scored and reference frame as PNG in DIR/EXPERIMENT/RUN/");
    }

    void addSweep(CLI::App& cli) {
        sweep = cli.add_subcommand("sweep", "run an experiment file into results/NAME/ (runs.csv, meta.json, plots)");
        sweep->add_option("experiment", sweepFile, "experiments/NAME.toml")->required();
        sweepFlags.addTo(*sweep);
        sweepOutOpt = sweep->add_option("--out", sweepOut, "output folder [results/NAME]");
        sweep->add_flag("--resume", resume, "skip runs already in runs.csv (after an interruption)");
        sweep->add_option("--shard", shard, "K/N: run every N-th run starting at the K-th (cluster array jobs)");
        sweep->add_flag("--no-plots", noPlots, "do not run scripts/plot.py");
        sweep->add_flag("--debug-context", debug, "use a GL debug context");
        sweepSaveOpt =
            sweep->add_option("--save-frames", sweepSaveFrames,
                              "with --quality: keep every scored and reference frame as PNG in DIR/EXPERIMENT/RUN/");
    }

    void addMerge(CLI::App& cli) {
        merge = cli.add_subcommand("merge", "join shard folders' runs.csv into one folder, with plots");
        merge->add_option("shards", mergeDirs, "shard folders")->required();
        mergeOutOpt = merge->add_option("--out", mergeOut, "output folder (new: merge never overwrites)")->required();
    }

    void addCompare(CLI::App& cli) {
        compare = cli.add_subcommand("compare",
                                     "each configuration of a sweep against a baseline: paired ratios per "
                                     "round into DIR/ratios.csv, with ratios.png");
        compare->add_option("folder", compareDir, "a sweep's results folder (runs.csv, rounds.csv, meta.json)")
            ->required();
        compare
            ->add_option("--baseline", compareBaseline,
                         "KEY=VALUE: a swept setting and the value to compare "
                         "against, e.g. strategy=points")
            ->required();
        compare->add_flag("--no-plots", compareNoPlots, "do not run scripts/plot.py");
        compare
            ->add_option("--metric", compareMetric,
                         "the ratio listed: frame (wall time), cpu (the process's CPU "
                         "time, steadier on a busy machine) or draw; ratios.csv holds all three")
            ->check(CLI::IsMember({"frame", "cpu", "draw"}))
            ->capture_default_str();
    }

    // What run and sweep set alike: the experiment, the command line, the data folder, the GL context kind
    // and the folder for saved frames.
    harness::SweepOptions sweepOptions(const harness::Experiment& e, const fs::path& dataDir,
                                       const std::string& saveFrames) const {
        harness::SweepOptions o;
        o.experiment = e;
        o.commandLine = commandLine;
        o.dataDir = dataDir;
        o.debugContext = debug;
        o.saveFrames = saveFrames;
        return o;
    }

    int doRun() {
        const fs::path dataDir = harness::findDataDir(dataDirFlag);
        checkNotEmpty(runConfigOpt, runConfig, "a TOML file");
        checkNotEmpty(runCsvOpt, runCsv, "the CSV file to append to");
        checkNotEmpty(runSaveOpt, runSaveFrames, "a folder");
        harness::Experiment e;
        if (!runConfig.empty()) checkTomlPath(runConfig, "--config");
        if (!runConfig.empty()) e = harness::loadExperiment(runConfig);
        if (runConfig.empty()) e.name = "adhoc";
        runFlags.applyTo(e);
        harness::SweepOptions o = sweepOptions(e, dataDir, runSaveFrames);
        o.source = runConfig;
        o.csv = runCsv;
        const auto before = harness::readRunsCsv(o.csv).size();
        const auto s = harness::runSweep(o);
        printRows(o.csv, harness::readRunsCsv(o.csv).size() - before);
        report(s, o.csv, false);
        return exitCode(s);
    }

    int doSweep() {
        const fs::path dataDir = harness::findDataDir(dataDirFlag);
        checkNotEmpty(sweepOutOpt, sweepOut, "the results folder");
        checkNotEmpty(sweepSaveOpt, sweepSaveFrames, "a folder");
        const fs::path file = experimentFile(dataDir);
        harness::Experiment e = harness::loadExperiment(file);
        sweepFlags.applyTo(e);
        harness::SweepOptions o = sweepOptions(e, dataDir, sweepSaveFrames);
        o.source = file.string();
        o.outDir = sweepOut.empty() ? defaultOutDir(dataDir, e.name) : fs::path(sweepOut);
        o.csv = o.outDir / "runs.csv";
        o.resume = resume;
        o.refuseExisting = true;
        if (!shard.empty()) o.shard = harness::parseShard(shard);
        o.plots = !noPlots;
        const auto s = harness::runSweep(o);
        report(s, o.csv, true);
        return exitCode(s);
    }

    // The sweep's experiment file: as given, else under the data folder; a TOML file.
    fs::path experimentFile(const fs::path& dataDir) const {
        if (sweepFile.empty()) throw Error(ErrorCode::BadValue, "experiment '': empty; name experiments/NAME.toml");
        fs::path file = sweepFile;
        std::error_code ec;
        if (!fs::exists(file, ec) && fs::exists(dataDir / file, ec)) file = dataDir / file;
        checkTomlPath(file, "experiment file");
        return file;
    }

    // results/NAME, in the data folder when it has results/, else in the working folder.
    static fs::path defaultOutDir(const fs::path& dataDir, const std::string& name) {
        std::error_code ec;
        return fs::exists(dataDir / "results", ec) ? dataDir / "results" / name : fs::path("results") / name;
    }

    int doMerge() {
        const fs::path dataDir = harness::findDataDir(dataDirFlag);
        checkNotEmpty(mergeOutOpt, mergeOut, "the folder to merge into");
        std::vector<fs::path> dirs(mergeDirs.begin(), mergeDirs.end());
        const auto merged = harness::mergeShards(dirs, mergeOut, dataDir, commandLine);
        std::fprintf(stderr, "firelab: merged %zu run(s) from %zu shard(s) into %s\n", merged.rows, merged.shards,
                     mergeOut.c_str());
        return 0;
    }

    int doCompare() {
        // The sweep's lock: a sweep still writing the folder (its runs.csv replaced each round) is named, not
        // compared half-way into a ratios.csv that its end would leave stale.
        std::error_code ec;
        std::optional<harness::WriterLock> lock;
        if (fs::is_directory(compareDir, ec)) lock.emplace(compareDir, "compare");
        const auto c = harness::compareToBaseline(compareDir, compareBaseline);
        for (const auto& w : c.warnings) std::fprintf(stderr, "firelab: warning: %s\n", w.c_str());
        std::printf("%-48s %6s  %s ratio [95%% interval]\n", ("against " + c.baseline).c_str(), "rounds",
                    compareMetric.c_str());
        const auto interval = [](const std::optional<harness::Interval>& i) {
            if (!i) return std::string("(none recorded)");
            char buf[64];
            std::snprintf(buf, sizeof buf, "%.3f [%.3f, %.3f]", i->median, i->low, i->high);
            return std::string(buf);
        };
        for (const auto& r : c.rows) {
            const std::optional<harness::Interval> ratio = compareMetric == "cpu"    ? r.cpuRatio
                                                           : compareMetric == "draw" ? r.drawRatio
                                                                                     : std::optional(r.frameRatio);
            std::printf("%-48s %6zu  %s\n", r.runKey.c_str(), r.rounds, (r.rounds ? interval(ratio) : r.note).c_str());
        }
        std::fprintf(stderr, "firelab: %zu configuration(s) against %s -> %s\n", c.rows.size(), c.baseline.c_str(),
                     c.file.c_str());
        if (!compareNoPlots)
            harness::makePlots(fs::path(compareDir) / "runs.csv", compareDir, harness::findDataDir(dataDirFlag));
        return 0;
    }
};

HarnessCommands::HarnessCommands(CLI::App& cli, const std::string& dataDirFlag, std::string commandLine)
    : impl_(std::make_unique<Impl>(dataDirFlag, std::move(commandLine))) {
    impl_->addRun(cli);
    impl_->addSweep(cli);
    impl_->addMerge(cli);
    impl_->addCompare(cli);
}

HarnessCommands::~HarnessCommands() = default;

int HarnessCommands::runIfParsed() {
    if (impl_->run->parsed()) return impl_->doRun();
    if (impl_->sweep->parsed()) return impl_->doSweep();
    if (impl_->merge->parsed()) return impl_->doMerge();
    if (impl_->compare->parsed()) return impl_->doCompare();
    return -1;
}

}  // namespace firelab::app

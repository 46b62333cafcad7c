// `firelab sweep FILE.toml`: an experiment into results/NAME/ (runs.csv, rounds.csv, meta.json, plots, report),
// resumable, or one shard of it.
#include "app/command.h"
#include "app/commands/measure_output.h"
#include "app/flags/flag_checks.h"
#include "app/flags/setting_flags.h"
#include "harness/platform/data_dir.h"

namespace firelab::app {
namespace {
namespace fs = std::filesystem;

class Sweep : public Command {
public:
    void addTo(CLI::App& cmd) override {
        cmd.add_option("experiment", file_, "experiments/NAME.toml")->required();
        flags_.addTo(cmd);
        outOpt_ = cmd.add_option("--out", out_, "output folder [results/NAME]");
        cmd.add_flag("--resume", resume_, "skip runs already in runs.csv (after an interruption)");
        cmd.add_option("--shard", shard_,
                       "K/N: one of N shards (cluster array jobs): every N-th run from the K-th, a baseline's group "
                       "kept whole (the runs it is compared with go to its shard)");
        cmd.add_flag("--no-plots", noPlots_, "do not run scripts/plot.py");
        cmd.add_flag("--debug-context", debug_, "use a GL debug context");
        // Internal: the sweep of --processes K starts itself again once per process with --process k.
        cmd.add_option("--process", process_, "(internal) measure process k's rounds of a --processes sweep")
            ->group("");
        saveOpt_ =
            cmd.add_option("--save-frames", saveFrames_,
                           "with --quality: keep every scored and reference frame as PNG in DIR/EXPERIMENT/RUN/");
    }

    int run(const CommandContext& context) override {
        const fs::path dataDir = harness::findDataDir(context.dataDir);
        checkNotEmpty(outOpt_, out_, "the results folder");
        checkNotEmpty(saveOpt_, saveFrames_, "a folder");
        const fs::path file = experimentFile(dataDir);
        harness::Experiment e = harness::loadExperiment(file);
        flags_.applyTo(e);
        harness::SweepOptions o = sweepOptions(e, context.commandLine, dataDir, debug_, saveFrames_);
        o.source = file.string();
        o.outDir = out_.empty() ? defaultOutDir(dataDir, e.name) : fs::path(out_);
        o.csv = o.outDir / "runs.csv";
        o.resume = resume_ || process_ > 0;  // a process continues its sweep's folder
        o.process = process_;
        o.relaunch = context.argv;
        o.refuseExisting = true;
        if (!shard_.empty()) o.shard = harness::parseShard(shard_);
        o.plots = !noPlots_;
        const auto s = harness::runSweep(o);
        report(s, o.csv, true);
        return exitCode(s);
    }

private:
    // The sweep's experiment file: as given, else under the data folder; a TOML file.
    fs::path experimentFile(const fs::path& dataDir) const {
        if (file_.empty()) throw Error(ErrorCode::BadValue, "experiment '': empty; name experiments/NAME.toml");
        fs::path file = file_;
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

    SettingFlags flags_;
    std::string file_, out_, shard_, saveFrames_;
    bool resume_ = false, noPlots_ = false, debug_ = false;
    int process_ = 0;
    CLI::Option *outOpt_ = nullptr, *saveOpt_ = nullptr;
};

}  // namespace

extern constexpr CommandEntry kSweepCommand{"sweep",
                                            "run an experiment file into results/NAME/ (runs.csv, meta.json, plots)",
                                            []() -> std::unique_ptr<Command> { return std::make_unique<Sweep>(); }};

}  // namespace firelab::app

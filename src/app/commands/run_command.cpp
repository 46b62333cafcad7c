// `firelab run`: measure one configuration, or the cross product of list-valued flags, appending one row per
// run to a CSV, and print those rows.
#include <cstdio>

#include "app/command.h"
#include "app/commands/measure_output.h"
#include "app/flags/flag_checks.h"
#include "app/flags/setting_flags.h"
#include "harness/platform/data_dir.h"
#include "harness/results/compare.h"
#include "harness/results/csv.h"

namespace firelab::app {
namespace {
namespace fs = std::filesystem;

// What else a row's run key sets (its swept settings but strategy and particles, which lead the line): "" for
// a lone run ("single") or one that sweeps only those two. harness::splitRunKey keeps a value holding ';' whole.
std::string otherSwept(const std::string& runKey) {
    std::string out;
    for (const auto& [name, value] : harness::splitRunKey(runKey))
        if (name != "strategy" && name != "particles") out += (out.empty() ? "" : " ") + name + "=" + value;
    return out;
}

// One line per row of the runs just written, for the terminal, with the settings its run was swept over.
void printRows(const fs::path& csv, size_t last) {
    const auto rows = harness::readRunsCsv(csv);
    const size_t from = rows.size() > last ? rows.size() - last : 0;
    for (size_t i = from; i < rows.size(); ++i) {
        const auto& r = rows[i];
        const std::string swept = otherSwept(r.at("run_key"));
        std::printf("%-22s %9s particles  %10s ms median  %8s fps  %s%s%s\n", r.at("strategy").c_str(),
                    r.at("particles").c_str(), r.at("frame_ms_median").c_str(), r.at("fps").c_str(),
                    r.at("status").c_str(), swept.empty() ? "" : "  ", swept.c_str());
    }
}

class Run : public Command {
public:
    void addTo(CLI::App& cmd) override {
        flags_.addTo(cmd);
        configOpt_ =
            cmd.add_option("--config", config_, "TOML with [run], [model] (and [sweep]) tables; flags override it");
        csvOpt_ = cmd.add_option("--csv", csv_, "CSV to append one row per run to")->capture_default_str();
        cmd.add_flag("--debug-context", debug_, "use a GL debug context");
        saveOpt_ =
            cmd.add_option("--save-frames", saveFrames_,
                           "with --quality: keep every scored and reference frame as PNG in DIR/EXPERIMENT/RUN/");
    }

    int run(const CommandContext& context) override {
        const fs::path dataDir = harness::findDataDir(context.dataDir);
        checkNotEmpty(configOpt_, config_, "a TOML file");
        checkNotEmpty(csvOpt_, csv_, "the CSV file to append to");
        checkNotEmpty(saveOpt_, saveFrames_, "a folder");
        harness::Experiment e;
        if (!config_.empty()) checkTomlPath(config_, "--config");
        if (!config_.empty()) e = harness::loadExperiment(config_);
        if (config_.empty()) e.name = "adhoc";
        flags_.applyTo(e);
        harness::SweepOptions o = sweepOptions(e, context.commandLine, dataDir, debug_, saveFrames_);
        o.source = config_;
        o.csv = csv_;
        const auto before = harness::readRunsCsv(o.csv).size();
        const auto s = harness::runSweep(o);
        printRows(o.csv, harness::readRunsCsv(o.csv).size() - before);
        report(s, o.csv, false);
        return exitCode(s);
    }

private:
    SettingFlags flags_;
    std::string config_, csv_ = "runs.csv", saveFrames_;
    bool debug_ = false;
    CLI::Option *configOpt_ = nullptr, *csvOpt_ = nullptr, *saveOpt_ = nullptr;
};

}  // namespace

extern constexpr CommandEntry kRunCommand{
    "run", "measure one configuration, or the cross product of list-valued flags, into a CSV",
    []() -> std::unique_ptr<Command> { return std::make_unique<Run>(); }};

}  // namespace firelab::app

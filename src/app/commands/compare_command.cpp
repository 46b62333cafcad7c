// `firelab compare DIR --baseline KEY=VALUE`: each configuration of a sweep against its baseline, as paired
// ratios (per pair of frames of one cycle where the two were drawn in alternation, else per round) with a
// bootstrap interval, into DIR/ratios.csv and ratios.png; how many paired rounds the canary flagged.
#include <cstdio>
#include <optional>

#include "app/command.h"
#include "harness/platform/data_dir.h"
#include "harness/measure/canary.h"
#include "harness/platform/lock.h"
#include "harness/results/compare.h"
#include "harness/results/plots.h"

namespace firelab::app {
namespace {
namespace fs = std::filesystem;

class Compare : public Command {
public:
    void addTo(CLI::App& cmd) override {
        cmd.add_option("folder", dir_, "a sweep's results folder (runs.csv, rounds.csv, meta.json)")->required();
        cmd.add_option("--baseline", baseline_,
                       "KEY=VALUE: a swept setting and the value to compare "
                       "against, e.g. strategy=points")
            ->required();
        cmd.add_flag("--no-plots", noPlots_, "do not run scripts/plot.py");
        cmd.add_option("--metric", metric_,
                       "the ratio listed and plotted (ratios.png, report.html): frame (wall time), cpu (the "
                       "process's CPU time, steadier on a busy machine) or draw; ratios.csv holds all three")
            ->check(CLI::IsMember({"frame", "cpu", "draw"}))
            ->capture_default_str();
    }

    int run(const CommandContext& context) override {
        // The sweep's lock: a sweep still writing the folder (its runs.csv replaced each round) is named, not
        // compared half-way into a ratios.csv that its end would leave stale.
        std::error_code ec;
        std::optional<harness::WriterLock> lock;
        if (fs::is_directory(dir_, ec)) lock.emplace(dir_, "compare");
        const auto c = harness::compareToBaseline(dir_, baseline_);
        for (const auto& w : c.warnings) std::fprintf(stderr, "firelab: warning: %s\n", w.c_str());
        std::printf("%-48s %6s %8s  %s ratio [95%% interval]\n", ("against " + c.baseline).c_str(), "rounds", "pairs",
                    metric_.c_str());
        const auto interval = [](const std::optional<harness::Interval>& i) {
            if (!i) return std::string("(none recorded)");
            char buf[64];
            std::snprintf(buf, sizeof buf, "%.3f [%.3f, %.3f]", i->median, i->low, i->high);
            return std::string(buf);
        };
        size_t offRows = 0, offRounds = 0, pairedRounds = 0;
        for (const auto& r : c.rows) {
            const std::optional<harness::Interval> ratio = metric_ == "cpu"    ? r.cpuRatio
                                                           : metric_ == "draw" ? r.drawRatio
                                                                               : std::optional(r.frameRatio);
            const std::string how = r.pairedBy.rfind("rounds", 0) == 0 ? " (" + r.pairedBy + ")" : "";
            std::printf("%-48s %6zu %8zu  %s%s\n", r.runKey.c_str(), r.rounds, r.pairs,
                        (r.rounds ? interval(ratio) : r.note).c_str(), how.c_str());
            offRows += r.canaryOffRounds > 0;
            offRounds += r.canaryOffRounds;
            pairedRounds += r.rounds;
        }
        if (offRounds > 0)  // the machine's state moved while these were measured (harness/measure/canary.h)
            std::fprintf(stderr,
                         "firelab: warning: %zu of %zu paired rounds (in %zu of %zu rows) ran while the canary was "
                         "off its sweep's median by more than %.0f%%: canary_off_rounds in ratios.csv\n",
                         offRounds, pairedRounds, offRows, c.rows.size(), harness::kCanaryMargin * 100.0);
        std::fprintf(stderr, "firelab: %zu configuration(s) against %s -> %s\n", c.rows.size(), c.baseline.c_str(),
                     c.file.c_str());
        if (!noPlots_)
            harness::makePlots(fs::path(dir_) / "runs.csv", dir_, harness::findDataDir(context.dataDir), metric_);
        return 0;
    }

private:
    std::string dir_, baseline_, metric_ = "frame";
    bool noPlots_ = false;
};

}  // namespace

extern constexpr CommandEntry kCompareCommand{
    "compare",
    "each configuration of a sweep against a baseline: paired ratios (per pair of frames drawn in alternation, "
    "else per round) into DIR/ratios.csv, with ratios.png",
    []() -> std::unique_ptr<Command> { return std::make_unique<Compare>(); }};

}  // namespace firelab::app

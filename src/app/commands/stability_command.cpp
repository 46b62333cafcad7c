// `firelab stability A [B]`: how steady a sweep's figures are (where its variance comes from: frames, rounds,
// processes, the machine's state; the rounds a 5 % interval needs here) and how far two sweeps of one experiment
// agree. The statistics are scripts/stability.py's (run by Debian's python3, as the plots are); this command
// is its front door, with firelab's exit codes.
#include <cstdio>

#include "app/command.h"
#include "core/error.h"
#include "harness/platform/data_dir.h"
#include "harness/platform/process.h"
#include "harness/results/plots.h"

namespace firelab::app {
namespace {

class Stability : public Command {
public:
    void addTo(CLI::App& cmd) override {
        cmd.add_option("sweeps", folders_, "one sweep's folder, or two of one experiment to compare")
            ->required()
            ->expected(1, 2);
        cmd.add_option("--baseline", baseline_, "KEY=VALUE the ratios are taken against [strategy=points]");
        cmd.add_option("--metric", metric_, "the time: frame (wall), cpu (the process's CPU time) or draw")
            ->check(CLI::IsMember({"frame", "cpu", "draw"}))
            ->capture_default_str();
        cmd.add_option("--ratio-tolerance", ratioTolerance_, "two sweeps' ratios agree within this fraction")
            ->capture_default_str();
        cmd.add_option("--plot", plot_,
                       "PNG: per sweep, the canary's record and the baseline's rounds, and the ratios' variance by "
                       "level");
        cmd.add_flag("--json", json_, "the figures as JSON");
    }

    int run(const CommandContext& context) override {
        std::vector<std::string> argv = harness::scriptCommand(harness::findDataDir(context.dataDir), "stability.py");
        argv.insert(argv.end(), folders_.begin(), folders_.end());
        if (!baseline_.empty()) argv.insert(argv.end(), {"--baseline", baseline_});
        argv.insert(argv.end(), {"--metric", metric_, "--ratio-tolerance", std::to_string(ratioTolerance_)});
        if (!plot_.empty()) argv.insert(argv.end(), {"--plot", plot_});
        if (json_) argv.emplace_back("--json");
        std::string out;
        const int rc = harness::runProcess(argv, &out);
        std::fputs(out.c_str(), stdout);
        return rc < 0 ? 130 : rc;  // 0 steady, 1 two sweeps disagree, 2 bad input (the script says which)
    }

private:
    std::vector<std::string> folders_;
    std::string baseline_, metric_ = "frame", plot_;
    double ratioTolerance_ = 0.05;
    bool json_ = false;
};

}  // namespace

extern constexpr CommandEntry kStabilityCommand{
    "stability",
    "how steady a sweep is (its variance by level, the rounds a 5% interval needs) and how far two sweeps agree",
    []() -> std::unique_ptr<Command> { return std::make_unique<Stability>(); }};

}  // namespace firelab::app

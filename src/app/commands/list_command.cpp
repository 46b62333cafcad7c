// `firelab list`: the rendering strategies, one line each, and the render options with their help lines.
#include <cstdio>

#include "app/command.h"
#include "harness/settings/run_settings.h"
#include "render/strategies/strategy.h"

namespace firelab::app {
namespace {

class List : public Command {
public:
    void addTo(CLI::App&) override {}

    int run(const CommandContext&) override {
        for (const auto& s : render::strategies())
            std::printf("%-22s %s%s\n", std::string(s.name).c_str(), std::string(s.summary).c_str(),
                        s.simulatesOnGpu ? " [GPU-simulated]" : "");
        std::printf("\nrender options (--NAME for run, sweep, capture and view; the same keys in experiment files):\n");
        for (const auto& o : harness::renderOptions())
            std::printf("  %-16s %s\n", o.name.c_str(), harness::renderOptionHelp(o).c_str());
        return 0;
    }
};

}  // namespace

extern constexpr CommandEntry kListCommand{"list", "list the rendering strategies and the render options",
                                           []() -> std::unique_ptr<Command> { return std::make_unique<List>(); }};

}  // namespace firelab::app

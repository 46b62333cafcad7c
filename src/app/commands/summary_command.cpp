// No subcommand: simulate --time seconds and summarise the pool and the step's cost.
#include <chrono>
#include <cstdio>

#include "app/command.h"
#include "app/flags/model_flags.h"
#include "app/flags/sim_flags.h"
#include "sim/fire_system.h"

namespace firelab::app {
namespace {

class Summary : public Command {
public:
    void addTo(CLI::App& cli) override {
        model_.addTo(cli);
        sim_.addTo(cli, "seconds to simulate");
    }

    int run(const CommandContext&) override {
        const sim::FireParams params = model_.resolve();
        const float dt = checkedDt(sim_.dt);
        const long n = steps(sim_.time, dt);
        sim::FireSystem fire(params, checkedThreads(sim_.threads));
        const auto t0 = std::chrono::steady_clock::now();
        for (long i = 0; i < n; ++i) fire.step(dt);
        const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
        std::printf("firelab: simulated %.2f s of fire (%ld steps of %.4f s) on %u thread(s)\n", fire.time(), n,
                    double(dt), fire.threads());
        std::printf(
            "  emitter %s, %s positions, target %u particles, alive %zu (pool of %zu: %.1f B per live particle)\n",
            sim::getParam(params, "emitter").c_str(), sim::getParam(params, "distribution").c_str(), params.particles,
            fire.pool().alive(), fire.pool().capacity(),
            fire.pool().alive() ? static_cast<double>(fire.pool().bytes()) / static_cast<double>(fire.pool().alive())
                                : 0.0);
        std::printf("  %.3f ms per step\n", n ? ms / static_cast<double>(n) : 0.0);
        return 0;
    }

private:
    ModelFlags model_;
    SimFlags sim_;
};

}  // namespace

extern constexpr CommandEntry kSummaryCommand{
    "", "simulate --time seconds of the model and summarise the pool and the step's cost",
    []() -> std::unique_ptr<Command> { return std::make_unique<Summary>(); }};

}  // namespace firelab::app

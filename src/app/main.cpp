// firelab: the command line. Subcommands: snapshot (particle state as CSV), and the summary that runs
// with no subcommand. Exit codes: 0 success, 2 bad usage or input, 1 runtime failure.
#include <chrono>
#include <cmath>
#include <cstdio>
#include <iostream>

#include <CLI/CLI.hpp>

#include "app/model_flags.h"
#include "sim/error.h"
#include "sim/fire_system.h"
#include "sim/snapshot.h"

namespace firelab::app {
namespace {

float checkedDt(float dt) {
    if (!std::isfinite(dt) || dt <= 0.0f || dt > 1.0f)
        throw Error(ErrorCode::BadValue, "--dt " + std::to_string(dt) + ": must be in (0, 1] seconds");
    return dt;
}

int steps(float time, float dt) {
    if (!std::isfinite(time) || time < 0.0f || time > 3600.0f)
        throw Error(ErrorCode::BadValue, "--time " + std::to_string(time) + ": must be in [0, 3600] seconds");
    return static_cast<int>(std::lround(time / dt));
}

unsigned checkedThreads(int threads) {
    if (threads < 1 || threads > 256)
        throw Error(ErrorCode::BadValue, "--threads " + std::to_string(threads) + ": must be in [1, 256]");
    return static_cast<unsigned>(threads);
}

struct SimOptions {
    float time = 2.0f;
    float dt = 1.0f / 60.0f;
    int threads = 1;

    void addTo(CLI::App& cmd, const char* timeHelp) {
        cmd.add_option("--time", time, timeHelp)->capture_default_str();
        cmd.add_option("--dt", dt, "fixed simulation step, s")->capture_default_str();
        cmd.add_option("--threads", threads, "simulation threads (results do not depend on it)")
            ->capture_default_str();
    }
};

int runSnapshot(const ModelFlags& model, const SimOptions& so, const std::string& out) {
    const sim::FireParams params = model.resolve();
    const float dt = checkedDt(so.dt);
    const int n = steps(so.time, dt);
    sim::AtomicFile file(out);  // fails before simulating if the output cannot be written
    sim::FireSystem fire(params, checkedThreads(so.threads));
    if (n == 0)
        fire.emit(params.particles);  // the emitter's initial distributions, for inspection
    else
        for (int i = 0; i < n; ++i) fire.step(dt);
    sim::writeSnapshotCsv(fire, file.stream());
    file.commit();
    std::fprintf(stderr, "wrote %zu particles at t=%.3f s to %s\n", fire.pool().alive(), fire.time(), out.c_str());
    return 0;
}

int runSummary(const ModelFlags& model, const SimOptions& so) {
    const sim::FireParams params = model.resolve();
    const float dt = checkedDt(so.dt);
    const int n = steps(so.time, dt);
    sim::FireSystem fire(params, checkedThreads(so.threads));
    const auto t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < n; ++i) fire.step(dt);
    const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    std::printf("firelab: simulated %.2f s of fire (%d steps of %.4f s) on %u thread(s)\n", fire.time(), n,
                double(dt), fire.threads());
    std::printf("  emitter %s, %s positions, target %u particles, alive %zu (pool %zu, %zu B/particle)\n",
                sim::getParam(params, "emitter").c_str(), sim::getParam(params, "distribution").c_str(),
                params.particles, fire.pool().alive(), fire.pool().capacity(), fire.pool().bytesPerParticle());
    std::printf("  %.3f ms per step\n", n ? ms / n : 0.0);
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    CLI::App cli{"firelab: a testbed for real-time fire rendering research"};
    cli.set_version_flag("--version", FIRELAB_VERSION);
    cli.require_subcommand(0, 1);

    ModelFlags summaryModel;
    SimOptions summaryOpts;
    summaryModel.addTo(cli);
    summaryOpts.addTo(cli, "seconds to simulate");

    auto* snapshot = cli.add_subcommand("snapshot", "simulate from an empty system and write every live particle as CSV");
    ModelFlags snapModel;
    SimOptions snapOpts;
    std::string out;
    snapModel.addTo(*snapshot);
    snapOpts.addTo(*snapshot, "seconds to simulate; 0 writes N freshly emitted particles");
    snapshot->add_option("--out", out, "output CSV file")->required();

    try {
        cli.parse(argc, argv);
        if (snapshot->parsed()) return runSnapshot(snapModel, snapOpts, out);
        return runSummary(summaryModel, summaryOpts);
    } catch (const CLI::ParseError& e) {
        return cli.exit(e) == 0 ? 0 : 2;
    } catch (const Error& e) {
        std::fprintf(stderr, "firelab: error: %s\n", e.what());
        return exitCodeFor(e.code());
    } catch (const std::bad_alloc&) {
        std::fprintf(stderr, "firelab: error: out of memory; try fewer --particles\n");
        return 1;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "firelab: error: %s\n", e.what());
        return 1;
    }
}

}  // namespace firelab::app

int main(int argc, char** argv) { return firelab::app::main(argc, argv); }

// fluid::validate: what the grid fluid refuses before it allocates anything (fluid_sim.h).
#include <cmath>
#include <cstdio>
#include <string>
#include <thread>

#include <glm/geometric.hpp>

#include "core/error.h"
#include "core/text.h"
#include "fluid/fluid_sim.h"
#include "fluid/poisson.h"
#include "sim/fire_system.h"

namespace firelab::fluid {

std::string gridText(const glm::ivec3& g) {
    return std::to_string(g.x) + "x" + std::to_string(g.y) + "x" + std::to_string(g.z);
}

namespace {

void checkGrid(const FluidParams& p) {
    for (int a = 0; a < 3; ++a)
        if (p.grid[a] < kMinGridCells || p.grid[a] > kMaxGridCells)
            throw Error(ErrorCode::BadValue, "--grid " + gridText(p.grid) + ": each axis must be an integer in [" +
                                                 std::to_string(kMinGridCells) + ", " + std::to_string(kMaxGridCells) +
                                                 "] (NXxNYxNZ)");
    const double cells = static_cast<double>(p.grid.x) * p.grid.y * p.grid.z;
    if (cells > kMaxGridCellCount) {
        char msg[240];
        std::snprintf(msg, sizeof msg,
                      "--grid %s: %.0f cells, more than the %.0f (512x512x256) a grid may have; it would need "
                      "%.1f GiB",
                      gridText(p.grid).c_str(), cells, kMaxGridCellCount, FluidSim::bytesFor(p) / 1073741824.0);
        throw Error(ErrorCode::TooLarge, msg);
    }
    const double bytes = FluidSim::bytesFor(p), budget = sim::FireSystem::memoryBudgetBytes();
    if (budget > 0 && bytes > budget) {
        char msg[240];
        std::snprintf(msg, sizeof msg,
                      "--grid %s: the grid would need %.1f GiB, more than the %.1f GiB this process may use (three "
                      "quarters of the machine's memory, or of ulimit -v)",
                      gridText(p.grid).c_str(), bytes / 1073741824.0, budget / 1073741824.0);
        throw Error(ErrorCode::TooLarge, msg);
    }
}

// Multigrid halves the grid along every axis at least once.
void checkMultigrid(const FluidParams& p) {
    if (p.solver != Solver::Multigrid && p.solver != Solver::Mgpcg) return;
    if (coarsenings(p.grid) > 0) return;
    const char* axes[] = {"x", "y", "z"};
    std::string odd;
    for (int a = 0; a < 3; ++a)
        if (p.grid[a] % 2 != 0) odd += std::string(odd.empty() ? "" : ", ") + axes[a];
    throw Error(ErrorCode::BadValue,
                "--solver " + std::string(kSolverNames[static_cast<size_t>(p.solver)]) + " with --grid " +
                    gridText(p.grid) + ": multigrid halves every axis of the grid, and this grid's " + odd +
                    " cannot be halved (odd); use a grid whose every axis is even, or --solver pcg or jacobi");
}

// The source's fastest birth must cross at most max-cfl cells in a sub-step of the most sub-steps.
void checkCfl(const FluidParams& p, const sim::FireParams& source, float dt) {
    const float fastest = glm::length(glm::abs(source.speedMean) + source.speedVar);
    const float cells = fastest * dt / (static_cast<float>(kMaxSubsteps) * p.cell);
    if (cells <= p.maxCfl) return;
    char msg[320];
    std::snprintf(msg, sizeof msg,
                  "--cell %s with --dt %s: the source's fastest birth (%.3g m/s, --speed plus --speed-var) would "
                  "cross %.3g cells a sub-step even in %d sub-steps, beyond --max-cfl %s; refused (a slower flow is "
                  "sub-stepped): use a larger --cell, a smaller --dt, or a larger --max-cfl",
                  core::formatFloat(p.cell).c_str(), core::formatFloat(dt).c_str(), static_cast<double>(fastest),
                  static_cast<double>(cells), kMaxSubsteps, core::formatFloat(p.maxCfl).c_str());
    throw Error(ErrorCode::BadValue, msg);
}

// --combustion mixing burns the source's --heat-release through a burner, over at least kMinCellsAcrossFire cells
// across the fire's characteristic diameter D* = (Q / (rho c_p T sqrt(g)))^(2/5).
void checkMixing(const FluidParams& p, const sim::FireParams& source) {
    if (p.combustion != Combustion::Mixing) return;
    if (p.device == Device::Gpu)  // refused while planning, before any run: the compute shaders burn at a rate only
        throw Error(ErrorCode::BadValue,
                    "--combustion mixing with --fluid-device gpu: the compute shaders burn fuel at --burn-rate only; "
                    "use --combustion rate, or --fluid-device cpu (or auto)");
    if (!(source.heatRelease > 0.0f))
        throw Error(ErrorCode::BadValue,
                    "--combustion mixing: its burner feeds fuel at the rate that releases --heat-release, and none is "
                    "given; give --heat-release (kW) with --fire-diameter (m), or --combustion rate");
    const double cells = characteristicDiameter(source.heatRelease, p.ambient) / p.cell;
    if (cells >= kMinCellsAcrossFire) return;
    char msg[400];
    std::snprintf(msg, sizeof msg,
                  "--cell %s with --heat-release %s: the fire's characteristic diameter D* is %.3g m, %.2g cells; "
                  "--combustion mixing resolves a fire with at least %.0f cells across D* (FDS's guidance: 5 to 20); "
                  "use a --cell of at most %.3g m",
                  core::formatFloat(p.cell).c_str(), core::formatFloat(source.heatRelease).c_str(),
                  characteristicDiameter(source.heatRelease, p.ambient), cells, kMinCellsAcrossFire,
                  characteristicDiameter(source.heatRelease, p.ambient) / kMinCellsAcrossFire);
    throw Error(ErrorCode::BadValue, msg);
}

}  // namespace

double characteristicDiameter(double kw, double ambient) {
    return std::pow(kw / (airDensity(ambient) * kAirHeatCapacity * ambient * std::sqrt(static_cast<double>(kGravity))),
                    0.4);
}

void checkThreads(unsigned threads) {
    const unsigned cores = std::thread::hardware_concurrency();
    if (threads >= 1 && (cores == 0 || threads <= cores)) return;
    throw Error(ErrorCode::BadValue, "--threads " + std::to_string(threads) +
                                         ": the grid fluid steps on 1 to this machine's " + std::to_string(cores) +
                                         " cores (more threads than cores only wait on each other)");
}

void validate(const FluidParams& p, const sim::FireParams& source, float dt) {
    if (!std::isfinite(p.cell) || p.cell <= 0.0f)
        throw Error(ErrorCode::BadValue,
                    "--cell " + core::formatFloat(p.cell) + ": must be a positive length in (0, 10] m");
    if (p.iterations < 0 || p.iterations > kUnboundedIterations)
        throw Error(ErrorCode::BadValue, "--solver-iterations " + std::to_string(p.iterations) +
                                             ": must be an integer in [0, 100000] (0: no bound)");
    if (p.iterations == 0 && !(p.tolerance > 0.0f))
        throw Error(ErrorCode::BadValue, "--solver-iterations 0 with --solver-tolerance " +
                                             core::formatFloat(p.tolerance) +
                                             ": the solver would have neither an iteration bound nor a tolerance; give "
                                             "--solver-iterations of at least 1 or a --solver-tolerance in (0, 1]");
    checkGrid(p);
    checkMultigrid(p);
    checkCfl(p, source, dt);
    checkMixing(p, source);
}

}  // namespace firelab::fluid

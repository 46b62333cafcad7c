// fluid::validate: what the grid fluid refuses before it allocates anything (fluid_sim.h).
#include <cmath>
#include <cstdio>
#include <string>

#include <glm/geometric.hpp>

#include "core/error.h"
#include "core/text.h"
#include "fluid/fluid_sim.h"
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

}  // namespace

void validate(const FluidParams& p, const sim::FireParams& source, float dt) {
    if (!std::isfinite(p.cell) || p.cell <= 0.0f)
        throw Error(ErrorCode::BadValue,
                    "--cell " + core::formatFloat(p.cell) + ": must be a positive length in (0, 10] m");
    if (p.iterations < 1)
        throw Error(ErrorCode::BadValue,
                    "--solver-iterations " + std::to_string(p.iterations) + ": must be an integer in [1, 100000]");
    checkGrid(p);
    checkCfl(p, source, dt);
}

}  // namespace firelab::fluid

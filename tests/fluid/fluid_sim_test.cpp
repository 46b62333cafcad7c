// The grid fluid's step on the CPU (fluid/fluid_sim.h), pass by pass, each property a stated tolerance that a
// broken pass would miss: the projection leaves no divergence, still air stays still, heat rises and cold sinks,
// advection conserves, the logs stay empty, vorticity confinement adds enstrophy, a seed repeats, the faster
// solver is faster, and bad grids, cells and iteration counts are refused by name.
#include <gtest/gtest.h>

#include <gmock/gmock.h>

#include <cmath>
#include <limits>
#include <random>
#include <thread>

#include <glm/geometric.hpp>

#include "core/error.h"
#include "fluid/fluid_sim.h"

namespace firelab::fluid {
namespace {

// A small grid of 0.1 m cells with no obstacles and the source switched off: tests drive the passes themselves.
FluidParams quiet(glm::ivec3 n = glm::ivec3(16)) {
    FluidParams p;
    p.model = Model::Fluid;
    p.grid = n;
    p.cell = 0.1f;
    p.obstacles = Obstacles::None;
    p.sourceFuel = 0.0f;
    p.sourceTemperature = p.ambient;
    p.vorticity = 0.0f;
    return p;
}

// Random face velocities in [-1, 1] m/s (the floor's faces stay walls): a strongly divergent field.
void randomVelocity(FluidSim& sim, unsigned seed) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> u(-1.0f, 1.0f);
    FluidState& s = sim.state();
    for (Field* f : {&s.u, &s.v, &s.w})
        for (float& x : f->v) x = u(rng);
}

// A Gaussian blob of `field` of peak `peak` about cell centre `at` (cells), radius `r` cells.
void blob(FluidSim& sim, Field& field, glm::vec3 at, float r, float peak, float base = 0.0f) {
    const FluidState& s = sim.state();
    for (int k = 0; k < s.n.z; ++k)
        for (int j = 0; j < s.n.y; ++j)
            for (int i = 0; i < s.n.x; ++i) {
                const glm::vec3 d = glm::vec3(i, j, k) + 0.5f - at;
                field.at(i, j, k) = base + peak * std::exp(-glm::dot(d, d) / (2.0f * r * r));
            }
}

// The height (m) of the centroid of |T - ambient|.
double heatHeight(const FluidSim& sim) {
    const FluidState& s = sim.state();
    double sum = 0.0, w = 0.0;
    for (int k = 0; k < s.n.z; ++k)
        for (int j = 0; j < s.n.y; ++j)
            for (int i = 0; i < s.n.x; ++i) {
                const double e = std::abs(s.temperature.at(i, j, k) - sim.params().ambient);
                sum += e * sim.cellCenter(i, j, k).y, w += e;
            }
    return sum / w;
}

// The projection takes the divergence's rms below 1e-4 of what it was (the solvers' tolerance, 1e-5, with a
// margin for float rounding), for every solver, with and without solid cells.
TEST(FluidSim, ProjectionLeavesTheVelocityDivergenceFree) {
    for (const Solver solver : {Solver::Pcg, Solver::Jacobi, Solver::Multigrid, Solver::Mgpcg})
        for (const Obstacles obstacles : {Obstacles::None, Obstacles::Logs}) {
            FluidParams p = quiet(glm::ivec3(12));
            p.solver = solver;
            p.obstacles = obstacles;
            p.tolerance = 1e-5f;
            p.iterations = solver == Solver::Jacobi ? 20000 : 500;
            FluidSim sim(p, sim::FireParams{});
            if (obstacles == Obstacles::Logs) {
                ASSERT_GT(std::count(sim.state().solid.begin(), sim.state().solid.end(), uint8_t{1}), 0);
            }
            randomVelocity(sim, 7);
            sim.project(1.0f / 60.0f);
            const StepStats& st = sim.lastStep();
            SCOPED_TRACE(std::string(kSolverNames[static_cast<size_t>(solver)]) +
                         (obstacles == Obstacles::Logs ? " logs" : ""));
            EXPECT_GT(st.divergenceBefore, 1.0);
            EXPECT_LT(divergenceRms(sim.state()), 1e-4 * st.divergenceBefore);
            EXPECT_NEAR(st.divergenceAfter, divergenceRms(sim.state()), 1e-6 * st.divergenceBefore);
        }
}

// Air at ambient, at rest, with no source: 1000 full steps leave every face at exactly 0 and every cell at
// exactly ambient (no drift at all, not merely a small one).
TEST(FluidSim, AStillFluidStaysStill) {
    FluidParams p = quiet(glm::ivec3(10));
    p.obstacles = Obstacles::Logs;
    p.vorticity = 0.6f;
    FluidSim sim(p, sim::FireParams{});
    for (int n = 0; n < 1000; ++n) sim.step(1.0f / 60.0f);
    const FluidState& s = sim.state();
    for (const Field* f : {&s.u, &s.v, &s.w})
        for (float x : f->v) ASSERT_EQ(x, 0.0f);
    for (float t : s.temperature.v) ASSERT_EQ(t, p.ambient);
}

// A blob 300 K hotter than the air rises and one 150 K colder sinks: after 0.5 s their centroids move by more
// than a cell (0.1 m) each, the right way (Boussinesq buoyancy; with buoyancy 0 neither moves a tenth of that).
TEST(FluidSim, AHotBlobRisesAndAColdOneSinks) {
    for (const float excess : {300.0f, -150.0f, 0.0f}) {
        FluidParams p = quiet(glm::ivec3(16, 32, 16));
        p.cooling = 0.0f;
        if (excess == 0.0f) p.buoyancy = 0.0f;
        FluidSim sim(p, sim::FireParams{});
        blob(sim, sim.state().temperature, {8, 16, 8}, 2.0f, excess == 0.0f ? 300.0f : excess, p.ambient);
        const double before = heatHeight(sim);
        for (int n = 0; n < 30; ++n) sim.step(1.0f / 60.0f);
        const double moved = heatHeight(sim) - before;
        SCOPED_TRACE(excess);
        if (excess > 0.0f) {
            EXPECT_GT(moved, 0.1);
        }
        if (excess < 0.0f) {
            EXPECT_LT(moved, -0.1);
        }
        if (excess == 0.0f) {
            EXPECT_LT(std::abs(moved), 0.01);
        }
    }
}

// A smooth blob of soot carried 60 steps round a solid-body rotation (projected: divergence-free) keeps its
// total within 1 % (semi-Lagrangian) and 2 % (MacCormack, whose limiter clips); it moves (the test can fail).
TEST(FluidSim, AdvectionConservesASmoothDensity) {
    for (const Advection scheme : {Advection::SemiLagrangian, Advection::MacCormack}) {
        FluidParams p = quiet(glm::ivec3(24, 8, 24));
        p.advection = scheme;
        p.sootDissipation = 0.0f;
        FluidSim sim(p, sim::FireParams{});
        FluidState& s = sim.state();
        const glm::vec3 mid = glm::vec3(s.n) * 0.5f;
        for (int k = 0; k < s.n.z; ++k)
            for (int j = 0; j < s.n.y; ++j)
                for (int i = 0; i <= s.n.x; ++i) s.u.at(i, j, k) = -0.5f * (static_cast<float>(k) + 0.5f - mid.z) * s.h;
        for (int k = 0; k <= s.n.z; ++k)
            for (int j = 0; j < s.n.y; ++j)
                for (int i = 0; i < s.n.x; ++i) s.w.at(i, j, k) = 0.5f * (static_cast<float>(i) + 0.5f - mid.x) * s.h;
        blob(sim, s.soot, {16, 4, 12}, 2.0f, 1.0f);
        const double before = total(s, s.soot);
        const float peakBefore = s.soot.at(15, 4, 11);
        const FluidState still = s;
        for (int n = 0; n < 60; ++n) {
            sim.advect(1.0f / 30.0f);
            sim.state().u = still.u, sim.state().v = still.v, sim.state().w = still.w;  // the flow held fixed
        }
        SCOPED_TRACE(kAdvectionNames[static_cast<size_t>(scheme)]);
        EXPECT_NEAR(total(sim.state(), sim.state().soot) / before, 1.0, scheme == Advection::MacCormack ? 0.02 : 0.01);
        EXPECT_LT(sim.state().soot.at(15, 4, 11), 0.5f * peakBefore) << "the blob moved on";
    }
}

// The default fire over the logs for 60 steps: every solid cell holds ambient air without fuel or soot, and no
// face of one carries flow, while the fire burns around them.
TEST(FluidSim, NoFluidEntersTheLogs) {
    FluidParams p;
    p.model = Model::Fluid;
    p.grid = {24, 24, 24};
    p.cell = 0.06f;
    FluidSim sim(p, sim::FireParams{});
    const FluidState& s = sim.state();
    ASSERT_GT(std::count(s.solid.begin(), s.solid.end(), uint8_t{1}), 50);
    for (int n = 0; n < 60; ++n) sim.step(1.0f / 60.0f);
    double hot = 0.0;
    for (int k = 0; k < s.n.z; ++k)
        for (int j = 0; j < s.n.y; ++j)
            for (int i = 0; i < s.n.x; ++i) {
                if (!s.isSolid(i, j, k)) {
                    hot = std::max(hot, static_cast<double>(s.temperature.at(i, j, k)));
                    continue;
                }
                ASSERT_EQ(s.temperature.at(i, j, k), p.ambient);
                ASSERT_EQ(s.fuel.at(i, j, k), 0.0f);
                ASSERT_EQ(s.soot.at(i, j, k), 0.0f);
                ASSERT_EQ(s.u.at(i, j, k), 0.0f);
                ASSERT_EQ(s.u.at(i + 1, j, k), 0.0f);
                ASSERT_EQ(s.v.at(i, j, k), 0.0f);
                ASSERT_EQ(s.v.at(i, j + 1, k), 0.0f);
                ASSERT_EQ(s.w.at(i, j, k), 0.0f);
                ASSERT_EQ(s.w.at(i, j, k + 1), 0.0f);
            }
    EXPECT_GT(hot, 1000.0) << "the fire burns beside them";
}

// Vorticity confinement puts back the small swirls: one forces pass of 0.1 s (epsilon 2) on a projected random
// field raises its enstrophy by more than 1 % (2.1 % measured), and without confinement the pass leaves it alone.
TEST(FluidSim, VorticityConfinementRaisesEnstrophy) {
    double after[2];
    for (int on = 0; on < 2; ++on) {
        FluidParams p = quiet(glm::ivec3(16));
        p.buoyancy = 0.0f;
        p.vorticity = on ? 2.0f : 0.0f;
        FluidSim sim(p, sim::FireParams{});
        randomVelocity(sim, 3);
        sim.project(1.0f / 60.0f);
        const double before = enstrophy(sim.state());
        sim.applyForces(0.1f);
        after[on] = enstrophy(sim.state()) / before;
    }
    EXPECT_DOUBLE_EQ(after[0], 1.0);
    EXPECT_GT(after[1], 1.01);
}

// The heat release is the energy the burnt fuel gives the air: one cell of fuel 2 at 1000 K burns
// 2 (1 - exp(-burn-rate dt)) in a step, raising its air by --heat per unit, so the power is air's density at
// ambient (1.177 kg/m^3 at 300 K) x 1.005 kJ/(kg K) x that rise x the cell's volume / dt; cold fuel releases none.
TEST(FluidSim, TheHeatReleaseIsTheBurntFuelsEnergy) {
    FluidParams p = quiet(glm::ivec3(8));
    p.cooling = 0.0f;
    FluidSim sim(p, sim::FireParams{});
    sim.state().fuel.at(4, 4, 4) = 2.0f;
    sim.state().temperature.at(4, 4, 4) = 1000.0f;
    const float dt = 1.0f / 30.0f;
    sim.combust(dt);
    const double rise = 2.0 * (1.0 - std::exp(-static_cast<double>(p.burnRate * dt))) * p.heat;
    const double kw = 101325.0 / (287.05 * 300.0) * 1.005 * rise * 0.001 / dt;
    EXPECT_NEAR(sim.lastStep().heatReleaseKw, kw, 1e-4 * kw);
    EXPECT_NEAR(sim.state().temperature.at(4, 4, 4), 1000.0 + rise, 1e-2);
    sim.state().temperature.at(4, 4, 4) = 400.0f;  // below ignition
    sim.combust(dt);
    EXPECT_EQ(sim.lastStep().heatReleaseKw, 0.0);
}

// The same seed gives the same grid to the bit; another seed (another draw of the emitter's region) does not.
TEST(FluidSim, AFixedSeedGivesTheSameGridTwice) {
    FluidParams p;
    p.model = Model::Fluid;
    p.grid = {16, 24, 16};
    p.cell = 0.08f;
    sim::FireParams f;
    f.distribution = sim::Distribution::Uniform;
    FluidSim a(p, f), b(p, f);
    f.seed = 2;
    FluidSim c(p, f);
    for (int n = 0; n < 40; ++n) a.step(1.0f / 60.0f), b.step(1.0f / 60.0f), c.step(1.0f / 60.0f);
    EXPECT_EQ(a.state().temperature.v, b.state().temperature.v);
    EXPECT_EQ(a.state().u.v, b.state().u.v);
    EXPECT_EQ(a.state().soot.v, b.state().soot.v);
    EXPECT_NE(a.state().temperature.v, c.state().temperature.v);
}

// On one divergent field, conjugate gradients reach the residual Jacobi has after 300 iterations in under a
// third of its floating-point operations (25 iterations, a fifth of them, measured on 20^3).
TEST(FluidSim, TheFasterSolverReachesJacobisResidualInFewerOperations) {
    FluidParams p = quiet(glm::ivec3(20));
    p.solver = Solver::Jacobi;
    p.iterations = 300;
    p.tolerance = 1e-9f;  // never reached: all 300
    FluidSim jacobi(p, sim::FireParams{});
    randomVelocity(jacobi, 11);
    jacobi.project(1.0f / 60.0f);
    const StepStats j = jacobi.lastStep();
    ASSERT_EQ(j.iterations, 300);
    p.solver = Solver::Pcg;
    p.iterations = 1000;
    p.tolerance = static_cast<float>(j.divergenceAfter / j.divergenceBefore);
    FluidSim pcg(p, sim::FireParams{});
    randomVelocity(pcg, 11);
    pcg.project(1.0f / 60.0f);
    const StepStats c = pcg.lastStep();
    EXPECT_LE(c.divergenceAfter, j.divergenceAfter * 1.05);
    EXPECT_LT(c.operations, j.operations / 3.0) << c.iterations << " PCG iterations against 300 of Jacobi's";
}

// A flow that would cross more than max-cfl cells in a step is cut into sub-steps, never more than kMaxSubsteps.
TEST(FluidSim, AFastFlowIsSubStepped) {
    FluidParams p = quiet(glm::ivec3(12));
    FluidSim sim(p, sim::FireParams{});
    for (float& x : sim.state().v.v) x = 30.0f;  // 5 cells a step at 1/60 s
    sim.step(1.0f / 60.0f);
    EXPECT_EQ(sim.lastStep().substeps, 3);
    for (float& x : sim.state().v.v) x = 500.0f;
    sim.step(1.0f / 60.0f);
    EXPECT_EQ(sim.lastStep().substeps, kMaxSubsteps);
}

// A velocity that overflowed (an infinity, a NaN) is never an index outside the grid: the step, the particles'
// velocity and the medium's temperature read only the grid's own samples (both schemes; under the sanitizers a
// read outside the arrays fails the test). The same at the smallest ambient the range allows, where buoyancy's
// g (T - ambient) / ambient overflows.
TEST(FluidSim, AVelocityThatOverflowedReadsNothingOutsideTheGrid) {
    for (const Advection scheme : {Advection::SemiLagrangian, Advection::MacCormack}) {
        FluidParams p = quiet(glm::ivec3(12));
        p.advection = scheme;
        FluidSim sim(p, sim::FireParams{});
        FluidState& s = sim.state();
        s.u.at(5, 5, 5) = std::numeric_limits<float>::infinity();
        s.v.at(6, 6, 6) = std::numeric_limits<float>::quiet_NaN();
        s.w.at(4, 7, 3) = -std::numeric_limits<float>::infinity();
        for (int n = 0; n < 3; ++n) sim.step(1.0f / 60.0f);
        const glm::vec3 inside = sim.cellCenter(5, 5, 5);
        (void)sim.velocityAt(inside);
        (void)sim.temperatureAt(glm::vec3(std::numeric_limits<float>::quiet_NaN()));
    }
    FluidParams p;
    p.model = Model::Fluid;
    p.grid = {12, 16, 12};
    p.ambient = 1e-16f;
    p.sourceTemperature = 1200.0f;
    FluidSim sim(p, sim::FireParams{});
    for (int n = 0; n < 20; ++n) sim.step(1.0f / 60.0f);
    EXPECT_EQ(sim.state().temperature.n, p.grid) << "the step ran to the end";
}

// The default source makes a flame: after a second, gas above 1000 K, its hottest cells above the emitter.
TEST(FluidSim, TheDefaultSourceMakesARisingFlame) {
    FluidParams p;
    p.model = Model::Fluid;
    p.grid = {16, 32, 16};
    p.cell = 0.1f;
    FluidSim sim(p, sim::FireParams{});
    for (int n = 0; n < 60; ++n) sim.step(1.0f / 60.0f);
    EXPECT_GT(heatHeight(sim), 0.3);
    float hottest = 0.0f;
    for (float t : sim.state().temperature.v) hottest = std::max(hottest, t);
    EXPECT_GT(hottest, 1000.0f);
    EXPECT_GT(total(sim.state(), sim.state().soot), 0.0);
}

// One thread and two step the same fire to the same grid, bit for bit: each value is computed by one thread and the
// sums are added in the same order whatever the threads (40 steps of the campfire, every pass, MGPCG and MacCormack).
TEST(FluidSim, OneAndTwoThreadsGiveTheSameGrid) {
    if (std::thread::hardware_concurrency() < 2) GTEST_SKIP() << "one core: two threads are refused here";
    FluidParams p;
    p.model = Model::Fluid;
    p.grid = {16, 24, 16};
    p.cell = 0.08f;
    FluidSim one(p, sim::FireParams{}, 1), two(p, sim::FireParams{}, 2);
    ASSERT_EQ(two.threads(), 2u);
    for (int n = 0; n < 40; ++n) one.step(1.0f / 60.0f), two.step(1.0f / 60.0f);
    EXPECT_EQ(one.lastStep().iterations, two.lastStep().iterations);
    for (const auto field : {&FluidState::u, &FluidState::v, &FluidState::w, &FluidState::temperature,
                             &FluidState::fuel, &FluidState::soot, &FluidState::pressure})
        EXPECT_EQ((one.state().*field).v, (two.state().*field).v);
    EXPECT_GT(total(one.state(), one.state().soot), 0.0) << "a fire burnt";
}

TEST(FluidSim, BadGridsCellsAndIterationsAreRefusedByName) {
    const auto refused = [](FluidParams p, const char* flag) {
        try {
            FluidSim sim(p, sim::FireParams{});
            ADD_FAILURE() << flag << " accepted";
        } catch (const Error& e) {
            EXPECT_THAT(e.what(), ::testing::HasSubstr(flag));
            EXPECT_TRUE(e.code() == ErrorCode::BadValue || e.code() == ErrorCode::TooLarge) << e.what();
        }
    };
    FluidParams p = quiet();
    p.grid = {2, 16, 16};
    refused(p, "--grid");
    p.grid = {16, 600, 16};
    refused(p, "--grid");
    p = quiet(), p.cell = 0.0f;
    refused(p, "--cell");
    p = quiet(), p.iterations = -1;
    refused(p, "--solver-iterations");
    p = quiet(), p.iterations = 0, p.tolerance = 0.0f;
    refused(p, "--solver-tolerance 0");
    p = quiet(), p.iterations = 0;  // no bound: the tolerance alone
    EXPECT_NO_THROW(FluidSim(p, sim::FireParams{}));
    for (const Solver solver : {Solver::Multigrid, Solver::Mgpcg}) {
        p = quiet(glm::ivec3(16, 17, 16)), p.solver = solver;  // y cannot be halved
        refused(p, "--solver");
        refused(p, "16x17x16");
    }
    p = quiet(glm::ivec3(16, 17, 16)), p.solver = Solver::Pcg;
    EXPECT_NO_THROW(FluidSim(p, sim::FireParams{}));
    try {
        FluidSim sim(quiet(), sim::FireParams{}, 0);
        ADD_FAILURE() << "0 threads accepted";
    } catch (const Error& e) {
        EXPECT_THAT(e.what(), ::testing::HasSubstr("--threads 0"));
    }
    EXPECT_THROW(FluidSim(quiet(), sim::FireParams{}, std::thread::hardware_concurrency() + 1), Error);
    p = quiet(), p.cell = 0.01f;
    EXPECT_THROW(validate(p, sim::FireParams{}, 1.0f), Error) << "the source would cross 16 cells a sub-step";
    EXPECT_NO_THROW(validate(quiet(), sim::FireParams{}, 1.0f / 60.0f));
}

}  // namespace
}  // namespace firelab::fluid

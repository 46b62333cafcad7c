// The grid fluid in compute shaders (fluid/gpu/gpu_fluid.h) against its oracle, the CPU fluid: each pass from
// one state gives the same fields within float rounding, a whole fire's steps stay with the CPU's, and the
// properties the CPU's tests hold (tests/fluid/fluid_sim_test.cpp) hold on the GPU too: the projection leaves no
// divergence, still air stays still to the bit, the logs stay empty, a seed repeats to the bit; a grid beyond the
// GPU's largest storage buffer is refused naming --grid.
#include <gtest/gtest.h>

#include <gmock/gmock.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <string>

#include "core/error.h"
#include "fluid/gpu/gpu_fluid.h"
#include "support/gl_fixture.h"
#include "support/stirred_fluid.h"

namespace firelab::testing {
namespace {

using fluid::Field;
using fluid::FluidParams;
using fluid::FluidSim;
using fluid::GpuFluid;

std::filesystem::path shaderDir() { return std::filesystem::path(FIRELAB_SOURCE_DIR) / "shaders"; }

// A fire on a small grid of 0.1 m cells round the campfire's logs, the paper's default emitter its source, solved by
// PCG (the compute shaders' solvers are jacobi and pcg).
FluidParams campfire(glm::ivec3 n = {16, 24, 16}) {
    FluidParams p;
    p.model = fluid::Model::Fluid;
    p.solver = fluid::Solver::Pcg;
    p.grid = n;
    p.cell = 0.1f;
    return p;
}

// The largest difference between two fields, relative to the larger magnitude in them (at least `floor`).
double relativeGap(const Field& a, const Field& b, double floor = 1e-3) {
    double gap = 0.0, scale = floor;
    for (size_t i = 0; i < a.v.size(); ++i) {
        gap = std::max(gap, static_cast<double>(std::abs(a.v[i] - b.v[i])));
        scale = std::max({scale, static_cast<double>(std::abs(a.v[i])), static_cast<double>(std::abs(b.v[i]))});
    }
    return gap / scale;
}

void expectSameFields(const FluidSim& cpu, const FluidSim& gpu, double tolerance) {
    const fluid::FluidState &a = cpu.state(), &b = gpu.state();
    EXPECT_LT(relativeGap(a.u, b.u), tolerance) << "u";
    EXPECT_LT(relativeGap(a.v, b.v), tolerance) << "v";
    EXPECT_LT(relativeGap(a.w, b.w), tolerance) << "w";
    EXPECT_LT(relativeGap(a.temperature, b.temperature), tolerance) << "temperature";
    EXPECT_LT(relativeGap(a.fuel, b.fuel), tolerance) << "fuel";
    EXPECT_LT(relativeGap(a.soot, b.soot), tolerance) << "soot";
}

class GpuFluidTest : public GlTest {};

// Each pass, from one stirred state, on the CPU and the GPU: the same fields within 1e-4 of their largest
// magnitude (float rounding in another order), for both advection schemes and both solvers.
TEST_F(GpuFluidTest, EachPassMatchesTheCpuOracle) {
    const std::pair<const char*, std::function<void(FluidSim&)>> passes[] = {
        {"sources", [](FluidSim& s) { s.addSources(1.0f / 30); }},
        {"advect", [](FluidSim& s) { s.advect(1.0f / 30); }},
        {"forces", [](FluidSim& s) { s.applyForces(1.0f / 30); }},
        {"combust", [](FluidSim& s) { s.combust(1.0f / 30); }},
        {"project", [](FluidSim& s) { s.project(1.0f / 30); }},
    };
    for (const fluid::Advection scheme : {fluid::Advection::SemiLagrangian, fluid::Advection::MacCormack})
        for (const fluid::Solver solver : {fluid::Solver::Jacobi, fluid::Solver::Pcg})
            for (const auto& [name, pass] : passes) {
                SCOPED_TRACE(std::string(name) + " " +
                             std::string(fluid::kAdvectionNames[static_cast<size_t>(scheme)]) + " " +
                             std::string(fluid::kSolverNames[static_cast<size_t>(solver)]));
                FluidParams p = campfire();
                p.advection = scheme;
                p.solver = solver;
                p.iterations = 40;
                FluidSim cpu(p, sim::FireParams{});
                GpuFluid gpu(shaderDir(), p, sim::FireParams{});
                stir(cpu, 3);
                stir(gpu, 3);
                gpu.pushState();
                pass(cpu);
                pass(gpu);
                gpu.pullState();
                expectSameFields(cpu, gpu, 1e-4);
                EXPECT_NEAR(gpu.lastStep().heatReleaseKw, cpu.lastStep().heatReleaseKw,
                            1e-4 * cpu.lastStep().heatReleaseKw);
                if (std::string(name) == "project") {
                    EXPECT_NEAR(gpu.lastStep().iterations, cpu.lastStep().iterations, 1);
                    EXPECT_NEAR(gpu.lastStep().divergenceBefore, cpu.lastStep().divergenceBefore,
                                1e-4 * cpu.lastStep().divergenceBefore);
                    EXPECT_NEAR(gpu.lastStep().divergenceAfter, cpu.lastStep().divergenceAfter,
                                0.05 * cpu.lastStep().divergenceAfter + 1e-6 * cpu.lastStep().divergenceBefore);
                }
            }
}

// The campfire's first second (30 steps, sub-stepped as the CPU's): the GPU's fields stay within 2 % of the
// CPU's largest value, though each step's rounding feeds the next.
TEST_F(GpuFluidTest, AFiresStepsStayWithTheCpus) {
    const FluidParams p = campfire();
    FluidSim cpu(p, sim::FireParams{});
    GpuFluid gpu(shaderDir(), p, sim::FireParams{});
    for (int n = 0; n < 30; ++n) cpu.step(1.0f / 30), gpu.step(1.0f / 30);
    EXPECT_EQ(gpu.lastStep().substeps, cpu.lastStep().substeps);
    EXPECT_GT(*std::max_element(gpu.state().temperature.v.begin(), gpu.state().temperature.v.end()), 1000.0f);
    expectSameFields(cpu, gpu, 0.02);
    EXPECT_EQ(gpu.device(), "gpu");
    EXPECT_GT(gpu.lastStep().ms[static_cast<size_t>(fluid::Pass::Readback)], 0.0);
}

// The projection on the GPU takes the divergence's rms below 1e-4 of what it was, with either solver, round the logs.
TEST_F(GpuFluidTest, ProjectionLeavesTheVelocityDivergenceFree) {
    for (const fluid::Solver solver : {fluid::Solver::Pcg, fluid::Solver::Jacobi}) {
        SCOPED_TRACE(std::string(fluid::kSolverNames[static_cast<size_t>(solver)]));
        FluidParams p = campfire({12, 12, 12});
        p.solver = solver;
        p.tolerance = 1e-5f;
        p.iterations = solver == fluid::Solver::Pcg ? 500 : 20000;
        GpuFluid gpu(shaderDir(), p, sim::FireParams{});
        stir(gpu, 5);
        gpu.pushState();
        gpu.project(1.0f / 60);
        gpu.pullState();
        const fluid::StepStats& st = gpu.lastStep();
        EXPECT_GT(st.divergenceBefore, 1.0);
        EXPECT_LT(fluid::divergenceRms(gpu.state()), 1e-4 * st.divergenceBefore);
    }
}

// Still air with no source: 300 GPU steps leave every face at exactly 0 and every cell at exactly ambient.
TEST_F(GpuFluidTest, AStillFluidStaysStill) {
    FluidParams p = campfire({10, 10, 10});
    p.sourceFuel = 0.0f, p.sourceTemperature = p.ambient;
    GpuFluid gpu(shaderDir(), p, sim::FireParams{});
    for (int n = 0; n < 300; ++n) gpu.step(1.0f / 60);
    const fluid::FluidState& s = gpu.state();
    for (const Field* f : {&s.u, &s.v, &s.w})
        for (float x : f->v) ASSERT_EQ(x, 0.0f);
    for (float t : s.temperature.v) ASSERT_EQ(t, p.ambient);
}

// After a second of fire round the logs, no log cell holds anything but still ambient air, and no face of one
// carries flow; and the same seed gives the same grid to the bit (the GPU's sums are in a fixed order).
TEST_F(GpuFluidTest, TheLogsStayEmptyAndASeedRepeats) {
    const FluidParams p = campfire();
    GpuFluid a(shaderDir(), p, sim::FireParams{}), b(shaderDir(), p, sim::FireParams{});
    for (int n = 0; n < 30; ++n) a.step(1.0f / 30), b.step(1.0f / 30);
    const fluid::FluidState& s = a.state();
    size_t solid = 0;
    for (int k = 0; k < s.n.z; ++k)
        for (int j = 0; j < s.n.y; ++j)
            for (int i = 0; i < s.n.x; ++i) {
                if (!s.isSolid(i, j, k)) continue;
                ++solid;
                ASSERT_EQ(s.temperature.at(i, j, k), p.ambient);
                ASSERT_EQ(s.soot.at(i, j, k), 0.0f);
                ASSERT_EQ(s.u.at(i, j, k), 0.0f);
                ASSERT_EQ(s.u.at(i + 1, j, k), 0.0f);
                ASSERT_EQ(s.v.at(i, j + 1, k), 0.0f);
                ASSERT_EQ(s.w.at(i, j, k + 1), 0.0f);
            }
    EXPECT_GT(solid, 10u);
    EXPECT_EQ(a.state().temperature.v, b.state().temperature.v);
    EXPECT_EQ(a.state().v.v, b.state().v.v);
}

// A grid whose largest field exceeds this GL's largest storage buffer is refused before anything is allocated,
// naming --grid and the bound (llvmpipe: 128 MiB, so 512x512x256's 257 MiB u faces are beyond it).
TEST_F(GpuFluidTest, AGridBeyondTheLargestStorageBufferIsRefused) {
    GLint64 maxBlock = 0;
    glGetInteger64v(GL_MAX_SHADER_STORAGE_BLOCK_SIZE, &maxBlock);
    FluidParams p = campfire({512, 512, 256});
    const double largest = 4.0 * 513 * 512 * 256;
    if (largest <= static_cast<double>(maxBlock))  // an NVIDIA GPU's 2 GiB: said as a skip, never as a pass
        GTEST_SKIP() << "this GPU's storage buffers (" << maxBlock << " bytes) hold the largest grid firelab allows";
    try {
        GpuFluid gpu(shaderDir(), p, sim::FireParams{});
        ADD_FAILURE() << "accepted";
    } catch (const Error& e) {
        EXPECT_EQ(e.code(), ErrorCode::TooLarge);
        EXPECT_THAT(e.what(), ::testing::HasSubstr("--grid 512x512x256"));
        EXPECT_THAT(e.what(), ::testing::HasSubstr("GL_MAX_SHADER_STORAGE_BLOCK_SIZE"));
    }
}

}  // namespace
}  // namespace firelab::testing

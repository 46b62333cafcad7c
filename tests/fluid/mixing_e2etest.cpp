// --combustion mixing's burner over seconds of fire (the e2e tier: a flame must settle): its steady heat release is
// the power asked, the fuel burning before it leaves the grid.
#include <gtest/gtest.h>

#include "fluid/fluid_sim.h"

namespace firelab::fluid {
namespace {

TEST(FluidMixingFire, TheSteadyHeatReleaseIsTheBurnersPower) {
    FluidParams p;
    p.model = Model::Fluid;
    p.combustion = Combustion::Mixing;
    p.obstacles = Obstacles::None;
    // 1.6 m tall, under three of Heskestad's 0.57 m flame heights for a 0.2 m pool of 20 kW: the fuel burns before it
    // reaches the top.
    p.grid = {16, 64, 16};
    p.cell = 0.025f;
    sim::FireParams pool;  // a circle of radius 0.1 m on the ground, the grid centred on it
    pool.shape = sim::EmitterShape::Circle;
    pool.extent = {0.1f, 0.0f, 0.1f};
    pool.speedMean = glm::vec3(0.0f), pool.speedVar = glm::vec3(0.0f);
    const float kw = 20.0f, dt = 1.0f / 60.0f;
    pool.heatRelease = kw;
    FluidSim sim(p, pool, 2);
    for (int n = 0; n < 180; ++n) sim.step(dt);  // 3 s: the flame is established
    double sum = 0.0;
    const int frames = 180;
    for (int n = 0; n < frames; ++n) {
        sim.step(dt);
        sum += sim.lastStep().heatReleaseKw;
    }
    EXPECT_NEAR(sum / frames, kw, 0.05 * kw) << "the burner's fuel did not all burn on the grid";
}

}  // namespace
}  // namespace firelab::fluid

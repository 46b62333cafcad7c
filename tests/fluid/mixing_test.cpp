// --combustion mixing (fluid/mixing.cpp): fuel burns only where air has mixed in, the species stay fractions, the heat
// release expands the gas by exactly its volume rate, the carry holds the burner's gas to its budgets, the subgrid
// mixing acts in shear alone, and bad input is refused. The burner's steady power: mixing_e2etest.cpp (seconds of fire).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <functional>

#include <glm/geometric.hpp>
#include <sstream>

#include "core/error.h"
#include "fluid/fluid_sim.h"
#include "fluid/fuel.h"

namespace firelab::fluid {
namespace {

constexpr float kStep = 1.0f / 60.0f;

FluidParams mixingParams(glm::ivec3 n, float cell) {
    FluidParams p;
    p.model = Model::Fluid;
    p.combustion = Combustion::Mixing;
    p.grid = n;
    p.cell = cell;
    p.obstacles = Obstacles::None;
    return p;
}

// A 0.2 m pool (a circle emitter of radius 0.1 m on the ground, the grid centred on it) of `kw`.
sim::FireParams pool(float kw) {
    sim::FireParams f;
    f.shape = sim::EmitterShape::Circle;
    f.extent = {0.1f, 0.0f, 0.1f};
    f.center = {0.0f, 0.0f, 0.0f};
    f.speedMean = glm::vec3(0.0f), f.speedVar = glm::vec3(0.0f);
    f.heatRelease = kw;
    return f;
}

double totalOf(const FluidSim& sim, const Field& f) { return total(sim.state(), f); }

TEST(FluidMixing, PropaneAndMethaneTakeTheirStoichiometricAir) {
    // kg of air per kg of fuel: propane 15.6, methane 17.2 (Drysdale, An Introduction to Fire Dynamics, table 1.13).
    EXPECT_NEAR(stoichiometricAir(fuelOf(Fuel::Propane)), 15.6, 0.1);
    EXPECT_NEAR(stoichiometricAir(fuelOf(Fuel::Methane)), 17.2, 0.1);
}

TEST(FluidMixing, FuelWithNoAirDoesNotBurnAndBurnsAsAirIsLetIn) {
    sim::FireParams f = pool(40.0f);
    FluidSim sim(mixingParams({8, 8, 8}, 0.05f), f);
    FluidState& s = sim.state();
    std::fill(s.fuel.v.begin(), s.fuel.v.end(), 1.0f);
    std::fill(s.mixture.v.begin(), s.mixture.v.end(), 1.0f);
    sim.combust(kStep);
    EXPECT_EQ(sim.lastStep().heatReleaseKw, 0.0);
    EXPECT_NEAR(totalOf(sim, s.fuel), 8 * 8 * 8 * 0.05 * 0.05 * 0.05, 1e-6 * 0.064);
    // Half of each cell's gas air: the fuel that air can burn, burns.
    std::fill(s.fuel.v.begin(), s.fuel.v.end(), 0.5f);
    std::fill(s.mixture.v.begin(), s.mixture.v.end(), 0.5f);
    sim.combust(kStep);
    EXPECT_GT(sim.lastStep().heatReleaseKw, 0.0);
    for (float y : s.fuel.v) EXPECT_LT(y, 0.5f);
}

TEST(FluidMixing, TheReactionKeepsEverySpeciesAFraction) {
    FluidSim sim(mixingParams({8, 8, 8}, 0.05f), pool(40.0f));
    FluidState& s = sim.state();
    const double air = stoichiometricAir(fuelOf(Fuel::Propane));
    for (size_t c = 0; c < s.fuel.v.size(); ++c) {  // every mix of fuel and air from none to all
        const float z = static_cast<float>(c) / static_cast<float>(s.fuel.v.size() - 1);
        s.mixture.v[c] = z, s.fuel.v[c] = z;
    }
    for (int n = 0; n < 120; ++n) {
        sim.combust(kStep);
        for (size_t c = 0; c < s.fuel.v.size(); ++c) {
            const double yf = s.fuel.v[c], z = s.mixture.v[c];
            const double yAir = 1.0 - (1.0 + air) * z + air * yf;
            ASSERT_GE(yf, 0.0);
            ASSERT_LE(yf, z + 1e-6);
            ASSERT_GE(yAir, -1e-5) << "cell " << c << " burnt air it did not have";
            ASSERT_LE(yAir, 1.0 + 1e-6);
        }
    }
}

TEST(FluidMixing, TheDilatationIntegratesToTheHeatReleasesVolumeRate) {
    FluidSim sim(mixingParams({8, 8, 8}, 0.05f), pool(40.0f));
    FluidState& s = sim.state();
    for (size_t c = 0; c < s.fuel.v.size(); ++c) s.mixture.v[c] = s.fuel.v[c] = (c % 3 == 0) ? 0.06f : 0.02f;
    sim.combust(kStep);
    sim.project(kStep);
    // After the projection the velocity's divergence is the dilatation: its integral, the fire's convective power
    // over rho_a c_p T_a (m^3/s), as fire science's low-Mach equations have it.
    double expanded = 0.0;
    for (int k = 0; k < s.n.z; ++k)
        for (int j = 0; j < s.n.y; ++j)
            for (int i = 0; i < s.n.x; ++i)
                expanded += (s.u.at(i + 1, j, k) - s.u.at(i, j, k) + s.v.at(i, j + 1, k) - s.v.at(i, j, k) +
                             s.w.at(i, j, k + 1) - s.w.at(i, j, k)) *
                            s.h * s.h;
    const double convective = (1.0 - fuelOf(Fuel::Propane).radiativeFraction) * sim.lastStep().heatReleaseKw;
    const double rate = convective / (airDensity(sim.params().ambient) * kAirHeatCapacity * sim.params().ambient);
    ASSERT_GT(rate, 0.0);
    EXPECT_NEAR(expanded, rate, 0.01 * rate);
}

TEST(FluidMixing, RefusesAFireWithNoPowerAndAGridTooCoarseForIt) {
    sim::FireParams none = pool(0.0f);
    try {
        FluidSim sim(mixingParams({8, 8, 8}, 0.05f), none);
        FAIL() << "a mixing fire with no --heat-release was accepted";
    } catch (const Error& e) {
        EXPECT_EQ(e.code(), ErrorCode::BadValue);
        EXPECT_NE(std::string(e.what()).find("--heat-release"), std::string::npos) << e.what();
    }
    try {  // the compute shaders burn at a rate only: refused while planning, as validate runs then
        FluidParams gpu = mixingParams({8, 8, 8}, 0.05f);
        gpu.device = Device::Gpu;
        validate(gpu, pool(40.0f), kStep);
        FAIL() << "mixing on the GPU was accepted";
    } catch (const Error& e) {
        EXPECT_EQ(e.code(), ErrorCode::BadValue);
        EXPECT_NE(std::string(e.what()).find("--fluid-device gpu"), std::string::npos) << e.what();
    }
    try {  // 10 kW: D* is about 0.15 m, under 4 cells of 0.1 m
        FluidSim sim(mixingParams({8, 8, 8}, 0.1f), pool(10.0f));
        FAIL() << "a grid too coarse for the fire was accepted";
    } catch (const Error& e) {
        EXPECT_EQ(e.code(), ErrorCode::BadValue);
        EXPECT_NE(std::string(e.what()).find("--cell 0.1"), std::string::npos) << e.what();
        EXPECT_NE(std::string(e.what()).find("D*"), std::string::npos) << e.what();
    }
}

// The subgrid diffusion mixes where the flow shears and nowhere else, and moves the mixture fraction without making
// or losing any: a layer of burner gas over air, in a shear, keeps its sum and smears its edge; carried along
// uniformly (moving, not shearing), stays put.
TEST(FluidMixing, SubgridMixingActsWhereTheFlowShearsAndConserves) {
    for (const bool shear : {false, true}) {
        FluidSim sim(mixingParams({8, 8, 8}, 0.05f), pool(40.0f));
        FluidState& s = sim.state();
        for (int k = 0; k < 8; ++k)
            for (int j = 0; j < 8; ++j)
                for (int i = 0; i < 9; ++i) s.u.at(i, j, k) = shear ? 0.5f * static_cast<float>(j) : 0.5f;
        for (int k = 0; k < 8; ++k)
            for (int j = 0; j < 8; ++j)
                for (int i = 0; i < 8; ++i) s.mixture.at(i, j, k) = s.fuel.at(i, j, k) = j >= 4 ? 0.05f : 0.0f;
        const double before = totalOf(sim, s.mixture);
        sim.combust(kStep);
        EXPECT_NEAR(totalOf(sim, s.mixture), before, 1e-6 * before) << "shear " << shear;
        const float below = s.mixture.at(4, 3, 4);  // the air's cell next to the layer
        if (shear)
            EXPECT_GT(below, 1e-4f) << "no mixing across a shear";
        else
            EXPECT_EQ(below, 0.0f) << "a uniform flow mixed";
    }
}

// The carry holds the burner's gas to its budgets: the fuel's and the burnt gas's mass (rho = rho_a T_a / T) are what
// they were less what the open faces let out, and the temperature is what the burnt share makes it. A blob of
// half-burnt burner gas, carried by a swirl that MacCormack's correction would otherwise make or lose gas in.
TEST(FluidMixing, TheCarryHoldsTheFuelAndTheBurntGasToTheirBudgets) {
    FluidSim sim(mixingParams({16, 16, 16}, 0.05f), pool(40.0f));
    FluidState& s = sim.state();
    for (int k = 0; k < 16; ++k)
        for (int j = 0; j < 16; ++j)
            for (int i = 0; i <= 16; ++i) s.u.at(i, j, k) = 0.6f * std::sin(0.4f * static_cast<float>(j));
    for (int k = 0; k < 16; ++k)
        for (int j = 0; j < 16; ++j)
            for (int i = 0; i < 16; ++i) {
                const float r2 = glm::dot(glm::vec3(i, j, k) - 7.5f, glm::vec3(i, j, k) - 7.5f);
                const float z = 0.1f * std::exp(-r2 / 8.0f);
                s.mixture.at(i, j, k) = z, s.fuel.at(i, j, k) = 0.5f * z;
            }
    sim.addSources(0.0f);  // settles the temperature on the mixture, feeds nothing in no time
    const auto mass = [&](const std::function<float(size_t)>& y) {
        double m = 0.0;
        for (size_t c = 0; c < s.fuel.v.size(); ++c) m += y(c) / s.temperature.v[c];
        return m;
    };
    const auto fuel = [&](size_t c) { return s.fuel.v[c]; };
    const auto burnt = [&](size_t c) { return s.mixture.v[c] - s.fuel.v[c]; };
    const double fuelBefore = mass(fuel), burntBefore = mass(burnt);
    sim.advect(kStep);
    EXPECT_NEAR(mass(fuel), fuelBefore, 1e-3 * fuelBefore);  // the blob stays inside: nothing let out
    EXPECT_NEAR(mass(burnt), burntBefore, 1e-3 * burntBefore);
    const double rise =
        (1.0 - fuelOf(Fuel::Propane).radiativeFraction) * fuelOf(Fuel::Propane).heatOfCombustion / kAirHeatCapacity;
    for (size_t c = 0; c < s.fuel.v.size(); c += 97)
        EXPECT_NEAR(s.temperature.v[c], sim.params().ambient + rise * burnt(c), 1e-2) << c;
}

// One and two threads give the same fire bit for bit.
TEST(FluidMixing, OneAndTwoThreadsBurnTheSameFire) {
    FluidSim one(mixingParams({16, 24, 16}, 0.025f), pool(20.0f), 1),
        two(mixingParams({16, 24, 16}, 0.025f), pool(20.0f), 2);
    for (int n = 0; n < 20; ++n) one.step(kStep), two.step(kStep);
    EXPECT_EQ(one.state().temperature.v, two.state().temperature.v);
    EXPECT_EQ(one.state().fuel.v, two.state().fuel.v);
    EXPECT_EQ(one.state().v.v, two.state().v.v);
    EXPECT_EQ(one.lastStep().heatReleaseKw, two.lastStep().heatReleaseKw);
}

// docs/fluid.md's table of fuels has a row per fuel of fuel.h, with its constants as the table has them.
TEST(FluidMixing, TheDocsListEveryFuelAsTheTableHasIt) {
    std::ifstream in(std::string(FIRELAB_SOURCE_DIR) + "/docs/fluid.md");
    std::stringstream text;
    text << in.rdbuf();
    for (const FuelProperties& f : kFuels) {
        char row[160];
        std::snprintf(row, sizeof row, "| %s | C%dH%d | %.0f | %.1f | %g | %g |", std::string(f.name).c_str(), f.carbon,
                      f.hydrogen, f.heatOfCombustion, stoichiometricAir(f), f.radiativeFraction, f.sootYield);
        std::string want(row);
        if (f.carbon == 1) want.replace(want.find("C1H"), 3, "CH");
        EXPECT_NE(text.str().find(want), std::string::npos) << "docs/fluid.md has no row " << want;
    }
}

}  // namespace
}  // namespace firelab::fluid

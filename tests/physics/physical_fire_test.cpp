// The parameterised fire: what its mapping sets from the correlations (the terminal speed, the buoyant
// acceleration, the parcels' reach), the range it refuses with the flag named, the calibration point it was set
// at (the flame height of a 1 m, 1000 kW fire within a few percent of Heskestad's), and the comparison that sets a
// measured fire beside the correlations.
#include <cmath>
#include <fstream>
#include <sstream>
#include <string>

#include <gtest/gtest.h>

#include "core/error.h"
#include "physics/comparison.h"
#include "physics/correlations.h"
#include "physics/fire_probe.h"
#include "physics/physical_fire.h"
#include "sim/fire_system.h"

namespace firelab::physics {
namespace {

std::string refusal(const FireSize& fire) {
    try {
        validate(fire);
    } catch (const Error& e) {
        EXPECT_EQ(e.code(), ErrorCode::BadValue);
        return e.what();
    }
    return "";
}

TEST(PhysicalFire, RefusesWhatTheCorrelationsDoNotCoverNamingTheFlag) {
    EXPECT_EQ(refusal({1.0, 1000.0}), "");
    EXPECT_NE(refusal({1.0, 0.0}).find("--fire-diameter 1 needs --heat-release"), std::string::npos);
    EXPECT_NE(refusal({0.0, 500.0}).find("--heat-release 500 needs --fire-diameter"), std::string::npos);
    EXPECT_NE(refusal({-1.0, 500.0}).find("--fire-diameter -1: a pool's diameter in m, above 0"), std::string::npos);
    EXPECT_NE(refusal({0.01, 1.0}).find("--fire-diameter 0.01: allowed 0.03 to 50 m"), std::string::npos);
    EXPECT_NE(refusal({60.0, 1e6}).find("--fire-diameter 60"), std::string::npos);
    // Q^(2/5) / D = 1 for 1 kW on 1 m: a mass fire of flamelets, below Heskestad's 7.
    const std::string weak = refusal({1.0, 1.0});
    EXPECT_NE(weak.find("--heat-release 1 with --fire-diameter 1: Q^(2/5) / D = 1"), std::string::npos) << weak;
    EXPECT_NE(weak.find("allowed 7 to 700"), std::string::npos) << weak;
    EXPECT_NE(refusal({0.1, 1e9}).find("allowed 7 to 700"), std::string::npos);
    // In the correlations' range but beyond the model's: a 3 cm pool at 10 kW would sway at 102 /s (at most 100).
    try {
        physicalFire(sim::FireParams{}, {0.03, 10.0});
        ADD_FAILURE() << "a 3 cm, 10 kW fire was mapped";
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("--heat-release 10 with --fire-diameter 0.03: the parameterised fire's "
                                             "turbulence-speed would be 101.9"),
                  std::string::npos)
            << e.what();
    }
}

TEST(PhysicalFire, SetsTheMotionFromMcCaffreyAndTheReachFromHeskestad) {
    sim::FireParams base;
    base.particles = 1234;
    base.seed = 77;
    const sim::FireParams p = physicalFire(base, {0.5, 300.0});
    EXPECT_EQ(p.particles, 1234u);
    EXPECT_EQ(p.seed, 77u);
    EXPECT_EQ(p.shape, sim::EmitterShape::Circle);
    EXPECT_FLOAT_EQ(p.extent.x, 0.25f);
    EXPECT_EQ(p.color, sim::ColorModel::Blackbody);
    // The terminal speed a / k is McCaffrey's intermittent 1.93 Q^(1/5); from rest, u^2 = 2 a z near the base is
    // his continuous 6.84 z^(1/2).
    EXPECT_NEAR(p.accelMean.y / p.drag, 1.93 * std::pow(300.0, 0.2), 1e-3);
    EXPECT_NEAR(std::sqrt(2.0 * p.accelMean.y * 0.04), 6.84 * std::sqrt(0.04), 1e-3);
    // A parcel of the mean life reaches kLifeReach flame heights.
    const double a = p.accelMean.y, k = p.drag, t = p.lifetimeMean;
    const double reach = a / k * t - a / (k * k) * (1.0 - std::exp(-k * t));
    EXPECT_NEAR(reach, kLifeReach * heskestadFlameHeight(300.0, 0.5), 1e-3);
    EXPECT_THROW(physicalFire(base, {0.5, 0.5}), Error);
}

TEST(PhysicalFire, RiseTimeInvertsTheMotion) {
    for (double h : {0.1, 1.0, 10.0}) {
        const double t = riseTime(23.4, 4.0, h);
        EXPECT_NEAR(23.4 / 4.0 * t - 23.4 / 16.0 * (1.0 - std::exp(-4.0 * t)), h, 1e-9);
    }
}

// The calibration point: a 1 m, 1000 kW fire measures Heskestad's 2.70 m within 5 % (kLifeReach was set there).
TEST(PhysicalFire, FlamesAsTallAsHeskestadWhereItWasCalibrated) {
    sim::FireParams base;
    base.particles = 4000;
    const FireSize size{1.0, 1000.0};
    const sim::FireParams p = physicalFire(base, size);
    const float dt = 1.0f / 60;
    sim::FireSystem fire(p);
    fire.prewarm(dt);
    ProbeSettings settings;
    settings.binSize = 0.05f;
    settings.top = 10.0f;
    settings.centrelineRadius = 0.1f;
    FireProbe probe(settings, p.center);
    for (int f = 0; f < 1200; ++f) {
        fire.step(dt);
        probe.beginFrame();
        probe.add(fire);
    }
    const FireStatistics s = probe.finish(dt, 0.25);
    const Comparison c = compare(s, p, size);
    EXPECT_TRUE(c.powerGiven);
    EXPECT_NEAR(c.flameHeight, 2.7045, 1e-3);
    EXPECT_LT(std::abs(c.flameHeightError), 0.05) << "measured " << s.flameHeight << " m";
    EXPECT_DOUBLE_EQ(c.puffing, 1.5);
}

TEST(Comparison, InfersThePowerFromTheFlameHeightWithoutOne) {
    EXPECT_NEAR(heskestadInversePower(heskestadFlameHeight(1690.0, 1.6), 1.6), 1690.0, 1e-6);
    EXPECT_TRUE(std::isnan(heskestadInversePower(0.0, 1.0)));
    sim::FireParams p;  // the paper's circle, radius 0.35 m
    EXPECT_DOUBLE_EQ(poolDiameter(p), 0.7f);
    p.shape = sim::EmitterShape::Rect;
    p.extent = {0.5f, 0.0f, 0.5f};  // a 1 m square: the circle of equal area
    EXPECT_NEAR(poolDiameter(p), std::sqrt(4.0 / 3.141592653589793), 1e-6);

    FireStatistics s;
    s.flameHeight = 1.0;
    s.tipSpectrum.peakHz = 3.0;
    s.powerSpectrum.peakHz = 1.5;
    const Comparison c = compare(s, sim::FireParams{}, {});
    EXPECT_FALSE(c.powerGiven);
    EXPECT_NEAR(c.flameHeight, 1.0, 1e-9);        // by construction
    EXPECT_TRUE(std::isnan(c.flameHeightError));  // so no error to report
    EXPECT_NEAR(c.puffing, 1.5 / std::sqrt(0.7), 1e-6);
    EXPECT_NEAR(c.tipPeakError, 3.0 / c.puffing - 1.0, 1e-9);
    EXPECT_NEAR(c.emissionPeakError, 1.5 / c.puffing - 1.0, 1e-9);
}

// docs/physics.md lists the mapping row for row, as kPhysicalFireMapping declares it.
TEST(PhysicalFire, TheDocsListTheMappingAsDeclared) {
    std::ifstream in(std::string(FIRELAB_SOURCE_DIR) + "/docs/physics.md");
    std::stringstream text;
    text << in.rdbuf();
    for (const MappedParam& m : kPhysicalFireMapping) {
        const std::string row =
            "| " + std::string(m.param) + " | " + std::string(m.formula) + " | " + std::string(m.basis) + " |";
        EXPECT_NE(text.str().find(row), std::string::npos) << "docs/physics.md lacks the row\n" << row;
    }
}

}  // namespace
}  // namespace firelab::physics

// The probes on fires whose statistics are known from their settings: particles rising at a constant speed
// for a fixed life fill a column of known height at that speed, cooling linearly with height; a gradient's
// colours carry no temperature; the paper's default fire has an attached flame that falls off with height.
#include <cmath>

#include <gtest/gtest.h>

#include "physics/correlations.h"
#include "physics/fire_probe.h"
#include "sim/fire_system.h"

namespace firelab::physics {
namespace {

// A thin jet of particles rising at 1 m/s for exactly 1 s, equally bright over their life: a 1 m flame.
sim::FireParams steadyColumn() {
    sim::FireParams p;
    p.distribution = sim::Distribution::Uniform;
    p.extent = {0.01f, 0.0f, 0.01f};
    p.coneAngleDeg = 0.0f;
    p.speedMean = {0.0f, 1.0f, 0.0f};
    p.speedVar = p.accelMean = p.accelVar = glm::vec3(0.0f);
    p.drag = p.turbulence = 0.0f;
    p.lifetimeMean = 1.0f;
    p.lifetimeVar = 0.0f;
    p.sizeStart = p.sizeEnd = 0.1f;
    p.sizeVar = 0.0f;
    p.gradient = {{0.0f, {1.0f, 1.0f, 1.0f, 0.2f}}, {1.0f, {1.0f, 1.0f, 1.0f, 0.2f}}};
    p.particles = 6000;
    return p;
}

FireStatistics record(const sim::FireParams& params, const ProbeSettings& settings, int frames, float dt = 1.0f / 60) {
    sim::FireSystem fire(params);
    fire.prewarm(dt);
    FireProbe probe(settings, params.center);
    for (int f = 0; f < frames; ++f) {
        fire.step(dt);
        probe.beginFrame();
        probe.add(fire);
    }
    return probe.finish(dt, 0.2);
}

TEST(FireProbe, AColumnOfKnownHeightAndSpeedIsMeasuredAsSuch) {
    ProbeSettings settings;
    settings.top = 1.5f;
    const FireStatistics s = record(steadyColumn(), settings, 120);
    ASSERT_EQ(s.rows.size(), 30u);
    EXPECT_EQ(s.frames, 120u);
    // Every bin below 1 m holds the flame in every frame, none above: the 0.5 height is at the column's top,
    // to within a bin (the last one is filled by the step's births in part).
    EXPECT_NEAR(s.flameHeight, 1.0, settings.binSize);
    EXPECT_NEAR(s.meanTip, 1.0, settings.binSize);
    EXPECT_DOUBLE_EQ(s.rows[0].intermittency, 1.0);
    EXPECT_DOUBLE_EQ(s.rows[25].intermittency, 0.0);
    for (size_t b = 0; b < 19; ++b) {
        EXPECT_NEAR(s.rows[b].velocity, 1.0, 1e-5) << b;  // every particle rises at 1 m/s
        EXPECT_GT(s.rows[b].emission, 0.0);
    }
    EXPECT_TRUE(std::isnan(s.rows[25].velocity));  // nothing there to average
    // A gradient's colours have no temperature.
    EXPECT_FALSE(s.hasTemperature);
    EXPECT_TRUE(std::isnan(s.rows[5].temperatureRise));
}

TEST(FireProbe, CentrelineTemperatureIsTheParticlesOwn) {
    sim::FireParams p = steadyColumn();
    p.color = sim::ColorModel::Blackbody;
    p.temperature = {1800.0f, 1000.0f};  // cooling 800 K over the 1 m rise
    ProbeSettings settings;
    settings.top = 1.5f;
    const FireStatistics s = record(p, settings, 60);
    ASSERT_TRUE(s.hasTemperature);
    for (size_t b = 1; b < 19; ++b) {
        // At height z the particles are z seconds old: T = 1800 - 800 z. Emission-weighted over a bin 40 K wide,
        // the hotter (brighter) side pulls the mean up by less than half the bin's span.
        const double expected = 1800.0 - 800.0 * s.rows[b].z - kAmbientKelvin;
        EXPECT_NEAR(s.rows[b].temperatureRise, expected, 20.0) << s.rows[b].z;
        EXPECT_GT(s.rows[b - 1].temperatureRise, s.rows[b].temperatureRise);
    }
    // The blackbody's luminance falls with temperature, so the presence threshold cuts the cooler top: the
    // flame ends below the column's 1 m.
    EXPECT_LT(s.flameHeight, 1.0);
    EXPECT_GT(s.flameHeight, 0.3);
}

TEST(FireProbe, ThePapersFireHasAnAttachedFlameThatThinsWithHeight) {
    const sim::FireParams p;  // the defaults
    ProbeSettings settings;
    const FireStatistics s = record(p, settings, 240);
    EXPECT_GT(s.flameHeight, 0.2);
    EXPECT_LT(s.flameHeight, settings.top);
    EXPECT_DOUBLE_EQ(s.rows[0].intermittency, 1.0);
    EXPECT_LT(s.rows.back().intermittency, 0.5);
    // The flame's tip moves (the sway and the turbulence), so its spectrum is not flat zero.
    EXPECT_GT(s.tipSpectrum.peakPower, 0.0);
    EXPECT_NEAR(s.tipSpectrum.resolutionHz, 60.0 / 240.0, 1e-6);  // a float step
    EXPECT_GT(s.rows[2].velocity, 0.0);
}

}  // namespace
}  // namespace firelab::physics

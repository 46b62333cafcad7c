// The correlations against numbers their sources publish: Heskestad's flame height in Karlsson & Quintiere's
// worked example, McCaffrey's regimes as NIST's FDS Validation Guide tabulates them, Cetegen & Ahmed's puffing
// law, Heskestad's far-field plume constants at ambient air (the SFPE Handbook's 25.0 and 1.03).
#include <cmath>

#include <gtest/gtest.h>

#include "physics/correlations.h"

namespace firelab::physics {
namespace {

TEST(Correlations, HeskestadFlameHeightIsKarlssonAndQuintieresExample) {
    // Enclosure Fire Dynamics (Karlsson & Quintiere 2000), Example 4.1: 1690 kW on a 1.6 m pool, L = 2.96 m.
    EXPECT_NEAR(heskestadFlameHeight(1690.0, 1.6), 2.96, 0.005);
    // Its virtual origin, 0.083 Q^(2/5) - 1.02 D: below the pool's surface for so wide a fire.
    EXPECT_NEAR(heskestadVirtualOrigin(1690.0, 1.6), 0.083 * std::pow(1690.0, 0.4) - 1.632, 1e-12);
    EXPECT_LT(heskestadVirtualOrigin(1690.0, 1.6), 0.0);
}

TEST(Correlations, HeskestadRangeIsItsRatio) {
    EXPECT_TRUE(inFlameHeightRange(1690.0, 1.6));  // Q^(2/5)/D = 12.2
    EXPECT_FALSE(inFlameHeightRange(10.0, 1.0));   // 2.5: a mass fire, below 7
    EXPECT_FALSE(inFlameHeightRange(1e6, 0.01));   // 25,000: a jet, beyond 700
    EXPECT_FALSE(inFlameHeightRange(0.0, 1.0));
    EXPECT_FALSE(inFlameHeightRange(100.0, -1.0));
}

TEST(Correlations, McCaffreyRegimesAreTheTabulatedPowerLaws) {
    const McCaffreyPoint flame = mcCaffrey(0.04);
    EXPECT_EQ(flame.regime, McCaffreyRegime::Continuous);
    EXPECT_NEAR(flame.velocityScaled, 6.84 * 0.2, 1e-12);  // 6.84 eta^(1/2)
    EXPECT_DOUBLE_EQ(flame.temperatureRise, 800.0);
    const McCaffreyPoint intermittent = mcCaffrey(0.1);
    EXPECT_EQ(intermittent.regime, McCaffreyRegime::Intermittent);
    EXPECT_DOUBLE_EQ(intermittent.velocityScaled, 1.93);
    EXPECT_NEAR(intermittent.temperatureRise, 630.0, 1e-9);
    const McCaffreyPoint plume = mcCaffrey(1.0);
    EXPECT_EQ(plume.regime, McCaffreyRegime::Plume);
    EXPECT_NEAR(plume.velocityScaled, 1.12, 1e-12);
    EXPECT_NEAR(plume.temperatureRise, 21.6, 1e-12);
    EXPECT_EQ(regimeName(plume.regime), "plume");
}

TEST(Correlations, McCaffreyRegimesMeetAtTheirBoundsWithinTheirRounding) {
    // McCaffrey's constants are rounded to three figures, so the regimes join within a few per cent, not exactly.
    for (const double edge : {kMcCaffreyContinuousEnd, kMcCaffreyIntermittentEnd}) {
        const McCaffreyPoint below = mcCaffrey(edge * (1 - 1e-9)), above = mcCaffrey(edge * (1 + 1e-9));
        EXPECT_NEAR(below.velocityScaled / above.velocityScaled, 1.0, 0.02) << edge;
        EXPECT_NEAR(below.temperatureRise / above.temperatureRise, 1.0, 0.03) << edge;
    }
}

TEST(Correlations, McCaffreyAtAHeightScalesByThePower) {
    // 100 kW: Q^(2/5) = 6.31, so z = 0.631 m is eta = 0.1 and u = 1.93 Q^(1/5) = 1.93 x 2.512 m/s.
    const CentrelinePoint p = mcCaffreyAt(std::pow(100.0, 0.4) * 0.1, 100.0);
    EXPECT_EQ(p.regime, McCaffreyRegime::Intermittent);
    EXPECT_NEAR(p.velocity, 1.93 * std::pow(100.0, 0.2), 1e-9);
    EXPECT_NEAR(p.temperatureRise, 630.0, 1e-6);
}

TEST(Correlations, PuffingFrequencyIsCetegenAndAhmeds) {
    EXPECT_DOUBLE_EQ(puffingFrequency(1.0), 1.5);
    EXPECT_NEAR(puffingFrequency(0.25), 3.0, 1e-12);
    EXPECT_NEAR(puffingFrequency(100.0), 0.15, 1e-12);
    EXPECT_TRUE(inPuffingRange(0.31));
    EXPECT_FALSE(inPuffingRange(0.001));
    EXPECT_FALSE(inPuffingRange(500.0));
}

TEST(Correlations, HeskestadPlumeHasTheHandbooksAmbientConstants) {
    // At 293 K, 1.2 kg/m^3, cp 1.0 kJ/(kg K): dT0 = 25.0 Qc^(2/3) (z - z0)^(-5/3), u0 = 1.03 Qc^(1/3) (z - z0)^(-1/3).
    const double kw = 1000.0, d = 1.0, z0 = heskestadVirtualOrigin(kw, d), qc = kConvectiveFraction * kw;
    const PlumePoint p = heskestadPlume(z0 + 1.0, kw, d);
    EXPECT_NEAR(p.temperatureRise / std::pow(qc, 2.0 / 3.0), 25.0, 0.05);
    EXPECT_NEAR(p.velocity / std::cbrt(qc), 1.03, 0.005);
    // Twice as far from the origin: 2^(-5/3) and 2^(-1/3) of it.
    const PlumePoint q = heskestadPlume(z0 + 2.0, kw, d);
    EXPECT_NEAR(q.temperatureRise / p.temperatureRise, std::pow(2.0, -5.0 / 3.0), 1e-12);
    EXPECT_NEAR(q.velocity / p.velocity, std::pow(2.0, -1.0 / 3.0), 1e-12);
    EXPECT_TRUE(std::isnan(heskestadPlume(z0 - 0.1, kw, d).velocity));
}

}  // namespace
}  // namespace firelab::physics

// --rate (the D3D9 system's timePerParticle = 1 / rate): the emission rate set directly, independent of
// the lifetime, with --particles as the most alive at once (births that find the pool full are dropped).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "sim/fire_system.h"
#include "sim/params.h"
#include "support/frame_step.h"

namespace firelab::sim {
namespace {


FireParams rated(float rate, float lifetime, uint32_t particles) {
    FireParams p;
    p.rate = rate;
    p.lifetimeMean = lifetime;
    p.lifetimeVar = 0.25f * lifetime;
    p.particles = particles;
    p.seed = 11;
    return p;
}

// 10 s at 60 Hz emit R x 10 within 1% whatever the lifetime (the fraction carried: within one particle
// in fact), and the steady count is R x the mean lifetime (within 5%: it fluctuates as births and
// deaths do).
TEST(EmissionRate, TenSecondsEmitRateTimesTenWhateverTheLifetime) {
    for (const float lifetime : {0.5f, 1.2f, 3.0f}) {
        SCOPED_TRACE(lifetime);
        FireSystem fire(rated(1234.5f, lifetime, 50000));
        EXPECT_FLOAT_EQ(fire.emissionRate(), 1234.5f);
        for (int i = 0; i < 600; ++i) fire.step(kDt);
        EXPECT_NEAR(static_cast<double>(fire.emitted()), 12345.0, 0.01 * 12345.0);
        EXPECT_NEAR(static_cast<double>(fire.emitted()), 12345.0, 1.0);
        EXPECT_NEAR(static_cast<double>(fire.pool().alive()), 1234.5 * lifetime, 0.05 * 1234.5 * lifetime);
    }
}

// Without a rate the rate is particles / lifetime, as before.
TEST(EmissionRate, ZeroDerivesTheRateFromTheCount) {
    FireParams p = rated(0.0f, 1.5f, 6000);
    EXPECT_FLOAT_EQ(FireSystem(p).emissionRate(), 4000.0f);
}

// 2000 per second of 1.2 s lives would keep 2400 alive; --particles 500 caps them: the live count never
// exceeds 500 and reaches it, and the births that found the pool full were dropped (far fewer emitted
// than due). The pool is never allocated beyond the cap.
TEST(EmissionRate, ParticlesCapTheLiveCount) {
    FireSystem fire(rated(2000.0f, 1.2f, 500), 2);
    size_t most = 0;
    for (int i = 0; i < 300; ++i) {
        fire.step(kDt);
        ASSERT_LE(fire.pool().alive(), 500u);
        most = std::max(most, fire.pool().alive());
    }
    EXPECT_EQ(most, 500u);
    EXPECT_LT(static_cast<double>(fire.emitted()), 0.5 * 2000.0 * 5.0);
    EXPECT_LE(fire.pool().capacity(), 500u);
    EXPECT_LE(FireSystem::capacityFor(fire.params()), 500u);
}

// The burst is capped too; particles emitted directly beyond the cap (emit() is not capped) only stop
// the steps' births until enough have died.
TEST(EmissionRate, CapAppliesToTheBurst) {
    FireParams p = rated(100.0f, 1.2f, 300);
    p.burst = 1000;
    FireSystem fire(p);
    fire.step(kDt);
    EXPECT_EQ(fire.pool().alive(), 300u);
    fire.emit(200);
    const uint64_t emitted = fire.emitted();
    fire.step(kDt);
    EXPECT_EQ(fire.emitted(), emitted);
    EXPECT_EQ(fire.pool().alive(), 500u);
}

// A rate with room to spare: the pool holds the steady state without growing, sized by the rate, not by
// --particles.
TEST(EmissionRate, PoolIsSizedByTheRateBelowTheCap) {
    const FireParams p = rated(1000.0f, 1.0f, 1'000'000);
    FireSystem fire(p);
    EXPECT_LT(fire.pool().capacity(), 2000u);
    const size_t start = fire.pool().capacity();
    fire.prewarm(kDt);
    for (int i = 0; i < 120; ++i) fire.step(kDt);
    EXPECT_EQ(fire.pool().capacity(), start);
    EXPECT_GE(FireSystem::capacityFor(p), static_cast<size_t>(1000.0 * 1.25));
}

}  // namespace
}  // namespace firelab::sim

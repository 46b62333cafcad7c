// The ground plane (--ground bounce): no particle is below it after any step, a bounce leaves at
// restitution x the normal speed it hit with and keeps 1 - friction of the tangential speed, births below
// it start on it, and the default (--ground off) lets particles fall through.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "core/error.h"
#include "sim/fire_system.h"
#include "sim/look.h"
#include "sim/params.h"
#include "support/error_of.h"
#include "support/frame_step.h"

namespace firelab::sim {
namespace {


// A falling fire: the default emitter and turbulence under gravity, the plane 0.2 m below the emitter.
FireParams fallingFire(Ground ground) {
    FireParams p;
    p.particles = 3000;
    p.seed = 5;
    p.accelMean = {0.0f, -9.81f, 0.0f};
    p.speedMean = {0.0f, 2.0f, 0.0f};
    p.ground = ground;
    p.groundHeight = -0.2f;
    p.restitution = 0.7f;
    return p;
}

float lowestY(const ParticlePool& q) {
    float lo = 1e30f;
    for (size_t i = 0; i < q.alive(); ++i) lo = std::min(lo, q.py[i]);
    return lo;
}

// Seed 5, 3000 particles, 2 threads, 3 s at 60 Hz: after every step the lowest particle is on or above
// the plane (exactly: no tolerance), and particles do reach it (the lowest is within 2 cm of it). Without
// the plane the same fire falls more than a metre below it, so the bound is not met by accident.
TEST(Ground, NoParticleIsBelowTheGroundAfterAnyStep) {
    FireSystem fire(fallingFire(Ground::Bounce), 2);
    float lowest = 1e30f;
    for (int i = 0; i < 180; ++i) {
        fire.step(kDt);
        const float lo = lowestY(fire.pool());
        ASSERT_GE(lo, -0.2f) << "step " << i;
        lowest = std::min(lowest, lo);
    }
    EXPECT_LT(lowest, -0.18f);

    FireSystem falling(fallingFire(Ground::Off), 2);
    for (int i = 0; i < 180; ++i) falling.step(kDt);
    EXPECT_LT(lowestY(falling.pool()), -1.2f);
}

// One particle thrown down and sideways under gravity, no drag, no turbulence: at the step it crosses the
// plane its normal speed becomes restitution x the speed it hit with (its velocity after the step's
// acceleration), upward; its tangential speed keeps 1 - friction; the overshoot below the plane is
// reflected above it at the restitution's fraction. Float rounding only (1e-6 relative).
TEST(Ground, ABounceKeepsRestitutionOfTheNormalSpeedAndLosesFrictionOfTheTangential) {
    FireParams p;
    p.shape = EmitterShape::Rect;
    p.distribution = Distribution::Uniform;
    p.extent = {1e-4f, 0.0f, 1e-4f};
    p.coneAngleDeg = 0.0f;  // the emission frame is the world's
    p.speedMean = {0.5f, -2.0f, 0.25f};
    p.speedVar = glm::vec3(0.0f);
    p.accelMean = {0.0f, -9.81f, 0.0f};
    p.accelVar = glm::vec3(0.0f);
    p.drag = 0.0f;
    p.turbulence = 0.0f;
    p.lifetimeMean = 10.0f;
    p.lifetimeVar = 0.0f;
    p.ground = Ground::Bounce;
    p.groundHeight = -0.3f;
    p.restitution = 0.6f;
    p.friction = 0.25f;
    FireSystem fire(p);
    fire.emit(1);
    const ParticlePool& q = fire.pool();
    int bounces = 0;
    for (int i = 0; i < 120 && bounces < 2; ++i) {
        const float vyHit = q.vy[0] + p.accelMean.y * kDt;  // the velocity the step moves with
        const float yMoved = q.py[0] + vyHit * kDt;
        const float vx = q.vx[0], vz = q.vz[0];
        fire.integrate(kDt);
        if (yMoved >= p.groundHeight) {
            EXPECT_FLOAT_EQ(q.vy[0], vyHit);
            continue;
        }
        ++bounces;
        EXPECT_NEAR(q.vy[0], -vyHit * p.restitution, 1e-6f * std::fabs(vyHit));
        EXPECT_FLOAT_EQ(q.vx[0], vx * 0.75f);
        EXPECT_FLOAT_EQ(q.vz[0], vz * 0.75f);
        EXPECT_NEAR(q.py[0], p.groundHeight + (p.groundHeight - yMoved) * p.restitution, 1e-6f);
        EXPECT_GE(q.py[0], p.groundHeight);
        EXPECT_EQ(q.bounces[0], bounces);  // ParticlePool::bounces counts them
    }
    EXPECT_EQ(bounces, 2) << "the particle should hit the ground twice in 2 s";
}

// A particle dropped on the plane bounces ever lower, then rests on it, touching it every step or two: its count
// stops where it hits slower than three steps of gravity give (sim::contactOf: 0.49 m/s at 60 Hz), however long it
// rests.
TEST(Ground, BouncesAreCountedUntilTheParticleRests) {
    FireParams p;
    p.shape = EmitterShape::Rect;
    p.distribution = Distribution::Uniform;
    p.extent = {1e-4f, 0.0f, 1e-4f};
    p.speedMean = glm::vec3(0.0f);
    p.speedVar = glm::vec3(0.0f);
    p.accelMean = {0.0f, -9.81f, 0.0f};
    p.accelVar = glm::vec3(0.0f);
    p.drag = p.turbulence = 0.0f;
    p.lifetimeMean = 10.0f;
    p.lifetimeVar = 0.0f;
    p.ground = Ground::Bounce;
    p.groundHeight = -1.0f;
    p.restitution = 0.5f;
    FireSystem fire(p);
    fire.emit(1);
    const ParticlePool& q = fire.pool();
    int contacts = 0;
    for (int i = 0; i < 480; ++i) {
        const float before = q.vy[0] + p.accelMean.y * kDt;
        fire.integrate(kDt);
        if (q.vy[0] > 0.0f || before < 0.0f) contacts += q.vy[0] >= 0.0f && before < 0.0f ? 1 : 0;
    }
    // Falling 1 m it hits at 4.4 m/s, then at 2.2, 1.1 and 0.55 (4 bounces), then at 0.28 and slower: hops at rest.
    std::printf("[ measured ] %d contacts in 8 s, %d counted as bounces\n", contacts, int(q.bounces[0]));
    EXPECT_EQ(q.bounces[0], 4);
    EXPECT_GT(contacts, 100);  // resting: a contact every step or two
}

// --bounce-fog N (NVIDIA's fog by bounce number, N = 3 in its shader): the rgb times 1 - bounces / N, down to
// black; alpha kept; 0 leaves the colour alone. Every colour the renderers take (lookTint, colorOf) is fogged.
TEST(Ground, BounceFogDarkensTheColourByBounceNumber) {
    FireParams p;
    p.bounceFog = 3.0f;
    EXPECT_FLOAT_EQ(bounceFogOf(p, 0), 1.0f);
    EXPECT_FLOAT_EQ(bounceFogOf(p, 1), 2.0f / 3.0f);
    EXPECT_FLOAT_EQ(bounceFogOf(p, 3), 0.0f);
    EXPECT_FLOAT_EQ(bounceFogOf(p, 200), 0.0f);
    const glm::vec4 fresh = colorOf(p, 0.3f, 0.5f), twice = colorOf(p, 0.3f, 0.5f, kNoGas, 2);
    EXPECT_NEAR(twice.r, fresh.r / 3.0f, 1e-6f);
    EXPECT_NEAR(twice.g, fresh.g / 3.0f, 1e-6f);
    EXPECT_FLOAT_EQ(twice.a, fresh.a);
    EXPECT_NEAR(lookTint(p, 0.3f, 0.5f, kNoGas, 1).x, 2.0f / 3.0f, 1e-6f);
    EXPECT_TRUE(hasTint(p));  // the CPU-simulated strategies stream it
    p.bounceFog = 0.0f;
    EXPECT_EQ(colorOf(p, 0.3f, 0.5f, kNoGas, 7), colorOf(p, 0.3f, 0.5f));
}

// A sphere emitter halfway under the plane: every birth is on or above it, and the ones drawn below sit on it.
TEST(Ground, BirthsBelowTheGroundStartOnIt) {
    FireParams p;
    p.shape = EmitterShape::Sphere;
    p.distribution = Distribution::Uniform;
    p.particles = 4000;
    p.ground = Ground::Bounce;
    p.groundHeight = 0.1f;
    FireSystem fire(p);
    fire.emit(4000);
    size_t onPlane = 0;
    for (size_t i = 0; i < fire.pool().alive(); ++i) {
        ASSERT_GE(fire.pool().py[i], 0.1f);
        onPlane += fire.pool().py[i] == 0.1f;
    }
    EXPECT_GT(onPlane, 4000u / 2);  // the ball below y = 0.1 (0.29 of its radius): 71% of it
}

TEST(Ground, OutOfRangeRestitutionAndFrictionNameTheParameter) {
    FireParams p;
    const Error e = testing::errorOf([&] { setParam(p, "restitution", "1.5"); });
    EXPECT_EQ(e.code(), ErrorCode::BadValue);
    EXPECT_NE(std::string(e.what()).find("--restitution 1.5"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("[0, 1]"), std::string::npos) << e.what();
    EXPECT_EQ(testing::errorOf([&] { setParam(p, "friction", "-0.1"); }).code(), ErrorCode::BadValue);
    EXPECT_EQ(testing::errorOf([&] { setParam(p, "ground", "stick"); }).code(), ErrorCode::UnknownName);
}

}  // namespace
}  // namespace firelab::sim

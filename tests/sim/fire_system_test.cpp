// FireSystem over time: steady-state count, the fractional carry of low rates, the first-step burst,
// and death (no particle outlives its lifetime; kill-by-swap keeps exactly the living).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <tuple>
#include <vector>

#include "sim/fire_system.h"
#include "sim/params.h"
#include "support/frame_step.h"

namespace firelab::sim {
namespace {


// Steady state: with rate = N / lifetime, the live count settles at N (plus dt / (2 lifetime), 0.7%, from
// counting after emission). Seed 3, default model, prewarm then 3 s at 60 Hz: the mean count is within
// 3% of N and no single step strays more than 8% from it.
class SteadyState : public ::testing::TestWithParam<uint32_t> {};

TEST_P(SteadyState, AliveCountSettlesAtTheTarget) {
    FireParams p;
    p.particles = GetParam();
    p.seed = 3;
    FireSystem fire(p, 2);
    fire.prewarm(kDt);
    const double n = static_cast<double>(p.particles);
    double sum = 0.0, lo = 1e300, hi = 0.0;
    const int steps = 180;
    for (int i = 0; i < steps; ++i) {
        fire.step(kDt);
        const auto alive = static_cast<double>(fire.pool().alive());
        sum += alive;
        lo = std::min(lo, alive);
        hi = std::max(hi, alive);
    }
    EXPECT_NEAR(sum / steps, n, 0.03 * n);
    EXPECT_GT(lo, 0.92 * n);
    EXPECT_LT(hi, 1.08 * n);
    EXPECT_LE(fire.pool().alive(), fire.pool().capacity());
}

INSTANTIATE_TEST_SUITE_P(Counts, SteadyState, ::testing::Values(5000u, 20000u));

TEST(FireSystem, PrewarmReachesSteadyStateAndAdvancesTime) {
    FireParams p;
    p.particles = 5000;
    FireSystem fire(p);
    EXPECT_EQ(fire.pool().alive(), 0u);
    fire.prewarm(kDt);
    EXPECT_GE(fire.time(), static_cast<double>(p.lifetimeMean + p.lifetimeVar));
    EXPECT_NEAR(static_cast<double>(fire.pool().alive()), 5000.0, 0.05 * 5000.0);
}

TEST(FireSystem, EmissionRateIsParticlesOverLifetime) {
    FireParams p;
    p.particles = 6000;
    p.lifetimeMean = 1.5f;
    EXPECT_FLOAT_EQ(FireSystem(p).emissionRate(), 4000.0f);
}

// particles = 10 and lifetime 10 s give 1 particle per second: 1/60 of a particle per step, which
// emits nothing unless the fractional part is carried. Deterministic (no tolerance beyond float steps).
TEST(FireSystem, LowRatesCarryTheFraction) {
    FireParams p;
    p.particles = 10;
    p.lifetimeMean = 10.0f;
    p.lifetimeVar = 0.0f;
    FireSystem fire(p);
    for (int i = 0; i < 59; ++i) fire.step(kDt);
    EXPECT_EQ(fire.pool().alive(), 0u) << "less than one particle is due before 1 s";
    for (int i = 0; i < 60 * 9; ++i) fire.step(kDt);  // to 9.98 s: one a second, none dead yet
    EXPECT_EQ(fire.pool().alive(), 9u);
    for (int i = 0; i < 60 * 50; ++i) {  // steady state: 10 alive, 11 for the step a birth and a death meet
        fire.step(kDt);
        ASSERT_GE(fire.pool().alive(), 9u);
        ASSERT_LE(fire.pool().alive(), 11u);
    }
}

// A rate of 100.5 per second at 1 s steps alternates 100 and 101 births: the total is exact.
TEST(FireSystem, CarryKeepsTheLongRunTotalExact) {
    FireParams p;
    p.particles = 201;
    p.lifetimeMean = 2.0f;
    p.lifetimeVar = 0.0f;
    FireSystem fire(p);
    fire.step(1.0f);
    EXPECT_EQ(fire.pool().alive(), 100u);
    fire.step(1.0f);  // nobody has reached 2 s yet
    EXPECT_EQ(fire.pool().alive(), 201u);
}

TEST(FireSystem, FirstStepEmitsTheBurstOnce) {
    FireParams p;
    p.particles = 625;  // 500 per second (exactly, in float): 8.33 per step at 60 Hz
    p.lifetimeMean = 1.25f;
    p.lifetimeVar = 0.25f;
    p.burst = 300;
    FireSystem fire(p);
    fire.step(kDt);
    EXPECT_EQ(fire.pool().alive(), 300u + 8u);
    fire.step(kDt);
    EXPECT_EQ(fire.pool().alive(), 300u + 16u);  // carry 0.67: still 8 this step, and no second burst
    fire.step(kDt);
    EXPECT_EQ(fire.pool().alive(), 300u + 25u);
}

TEST(FireSystem, BurstLargerThanTheSteadyStateFitsInThePool) {
    FireParams p;
    p.particles = 100;
    p.burst = 5000;
    FireSystem fire(p);
    fire.step(kDt);
    EXPECT_GE(fire.pool().alive(), 5000u);
}

// Every step: the survivors are exactly the particles whose age after the update is below their
// lifetime (compared as (life, rnd, scale) multisets), new particles are appended after them, and no
// live particle has age >= lifetime. Seed 9, lifetimes spread widely so deaths happen all through the
// pool; 1 thread, and 3 threads with enough particles that the dead are found in several ranges.
struct KillCase {
    unsigned threads;
    uint32_t particles;
    int steps;
};
class StepKills : public ::testing::TestWithParam<KillCase> {};

TEST_P(StepKills, ExactlyTheDeadAndKeepsTheLiving) {
    FireParams p;
    p.particles = GetParam().particles;
    p.lifetimeMean = 0.5f;
    p.lifetimeVar = 0.45f;
    p.seed = 9;
    FireSystem fire(p, GetParam().threads);
    double carry = 0.0;  // the system's own carry, recomputed the same way
    using Id = std::tuple<float, float, float>;
    size_t maxAlive = 0;
    for (int s = 0; s < GetParam().steps; ++s) {
        const ParticlePool& q = fire.pool();
        std::vector<Id> expected;
        for (size_t i = 0; i < q.alive(); ++i)
            if (q.age[i] + kDt < q.life[i]) expected.emplace_back(q.life[i], q.rnd[i], q.scale[i]);
        fire.step(kDt);
        carry += static_cast<double>(fire.emissionRate()) * kDt;
        const double born = std::floor(carry);
        carry -= born;
        ASSERT_EQ(q.alive(), expected.size() + static_cast<size_t>(born)) << "step " << s;
        // Newborns (age 0) may fill the slots of the dead or follow the survivors: tell them by age.
        std::vector<Id> survivors;
        size_t newborn = 0;
        for (size_t i = 0; i < q.alive(); ++i) {
            if (q.age[i] == 0.0f)
                ++newborn;
            else
                survivors.emplace_back(q.life[i], q.rnd[i], q.scale[i]);
        }
        EXPECT_EQ(newborn, static_cast<size_t>(born)) << "step " << s;
        std::sort(expected.begin(), expected.end());
        std::sort(survivors.begin(), survivors.end());
        ASSERT_EQ(survivors, expected) << "step " << s;
        for (size_t i = 0; i < q.alive(); ++i) {
            ASSERT_LT(q.age[i], q.life[i]) << "step " << s << " particle " << i;
            ASSERT_GE(q.age[i], 0.0f);
        }
        maxAlive = std::max(maxAlive, q.alive());
    }
    EXPECT_GT(maxAlive, static_cast<size_t>(0.8 * p.particles));
}

INSTANTIATE_TEST_SUITE_P(Threads, StepKills, ::testing::Values(KillCase{1, 3000, 120}, KillCase{3, 30000, 70}),
                         [](const ::testing::TestParamInfo<KillCase>& i) {
                             return std::to_string(i.param.threads) + "threads";
                         });

// A burst whose particles all share one lifetime dies in a single step, from every range at once,
// leaving only what was emitted since; for 1 and 4 threads.
TEST(FireSystem, WholeBurstDiesInOneStep) {
    for (unsigned threads : {1u, 4u}) {
        FireParams p;
        p.particles = 30;  // 60 per second: 1 per step
        p.lifetimeMean = 0.5f;
        p.lifetimeVar = 0.0f;
        p.burst = 40000;
        FireSystem fire(p, threads);
        fire.step(kDt);
        int step = 1;
        size_t before = fire.pool().alive();
        ASSERT_EQ(before, 40001u);
        while (fire.pool().alive() >= 40000) {
            before = fire.pool().alive();
            fire.step(kDt);
            ASSERT_LT(++step, 100);
        }
        EXPECT_GE(step, 30) << "a 0.5 s life lasts 30 steps (31 if the float ages fall just short)";
        EXPECT_LE(step, 31);
        EXPECT_EQ(before, 40000u + static_cast<size_t>(step - 1)) << threads << " threads";
        // Left: the one-per-step births, less the first, which was born with the burst and died with it.
        EXPECT_EQ(fire.pool().alive(), static_cast<size_t>(step - 1)) << threads << " threads";
        for (size_t i = 0; i < fire.pool().alive(); ++i) ASSERT_LT(fire.pool().age[i], 0.5f);
    }
}

// integrate() moves particles by v dt and ages them, and emits and kills nothing.
TEST(FireSystem, IntegrateMovesAndAgesWithoutEmittingOrKilling) {
    FireParams p;
    p.particles = 1000;
    p.turbulence = 0.0f;
    p.drag = 0.0f;
    FireSystem fire(p);
    fire.emit(1000);
    const ParticlePool& q = fire.pool();
    const std::vector<float> y0(q.py, q.py + q.alive()), vy0(q.vy, q.vy + q.alive()), ay0(q.ay, q.ay + q.alive());
    for (int i = 0; i < 600; ++i) fire.integrate(kDt);  // 10 s: far past every lifetime
    EXPECT_EQ(q.alive(), 1000u);
    for (size_t i = 0; i < q.alive(); ++i) {
        EXPECT_NEAR(q.age[i], 10.0f, 1e-3f);
        // Semi-implicit Euler under constant acceleration: v = v0 + a t, y = y0 + v0 t + a t (t + dt) / 2.
        EXPECT_NEAR(q.vy[i], vy0[i] + ay0[i] * 10.0f, 2e-3f);
        EXPECT_NEAR(q.py[i], y0[i] + vy0[i] * 10.0f + ay0[i] * 10.0f * (10.0f + kDt) / 2.0f, 2e-2f);
    }
}

// Drag halves the velocity every ln(2)/drag seconds.
TEST(FireSystem, DragDampsVelocityExponentially) {
    FireParams p;
    p.particles = 100;
    p.turbulence = 0.0f;
    p.drag = 2.0f;
    p.accelMean = glm::vec3(0.0f);
    p.accelVar = glm::vec3(0.0f);
    FireSystem fire(p);
    fire.emit(100);
    const ParticlePool& q = fire.pool();
    const std::vector<float> vy0(q.vy, q.vy + q.alive());
    for (int i = 0; i < 60; ++i) fire.integrate(kDt);
    for (size_t i = 0; i < q.alive(); ++i) EXPECT_NEAR(q.vy[i], vy0[i] * std::exp(-2.0f), 1e-4f);
}

// --drag-on launch (NVIDIA's shader): the drag slows the launch velocity only, v = v0 e^{-d t} + a t, where the
// velocity drag gives v0 e^{-d t} + a (1 - e^{-d t}) / d (a terminal speed a / d).
TEST(FireSystem, LaunchDragLeavesTheAccelerationUndamped) {
    for (const DragOn on : {DragOn::Launch, DragOn::Velocity}) {
        FireParams p;
        p.particles = 100;
        p.turbulence = 0.0f;
        p.drag = 2.0f;
        p.dragOn = on;
        FireSystem fire(p);
        fire.emit(100);
        const ParticlePool& q = fire.pool();
        const std::vector<float> vy0(q.vy, q.vy + q.alive()), ay0(q.ay, q.ay + q.alive());
        for (int i = 0; i < 60; ++i) fire.integrate(kDt);
        // Stepped: the damping e^{-d dt} once a step, after the step's acceleration (so the velocity drag's sum is
        // dt (k + k^2 + ... + k^60) = dt k (1 - k^60) / (1 - k), k = e^{-d dt}).
        const float k = std::exp(-2.0f * kDt), e = std::pow(k, 60.0f), t = 60 * kDt;
        for (size_t i = 0; i < q.alive(); ++i) {
            const float launch = vy0[i] * e + ay0[i] * t,
                        velocity = vy0[i] * e + ay0[i] * kDt * k * (1.0f - e) / (1.0f - k);
            EXPECT_NEAR(q.vy[i], on == DragOn::Launch ? launch : velocity, 1e-4f) << kDragOnNames[size_t(on)];
            ASSERT_GT(std::abs(launch - velocity), 0.3f);  // the two differ: the test tells them apart
        }
    }
}

TEST(FireSystem, CapacityBoundHoldsTheLongestLivesPlusBurst) {
    FireParams p;
    p.particles = 20000;
    p.burst = 1000;
    const size_t cap = FireSystem::capacityFor(p);
    const double rate = 20000.0 / static_cast<double>(p.lifetimeMean);
    EXPECT_GE(static_cast<double>(cap), rate * static_cast<double>(p.lifetimeMean + p.lifetimeVar) + 1000.0);
}

// The CPU pool starts near the steady state (at most 64 bytes per steady-state particle at 20k) and
// does not need to grow at steady state with the default model.
TEST(FireSystem, PoolStartsTightAndHoldsTheSteadyState) {
    FireParams p;
    p.particles = 20000;
    FireSystem fire(p, 1);
    const size_t start = fire.pool().capacity();
    EXPECT_EQ(start, FireSystem::initialCapacity(p));
    EXPECT_LE(static_cast<double>(start * fire.pool().bytesPerParticle()) / p.particles, 64.0);
    fire.prewarm(kDt);
    for (int i = 0; i < 300; ++i) fire.step(kDt);
    EXPECT_EQ(fire.pool().capacity(), start);
}

// A step longer than the pool was sized for (many births at once) grows it: nothing is dropped.
TEST(FireSystem, LongStepsGrowThePoolInsteadOfDroppingBirths) {
    FireParams p;
    p.particles = 10000;
    p.lifetimeVar = 0.0f;
    FireSystem fire(p, 1);
    for (int i = 0; i < 3; ++i) fire.step(0.5f);
    // 3 steps of 0.5 s at 10000 / 1.2 s per s, all younger than 1.2 s: none has died yet.
    // (12500 up to the float rounding of the carried rate.)
    EXPECT_GT(fire.pool().capacity(), FireSystem::initialCapacity(p));
    EXPECT_NEAR(static_cast<double>(fire.pool().alive()), 3 * 0.5 * 10000.0 / 1.2, 1.0);
}

// A burst period repeats the burst (an explosion going off again), also after every particle of the
// last one has died: the pool empties and must refill. (It once did not: a worker part that saw an empty
// pool kept the previous step's dead list, and the births that followed were counted as over the cap.)
TEST(FireSystemBurst, RepeatsEveryPeriodAfterThePoolEmpties) {
    FireParams p;
    p.burst = 100, p.burstPeriod = 1.0f, p.rate = 0.001f, p.particles = 100;
    p.lifetimeMean = 0.5f, p.lifetimeVar = 0.0f;
    for (unsigned threads : {1u, 3u}) {
        FireSystem fire(p, threads);
        std::vector<size_t> alive;
        for (int i = 0; i < 200; ++i) {
            fire.step(1.0f / 60);
            alive.push_back(fire.pool().alive());
        }
        EXPECT_EQ(alive[10], 100u);       // the first burst, at t = 0
        EXPECT_EQ(alive[45], 0u);         // dead at 0.5 s
        EXPECT_EQ(alive[70], 100u);       // the second, at 1 s
        EXPECT_EQ(alive[130], 100u);      // the third, at 2 s
        EXPECT_EQ(fire.emitted(), 400u);  // bursts at 0, 1, 2 and 3 s (step 180)
    }
}

}  // namespace
}  // namespace firelab::sim

// The initial state of emitted particles: ejection directions (cone, radial), initial velocity and
// acceleration means and spreads, lifetimes, size scales. Statistical checks state their seed and tolerance.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include <glm/geometric.hpp>

#include "sim/emitter.h"
#include "sim/fire_system.h"
#include "sim/params.h"

namespace firelab::sim {
namespace {

constexpr size_t kSamples = 40000;
constexpr double kPi = 3.14159265358979323846;

struct Moments {
    double mean = 0.0, sd = 0.0, min = 1e300, max = -1e300;
};

Moments momentsOf(const float* x, size_t n) {
    Moments m;
    double s = 0.0, s2 = 0.0;
    for (size_t i = 0; i < n; ++i) {
        const auto v = static_cast<double>(x[i]);
        s += v;
        s2 += v * v;
        m.min = std::min(m.min, v);
        m.max = std::max(m.max, v);
    }
    const auto dn = static_cast<double>(n);
    m.mean = s / dn;
    m.sd = std::sqrt(std::max(0.0, s2 / dn - m.mean * m.mean));
    return m;
}

// A value drawn as mean + U[-1, 1] * var: mean within 5 standard errors (SE = var / sqrt(3n)), standard
// deviation var / sqrt(3) within 2% (about 9 SE for n = 40000), every draw within [mean - var, mean + var].
void expectUniformAround(const float* x, size_t n, float mean, float var, const char* what) {
    SCOPED_TRACE(what);
    const Moments m = momentsOf(x, n);
    const double expectedSd = static_cast<double>(var) / std::sqrt(3.0);
    EXPECT_NEAR(m.mean, static_cast<double>(mean), 5.0 * expectedSd / std::sqrt(static_cast<double>(n)) + 1e-6);
    EXPECT_NEAR(m.sd, expectedSd, 0.02 * expectedSd + 1e-6);
    const double slack = 1e-5 * (std::fabs(static_cast<double>(mean)) + static_cast<double>(var));
    EXPECT_GE(m.min, static_cast<double>(mean - var) - slack);
    EXPECT_LE(m.max, static_cast<double>(mean + var) + slack);
}

FireParams baseParams(EmitterShape shape, uint64_t seed) {
    FireParams p;
    p.shape = shape;
    p.seed = seed;
    p.particles = static_cast<uint32_t>(kSamples);
    return p;
}

double angleFromUpDeg(float vx, float vy, float vz) {
    const glm::dvec3 v(vx, vy, vz);
    return std::acos(std::clamp(v.y / glm::length(v), -1.0, 1.0)) * 180.0 / kPi;
}

// Seed 7, 40000 particles. Rect and circle eject within the cone around +y: no direction is outside it
// (0.01 degree slack for float rounding), the widest is near the edge (> 0.97 of the half-angle), and the
// mean cosine is that of a uniform spherical cap, (1 + cos(alpha)) / 2, within 5 standard errors (the
// cosine is uniform on [cos(alpha), 1], so SE = (1 - cos(alpha)) / sqrt(12 n)).
TEST(EmissionDirection, RectAndCircleStayWithinTheCone) {
    for (EmitterShape shape : {EmitterShape::Rect, EmitterShape::Circle}) {
        for (float cone : {0.0f, 12.0f, 45.0f}) {
            SCOPED_TRACE(::testing::Message() << "shape " << static_cast<int>(shape) << " cone " << cone);
            FireParams p = baseParams(shape, 7);
            p.coneAngleDeg = cone;
            p.speedMean = {0.0f, 2.0f, 0.0f};
            p.speedVar = glm::vec3(0.0f);
            FireSystem fire(p);
            fire.emit(kSamples);
            const ParticlePool& q = fire.pool();
            double widest = 0.0, meanCos = 0.0;
            for (size_t i = 0; i < q.alive(); ++i) {
                widest = std::max(widest, angleFromUpDeg(q.vx[i], q.vy[i], q.vz[i]));
                meanCos += static_cast<double>(q.vy[i]) / glm::length(glm::dvec3(q.vx[i], q.vy[i], q.vz[i]));
            }
            meanCos /= static_cast<double>(q.alive());
            EXPECT_LE(widest, static_cast<double>(cone) + 0.01);
            if (cone > 0.0f) {
                EXPECT_GT(widest, 0.97 * static_cast<double>(cone));
            }
            const double cosA = std::cos(static_cast<double>(cone) * kPi / 180.0);
            const double se = (1.0 - cosA) / std::sqrt(12.0 * static_cast<double>(q.alive()));
            EXPECT_NEAR(meanCos, (1.0 + cosA) / 2.0, 5.0 * se + 1e-6);
        }
    }
}

TEST(EmissionDirection, ZeroConeEmitsStraightUp) {
    FireParams p = baseParams(EmitterShape::Circle, 3);
    p.coneAngleDeg = 0.0f;
    p.speedMean = {0.0f, 1.5f, 0.0f};
    p.speedVar = glm::vec3(0.0f);
    FireSystem fire(p);
    fire.emit(1000);
    const ParticlePool& q = fire.pool();
    for (size_t i = 0; i < q.alive(); ++i) {
        ASSERT_EQ(q.vx[i], 0.0f);
        ASSERT_EQ(q.vy[i], 1.5f);
        ASSERT_EQ(q.vz[i], 0.0f);
    }
}

// Seed 11, 40000 particles per distribution. The sphere ejects radially: with no speed variance and
// speed (0, s, 0) in the emission frame, every velocity has length s and points along position - centre
// (angle below 0.05 degree), including near the poles where the emission frame is rotated most.
TEST(EmissionDirection, SphereVelocitiesAreRadial) {
    for (Distribution dist : {Distribution::Uniform, Distribution::Normal}) {
        FireParams p = baseParams(EmitterShape::Sphere, 11);
        p.distribution = dist;
        p.center = {0.5f, 1.0f, -0.25f};
        p.speedMean = {0.0f, 1.75f, 0.0f};
        p.speedVar = glm::vec3(0.0f);
        FireSystem fire(p);
        fire.emit(kSamples);
        const ParticlePool& q = fire.pool();
        double worstDeg = 0.0, worstLen = 0.0;
        size_t down = 0;
        for (size_t i = 0; i < q.alive(); ++i) {
            const glm::dvec3 v(q.vx[i], q.vy[i], q.vz[i]);
            const glm::dvec3 r = glm::dvec3(q.px[i], q.py[i], q.pz[i]) - glm::dvec3(p.center);
            if (glm::length(r) < 1e-3) continue;  // float rounding of the position dominates at the centre
            const double c = glm::dot(v, r) / (glm::length(v) * glm::length(r));
            worstDeg = std::max(worstDeg, std::acos(std::clamp(c, -1.0, 1.0)) * 180.0 / kPi);
            worstLen = std::max(worstLen, std::fabs(glm::length(v) - 1.75));
            down += r.y < 0.0 ? 1 : 0;
        }
        EXPECT_LT(worstDeg, 0.05) << "distribution " << static_cast<int>(dist);
        EXPECT_LT(worstLen, 1e-4) << "distribution " << static_cast<int>(dist);
        EXPECT_GT(down, kSamples / 3);  // the lower half ejects downward too
    }
}

// The rotation into the emission frame carries +y onto the direction, and is a rotation (keeps lengths),
// for directions all over the sphere, including right at and next to the poles.
TEST(EmissionDirection, EmissionFrameMapsUpOntoTheDirection) {
    std::vector<glm::vec3> dirs;
    Rng rng(5, 0);
    for (int i = 0; i < 20000; ++i) {
        glm::vec3 d(rng.symmetric(), rng.symmetric(), rng.symmetric());
        if (glm::length(d) > 1e-3f) dirs.push_back(glm::normalize(d));
    }
    for (float eps : {0.0f, 1e-6f, 1e-4f, 3e-3f, 1e-2f, 0.05f}) {
        dirs.push_back(glm::normalize(glm::vec3(eps, -1.0f, 0.5f * eps)));
        dirs.push_back(glm::normalize(glm::vec3(-eps, 1.0f, eps)));
    }
    for (const glm::vec3& d : dirs) {
        const glm::vec3 up = fromEmissionFrame(d, {0.0f, 1.0f, 0.0f});
        ASSERT_LT(glm::length(up - d), 1e-4f) << d.x << "," << d.y << "," << d.z;
        const glm::vec3 side = fromEmissionFrame(d, {1.0f, 0.0f, 0.0f});
        ASSERT_NEAR(glm::length(side), 1.0f, 1e-4f);
        ASSERT_NEAR(glm::dot(side, up), 0.0f, 1e-4f);
    }
}

// Seed 21, 40000 particles, rect emitter with cone 0 (the emission frame is the world frame): each
// velocity component is mean + U[-1, 1] * var. Tolerances in expectUniformAround.
TEST(EmissionState, InitialVelocityMeanAndSpreadPerAxis) {
    FireParams p = baseParams(EmitterShape::Rect, 21);
    p.coneAngleDeg = 0.0f;
    p.speedMean = {0.3f, 1.5f, -0.2f};
    p.speedVar = {0.1f, 0.4f, 0.25f};
    FireSystem fire(p);
    fire.emit(kSamples);
    const ParticlePool& q = fire.pool();
    ASSERT_EQ(q.alive(), kSamples);
    expectUniformAround(q.vx, q.alive(), p.speedMean.x, p.speedVar.x, "vx");
    expectUniformAround(q.vy, q.alive(), p.speedMean.y, p.speedVar.y, "vy");
    expectUniformAround(q.vz, q.alive(), p.speedMean.z, p.speedVar.z, "vz");
}

// Seed 22, 40000 particles. Acceleration is drawn in world space: even from a sphere, whose emission
// frames point every way, each component is mean + U[-1, 1] * var around the world-space mean.
TEST(EmissionState, AccelerationMeanAndSpreadInWorldSpace) {
    for (EmitterShape shape : {EmitterShape::Rect, EmitterShape::Sphere}) {
        SCOPED_TRACE(::testing::Message() << "shape " << static_cast<int>(shape));
        FireParams p = baseParams(shape, 22);
        p.accelMean = {0.2f, 1.1f, -0.3f};
        p.accelVar = {0.1f, 0.4f, 0.2f};
        FireSystem fire(p);
        fire.emit(kSamples);
        const ParticlePool& q = fire.pool();
        expectUniformAround(q.ax, q.alive(), p.accelMean.x, p.accelVar.x, "ax");
        expectUniformAround(q.ay, q.alive(), p.accelMean.y, p.accelVar.y, "ay");
        expectUniformAround(q.az, q.alive(), p.accelMean.z, p.accelVar.z, "az");
    }
}

// Seed 23, 40000 particles: lifetime is mean + U[-1, 1] * var, so every lifetime is in
// [mean - var, mean + var] with the right mean and spread; new particles have age 0, a size scale in
// [1 - size-var, 1 + size-var] and a per-particle random number in [0, 1).
TEST(EmissionState, LifetimeSizeAndAge) {
    FireParams p = baseParams(EmitterShape::Circle, 23);
    p.lifetimeMean = 1.5f;
    p.lifetimeVar = 0.5f;
    p.sizeVar = 0.25f;
    FireSystem fire(p);
    fire.emit(kSamples);
    const ParticlePool& q = fire.pool();
    expectUniformAround(q.life, q.alive(), p.lifetimeMean, p.lifetimeVar, "lifetime");
    expectUniformAround(q.scale, q.alive(), 1.0f, p.sizeVar, "size scale");
    const Moments rnd = momentsOf(q.rnd, q.alive());
    EXPECT_GE(rnd.min, 0.0);
    EXPECT_LT(rnd.max, 1.0);
    EXPECT_NEAR(rnd.mean, 0.5, 0.01);
    for (size_t i = 0; i < q.alive(); ++i) ASSERT_EQ(q.age[i], 0.0f);
}

TEST(EmissionState, ZeroLifetimeVarianceGivesTheExactLifetime) {
    FireParams p = baseParams(EmitterShape::Rect, 24);
    p.lifetimeMean = 2.0f;
    p.lifetimeVar = 0.0f;
    FireSystem fire(p);
    fire.emit(1000);
    for (size_t i = 0; i < fire.pool().alive(); ++i) ASSERT_EQ(fire.pool().life[i], 2.0f);
}

TEST(EmissionState, EmitBeyondThePoolCapacityGrowsIt) {
    FireParams p = baseParams(EmitterShape::Rect, 25);
    p.particles = 100;
    FireSystem fire(p);
    const size_t start = fire.pool().capacity();
    fire.emit(5000);
    EXPECT_EQ(fire.pool().alive(), 5000u);
    EXPECT_GE(fire.pool().capacity(), 5000u);
    EXPECT_GT(fire.pool().capacity(), start);
    fire.emit(10);
    EXPECT_EQ(fire.pool().alive(), 5010u);
}

}  // namespace
}  // namespace firelab::sim

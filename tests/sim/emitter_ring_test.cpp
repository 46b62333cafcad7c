// The ring emitter (the D3D9 tutorial's FireRing, effects/firering.toml): every birth on the circle's edge, at a
// uniform azimuth, leaving outwards on the cone's surface (tilted --cone from +y towards its own azimuth).
#include <gtest/gtest.h>

#include <cmath>

#include <glm/geometric.hpp>

#include "sim/emitter.h"
#include "sim/params.h"
#include "sim/random.h"

namespace firelab::sim {
namespace {

TEST(RingEmitter, PositionsLieOnTheRingAtUniformAzimuths) {
    FireParams p;
    p.shape = EmitterShape::Ring;
    p.center = {0.3f, 0.2f, -0.1f};
    p.extent = {0.5f, 0.0f, 0.5f};
    p.coneAngleDeg = 35.26f;
    p.speedVar = glm::vec3(0.0f);  // the direction alone
    Rng rng(7, 0);
    constexpr int kN = 40000;
    int quadrant[4] = {0, 0, 0, 0};
    glm::dvec2 meanDir(0.0);
    for (int i = 0; i < kN; ++i) {
        const Birth b = sampleBirth(p, rng);
        const glm::vec3 r = b.position - p.center;
        ASSERT_NEAR(glm::length(glm::vec2(r.x, r.z)), 0.5f, 1e-5f);
        ASSERT_NEAR(r.y, 0.0f, 1e-6f);
        ++quadrant[(r.x >= 0.0f ? 0 : 1) + (r.z >= 0.0f ? 0 : 2)];
        // Outwards at the cone's angle: the speed (0, 0.9, 0) in the emission frame is along the direction.
        const glm::vec3 d = glm::normalize(b.velocity);
        EXPECT_NEAR(std::acos(d.y) * 180.0f / 3.14159265f, 35.26f, 0.05f);
        EXPECT_GT(glm::dot(glm::vec2(d.x, d.z), glm::vec2(r.x, r.z)), 0.0f) << "not outwards";
        EXPECT_NEAR(glm::dot(glm::normalize(glm::vec2(d.x, d.z)), glm::normalize(glm::vec2(r.x, r.z))), 1.0f, 1e-4f);
        meanDir += glm::dvec2(r.x, r.z);
    }
    for (int q : quadrant) EXPECT_NEAR(q, kN / 4, 5 * std::sqrt(kN * 0.25 * 0.75)) << "azimuths not uniform";
    EXPECT_LT(glm::length(meanDir / double(kN)), 0.5 * 5.0 / std::sqrt(2.0 * kN));
}

TEST(RingEmitter, TheSpeedsVarianceStaysInTheEmissionFrame) {
    FireParams p;
    p.shape = EmitterShape::Ring;
    p.extent = {1.0f, 0.0f, 1.0f};
    p.coneAngleDeg = 90.0f;  // flat: straight out along the radius
    p.speedMean = {0.0f, 2.0f, 0.0f};
    p.speedVar = glm::vec3(0.0f);
    Rng rng(3, 0);
    for (int i = 0; i < 1000; ++i) {
        const Birth b = sampleBirth(p, rng);
        EXPECT_NEAR(b.velocity.y, 0.0f, 1e-5f);
        EXPECT_NEAR(glm::length(b.velocity), 2.0f, 1e-5f);
        EXPECT_NEAR(glm::dot(b.velocity, b.position - p.center), 2.0f, 1e-4f);  // radius 1, speed 2, outwards
    }
}

}  // namespace
}  // namespace firelab::sim

// The emitter's world rotation (--rotate-x/-y/-z, the D3D9 system's world matrix) and the system's
// bounding box (FireSystem::bounds, its AABB).
#include <gtest/gtest.h>

#include <cmath>

#include <glm/geometric.hpp>
#include <glm/gtc/matrix_transform.hpp>

#include "sim/emitter.h"
#include "sim/fire_system.h"
#include "sim/params.h"
#include "support/frame_step.h"

namespace firelab::sim {
namespace {


// Rotations about world x, then y, then z, built independently of emitterTransform with glm::rotate.
glm::mat3 expectedRotation(const glm::vec3& deg) {
    glm::mat4 m(1.0f);
    m = glm::rotate(m, glm::radians(deg.z), glm::vec3(0, 0, 1));
    m = glm::rotate(m, glm::radians(deg.y), glm::vec3(0, 1, 0));
    m = glm::rotate(m, glm::radians(deg.x), glm::vec3(1, 0, 0));
    return glm::mat3(m);
}

void expectNear(const glm::vec3& a, const glm::vec3& b, float tol) {
    for (int i = 0; i < 3; ++i) EXPECT_NEAR(a[i], b[i], tol) << "component " << i;
}

// Each birth of a rotated emitter is the same birth of the unrotated one (the same stream), turned about
// the centre: position and initial velocity rotated, acceleration (world space), lifetime, size and rnd
// untouched. Every shape, 200 births each, float rounding only (1e-5).
TEST(EmitterTransform, RotatedBirthsAreTheUnrotatedOnesTurnedAboutTheCentre) {
    const glm::vec3 deg{30.0f, -45.0f, 100.0f};
    const glm::mat3 r = expectedRotation(deg);
    for (EmitterShape shape : {EmitterShape::Rect, EmitterShape::Circle, EmitterShape::Sphere}) {
        SCOPED_TRACE(static_cast<int>(shape));
        FireParams flat;
        flat.shape = shape;
        flat.center = {0.5f, 1.0f, -2.0f};
        flat.extent = {0.4f, 0.1f, 0.3f};
        FireParams turned = flat;
        turned.rotationDeg = deg;
        for (uint64_t k = 0; k < 200; ++k) {
            Rng a(7, k), b(7, k);
            const Birth f = sampleBirth(flat, a), t = sampleBirth(turned, b);
            expectNear(t.position, flat.center + r * (f.position - flat.center), 1e-5f);
            expectNear(t.velocity, r * f.velocity, 1e-5f);
            EXPECT_EQ(t.acceleration, f.acceleration);
            EXPECT_EQ(t.life, f.life);
            EXPECT_EQ(t.scale, f.scale);
        }
    }
    EXPECT_FALSE(emitterTransform(FireParams{}).rotated) << "the default emitter is not turned";
}

// A circle turned 90 degrees about z lies in the yz plane and emits along -x (the turned +y); about x,
// it lies in the xy plane and emits along +z. Seed 3, 20000 births: the mean initial direction is along
// the axis (its cosine with it above 0.95: the cone and the speed's sideways variance spread it, evenly;
// sideways within 0.01), every birth in the turned plane (1e-5).
TEST(EmitterTransform, ANinetyDegreeTurnEmitsAlongTheTurnedAxis) {
    struct Case {
        glm::vec3 deg, axis;
    };
    for (const Case c :
         {Case{{0.0f, 0.0f, 90.0f}, {-1.0f, 0.0f, 0.0f}}, Case{{90.0f, 0.0f, 0.0f}, {0.0f, 0.0f, 1.0f}}}) {
        SCOPED_TRACE(testing::Message() << c.deg.x << "," << c.deg.y << "," << c.deg.z);
        FireParams p;
        p.rotationDeg = c.deg;
        p.particles = 20000;
        p.seed = 3;
        FireSystem fire(p);
        fire.emit(20000);
        const ParticlePool& q = fire.pool();
        glm::dvec3 mean(0.0);
        double spread = 0.0;
        for (size_t i = 0; i < q.alive(); ++i) {
            const glm::vec3 v(q.vx[i], q.vy[i], q.vz[i]);
            mean += glm::dvec3(glm::normalize(v));
            const glm::vec3 d = glm::vec3(q.px[i], q.py[i], q.pz[i]) - p.center;
            ASSERT_NEAR(glm::dot(d, c.axis), 0.0f, 1e-5f);
            spread = std::max(spread, static_cast<double>(glm::length(d)));
        }
        mean /= static_cast<double>(q.alive());
        const double along = glm::dot(mean, glm::dvec3(c.axis));
        EXPECT_GT(along, 0.95);
        EXPECT_LT(glm::length(mean - along * glm::dvec3(c.axis)), 0.01);
        EXPECT_GT(spread, 0.5 * p.extent.x) << "the disc is still a disc";
    }
}

// The box of the live particles: every particle inside it, a particle on each of its six faces; empty
// before any birth. Seed 4, the default fire at 2 s, 2 threads.
TEST(Bounds, HoldEveryLiveParticleTightly) {
    FireParams p;
    p.particles = 5000;
    p.seed = 4;
    FireSystem fire(p, 2);
    EXPECT_TRUE(fire.bounds().empty());
    for (int i = 0; i < 120; ++i) fire.step(kDt);
    const Bounds b = fire.bounds();
    ASSERT_FALSE(b.empty());
    const ParticlePool& q = fire.pool();
    int onFace[6] = {};
    for (size_t i = 0; i < q.alive(); ++i) {
        const glm::vec3 x(q.px[i], q.py[i], q.pz[i]);
        for (int a = 0; a < 3; ++a) {
            ASSERT_GE(x[a], b.lo[a]);
            ASSERT_LE(x[a], b.hi[a]);
            onFace[2 * a] += x[a] == b.lo[a];
            onFace[2 * a + 1] += x[a] == b.hi[a];
        }
    }
    for (int f = 0; f < 6; ++f) EXPECT_GE(onFace[f], 1) << "face " << f;
    EXPECT_LT(b.lo.y, 0.1f);  // the flame rises from the emitter
    EXPECT_GT(b.hi.y, 1.0f);
}

// A fire turned on its side (rotate-z 90, no buoyancy) streams along -x: its box reaches half a metre
// along -x (0.59 m at seed 1) and hardly past the emitter's edge along +x.
TEST(Bounds, FollowATurnedEmitter) {
    FireParams p;
    p.particles = 3000;
    p.rotationDeg = {0.0f, 0.0f, 90.0f};
    p.accelMean = glm::vec3(0.0f);
    p.accelVar = glm::vec3(0.0f);
    FireSystem fire(p);
    for (int i = 0; i < 90; ++i) fire.step(kDt);
    const Bounds b = fire.bounds();
    EXPECT_LT(b.lo.x, -0.5f);
    EXPECT_LT(b.hi.x, 0.3f);
}

}  // namespace
}  // namespace firelab::sim

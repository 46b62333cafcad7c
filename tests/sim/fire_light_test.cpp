// The fire's light fitted by point lights (sim/fire_light.h): the lights carry the emitted light times the
// calibration, sit at the centroids of separate clusters, are no more than the emitting particles, none
// for nothing, and the same for the same particles. Also the fit's time on 20000 particles (printed).
#include <gtest/gtest.h>

#include <algorithm>
#include <ctime>
#include <cstdio>
#include <vector>

#include "core/error.h"
#include "sim/fire_light.h"
#include "sim/fire_system.h"
#include "sim/gradient.h"
#include "sim/snapshot.h"

namespace firelab::sim {
namespace {

struct Still {
    glm::vec3 pos;
    float t;  // normalised age
};

// A pool of motionless particles of life 1 (so age = t), scale 1.
ParticlePool poolOf(const std::vector<Still>& particles) {
    ParticlePool pool(particles.size());
    pool.add(particles.size());
    for (size_t i = 0; i < particles.size(); ++i) {
        pool.px[i] = particles[i].pos.x, pool.py[i] = particles[i].pos.y, pool.pz[i] = particles[i].pos.z;
        pool.age[i] = particles[i].t, pool.life[i] = 1.0f, pool.scale[i] = 1.0f, pool.rnd[i] = 0.5f;
    }
    return pool;
}

// The model's light of one particle, from the exact gradient.
glm::vec3 lightOf(const FireParams& p, float t, float scale = 1.0f) {
    const glm::vec4 c = evaluateGradient(p.gradient, t);
    const float size = sizeAt(p, t, scale);
    return glm::vec3(c) * c.a * size * size;
}

glm::vec3 sumOf(std::span<const PointLight> lights) {
    glm::vec3 s(0.0f);
    for (const auto& l : lights) s += l.intensity;
    return s;
}

void expectRelativelyNear(const glm::vec3& a, const glm::vec3& b, float relative) {
    for (int c = 0; c < 3; ++c) EXPECT_NEAR(a[c], b[c], relative * std::max(std::abs(b[c]), 1e-12f)) << "channel " << c;
}

FireSystem prewarmedFire(uint32_t particles) {
    FireParams p;
    p.particles = particles;
    p.seed = 3;
    FireSystem fire(p);
    fire.prewarm(1.0f / 60);
    return fire;
}

// The emitted light is the model's (LUT against the exact gradient: 1e-3), and for any n the lights'
// intensities sum to it times kFireLightCalibration (1e-4); a layer added twice, or weighted 2, doubles both.
TEST(FireLight, TotalIntensityIsTheEmittedLightCalibrated) {
    const FireSystem fire = prewarmedFire(6000);
    const ParticlePool& q = fire.pool();
    glm::vec3 exact(0.0f);
    for (size_t i = 0; i < q.alive(); ++i) exact += lightOf(fire.params(), q.age[i] / q.life[i], q.scale[i]);
    FireLightFitter fitter;
    fitter.add(q, fire.params());
    expectRelativelyNear(fitter.emitted(), exact, 1e-3f);
    for (int n : {1, 3, 8, 16})
        expectRelativelyNear(sumOf(fitter.fit(n)), fitter.emitted() * kFireLightCalibration, 1e-4f);

    FireLightFitter twice;
    twice.add(q, fire.params());
    twice.add(q, fire.params());
    FireLightFitter weighted;
    weighted.add(q, fire.params(), 2.0f);
    expectRelativelyNear(twice.emitted(), 2.0f * fitter.emitted(), 1e-5f);
    expectRelativelyNear(weighted.emitted(), 2.0f * fitter.emitted(), 1e-5f);
    expectRelativelyNear(sumOf(weighted.fit(8)), 2.0f * sumOf(fitter.fit(8)), 1e-4f);
}

// Above kFireLightSamplesPerLayer particles the fit samples with a stride; the sum is still exact.
TEST(FireLight, SampledLayersStillCarryAllTheLight) {
    const FireSystem fire = prewarmedFire(40000);
    ASSERT_GT(fire.pool().alive(), 2 * kFireLightSamplesPerLayer);
    FireLightFitter fitter;
    fitter.add(fire.pool(), fire.params());
    const auto lights = fitter.fit(8);
    EXPECT_EQ(lights.size(), 8u);
    expectRelativelyNear(sumOf(lights), fitter.emitted() * kFireLightCalibration, 1e-4f);
}

// Two clusters 4 m apart (0.1 m across, particles of varied ages): two lights at their light-weighted
// centroids (1e-4 m), each with its cluster's light.
TEST(FireLight, TwoClustersGiveLightsAtTheirCentroids) {
    const FireParams p;
    const glm::vec3 centres[2] = {{-2.0f, 0.5f, 0.0f}, {2.0f, 1.0f, 1.0f}};
    std::vector<Still> particles;
    glm::vec3 weighted[2] = {}, light[2] = {};
    float weight[2] = {};
    for (int i = 0; i < 400; ++i) {
        const int c = i % 2;
        const float u = static_cast<float>(i) / 400.0f;
        const Still s{centres[c] + 0.05f * glm::vec3(std::sin(37.0f * u), std::cos(53.0f * u), std::sin(71.0f * u)),
                      0.9f * u};
        particles.push_back(s);
        const glm::vec3 l = lightOf(p, s.t);
        weighted[c] += (l.r + l.g + l.b) * s.pos, weight[c] += l.r + l.g + l.b, light[c] += l;
    }
    FireLightFitter fitter;
    fitter.add(poolOf(particles), p);
    const auto fitted = fitter.fit(2);
    std::vector<PointLight> lights(fitted.begin(), fitted.end());
    ASSERT_EQ(lights.size(), 2u);
    std::sort(lights.begin(), lights.end(), [](const auto& a, const auto& b) { return a.position.x < b.position.x; });
    for (int c = 0; c < 2; ++c) {
        const glm::vec3 centroid = weighted[c] / weight[c];
        for (int a = 0; a < 3; ++a) EXPECT_NEAR(lights[c].position[a], centroid[a], 1e-4f) << "cluster " << c;
        expectRelativelyNear(lights[c].intensity, light[c] * kFireLightCalibration, 1e-3f);
    }
}

// Three particles, eight lights asked: three lights, one at each particle. A dead-faded particle (alpha 0
// at t = 1) emits nothing and gets none.
TEST(FireLight, NoMoreLightsThanEmittingParticles) {
    const std::vector<Still> particles{{{0, 0, 0}, 0.1f}, {{1, 0, 0}, 0.3f}, {{0, 2, 0}, 0.6f}, {{5, 5, 5}, 1.0f}};
    FireLightFitter fitter;
    fitter.add(poolOf(particles), FireParams{});
    const auto fitted = fitter.fit(8);
    std::vector<PointLight> lights(fitted.begin(), fitted.end());
    ASSERT_EQ(lights.size(), 3u);
    std::sort(lights.begin(), lights.end(), [](const auto& a, const auto& b) {
        return a.position.x + 2 * a.position.y < b.position.x + 2 * b.position.y;
    });
    for (size_t k = 0; k < 3; ++k)
        for (int a = 0; a < 3; ++a) EXPECT_NEAR(lights[k].position[a], particles[k].pos[a], 1e-6f);
    // Two particles at one place: one light.
    FireLightFitter same;
    same.add(poolOf({{{1, 1, 1}, 0.2f}, {{1, 1, 1}, 0.4f}}), FireParams{});
    EXPECT_EQ(same.fit(4).size(), 1u);
}

TEST(FireLight, NothingEmittedGivesNoLights) {
    FireLightFitter fitter;
    EXPECT_TRUE(fitter.fit(8).empty());
    fitter.add(ParticlePool(16), FireParams{});
    EXPECT_TRUE(fitter.fit(8).empty());
    EXPECT_EQ(fitter.emitted(), glm::vec3(0.0f));
    // After clear() a fitter that had light has none.
    const FireSystem fire = prewarmedFire(2000);
    fitter.add(fire.pool(), fire.params());
    EXPECT_FALSE(fitter.fit(8).empty());
    fitter.clear();
    EXPECT_TRUE(fitter.fit(8).empty());
    EXPECT_EQ(fitter.emitted(), glm::vec3(0.0f));
}

TEST(FireLight, FewerThanOneLightIsABadValue) {
    FireLightFitter fitter;
    try {
        fitter.fit(0);
        FAIL() << "fit(0) did not throw";
    } catch (const Error& e) {
        EXPECT_EQ(e.code(), ErrorCode::BadValue);
    }
}

// The same particles give bit-identical lights, from a fresh fitter or a reused one.
TEST(FireLight, Deterministic) {
    const FireSystem fire = prewarmedFire(20000);
    FireLightFitter a, b;
    a.add(fire.pool(), fire.params());
    const auto fitted = a.fit(8);
    const std::vector<PointLight> first(fitted.begin(), fitted.end());
    b.add(prewarmedFire(500).pool(), fire.params());
    b.fit(5);
    b.clear();
    b.add(fire.pool(), fire.params());
    const auto second = b.fit(8);
    ASSERT_EQ(first.size(), second.size());
    for (size_t k = 0; k < first.size(); ++k) {
        EXPECT_EQ(first[k].position, second[k].position);
        EXPECT_EQ(first[k].intensity, second[k].intensity);
    }
}

// An upright flame: the lights lie within the particles' bounds, spread up the flame.
TEST(FireLight, LightsFollowTheFlame) {
    const FireSystem fire = prewarmedFire(8000);
    FireLightFitter fitter;
    fitter.add(fire.pool(), fire.params());
    const auto lights = fitter.fit(8);
    ASSERT_EQ(lights.size(), 8u);
    const Bounds box = fire.bounds();
    float lo = INFINITY, hi = -INFINITY;
    for (const auto& l : lights) {
        for (int a = 0; a < 3; ++a) {
            EXPECT_GE(l.position[a], box.lo[a]);
            EXPECT_LE(l.position[a], box.hi[a]);
        }
        lo = std::min(lo, l.position.y), hi = std::max(hi, l.position.y);
        std::printf("light at (%.3f %.3f %.3f) intensity (%.4f %.4f %.4f)\n", l.position.x, l.position.y, l.position.z,
                    l.intensity.r, l.intensity.g, l.intensity.b);
    }
    EXPECT_GT(hi - lo, 0.3f) << "the lights do not spread up the flame";
}

// The fit's time per frame (add + fit(8)), median of 101 frames, printed as the thread's CPU time (the
// machine may be shared) and split into add() and fit(); not asserted.
double threadMs() {
    timespec t{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return static_cast<double>(t.tv_sec) * 1e3 + static_cast<double>(t.tv_nsec) * 1e-6;
}

double median(std::vector<double> v) {
    std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(v.size() / 2), v.end());
    return v[v.size() / 2];
}

TEST(FireLight, FitTime) {
    for (uint32_t particles : {20000u, 100000u}) {
        const FireSystem fire = prewarmedFire(particles);
        FireLightFitter fitter;
        std::vector<double> add, fit;
        for (int k = 0; k < 101; ++k) {
            const double t0 = threadMs();
            fitter.clear();
            fitter.add(fire.pool(), fire.params());
            const double t1 = threadMs();
            const auto lights = fitter.fit(8);
            fit.push_back(threadMs() - t1), add.push_back(t1 - t0);
            ASSERT_FALSE(lights.empty());
        }
        std::printf(
            "FireLight fit time: %zu particles, 8 lights: add %.3f ms + fit %.3f ms (thread CPU, median of 101)\n",
            fire.pool().alive(), median(add), median(fit));
    }
}

}  // namespace
}  // namespace firelab::sim

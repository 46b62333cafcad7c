// Trails (--draw-as trail, render/particles/trail_ribbon.h): each ribbon runs through its particle's past positions,
// newest first, as far back as --trail-seconds, its width narrowing from the particle's size to nothing.
#include <gtest/gtest.h>

#include <map>
#include <vector>

#include <glm/geometric.hpp>

#include "render/camera.h"
#include "render/particles/trail_ribbon.h"
#include "sim/fire_system.h"
#include "sim/snapshot.h"

namespace firelab::render {
namespace {

// Sparks that fly up, turn in the turbulence, fall and die, some during the test.
sim::FireParams sparks() {
    sim::FireParams p;
    p.particles = 300;
    p.speedMean = {0.0f, 2.5f, 0.0f};
    p.speedVar = {0.8f, 0.8f, 0.8f};
    p.accelMean = {0.0f, -4.0f, 0.0f};
    p.lifetimeMean = 0.6f, p.lifetimeVar = 0.3f;
    p.turbulence = 3.0f;
    return p;
}

glm::vec3 mid(const RibbonVertex& a, const RibbonVertex& b) { return 0.5f * (a.position + b.position); }

TEST(TrailRibbon, ARibbonsVerticesLieOnItsParticlesPastPositions) {
    constexpr float kDt = 1.0f / 60.0f;
    RenderOptions o;
    o.trailSeconds = 0.11f;  // the head and 6 recorded frames (0.1 s) back
    sim::FireSystem fire(sparks());
    TrailHistory history(o.trailSeconds);
    std::map<uint32_t, std::vector<glm::vec3>> seen;  // every particle's position at every frame, oldest first
    for (int frame = 0; frame < 50; ++frame) {
        fire.step(kDt);
        history.record(fire.pool(), fire.time());
        const sim::ParticlePool& q = fire.pool();
        for (size_t i = 0; i < q.alive(); ++i) seen[q.id[i]].emplace_back(q.px[i], q.py[i], q.pz[i]);
    }
    const Camera camera = lookAtCamera({0.5f, 1.0f, 4.0f}, {0.0f, 0.8f, 0.0f}, 45.0f, 256, 256);
    std::vector<RibbonVertex> v;
    const size_t ribbons = buildRibbons(fire, history, camera, o, v);
    const sim::ParticlePool& q = fire.pool();
    size_t at = 0, checked = 0;
    for (size_t i = 0; i < q.alive(); ++i) {
        const std::vector<glm::vec3>& past = seen[q.id[i]];
        const size_t points = std::min<size_t>(past.size(), 7);  // the head and up to 6 frames back
        if (points < 2) continue;
        ASSERT_LE(at + 6 * (points - 1), v.size());
        for (size_t k = 0; k + 1 < points; ++k) {
            const RibbonVertex* s = &v[at + 6 * k];  // a, b, c, c, b, d: a-b at point k, c-d at point k + 1
            const glm::vec3 expected = past[past.size() - 1 - k];
            EXPECT_LT(glm::distance(mid(s[0], s[1]), expected), 1e-5f) << "particle " << q.id[i] << " point " << k;
            EXPECT_LT(glm::distance(mid(s[2], s[5]), past[past.size() - 2 - k]), 1e-5f);
            EXPECT_FLOAT_EQ(s[0].along, static_cast<float>(k) / static_cast<float>(points - 1));
        }
        // Its width: the particle's size at the head, nothing at the tail.
        const float t = q.age[i] / q.life[i];
        EXPECT_NEAR(glm::distance(v[at].position, v[at + 1].position), sim::sizeAt(fire.params(), t, q.scale[i]),
                    1e-5f);
        const RibbonVertex* last = &v[at + 6 * (points - 2)];
        EXPECT_LT(glm::distance(last[2].position, last[5].position), 1e-6f);
        EXPECT_FLOAT_EQ(last[2].color.a, 0.0f) << "the tail fades to nothing";
        at += 6 * (points - 1);
        ++checked;
    }
    EXPECT_EQ(at, v.size()) << "vertices beyond the particles' ribbons";
    EXPECT_EQ(checked, ribbons);
    EXPECT_GT(checked, 100u);
}

TEST(TrailRibbon, TheDeadAreForgottenAndANewParticleHasNoTrailYet) {
    sim::FireSystem fire(sparks());
    TrailHistory history(1.0f);
    for (int frame = 0; frame < 90; ++frame) {  // 1.5 s: every first particle has died
        fire.step(1.0f / 60.0f);
        history.record(fire.pool(), fire.time());
    }
    EXPECT_TRUE(history.points(0).empty()) << "the first-born particle died long ago";
    const sim::ParticlePool& q = fire.pool();
    size_t newborn = 0;
    for (size_t i = 0; i < q.alive(); ++i)
        if (q.age[i] < 0.5f / 60.0f) {
            EXPECT_EQ(history.points(q.id[i]).size(), 1u) << "a particle born this step has only its present";
            ++newborn;
        }
    EXPECT_GT(newborn, 0u);
    history.record(q, fire.time());  // the same time again records nothing
    for (size_t i = 0; i < q.alive(); ++i) {
        if (q.age[i] < 0.5f / 60.0f) {
            EXPECT_EQ(history.points(q.id[i]).size(), 1u);
        }
    }
}

TEST(TrailRibbon, EachParticleKeepsItsIdAsKillsMoveIt) {
    sim::FireSystem fire(sparks());
    std::map<uint32_t, float> born;  // id -> its life, which never changes
    for (int frame = 0; frame < 120; ++frame) {
        fire.step(1.0f / 60.0f);
        const sim::ParticlePool& q = fire.pool();
        for (size_t i = 0; i < q.alive(); ++i) {
            auto [it, fresh] = born.emplace(q.id[i], q.life[i]);
            if (!fresh) {
                ASSERT_EQ(it->second, q.life[i]) << "id " << q.id[i] << " moved to another particle";
            }
        }
    }
    EXPECT_GT(born.size(), 500u);
}

}  // namespace
}  // namespace firelab::render

// Back-to-front ordering of the uploaded particles (GL-free part of the render layer).
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include <glm/geometric.hpp>
#include <glm/trigonometric.hpp>

#include "render/camera.h"
#include "render/particles/instance_stream.h"
#include "render/particles/sprite_geometry.h"
#include "sim/look.h"
#include "sim/snapshot.h"

namespace firelab::testing {
namespace {

render::RenderOptions sorting(render::Sort sort) {
    render::RenderOptions o;
    o.sort = sort;
    return o;
}

TEST(SortDescending, OrdersByDecreasingKeyStably) {
    const std::vector<float> keys{0.5f, -2.0f, 3.0f, 0.5f, -0.0f, 1e9f, -1e9f, 0.25f};
    render::SortScratch scratch;
    render::sortDescending(keys, scratch);
    const auto& order = scratch.order;
    ASSERT_EQ(order.size(), keys.size());
    for (size_t i = 1; i < order.size(); ++i) EXPECT_GE(keys[order[i - 1]], keys[order[i]]);
    EXPECT_EQ(order[0], 5u);
    EXPECT_EQ(order.back(), 6u);
    // Equal keys keep their input order.
    const auto first = std::find(order.begin(), order.end(), 0u), second = std::find(order.begin(), order.end(), 3u);
    EXPECT_LT(first, second);
}

TEST(BuildInstances, BackToFrontPutsTheFarthestFirst) {
    sim::FireParams p;
    p.particles = 5000;
    sim::FireSystem fire(p, 1);
    fire.prewarm(1.0f / 60.0f);
    const auto camera = render::orbitCamera(fire.time(), 320, 240);
    std::vector<render::Instance> sorted, unsorted;
    render::SortScratch scratch;
    render::buildInstances(fire, camera, sorting(render::Sort::BackToFront), sorted, scratch);
    render::buildInstances(fire, camera, sorting(render::Sort::None), unsorted, scratch);
    ASSERT_EQ(sorted.size(), fire.pool().alive());
    auto depth = [&](const render::Instance& i) { return glm::dot(camera.forward, glm::vec3(i.posSize) - camera.eye); };
    size_t inversions = 0, unsortedInversions = 0;
    for (size_t i = 1; i < sorted.size(); ++i) {
        inversions += depth(sorted[i - 1]) < depth(sorted[i]);
        unsortedInversions += depth(unsorted[i - 1]) < depth(unsorted[i]);
    }
    EXPECT_EQ(inversions, 0u);
    EXPECT_GT(unsortedInversions, sorted.size() / 4);  // the pool's own order is far from sorted
    // Sorting permutes, it does not change the particles.
    EXPECT_EQ(unsorted.size(), sorted.size());
}

// With --color-var each record's look is its particle's tint, in the records' (sorted) order; without,
// no look is built (the shaders read kPlainLook).
TEST(BuildInstances, LooksFollowTheirParticlesInTheSortedOrder) {
    sim::FireParams p;
    p.particles = 2000;
    p.colorVar = 0.5f;
    sim::FireSystem fire(p, 1);
    fire.prewarm(1.0f / 60.0f);
    const auto camera = render::orbitCamera(fire.time(), 320, 240);
    std::vector<render::Instance> sorted;
    std::vector<render::Look> looks;
    render::SortScratch scratch;
    render::buildInstances(fire, camera, sorting(render::Sort::BackToFront), sorted, scratch, &looks);
    ASSERT_EQ(looks.size(), sorted.size());
    const sim::ParticlePool& q = fire.pool();
    for (size_t k = 0; k < sorted.size(); ++k) {
        const uint32_t i = scratch.order[k];
        ASSERT_EQ(sorted[k].posSize.x, q.px[i]);
        EXPECT_EQ(looks[k], render::lookOf(p, q.rnd[i], q.age[i], q.age[i] / q.life[i]));
        EXPECT_EQ(glm::vec3(looks[k]), sim::tintOf(p, q.rnd[i]));
    }
    p.colorVar = 0.0f;
    sim::FireSystem plain(p, 1);
    plain.prewarm(1.0f / 60.0f);
    render::buildInstances(plain, camera, sorting(render::Sort::None), sorted, scratch, &looks);
    EXPECT_FALSE(sorted.empty());
    EXPECT_TRUE(looks.empty());
}

// --color grid: each particle's look is the blackbody colour of the gas where it is (its flow's temperature: here
// hot above y = 0.5 m, cold below), its table's rgb white; without a flow (or a flow with no temperature) the
// colour falls back to the blackbody's START-to-END over life.
struct Layered : sim::Flow {
    glm::vec3 velocityAt(const glm::vec3&) const override { return glm::vec3(0.0f); }
    float temperatureAt(const glm::vec3& p) const override { return p.y > 0.5f ? 1800.0f : 400.0f; }
};

TEST(BuildInstances, GridColouredParticlesGlowAtTheirGasTemperature) {
    sim::FireParams p;
    p.particles = 2000;
    p.color = sim::ColorModel::Grid;
    ASSERT_TRUE(sim::hasLook(p));
    for (const glm::vec4& c : sim::gradientLut(p)) ASSERT_EQ(glm::vec3(c), glm::vec3(1.0f)) << "the tint is the colour";
    sim::FireSystem fire(p, 1);
    fire.prewarm(1.0f / 60.0f);
    const Layered gas;
    fire.setFlow(&gas);
    const auto camera = render::orbitCamera(fire.time(), 320, 240);
    std::vector<render::Instance> out;
    std::vector<render::Look> looks;
    render::SortScratch scratch;
    render::buildInstances(fire, camera, sorting(render::Sort::None), out, scratch, &looks);
    ASSERT_EQ(looks.size(), out.size());
    const glm::vec3 hot = sim::temperatureTable(p).at(1800.0f), cold = sim::temperatureTable(p).at(400.0f);
    ASSERT_GT(hot.r, 50.0f * cold.r) << "400 K glows next to nothing beside 1800 K";
    size_t above = 0, below = 0;
    for (size_t k = 0; k < out.size(); ++k) {
        const bool up = out[k].posSize.y > 0.5f;
        EXPECT_EQ(glm::vec3(looks[k]), up ? hot : cold);
        (up ? above : below)++;
    }
    EXPECT_GT(above, 10u);
    EXPECT_GT(below, 10u);
    // The medium of the same particles takes the same colours (volume-reference --medium particles).
    for (size_t i = 0; i < fire.pool().alive(); ++i) {
        const glm::vec3 at(fire.pool().px[i], fire.pool().py[i], fire.pool().pz[i]);
        EXPECT_EQ(glm::vec3(sim::colorOf(p, 0.5f, fire.pool().rnd[i], render::gasKelvinAt(fire, at))),
                  at.y > 0.5f ? hot : cold);
    }
    fire.setFlow(nullptr);
    EXPECT_TRUE(std::isnan(render::gasKelvinAt(fire, glm::vec3(0.0f))));
    EXPECT_EQ(sim::lookTint(p, 0.0f, 0.5f), sim::temperatureTable(p).at(p.temperature.x)) << "no gas: over life";
}

// A camera inside the fire, at its particles' centroid looking along +x: many of them lie behind it.
render::Camera insideCamera(const sim::FireSystem& fire) {
    const sim::ParticlePool& q = fire.pool();
    glm::vec3 c(0.0f);
    for (size_t i = 0; i < q.alive(); ++i) c += glm::vec3(q.px[i], q.py[i], q.pz[i]);
    c /= static_cast<float>(q.alive());
    return render::lookAtCamera(c, c + glm::vec3(1.0f, 0.0f, 0.0f), 60.0f, 320, 240);
}

sim::FireParams burning(float colorVar) {
    sim::FireParams p;
    p.particles = 5000;
    p.colorVar = colorVar;
    p.spinDeg = 90.0f, p.spinVarDeg = 90.0f;  // turned sprites: the bound must hold whatever their angle
    return p;
}

// Whether any point of particle i's sprite lies in front of the near plane: its corners as the shaders
// place them (billboardAxes, turned by its look's angle), by brute force.
bool reachesFront(const sim::FireSystem& fire, size_t i, const render::Camera& camera, const render::RenderOptions& o) {
    const sim::ParticlePool& q = fire.pool();
    const glm::vec3 p(q.px[i], q.py[i], q.pz[i]), v(q.vx[i], q.vy[i], q.vz[i]);
    const float size = sim::sizeAt(fire.params(), q.age[i] / q.life[i], q.scale[i]);
    glm::vec3 right, up;
    float halfW, halfH;
    render::billboardAxes(camera, o, p, size, v, right, up, halfW, halfH);
    render::turnAxes(right, up, render::lookOf(fire.params(), q.rnd[i], q.age[i], q.age[i] / q.life[i]).w);
    const float near = render::nearDistance(camera);
    for (float cx : {-1.0f, 1.0f})
        for (float cy : {-1.0f, 1.0f})
            if (glm::dot(camera.forward, p + right * (cx * halfW) + up * (cy * halfH) - camera.eye) >= near)
                return true;
    return false;
}

TEST(NearDistance, ReadsTheNearPlaneBackFromAPerspective) {
    EXPECT_NEAR(render::nearDistance(render::orbitCamera(0.0, 320, 240)), 0.05f, 1e-6f);
    EXPECT_EQ(render::nearDistance(render::Camera{}), -std::numeric_limits<float>::infinity());  // identity: no plane
}

// With the camera inside the fire, the records are exactly the particles whose conservative reach
// (spriteRadius) comes in front of the near plane, in the order they have without the skip: every particle
// any corner of which is in front among them, and a large share (about a third) skipped.
TEST(BuildInstances, SkipsExactlyTheParticlesWhollyBehindTheNearPlane) {
    sim::FireSystem fire(burning(0.5f), 1);
    fire.prewarm(1.0f / 60.0f);
    const sim::ParticlePool& q = fire.pool();
    const size_t n = q.alive();
    const render::Camera camera = insideCamera(fire);
    const float near = render::nearDistance(camera);
    for (auto facing : {render::Facing::ViewPlane, render::Facing::Viewpoint, render::Facing::Velocity})
        for (auto sort : {render::Sort::None, render::Sort::BackToFront}) {
            SCOPED_TRACE(::testing::Message()
                         << "facing " << static_cast<int>(facing) << " sort " << static_cast<int>(sort));
            render::RenderOptions o = sorting(sort);
            o.facing = facing;
            o.velocityStretch = 0.35f;
            std::vector<bool> kept(n);
            size_t expected = 0, reaching = 0;
            for (size_t i = 0; i < n; ++i) {
                const glm::vec3 p(q.px[i], q.py[i], q.pz[i]);
                const float size = sim::sizeAt(fire.params(), q.age[i] / q.life[i], q.scale[i]);
                const float radius = render::spriteRadius(o, size, {q.vx[i], q.vy[i], q.vz[i]});
                kept[i] = !render::behindNear(glm::dot(camera.forward, p - camera.eye), radius, near);
                expected += kept[i];
                const bool reaches = reachesFront(fire, i, camera, o);
                reaching += reaches;
                EXPECT_TRUE(!reaches || kept[i]) << "particle " << i << " reaches in front but would be skipped";
            }
            std::vector<render::Instance> culled, all;
            std::vector<render::Look> culledLooks, allLooks;
            render::SortScratch scratch;
            render::buildInstances(fire, camera, o, culled, scratch, &culledLooks);
            const std::vector<uint32_t> order = scratch.order;
            o.cullBehind = false;
            render::buildInstances(fire, camera, o, all, scratch, &allLooks);
            ASSERT_EQ(all.size(), n);
            EXPECT_EQ(culled.size(), expected);
            // About a third lies wholly behind (37 % for square sprites, 33 % stretched, at this seed).
            EXPECT_GT(n - culled.size(), n / 4) << "a large share lies behind the camera";
            EXPECT_LT(n - culled.size(), 3 * n / 4);
            EXPECT_GE(culled.size(), reaching);
            // The skip only removes records: the rest keep their (sorted) order and looks.
            std::vector<render::Instance> filtered;
            std::vector<render::Look> filteredLooks;
            for (size_t k = 0; k < all.size(); ++k) {
                const uint32_t i = sort == render::Sort::None ? static_cast<uint32_t>(k) : scratch.order[k];
                if (!kept[i]) continue;
                filtered.push_back(all[k]);
                filteredLooks.push_back(allLooks[k]);
            }
            ASSERT_EQ(filtered.size(), culled.size());
            for (size_t k = 0; k < culled.size(); ++k) {
                ASSERT_EQ(culled[k].posSize, filtered[k].posSize) << k;
                ASSERT_EQ(culled[k].velAge, filtered[k].velAge) << k;
                ASSERT_EQ(culledLooks[k], filteredLooks[k]) << k;
                if (sort == render::Sort::BackToFront) {
                    ASSERT_EQ(culled[k].posSize.x, q.px[order[k]]) << k;
                }
            }
        }
}

// The default orbit camera stands outside the fire: nothing lies behind it, nothing is skipped.
TEST(BuildInstances, TheOrbitCameraSkipsNothing) {
    sim::FireSystem fire(burning(0.0f), 1);
    fire.prewarm(1.0f / 60.0f);
    std::vector<render::Instance> out;
    render::SortScratch scratch;
    for (double t : {0.0, 10.0, 20.0, 30.0}) {
        render::buildInstances(fire, render::orbitCamera(t, 320, 240), sorting(render::Sort::BackToFront), out,
                               scratch);
        EXPECT_EQ(out.size(), fire.pool().alive()) << t;
    }
}

// --size-unit px: a size of N pixels is the metres N pixels of the camera's frame span at the particle's view depth
// (its absolute value behind the eye); metres are left as they are.
TEST(SpriteWorldSize, PixelsBecomeTheMetresTheySpanAtTheParticlesDepth) {
    sim::FireParams p;
    const render::Camera camera = render::lookAtCamera({0.0f, 1.0f, 4.0f}, {0.0f, 1.0f, 0.0f}, 40.0f, 320, 240);
    const glm::vec3 at(0.3f, 1.2f, -1.0f);  // 5 m in front of the eye
    EXPECT_EQ(render::spriteWorldSize(p, camera, at, 0.25f), 0.25f);
    p.sizeUnit = sim::SizeUnit::Pixels;
    const float metresPerPixelAt5 = 2.0f * 5.0f * std::tan(glm::radians(20.0f)) / 240.0f;
    EXPECT_NEAR(render::spriteWorldSize(p, camera, at, 24.0f), 24.0f * metresPerPixelAt5, 1e-5f);
    EXPECT_NEAR(render::spriteWorldSize(p, camera, {0.0f, 1.0f, 9.0f}, 24.0f), 24.0f * metresPerPixelAt5, 1e-5f);
}

}  // namespace
}  // namespace firelab::testing

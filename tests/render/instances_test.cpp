// Back-to-front ordering of the uploaded particles (GL-free part of the render layer).
#include <gtest/gtest.h>

#include <glm/geometric.hpp>

#include "render/camera.h"
#include "render/instance_stream.h"
#include "sim/look.h"

namespace firelab::testing {
namespace {

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
    render::buildInstances(fire, camera, render::Sort::BackToFront, sorted, scratch);
    render::buildInstances(fire, camera, render::Sort::None, unsorted, scratch);
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
    render::buildInstances(fire, camera, render::Sort::BackToFront, sorted, scratch, &looks);
    ASSERT_EQ(looks.size(), sorted.size());
    const sim::ParticlePool& q = fire.pool();
    for (size_t k = 0; k < sorted.size(); ++k) {
        const uint32_t i = scratch.order[k];
        ASSERT_EQ(sorted[k].posSize.x, q.px[i]);
        EXPECT_EQ(looks[k], render::lookOf(p, q.rnd[i], q.age[i]));
        EXPECT_EQ(glm::vec3(looks[k]), sim::tintOf(p, q.rnd[i]));
    }
    p.colorVar = 0.0f;
    sim::FireSystem plain(p, 1);
    plain.prewarm(1.0f / 60.0f);
    render::buildInstances(plain, camera, render::Sort::None, sorted, scratch, &looks);
    EXPECT_FALSE(sorted.empty());
    EXPECT_TRUE(looks.empty());
}

}  // namespace
}  // namespace firelab::testing

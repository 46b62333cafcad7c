// render::viewPlaneRect, the heat-haze pass's scissor: the pixels view-plane squares can cover.
#include <gtest/gtest.h>

#include <vector>

#include "render/camera.h"
#include "render/particles/instance_stream.h"

namespace firelab::render {
namespace {

const Camera kCamera = lookAtCamera({0.0f, 0.0f, 5.0f}, {0.0f, 0.0f, 0.0f}, 40.0f, 200, 100);

Instance at(const glm::vec3& p, float size) { return {glm::vec4(p, size), glm::vec4(0.0f)}; }

TEST(ViewPlaneRect, HoldsEverySquaresProjectionAndLittleMore) {
    const std::vector<Instance> one{at({0.0f, 0.0f, 0.0f}, 1.0f)};
    const auto r = viewPlaneRect(one, kCamera);
    ASSERT_TRUE(r);
    // A 1 m square 5 m away: half of it is 0.5 * pixelsPerUnit / 5 pixels, around the centre (100, 50).
    const float half = 0.5f * pixelsPerUnit(kCamera, 100.0f) / 5.0f;
    EXPECT_NEAR(static_cast<float>(r->x), 100.0f - half - 1.0f, 1.0f);
    EXPECT_NEAR(static_cast<float>(r->z), 2.0f * half + 2.0f, 2.0f);
    EXPECT_NEAR(static_cast<float>(r->y), 50.0f - half - 1.0f, 1.0f);
    const std::vector<Instance> two{at({0.0f, 0.0f, 0.0f}, 1.0f), at({1.0f, 0.5f, 0.0f}, 0.2f)};
    const auto u = viewPlaneRect(two, kCamera);
    ASSERT_TRUE(u);
    EXPECT_EQ(u->x, r->x);
    EXPECT_GT(u->x + u->z, r->x + r->z) << "the union reaches the second square";
}

TEST(ViewPlaneRect, NothingInViewIsEmptyAndASquareAtTheNearPlaneIsUnbounded) {
    EXPECT_EQ(*viewPlaneRect({}, kCamera), glm::ivec4(0));
    const std::vector<Instance> aside{at({40.0f, 0.0f, 0.0f}, 1.0f)};
    EXPECT_EQ(viewPlaneRect(aside, kCamera)->z, 0);
    const std::vector<Instance> close{at({0.0f, 0.0f, 4.97f}, 0.2f)};
    EXPECT_FALSE(viewPlaneRect(close, kCamera));
}

}  // namespace
}  // namespace firelab::render

// A sprite's turn in its plane (render::turnAxes, the twin of particle_common.glsl's): right turns towards
// up, the axes stay unit and perpendicular, and angle 0 leaves them bit for bit (the default draws as before).
#include <gtest/gtest.h>

#include <cmath>

#include <glm/geometric.hpp>

#include "render/particles/sprite_geometry.h"

namespace firelab::testing {
namespace {

TEST(SpriteGeometry, TurnAxesTurnsRightTowardsUp) {
    const glm::vec3 right0 = glm::normalize(glm::vec3(0.8f, 0.0f, -0.6f)), up0(0.0f, 1.0f, 0.0f);
    glm::vec3 right = right0, up = up0;
    render::turnAxes(right, up, 1.5707963f);  // a quarter turn: right becomes up, up becomes -right
    for (int i = 0; i < 3; ++i) {
        EXPECT_NEAR(right[i], up0[i], 1e-6f);
        EXPECT_NEAR(up[i], -right0[i], 1e-6f);
    }
    right = right0, up = up0;
    render::turnAxes(right, up, -0.7f);
    EXPECT_NEAR(glm::length(right), 1.0f, 1e-6f);
    EXPECT_NEAR(glm::length(up), 1.0f, 1e-6f);
    EXPECT_NEAR(glm::dot(right, up), 0.0f, 1e-6f);
    EXPECT_NEAR(glm::dot(right, right0), std::cos(0.7f), 1e-6f);
    EXPECT_NEAR(glm::dot(right, up0), -std::sin(0.7f), 1e-6f);
    right = right0, up = up0;
    render::turnAxes(right, up, 0.0f);
    EXPECT_EQ(right, right0);
    EXPECT_EQ(up, up0);
}

}  // namespace
}  // namespace firelab::testing

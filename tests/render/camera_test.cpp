// render::boxOutsideView, the bounding-box cull's test against the camera's view volume.
#include <gtest/gtest.h>

#include "render/camera.h"

namespace firelab::render {
namespace {

// boxOutsideView: behind, beside, above and beyond the far plane are outside; inside, straddling a plane and
// around the eye are not.
TEST(BoxOutsideView, OutsideOnlyWhenEveryCornerIsBeyondOnePlane) {
    const Camera c = lookAtCamera({0.0f, 0.0f, 5.0f}, {0.0f, 0.0f, 0.0f}, 45.0f, 100, 100);
    const glm::vec3 half(0.2f);
    EXPECT_FALSE(boxOutsideView(c, -half, half));                                            // in front
    EXPECT_TRUE(boxOutsideView(c, glm::vec3(0, 0, 7) - half, glm::vec3(0, 0, 7) + half));    // behind the eye
    EXPECT_TRUE(boxOutsideView(c, glm::vec3(9, 0, 0) - half, glm::vec3(9, 0, 0) + half));    // far to the right
    EXPECT_TRUE(boxOutsideView(c, glm::vec3(0, 9, 0) - half, glm::vec3(0, 9, 0) + half));    // far above
    EXPECT_FALSE(boxOutsideView(c, glm::vec3(-9, -0.1f, -0.1f), glm::vec3(9, 0.1f, 0.1f)));  // across the view
    EXPECT_FALSE(boxOutsideView(c, glm::vec3(-1, -1, 4), glm::vec3(1, 1, 6)));               // around the eye
    EXPECT_FALSE(boxOutsideView(c, glm::vec3(1), glm::vec3(-1)));                            // empty
}

}  // namespace
}  // namespace firelab::render

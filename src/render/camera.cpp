#include "render/camera.h"

#include <cmath>
#include <limits>

#include <glm/gtc/matrix_transform.hpp>

namespace firelab::render {

Camera lookAtCamera(const glm::vec3& eye, const glm::vec3& target, float fovYDeg, int width, int height) {
    Camera c;
    c.eye = eye;
    c.view = glm::lookAt(eye, target, glm::vec3(0.0f, 1.0f, 0.0f));
    c.proj = glm::perspective(glm::radians(fovYDeg), static_cast<float>(width) / static_cast<float>(height), 0.05f, 100.0f);
    c.viewProj = c.proj * c.view;
    // Rows of the view matrix are the camera's axes in world space.
    c.right = glm::vec3(c.view[0][0], c.view[1][0], c.view[2][0]);
    c.up = glm::vec3(c.view[0][1], c.view[1][1], c.view[2][1]);
    c.forward = -glm::vec3(c.view[0][2], c.view[1][2], c.view[2][2]);
    c.viewportWidth = width;
    c.viewportHeight = height;
    return c;
}

float nearDistance(const Camera& camera) {
    const glm::mat4& p = camera.proj;
    const float a = p[2][2], b = p[3][2];
    if (p[2][3] == -1.0f && p[3][3] == 0.0f && a < 1.0f) {  // w = -z: a perspective projection
        const float near = b / (a - 1.0f);
        if (near > 0.0f && std::isfinite(near)) return near;
    }
    return -std::numeric_limits<float>::infinity();
}

Camera orbitCamera(double time, int width, int height, const OrbitParams& o) {
    const double turns = o.periodSeconds > 0.0f ? time / static_cast<double>(o.periodSeconds) : 0.0;
    const double a = glm::radians(static_cast<double>(o.startDeg)) + turns * 2.0 * 3.141592653589793;
    const glm::vec3 eye = o.target + glm::vec3(static_cast<float>(std::cos(a)) * o.radius, o.height - o.target.y,
                                               static_cast<float>(std::sin(a)) * o.radius);
    return lookAtCamera(eye, o.target, o.fovYDeg, width, height);
}

}  // namespace firelab::render

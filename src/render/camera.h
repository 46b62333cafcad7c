// The camera: matrices plus the vectors billboards are built from. orbitCamera(t) is the scripted
// orbit, a function of time alone, so any frame can be reproduced from its time.
#pragma once
#include <glm/mat4x4.hpp>
#include <glm/vec2.hpp>
#include <glm/vec3.hpp>

namespace firelab::render {

struct Camera {
    glm::mat4 view{1.0f}, proj{1.0f}, viewProj{1.0f};
    glm::vec3 eye{0.0f}, forward{0.0f, 0.0f, -1.0f}, up{0.0f, 1.0f, 0.0f}, right{1.0f, 0.0f, 0.0f};
    int viewportWidth = 1, viewportHeight = 1;
};

// The projection's terms that turn a depth-buffer value back into view distance (shaders/view_depth.glsl's
// uDepthTerms): z_ndc = (A z + B) / -z with A = proj[2][2], B = proj[3][2].
inline glm::vec2 depthTerms(const Camera& camera) { return {camera.proj[2][2], camera.proj[3][2]}; }

// The near plane's view distance (glm::perspective's zNear) read back from a perspective projection:
// z_ndc = -1 at z = -near, so near = B / (A - 1). Any other projection (an orthographic one, the identity of
// a default Camera) has no near plane in front of the eye: -infinity, behind which nothing lies.
float nearDistance(const Camera& camera);

Camera lookAtCamera(const glm::vec3& eye, const glm::vec3& target, float fovYDeg, int width, int height);

struct OrbitParams {
    glm::vec3 target{0.0f, 0.7f, 0.0f};
    float radius = 3.2f;
    float height = 1.3f;
    float periodSeconds = 40.0f;  // one turn; 0 stops the orbit
    float startDeg = 20.0f;
    float fovYDeg = 45.0f;
};
Camera orbitCamera(double time, int width, int height, const OrbitParams& o = {});

}  // namespace firelab::render

#include "render/camera.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include <glm/gtc/matrix_transform.hpp>

namespace firelab::render {

Camera lookAtCamera(const glm::vec3& eye, const glm::vec3& target, float fovYDeg, int width, int height) {
    Camera c;
    c.eye = eye;
    c.view = glm::lookAt(eye, target, glm::vec3(0.0f, 1.0f, 0.0f));
    c.proj = glm::perspective(glm::radians(fovYDeg), static_cast<float>(width) / static_cast<float>(height), kNearPlane,
                              100.0f);
    c.viewProj = c.proj * c.view;
    // Rows of the view matrix are the camera's axes in world space.
    c.right = glm::vec3(c.view[0][0], c.view[1][0], c.view[2][0]);
    c.up = glm::vec3(c.view[0][1], c.view[1][1], c.view[2][1]);
    c.forward = -glm::vec3(c.view[0][2], c.view[1][2], c.view[2][2]);
    c.viewportWidth = width;
    c.viewportHeight = height;
    return c;
}

bool boxOutsideView(const Camera& camera, const glm::vec3& lo, const glm::vec3& hi) {
    if (lo.x > hi.x || lo.y > hi.y || lo.z > hi.z) return false;
    int outside[6] = {0, 0, 0, 0, 0, 0};  // corners beyond x < -w, x > w, y < -w, y > w, z < -w, z > w
    for (int c = 0; c < 8; ++c) {
        const glm::vec4 p =
            camera.viewProj * glm::vec4((c & 1) ? hi.x : lo.x, (c & 2) ? hi.y : lo.y, (c & 4) ? hi.z : lo.z, 1.0f);
        for (int axis = 0; axis < 3; ++axis) {
            outside[2 * axis] += p[axis] < -p.w ? 1 : 0;
            outside[2 * axis + 1] += p[axis] > p.w ? 1 : 0;
        }
    }
    for (const int n : outside)
        if (n == 8) return true;
    return false;
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

glm::vec3 orbitEye(double time, const OrbitParams& o) {
    const double turns = o.periodSeconds != 0.0f ? time / static_cast<double>(o.periodSeconds) : 0.0;
    const double a = glm::radians(static_cast<double>(o.startDeg)) + turns * 2.0 * 3.141592653589793;
    return o.target + glm::vec3(static_cast<float>(std::cos(a)) * o.radius, o.height - o.target.y,
                                static_cast<float>(std::sin(a)) * o.radius);
}

Camera orbitCamera(double time, int width, int height, const OrbitParams& o) {
    return lookAtCamera(orbitEye(time, o), o.target, o.fovYDeg, width, height);
}

OrbitParams orbitOf(const CameraSettings& c) {
    return {.target = c.target,
            .radius = c.distance,
            .height = c.height,
            .periodSeconds = c.mode == CameraMode::Orbit ? c.orbitPeriod : 0.0f,
            .startDeg = c.yawDeg,
            .fovYDeg = c.fovDeg};
}

namespace {
// Hermite basis at s in [0, 1] of the segment p0 -> p1 with tangents m0, m1 (per unit of s).
template <class T>
T hermite(const T& p0, const T& m0, const T& p1, const T& m1, float s) {
    const float s2 = s * s, s3 = s2 * s;
    return (2.0f * s3 - 3.0f * s2 + 1.0f) * p0 + (s3 - 2.0f * s2 + s) * m0 + (-2.0f * s3 + 3.0f * s2) * p1 +
           (s3 - s2) * m1;
}

// Catmull-Rom's tangent at key k of `value` (per second), over the keys' own times; one-sided at the ends.
template <class T, class Get>
T tangent(const std::vector<CameraKey>& keys, size_t k, Get value) {
    const size_t a = k == 0 ? 0 : k - 1, b = std::min(k + 1, keys.size() - 1);
    return (value(keys[b]) - value(keys[a])) / static_cast<float>(keys[b].time - keys[a].time);
}

template <class T, class Get>
T interpolate(const std::vector<CameraKey>& keys, size_t k, float s, float span, Get value) {
    return hermite(value(keys[k]), tangent<T>(keys, k, value) * span, value(keys[k + 1]),
                   tangent<T>(keys, k + 1, value) * span, s);
}
}  // namespace

CameraKey samplePath(const std::vector<CameraKey>& keys, double time) {
    auto held = [time](CameraKey key) {  // an end key's view, at the time asked
        key.time = time;
        return key;
    };
    if (time <= keys.front().time) return held(keys.front());
    if (time >= keys.back().time) return held(keys.back());
    const auto after =
        std::upper_bound(keys.begin(), keys.end(), time, [](double t, const CameraKey& key) { return t < key.time; });
    const size_t k = static_cast<size_t>(after - keys.begin()) - 1;
    const double span = keys[k + 1].time - keys[k].time;
    const float s = static_cast<float>((time - keys[k].time) / span), spanF = static_cast<float>(span);
    CameraKey out;
    out.time = time;
    out.eye = interpolate<glm::vec3>(keys, k, s, spanF, [](const CameraKey& key) { return key.eye; });
    out.target = interpolate<glm::vec3>(keys, k, s, spanF, [](const CameraKey& key) { return key.target; });
    // A spline may overshoot between keys: the field of view stays inside the range a key may take.
    const float fov = interpolate<float>(keys, k, s, spanF, [](const CameraKey& key) { return key.fovDeg; });
    out.fovDeg = std::clamp(fov, std::nextafter(kFovLimitsDeg[0], kFovLimitsDeg[1]),
                            std::nextafter(kFovLimitsDeg[1], kFovLimitsDeg[0]));
    return out;
}

CameraKey viewKeyAt(const CameraSettings& settings, const std::vector<CameraKey>& keys, double time) {
    if (settings.mode == CameraMode::Path && !keys.empty()) return samplePath(keys, time);
    const OrbitParams o = orbitOf(settings);
    return {time, orbitEye(time, o), o.target, o.fovYDeg};
}

Camera viewAt(const CameraSettings& settings, const std::vector<CameraKey>& keys, double time, int width, int height) {
    const CameraKey key = viewKeyAt(settings, keys, time);
    return lookAtCamera(key.eye, key.target, key.fovDeg, width, height);
}

}  // namespace firelab::render

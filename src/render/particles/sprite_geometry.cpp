#include "render/particles/sprite_geometry.h"

#include <algorithm>
#include <cmath>

#include <glm/geometric.hpp>

#include "sim/emitter.h"

namespace firelab::render {

glm::mat3 spritePlane(const sim::FireParams& params) { return sim::emitterTransform(params).rotation; }

void billboardAxes(const Camera& camera, const RenderOptions& options, const glm::vec3& p, float size,
                   const glm::vec3& vel, glm::vec3& right, glm::vec3& up, float& halfW, float& halfH,
                   const glm::mat3& plane) {
    right = camera.right, up = camera.up;
    halfW = halfH = 0.5f * size;
    if (options.facing == Facing::Viewpoint) {
        const glm::vec3 n = glm::normalize(p - camera.eye);
        up = glm::normalize(camera.up - n * glm::dot(camera.up, n));
        right = glm::normalize(glm::cross(n, up));
    } else if (options.facing == Facing::Ground) {  // flat on the ground: the world's x and z
        right = glm::vec3(1.0f, 0.0f, 0.0f);
        up = glm::vec3(0.0f, 0.0f, 1.0f);
    } else if (options.facing == Facing::Plane) {  // in the emitter's plane: its x and z
        right = plane[0];
        up = plane[2];
    } else if (options.facing == Facing::Velocity) {
        const glm::vec3 vp = vel - camera.forward * glm::dot(vel, camera.forward);
        const float speed = glm::length(vp);
        if (speed > 1e-4f) {
            up = vp / speed;
            right = glm::normalize(glm::cross(camera.forward, up));
            halfH *= 1.0f + options.velocityStretch * speed;
        }
    }
}

float spriteRadius(const RenderOptions& options, float size, const glm::vec3& vel) {
    const float half = 0.5f * std::abs(size);
    if (options.facing != Facing::Velocity) return half * std::sqrt(2.0f);
    // |1 + stretch * s| over the speeds s in [0, |vel|] is largest at an end.
    const float stretch = std::max(1.0f, std::abs(1.0f + options.velocityStretch * glm::length(vel)));
    return half * std::sqrt(1.0f + stretch * stretch);
}

void turnAxes(glm::vec3& right, glm::vec3& up, float angle) {
    if (angle == 0.0f) return;
    const float c = std::cos(angle), s = std::sin(angle);
    const glm::vec3 r = right;
    right = r * c + up * s;
    up = up * c - r * s;
}

}  // namespace firelab::render

// The ground plane particles bounce on (FireParams::ground; NVIDIA's particle shader bounces too). Written
// once here for the CPU update and once in shaders/fire_model.glsl (bounceOnGround) for the compute strategy.
// With Ground::Stage the CPU's particles also bounce on the stage's boxes (the logs and the stone, sim/stage.h),
// exactly, by the same rule in the box's frame (bounceOnBox); the compute strategy collides with the scene's
// depth buffer instead (shaders/depth_collision.glsl), as GPU particle systems do.
//
//   const GroundPlane g = groundPlane(params);
//   bounceOnGround(y, vx, vy, vz, g);  // after the step's move
//   for (const StageCollider& b : colliders) bounceOnBox(p, v, b, g, dt);
#pragma once
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>

#include <vector>

#include <glm/mat3x3.hpp>
#include <glm/mat4x4.hpp>
#include <glm/vec3.hpp>

#include "sim/params.h"
#include "sim/stage.h"

namespace firelab::sim {

struct GroundPlane {
    float height;       // y of the plane (m)
    float restitution;  // normal speed after / before
    float keep;         // tangential speed after / before: 1 - friction
};

inline GroundPlane groundPlane(const FireParams& p) { return {p.groundHeight, p.restitution, 1.0f - p.friction}; }

// What a collision was: none; a touch of a particle resting on the surface; a bounce (ParticlePool::bounces counts
// them: NVIDIA's fog by bounce number). A stepped particle at rest falls onto the surface every step and is put
// back, hopping a step or two: it hits at about what one or two steps of its acceleration give (stepSpeed = |a| dt).
// A bounce is a contact it hit faster than kRestSteps steps give (it was in the air for longer: 50 ms at 60 Hz) and
// leaves at kRestSpeed or faster (the speed under which gpu-stateless, which has no steps, lets it rest).
enum class Contact { None, Rest, Bounce };
inline constexpr float kRestSpeed = 0.05f;  // m/s: a rebound slower than this would hop under 0.2 mm at 1 g
inline constexpr float kRestSteps = 3.0f;
inline Contact contactOf(float hitSpeed, float leaveSpeed, float stepSpeed) {
    return hitSpeed > kRestSteps * stepSpeed && leaveSpeed >= kRestSpeed ? Contact::Bounce : Contact::Rest;
}

// A particle that ended its move below the plane bounced on it during the move: it leaves upward at
// restitution x its normal speed, and the rest of its move below the plane (the overshoot) is reflected
// above it at the same fraction of the length, so it ends on or above the plane.
inline Contact bounceOnGround(float& y, float& vx, float& vy, float& vz, const GroundPlane& g, float stepSpeed = 0.0f) {
    if (!(y < g.height)) return Contact::None;
    const float hit = std::fabs(vy);
    y = g.height + (g.height - y) * g.restitution;
    vy = hit * g.restitution;
    vx *= g.keep;
    vz *= g.keep;
    return contactOf(hit, vy, stepSpeed);
}
// One more bounce counted, up to the count's 255.
inline void countBounce(uint8_t& bounces, Contact c) {
    if (c == Contact::Bounce && bounces < 255) ++bounces;
}

// A birth below the plane starts on it.
inline float aboveGround(float y, const FireParams& p) {
    return p.ground != Ground::Off ? std::max(y, p.groundHeight) : y;
}

// A stage box as a collision sees it: the rotation and offset that take world points into its frame, and its
// half sizes. The stage's boxes are rigid (a rotation and a translation), so directions turn by `rotation`.
struct StageCollider {
    glm::mat3 rotation{1.0f};  // box frame -> world (its transpose: world -> box)
    glm::vec3 origin{0.0f};    // the box's centre in the world
    glm::vec3 half{0.0f};
};

inline std::vector<StageCollider> stageColliders() {
    std::vector<StageCollider> out;
    for (const StageBox& b : stageBoxes()) out.push_back({glm::mat3(b.toWorld), glm::vec3(b.toWorld[3]), b.half});
    return out;
}

// A particle that ended its step inside the box bounced on the face it came in through: of the faces it was outside at
// the step's start (p - v dt: the step moved it by its new velocity), the one it crossed last; the face it is least
// deep behind if it began inside (a birth in a log). As on the ground plane, it leaves that face at restitution x its
// normal speed, its tangential speed x (1 - friction), and the part of its move inside is reflected out at the same
// fraction. Its slide along the face during the step is cut by the friction too, as if it had slid at the speed it
// leaves with: without that a particle resting on a sloping log creeps down it a step's slide at a time however
// high the friction. Returns what the contact was.
inline Contact bounceOnBox(glm::vec3& p, glm::vec3& v, const StageCollider& b, const GroundPlane& g, float dt,
                           float stepSpeed = 0.0f) {
    const glm::mat3 toBox = glm::transpose(b.rotation);
    glm::vec3 q = toBox * (p - b.origin);
    const glm::vec3 inside = b.half - glm::abs(q);
    if (!(inside.x > 0.0f && inside.y > 0.0f && inside.z > 0.0f)) return Contact::None;
    glm::vec3 u = toBox * v;
    const glm::vec3 start = q - u * dt;
    int k = -1;
    float side = 1.0f, latest = -1.0f;
    for (int a = 0; a < 3; ++a) {
        if (!(std::fabs(start[a]) > b.half[a])) continue;
        const float s = start[a] < 0.0f ? -1.0f : 1.0f;
        const float f = (start[a] - s * b.half[a]) / (start[a] - q[a]);  // when along the step it crossed the face
        if (f > latest) latest = f, k = a, side = s;
    }
    if (k < 0) {  // began inside: out through the nearest face
        k = inside.x < inside.y ? (inside.x < inside.z ? 0 : 2) : (inside.y < inside.z ? 1 : 2);
        side = q[k] < 0.0f ? -1.0f : 1.0f;
    }
    const float depth = b.half[k] - side * q[k];  // behind the face, along its normal
    q[k] = side * (b.half[k] + depth * g.restitution);
    for (int a = 0; a < 3; ++a) {
        if (a == k) continue;
        q[a] -= (1.0f - g.keep) * u[a] * dt;
        u[a] *= g.keep;
    }
    const float hit = std::fabs(u[k]);
    u[k] = side * hit * g.restitution;
    p = b.origin + b.rotation * q;
    v = b.rotation * u;
    return contactOf(hit, hit * g.restitution, stepSpeed);
}

}  // namespace firelab::sim

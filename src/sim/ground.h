// The ground plane particles bounce on (FireParams::ground; NVIDIA's particle shader bounces too). Written
// once here for the CPU update and once in shaders/fire_model.glsl (bounceOnGround) for the compute strategy.
//
//   const GroundPlane g = groundPlane(params);
//   bounceOnGround(y, vx, vy, vz, g);  // after the step's move
#pragma once
#include <algorithm>
#include <cmath>
#include <cstddef>

#include "sim/params.h"

namespace firelab::sim {

struct GroundPlane {
    float height;       // y of the plane (m)
    float restitution;  // normal speed after / before
    float keep;         // tangential speed after / before: 1 - friction
};

inline GroundPlane groundPlane(const FireParams& p) { return {p.groundHeight, p.restitution, 1.0f - p.friction}; }

// A particle that ended its move below the plane bounced on it during the move: it leaves upward at
// restitution x its normal speed, and the rest of its move below the plane (the overshoot) is reflected
// above it at the same fraction of the length, so it ends on or above the plane.
inline void bounceOnGround(float& y, float& vx, float& vy, float& vz, const GroundPlane& g) {
    if (!(y < g.height)) return;
    y = g.height + (g.height - y) * g.restitution;
    vy = std::fabs(vy) * g.restitution;
    vx *= g.keep;
    vz *= g.keep;
}

// A birth below the plane starts on it.
inline float aboveGround(float y, const FireParams& p) {
    return p.ground == Ground::Bounce ? std::max(y, p.groundHeight) : y;
}

}  // namespace firelab::sim

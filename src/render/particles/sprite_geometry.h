// The geometry of a particle's sprite: the axes and half-extents of its quad for the options' facing,
// and its turn in its plane (the C++ twins of billboardCorner() and turnAxes() in
// shaders/particle_common.glsl).
#pragma once
#include <glm/mat3x3.hpp>
#include <glm/vec3.hpp>

#include "render/camera.h"
#include "render/options.h"
#include "sim/params.h"

namespace firelab::render {

// The plane --facing plane lays sprites in: the emitter's rotation (--rotate-x/y/z), whose columns are the plane's
// right (x), normal (y) and up (z); the identity (the ground's xz plane) when the emitter is not turned.
glm::mat3 spritePlane(const sim::FireParams& params);

// corner = p + right*cx*halfW + up*cy*halfH for cx, cy in [-1, 1]. `plane`: spritePlane's, for --facing plane.
void billboardAxes(const Camera& camera, const RenderOptions& options, const glm::vec3& p, float size,
                   const glm::vec3& vel, glm::vec3& right, glm::vec3& up, float& halfW, float& halfH,
                   const glm::mat3& plane = glm::mat3(1.0f));

// A bound on the distance from a particle's centre to any point of its sprite, whatever the camera: the
// quad's half-diagonal (turned or not; a trimmed hull lies inside the quad), its height stretched for
// velocity facing by the whole speed (billboardAxes stretches by the speed across the view, never more).
float spriteRadius(const RenderOptions& options, float size, const glm::vec3& vel);

// Turns the sprite's axes by `angle` radians in their plane, right towards up (counter-clockwise as seen):
// the quad, or its trimmed polygon, turns about its centre. Angle 0 leaves them exactly as they are.
void turnAxes(glm::vec3& right, glm::vec3& up, float angle);

}  // namespace firelab::render

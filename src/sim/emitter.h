// Where and in which direction particles are born: rect, circle or sphere regions, uniform or
// normal (truncated) position distributions, the ejection cone, and a particle's whole birth state.
// GL-free and seeded; shaders/fire_model.glsl draws the same values in the same order.
#pragma once
#include <glm/mat3x3.hpp>
#include <glm/vec2.hpp>
#include <glm/vec3.hpp>

#include "sim/params.h"
#include "sim/random.h"

namespace firelab::sim {

// Rejection sampling of the truncated normals is bounded: after kMaxRejectionTries misses the point is
// drawn uniformly in the region. The proposal is the normal while sigma <= kWideSigma and the uniform
// (accepted with the normal's weight) beyond, so a try succeeds with probability >= 0.43 for every
// sigma and the fallback happens about once in 10^8 draws.
inline constexpr int kMaxRejectionTries = 32;
inline constexpr float kWideSigma = 0.7f;

// A particle's initial state, drawn in this order: position, direction, speed (x, y, z in the emission
// frame), acceleration (x, y, z), lifetime, size scale, rnd.
struct Birth {
    glm::vec3 position, velocity, acceleration;
    float life, scale, rnd;
};
// The emitter's rotation (FireParams::rotationDeg), computed once per emission, not per birth: applied to
// a birth drawn in the emitter's own frame, about its centre. shaders/fire_model.glsl takes the same matrix as a uniform.
// With a path (FireParams::pathAmplitude), the births of time t are moved by pathOffset(p, t).
struct EmitterTransform {
    glm::mat3 rotation{1.0f};
    bool rotated = false;    // false: the identity, skipped
    glm::vec3 offset{0.0f};  // where the path has taken the emitter at the births' time
};
EmitterTransform emitterTransform(const FireParams& p, double time = 0.0);
// The emitter path's displacement of the centre at time t (zero without a path).
glm::vec3 pathOffset(const FireParams& p, double t);

Birth sampleBirth(const FireParams& p, const EmitterTransform& transform, Rng& rng);
inline Birth sampleBirth(const FireParams& p, Rng& rng) { return sampleBirth(p, emitterTransform(p), rng); }

// Where a particle born at the mean state is halfway through its mean life at time t (the emitter's
// path, the mean velocity turned by the emitter's rotation, the mean acceleration under drag; no
// turbulence; above a bouncing ground): a point that stands for the whole system when systems are
// ordered by depth. The same for every strategy, since it depends on the parameters alone.
glm::vec3 typicalPosition(const FireParams& p, double t);
// Without turbulence and ground, a particle launched at v0 under acceleration a is at p0 + v0 g.x + a g.y after tau
// seconds: dv/dt = a - drag v gives g = ((1 - e^{-d tau}) / d, (tau - g.x) / d); --drag-on launch leaves the
// acceleration undamped, g.y = tau^2 / 2.
glm::vec2 driftIntegrals(const FireParams& p, float tau);

// Position inside the emission region, per the distribution.
glm::vec3 samplePosition(const FireParams& p, Rng& rng);
// Unit emission direction: within the cone around +y (rect, circle), radial (sphere).
glm::vec3 sampleDirection(const FireParams& p, const glm::vec3& position, Rng& rng);
// Rotates a vector given in the emission frame (+y = dir) to world space by the minimal rotation
// taking +y to dir, so dir = +y leaves the vector unchanged.
glm::vec3 fromEmissionFrame(const glm::vec3& dir, const glm::vec3& local);

}  // namespace firelab::sim

// Where and in which direction particles are born: rect, circle or sphere regions, uniform or
// normal (truncated) position distributions, and the ejection cone. GL-free and seeded.
#pragma once
#include <glm/vec3.hpp>

#include "sim/params.h"
#include "sim/random.h"

namespace firelab::sim {

// Position inside the emission region, per the distribution.
glm::vec3 samplePosition(const FireParams& p, Pcg32& rng);
// Unit emission direction: within the cone around +y (rect, circle), radial (sphere).
glm::vec3 sampleDirection(const FireParams& p, const glm::vec3& position, Pcg32& rng);
// Rotates a vector given in the emission frame (+y = dir) to world space by the minimal rotation
// taking +y to dir, so dir = +y leaves the vector unchanged.
glm::vec3 fromEmissionFrame(const glm::vec3& dir, const glm::vec3& local);

}  // namespace firelab::sim

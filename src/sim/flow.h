// A velocity field the particles follow instead of the paper's formulas (--motion fluid): the grid fluid's
// (fluid/fluid_sim.h), sampled at a particle's position, and the temperature of its gas there (--color grid). An interface here so that the model (sim) stays below
// the fluid: the fluid implements it, FireSystem reads it.
#pragma once
#include <limits>

#include <glm/vec3.hpp>

namespace firelab::sim {

class Flow {
public:
    virtual ~Flow() = default;
    // The velocity at world point p (m/s); safe to call from several threads at once.
    virtual glm::vec3 velocityAt(const glm::vec3& p) const = 0;
    // The gas's temperature at world point p (K); NaN where the flow has none. Safe from several threads.
    virtual float temperatureAt(const glm::vec3&) const { return std::numeric_limits<float>::quiet_NaN(); }
};

}  // namespace firelab::sim

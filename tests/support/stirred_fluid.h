// A lively grid fluid state to start a pass or a step from, without simulating to it: smooth random velocities
// (products of sines, at most 2.5 x `speed` m/s), a hot blob low in the middle, its fuel and soot. Shared by the
// GPU fluid's tests against the CPU (tests/fluid) and the fluid's benchmarks (tests/bench).
#pragma once
#include <cmath>
#include <random>

#include <glm/geometric.hpp>

#include "fluid/fluid_sim.h"

namespace firelab::testing {

inline void stir(fluid::FluidSim& sim, unsigned seed, float speed = 1.0f) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> phase(0.0f, 6.28f);
    fluid::FluidState& s = sim.state();
    // Over the grid's extent whatever its resolution: the same field on 32^3 and 128^3 cells of one cube.
    const glm::vec3 wave = 16.0f / glm::vec3(s.n);
    for (fluid::Field* f : {&s.u, &s.v, &s.w}) {
        const float a = phase(rng), b = phase(rng), c = phase(rng);
        for (int k = 0; k < f->n.z; ++k)
            for (int j = 0; j < f->n.y; ++j)
                for (int i = 0; i < f->n.x; ++i)
                    f->at(i, j, k) = speed * (1.5f * std::sin(0.5f * wave.x * static_cast<float>(i) + a) *
                                                  std::cos(0.4f * wave.y * static_cast<float>(j) + b) +
                                              std::sin(0.3f * wave.z * static_cast<float>(k) + c));
    }
    const float radius2 = 18.0f / (wave.x * wave.x);
    for (int k = 0; k < s.n.z; ++k)
        for (int j = 0; j < s.n.y; ++j)
            for (int i = 0; i < s.n.x; ++i) {
                const glm::vec3 d = glm::vec3(i, j, k) - glm::vec3(s.n) * glm::vec3(0.5f, 0.3f, 0.5f);
                const float g = std::exp(-glm::dot(d, d) / radius2);
                s.temperature.at(i, j, k) = sim.params().ambient + 900.0f * g;
                s.fuel.at(i, j, k) = 0.8f * g;
                s.soot.at(i, j, k) = 0.3f * g;
            }
}

}  // namespace firelab::testing

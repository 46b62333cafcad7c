#include "sim/turbulence.h"

#include <cmath>

#include <glm/geometric.hpp>

namespace firelab::sim {

TurbulenceField turbulenceAt(double t, float strength, float frequency, float speed) {
    // Fixed directions (d, e), relative frequencies, weights and evolution rates of the waves.
    struct Proto {
        glm::vec3 d, e;
        float freq, weight, rate, phase0;
    };
    static const Proto protos[kTurbulenceWaves] = {
        {{0.0f, 1.0f, 0.0f}, {0.8f, 0.0f, 0.6f}, 0.35f, 0.45f, 0.6f, 0.3f},  // sway: horizontal, slow
        {{0.6f, 0.48f, 0.64f}, {0.0f, 0.8f, -0.6f}, 1.0f, 0.30f, 1.0f, 1.9f},
        {{-0.7f, 0.3f, 0.648f}, {0.6f, 0.0f, 0.648f}, 1.9f, 0.17f, 1.7f, 4.1f},
        {{0.2f, -0.55f, 0.81f}, {0.9f, 0.4f, 0.0f}, 3.3f, 0.08f, 2.6f, 0.7f},
    };
    TurbulenceField f{};
    for (int i = 0; i < kTurbulenceWaves; ++i) {
        const Proto& q = protos[i];
        const glm::vec3 d = glm::normalize(q.d);
        f[static_cast<size_t>(i)].k = d * (q.freq * frequency);
        f[static_cast<size_t>(i)].amp = glm::normalize(glm::cross(d, glm::normalize(q.e))) * (q.weight * strength);
        const double ph = static_cast<double>(q.phase0) + t * static_cast<double>(speed * q.rate);
        f[static_cast<size_t>(i)].phase = static_cast<float>(std::fmod(ph, 6.283185307179586));
    }
    return f;
}

}  // namespace firelab::sim

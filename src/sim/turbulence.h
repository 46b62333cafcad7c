// A divergence-free, time-varying turbulence field: the analytic curl of a few sinusoidal vector
// potentials, A = sum_i w_i/k_i sin(k_i d_i.p + phase_i(t)) e_i, so curl A = sum_i w_i cos(...) (d_i x e_i).
// The lowest wave runs along +y with a long wavelength, which makes the whole flame sway; the higher
// ones make it flicker. Cheap enough to evaluate per particle per step, and identical in GLSL.
#pragma once
#include <array>

#include <glm/vec3.hpp>

namespace firelab::sim {

struct TurbulenceWave {
    glm::vec3 k;    // wave vector: direction * spatial frequency (1/m)
    glm::vec3 amp;  // (d x e) * weight * strength (m/s^2)
    float phase;    // at the current time, wrapped to [0, 2pi)
};

inline constexpr int kTurbulenceWaves = 4;
using TurbulenceField = std::array<TurbulenceWave, kTurbulenceWaves>;

// The field at time t for the given strength, frequency (1/m) and evolution speed (1/s).
TurbulenceField turbulenceAt(double t, float strength, float frequency, float speed);

// cos(x) to about 1e-3, branch-free so that loops calling it vectorise. |x| < 2^20.
inline float fastCos(float x) {
    constexpr float kInv2Pi = 0.15915494309189535f;
    constexpr float kMagic = 12582912.0f;  // 1.5 * 2^23: adding and subtracting it rounds to an integer
    float y = x * kInv2Pi + 0.25f;         // cos(x) = sin(x + pi/2), in turns
    y = y - ((y + kMagic) - kMagic);       // now in [-0.5, 0.5]
    const float ay = y < 0.0f ? -y : y;
    float s = 8.0f * y - 16.0f * y * ay;  // parabola through sin(2 pi y)
    const float as = s < 0.0f ? -s : s;
    return 0.225f * (s * as - s) + s;  // one refinement step
}

inline glm::vec3 evaluateTurbulence(const TurbulenceField& f, const glm::vec3& p) {
    glm::vec3 r(0.0f);
    for (const auto& w : f) r += w.amp * fastCos(w.k.x * p.x + w.k.y * p.y + w.k.z * p.z + w.phase);
    return r;
}

}  // namespace firelab::sim

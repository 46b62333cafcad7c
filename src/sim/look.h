// A particle's own variation of its look, fixed for its life: a tint of the gradient's colour
// (--color-var; the D3D9 seed gives each particle its initial colour) and its sprite's angle in the sprite's
// plane, an initial turn and a spin (--rotation-var, --spin, --spin-var). Derived from the particle's rnd
// (ParticlePool::rnd, 24 random bits) by a PCG hash per quantity, so the pool gains no array and a birth
// no draw, and every strategy derives the same values: the CPU-simulated ones stream them
// (render/particles/instance_stream.h), the GPU-simulated ones hash rnd in shaders/particle_look.glsl, which
// repeats these functions bit for bit.
#pragma once
#include <algorithm>
#include <cstdint>

#include <glm/common.hpp>
#include <glm/vec3.hpp>
#include <glm/vec4.hpp>

#include "sim/gradient.h"
#include "sim/params.h"
#include "sim/random.h"

namespace firelab::sim {

// Quantity `salt` (< 256) of the particle whose rnd is `rnd`, uniform on [-1, 1): distinct salts hash
// distinct words (rnd's 24 bits below the salt), so the quantities are independent.
inline float lookSymmetric(float rnd, uint32_t salt) {
    const auto bits = static_cast<uint32_t>(rnd * 16777216.0f);  // rnd = k / 2^24: exact
    return static_cast<float>(pcgHash(bits | salt << 24) >> 8) * 0x1.0p-23f - 1.0f;
}

// Whether the model varies the look at all (else every tint is 1, every angle 0, and nothing needs streaming).
inline bool hasTurn(const FireParams& p) { return p.rotationVarDeg > 0.0f || p.spinDeg != 0.0f || p.spinVarDeg > 0.0f; }
inline bool hasLook(const FireParams& p) { return p.colorVar > 0.0f || hasTurn(p); }

// The particle's tint: 1 + colorVar * U[-1, 1) per channel (salts 0, 1, 2).
inline glm::vec3 tintOf(const FireParams& p, float rnd) {
    return glm::vec3(1.0f) + p.colorVar * glm::vec3(lookSymmetric(rnd, 0), lookSymmetric(rnd, 1), lookSymmetric(rnd, 2));
}

// The sprite's angle (radians, counter-clockwise as seen) at `age` seconds: rotationVar * U (salt 3) +
// (spin + spinVar * U (salt 4)) * age. The GPU takes the same radians (SpinRadians) as uniforms.
struct SpinRadians {
    float rotationVar, spin, spinVar;
};
inline SpinRadians spinRadians(const FireParams& p) {
    constexpr float k = 0.017453292519943295f;  // pi / 180
    return {p.rotationVarDeg * k, p.spinDeg * k, p.spinVarDeg * k};
}
inline float spriteAngle(const SpinRadians& r, float rnd, float age) {
    return r.rotationVar * lookSymmetric(rnd, 3) + (r.spin + r.spinVar * lookSymmetric(rnd, 4)) * age;
}

// A gradient colour tinted: its rgb times the tint, at most 1 (a colour, not a brightness); alpha kept.
inline glm::vec4 tinted(const glm::vec4& color, const glm::vec3& tint) {
    return {glm::min(glm::vec3(color) * tint, glm::vec3(1.0f)), color.a};
}

// The particle's colour at normalised age t (linear RGBA): the model's colour over life, tinted. What the
// snapshot records and what the medium strategies (render/particles/medium.h) build their kernels from; the
// sprite strategies look the same colour up in a 256-entry table on the GPU.
inline glm::vec4 colorOf(const FireParams& p, float t, float rnd) {
    return tinted(evaluateGradient(p.gradient, t), tintOf(p, rnd));
}

}  // namespace firelab::sim

// A particle's own variation of its look, fixed for its life: a tint of the gradient's colour
// (--color-var; the D3D9 seed gives each particle its initial colour), its sprite's angle in the sprite's
// plane, an initial turn and a spin (--rotation-var, --spin, --spin-var), and with --color blackbody its
// temperature's offset (--temperature-var); and its colour at an age, colorOf. Derived from the particle's rnd
// (ParticlePool::rnd, 24 random bits) by a PCG hash per quantity, so the pool gains no array and a birth
// no draw, and every strategy derives the same values: the CPU-simulated ones stream them
// (render/particles/instance_stream.h), the GPU-simulated ones hash rnd in shaders/particle_look.glsl, which
// repeats these functions bit for bit.
#pragma once
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>

#include <glm/common.hpp>
#include <glm/vec3.hpp>
#include <glm/vec4.hpp>

#include "sim/blackbody.h"
#include "sim/flame_frame.h"
#include "sim/gradient.h"
#include "sim/params.h"
#include "sim/particle_pool.h"
#include "sim/random.h"

namespace firelab::sim {

// Quantity `salt` (< 256) of the particle whose rnd is `rnd`, uniform on [-1, 1): distinct salts hash
// distinct words (rnd's 24 bits below the salt), so the quantities are independent.
inline float lookSymmetric(float rnd, uint32_t salt) {
    const auto bits = static_cast<uint32_t>(rnd * 16777216.0f);  // rnd = k / 2^24: exact
    return static_cast<float>(pcgHash(bits | salt << 24) >> 8) * 0x1.0p-23f - 1.0f;
}

// --color blackbody: the particle's temperature (K) at normalised age t, START + (END - START) t, before its
// offset; the temperature whose luminance is 1 (--temperature-ref, 0: START); the particle's offset,
// temperatureVar * U[-1, 1) (salt 5); whether the particles' temperatures differ at one age.
inline float temperatureAt(const FireParams& p, float t) {
    return p.temperature.x + (p.temperature.y - p.temperature.x) * std::clamp(t, 0.0f, 1.0f);
}
inline float referenceTemperature(const FireParams& p) {
    return p.temperatureRef > 0.0f ? p.temperatureRef : p.temperature.x;
}
inline float temperatureOffset(const FireParams& p, float rnd) { return p.temperatureVar * lookSymmetric(rnd, 5); }
// Whether the particles' temperatures differ at one age: a blackbody temperature variance, or --color grid (each
// takes the gas's temperature where it is). The renderers' table then holds rgb 1 and each particle's tint its
// colour.
inline bool hasTemperatureVar(const FireParams& p) {
    return (p.color == ColorModel::Blackbody && p.temperatureVar > 0.0f) || p.color == ColorModel::Grid;
}
// The particle's temperature (K) at normalised age t: under --color grid the gas's around it (`gasKelvin`, from
// sim::Flow::temperatureAt; NaN where there is none: then as blackbody), else START to END over its life; plus
// its offset.
inline float particleKelvin(const FireParams& p, float t, float rnd, float gasKelvin) {
    const bool gas = p.color == ColorModel::Grid && gasKelvin == gasKelvin;  // not NaN
    return (gas ? gasKelvin : temperatureAt(p, t)) + temperatureOffset(p, rnd);
}

// Whether the model varies the look at all (else every tint is 1, every angle 0, and nothing needs streaming).
inline bool hasTurn(const FireParams& p) { return p.rotationVarDeg > 0.0f || p.spinDeg != 0.0f || p.spinVarDeg > 0.0f; }
inline bool hasTint(const FireParams& p) { return p.colorVar > 0.0f || hasTemperatureVar(p) || p.bounceFog > 0.0f; }
inline bool hasLook(const FireParams& p) { return hasTint(p) || hasTurn(p); }

// The particle's tint: 1 + colorVar * U[-1, 1) per channel (salts 0, 1, 2).
inline glm::vec3 tintOf(const FireParams& p, float rnd) {
    return glm::vec3(1.0f) +
           p.colorVar * glm::vec3(lookSymmetric(rnd, 0), lookSymmetric(rnd, 1), lookSymmetric(rnd, 2));
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

// A colour tinted: its rgb times the tint; alpha kept. A gradient's rgb stays at most 1 (a colour, not a
// brightness: the tint does not brighten it past white); a blackbody's is a radiance for the HDR path, which
// may exceed 1 and is not clipped.
inline glm::vec4 tinted(const glm::vec4& color, const glm::vec3& tint, ColorModel model = ColorModel::Gradient) {
    if (model == ColorModel::Blackbody) return {glm::vec3(color) * tint, color.a};
    return {glm::min(glm::vec3(color) * tint, glm::vec3(1.0f)), color.a};
}

// --bounce-fog N: what the rgb of a particle that has bounced `bounces` times is multiplied by, 1 - bounces / N down
// to 0 (NVIDIA's fog toward black); 1 without.
inline float bounceFogOf(const FireParams& p, uint32_t bounces) {
    return p.bounceFog > 0.0f ? std::max(0.0f, 1.0f - static_cast<float>(bounces) / p.bounceFog) : 1.0f;
}

inline constexpr float kNoGas = std::numeric_limits<float>::quiet_NaN();  // no gas around the particle

// What the renderers multiply the colour table's rgb at t (gradientLut(params); t: the colour coordinate,
// colorCoordinate) by for this particle: its tint and, with a temperature variance (where the table's rgb is 1), its
// blackbody colour at its own temperature, and its bounce fog. The CPU-simulated strategies stream it (render::lookOf);
// shaders/particle_look.glsl repeats it.
inline glm::vec3 lookTint(const FireParams& p, float t, float rnd, float gasKelvin = kNoGas, uint32_t bounces = 0) {
    const glm::vec3 tint = tintOf(p, rnd) * bounceFogOf(p, bounces);
    if (!hasTemperatureVar(p)) return tint;
    return tint * temperatureTable(p).at(particleKelvin(p, t, rnd, gasKelvin));
}

// The particle's colour at normalised age t (linear RGBA): the model's colour over life, tinted and fogged, its rgb
// looked up at `at` (colorCoordinate; below 0: t). Gradient: the gradient's colour. Blackbody: rgb from the particle's
// temperature (sim/blackbody.h, through the model's TemperatureTable), alpha the gradient's. What the snapshot records
// and what the medium strategies (render/particles/medium.h) build their kernels from; the sprite strategies look the
// same colour up in a 256-entry table on the GPU (times lookTint).
inline glm::vec4 colorOf(const FireParams& p, float t, float rnd, float gasKelvin = kNoGas, uint32_t bounces = 0,
                         float at = -1.0f) {
    if (at < 0.0f) at = t;
    const glm::vec3 tint = tintOf(p, rnd) * bounceFogOf(p, bounces);
    const float alpha = evaluateGradient(p.gradient, t).a;
    if (p.color == ColorModel::Gradient) return tinted({glm::vec3(evaluateGradient(p.gradient, at)), alpha}, tint);
    const float kelvin = particleKelvin(p, at, rnd, gasKelvin);
    return tinted(glm::vec4(temperatureTable(p).at(kelvin), alpha), tint, ColorModel::Blackbody);
}

// Particle i of `q`'s colour (colorOf) at its age, place (colorCoordinate in `flame`) and bounces.
inline glm::vec4 particleColor(const FireParams& p, const FlameFrame& flame, const ParticlePool& q, size_t i,
                               float gasKelvin = kNoGas) {
    const float t = q.age[i] / q.life[i];
    return colorOf(p, t, q.rnd[i], gasKelvin, q.bounces[i], colorCoordinate(flame, t, {q.px[i], q.py[i], q.pz[i]}));
}

}  // namespace firelab::sim

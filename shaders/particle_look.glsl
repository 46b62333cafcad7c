// A particle's look derived from its rnd, for the GPU-simulated strategies: src/sim/look.h bit for bit
// (the CPU-simulated ones stream what sim computes). Included after particle_common.glsl.
#include "pcg_hash.glsl"

uniform float uColorVar;  // FireParams::colorVar
uniform float uBounceFog;  // FireParams::bounceFog (0: off)
uniform float uTemperatureVar;     // FireParams::temperatureVar with --color blackbody, else 0
uniform vec2 uTemperatureSpan;     // FireParams::temperature: START, END (K)
uniform vec2 uTemperatureRange;    // the sim::TemperatureTable's lo, hi (K)
uniform sampler1D uTemperature;    // its rgb, kTemperatureTableSize texels
uniform float uRotationVar, uSpin, uSpinVar;  // sim::SpinRadians

// sim::lookSymmetric: quantity `salt` of the particle, uniform on [-1, 1).
float lookSymmetric(float rnd, uint salt) {
    uint bits = uint(rnd * 16777216.0);  // rnd = k / 2^24: exact
    return float(pcgHash(bits | (salt << 24)) >> 8) * (1.0 / 8388608.0) - 1.0;
}

// sim::tintOf
vec3 tintOf(float rnd) {
    return vec3(1.0) + uColorVar * vec3(lookSymmetric(rnd, 0u), lookSymmetric(rnd, 1u), lookSymmetric(rnd, 2u));
}

// sim::TemperatureTable::at: the blackbody colour at `kelvin`, interpolated between the nearest entries
// (texel i's centre holds entry i).
vec3 temperatureColor(float kelvin) {
    float n = float(textureSize(uTemperature, 0));
    float f = clamp((kelvin - uTemperatureRange.x) / (uTemperatureRange.y - uTemperatureRange.x), 0.0, 1.0);
    return textureLod(uTemperature, (0.5 + f * (n - 1.0)) / n, 0.0).rgb;
}

// sim::bounceFogOf: the rgb's factor after `bounces` bounces.
float bounceFogOf(float bounces) { return uBounceFog > 0.0 ? max(0.0, 1.0 - bounces / uBounceFog) : 1.0; }

// sim::lookTint: what the colour table's rgb at t is multiplied by: the tint and, with a temperature
// variance (the table's rgb is then 1), the particle's blackbody colour at its own temperature; fogged after
// `bounces` bounces.
vec3 lookTint(float rnd, float t, float bounces) {
    vec3 tint = tintOf(rnd) * bounceFogOf(bounces);
    if (uTemperatureVar <= 0.0) return tint;
    float kelvin = uTemperatureSpan.x + (uTemperatureSpan.y - uTemperatureSpan.x) * clamp(t, 0.0, 1.0);
    return tint * temperatureColor(kelvin + uTemperatureVar * lookSymmetric(rnd, 5u));
}

// sim::spriteAngle: the sprite's angle (radians) at `age` seconds.
float spriteAngle(float rnd, float age) {
    return uRotationVar * lookSymmetric(rnd, 3u) + (uSpin + uSpinVar * lookSymmetric(rnd, 4u)) * age;
}

// A particle's look derived from its rnd, for the GPU-simulated strategies: src/sim/look.h bit for bit
// (the CPU-simulated ones stream what sim computes). Included after particle_common.glsl.
#include "pcg_hash.glsl"

uniform float uColorVar;  // FireParams::colorVar
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

// sim::spriteAngle: the sprite's angle (radians) at `age` seconds.
float spriteAngle(float rnd, float age) {
    return uRotationVar * lookSymmetric(rnd, 3u) + (uSpin + uSpinVar * lookSymmetric(rnd, 4u)) * age;
}

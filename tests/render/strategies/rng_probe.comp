#version 450 core
// For same_births_gltest.cpp: invocation j keys a stream by birth number uFirstBirth + j as
// compute_emit.comp does, and writes its first four raw draws, then the birth sampleBirth draws
// from a fresh stream of the same key (16 words per birth).
layout(local_size_x = 64) in;
#include "../../../shaders/fire_model.glsl"
layout(std430, binding = 0) writeonly buffer Out { uint words[]; };
uniform uint uCount;
uniform uvec2 uFirstBirth;

void main() {
    uint j = gl_GlobalInvocationID.x;
    if (j >= uCount) return;
    uint lo = uFirstBirth.x + j;
    uint hi = uFirstBirth.y + (lo < j ? 1u : 0u);
    uint s = rngInit(lo, hi);
    uint base = j * 16u;
    for (uint k = 0u; k < 4u; ++k) words[base + k] = rngNext(s);
    s = rngInit(lo, hi);
    Birth b = sampleBirth(s, 0.0);
    float f[12] = float[12](b.pos.x, b.pos.y, b.pos.z, b.vel.x, b.vel.y, b.vel.z, b.accel.x, b.accel.y,
                            b.accel.z, b.life, b.scale, b.rnd);
    for (uint k = 0u; k < 12u; ++k) words[base + 4u + k] = floatBitsToUint(f[k]);
}

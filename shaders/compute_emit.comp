#version 450 core
// compute: emits uEmitCount particles (the CPU counts them exactly as FireSystem::step does), each
// taking a slot from the top of the free list and its birth state from the stream keyed by
// (seed, birth number); on the frame's last step the newborn are appended to the draw list.
layout(local_size_x = 256) in;
#include "fire_model.glsl"
#include "compute_buffers.glsl"
uniform uint uEmitCount;
uniform uvec2 uFirstBirth;  // the 64-bit birth number of this dispatch's first particle
uniform bool uAppend;
uniform float uBirthTime;  // the step's end, when FireSystem::step emits

void main() {
    const uint stride = gl_NumWorkGroups.x * gl_WorkGroupSize.x;
    for (uint j = gl_GlobalInvocationID.x; j < uEmitCount; j += stride) {
        int top = atomicAdd(freeCount, -1);
        if (top <= 0) {  // pool full (the capacity makes this unreachable): undo and emit nothing
            atomicAdd(freeCount, 1);
            continue;
        }
        uint slot = freeList[top - 1];
        uint lo = uFirstBirth.x + j;
        uint rng = rngInit(lo, uFirstBirth.y + (lo < j ? 1u : 0u));
        Birth b = sampleBirth(rng, uBirthTime);
        particles[slot] = Particle(vec4(b.pos, 0.0), vec4(b.vel, b.life), vec4(b.accel, b.scale), vec4(b.rnd, 0.0, 0.0, 0.0));
        if (uAppend) drawList[atomicAdd(instanceCount, 1u)] = uvec2(0u, slot);
    }
}

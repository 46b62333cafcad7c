// The compute strategy's storage buffers (src/render/strategies/compute_strategy.cpp binds them). Slots
// [0, capacity) of particles; freeList[0, freeCount) holds the free slots; drawList[0, instanceCount)
// the live ones as (sort key, slot). The Counters block is also the glDrawArraysIndirect command.
layout(std430, binding = 0) buffer Particles { Particle particles[]; };
layout(std430, binding = 1) buffer FreeList { uint freeList[]; };
layout(std430, binding = 2) buffer Counters {
    uint vertexCount;    // the sprite polygon's strip: 4 (the quad or a trimmed 4-gon) or 8
    uint instanceCount;  // live particles appended to drawList this frame
    uint firstVertex;
    uint baseInstance;
    int freeCount;
};
layout(std430, binding = 3) buffer DrawList { uvec2 drawList[]; };

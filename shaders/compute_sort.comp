#version 450 core
// compute --sort back-to-front: a bitonic sort of the draw list by view depth, padded to a power of
// two. uMode 0 writes the keys (farthest first; padding last), 1 is one compare-exchange step (k, j)
// over the whole list, 2 runs every step with j <= 256 inside 512-element blocks in shared memory
// (with uK = 0: all of k = 2..512, the sort's start).
layout(local_size_x = 256) in;
#include "fire_model.glsl"
#include "compute_buffers.glsl"
uniform int uMode;
uniform uint uSize;  // padded length, a power of two >= 512
uniform uint uK, uJ;
uniform vec3 uCamForward, uCamEye;
shared uvec2 block[512];

// Unsigned keys that sort like the floats, reversed: ascending keys are descending depths.
uint descendingKey(float f) {
    uint u = floatBitsToUint(f);
    return ~((u & 0x80000000u) != 0u ? ~u : (u | 0x80000000u));
}

// Index of the first element of pair t in step j (a power of two); its partner is j further on.
// The pair sorts ascending where bit k of that index is 0.
uint pairStart(uint t, uint j) { return ((t & ~(j - 1u)) << 1) | (t & (j - 1u)); }

void main() {
    const uint stride = gl_NumWorkGroups.x * gl_WorkGroupSize.x;
    if (uMode == 0) {
        for (uint i = gl_GlobalInvocationID.x; i < uSize; i += stride) {
            if (i < instanceCount) {
                uint slot = drawList[i].y;
                drawList[i].x = descendingKey(dot(uCamForward, particles[slot].posAge.xyz - uCamEye));
            } else {
                drawList[i] = uvec2(0xffffffffu, 0u);
            }
        }
    } else if (uMode == 1) {
        for (uint t = gl_GlobalInvocationID.x; t < uSize / 2u; t += stride) {
            uint i = pairStart(t, uJ), l = i + uJ;
            uvec2 a = drawList[i], b = drawList[l];
            if ((a.x > b.x) == ((i & uK) == 0u)) {  // out of order for this run's direction
                drawList[i] = b;
                drawList[l] = a;
            }
        }
    } else {
        uint lt = gl_LocalInvocationID.x;
        uint kFirst = uK == 0u ? 2u : uK, kLast = uK == 0u ? 512u : uK;
        for (uint base = gl_WorkGroupID.x * 512u; base < uSize; base += gl_NumWorkGroups.x * 512u) {
            block[lt] = drawList[base + lt];
            block[lt + 256u] = drawList[base + lt + 256u];
            memoryBarrierShared();
            barrier();
            for (uint k = kFirst; k <= kLast; k <<= 1) {
                for (uint j = min(k >> 1, 256u); j > 0u; j >>= 1) {
                    uint i = pairStart(lt, j), l = i + j;
                    uvec2 a = block[i], b = block[l];
                    if ((a.x > b.x) == (((base + i) & k) == 0u)) {
                        block[i] = b;
                        block[l] = a;
                    }
                    memoryBarrierShared();
                    barrier();
                }
            }
            drawList[base + lt] = block[lt];
            drawList[base + lt + 256u] = block[lt + 256u];
            barrier();  // the block is reloaded for the next base
        }
    }
}

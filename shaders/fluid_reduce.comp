#version 450 core
// Dot products over uCount values, first stage: each work group's partial sums of a0 . b0 and (uPairs 2)
// a1 . b1 into partial[group] and partial[groups + group] (uPairs 0: a0's sum alone); fluid_reduce_finish.comp adds
// the groups'.
layout(local_size_x = 256) in;

layout(std430, binding = 0) readonly buffer A0 { float a0[]; };
layout(std430, binding = 1) readonly buffer B0 { float b0[]; };
layout(std430, binding = 2) readonly buffer A1 { float a1[]; };
layout(std430, binding = 3) readonly buffer B1 { float b1[]; };
layout(std430, binding = 4) writeonly buffer Partial { float partial[]; };
uniform uint uCount;
uniform int uPairs;

shared float sum0[256], sum1[256];

void main() {
    uint t = gl_LocalInvocationID.x, stride = gl_NumWorkGroups.x * 256u;
    float s0 = 0.0, s1 = 0.0;
    for (uint i = gl_GlobalInvocationID.x; i < uCount; i += stride) {
        s0 += uPairs == 0 ? a0[i] : a0[i] * b0[i];
        if (uPairs == 2) s1 += a1[i] * b1[i];
    }
    sum0[t] = s0;
    sum1[t] = s1;
    barrier();
    for (uint span = 128u; span > 0u; span >>= 1) {
        if (t < span) {
            sum0[t] += sum0[t + span];
            sum1[t] += sum1[t + span];
        }
        barrier();
    }
    if (t == 0u) {
        partial[gl_WorkGroupID.x] = sum0[0];
        partial[gl_NumWorkGroups.x + gl_WorkGroupID.x] = sum1[0];
    }
}

#version 450 core
// Dot products, last stage (one work group): the groups' partial sums (fluid_reduce.comp) added, then by uStage
//   0  result0, result1: the two sums, for the host to read;
//   1  conjugate gradients' start: rz = r . z, not done, no iteration;
//   2  alpha = rz / (d . q), or done where d . q <= 0;
//   3  an iteration ends: rr = r . r, done when sqrt(rr / cells) <= target, else beta = (r . z) / rz and rz = r . z.
layout(local_size_x = 64) in;
#include "fluid_scalars.glsl"

layout(std430, binding = 4) readonly buffer Partial { float partial[]; };
uniform uint uGroups;
uniform int uStage;

shared float sum0[64], sum1[64];

void main() {
    uint t = gl_LocalInvocationID.x;
    float s0 = 0.0, s1 = 0.0;
    for (uint g = t; g < uGroups; g += 64u) {
        s0 += partial[g];
        s1 += partial[uGroups + g];
    }
    sum0[t] = s0;
    sum1[t] = s1;
    barrier();
    for (uint span = 32u; span > 0u; span >>= 1) {
        if (t < span) {
            sum0[t] += sum0[t + span];
            sum1[t] += sum1[t + span];
        }
        barrier();
    }
    if (t != 0u) return;
    s0 = sum0[0];
    s1 = sum1[0];
    if (uStage == 0) {
        result0 = s0;
        result1 = s1;
    } else if (uStage == 1) {
        rz = s0;
        done = 0u;
        iterations = 0u;
    } else if (done != 0u) {
        return;
    } else if (uStage == 2) {
        if (s0 <= 0.0) done = 1u;
        else alpha = rz / s0;
    } else {
        iterations += 1u;
        result0 = s0;
        if (sqrt(s0 / cells) <= target) {
            done = 1u;
        } else {
            beta = s1 / rz;
            rz = s1;
        }
    }
}

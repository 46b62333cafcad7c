#version 450 core
// Conjugate gradients' vector updates (FluidSim::solvePcg), once the solve is done nothing:
//   uStage 0  z = r / A_cc and d = z (the start);
//   uStage 1  p += alpha d, r -= alpha q, z = r / A_cc;
//   uStage 2  d = z + beta d.
layout(local_size_x = 8, local_size_y = 4, local_size_z = 4) in;
#include "fluid_grid.glsl"
#include "fluid_scalars.glsl"

layout(std430, binding = 0) readonly buffer Diagonal { float diagonal[]; };
layout(std430, binding = 1) buffer Pressure { float p[]; };
layout(std430, binding = 2) buffer R { float r[]; };
layout(std430, binding = 3) buffer D { float d[]; };
layout(std430, binding = 4) readonly buffer Q { float q[]; };
layout(std430, binding = 5) buffer Z { float z[]; };
uniform int uStage;

void main() {
    ivec3 c = ivec3(gl_GlobalInvocationID);
    if (any(greaterThanEqual(c, uN)) || done != 0u) return;
    uint i = cellIndex(c);
    float a = diagonal[i];
    if (uStage == 0) {
        z[i] = a > 0.0 ? r[i] / a : 0.0;
        d[i] = z[i];
    } else if (uStage == 1) {
        p[i] += alpha * d[i];
        r[i] -= alpha * q[i];
        z[i] = a > 0.0 ? r[i] / a : 0.0;
    } else {
        d[i] = z[i] + beta * d[i];
    }
}

#version 450 core
// One Jacobi iteration of the pressure solve (FluidSim::solveJacobi): next_c = (b_c + the fluid neighbours' p) / A_cc.
layout(local_size_x = 8, local_size_y = 4, local_size_z = 4) in;
#include "fluid_grid.glsl"
#include "fluid_pressure.glsl"

layout(std430, binding = 0) readonly buffer Diagonal { float diagonal[]; };
layout(std430, binding = 1) readonly buffer Rhs { float rhs[]; };
layout(std430, binding = 2) readonly buffer Pressure { float p[]; };
layout(std430, binding = 3) writeonly buffer Next { float next[]; };

FLUID_NEIGHBOUR_SUM(neighbourSum, p)

void main() {
    ivec3 c = ivec3(gl_GlobalInvocationID);
    if (any(greaterThanEqual(c, uN))) return;
    uint i = cellIndex(c);
    float a = diagonal[i];
    next[i] = a > 0.0 ? (rhs[i] + neighbourSum(c)) / a : 0.0;
}

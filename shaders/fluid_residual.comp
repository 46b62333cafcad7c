#version 450 core
// The pressure solve's matrix product (FluidSim::applyMatrix): out = A x (uStage 0), or the residual
// out = b - A x (uStage 1), over the fluid cells (out = 0, or b, which is 0 there, in solid cells). The product
// is conjugate gradients' and does nothing once their solve is done.
layout(local_size_x = 8, local_size_y = 4, local_size_z = 4) in;
#include "fluid_grid.glsl"
#include "fluid_pressure.glsl"
#include "fluid_scalars.glsl"

layout(std430, binding = 0) readonly buffer Diagonal { float diagonal[]; };
layout(std430, binding = 1) readonly buffer Rhs { float rhs[]; };
layout(std430, binding = 2) readonly buffer X { float x[]; };
layout(std430, binding = 3) writeonly buffer Out { float outValue[]; };
uniform int uStage;

FLUID_NEIGHBOUR_SUM(neighbourSum, x)

void main() {
    ivec3 c = ivec3(gl_GlobalInvocationID);
    if (any(greaterThanEqual(c, uN)) || (uStage == 0 && done != 0u)) return;
    uint i = cellIndex(c);
    float a = diagonal[i];
    float ax = a > 0.0 ? a * x[i] - neighbourSum(c) : 0.0;
    outValue[i] = uStage == 0 ? ax : rhs[i] - ax;
}

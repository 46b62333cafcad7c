#version 450 core
// The grid fluid's divergence (FluidSim::divergence), 1/s, 0 in solid cells, and the pressure solve's right side
// b = -h^2 / dt div.
layout(local_size_x = 8, local_size_y = 4, local_size_z = 4) in;
#include "fluid_grid.glsl"

layout(std430, binding = 0) readonly buffer U { float u[]; };
layout(std430, binding = 1) readonly buffer V { float v[]; };
layout(std430, binding = 2) readonly buffer W { float w[]; };
layout(std430, binding = 3) readonly buffer Solid { uint solid[]; };
layout(std430, binding = 4) writeonly buffer Divergence { float divergence[]; };
layout(std430, binding = 5) writeonly buffer Rhs { float rhs[]; };
uniform float uH;
uniform float uScale;  // -h^2 / dt

void main() {
    ivec3 c = ivec3(gl_GlobalInvocationID);
    if (any(greaterThanEqual(c, uN))) return;
    uint i = cellIndex(c);
    float d = 0.0;
    if (solid[i] == 0u) {
        ivec3 nu = uN + ivec3(1, 0, 0), nv = uN + ivec3(0, 1, 0), nw = uN + ivec3(0, 0, 1);
        d = (u[indexIn(c + ivec3(1, 0, 0), nu)] - u[indexIn(c, nu)] + v[indexIn(c + ivec3(0, 1, 0), nv)] -
             v[indexIn(c, nv)] + w[indexIn(c + ivec3(0, 0, 1), nw)] - w[indexIn(c, nw)]) /
            uH;
    }
    divergence[i] = d;
    rhs[i] = uScale * d;
}

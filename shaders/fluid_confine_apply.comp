#version 450 core
// The grid fluid's vorticity confinement, applied (FluidSim::confineVorticity): each face between two cells
// gains dt times the mean of their forces (fluid_confine.comp).
layout(local_size_x = 8, local_size_y = 4, local_size_z = 4) in;
#include "fluid_grid.glsl"

layout(std430, binding = 0) readonly buffer ForceX { float forceX[]; };
layout(std430, binding = 1) readonly buffer ForceY { float forceY[]; };
layout(std430, binding = 2) readonly buffer ForceZ { float forceZ[]; };
layout(std430, binding = 3) buffer U { float u[]; };
layout(std430, binding = 4) buffer V { float v[]; };
layout(std430, binding = 5) buffer W { float w[]; };
uniform float uDt;

vec3 forceAt(ivec3 c) {
    uint i = cellIndex(c);
    return vec3(forceX[i], forceY[i], forceZ[i]);
}

void main() {
    ivec3 c = ivec3(gl_GlobalInvocationID);
    if (any(greaterThanEqual(c, uN))) return;
    vec3 f = forceAt(c);
    if (c.x > 0) u[indexIn(c, uN + ivec3(1, 0, 0))] += uDt * 0.5 * (forceAt(c - ivec3(1, 0, 0)).x + f.x);
    if (c.y > 0) v[indexIn(c, uN + ivec3(0, 1, 0))] += uDt * 0.5 * (forceAt(c - ivec3(0, 1, 0)).y + f.y);
    if (c.z > 0) w[indexIn(c, uN + ivec3(0, 0, 1))] += uDt * 0.5 * (forceAt(c - ivec3(0, 0, 1)).z + f.z);
}

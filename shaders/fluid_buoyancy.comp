#version 450 core
// The grid fluid's Boussinesq buoyancy (FluidSim::addBuoyancy) on the y faces between two fluid cells, from
// their mean temperature; the top face of the top cell from the cell's own (open air above).
layout(local_size_x = 8, local_size_y = 4, local_size_z = 4) in;
#include "fluid_grid.glsl"

layout(std430, binding = 0) readonly buffer Temperature { float temperature[]; };
layout(std430, binding = 1) readonly buffer Solid { uint solid[]; };
layout(std430, binding = 2) buffer V { float v[]; };
uniform float uK;  // dt * buoyancy * g / ambient
uniform float uAmbient;

void main() {
    ivec3 c = ivec3(gl_GlobalInvocationID);
    if (c.x >= uN.x || c.y > uN.y || c.z >= uN.z || c.y == 0) return;
    uint i = indexIn(c, uN + ivec3(0, 1, 0));
    uint below = cellIndex(c - ivec3(0, 1, 0));
    if (c.y == uN.y) {
        if (solid[below] == 0u) v[i] += uK * (temperature[below] - uAmbient);
        return;
    }
    uint above = cellIndex(c);
    if (solid[above] != 0u || solid[below] != 0u) return;
    v[i] += uK * (0.5 * (temperature[above] + temperature[below]) - uAmbient);
}

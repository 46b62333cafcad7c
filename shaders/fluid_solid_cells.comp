#version 450 core
// The grid fluid's solid cells (FluidSim::enforceSolids, the cells' half): ambient air, no fuel, soot or pressure.
layout(local_size_x = 8, local_size_y = 4, local_size_z = 4) in;
#include "fluid_grid.glsl"

layout(std430, binding = 0) readonly buffer Solid { uint solid[]; };
layout(std430, binding = 1) buffer Temperature { float temperature[]; };
layout(std430, binding = 2) buffer Fuel { float fuel[]; };
layout(std430, binding = 3) buffer Soot { float soot[]; };
layout(std430, binding = 4) buffer Pressure { float pressure[]; };
uniform float uAmbient;

void main() {
    ivec3 c = ivec3(gl_GlobalInvocationID);
    if (any(greaterThanEqual(c, uN))) return;
    uint i = cellIndex(c);
    if (solid[i] == 0u) return;
    temperature[i] = uAmbient;
    fuel[i] = 0.0;
    soot[i] = 0.0;
    pressure[i] = 0.0;
}

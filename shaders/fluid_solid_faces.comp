#version 450 core
// The grid fluid's walls (FluidSim::enforceSolids, the faces' half): no face of a solid cell carries flow, nor
// does the floor but where the source blows through it (uInflow, per floor face x + nx z).
layout(local_size_x = 8, local_size_y = 4, local_size_z = 4) in;
#include "fluid_grid.glsl"

layout(std430, binding = 0) readonly buffer Solid { uint solid[]; };
layout(std430, binding = 1) readonly buffer Inflow { uint inflow[]; };
layout(std430, binding = 2) buffer U { float u[]; };
layout(std430, binding = 3) buffer V { float v[]; };
layout(std430, binding = 4) buffer W { float w[]; };

bool solidAt(ivec3 c) { return all(greaterThanEqual(c, ivec3(0))) && all(lessThan(c, uN)) && solid[cellIndex(c)] != 0u; }

void main() {  // one invocation per (i, j, k) up to uN: the u, v and w faces there
    ivec3 c = ivec3(gl_GlobalInvocationID);
    if (any(greaterThan(c, uN))) return;
    if (c.y < uN.y && c.z < uN.z && (solidAt(c - ivec3(1, 0, 0)) || solidAt(c))) u[indexIn(c, uN + ivec3(1, 0, 0))] = 0.0;
    if (c.x < uN.x && c.z < uN.z) {
        bool floorWall = c.y == 0 && inflow[uint(c.x + uN.x * c.z)] == 0u;
        if (floorWall || solidAt(c - ivec3(0, 1, 0)) || solidAt(c)) v[indexIn(c, uN + ivec3(0, 1, 0))] = 0.0;
    }
    if (c.x < uN.x && c.y < uN.y && (solidAt(c - ivec3(0, 0, 1)) || solidAt(c))) w[indexIn(c, uN + ivec3(0, 0, 1))] = 0.0;
}

#version 450 core
// The projection's last step (FluidSim::subtractGradient): each face between open cells loses dt / h times the
// pressure difference across it (p = 0 in the open air beyond the sides and the top; the floor and solid cells
// are walls). One invocation per (i, j, k) up to uN: the u, v and w faces there.
layout(local_size_x = 8, local_size_y = 4, local_size_z = 4) in;
#include "fluid_grid.glsl"

layout(std430, binding = 0) readonly buffer Pressure { float p[]; };
layout(std430, binding = 1) readonly buffer Solid { uint solid[]; };
layout(std430, binding = 2) buffer U { float u[]; };
layout(std430, binding = 3) buffer V { float v[]; };
layout(std430, binding = 4) buffer W { float w[]; };
uniform float uK;  // dt / h

bool inside(ivec3 c) { return all(greaterThanEqual(c, ivec3(0))) && all(lessThan(c, uN)); }
float pAt(ivec3 c) { return inside(c) ? p[cellIndex(c)] : 0.0; }
bool wall(ivec3 c) { return c.y < 0 || (inside(c) && solid[cellIndex(c)] != 0u); }

void main() {
    ivec3 c = ivec3(gl_GlobalInvocationID);
    if (any(greaterThan(c, uN))) return;
    const ivec3 axes[3] = ivec3[3](ivec3(1, 0, 0), ivec3(0, 1, 0), ivec3(0, 0, 1));
    for (int a = 0; a < 3; ++a) {
        ivec3 size = uN + axes[a];
        if (any(greaterThanEqual(c, size))) continue;
        ivec3 before = c - axes[a];
        if (wall(before) || wall(c)) continue;
        float change = uK * (pAt(c) - pAt(before));
        uint i = indexIn(c, size);
        if (a == 0) u[i] -= change;
        else if (a == 1) v[i] -= change;
        else w[i] -= change;
    }
}

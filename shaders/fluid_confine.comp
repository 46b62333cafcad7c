#version 450 core
// The grid fluid's vorticity confinement force (FluidSim::confineVorticity) at each cell centre:
// epsilon h (N x omega), N the unit gradient of |omega| (none where it is flat); fluid_confine_apply.comp adds it.
layout(local_size_x = 8, local_size_y = 4, local_size_z = 4) in;
#include "fluid_grid.glsl"

layout(std430, binding = 0) readonly buffer CurlX { float curlX[]; };
layout(std430, binding = 1) readonly buffer CurlY { float curlY[]; };
layout(std430, binding = 2) readonly buffer CurlZ { float curlZ[]; };
layout(std430, binding = 3) writeonly buffer ForceX { float forceX[]; };
layout(std430, binding = 4) writeonly buffer ForceY { float forceY[]; };
layout(std430, binding = 5) writeonly buffer ForceZ { float forceZ[]; };
uniform float uEpsilonH;  // epsilon * h

vec3 curlAt(uint i) { return vec3(curlX[i], curlY[i], curlZ[i]); }
float magnitude(ivec3 c) { return length(curlAt(cellIndex(clamp(c, ivec3(0), uN - 1)))); }

void main() {
    ivec3 c = ivec3(gl_GlobalInvocationID);
    if (any(greaterThanEqual(c, uN))) return;
    uint i = cellIndex(c);
    vec3 grad = vec3(magnitude(c + ivec3(1, 0, 0)) - magnitude(c - ivec3(1, 0, 0)),
                     magnitude(c + ivec3(0, 1, 0)) - magnitude(c - ivec3(0, 1, 0)),
                     magnitude(c + ivec3(0, 0, 1)) - magnitude(c - ivec3(0, 0, 1)));
    float len = length(grad);
    vec3 f = len < 1e-12 ? vec3(0.0) : uEpsilonH * cross(grad / len, curlAt(i));
    forceX[i] = f.x;
    forceY[i] = f.y;
    forceZ[i] = f.z;
}

#version 450 core
// The grid fluid's vorticity (FluidSim::vorticity): the curl of the cell-centre velocity by central differences,
// one-sided at the grid's ends, 1/s, one component a buffer.
layout(local_size_x = 8, local_size_y = 4, local_size_z = 4) in;
#include "fluid_grid.glsl"

layout(std430, binding = 0) readonly buffer U { float u[]; };
layout(std430, binding = 1) readonly buffer V { float v[]; };
layout(std430, binding = 2) readonly buffer W { float w[]; };
layout(std430, binding = 3) writeonly buffer CurlX { float curlX[]; };
layout(std430, binding = 4) writeonly buffer CurlY { float curlY[]; };
layout(std430, binding = 5) writeonly buffer CurlZ { float curlZ[]; };
uniform float uH;

vec3 centre(ivec3 c) {
    return 0.5 * vec3(u[indexIn(c, uN + ivec3(1, 0, 0))] + u[indexIn(c + ivec3(1, 0, 0), uN + ivec3(1, 0, 0))],
                      v[indexIn(c, uN + ivec3(0, 1, 0))] + v[indexIn(c + ivec3(0, 1, 0), uN + ivec3(0, 1, 0))],
                      w[indexIn(c, uN + ivec3(0, 0, 1))] + w[indexIn(c + ivec3(0, 0, 1), uN + ivec3(0, 0, 1))]);
}
vec3 derivative(ivec3 c, int axis) {  // d(centre velocity) / d(axis), per metre
    ivec3 a = c, b = c;
    a[axis] = max(a[axis] - 1, 0);
    b[axis] = min(b[axis] + 1, uN[axis] - 1);
    float span = float(b[axis] - a[axis]) * uH;
    return span > 0.0 ? (centre(b) - centre(a)) / span : vec3(0.0);
}

void main() {
    ivec3 c = ivec3(gl_GlobalInvocationID);
    if (any(greaterThanEqual(c, uN))) return;
    vec3 dx = derivative(c, 0), dy = derivative(c, 1), dz = derivative(c, 2);
    uint i = cellIndex(c);
    curlX[i] = dy.z - dz.y;
    curlY[i] = dz.x - dx.z;
    curlZ[i] = dx.y - dy.x;
}

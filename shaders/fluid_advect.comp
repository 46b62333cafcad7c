#version 450 core
// The grid fluid's advection of one field (FluidSim::advectField), in three stages (uStage):
//   0  semi-Lagrangian: each sample takes the field's value at its RK2 back-traced point (dst);
//   1  MacCormack's forward trace: dst sampled where each sample goes (back);
//   2  MacCormack's correction, dst + (src - back) / 2, clamped to the src values the back-trace interpolated.
// Beyond the open ends (the sides and the top) the air is uOutside. The velocity read is the step's old one.
layout(local_size_x = 8, local_size_y = 4, local_size_z = 4) in;
#include "fluid_grid.glsl"

layout(std430, binding = 0) readonly buffer U { float u[]; };
layout(std430, binding = 1) readonly buffer V { float v[]; };
layout(std430, binding = 2) readonly buffer W { float w[]; };
layout(std430, binding = 3) readonly buffer Src { float src[]; };
layout(std430, binding = 4) buffer Dst { float dst[]; };
layout(std430, binding = 5) buffer Back { float back[]; };
uniform ivec3 uSize;    // this field's samples
uniform vec3 uOffset;   // where its sample (0,0,0) sits, cells
uniform float uDtCells; // the step in cells per (m/s): dt / h
uniform float uOutside;
uniform int uStage;

FLUID_SAMPLER(sampleU, u)
FLUID_SAMPLER(sampleV, v)
FLUID_SAMPLER(sampleW, w)
FLUID_SAMPLER(sampleSrc, src)
FLUID_SAMPLER(sampleDst, dst)
FLUID_RANGE(rangeSrc, src)

vec3 velocity(vec3 g) {
    return vec3(sampleU(g, uN + ivec3(1, 0, 0), kFaceX), sampleV(g, uN + ivec3(0, 1, 0), kFaceY),
                sampleW(g, uN + ivec3(0, 0, 1), kFaceZ));
}
vec3 backTrace(vec3 g) { return g - uDtCells * velocity(g - 0.5 * uDtCells * velocity(g)); }
bool beyondOpenEnds(vec3 g) {
    vec3 top = vec3(uN);
    return g.x < 0.0 || g.x > top.x || g.z < 0.0 || g.z > top.z || g.y > top.y;
}

void main() {
    ivec3 c = ivec3(gl_GlobalInvocationID);
    if (any(greaterThanEqual(c, uSize))) return;
    uint i = indexIn(c, uSize);
    vec3 g = vec3(c) + uOffset;
    if (uStage == 0) {
        vec3 from = backTrace(g);
        dst[i] = beyondOpenEnds(from) ? uOutside : sampleSrc(from, uSize, uOffset);
    } else if (uStage == 1) {
        vec3 ahead = g + uDtCells * velocity(g + 0.5 * uDtCells * velocity(g));
        back[i] = beyondOpenEnds(ahead) ? uOutside : sampleDst(ahead, uSize, uOffset);
    } else {
        vec3 from = backTrace(g);
        if (beyondOpenEnds(from)) return;
        vec2 range = rangeSrc(from, uSize, uOffset);
        dst[i] = clamp(dst[i] + 0.5 * (src[i] - back[i]), range.x, range.y);
    }
}

#version 450 core
// One instance per particle; the four corners of a triangle strip come from gl_VertexID.
#include "particle_common.glsl"
layout(location = 0) in vec4 aPosSize;
layout(location = 1) in vec4 aVelAge;
out vec2 vUv;
flat out vec4 vColor;
void main() {
    vec2 c = vec2(float(gl_VertexID & 1), float(gl_VertexID >> 1)) * 2.0 - 1.0;
    gl_Position = uViewProj * vec4(billboardCorner(aPosSize.xyz, aPosSize.w, aVelAge.xyz, c), 1.0);
    vUv = spriteUv(c * 0.5 + 0.5, flipbookCell(aVelAge.w));
    vColor = particleColor(aVelAge.w);
}

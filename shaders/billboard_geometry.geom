#version 450 core
// Each particle point becomes a camera-facing quad (a 4-vertex triangle strip); its colour and
// flipbook frame are computed once per quad.
#include "particle_common.glsl"
layout(points) in;
layout(triangle_strip, max_vertices = 4) out;
in vec4 gPosSize[];
in vec4 gVelAge[];
out vec2 vUv;
flat out vec4 vColor;
void main() {
    float t = gVelAge[0].w;
    vec4 color = particleColor(t);
    vec2 cell = flipbookCell(t);
    for (int i = 0; i < 4; ++i) {
        vec2 c = vec2(float(i & 1), float(i >> 1)) * 2.0 - 1.0;
        gl_Position = uViewProj * vec4(billboardCorner(gPosSize[0].xyz, gPosSize[0].w, gVelAge[0].xyz, c), 1.0);
        vUv = spriteUv(c * 0.5 + 0.5, cell);
        vColor = color;
        EmitVertex();
    }
    EndPrimitive();
}

#version 450 core
// Each particle point becomes a camera-facing sprite polygon (the quad, or the trimmed hull: a triangle
// strip of uHullVertices, at most kHullMaxVertices).
#include "particle_common.glsl"
#include "sprite_hull.glsl"
layout(points) in;
layout(triangle_strip, max_vertices = kHullMaxVertices) out;
in vec4 gPosSize[];
in vec4 gVelAge[];
out vec2 vUv;
out float vAge;
void main() {
    int slot = hullSlot(gPosSize[0].xyz, gPosSize[0].w);
    for (int i = 0; i < uHullVertices; ++i) {
        vec2 uv = hullUv(i, gVelAge[0].w, slot);
        gl_Position = uViewProj * vec4(billboardCorner(gPosSize[0].xyz, gPosSize[0].w, gVelAge[0].xyz, uv * 2.0 - 1.0), 1.0);
        vUv = uv;
        vAge = gVelAge[0].w;
        EmitVertex();
    }
    EndPrimitive();
}

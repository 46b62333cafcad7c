#version 450 core
// Each particle point becomes a camera-facing sprite polygon (the quad, or the trimmed hull: a triangle
// strip of uHullVertices, at most kHullMaxVertices); its colour and flipbook frame are computed once per
// particle.
#include "particle_common.glsl"
#include "sprite_hull.glsl"
#define PARTICLE_EMITS
#include "particle_light.glsl"
layout(points) in;
layout(triangle_strip, max_vertices = kHullMaxVertices) out;
in vec4 gPosSize[];
in vec4 gVelAge[];
in vec4 gLook[];  // tint, angle (render::Look)
out vec2 vUv;
flat out vec4 vColor;
flat out vec4 vNext;  // flipbookNext()
void main() {
    float fade = cameraFade(gPosSize[0].xyz);
    if (fade <= 0.0) return;  // faded out by --camera-fade: nothing emitted
    float t = gVelAge[0].w;
    vec4 color = tinted(particleColor(t, colorCoordinate(t, gPosSize[0].xyz)), gLook[0].rgb) * vec4(1.0, 1.0, 1.0, fade);
    vec2 cell = flipbookCell(t);
    vec4 next = flipbookNext(t);
    int slot = hullSlot(gPosSize[0].xyz, gPosSize[0].w);
    for (int i = 0; i < uHullVertices; ++i) {
        vec2 uv = hullUv(i, t, slot);
        vec3 side;
        vec3 corner = billboardCorner(gPosSize[0].xyz, gPosSize[0].w, gVelAge[0].xyz, uv * 2.0 - 1.0, gLook[0].w, side);
        gl_Position = uViewProj * vec4(corner, 1.0);
        litVertex(corner, side, billboardBack(gPosSize[0].xyz));
        vUv = spriteUv(uv, cell);
        vColor = color;
        vNext = next;
        EmitVertex();
    }
    EndPrimitive();
}

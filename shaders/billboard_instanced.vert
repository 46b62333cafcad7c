#version 450 core
// One instance per particle; the sprite polygon's triangle strip (the quad's four corners, or the trimmed
// hull's) comes from gl_VertexID.
#include "particle_common.glsl"
#include "sprite_hull.glsl"
#define PARTICLE_EMITS
#include "particle_light.glsl"
layout(location = 0) in vec4 aPosSize;
layout(location = 1) in vec4 aVelAge;
layout(location = 2) in vec4 aLook;  // tint, angle (render::Look)
out vec2 vUv;
flat out vec4 vColor;
flat out vec4 vNext;  // flipbookNext()
void main() {
    float t = aVelAge.w;
    vec2 uv = hullUv(gl_VertexID, t, hullSlot(aPosSize.xyz, aPosSize.w));
    float fade = cameraFade(aPosSize.xyz);
    vec3 side;
    vec3 corner = billboardCorner(aPosSize.xyz, aPosSize.w, aVelAge.xyz, uv * 2.0 - 1.0, aLook.w, side);
    gl_Position = fade > 0.0 ? uViewProj * vec4(corner, 1.0) : kCulledPosition;
    litVertex(corner, side, billboardBack(aPosSize.xyz));
    vUv = spriteUv(uv, flipbookCell(t));
    vNext = flipbookNext(t);
    vColor = tinted(particleColor(t, colorCoordinate(t, aPosSize.xyz)), aLook.rgb) * vec4(1.0, 1.0, 1.0, fade);
}

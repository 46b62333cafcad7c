#version 450 core
// --draw-as haze: one view-plane quad per particle (instanced, 4 corners from gl_VertexID), carrying its heat
// (1 - age / life) and a seed for its noise.
#include "particle_common.glsl"
layout(location = 0) in vec4 aPosSize;
layout(location = 1) in vec4 aVelAge;
out vec2 vCorner;       // -1 .. 1 across the quad
flat out float vHeat;   // 1 at birth, 0 at death
flat out float vPhase;  // the noise's drift: the particle's age and its position
void main() {
    vec2 c = vec2(gl_VertexID & 1, gl_VertexID >> 1) * 2.0 - 1.0;
    vec3 side;
    vec3 corner = billboardCorner(aPosSize.xyz, aPosSize.w, aVelAge.xyz, c, 0.0, side);
    float fade = cameraFade(aPosSize.xyz);
    gl_Position = fade > 0.0 ? uViewProj * vec4(corner, 1.0) : kCulledPosition;
    vCorner = c;
    vHeat = (1.0 - aVelAge.w) * fade;
    vPhase = aVelAge.w * 3.0 + dot(aPosSize.xyz, vec3(1.7, 2.3, 3.1));
}

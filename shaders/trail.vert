#version 450 core
// --draw-as trail: a ribbon's vertices, built on the CPU (render/particles/trail_ribbon.h) in world space.
#include "particle_common.glsl"
layout(location = 0) in vec3 aPos;
layout(location = 1) in float aAlong;   // 0 at the head .. 1 at the tail
layout(location = 2) in vec4 aColor;    // the particle's colour, its alpha faded towards the tail
layout(location = 3) in float aAcross;  // -1 .. 1 across the ribbon
out vec4 vColor;
out float vAcross;
void main() {
    gl_Position = uViewProj * vec4(aPos, 1.0);
    vColor = aColor;
    vAcross = aAcross;
}

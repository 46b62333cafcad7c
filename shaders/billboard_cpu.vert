#version 450 core
// Corners already expanded on the CPU: pass through, with the particle's colour and sprite frame. Camera
// fade reads the corner's view depth, the centre's for view-plane sprites (the CPU left out the particles
// faded wholly).
#include "particle_common.glsl"
layout(location = 0) in vec3 aPos;
layout(location = 1) in vec2 aUv;
layout(location = 2) in float aAge;
layout(location = 3) in vec4 aLook;  // tint (render::Look; the CPU turned the corners)
out vec2 vUv;
flat out vec4 vColor;
void main() {
    gl_Position = uViewProj * vec4(aPos, 1.0);
    vUv = spriteUv(aUv, flipbookCell(aAge));
    vColor = tinted(particleColor(aAge), aLook.rgb) * vec4(1.0, 1.0, 1.0, cameraFade(aPos));
}

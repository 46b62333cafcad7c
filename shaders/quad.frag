#version 450 core
// Textured particle quads (every billboard strategy): one sprite fetch times the particle's colour.
#include "particle_common.glsl"
#include "soft_particles.glsl"
in vec2 vUv;          // in the sprite (the flipbook frame's cell)
flat in vec4 vColor;  // the particle's colour, from its vertices
out vec4 fragColor;
void main() {
    if (countShaded(fragColor)) return;
    vec4 c = vColor * texture(uSprite, vUv);
    if (c.a < 1.0 / 512.0) discard;
    c.a *= softFade();
    fragColor = blendOutput(c);
}

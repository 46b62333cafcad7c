#version 450 core
// Textured particle quads (every billboard strategy): the sprite (two frames blended with --flipbook-blend
// linear) times the particle's colour.
#include "particle_common.glsl"
#include "soft_particles.glsl"
#include "particle_light.glsl"
#include "particle_output.glsl"
in vec2 vUv;          // in the sprite (the flipbook frame's cell)
flat in vec4 vColor;  // the particle's colour, from its vertices
flat in vec4 vNext;   // the next flipbook frame's cell step and weight (flipbookNext())
void main() {
    if (countShaded(fragColor)) return;
    vec4 c = vColor * spriteTexel(vUv, vNext);
    if (c.a < 1.0 / 512.0) discard;
    c.rgb *= particleLight();
    c.a *= softFade();
    emitParticle(c);
}

#version 450 core
// --draw-as trail: the ribbon's colour, soft across its width (1 - x^2 from its spine to its edges), faded
// where it meets the scene with --soft.
#include "particle_common.glsl"
#include "soft_particles.glsl"
#include "particle_output.glsl"
in vec4 vColor;
in float vAcross;
void main() {
    if (countShaded(fragColor)) return;
    vec4 c = vColor;
    c.a *= (1.0 - vAcross * vAcross) * softFade();
    if (c.a < 1.0 / 512.0) discard;
    emitParticle(c);
}

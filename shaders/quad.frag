#version 450 core
// Textured particle quads (every billboard strategy).
#include "particle_common.glsl"
#include "soft_particles.glsl"
in vec2 vUv;
in float vAge;
out vec4 fragColor;
void main() {
    if (countShaded(fragColor)) return;
    vec4 c = shadeParticle(vUv, vAge);
    if (c.a < 1.0 / 512.0) discard;
    c.a *= softFade();
    fragColor = blendOutput(c);
}

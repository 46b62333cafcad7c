#version 450 core
// The paper's point-light particle: no texture, a soft round falloff computed here (lit with --lit, as a
// sphere seen from the front).
#include "particle_common.glsl"
#include "soft_particles.glsl"
#include "particle_light.glsl"
#include "particle_output.glsl"
flat in vec4 vColor;
void main() {
    if (countShaded(fragColor)) return;
    vec2 d = gl_PointCoord * 2.0 - 1.0;
    float r2 = dot(d, d);
    if (r2 >= 1.0) discard;
    float falloff = (1.0 - r2) * (1.0 - r2);  // smooth, zero at the rim
    emitParticle(vec4(vColor.rgb * pointLight(), vColor.a * falloff * softFade()));
}

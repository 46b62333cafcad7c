#version 450 core
// Point sprites: the flame texture through gl_PointCoord (origin top-left, so v is flipped), turned by the
// particle's angle inside the point's square (whose corners cut off a turned sprite's).
#include "particle_common.glsl"
#include "soft_particles.glsl"
#include "particle_light.glsl"
#include "particle_output.glsl"
flat in vec4 vColor;
flat in vec2 vCell;  // the flipbook frame's cell
flat in vec4 vNext;  // the next frame's cell step and weight (flipbookNext())
flat in float vAngle;
void main() {
    if (countShaded(fragColor)) return;
    vec2 uv = vec2(gl_PointCoord.x, 1.0 - gl_PointCoord.y);
    if (vAngle != 0.0) {  // the texel the turned sprite shows here: the offset turned back
        float co = cos(vAngle), si = sin(vAngle);
        uv = 0.5 + mat2(co, -si, si, co) * (uv - 0.5);
        if (any(lessThan(uv, vec2(0.0))) || any(greaterThan(uv, vec2(1.0)))) discard;
    }
    vec4 c = vColor * spriteTexel(spriteUv(uv, vCell), vNext);
    if (c.a < 1.0 / 512.0) discard;
    c.rgb *= pointLight();
    c.a *= softFade();
    emitParticle(c);
}

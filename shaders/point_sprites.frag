#version 450 core
// Point sprites: the flame texture through gl_PointCoord (origin top-left, so v is flipped).
#include "particle_common.glsl"
#include "soft_particles.glsl"
flat in vec4 vColor;
flat in vec2 vCell;  // the flipbook frame's cell
out vec4 fragColor;
void main() {
    if (countShaded(fragColor)) return;
    vec4 c = vColor * texture(uSprite, spriteUv(vec2(gl_PointCoord.x, 1.0 - gl_PointCoord.y), vCell));
    if (c.a < 1.0 / 512.0) discard;
    c.a *= softFade();
    fragColor = blendOutput(c);
}

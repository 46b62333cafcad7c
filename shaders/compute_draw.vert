#version 450 core
// compute: vertex pulling, no vertex attributes. Instance n draws the particle in slot drawList[n].y;
// the sprite polygon's triangle strip (the quad's four corners, or the trimmed hull's) comes from gl_VertexID.
#include "particle_common.glsl"
#include "sprite_hull.glsl"
#include "fire_model.glsl"
#include "particle_look.glsl"
#define PARTICLE_EMITS
#include "particle_light.glsl"
layout(std430, binding = 0) readonly buffer Particles { Particle particles[]; };
layout(std430, binding = 3) readonly buffer DrawList { uvec2 drawList[]; };
out vec2 vUv;
flat out vec4 vColor;
flat out vec4 vNext;  // flipbookNext()
void main() {
    Particle q = particles[drawList[gl_InstanceID].y];
    float t = q.posAge.w / q.velLife.w;
    float size = spriteSize(q.posAge.xyz, sizeAt(t, q.accelScale.w));
    vec2 uv = hullUv(gl_VertexID, t, hullSlot(q.posAge.xyz, size));
    float fade = cameraFade(q.posAge.xyz);
    float angle = spriteAngle(q.look.x, q.posAge.w);
    vec3 side;
    vec3 corner = billboardCorner(q.posAge.xyz, size, q.velLife.xyz, uv * 2.0 - 1.0, angle, side);
    gl_Position = fade > 0.0 ? uViewProj * vec4(corner, 1.0) : kCulledPosition;
    litVertex(corner, side, billboardBack(q.posAge.xyz));
    vUv = spriteUv(uv, flipbookCell(t));
    vNext = flipbookNext(t);
    float at = colorCoordinate(t, q.posAge.xyz);
    vColor = tinted(particleColor(t, at), lookTint(q.look.x, at, q.look.y)) * vec4(1.0, 1.0, 1.0, fade);
}

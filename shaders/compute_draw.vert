#version 450 core
// compute: vertex pulling, no vertex attributes. Instance n draws the particle in slot drawList[n].y;
// the four corners of a triangle strip come from gl_VertexID.
#include "particle_common.glsl"
#include "fire_model.glsl"
layout(std430, binding = 0) readonly buffer Particles { Particle particles[]; };
layout(std430, binding = 3) readonly buffer DrawList { uvec2 drawList[]; };
out vec2 vUv;
flat out vec4 vColor;
void main() {
    Particle q = particles[drawList[gl_InstanceID].y];
    float t = q.posAge.w / q.velLife.w;
    vec2 c = vec2(float(gl_VertexID & 1), float(gl_VertexID >> 1)) * 2.0 - 1.0;
    gl_Position = uViewProj * vec4(billboardCorner(q.posAge.xyz, sizeAt(t, q.accelScale.w), q.velLife.xyz, c), 1.0);
    vUv = spriteUv(c * 0.5 + 0.5, flipbookCell(t));
    vColor = particleColor(t);
}

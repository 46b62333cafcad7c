#version 450 core
// --draw-as haze: the particle's screen-space offset (pixels), summed over the haze particles by additive
// blending into the frame's offset target (RG16F), which the refraction pass (refract.frag) reads. The offset is
// a smooth noise's gradient-free vector (two value-noise octaves), times the strength (radians of view at the
// centre, turned into pixels by the projection), the particle's heat and a falloff to zero at its edge.
#include "particle_common.glsl"
#include "soft_particles.glsl"
uniform float uHazeStrength;  // RenderOptions::hazeStrength
in vec2 vCorner;
flat in float vHeat;
flat in float vPhase;
layout(location = 0) out vec4 fragOffset;

float hash(vec2 p) { return fract(sin(dot(p, vec2(127.1, 311.7))) * 43758.5453); }
float valueNoise(vec2 p) {
    vec2 i = floor(p), f = fract(p);
    vec2 u = f * f * (3.0 - 2.0 * f);
    return mix(mix(hash(i), hash(i + vec2(1, 0)), u.x), mix(hash(i + vec2(0, 1)), hash(i + vec2(1, 1)), u.x), u.y);
}
vec2 noise2(vec2 p) {
    return vec2(valueNoise(p) + 0.5 * valueNoise(2.0 * p + 5.2), valueNoise(p + 9.7) + 0.5 * valueNoise(2.0 * p + 1.3))
        / 1.5 * 2.0 - 1.0;
}
void main() {
    float r2 = dot(vCorner, vCorner);
    if (r2 >= 1.0) discard;
    float falloff = (1.0 - r2) * (1.0 - r2);
    // The view angle becomes pixels at the particle: uProjScale is pixels per unit of view-plane size at depth 1.
    vec2 n = noise2(vCorner * 1.5 + vec2(vPhase, -vPhase * 1.3));
    vec2 offset = uHazeStrength * uProjScale * vHeat * falloff * softFade() * n;
    if (offset == vec2(0.0)) discard;
    fragOffset = vec4(offset, 0.0, 0.0);
}

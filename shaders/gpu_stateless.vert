#version 450 core
// gpu-stateless: every particle computed from the time alone (NVIDIA's closed form). Slot i is born
// first at aSlot.x and, if aSlot.z is 1, reborn every aSlot.w seconds (its period: its lifetime aSlot.y,
// or longer with --rate, which leaves a gap between lives); life k draws its birth state from the stream
// keyed by (seed, i, k), and the motion is integrated in closed form.
#include "particle_common.glsl"
#include "sprite_hull.glsl"
#include "fire_model.glsl"
#include "particle_look.glsl"
layout(location = 0) in vec4 aSlot;  // first birth (s), lifetime (s), 1 = respawns, period (s)
uniform float uTime;
uniform float uWaveRate[4];  // each wave's phase speed (rad/s), to evaluate the field in the past
out vec2 vUv;
flat out vec4 vColor;

// Integrals of the drag kernel over [0, tau]: g1 = (1 - e^{-d tau})/d, g2 = (tau - g1)/d, with
// their series where d tau is small (the exact forms cancel catastrophically there).
vec2 dragIntegrals(float tau) {
    float x = uDrag * tau;
    if (x < 0.02) return vec2(tau * (1.0 - x * (0.5 - x / 6.0)), tau * tau * (0.5 - x * (1.0 / 6.0 - x / 24.0)));
    float g1 = (1.0 - exp(-x)) / uDrag;
    return vec2(g1, (tau - g1) / uDrag);
}

const int kTurbulenceSamples = 4;

void main() {
    float since = uTime - aSlot.x;
    float life = aSlot.y;
    float k = floor(since / aSlot.w);
    float tau = since - k * aSlot.w;
    // Not born yet, a burst particle gone, or between two lives (only a period longer than the life has a gap).
    if (since < 0.0 || (aSlot.z == 0.0 ? since >= life : aSlot.w > life && tau >= life)) {
        gl_Position = vec4(0.0, 0.0, 2.0, 1.0);  // outside the clip volume: culled
        vUv = vec2(0.0);
        vColor = vec4(0.0);
        return;
    }
    tau = clamp(tau, 0.0, life);
    uint rng = rngInit(uint(gl_InstanceID), uint(k));
    Birth b = sampleBirth(rng, aSlot.x + k * aSlot.w);

    // dv/dt = a - d v exactly: p = p0 + v0 g1 + a g2, v = v0 e^{-d tau} + a g1.
    vec2 g = dragIntegrals(tau);
    float decay = exp(-uDrag * tau);
    vec3 p = b.pos + b.vel * g.x + b.accel * g.y;
    vec3 v = b.vel * decay + b.accel * g.x;

    // Turbulence has no closed form: a midpoint quadrature of its response over the particle's life,
    // each sample the field at the time it acted, at the turbulence-free position of that time.
    vec4 rate = vec4(uWaveRate[0], uWaveRate[1], uWaveRate[2], uWaveRate[3]);
    float h = tau / float(kTurbulenceSamples);
    for (int j = 0; j < kTurbulenceSamples; ++j) {
        float s = (float(j) + 0.5) * h;
        vec2 gs = dragIntegrals(s);
        vec3 f = turbulenceAt(b.pos + b.vel * gs.x + b.accel * gs.y, -rate * (tau - s)) * h;
        p += f * dragIntegrals(tau - s).x;
        v += f * exp(-uDrag * (tau - s));
    }

    float t = tau / life;
    float size = sizeAt(t, b.scale);
    vec2 uv = hullUv(gl_VertexID, t, hullSlot(p, size));  // the sprite polygon's strip
    gl_Position = uViewProj * vec4(billboardCorner(p, size, v, uv * 2.0 - 1.0, spriteAngle(b.rnd, tau)), 1.0);
    vUv = spriteUv(uv, flipbookCell(t));
    vColor = tinted(particleColor(t), tintOf(b.rnd));
}

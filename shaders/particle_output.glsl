// Where a particle fragment's colour goes: blended into the target in draw order, or into an
// order-independent structure (--sort wboit | moment | abuffer, render/frame/order_independent.h), by the stage
// ParticleMaterial compiles in. Included by the particle fragment shaders after particle_common.glsl and
// soft_particles.glsl (for viewDistance); they write through emitParticle(), and countShaded(fragColor).
#ifndef OIT_STAGE
#define OIT_STAGE 0  // OitStage: 0 none, 1 wboit accumulate, 2 abuffer insert, 3 abuffer shade (additive layers),
                     // 4 moment accumulate, 5 moment shade
#endif
#if OIT_STAGE == 2
layout(early_fragment_tests) in;  // what the scene hides never enters a list
#endif
layout(location = 0) out vec4 fragColor;
#if OIT_STAGE == 1 || OIT_STAGE == 4
layout(location = 1) out vec4 fragReveal;  // wboit: the revealage's factor; moment: the absorbance b0
#endif
#if OIT_STAGE == 2 || OIT_STAGE == 3
#include "abuffer.glsl"
#endif
#if OIT_STAGE == 4 || OIT_STAGE == 5
#include "moment_oit.glsl"
#endif

// The fragment as the over operator takes it: dst = C + (1 - A) dst, C the colour times its coverage; A the
// coverage for alpha and premultiplied blending, 0 for additive (light that hides nothing).
vec4 premultipliedOver(vec4 c) {
    float a = min(c.a * uAlphaScale, 1.0);
    return vec4(c.rgb * a, BLEND == 0 ? 0.0 : a);
}

// McGuire & Bavoil's depth weight (JCGT 2013, eq. 7) for a fragment of coverage a at view distance z (m).
float wboitWeight(float a, float z) {
    return a * clamp(10.0 / (1e-5 + pow(z / 5.0, 2.0) + pow(z / 200.0, 6.0)), 1e-2, 3e3);
}

// The transmittance of this pixel's list in front of view distance z.
#if OIT_STAGE == 3
float abufferTransmittanceAt(float z) {
    float t = 1.0;
    for (uint n = imageLoad(uAbufferHeads, ivec2(gl_FragCoord.xy)).r; n != kEndOfList;) {
        uvec4 node = abufferLoad(n);
        if (abufferDistance(node) < z) t *= 1.0 - abufferColor(node).a;
        n = node.w;
    }
    return t;
}
#endif

// Writes the fragment's straight colour c (its alpha the coverage).
void emitParticle(vec4 c) {
#if OIT_STAGE == 0
    fragColor = blendOutput(c);
#else
    if (DRAW_MODE != 0) {
        fragColor = vec4(1.0);
        return;
    }
    vec4 p = premultipliedOver(c);
    float z = viewDistance(gl_FragCoord.z);
#if OIT_STAGE == 1
    float w = wboitWeight(p.a, z);
    fragColor = vec4(p.rgb * w, p.a * w);
    fragReveal = vec4(p.a);
#elif OIT_STAGE == 2
    uint n = atomicAdd(abufferCount, 1u);
    if (n >= abufferCapacity) {
        atomicAdd(abufferOverflow, 1u);
        return;
    }
    uint next = imageAtomicExchange(uAbufferHeads, ivec2(gl_FragCoord.xy), n);
    abufferStore(n, abufferNode(p, z, next));
#elif OIT_STAGE == 3
    fragColor = vec4(p.rgb * abufferTransmittanceAt(z), 0.0);
#elif OIT_STAGE == 4
    float b0;
    vec4 b;
    momentsOf(p.a, z, b0, b);
    fragColor = b;
    fragReveal = vec4(b0);
#elif OIT_STAGE == 5
    fragColor = p * momentTransmittanceAt(z);
#endif
#endif
}

#version 450 core
// volume-reference: per pixel, the emission-absorption integral along its view ray through every kernel
// of its tile's list (medium_bin.comp), from the near plane to the scene's depth. Without MARCH (no kernel
// absorbs) the light is a sum of closed forms; with MARCH it is marched at a step of uStep times the
// smallest sigma on the ray, the transmittance of each step exact for its midpoint's extinction. With
// COUNT the output is the kernels the ray meets (its "fragments"). render/particles/medium.h has the model.
#ifndef MARCH
#define MARCH 0
#endif
#ifndef COUNT
#define COUNT 0
#endif
layout(local_size_x = 16, local_size_y = 16) in;  // one tile (medium_bin.comp's uTileSize)
#include "medium_common.glsl"
#include "view_depth.glsl"

layout(std430, binding = 2) readonly buffer Offsets { uint offsets[]; };
layout(std430, binding = 3) readonly buffer Lists { uint lists[]; };
layout(binding = 0, rgba32f) writeonly uniform image2D uOut;  // light, 1 - transmittance (or the count)
uniform sampler2D uSceneDepth;
uniform bool uHasDepth;
uniform ivec2 uTiles;
uniform float uStep;  // MARCH: the step, in the smallest sigma on the ray
const int kMaxHits = 96;
const int kMaxSteps = 65536;

vec3 gDir;
float gTNear, gTFar;

// The kernel's closest approach: its ray parameter at the centre's foot (x), sigma (y), and the squared
// distance (z); false beyond the reach.
bool meets(Kernel k, out vec3 m) {
    vec3 v = k.centerSigma.xyz - uCamEye;
    float tc = dot(v, gDir), s = k.centerSigma.w;
    float d2 = max(dot(v, v) - tc * tc, 0.0);
    m = vec3(tc, s, d2);
    return d2 <= kReach * kReach * s * s && tc + kReach * s > gTNear && tc - kReach * s < gTFar;
}

#if MARCH
vec4 hitShape[kMaxHits];   // tc, sigma, 1 / (sqrt(2) sigma), 1 / (sqrt(2 pi) sigma)
vec4 hitWeight[kMaxHits];  // emission and extinction weights times exp(-d^2 / 2 sigma^2)

// Emission (rgb) and extinction (a) per unit length at ray parameter t, from the hits or, when they did
// not fit, from the whole tile list.
vec4 densityAt(float t, int hits, uint first, uint last) {
    vec4 sum = vec4(0.0);
    if (hits <= kMaxHits) {
        for (int i = 0; i < hits; ++i) {
            float u = (t - hitShape[i].x) * hitShape[i].z;
            sum += hitWeight[i] * (hitShape[i].w * exp(-u * u));
        }
        return sum;
    }
    for (uint j = first; j < last; ++j) {
        Kernel k = kernels[lists[j]];
        vec3 m;
        if (!meets(k, m)) continue;
        float u = (t - m.x) / (kSqrt2 * m.y);
        sum += k.emissionExtinction * (exp(-m.z / (2.0 * m.y * m.y)) * kInvSqrt2Pi / m.y * exp(-u * u));
    }
    return sum;
}
#endif

void main() {
    ivec2 px = ivec2(gl_GlobalInvocationID.xy);
    if (any(greaterThanEqual(px, uTarget))) return;
    vec3 dir = rayThrough(vec2(px) + 0.5);
    float len = length(dir);  // view depth = t / len along the unit ray
    gDir = dir / len;
    gTNear = uNear * len;
    gTFar = 3.0e38;
    if (uHasDepth) {
        float d = texelFetch(uSceneDepth, px, 0).r;
        if (d < 1.0) gTFar = viewDistance(d) * len;
    }
    uint tile = uint(gl_WorkGroupID.y) * uint(uTiles.x) + uint(gl_WorkGroupID.x);
    uint first = offsets[tile], last = offsets[tile + 1u];

    int hits = 0;
    vec3 light = vec3(0.0);
    float ta = 3.0e38, tb = -3.0e38, smallest = 3.0e38;
    for (uint j = first; j < last; ++j) {
        Kernel k = kernels[lists[j]];
        vec3 m;
        if (!meets(k, m)) continue;
        float g = exp(-m.z / (2.0 * m.y * m.y));
#if COUNT || !MARCH
        float inv = 1.0 / (kSqrt2 * m.y);
        light += k.emissionExtinction.rgb * (g * 0.5 * (erfApprox((gTFar - m.x) * inv) - erfApprox((gTNear - m.x) * inv)));
#else
        if (hits < kMaxHits) {
            hitShape[hits] = vec4(m.x, m.y, 1.0 / (kSqrt2 * m.y), kInvSqrt2Pi / m.y);
            hitWeight[hits] = k.emissionExtinction * g;
        }
        ta = min(ta, m.x - kReach * m.y), tb = max(tb, m.x + kReach * m.y);
        smallest = min(smallest, m.y);
#endif
        ++hits;
    }
#if COUNT
    imageStore(uOut, px, vec4(float(hits)));
#elif !MARCH
    imageStore(uOut, px, vec4(light, 0.0));
#else
    float transmittance = 1.0;
    float a = max(ta, gTNear), b = min(tb, gTFar);
    if (hits > 0 && b > a) {
        int n = int(min(ceil((b - a) / (uStep * smallest)), float(kMaxSteps)));
        float h = (b - a) / float(n);
        for (int i = 0; i < n && transmittance > 1e-6; ++i) {
            vec4 m = densityAt(a + (float(i) + 0.5) * h, hits, first, last);
            float tau = m.a * h, through = exp(-tau);
            light += transmittance * m.rgb * (tau > 1e-5 ? (1.0 - through) / m.a : h);
            transmittance *= through;
        }
    }
    imageStore(uOut, px, vec4(light, 1.0 - transmittance));
#endif
}

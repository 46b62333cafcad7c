#version 450 core
// volume-reference: per pixel, the emission-absorption integral along its view ray through every kernel
// of its tile's list (medium_bin.comp), from the near plane to the scene's depth. Without MARCH (no kernel
// absorbs) the light is a sum of closed forms, added up over dispatches in chunks of the tile list; with
// MARCH it is marched window by window (each window's kernels gathered into arrays; with DIRECT, a window
// too crowded for them read from the tile list at each step), resumed over dispatches, at a step of uStep
// times the
// smallest sigma among the kernels that reach the step's start, and never past the start of another's reach
// (so a spark's small kernel refines only its own stretch of the ray, and gaps between kernels are jumped),
// the transmittance of each step exact for its
// midpoint's extinction. With
// COUNT the output is the kernels the ray meets (its "fragments"). render/particles/medium.h has the model.
#ifndef MARCH
#define MARCH 0
#endif
#ifndef COUNT
#define COUNT 0
#endif
#ifndef DIRECT
#define DIRECT 0     // with MARCH: the windows too crowded for the arrays, read from the tile list each step
#endif
layout(local_size_x = 16, local_size_y = 16) in;  // one tile (medium_bin.comp's uTileSize)
#include "medium_common.glsl"
#include "view_depth.glsl"

layout(std430, binding = 2) readonly buffer Offsets { uint offsets[]; };
layout(std430, binding = 3) readonly buffer Lists { uint lists[]; };
layout(std430, binding = 4) buffer Counters {
    uint crowdedWindows;  // MARCH: windows whose kernels did not fit the arrays (marched by DIRECT)
    uint unfinished;  // MARCH: pixels whose march continues in the next dispatch
};
uniform uint uChunk;      // without MARCH: this dispatch's share of each tile list, uChunkSize entries from
uniform uint uChunkSize;  // uChunk * uChunkSize
uniform bool uResume;     // MARCH: continue the marches the previous dispatch left unfinished
layout(binding = 0, rgba32f) uniform image2D uOut;    // light, 1 - transmittance (or the count)
layout(binding = 1, rgba32f) uniform image2D uMarch;  // MARCH: where it resumes (t), its end, its window, its state
uniform sampler2D uSceneDepth;
uniform bool uHasDepth;
uniform ivec2 uTiles;
uniform float uStep;  // MARCH: the step, in the smallest sigma on the ray
const int kMaxHits = 96;
// llvmpipe ends every loop of an invocation after 65535 iterations in all (LP_MAX_TGSI_LOOP_ITERATIONS, shared
// by every loop of the shader): each dispatch keeps within a budget of them, and the work goes on over
// dispatches (tile lists in chunks; marches resumed where they stopped).
const int kBudget = 50000;
const float kSlack = 1e-6;  // relative: a few float ulps, so that a step to a kernel's reach lands inside it

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
// The kernels that reach the current window of the ray (all of them when they fit): emission and absorption
// are marched window by window, each window's kernels gathered from the tile list into these arrays.
vec4 hitShape[kMaxHits];   // tc, sigma, 1 / (sqrt(2) sigma), 1 / (sqrt(2 pi) sigma)
vec4 hitWeight[kMaxHits];  // emission and extinction weights times exp(-d^2 / 2 sigma^2)

// Gathers the kernels whose reach overlaps [lo, hi) into the arrays; their count (more than kMaxHits: they
// did not fit, and the arrays hold the first kMaxHits).
int gather(float lo, float hi, uint first, uint last) {
    int n = 0;
    for (uint j = first; j < last; ++j) {
        Kernel k = kernels[lists[j]];
        vec3 m;
        if (!meets(k, m) || m.x + kReach * m.y <= lo || m.x - kReach * m.y >= hi) continue;
        if (n < kMaxHits) {
            hitShape[n] = vec4(m.x, m.y, 1.0 / (kSqrt2 * m.y), kInvSqrt2Pi / m.y);
            hitWeight[n] = k.emissionExtinction * exp(-m.z / (2.0 * m.y * m.y));
        }
        ++n;
    }
    return n;
}

// Emission (rgb) and extinction (a) per unit length at ray parameter t, from the gathered kernels.
vec4 densityAt(float t, int n) {
    vec4 sum = vec4(0.0);
    for (int i = 0; i < n; ++i) {
        float u = (t - hitShape[i].x) * hitShape[i].z;
        sum += hitWeight[i] * (hitShape[i].w * exp(-u * u));
    }
    return sum;
}

// At ray parameter t: the smallest sigma among the gathered kernels whose reach covers t (x; 0 when none
// does) and the nearest start of a kernel's reach beyond t (y).
vec2 reachAt(float t, int n) {
    float smallest = 3.0e38, next = 3.0e38;
    t += kSlack * max(1.0, abs(t));  // a reach that starts within rounding of t has started
    for (int i = 0; i < n; ++i) {
        float s = hitShape[i].y, lo = hitShape[i].x - kReach * s;
        if (lo > t) next = min(next, lo);
        else if (hitShape[i].x + kReach * s > t) smallest = min(smallest, s);
    }
    return vec2(smallest < 3.0e38 ? smallest : 0.0, next);
}

// densityAt and reachAt read from the whole tile list: a window more kernels reach than the arrays hold.
vec4 densityDirect(float t, uint first, uint last) {
    vec4 sum = vec4(0.0);
    for (uint j = first; j < last; ++j) {
        Kernel k = kernels[lists[j]];
        vec3 m;
        if (!meets(k, m)) continue;
        float u = (t - m.x) / (kSqrt2 * m.y);
        sum += k.emissionExtinction * (exp(-m.z / (2.0 * m.y * m.y)) * kInvSqrt2Pi / m.y * exp(-u * u));
    }
    return sum;
}
vec2 reachDirect(float t, uint first, uint last) {
    float smallest = 3.0e38, next = 3.0e38;
    t += kSlack * max(1.0, abs(t));
    for (uint j = first; j < last; ++j) {
        vec3 m;
        if (!meets(kernels[lists[j]], m)) continue;
        float lo = m.x - kReach * m.y;
        if (lo > t) next = min(next, lo);
        else if (m.x + kReach * m.y > t) smallest = min(smallest, m.y);
    }
    return vec2(smallest < 3.0e38 ? smallest : 0.0, next);
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
#if !MARCH
    // This dispatch's chunk of the tile list, added to what the earlier chunks gave.
    uint from = min(first + uChunk * uChunkSize, last), to = min(from + uChunkSize, last);
    vec4 sum = uChunk == 0u ? vec4(0.0) : imageLoad(uOut, px);
    for (uint j = from; j < to; ++j) {
        Kernel k = kernels[lists[j]];
        vec3 m;
        if (!meets(k, m)) continue;
#if COUNT
        sum += vec4(1.0);
#else
        float g = exp(-m.z / (2.0 * m.y * m.y)), inv = 1.0 / (kSqrt2 * m.y);
        sum.rgb += k.emissionExtinction.rgb * (g * 0.5 * (erfApprox((gTFar - m.x) * inv) - erfApprox((gTNear - m.x) * inv)));
#endif
    }
    imageStore(uOut, px, sum);
#elif DIRECT
    // The crowded windows the array dispatch left (state.w 2, state.z the window's end), a bounded number of
    // steps each, every step reading the whole tile list.
    vec4 state = imageLoad(uMarch, px);
    if (state.w != 2.0) return;
    const int listLength = int(last - first);
    const int steps = max((kBudget - 8) / (2 * listLength + 4), 1);
    vec4 gathered = imageLoad(uOut, px);
    float t = state.x, b = state.y, end = state.z;
    vec3 light = gathered.rgb;
    float transmittance = 1.0 - gathered.a;
    for (int i = 0; i < steps && t < end && transmittance > 1e-6; ++i) {
        vec2 reach = reachDirect(t, first, last);
        if (reach.x == 0.0) {
            t = min(reach.y, end);
            continue;
        }
        float h = max(min(min(uStep * reach.x, reach.y - t), end - t), kSlack * max(1.0, abs(t)));
        vec4 m = densityDirect(t + 0.5 * h, first, last);
        float tau = m.a * h, through = exp(-tau);
        light += transmittance * m.rgb * (tau > 1e-5 ? (1.0 - through) / m.a : h);
        transmittance *= through;
        t += h;
    }
    bool going = t < b && transmittance > 1e-6;
    float mode = !going ? 0.0 : t < end ? 2.0 : 1.0;  // the window goes on, or back to the arrays
    float next = t < end ? end : 0.5 * max(end - state.x, kSlack * max(1.0, abs(t)) * 64.0);  // the end, or a width
    if (going) atomicAdd(unfinished, 1u);
    imageStore(uMarch, px, vec4(t, b, next, mode));
    imageStore(uOut, px, vec4(light, 1.0 - transmittance));
#else
    // llvmpipe runs a tile's pixels in SIMD lanes, and a loop runs as long as any lane needs it: every loop
    // below has a trip count bounded alike in every lane, and their bounds multiply to within kBudget.
    const int listLength = int(last - first);
    const int steps = clamp((kBudget - 2 * listLength - 8) / (2 * kMaxHits + 3), 1, 64);  // per window
    const int windows = max((kBudget - (uResume ? 0 : listLength)) / (listLength + 2 + steps * (2 * kMaxHits + 3)), 1);
    vec4 state;      // t, the march's end, the window's width, 1 while it goes on (0: done)
    vec4 gathered;   // light, 1 - transmittance
    if (!uResume) {  // the ray's extent through the kernels it meets
        float ta = 3.0e38, tb = -3.0e38;
        for (uint j = first; j < last; ++j) {
            vec3 m;
            if (meets(kernels[lists[j]], m)) ta = min(ta, m.x - kReach * m.y), tb = max(tb, m.x + kReach * m.y);
        }
        float a = max(ta, gTNear), b = min(tb, gTFar);
        state = vec4(a, b, b - a, b > a ? 1.0 : 0.0);
        gathered = vec4(0.0);
    } else {
        state = imageLoad(uMarch, px);
        if (state.w != 1.0) return;  // done, or the direct dispatch's
        gathered = imageLoad(uOut, px);
    }
    float t = state.x, b = state.y, width = state.z;
    vec3 light = gathered.rgb;
    float transmittance = 1.0 - gathered.a;
    // Window by window, each window's kernels gathered into the arrays, the steps within it adaptive; a window
    // not finished in `steps` steps goes on as the next one; one whose kernels do not fit is left to the
    // direct dispatch (state 2).
    bool going = state.w == 1.0 && t < b && transmittance > 1e-6;
    bool crowded = false;
    for (int w = 0; w < windows && going; ++w) {
        float shortest = kSlack * max(1.0, abs(t)) * 64.0;  // a window t + width must not round to t
        width = max(width, shortest);
        float end = min(t + width, b);
        int n = gather(t, end, first, last);
        if (n > kMaxHits) {  // too crowded for the arrays: the direct dispatch marches this window
            crowded = true;
            atomicAdd(crowdedWindows, 1u);
            width = end;  // the window's end, for the direct dispatch
            break;
        }
        float start = t;
        for (int i = 0; i < steps && t < end && transmittance > 1e-6; ++i) {
            vec2 reach = reachAt(t, n);
            if (reach.x == 0.0) {  // between kernels: on to the next one's reach
                t = min(reach.y, end);
                continue;
            }
            // No step runs into another kernel's reach, and none is shorter than rounding (it would not advance t).
            float h = max(min(min(uStep * reach.x, reach.y - t), end - t), kSlack * max(1.0, abs(t)));
            vec4 m = densityAt(t + 0.5 * h, n);
            float tau = m.a * h, through = exp(-tau);
            light += transmittance * m.rgb * (tau > 1e-5 ? (1.0 - through) / m.a : h);
            transmittance *= through;
            t += h;
        }
        if (t < end) {
            width = end - t;  // the rest of the window, next
        } else {
            t = end;
            width = 2.0 * (end - start);  // the next window may be wider
        }
        going = t < b && transmittance > 1e-6;
    }
    going = t < b && transmittance > 1e-6;
    if (going) atomicAdd(unfinished, 1u);
    imageStore(uMarch, px, vec4(t, b, width, !going ? 0.0 : crowded ? 2.0 : 1.0));
    imageStore(uOut, px, vec4(light, 1.0 - transmittance));
#endif
}

#version 450 core
// volume-reference: per pixel, the emission-absorption integral along its view ray through every kernel
// of its tile's list (medium_bin.comp), from the near plane to the scene's depth. Without MARCH (no kernel
// absorbs) the light is a sum of closed forms, added up over dispatches in chunks of the tile list. With
// MARCH the ray is cut into steps, and each step's emission and optical depth are again closed forms (erf) of
// every kernel it crosses: only the transmittance within a step is approximated, as if the step's emission
// were spread like its extinction (exact for one kernel, whose source is its colour). So the step follows the
// absorbing kernels alone: uStep times the smallest sigma among those that reach the step's start, never past
// the start of another's reach, and a stretch no absorbing kernel reaches is one step however many glowing
// kernels it crosses. The march goes window by window (each window's kernels gathered into arrays; with
// DIRECT, a window too crowded for them read from the tile list at each step), resumed over dispatches. With
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

// The pixel's view ray from the eye: its unit direction and the stretch of it that counts, from the near
// plane to the scene's depth (parameters in distance along dir).
struct Ray {
    vec3 dir;
    float tNear, tFar;
};

// The kernel's closest approach to the ray: its ray parameter at the centre's foot (x), sigma (y), and the
// squared distance (z); false beyond the reach.
bool meets(Kernel k, Ray ray, out vec3 m) {
    vec3 v = k.centerSigma.xyz - uCamEye;
    float tc = dot(v, ray.dir), s = k.centerSigma.w;
    float d2 = max(dot(v, v) - tc * tc, 0.0);
    m = vec3(tc, s, d2);
    return d2 <= kReach * kReach * s * s && tc + kReach * s > ray.tNear && tc - kReach * s < ray.tFar;
}

#if MARCH
// The kernels that reach the current window of the ray (all of them when they fit): emission and absorption
// are marched window by window, each window's kernels gathered from the tile list into these arrays.
vec3 hitShape[kMaxHits];   // tc, sigma, 1 / (sqrt(2) sigma)
vec4 hitWeight[kMaxHits];  // emission and extinction weights times exp(-d^2 / 2 sigma^2)

// Gathers the kernels whose reach overlaps [lo, hi) into the arrays; their count (more than kMaxHits: they
// did not fit, and the arrays hold the first kMaxHits).
int gather(Ray ray, float lo, float hi, uint first, uint last) {
    int n = 0;
    for (uint j = first; j < last; ++j) {
        Kernel k = kernels[lists[j]];
        vec3 m;
        if (!meets(k, ray, m) || m.x + kReach * m.y <= lo || m.x - kReach * m.y >= hi) continue;
        if (n < kMaxHits) {
            hitShape[n] = vec3(m.x, m.y, 1.0 / (kSqrt2 * m.y));
            hitWeight[n] = k.emissionExtinction * exp(-m.z / (2.0 * m.y * m.y));
        }
        ++n;
    }
    return n;
}

// The emission (rgb) and optical depth (a) of the step [t0, t1] through the gathered kernels: each kernel's
// line integral over it, in closed form.
vec4 stepAt(float t0, float t1, int n) {
    vec4 sum = vec4(0.0);
    for (int i = 0; i < n; ++i) {
        float c = hitShape[i].x, inv = hitShape[i].z;
        sum += hitWeight[i] * (0.5 * (erfApprox((t1 - c) * inv) - erfApprox((t0 - c) * inv)));
    }
    return sum;
}

// At ray parameter t: the smallest sigma among the gathered absorbing kernels whose reach covers t (x; 0 when
// none does) and the nearest start of an absorbing kernel's reach beyond t (y).
vec2 reachAt(float t, int n) {
    float smallest = 3.0e38, next = 3.0e38;
    t += kSlack * max(1.0, abs(t));  // a reach that starts within rounding of t has started
    for (int i = 0; i < n; ++i) {
        if (hitWeight[i].a <= 0.0) continue;
        float s = hitShape[i].y, lo = hitShape[i].x - kReach * s;
        if (lo > t) next = min(next, lo);
        else if (hitShape[i].x + kReach * s > t) smallest = min(smallest, s);
    }
    return vec2(smallest < 3.0e38 ? smallest : 0.0, next);
}

// stepAt and reachAt read from the whole tile list: a window more kernels reach than the arrays hold.
vec4 stepDirect(Ray ray, float t0, float t1, uint first, uint last) {
    vec4 sum = vec4(0.0);
    for (uint j = first; j < last; ++j) {
        Kernel k = kernels[lists[j]];
        vec3 m;
        if (!meets(k, ray, m)) continue;
        float inv = 1.0 / (kSqrt2 * m.y);
        sum += k.emissionExtinction *
               (exp(-m.z / (2.0 * m.y * m.y)) * 0.5 * (erfApprox((t1 - m.x) * inv) - erfApprox((t0 - m.x) * inv)));
    }
    return sum;
}
vec2 reachDirect(Ray ray, float t, uint first, uint last) {
    float smallest = 3.0e38, next = 3.0e38;
    t += kSlack * max(1.0, abs(t));
    for (uint j = first; j < last; ++j) {
        Kernel k = kernels[lists[j]];
        vec3 m;
        if (k.emissionExtinction.a <= 0.0 || !meets(k, ray, m)) continue;
        float lo = m.x - kReach * m.y;
        if (lo > t) next = min(next, lo);
        else if (m.x + kReach * m.y > t) smallest = min(smallest, m.y);
    }
    return vec2(smallest < 3.0e38 ? smallest : 0.0, next);
}

// One step of the march: the step's light, seen through the transmittance at its start and, within it, through
// the mean of exp(-optical depth so far) over the step (exact when its emission is spread like its extinction).
void advance(vec4 m, inout vec3 light, inout float transmittance) {
    float tau = m.a, through = exp(-tau);
    light += transmittance * m.rgb * (tau > 1e-5 ? (1.0 - through) / tau : 1.0 - 0.5 * tau);
    transmittance *= through;
}

#endif

void main() {
    ivec2 px = ivec2(gl_GlobalInvocationID.xy);
    if (any(greaterThanEqual(px, uTarget))) return;
    vec3 dir = rayThrough(vec2(px) + 0.5);
    float len = length(dir);  // view depth = t / len along the unit ray
    Ray ray = Ray(dir / len, uNear * len, 3.0e38);
    if (uHasDepth) {
        float d = texelFetch(uSceneDepth, px, 0).r;
        if (d < 1.0) ray.tFar = viewDistance(d) * len;
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
        if (!meets(k, ray, m)) continue;
#if COUNT
        sum += vec4(1.0);
#else
        float g = exp(-m.z / (2.0 * m.y * m.y)), inv = 1.0 / (kSqrt2 * m.y);
        sum.rgb += k.emissionExtinction.rgb * (g * 0.5 * (erfApprox((ray.tFar - m.x) * inv) - erfApprox((ray.tNear - m.x) * inv)));
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
        vec2 reach = reachDirect(ray, t, first, last);
        float h = reach.x == 0.0 ? min(reach.y, end) - t : min(min(uStep * reach.x, reach.y - t), end - t);
        h = max(h, kSlack * max(1.0, abs(t)));
        advance(stepDirect(ray, t, t + h, first, last), light, transmittance);
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
            if (meets(kernels[lists[j]], ray, m)) ta = min(ta, m.x - kReach * m.y), tb = max(tb, m.x + kReach * m.y);
        }
        float a = max(ta, ray.tNear), b = min(tb, ray.tFar);
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
        int n = gather(ray, t, end, first, last);
        if (n > kMaxHits) {  // too crowded for the arrays: the direct dispatch marches this window
            crowded = true;
            atomicAdd(crowdedWindows, 1u);
            width = end;  // the window's end, for the direct dispatch
            break;
        }
        float start = t;
        for (int i = 0; i < steps && t < end && transmittance > 1e-6; ++i) {
            // Where no absorbing kernel reaches, on to the next one's reach in one step (the transmittance is
            // constant there); no step runs into another absorbing kernel's reach, and none is shorter than
            // rounding (it would not advance t).
            vec2 reach = reachAt(t, n);
            float h = reach.x == 0.0 ? min(reach.y, end) - t : min(min(uStep * reach.x, reach.y - t), end - t);
            h = max(h, kSlack * max(1.0, abs(t)));
            advance(stepAt(t, t + h, n), light, transmittance);
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

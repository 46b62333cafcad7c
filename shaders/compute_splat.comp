#version 450 core
// compute-splat: rasterises each particle's footprint, the screen-aligned square its view-plane quad
// projects to, into the light buffer with atomic adds, shading each pixel as quad.frag does for
// additive blending (sampled at the pixel's centre with the quad's texture gradients, so the same mip
// levels). Without SPLAT_BIG: one invocation per particle, which splats a footprint of up to
// uSmallArea pixels itself and queues a larger one; with SPLAT_BIG: one 8x8 workgroup per queued
// particle, each invocation taking every 8th pixel across and up.
#ifdef SPLAT_BIG
layout(local_size_x = 8, local_size_y = 8) in;
#else
layout(local_size_x = 64) in;
#endif
#define SOFT_PARTICLES_NO_FRAGMENT  // a compute shader has no gl_FragCoord: soft_particles.glsl's fragment helper left out
#include "particle_common.glsl"
#include "soft_particles.glsl"
#include "splat_accum.glsl"

uniform int uCountOverdraw;  // DrawMode: 0 colour, 1 fragments that survive the discard, 2 every fragment

struct Instance {  // render/particles/instance_stream.h
    vec4 posSize;
    vec4 velAge;
};
layout(std430, binding = 1) readonly buffer Instances { Instance instances[]; };
layout(std430, binding = 3) readonly buffer Looks { vec4 looks[]; };  // render::Look, when uHasLooks
// The large footprints; the head is the SPLAT_BIG pass's glDispatchComputeIndirect command.
layout(std430, binding = 2) buffer Queue {
    uint groupsX, groupsY, groupsZ;
    uint queued;
    uint queue[];
};

uniform uint uCount;      // particles
uniform ivec2 uTarget;    // the pass's size in pixels
uniform bool uHasDepth;   // uSceneDepth holds the scene's depth; else nothing occludes
uniform bool uHasLooks;   // looks[] holds the particles' tints; else they are 1
uniform uint uSmallArea;  // the largest footprint (pixels) one invocation splats alone
const uint kMaxGroups = 65535u;

struct Footprint {
    ivec2 lo, hi;            // the pixels whose centres the quad covers, inclusive, within the target
    vec2 origin, extent;     // the quad's lower-left corner and size, in window coordinates
    vec2 dUvDx, dUvDy;       // the sprite coordinate's change per pixel (the rasteriser's derivatives)
    float depth;             // window depth, the same over the quad: it faces the view plane
    float t;                 // normalised age
    vec4 color;              // the gradient at t, tinted
};

// False when the particle draws nothing: clipped by the near or far plane, off the target, or (unless
// counting every fragment shaded) too faint for any texel to pass quad.frag's discard.
bool footprintOf(uint i, out Footprint f) {
    const Instance q = instances[i];
    const vec3 p = q.posSize.xyz;
    const vec4 c = uViewProj * vec4(p, 1.0);
    if (c.w <= 0.0 || abs(c.z) > c.w) return false;
    const vec3 d = (uCamRight + uCamUp) * (0.5 * q.posSize.w);
    const vec4 a = uViewProj * vec4(p - d, 1.0), b = uViewProj * vec4(p + d, 1.0);
    const vec2 size = vec2(uTarget);
    const vec2 lo = (a.xy / a.w * 0.5 + 0.5) * size, hi = (b.xy / b.w * 0.5 + 0.5) * size;
    // Pixel x is covered when its centre x + 0.5 lies in [lo, hi).
    f.lo = ivec2(clamp(ceil(lo - 0.5), vec2(0.0), size));
    f.hi = ivec2(clamp(ceil(hi - 0.5), vec2(0.0), size)) - 1;
    if (any(greaterThan(f.lo, f.hi))) return false;
    f.origin = lo;
    f.extent = hi - lo;
    const vec2 cell = FLIPBOOK == 1 ? cellSize() : vec2(1.0);  // spriteUv's scale
    f.dUvDx = vec2(cell.x / f.extent.x, 0.0);
    f.dUvDy = vec2(0.0, cell.y / f.extent.y);
    f.depth = c.z / c.w * 0.5 + 0.5;
    f.t = q.velAge.w;
    vec4 g = texture(uGradient, clamp(f.t, 0.0, 1.0));
    const float at = colorCoordinate(f.t, p);  // --color-position: the rgb at the particle's place
    if (at != f.t) g.rgb = texture(uGradient, clamp(at, 0.0, 1.0)).rgb;
    f.color = tinted(g, uHasLooks ? looks[i].rgb : vec3(1.0));
    f.color.a *= cameraFade(p);  // --camera-fade (the CPU left out the particles faded wholly)
    return uCountOverdraw == 2 || f.color.a >= 1.0 / 512.0;
}

void add(uint at, uint v) {
    if (v != 0u) atomicAdd(accum[at], v);
}

// One (particle, pixel) pair: the depth test, then quad.frag's shading, discard and additive output.
void splatPixel(ivec2 px, Footprint f) {
    const float scene = uHasDepth ? texelFetch(uSceneDepth, px, 0).r : 1.0;
    if (uHasDepth && f.depth >= scene) return;  // GL_LESS
    const uint at = 4u * uint(px.y * uTarget.x + px.x);
    if (uCountOverdraw == 2) {
        atomicAdd(accum[at + 3u], 1u);
        return;
    }
    const vec2 uv = (vec2(px) + 0.5 - f.origin) / f.extent;
    const vec2 atlasUv = spriteUv(uv, flipbookCell(f.t));
    const vec4 next = flipbookNext(f.t);  // --flipbook-blend linear or motion: the next frame blended in
    vec4 tex;
    if (FLIPBOOK_BLEND == 2 && next.z > 0.0) {
        tex = motionTexel(atlasUv, next, true, f.dUvDx, f.dUvDy);
    } else {
        tex = textureGrad(uSprite, atlasUv, f.dUvDx, f.dUvDy);
        if (next.z > 0.0) tex = mix(tex, textureGrad(uSprite, atlasUv + next.xy, f.dUvDx, f.dUvDy), next.z);
    }
    float alpha = f.color.a * tex.a;
    if (alpha < 1.0 / 512.0) return;
    if (uCountOverdraw == 1) {
        atomicAdd(accum[at + 3u], 1u);
        return;
    }
    if (uSoft != 0.0) alpha *= softFadeAt(scene, f.depth);
    const uvec3 light = uvec3(f.color.rgb * tex.rgb * (alpha * uAlphaScale) * kLightScale + 0.5);
    add(at, light.r);
    add(at + 1u, light.g);
    add(at + 2u, light.b);
}

#ifndef SPLAT_BIG
void main() {
    const uint stride = gl_NumWorkGroups.x * gl_WorkGroupSize.x;
    for (uint i = gl_GlobalInvocationID.x; i < uCount; i += stride) {
        Footprint f;
        if (!footprintOf(i, f)) continue;
        const ivec2 n = f.hi - f.lo + 1;
        if (uint(n.x) * uint(n.y) > uSmallArea) {
            const uint k = atomicAdd(queued, 1u);
            queue[k] = i;
            atomicMax(groupsX, min(k + 1u, kMaxGroups));
            continue;
        }
        for (int y = f.lo.y; y <= f.hi.y; ++y)
            for (int x = f.lo.x; x <= f.hi.x; ++x) splatPixel(ivec2(x, y), f);
    }
}
#else
void main() {
    for (uint k = gl_WorkGroupID.x; k < queued; k += gl_NumWorkGroups.x) {
        Footprint f;
        footprintOf(queue[k], f);
        for (int y = f.lo.y + int(gl_LocalInvocationID.y); y <= f.hi.y; y += 8)
            for (int x = f.lo.x + int(gl_LocalInvocationID.x); x <= f.hi.x; x += 8) splatPixel(ivec2(x, y), f);
    }
}
#endif

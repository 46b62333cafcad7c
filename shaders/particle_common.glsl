// Shared by every particle shader: camera uniforms, billboard corners for the three facings, the
// particle's colour and sprite coordinates (per vertex: they are constant over a particle), and the
// output for the draw mode and blend. Included after #version.
//
// Variants: ParticleMaterial compiles the options that change only the shaders' work in as #defines,
// one program per combination it draws with (the values are those of the C++ enums); the branches on
// them below are constant and compile away.
#ifndef FACING
#define FACING 0     // Facing: 0 view-plane, 1 viewpoint, 2 velocity, 3 ground, 4 plane
#endif
#ifndef BLEND
#define BLEND 0      // Blend: 0 additive, 1 alpha, 2 premultiplied
#endif
#ifndef FLIPBOOK
#define FLIPBOOK 0   // 1: uSprite is an atlas of uFlipbook's frames played over the particle's life
#endif
#ifndef FLIPBOOK_BLEND
#define FLIPBOOK_BLEND 0  // FlipbookBlend: 0 none (a frame held, then cut), 1 linear (two frames blended), 2 motion
#endif                    // (each of the two warped along its motion vectors, uMotion, then blended)
#ifndef DRAW_MODE
#define DRAW_MODE 0  // DrawMode: 0 colour; fragment counting, summed by additive blending: 1 every fragment
#endif               // that survives the discard writes 1, 2 every fragment shaded (countShaded())
#ifndef SOFT
#define SOFT 0       // 1: fade where the particle meets the scene (soft_particles.glsl)
#endif

uniform mat4 uViewProj;
uniform float uProjScale;  // proj[1][1] * viewportHeight / 2: world size -> pixels at w = 1
uniform vec3 uCamRight, uCamUp, uCamForward, uCamEye;
uniform float uStretch;    // velocity facing: extra length per m/s, in sizes
uniform mat3 uPlane;       // --facing plane: the emitter's rotation (render::spritePlane): right, normal, up
uniform float uAlphaScale;  // RenderOptions::alphaScale (--energy-preserving); 1 otherwise
uniform vec2 uCameraFade;   // RenderOptions::cameraFade (--camera-fade NEAR,FAR); FAR 0: off
uniform float uSizePixels;  // --size-unit px: the pass's pixels per pixel of the frame (render::spriteWorldSize); 0: m
uniform sampler2D uSprite;
uniform sampler2D uMotion;   // --flipbook-blend motion: the atlas's motion vectors (render::kMotionRange's encoding)
uniform ivec2 uFlipbook;     // the atlas's rows and columns (1, 1 without a flipbook)
uniform sampler1D uGradient;  // sim::gradientLut(params): the colour table over t
uniform bool uBlackbody;       // --color blackbody: the table's rgb is a radiance, which the tint does not clip

// The sprite's axes turned by `angle` radians in their plane, right towards up (render::turnAxes).
void turnAxes(inout vec3 right, inout vec3 up, float angle) {
    if (angle == 0.0) return;
    float c = cos(angle), s = sin(angle);
    vec3 r = right;
    right = r * c + up * s;
    up = up * c - r * s;
}

// The sprite's axes (unit) and half-extents for a particle at p of edge size, its sprite turned by `angle`
// radians in its plane.
void billboardAxes(vec3 p, float size, vec3 vel, float angle, out vec3 right, out vec3 up, out vec2 halfSize) {
    right = uCamRight, up = uCamUp;
    halfSize = vec2(0.5 * size);
    if (FACING == 1) {  // face the eye point: quads turn individually (and intersect)
        vec3 n = normalize(p - uCamEye);
        up = normalize(uCamUp - n * dot(uCamUp, n));
        right = normalize(cross(n, up));
    } else if (FACING == 3) {  // flat on the ground (a shockwave ring)
        right = vec3(1.0, 0.0, 0.0);
        up = vec3(0.0, 0.0, 1.0);
    } else if (FACING == 4) {  // in the emitter's plane (a fixed-plane quad)
        right = uPlane[0];
        up = uPlane[2];
    } else if (FACING == 2) {  // stretched along the velocity projected on the view plane
        vec3 vp = vel - uCamForward * dot(vel, uCamForward);
        float speed = length(vp);
        if (speed > 1e-4) {
            up = vp / speed;
            right = normalize(cross(uCamForward, up));
            halfSize.y *= 1.0 + uStretch * speed;
        }
    }
    turnAxes(right, up, angle);
}

// World-space position of quad corner c (each component -1 or +1) of a particle at p with edge size,
// its sprite turned by `angle` radians in its plane; `side` is where c lies across the sprite along its unit
// axes (what a lit particle's normal leans by: particle_light.glsl).
vec3 billboardCorner(vec3 p, float size, vec3 vel, vec2 c, float angle, out vec3 side) {
    vec3 right, up;
    vec2 halfSize;
    billboardAxes(p, size, vel, angle, right, up, halfSize);
    side = right * c.x + up * c.y;
    return p + right * (c.x * halfSize.x) + up * (c.y * halfSize.y);
}

// The way a sprite centred at p faces: towards the viewer (the eye point for viewpoint facing), up for one
// lying on the ground.
vec3 billboardBack(vec3 p) {
    if (FACING == 1) return normalize(uCamEye - p);
    if (FACING == 3) return vec3(0.0, 1.0, 0.0);
    if (FACING == 4) return uPlane[1];
    return -uCamForward;
}

// The particle's colour at age t, from the gradient: per vertex (or primitive), passed on flat.
vec4 particleColor(float t) { return textureLod(uGradient, clamp(t, 0.0, 1.0), 0.0); }

// render::spriteWorldSize: a size (sim::sizeAt's) in metres at p: with --size-unit px, the metres that many pixels
// of the frame span at p's view depth; the GPU-simulated strategies' sizes (the CPU streams metres).
float spriteSize(vec3 p, float size) {
    if (uSizePixels <= 0.0) return size;
    return size * uSizePixels * abs(dot(p - uCamEye, uCamForward)) / uProjScale;
}

// --color-position (the paper's colour by place in the flame; sim::colorCoordinate, the same formula): where a
// particle at p of normalised age t looks its rgb up, mix(t, s, weight) with s its place in the flame's ellipsoid.
uniform float uColorPosition;  // sim::FlameFrame: weight (0: by age alone), centre, rotation, radius and height
uniform vec3 uFlameCenter;
uniform mat3 uFlameRotation;
uniform vec2 uFlameSize;
float colorCoordinate(float t, vec3 p) {
    if (uColorPosition <= 0.0) return t;
    vec3 l = transpose(uFlameRotation) * (p - uFlameCenter);
    float r = sqrt(l.x * l.x + l.z * l.z) / uFlameSize.x, h = max(l.y, 0.0) / uFlameSize.y;
    float s = min(sqrt(r * r + h * h), 1.0);
    return t + (s - t) * uColorPosition;
}
// The colour table's rgb at `at` (colorCoordinate) with its alpha at the age t.
vec4 particleColor(float t, float at) {
    vec4 c = particleColor(t);
    if (at != t) c.rgb = particleColor(at).rgb;
    return c;
}

// --camera-fade: the alpha factor of a particle centred at p, by its view depth (render::cameraFadeAt, the
// same formula): 0 at NEAR and nearer, where the particle is not drawn (kCulledPosition), 1 at FAR and beyond.
float cameraFade(vec3 p) {
    if (uCameraFade.y <= 0.0) return 1.0;
    return clamp((dot(p - uCamEye, uCamForward) - uCameraFade.x) / (uCameraFade.y - uCameraFade.x), 0.0, 1.0);
}
// A clip position outside the clip volume: the vertex's primitive is culled before any fragment.
const vec4 kCulledPosition = vec4(0.0, 0.0, 2.0, 1.0);

// sim::tinted: a colour's rgb times the particle's tint (1: none), at most 1 (a gradient's: a colour) or
// unclipped (a blackbody's radiance); alpha kept.
vec4 tinted(vec4 c, vec3 tint) { return vec4(uBlackbody ? c.rgb * tint : min(c.rgb * tint, vec3(1.0)), c.a); }

// The flipbook's frame at age t as a position along its n frames: frame k is shown alone at the middle of its
// 1/n of the life with a blend (render::flipbookPosition, the same formula), for the whole 1/n without.
float flipbookPosition(float t) {
    float n = float(uFlipbook.x * uFlipbook.y);
    return FLIPBOOK_BLEND != 0 ? clamp(t * n - 0.5, 0.0, n - 1.0) : clamp(floor(t * n), 0.0, n - 1.0);
}
// A frame's cell in uv (v up), and the corner of frame k's (frame 0 is the top-left cell, then row by row).
vec2 cellSize() { return 1.0 / vec2(uFlipbook.y, uFlipbook.x); }
vec2 frameCell(float frame) {
    int f = int(frame + 0.5), cols = uFlipbook.y;  // integers: a float division by 3 may land under the row
    return vec2(float(f % cols), float(uFlipbook.x - 1 - f / cols)) * cellSize();
}
// The corner of age t's (first) frame.
vec2 flipbookCell(float t) { return frameCell(floor(flipbookPosition(t))); }
// What the fragment blends in: the step from the first frame's cell to the next one's, the next one's weight (0
// without a blend, and at the last frame), and the first frame's number.
vec4 flipbookNext(float t) {
    if (FLIPBOOK == 0 || FLIPBOOK_BLEND == 0) return vec4(0.0);
    float n = float(uFlipbook.x * uFlipbook.y);
    float f = flipbookPosition(t), a = floor(f), b = min(a + 1.0, n - 1.0);
    return vec4(frameCell(b) - frameCell(a), f - a, a);
}
// A frame's motion to the next at atlas coordinate uv, in cells (render::kMotionRange's encoding).
const float kMotionRange = 0.5;
vec2 flipbookMotion(vec2 uv) { return (texture(uMotion, uv).rg * 255.0 - 128.0) / 127.0 * kMotionRange; }
// --flipbook-blend motion at atlas coordinate uv (in frame next.w's cell): the instant a fraction w = next.z
// from that frame to the next, each warped along its own vectors (Unreal's motion-vector flipbook): the first
// sampled where its texel comes from, uv - w m, the second where it goes, uv + (1 - w) m, inside their cells.
// The sprite's texel at atlas coordinate uv: with the gradients dx, dy (a compute shader's), or the fragment's own
// (implicit: a fragment shader's), whose footprint is the unwarped uv's.
vec4 spriteSample(vec2 uv, bool grad, vec2 dx, vec2 dy) {
    return grad ? textureGrad(uSprite, uv, dx, dy) : texture(uSprite, uv);
}
vec4 motionTexel(vec2 uv, vec4 next, bool grad, vec2 dx, vec2 dy) {
    vec2 size = cellSize(), a = frameCell(next.w), b = a + next.xy;
    vec2 local = (uv - a) / size;
    vec2 ua = a + clamp(local - next.z * flipbookMotion(uv), 0.0, 1.0) * size;
    vec2 ub = b + clamp(local + (1.0 - next.z) * flipbookMotion(b + local * size), 0.0, 1.0) * size;
    return mix(spriteSample(ua, grad, dx, dy), spriteSample(ub, grad, dx, dy), next.z);
}
// The sprite at atlas coordinate uv, with the next frame's texel blended in by `next` (flipbookNext()).
vec4 spriteTexel(vec2 uv, vec4 next) {
    if (FLIPBOOK_BLEND == 2 && next.z > 0.0) return motionTexel(uv, next, false, vec2(0.0), vec2(0.0));
    vec4 c = texture(uSprite, uv);
    return next.z > 0.0 ? mix(c, texture(uSprite, uv + next.xy), next.z) : c;
}

// Texture coordinate in the sprite of uv (0..1 over the sprite): in the frame at `cell` with FLIPBOOK.
vec2 spriteUv(vec2 uv, vec2 cell) { return FLIPBOOK == 1 ? cell + uv * cellSize() : uv; }

// Straight alpha for alpha blending, premultiplied colour for additive and premultiplied blending.
// uAlphaScale scales the light a particle adds (additive: exactly; alpha and premultiplied: its
// coverage, which saturates at 1).
vec4 blendOutput(vec4 c) {
    if (DRAW_MODE != 0) return vec4(1.0);
    float a = c.a * uAlphaScale;
    return BLEND == 1 ? vec4(c.rgb, min(a, 1.0)) : vec4(c.rgb * a, min(a, 1.0));
}

// Counting the fragments shaded: true (and the fragment written as 1) before any discard.
bool countShaded(out vec4 color) {
    color = vec4(1.0);
    return DRAW_MODE == 2;
}

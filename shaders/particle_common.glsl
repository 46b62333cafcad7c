// Shared by every particle shader: camera uniforms, billboard corners for the three facings,
// the flipbook, colour over life and the output for the blend mode. Included after #version.
uniform mat4 uViewProj;
uniform float uProjScale;  // proj[1][1] * viewportHeight / 2: world size -> pixels at w = 1
uniform vec3 uCamRight, uCamUp, uCamForward, uCamEye;
uniform int uFacing;       // 0 view-plane, 1 viewpoint, 2 velocity
uniform float uStretch;    // velocity facing: extra length per m/s, in sizes
uniform int uBlendMode;    // 0 additive, 1 alpha, 2 premultiplied
uniform int uFlipbook;     // 1: uSprite is a 4x4 atlas played over the particle's life
uniform int uCountOverdraw; // fragment counting, summed by additive blending: 1 every fragment that
                            // survives the discard writes 1; 2 every fragment shaded (countShaded())
uniform float uAlphaScale;  // RenderOptions::alphaScale (--energy-preserving); 1 otherwise
uniform sampler2D uSprite;
uniform sampler1D uGradient;

// World-space position of quad corner c (each component -1 or +1) of a particle at p with edge size.
vec3 billboardCorner(vec3 p, float size, vec3 vel, vec2 c) {
    vec3 right = uCamRight, up = uCamUp;
    float halfW = 0.5 * size, halfH = 0.5 * size;
    if (uFacing == 1) {  // face the eye point: quads turn individually (and intersect)
        vec3 n = normalize(p - uCamEye);
        up = normalize(uCamUp - n * dot(uCamUp, n));
        right = normalize(cross(n, up));
    } else if (uFacing == 2) {  // stretched along the velocity projected on the view plane
        vec3 vp = vel - uCamForward * dot(vel, uCamForward);
        float speed = length(vp);
        if (speed > 1e-4) {
            up = vp / speed;
            right = normalize(cross(uCamForward, up));
            halfH *= 1.0 + uStretch * speed;
        }
    }
    return p + right * (c.x * halfW) + up * (c.y * halfH);
}

// Texture coordinate in the sprite (or in the flipbook frame for age t).
vec2 spriteUv(vec2 uv, float t) {
    if (uFlipbook == 0) return uv;
    float frame = min(floor(t * 16.0), 15.0);
    vec2 cell = vec2(mod(frame, 4.0), 3.0 - floor(frame / 4.0));  // frame 0 is the top-left cell
    return (cell + uv) * 0.25;
}

vec4 shadeParticle(vec2 uv, float t) {
    vec4 tex = texture(uSprite, spriteUv(uv, t));
    vec4 g = texture(uGradient, clamp(t, 0.0, 1.0));
    return vec4(g.rgb * tex.rgb, g.a * tex.a);
}

// Straight alpha for alpha blending, premultiplied colour for additive and premultiplied blending.
// uAlphaScale scales the light a particle adds (additive: exactly; alpha and premultiplied: its
// coverage, which saturates at 1).
vec4 blendOutput(vec4 c) {
    if (uCountOverdraw != 0) return vec4(1.0);
    float a = c.a * uAlphaScale;
    return uBlendMode == 1 ? vec4(c.rgb, min(a, 1.0)) : vec4(c.rgb * a, min(a, 1.0));
}

// Counting the fragments shaded: true (and the fragment written as 1) before any discard.
bool countShaded(out vec4 color) {
    color = vec4(1.0);
    return uCountOverdraw == 2;
}

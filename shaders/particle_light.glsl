// Lit particles (--lit vertex | pixel, for alpha and premultiplied layers: smoke): a particle's colour is
// what it reflects of the moon and the fire (fire_lights.glsl), as the scene's surfaces reflect it, and what
// it lets through of the fire's light on its far side (kSmokeTranslucency). Its
// normal is a sphere's (a puff of smoke is round, so its side towards the fire is the bright one): at sprite
// coordinate c (-1 .. 1 across the sprite, `side` = the sprite's unit axes times c) the normal leans out
// along side and towards the viewer by sqrt(1 - |side|^2). vertex: the light is computed at each vertex, at
// half its lean (a quad's corners lie outside the sphere), and interpolated; pixel: per fragment, with the
// interpolated position and side. Included after particle_common.glsl; a shader that emits vertices (vertex
// or geometry stage) defines PARTICLE_EMITS first and calls litVertex() for each vertex, the fragment shader
// multiplies its colour by particleLight().
#ifndef LIT
#define LIT 0  // Lit: 0 none, 1 vertex, 2 pixel (ParticleMaterial compiles 0 into additive layers: they emit)
#endif
#if LIT != 0
#include "fire_lights.glsl"
#endif

const float kVertexLean = 0.5;  // vertex lighting: where between the centre and the corner the normal is taken
// The share of the fire's light on a puff's far side that reaches its near side (fire_lights.glsl's
// translucency): smoke scatters mostly forwards, so a puff between the eye and the fire glows on the side the
// eye sees. 0.5: the warm underside of the explosion's smoke above its burning debris reads at 1280x720.
const float kSmokeTranslucency = 0.5;

#if LIT != 0
// The light a puff at p with normal n receives: the moon's, and the fire's from both sides.
vec3 puffLightAt(vec3 p, vec3 n) { return moonLight(n) + fireLightAt(p, n, kSmokeTranslucency); }
#endif

// The sphere's normal at `side` across a sprite facing `back`; beyond the rim, the rim's.
vec3 sphereNormal(vec3 side, vec3 back) {
    float r2 = dot(side, side);
    return normalize(r2 < 1.0 ? side + back * sqrt(1.0 - r2) : side);
}

#ifdef PARTICLE_EMITS
#if LIT == 1
out vec3 vLight;
#elif LIT == 2
out vec3 vLitPos;
out vec3 vLitSide;
flat out vec3 vLitBack;
#endif
// A vertex at world position p, `side` across a sprite facing `back`.
void litVertex(vec3 p, vec3 side, vec3 back) {
#if LIT == 1
    vLight = puffLightAt(p, sphereNormal(side * kVertexLean, back));
#elif LIT == 2
    vLitPos = p;
    vLitSide = side;
    vLitBack = back;
#endif
}
#else
#if LIT == 1
in vec3 vLight;
#elif LIT == 2
in vec3 vLitPos;
in vec3 vLitSide;
flat in vec3 vLitBack;
#endif
// What the fragment's colour is multiplied by (1 unlit), the fragment `side` across its sprite.
vec3 particleLightAt(vec3 side) {
#if LIT == 1
    return vLight;
#elif LIT == 2
    return puffLightAt(vLitPos, sphereNormal(side, vLitBack));
#else
    return vec3(1.0);
#endif
}
// The same where the vertices gave the side.
vec3 particleLight() {
#if LIT == 2
    return particleLightAt(vLitSide);
#else
    return particleLightAt(vec3(0.0));
#endif
}
// A point's fragment (points, point-sprites): its side from gl_PointCoord in the view plane (a point is a
// screen square); its position, the point's centre.
vec3 pointLight() { return particleLightAt(uCamRight * (gl_PointCoord.x * 2.0 - 1.0) + uCamUp * (1.0 - gl_PointCoord.y * 2.0)); }
#endif

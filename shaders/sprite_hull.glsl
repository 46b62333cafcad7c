// Trimmed sprites (src/render/sprite_hull.h): the vertex shaders draw a particle as its sprite's convex
// polygon, the quad or the hull of its visible texels, as a triangle strip. Included after particle_common.glsl.
// ParticleMaterial fills the block: per flipbook frame (one without the flipbook) kHullMaxVertices slots of
// which the first uHullVertices hold the polygon, counter-clockwise, in the frame's cell uv (as spriteUv() takes it).
const int kHullMaxVertices = 8;
layout(std140, binding = 0) uniform SpriteHull {
    vec2 uHullUv[16 * kHullMaxVertices];
    int uHullVertices;
};

// The polygon's vertex at strip position i: zig-zag 0, 1, k-1, 2, k-2, ... (hullStripIndex() in sprite_hull.h).
int hullStripIndex(int i) {
    return (i & 1) != 0 ? (i + 1) >> 1 : (i == 0 ? 0 : uHullVertices - (i >> 1));
}

// The uv of strip vertex i of a particle at age t: in the cell of its flipbook frame, as spriteUv() picks it.
// Its billboardCorner() is uv * 2 - 1.
vec2 hullUv(int i, float t) {
    int frame = uFlipbook == 0 ? 0 : int(clamp(floor(t * 16.0), 0.0, 15.0));
    return uHullUv[frame * kHullMaxVertices + hullStripIndex(i)];
}

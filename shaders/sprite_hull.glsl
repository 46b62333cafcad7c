// Trimmed sprites (src/render/particles/sprite_hull.h): the vertex shaders draw a particle as its sprite's convex
// polygon, the quad or the hull of its visible texels, as a triangle strip. Included after particle_common.glsl.
// ParticleMaterial fills the block: per LOD slot (trimSpriteLevels(); the last one the quad) and flipbook frame
// (one without the flipbook or with the quad) kHullMaxVertices slots of which the first uHullVertices hold the polygon,
// counter-clockwise, in the frame's cell uv (as spriteUv() takes it).
const int kHullMaxVertices = 8;
const int kHullSlots = 8;
layout(std140, binding = 0) uniform SpriteHull {
    vec4 uHullUv[kHullSlots * 16 * kHullMaxVertices / 2];  // [slot][frame][vertex], two vertices a vec4
    float uHullTexels;  // texels across a cell (its larger side)
    int uHullVertices;
    float uHullLodMargin;  // how far GL's LOD may be from the estimate (HullLod in sprite_hull.h)
    int uHullFrames;       // frames stored: 1 when every frame's polygon is the quad (render::kHullFrames at most)
};

// The polygon's vertex at strip position i: zig-zag 0, 1, k-1, 2, k-2, ... (hullStripIndex() in sprite_hull.h).
int hullStripIndex(int i) {
    return (i & 1) != 0 ? (i + 1) >> 1 : (i == 0 ? 0 : uHullVertices - (i >> 1));
}

// The LOD slot of a particle of `size` at p in this pass: its polygon encloses the mip levels that trilinear
// filtering reads for it (hullSlot() in sprite_hull.h).
int hullSlot(vec3 p, float size) {
    float w = (uViewProj * vec4(p, 1.0)).w;
    float pixels = size * uProjScale / w;
    if (!(w > 0.0 && pixels > 0.0)) return kHullSlots - 1;
    float lod = min(log2(uHullTexels / pixels), 30.0);
    if (lod + uHullLodMargin <= 0.0) return 0;  // magnified: level 0 alone
    return min(max(0, int(floor(lod - uHullLodMargin))) + 1, kHullSlots - 1);
}

// The uv of strip vertex i of a particle at age t drawn with its slot's polygon: in the cell of its flipbook
// frame, as spriteUv() picks it (with the blend, the polygon holds the next frame's texels too). Its
// billboardCorner() is uv * 2 - 1.
vec2 hullUv(int i, float t, int slot) {
    int frame = FLIPBOOK == 0 ? 0 : min(int(floor(flipbookPosition(t))), uHullFrames - 1);
    int n = (slot * 16 + frame) * kHullMaxVertices + hullStripIndex(i);
    vec4 pair = uHullUv[n >> 1];
    return (n & 1) == 0 ? pair.xy : pair.zw;
}

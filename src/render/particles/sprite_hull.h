// Trimmed sprites (Persson's particle trimming, Unreal's cutout sprites): per sprite, or per flipbook cell, a
// convex polygon of k vertices that encloses every texel the shader can show, so that a particle drawn as that
// polygon instead of its quad shades fewer fragments and looks the same. GL-free; run it once at load.
//
// What "encloses" means (the polygon is conservative for magnification and level 0 of the texture):
// - A texel is visible when its alpha > alphaThreshold. The default, kTrimAlphaThreshold, is quad.frag's discard
//   threshold (c.a < 1/512, with c.a = gradient alpha x texture alpha and gradient alpha <= 1): a sample all of
//   whose texels are at or below it is always discarded. For 8-bit alpha it counts every non-zero texel; 1/255
//   would drop the alpha-1 texels, which the shader still draws.
// - Bilinear filtering gives texel i a non-zero weight for samples less than one texel from its centre, i.e. in
//   [i - 0.5, i + 1.5] texels (the square between its neighbours' centres): the texel's own square dilated by
//   half a texel on every side. That dilated square is what must lie inside (nearest filtering needs less).
// - In an atlas a cell's border samples blend in the neighbouring cell's edge texels, so a visible texel of the
//   row or column just outside the cell counts too, as its half-texel sliver inside the cell.
// - Minified mip levels blur each texel over 2^level texels: trimSprite's polygon is level 0's. Drawn small, a
//   particle needs a polygon enclosing the levels it samples: trimSpriteLevels() and hullSlot() give them (drawn
//   with level 0's polygon, the default fire at 192 x 144 keeps only 39-42 dB of flame.png's picture).
// - An empty cell (no visible texel) gets `vertices` copies of its centre: zero area, so zero fragments, which is
//   exactly what it shows.
#pragma once
#include <glm/vec2.hpp>
#include <vector>

#include "image/image.h"

namespace firelab::render {

inline constexpr float kTrimAlphaThreshold = 1.0f / 512.0f;  // quad.frag's discard threshold

// A convex polygon in the sprite's texture coordinates (u right, v up: v = 1 is the image's top row, as
// gl::loadTexture maps it), counter-clockwise, exactly `vertices` entries (the last one repeated where the hull
// needs fewer), within [0, 1]^2.
struct SpriteHull {
    std::vector<glm::vec2> uv;
    float area() const;  // of the [0, 1]^2 quad, so also the fraction of its fragments a particle shades
};

// The whole cell, (0, 0), (1, 0), (1, 1), (0, 1), the last repeated up to `vertices`.
SpriteHull unitQuad(int vertices);

// One hull per cell of a cellsX x cellsY atlas, row-major from the top-left cell (frame 0, as
// shaders/particle_common.glsl's spriteUv() numbers them), each in the cell's own [0, 1]^2 uv.
// The visible texels' dilated squares' convex hull (monotone chain over each row's outermost texels, exact in
// half texels), kept if it has at most `vertices` vertices. Otherwise reduced: greedy edge removal (drop the edge
// whose neighbours, extended to meet outside it within [0, 1]^2, add the least area), then a local search over
// the hull's supporting lines (every half degree and its edges) that moves one side at a time while the area
// shrinks. For 4 vertices it starts from the better of the greedy 4-gon and the bounding box (the greedy removal
// often gets stuck at 5 vertices near the border), for k from the better of the greedy k-gon and the (k - 1)-gon
// with one corner cut: so more vertices never cover more area.
// O(texels + hull^2 + (720 + hull) (hull + rounds k)): a few ms for the 512 x 512 atlas. Throws Error(BadValue)
// for vertices < 4, cells that do not divide the image, or a threshold outside [0, 1).
std::vector<SpriteHull> trimSprite(const image::Image& rgba, int cellsX, int cellsY, int vertices,
                                   float alphaThreshold = kTrimAlphaThreshold);

// Minified sprites. Trilinear filtering at LOD x (log2 of texels per pixel) blends levels floor(x) and floor(x) + 1
// (level 0 alone when x <= 0), whose texels are averages: a particle drawn small needs a polygon enclosing the
// visible texels of those levels, not level 0's. nextMipLevel() is glGenerateMipmap's box filter as Mesa and common
// drivers make it (each texel the 2 x 2 average, rounded to nearest: so a faint edge that averages below half a
// step vanishes, which is why these polygons stay tight). Throws Error(BadValue) for an odd size.
image::Image nextMipLevel(const image::Image& level);
// Polygons per LOD slot: result[slot][cell]. Slot 0 is level 0 alone (trimSprite()), for magnified particles;
// slot s >= 1 encloses the `levelsPerSlot` levels from s - 1 on. Where the chain ends (a cell under 2 texels, or
// of odd size), the unit quad.
std::vector<std::vector<SpriteHull>> trimSpriteLevels(const image::Image& rgba, int cellsX, int cellsY, int vertices,
                                                      int slots, int levelsPerSlot,
                                                      float alphaThreshold = kTrimAlphaThreshold);

// How far GL's LOD may be from lod = log2(cellTexels / pixels), and so how many levels a slot encloses. A sprite
// facing the view plane is an axis-aligned rectangle at one depth: its LOD is exact (margin 0; a sample near an
// integer LOD may take a weight of order float rounding from the level beyond, which shows nothing), and it
// samples levels floor(lod) and floor(lod) + 1: two. A rotated one (velocity facing) meets GL's approximations
// of a derivative's length (up to sqrt 2 either way), one turned to the eye is foreshortened by its angle off
// the view axis: half a level either way, three levels.
struct HullLod {
    float margin = 0.0f;
    int levelsPerSlot = 2;
};
inline constexpr HullLod kExactLod{0.0f, 2}, kRotatedLod{0.5f, 3};
// The slot of a particle `pixels` wide on screen showing a cell `cellTexels` wide (its larger side): 0 when
// lod + margin <= 0 (magnified: level 0 alone), else 1 + max(0, floor(lod - margin)). Large (31) for a particle
// of no size. shaders/sprite_hull.glsl's hullSlot() is its twin.
int hullSlot(float cellTexels, float pixels, float margin);

// The polygon's vertex at position i of a triangle strip covering a convex k-gon: zig-zag between its two sides,
// 0, 1, k-1, 2, k-2, ... For the quad (0, 0), (1, 0), (1, 1), (0, 1) that is the plain quad's strip: (0, 0),
// (1, 0), (0, 1), (1, 1). shaders/sprite_hull.glsl's hullStripIndex() is its twin.
inline int hullStripIndex(int i, int k) { return (i & 1) != 0 ? (i + 1) / 2 : i == 0 ? 0 : k - i / 2; }

}  // namespace firelab::render

// Trimmed sprite polygons: against footprints computed here from scratch (each visible texel's bilinear square
// in the texture's uv, then in its cell's), on synthetic images with known hulls and on the textures firelab ships.
#include "render/particles/sprite_hull.h"

#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <functional>
#include <map>
#include <numbers>
#include <string>

#include <glm/common.hpp>
#include <glm/geometric.hpp>

#include "core/error.h"

namespace firelab::testing {
namespace {

using image::Image;
using render::SpriteHull;
using render::trimSprite;

Image mask(int w, int h, const std::function<bool(int, int)>& visible) {
    Image img(w, h);
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x) {
            uint8_t* p = img.at(x, y);
            p[0] = p[1] = p[2] = 200;  // colour everywhere: only alpha decides
            p[3] = visible(x, y) ? 255 : 0;
        }
    return img;
}

Image texture(const char* name) { return image::readPng(std::string(FIRELAB_SOURCE_DIR) + "/textures/" + name); }

struct Box {
    glm::dvec2 lo, hi;
};

// Every visible texel's footprint under bilinear filtering, in cell (cx, cy)'s uv (cells counted from the
// top-left): the texel's square widened by half a texel on every side, in the whole texture's uv with v up, then
// mapped into the cell and cut to it. Texels of other cells appear only where they reach into this one.
std::vector<Box> footprints(const Image& img, int cellsX, int cellsY, int cx, int cy, float threshold) {
    std::vector<Box> boxes;
    const double w = img.width, h = img.height;
    const double cellBottom = cellsY - 1 - cy;
    for (int y = 0; y < img.height; ++y)
        for (int x = 0; x < img.width; ++x) {
            if (!(img.at(x, y)[3] / 255.0f > threshold)) continue;
            const glm::dvec2 lo{(x - 0.5) / w, (h - y - 1.5) / h}, hi{(x + 1.5) / w, (h - y + 0.5) / h};
            const glm::dvec2 scale{cellsX, cellsY}, origin{cx, cellBottom};
            const Box b{glm::clamp(lo * scale - origin, 0.0, 1.0), glm::clamp(hi * scale - origin, 0.0, 1.0)};
            if (b.hi.x > b.lo.x && b.hi.y > b.lo.y) boxes.push_back(b);
        }
    return boxes;
}

Box bounds(const std::vector<Box>& boxes) {
    Box all{glm::dvec2(1.0), glm::dvec2(0.0)};
    for (const Box& b : boxes) all.lo = glm::min(all.lo, b.lo), all.hi = glm::max(all.hi, b.hi);
    return all;
}

double cross(glm::dvec2 a, glm::dvec2 b) { return a.x * b.y - a.y * b.x; }

// k vertices in [0, 1]^2, convex and counter-clockwise (turning left once around), enclosing every box to
// within kSlack (float rounding of the vertices); an empty set of boxes wants zero area.
::testing::AssertionResult encloses(const SpriteHull& hull, const std::vector<Box>& boxes, int k) {
    constexpr double kSlack = 1e-6;
    if (hull.uv.size() != static_cast<size_t>(k))
        return ::testing::AssertionFailure() << hull.uv.size() << " vertices, not " << k;
    for (const auto& p : hull.uv)
        if (!(p.x >= 0.0f && p.x <= 1.0f && p.y >= 0.0f && p.y <= 1.0f))
            return ::testing::AssertionFailure() << "vertex (" << p.x << ", " << p.y << ") outside [0, 1]^2";
    std::vector<glm::dvec2> v;  // the distinct vertices
    for (const auto& p : hull.uv)
        if (v.empty() || glm::dvec2(p) != v.back()) v.emplace_back(p);
    while (v.size() > 1 && v.back() == v.front()) v.pop_back();
    if (boxes.empty()) {
        if (hull.area() != 0.0f) return ::testing::AssertionFailure() << "nothing visible, yet area " << hull.area();
        return ::testing::AssertionSuccess();
    }
    if (v.size() < 3) return ::testing::AssertionFailure() << "only " << v.size() << " distinct vertices";
    double turning = 0.0;
    for (size_t i = 0; i < v.size(); ++i) {
        const glm::dvec2 e0 = v[(i + 1) % v.size()] - v[i], e1 = v[(i + 2) % v.size()] - v[(i + 1) % v.size()];
        if (cross(e0, e1) < -1e-12)
            return ::testing::AssertionFailure() << "turns right at vertex " << (i + 1) % v.size();
        turning += std::atan2(cross(e0, e1), glm::dot(e0, e1));
    }
    if (std::abs(turning - 2.0 * std::numbers::pi) > 1e-6)
        return ::testing::AssertionFailure() << "turns " << turning << " radians around, not 2 pi";
    for (const Box& b : boxes)
        for (const glm::dvec2 p : {b.lo, b.hi, glm::dvec2{b.lo.x, b.hi.y}, glm::dvec2{b.hi.x, b.lo.y}})
            for (size_t i = 0; i < v.size(); ++i) {
                const glm::dvec2 a = v[i], e = v[(i + 1) % v.size()] - a;
                if (cross(e, p - a) / glm::length(e) < -kSlack)
                    return ::testing::AssertionFailure()
                           << "footprint corner (" << p.x << ", " << p.y << ") outside the edge from vertex " << i;
            }
    return ::testing::AssertionSuccess();
}

// trimSprite's hulls for 4 and 8 vertices, each checked against the footprints; returns the areas.
struct Areas {
    std::vector<float> four, eight;
};
Areas checkAllCells(const Image& img, int cellsX, int cellsY, float threshold = render::kTrimAlphaThreshold) {
    Areas areas;
    const auto four = trimSprite(img, cellsX, cellsY, 4, threshold),
               eight = trimSprite(img, cellsX, cellsY, 8, threshold);
    EXPECT_EQ(four.size(), static_cast<size_t>(cellsX * cellsY));
    EXPECT_EQ(eight.size(), static_cast<size_t>(cellsX * cellsY));
    for (int cy = 0; cy < cellsY; ++cy)
        for (int cx = 0; cx < cellsX; ++cx) {
            const size_t i = static_cast<size_t>(cy * cellsX + cx);
            const auto boxes = footprints(img, cellsX, cellsY, cx, cy, threshold);
            EXPECT_TRUE(encloses(four[i], boxes, 4)) << "cell " << i << ", 4 vertices";
            EXPECT_TRUE(encloses(eight[i], boxes, 8)) << "cell " << i << ", 8 vertices";
            EXPECT_LE(eight[i].area(), four[i].area() + 1e-6f) << "cell " << i;
            areas.four.push_back(four[i].area());
            areas.eight.push_back(eight[i].area());
        }
    return areas;
}

float mean(const std::vector<float>& v) {
    double s = 0.0;
    for (float x : v) s += x;
    return static_cast<float>(s / static_cast<double>(v.size()));
}

TEST(SpriteHull, TheCheckerRejectsAShrunkenReversedOrShortPolygon) {
    const Image img = mask(32, 32, [](int x, int y) { return (x - 16) * (x - 16) + (y - 12) * (y - 12) < 60; });
    const auto boxes = footprints(img, 1, 1, 0, 0, render::kTrimAlphaThreshold);
    SpriteHull hull = trimSprite(img, 1, 1, 8, render::kTrimAlphaThreshold)[0];
    ASSERT_TRUE(encloses(hull, boxes, 8));
    EXPECT_FALSE(encloses(hull, boxes, 4));
    SpriteHull shrunk = hull;
    for (auto& p : shrunk.uv) p = glm::vec2(0.5f) + (p - glm::vec2(0.5f)) * 0.99f;
    EXPECT_FALSE(encloses(shrunk, boxes, 8));
    SpriteHull reversed{{hull.uv.rbegin(), hull.uv.rend()}};
    EXPECT_FALSE(encloses(reversed, boxes, 8));
}

TEST(SpriteHull, ASingleTexelIsItsBilinearSquare) {
    const Image img = mask(32, 32, [](int x, int y) { return x == 10 && y == 5; });
    // Column 10 -> u in [9.5, 11.5] / 32; image row 5 is row 26 counted from the bottom -> v in [25.5, 27.5] / 32.
    for (int k : {4, 8}) {
        const SpriteHull hull = trimSprite(img, 1, 1, k)[0];
        EXPECT_TRUE(encloses(hull, footprints(img, 1, 1, 0, 0, render::kTrimAlphaThreshold), k));
        EXPECT_FLOAT_EQ(hull.area(), (2.0f / 32.0f) * (2.0f / 32.0f)) << k << " vertices";
        for (const auto& p : hull.uv) {
            EXPECT_TRUE(p.x == 9.5f / 32.0f || p.x == 11.5f / 32.0f) << p.x;
            EXPECT_TRUE(p.y == 25.5f / 32.0f || p.y == 27.5f / 32.0f) << p.y;
        }
    }
}

TEST(SpriteHull, ASquareIsItsBilinearSquareAndACornerTexelIsCutToTheQuad) {
    const Image square = mask(64, 64, [](int x, int y) { return x >= 20 && x < 30 && y >= 5 && y < 15; });
    EXPECT_FLOAT_EQ(trimSprite(square, 1, 1, 4)[0].area(), (11.0f / 64.0f) * (11.0f / 64.0f));
    EXPECT_FLOAT_EQ(trimSprite(square, 1, 1, 8)[0].area(), (11.0f / 64.0f) * (11.0f / 64.0f));
    // Texel (0, 0) is the top-left: u in [0, 1.5] / 16, v in [14.5, 16] / 16.
    const Image corner = mask(16, 16, [](int x, int y) { return x == 0 && y == 0; });
    const SpriteHull hull = trimSprite(corner, 1, 1, 4)[0];
    EXPECT_TRUE(encloses(hull, footprints(corner, 1, 1, 0, 0, render::kTrimAlphaThreshold), 4));
    EXPECT_FLOAT_EQ(hull.area(), 1.5f / 16.0f * 1.5f / 16.0f);
}

TEST(SpriteHull, NothingVisibleIsZeroAreaAndTheThresholdIsExclusive) {
    const Image empty = mask(16, 16, [](int, int) { return false; });
    for (int k : {4, 8}) {
        const SpriteHull hull = trimSprite(empty, 1, 1, k)[0];
        EXPECT_TRUE(encloses(hull, {}, k));
        EXPECT_EQ(hull.area(), 0.0f);
    }
    Image faint = mask(16, 16, [](int x, int y) { return x == 4 && y == 4; });
    faint.at(4, 4)[3] = 3;
    EXPECT_EQ(trimSprite(faint, 1, 1, 4, 3.5f / 255.0f)[0].area(), 0.0f);
    EXPECT_GT(trimSprite(faint, 1, 1, 4, 2.5f / 255.0f)[0].area(), 0.0f);
    faint.at(4, 4)[3] = 1;  // the least alpha the shader draws (quad.frag discards below 1/512)
    EXPECT_GT(trimSprite(faint, 1, 1, 4)[0].area(), 0.0f);
}

TEST(SpriteHull, AnLShapeIsItsHullWhenThatHasFewVertices) {
    // Vertical bar x 10..19, y 10..49 and foot x 10..49, y 40..49 (image rows, 64 x 64). Dilated, its hull is the
    // box [9.5, 50.5]^2 less the 30 x 30 triangle over the inner corner: 41^2 - 450 = 1231 texels^2, 5 vertices.
    const Image l = mask(64, 64, [](int x, int y) {
        return (x >= 10 && x < 20 && y >= 10 && y < 50) || (x >= 10 && x < 50 && y >= 40 && y < 50);
    });
    const Areas areas = checkAllCells(l, 1, 1);
    EXPECT_NEAR(areas.eight[0], 1231.0 / 4096.0, 1e-6);
    EXPECT_GT(areas.four[0], areas.eight[0]);
    EXPECT_LE(areas.four[0], 41.0 * 41.0 / 4096.0 + 1e-6);  // never worse than the bounding box
}

TEST(SpriteHull, ATrianglesPolygonsAreNearlyTheTriangle) {
    // The texel centres inside the triangle (10, 10), (100, 30), (40, 110), in image coordinates: a shape whose
    // best quadrilateral is nearly degenerate, so that a side must stop short of turning 180 degrees.
    const glm::dvec2 a{10.0, 10.0}, b{100.0, 30.0}, c{40.0, 110.0};
    const Image triangle = mask(128, 128, [&](int x, int y) {
        const glm::dvec2 p{x + 0.5, y + 0.5};
        return cross(b - a, p - a) >= 0.0 && cross(c - b, p - b) >= 0.0 && cross(a - c, p - c) >= 0.0;
    });
    const Areas areas = checkAllCells(triangle, 1, 1);
    const double inside = 0.5 * cross(b - a, c - a) / (128.0 * 128.0);
    std::printf("triangle of area %.4f: 4 vertices %.4f, 8 vertices %.4f\n", inside, static_cast<double>(areas.four[0]),
                static_cast<double>(areas.eight[0]));
    EXPECT_LE(areas.four[0], inside * 1.12);  // the dilation adds 0.5 to 1 texel around 300: 4 to 7%; it measures 8.7%
}

TEST(SpriteHull, ADisksOctagonIsNearTheOptimalOne) {
    // Texel centres within 40 texels of the centre c of a 128 x 128 image, dilated. Measured about c, the set's
    // support h(theta) runs from rIn to rOut (about 40.5 and 41.3 texels). It holds the disk of radius rIn, and
    // no octagon around that disk is smaller than the regular one, 8 r^2 tan(pi / 8); the regular octagon of
    // apothem rOut encloses the set. The least octagon lies between those two (4% apart); the trimmed one may be
    // 2% above the lower (it measures 1.2%). h is sampled every 0.1 degree, which overstates rIn by < 0.01%.
    const Image disk = mask(128, 128, [](int x, int y) {
        return (x + 0.5 - 64.0) * (x + 0.5 - 64.0) + (y + 0.5 - 64.0) * (y + 0.5 - 64.0) <= 40.0 * 40.0;
    });
    const Areas areas = checkAllCells(disk, 1, 1);
    const auto boxes = footprints(disk, 1, 1, 0, 0, render::kTrimAlphaThreshold);
    std::map<double, Box> rows;  // per row of footprints (by its bottom), the span of its outermost ones
    for (const Box& b : boxes) {
        const auto [it, fresh] = rows.try_emplace(b.lo.y, b);
        it->second.lo.x = std::min(it->second.lo.x, b.lo.x), it->second.hi.x = std::max(it->second.hi.x, b.hi.x);
    }
    std::vector<glm::dvec2> extremes;  // all that the support function needs
    for (const auto& [bottom, b] : rows)
        extremes.insert(extremes.end(), {b.lo, b.hi, {b.lo.x, b.hi.y}, {b.hi.x, b.lo.y}});
    double rIn = 1.0, rOut = 0.0;
    for (int i = 0; i < 3600; ++i) {
        const double t = 2.0 * std::numbers::pi * i / 3600.0;
        const glm::dvec2 n{std::cos(t), std::sin(t)};
        double h = 0.0;
        for (const auto& p : extremes) h = std::max(h, glm::dot(n, p - glm::dvec2(0.5)));
        rIn = std::min(rIn, h), rOut = std::max(rOut, h);
    }
    const double k = 8.0 * std::tan(std::numbers::pi / 8.0), lower = k * rIn * rIn, upper = k * rOut * rOut;
    std::printf(
        "disk of radius 40 texels: rIn %.3f, rOut %.3f texels; 8-gon area %.5f (x%.4f of the lower bound), "
        "optimal in [%.5f, %.5f]\n",
        rIn * 128.0, rOut * 128.0, static_cast<double>(areas.eight[0]), areas.eight[0] / lower, lower, upper);
    EXPECT_GE(areas.eight[0], lower * (1.0 - 1e-4));
    EXPECT_LE(areas.eight[0], lower * 1.02);
    const Box box = bounds(boxes);  // a disk's best quadrilateral is its bounding square
    EXPECT_LE(areas.four[0], (box.hi.x - box.lo.x) * (box.hi.y - box.lo.y) + 1e-6);
}

TEST(SpriteHull, AnAtlasCellIncludesWhatItsNeighboursBleedIn) {
    // 2 x 1 cells of 8 x 8: a texel in the left cell's last column (x = 7) reaches half a texel into the right
    // cell (its u in [0, 0.5 / 8]); row 3 from the top is row 4 from the bottom: v in [3.5, 5.5] / 8.
    const Image img = mask(16, 8, [](int x, int y) { return x == 7 && y == 3; });
    const auto hulls = trimSprite(img, 2, 1, 4);
    EXPECT_FLOAT_EQ(hulls[0].area(), 1.5f / 8.0f * 2.0f / 8.0f);
    EXPECT_FLOAT_EQ(hulls[1].area(), 0.5f / 8.0f * 2.0f / 8.0f);
    checkAllCells(img, 2, 1);
    // Cells row-major from the top-left: only the bottom-right cell of 2 x 2 has a texel (and nothing reaches out).
    const Image quadrant = mask(16, 16, [](int x, int y) { return x == 12 && y == 12; });
    const Areas areas = checkAllCells(quadrant, 2, 2);
    EXPECT_EQ(areas.four[0] + areas.four[1] + areas.four[2], 0.0f);
    EXPECT_GT(areas.four[3], 0.0f);
}

TEST(SpriteHull, FlameSpriteLosesAtLeastHalfItsQuadWithEightVertices) {
    const Image flame = texture("flame.png");
    const Areas areas = checkAllCells(flame, 1, 1);
    const auto boxes = footprints(flame, 1, 1, 0, 0, render::kTrimAlphaThreshold);
    const Box box = bounds(boxes);
    const double boxArea = (box.hi.x - box.lo.x) * (box.hi.y - box.lo.y);
    std::printf(
        "flame.png trimmed (fraction of the quad): 4 vertices %.4f, 8 vertices %.4f; bounding box %.4f, "
        "convex hull %.4f, visible texels (undilated) %.4f\n",
        static_cast<double>(areas.four[0]), static_cast<double>(areas.eight[0]), boxArea,
        static_cast<double>(trimSprite(flame, 1, 1, 4096)[0].area()),
        static_cast<double>(boxes.size()) / (128.0 * 128.0));
    EXPECT_LE(areas.eight[0], 0.5f);
    EXPECT_LE(areas.four[0], 0.9 * boxArea);  // a teardrop: its best quadrilateral is well inside its box
    for (float threshold : {1.0f / 255.0f, 4.0f / 255.0f, 16.0f / 255.0f}) {
        const float a4 = trimSprite(flame, 1, 1, 4, threshold)[0].area();
        const float a8 = trimSprite(flame, 1, 1, 8, threshold)[0].area();
        std::printf("  threshold %2.0f/255: 4 vertices %.4f, 8 vertices %.4f\n",
                    static_cast<double>(threshold * 255.0f), static_cast<double>(a4), static_cast<double>(a8));
    }
}

TEST(SpriteHull, EveryFlipbookCellIsEnclosed) {
    const Image atlas = texture("flame_atlas.png");
    const auto start = std::chrono::steady_clock::now();
    for (int k : {4, 8}) trimSprite(atlas, 4, 4, k);
    const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    const Areas areas = checkAllCells(atlas, 4, 4);
    std::printf(
        "flame_atlas.png trimmed (4 and 8 vertices in %.1f ms), mean of 16 cells (fraction of a cell): "
        "4 vertices %.4f, 8 vertices %.4f\n",
        ms, static_cast<double>(mean(areas.four)), static_cast<double>(mean(areas.eight)));
    for (size_t i = 0; i < areas.four.size(); ++i)
        std::printf("  frame %2zu: 4 vertices %.4f, 8 vertices %.4f\n", i, static_cast<double>(areas.four[i]),
                    static_cast<double>(areas.eight[i]));
}

TEST(SpriteHull, TheOtherSpritesAreEnclosed) {
    for (const char* name : {"smoke.png", "spark.png"}) {
        const Areas areas = checkAllCells(texture(name), 1, 1);
        std::printf("%s trimmed: 4 vertices %.4f, 8 vertices %.4f\n", name, static_cast<double>(areas.four[0]),
                    static_cast<double>(areas.eight[0]));
    }
}

TEST(SpriteHull, AMipLevelIsTheRoundedBoxAverage) {
    Image img(4, 2);
    const uint8_t alpha[2][4] = {{1, 0, 1, 1}, {0, 0, 0, 0}};  // 2 x 2 blocks summing to 1 and 2
    for (int y = 0; y < 2; ++y)
        for (int x = 0; x < 4; ++x) img.at(x, y)[3] = alpha[y][x], img.at(x, y)[0] = 255;
    const Image next = render::nextMipLevel(img);
    ASSERT_EQ(next.width, 2);
    ASSERT_EQ(next.height, 1);
    EXPECT_EQ(next.at(0, 0)[3], 0);  // 0.25 rounds away: a faint edge vanishes
    EXPECT_EQ(next.at(1, 0)[3], 1);  // 0.5 rounds up
    EXPECT_EQ(next.at(0, 0)[0], 255);
    try {
        render::nextMipLevel(Image(3, 2));
        ADD_FAILURE() << "an odd width halved";
    } catch (const Error& e) {
        EXPECT_EQ(e.code(), ErrorCode::BadValue);
    }
}

// Slot 0 is trimSprite's; slot s >= 1 encloses the footprints of levels s - 1 .. s - 2 + levelsPerSlot (each
// level's texels in the cell's uv, so levels compare directly), the quad where the chain ends. Coarser slots
// cover more, down to the quad.
TEST(SpriteHull, EachLodSlotEnclosesItsLevels) {
    struct Sprite {
        const char* name;
        int cells;
    };
    for (const Sprite sprite : {Sprite{"flame.png", 1}, Sprite{"flame_atlas.png", 4}}) {
        const Image img = texture(sprite.name);
        std::vector<Image> mips{img};
        while (mips.back().width / sprite.cells >= 2) mips.push_back(render::nextMipLevel(mips.back()));
        for (int levelsPerSlot : {2, 3})
            for (int k : {4, 8}) {
                const auto slots = render::trimSpriteLevels(img, sprite.cells, sprite.cells, k, 7, levelsPerSlot);
                ASSERT_EQ(slots.size(), 7u);
                std::printf("%s, %d levels a slot, %d vertices: mean area per slot", sprite.name, levelsPerSlot, k);
                for (size_t s = 0; s < slots.size(); ++s) {
                    std::vector<float> areas;
                    for (int cy = 0; cy < sprite.cells; ++cy)
                        for (int cx = 0; cx < sprite.cells; ++cx) {
                            const auto& hull = slots[s][static_cast<size_t>(cy * sprite.cells + cx)];
                            areas.push_back(hull.area());
                            const size_t first = s == 0 ? 0 : s - 1,
                                         last = s == 0 ? 0 : s - 2 + static_cast<size_t>(levelsPerSlot);
                            if (last >= mips.size() || mips[last].width / sprite.cells < 2) {  // past the chain
                                EXPECT_EQ(hull.area(), 1.0f) << "slot " << s;
                                continue;
                            }
                            std::vector<Box> boxes;
                            for (size_t l = first; l <= last; ++l) {
                                const auto b = footprints(mips[l], sprite.cells, sprite.cells, cx, cy,
                                                          render::kTrimAlphaThreshold);
                                boxes.insert(boxes.end(), b.begin(), b.end());
                            }
                            EXPECT_TRUE(encloses(hull, boxes, k)) << sprite.name << " slot " << s << " cell " << cx
                                                                  << ", " << cy << ", " << k << " vertices";
                        }
                    std::printf(" %.3f", static_cast<double>(mean(areas)));
                }
                std::printf("\n");
                const auto level0 = trimSprite(img, sprite.cells, sprite.cells, k);
                EXPECT_EQ(slots[0][0].uv, level0[0].uv);
            }
    }
}

TEST(SpriteHull, TheLodSlotHoldsTheLevelsTrilinearFilteringReads) {
    // GL samples level 0 alone at LOD <= 0, else floor(lod) and floor(lod) + 1; its LOD is the estimate within
    // the margin. Every LOD in [-3, 9] every 1/64 (integers included), and every deviation within the margin.
    for (const render::HullLod lod : {render::kExactLod, render::kRotatedLod}) {
        for (int i = -192; i <= 576; ++i) {
            const float estimate = static_cast<float>(i) / 64.0f;
            const int slot = render::hullSlot(128.0f, 128.0f / std::exp2(estimate), lod.margin);
            const int first = slot == 0 ? 0 : slot - 1, last = slot == 0 ? 0 : slot - 2 + lod.levelsPerSlot;
            for (float d = -lod.margin; d <= lod.margin; d += 1.0f / 16.0f) {
                const float gl = estimate + d;
                const int lo = gl <= 0.0f ? 0 : static_cast<int>(std::floor(gl)), hi = gl <= 0.0f ? 0 : lo + 1;
                EXPECT_TRUE(first <= lo && hi <= last)
                    << "LOD " << gl << " (estimated " << estimate << ", margin " << lod.margin << ") reads levels "
                    << lo << ".." << hi << ", slot " << slot << " holds " << first << ".." << last;
            }
        }
    }
    EXPECT_EQ(render::hullSlot(128.0f, 256.0f, 0.0f), 0);  // magnified
    EXPECT_EQ(render::hullSlot(128.0f, 64.0f, 0.0f), 2);   // LOD 1: levels 1 and 2
    EXPECT_EQ(render::hullSlot(128.0f, 128.0f, 0.5f), 1);  // LOD 0 +- 0.5: levels 0 .. 1 (slot 1 holds 0 .. 2)
    EXPECT_EQ(render::hullSlot(128.0f, 0.0f, 0.0f), 31);   // no size: the coarsest
}

TEST(SpriteHull, BadArgumentsAreBadValues) {
    const Image img = mask(16, 16, [](int, int) { return true; });
    auto code = [&](int cellsX, int cellsY, int k, float threshold) {
        try {
            trimSprite(img, cellsX, cellsY, k, threshold);
        } catch (const Error& e) {
            return e.code();
        }
        return ErrorCode::Io;  // stands for "no error"
    };
    EXPECT_EQ(code(1, 1, 3, 0.0f), ErrorCode::BadValue);
    EXPECT_EQ(code(3, 1, 4, 0.0f), ErrorCode::BadValue);
    EXPECT_EQ(code(0, 1, 4, 0.0f), ErrorCode::BadValue);
    EXPECT_EQ(code(32, 1, 4, 0.0f), ErrorCode::BadValue);
    EXPECT_EQ(code(1, 1, 4, 1.0f), ErrorCode::BadValue);
    EXPECT_EQ(code(1, 1, 4, std::nanf("")), ErrorCode::BadValue);
    EXPECT_EQ(code(4, 4, 4, 0.0f), ErrorCode::Io);
    EXPECT_EQ(trimSprite(img, 1, 1, 6)[0].area(), 1.0f);  // everything visible: the whole quad
}

}  // namespace
}  // namespace firelab::testing

#include "render/particles/sprite_hull.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <numbers>
#include <span>
#include <string>

#include <glm/common.hpp>
#include <glm/geometric.hpp>

#include "core/error.h"

namespace firelab::render {
namespace {

// The hull is built exactly, on integers: a cell's coordinates in half texels (0 .. 2 x cell size).
struct GridPoint {
    int64_t x, y;
};

int64_t cross(GridPoint o, GridPoint a, GridPoint b) { return (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x); }
double cross(glm::dvec2 a, glm::dvec2 b) { return a.x * b.y - a.y * b.x; }

// Andrew's monotone chain: counter-clockwise, no collinear vertices.
std::vector<GridPoint> convexHull(std::vector<GridPoint> p) {
    std::sort(p.begin(), p.end(), [](GridPoint a, GridPoint b) { return a.x != b.x ? a.x < b.x : a.y < b.y; });
    p.erase(std::unique(p.begin(), p.end(), [](GridPoint a, GridPoint b) { return a.x == b.x && a.y == b.y; }),
            p.end());
    if (p.size() < 3) return p;
    std::vector<GridPoint> h(2 * p.size());
    size_t k = 0;
    for (size_t i = 0; i < p.size(); ++i) {  // lower chain
        while (k >= 2 && cross(h[k - 2], h[k - 1], p[i]) <= 0) --k;
        h[k++] = p[i];
    }
    for (size_t i = p.size() - 1, lower = k + 1; i-- > 0;) {  // upper chain
        while (k >= lower && cross(h[k - 2], h[k - 1], p[i]) <= 0) --k;
        h[k++] = p[i];
    }
    h.resize(k - 1);  // the last point is the first
    return h;
}

double polygonArea(const std::vector<glm::dvec2>& p) {
    double a = 0.0;
    for (size_t i = 0; i < p.size(); ++i) a += cross(p[i], p[(i + 1) % p.size()]);
    return 0.5 * a;
}

// Greedy edge removal: each step drops the edge b-c whose neighbours a-b and c-d, extended, meet at the point
// adding the least area, where they meet beyond it (the turn from a-b to c-d is under 180 degrees) and inside
// [0, 1]^2. False if no such edge remains before `k` vertices.
bool reduceTo(std::vector<glm::dvec2>& poly, size_t k) {
    constexpr double kSlack = 1e-9;  // rounding of an intersection on the border of [0, 1]^2
    while (poly.size() > k) {
        const size_t n = poly.size();
        size_t best = n;
        double bestArea = std::numeric_limits<double>::infinity();
        glm::dvec2 bestPoint{};
        for (size_t i = 0; i < n; ++i) {
            const glm::dvec2 a = poly[(i + n - 1) % n], b = poly[i], c = poly[(i + 1) % n], d = poly[(i + 2) % n];
            const glm::dvec2 d1 = b - a, d2 = d - c;
            const double den = cross(d1, d2);
            if (den <= 1e-12 * std::sqrt(glm::dot(d1, d1) * glm::dot(d2, d2))) continue;  // parallel or diverging
            const glm::dvec2 x = b + d1 * (cross(c - b, d2) / den);
            if (x.x < -kSlack || x.x > 1.0 + kSlack || x.y < -kSlack || x.y > 1.0 + kSlack) continue;
            const double added = 0.5 * std::abs(cross(c - b, x - b));
            if (added < bestArea) bestArea = added, best = i, bestPoint = glm::clamp(x, 0.0, 1.0);
        }
        if (best == n) return false;
        poly[best] = bestPoint;  // replaces b; c goes
        poly.erase(poly.begin() + static_cast<std::ptrdiff_t>((best + 1) % n));
    }
    return true;
}

std::vector<glm::dvec2> boundingBox(const std::vector<glm::dvec2>& poly) {
    glm::dvec2 lo = poly[0], hi = poly[0];
    for (const auto& p : poly) lo = glm::min(lo, p), hi = glm::max(hi, p);
    return {lo, {hi.x, lo.y}, hi, {lo.x, hi.y}};
}

// Local search: a convex polygon around the hull is a cycle of its supporting lines (sides), by outward normal
// angle, each turn under 180 degrees. The candidates are every half degree and the hull's own edges.
struct Line {
    double angle;
    glm::dvec2 normal;
    double offset;  // normal . p <= offset on the hull
};
using Sides = std::vector<size_t>;  // indices into the candidate lines, increasing around the turn

constexpr int kGridAngles = 720;
constexpr double kTwoPi = 2.0 * std::numbers::pi;

std::vector<Line> supportingLines(const std::vector<glm::dvec2>& hull) {
    std::vector<double> angles;
    for (int i = 0; i < kGridAngles; ++i) angles.push_back(kTwoPi * i / kGridAngles);
    for (size_t i = 0; i < hull.size(); ++i) {
        const glm::dvec2 e = hull[(i + 1) % hull.size()] - hull[i];
        const double a = std::atan2(-e.x, e.y);  // the outward normal (e.y, -e.x) of a counter-clockwise edge
        angles.push_back(a < 0.0 ? a + kTwoPi : a);
    }
    std::sort(angles.begin(), angles.end());
    angles.erase(std::unique(angles.begin(), angles.end()), angles.end());
    std::vector<Line> lines;
    for (double a : angles) {
        const glm::dvec2 n{std::cos(a), std::sin(a)};
        double offset = -std::numeric_limits<double>::infinity();
        for (const auto& p : hull) offset = std::max(offset, glm::dot(n, p));
        lines.push_back({a, n, offset});
    }
    return lines;
}

// The corner where side a turns into side b: false unless the turn is under 180 degrees and inside [0, 1]^2.
bool corner(const std::vector<Line>& lines, size_t a, size_t b, glm::dvec2& p) {
    constexpr double kSlack = 1e-9;
    const Line &la = lines[a], &lb = lines[b];
    const double det = cross(la.normal, lb.normal);  // sin of the turn
    double turn = lb.angle - la.angle;
    if (turn < 0.0) turn += kTwoPi;
    if (turn <= 0.0 || turn >= std::numbers::pi - 1e-9 || det <= 1e-12) return false;
    p = {(la.offset * lb.normal.y - la.normal.y * lb.offset) / det,
         (la.normal.x * lb.offset - la.offset * lb.normal.x) / det};
    return p.x >= -kSlack && p.x <= 1.0 + kSlack && p.y >= -kSlack && p.y <= 1.0 + kSlack;
}

bool cornersOf(const std::vector<Line>& lines, const Sides& s, std::vector<glm::dvec2>& v) {
    v.resize(s.size());
    for (size_t j = 0; j < s.size(); ++j)
        if (!corner(lines, s[j], s[(j + 1) % s.size()], v[j])) return false;
    return true;
}

// The candidate sides nearest a polygon's edges (exactly its edges where they are the hull's own).
Sides sidesOf(const std::vector<Line>& lines, const std::vector<glm::dvec2>& poly) {
    Sides s;
    for (size_t i = 0; i < poly.size(); ++i) {
        const glm::dvec2 e = poly[(i + 1) % poly.size()] - poly[i];
        double a = std::atan2(-e.x, e.y);
        if (a < 0.0) a += kTwoPi;
        const auto it =
            std::lower_bound(lines.begin(), lines.end(), a, [](const Line& l, double x) { return l.angle < x; });
        size_t j = static_cast<size_t>(it - lines.begin()) % lines.size();
        const size_t before = (j + lines.size() - 1) % lines.size();
        auto dist = [&](size_t k) {
            return std::min(std::abs(lines[k].angle - a), kTwoPi - std::abs(lines[k].angle - a));
        };
        s.push_back(dist(before) < dist(j) ? before : j);
    }
    std::sort(s.begin(), s.end());
    s.erase(std::unique(s.begin(), s.end()), s.end());
    return s;
}

// Moves one side at a time to the candidate between its neighbours that leaves the least area, until none does.
void refine(const std::vector<Line>& lines, Sides& s, std::vector<glm::dvec2>& v) {
    const size_t m = s.size(), n = lines.size();
    for (int round = 0; round < 100; ++round) {
        bool moved = false;
        for (size_t j = 0; j < m; ++j) {
            const size_t prev = s[(j + m - 1) % m], next = s[(j + 1) % m];
            const glm::dvec2 before = v[(j + m - 2) % m], after = v[(j + 1) % m];
            // Twice the area the two corners of side j contribute (the shoelace terms that move with it).
            const double current =
                cross(before, v[(j + m - 1) % m]) + cross(v[(j + m - 1) % m], v[j]) + cross(v[j], after);
            double best = current - 1e-14;
            size_t bestSide = n;
            glm::dvec2 bestA{}, bestB{};
            for (size_t c = (prev + 1) % n; c != next; c = (c + 1) % n) {
                glm::dvec2 a, b;
                if (!corner(lines, prev, c, a) || !corner(lines, c, next, b)) continue;
                const double terms = cross(before, a) + cross(a, b) + cross(b, after);
                if (terms < best) best = terms, bestSide = c, bestA = a, bestB = b;
            }
            if (bestSide == n) continue;
            s[j] = bestSide, v[(j + m - 1) % m] = bestA, v[j] = bestB, moved = true;
        }
        if (!moved) return;
    }
}

// Cuts the corner whose cut removes the most area with one more side; false if none removes any.
bool addSide(const std::vector<Line>& lines, Sides& s, std::vector<glm::dvec2>& v) {
    const size_t m = s.size(), n = lines.size();
    double bestGain = 1e-14;
    size_t bestJ = m, bestSide = n;
    for (size_t j = 0; j < m; ++j) {
        const glm::dvec2 before = v[(j + m - 1) % m], after = v[(j + 1) % m];
        const double current = cross(before, v[j]) + cross(v[j], after);
        for (size_t c = (s[j] + 1) % n; c != s[(j + 1) % m]; c = (c + 1) % n) {
            glm::dvec2 a, b;
            if (!corner(lines, s[j], c, a) || !corner(lines, c, s[(j + 1) % m], b)) continue;
            const double gain = current - (cross(before, a) + cross(a, b) + cross(b, after));
            if (gain > bestGain) bestGain = gain, bestJ = j, bestSide = c;
        }
    }
    if (bestJ == m) return false;
    glm::dvec2 a, b;  // the corner v[bestJ] becomes these two
    corner(lines, s[bestJ], bestSide, a), corner(lines, bestSide, s[(bestJ + 1) % m], b);
    s.insert(s.begin() + static_cast<std::ptrdiff_t>(bestJ + 1), bestSide);
    v[bestJ] = a;
    v.insert(v.begin() + static_cast<std::ptrdiff_t>(bestJ + 1), b);
    return true;
}

// The hull (more than k vertices) as a k-gon: the greedy removal's j-gons for j = k .. 4, as far as it gets; then
// from 4 sides up to k, the best of the greedy j-gon and the (j - 1)-gon before it with one corner cut (at first
// the bounding box), refined. Each j starts from the (j - 1)-gon, so more vertices never cover more area.
std::vector<glm::dvec2> fewerVertices(const std::vector<glm::dvec2>& hull, size_t k) {
    std::vector<std::vector<glm::dvec2>> greedy(k + 1);
    std::vector<glm::dvec2> g = hull;
    for (size_t j = k; j >= 4 && reduceTo(g, j); --j) greedy[j] = g;
    const std::vector<Line> lines = supportingLines(hull);
    std::vector<glm::dvec2> v;
    Sides best = sidesOf(lines, boundingBox(hull));
    if (best.size() != 4 || !cornersOf(lines, best, v)) return boundingBox(hull);  // a rounding safety net
    for (size_t j = 4; j <= k; ++j) {
        if (j > 4) addSide(lines, best, v);
        std::vector<glm::dvec2> gv;
        if (!greedy[j].empty()) {
            const Sides gs = sidesOf(lines, greedy[j]);
            if (gs.size() == j && cornersOf(lines, gs, gv) && polygonArea(gv) < polygonArea(v)) best = gs, v = gv;
        }
        refine(lines, best, v);
    }
    for (auto& p : v) p = glm::clamp(p, 0.0, 1.0);
    return v;
}

// The visible texels' dilated squares, clamped to the cell: per row only the outermost two matter to the hull.
// (cx, cy) counts cells from the top-left; the ring of texels just outside the cell bleeds in through filtering.
std::vector<GridPoint> dilatedCorners(const image::Image& img, int cx, int cy, int cw, int ch, float threshold) {
    const double cutoff = static_cast<double>(threshold) * 255.0;
    const int x0 = std::max(0, cx * cw - 1), x1 = std::min(img.width - 1, (cx + 1) * cw);
    const int y0 = std::max(0, cy * ch - 1), y1 = std::min(img.height - 1, (cy + 1) * ch);
    std::vector<GridPoint> corners;
    for (int y = y0; y <= y1; ++y) {
        int left = -1, right = -1;
        for (int x = x0; x <= x1; ++x)
            if (static_cast<double>(img.at(x, y)[3]) > cutoff) {
                if (left < 0) left = x;
                right = x;
            }
        if (left < 0) continue;
        // Row y of the image is row ch - 1 - (y - cy * ch) of the cell counted upwards, as v runs.
        const int64_t row = ch - 1 - (y - cy * ch);
        const int64_t bottom = std::clamp<int64_t>(2 * row - 1, 0, 2 * ch),
                      top = std::clamp<int64_t>(2 * row + 3, 0, 2 * ch);
        const int64_t l = std::clamp<int64_t>(2 * (left - cx * cw) - 1, 0, 2 * cw);
        const int64_t r = std::clamp<int64_t>(2 * (right - cx * cw) + 3, 0, 2 * cw);
        corners.insert(corners.end(), {{l, bottom}, {l, top}, {r, bottom}, {r, top}});
    }
    return corners;
}

// The hull of the visible texels' dilated squares over `levels` (mip levels, finest first, each halving the one
// before), on the finest level's half-texel grid: a coarser level's corners scale by 2^l.
SpriteHull trimCell(std::span<const image::Image> levels, int cx, int cy, int cellsX, int cellsY, int vertices,
                    float threshold) {
    const auto k = static_cast<size_t>(vertices);
    const int cw = levels[0].width / cellsX, ch = levels[0].height / cellsY;
    std::vector<GridPoint> corners;
    for (size_t l = 0; l < levels.size(); ++l) {
        const auto scale = int64_t{1} << l;
        for (const GridPoint& p : dilatedCorners(levels[l], cx, cy, cw >> l, ch >> l, threshold))
            corners.push_back({p.x * scale, p.y * scale});
    }
    const std::vector<GridPoint> hull = convexHull(std::move(corners));
    if (hull.empty()) return {std::vector<glm::vec2>(k, glm::vec2(0.5f))};
    std::vector<glm::dvec2> poly;
    for (const GridPoint& p : hull)
        poly.emplace_back(static_cast<double>(p.x) / (2.0 * cw), static_cast<double>(p.y) / (2.0 * ch));
    if (poly.size() > k) poly = fewerVertices(poly, k);
    SpriteHull out;
    for (const auto& p : poly) out.uv.emplace_back(p);
    out.uv.resize(k, out.uv.back());
    return out;
}

}  // namespace

SpriteHull unitQuad(int vertices) {
    SpriteHull quad{{{0.0f, 0.0f}, {1.0f, 0.0f}, {1.0f, 1.0f}, {0.0f, 1.0f}}};
    quad.uv.resize(static_cast<size_t>(std::max(vertices, 4)), quad.uv.back());
    return quad;
}

float SpriteHull::area() const {
    double a = 0.0;
    for (size_t i = 0; i < uv.size(); ++i) a += cross(glm::dvec2(uv[i]), glm::dvec2(uv[(i + 1) % uv.size()]));
    return static_cast<float>(0.5 * a);
}

image::Image nextMipLevel(const image::Image& level) {
    if (level.width % 2 != 0 || level.height % 2 != 0)
        throw Error(ErrorCode::BadValue, "a " + std::to_string(level.width) + "x" + std::to_string(level.height) +
                                             " level does not halve evenly");
    image::Image next(level.width / 2, level.height / 2);
    for (int y = 0; y < next.height; ++y)
        for (int x = 0; x < next.width; ++x)
            for (int c = 0; c < 4; ++c) {
                const int sum = level.at(2 * x, 2 * y)[c] + level.at(2 * x + 1, 2 * y)[c] +
                                level.at(2 * x, 2 * y + 1)[c] + level.at(2 * x + 1, 2 * y + 1)[c];
                next.at(x, y)[c] = static_cast<uint8_t>((sum + 2) / 4);  // to nearest, halves up
            }
    return next;
}

std::vector<std::vector<SpriteHull>> trimSpriteLevels(const image::Image& rgba, int cellsX, int cellsY, int vertices,
                                                      int slots, int levelsPerSlot, float alphaThreshold) {
    if (slots < 1 || levelsPerSlot < 1)
        throw Error(ErrorCode::BadValue, "trimSpriteLevels needs a slot and a level per slot");
    std::vector<std::vector<SpriteHull>> out{trimSprite(rgba, cellsX, cellsY, vertices, alphaThreshold)};
    // The chain the slots need, while the next level's cells are whole and at least 2 texels wide.
    const auto levels = static_cast<size_t>(levelsPerSlot);
    std::vector<image::Image> mips{rgba};
    for (int cw = rgba.width / cellsX, ch = rgba.height / cellsY;
         mips.size() + 2 < static_cast<size_t>(slots) + levels && cw % 2 == 0 && ch % 2 == 0 && cw >= 4 && ch >= 4;
         cw /= 2, ch /= 2)
        mips.push_back(nextMipLevel(mips.back()));
    for (size_t s = 1; s < static_cast<size_t>(slots); ++s) {
        if (s - 1 + levels > mips.size()) {
            out.emplace_back(static_cast<size_t>(cellsX * cellsY), unitQuad(vertices));
            continue;
        }
        std::vector<SpriteHull> hulls;
        for (int cy = 0; cy < cellsY; ++cy)
            for (int cx = 0; cx < cellsX; ++cx)
                hulls.push_back(trimCell({&mips[s - 1], levels}, cx, cy, cellsX, cellsY, vertices, alphaThreshold));
        out.push_back(std::move(hulls));
    }
    return out;
}

int hullSlot(float cellTexels, float pixels, float margin) {
    if (!(pixels > 0.0f)) return 31;
    const float lod = std::min(std::log2(cellTexels / pixels), 30.0f);
    if (lod + margin <= 0.0f) return 0;  // magnified: level 0 alone
    return std::max(0, static_cast<int>(std::floor(lod - margin))) + 1;
}

std::vector<SpriteHull> trimSprite(const image::Image& rgba, int cellsX, int cellsY, int vertices,
                                   float alphaThreshold) {
    if (vertices < 4)
        throw Error(ErrorCode::BadValue, "a trimmed sprite needs at least 4 vertices, not " + std::to_string(vertices));
    if (cellsX < 1 || cellsY < 1 || rgba.width < cellsX || rgba.height < cellsY || rgba.width % cellsX != 0 ||
        rgba.height % cellsY != 0)
        throw Error(ErrorCode::BadValue, "a " + std::to_string(rgba.width) + "x" + std::to_string(rgba.height) +
                                             " image does not split into " + std::to_string(cellsX) + "x" +
                                             std::to_string(cellsY) + " equal cells");
    if (!(alphaThreshold >= 0.0f && alphaThreshold < 1.0f))
        throw Error(ErrorCode::BadValue, "alpha threshold must be in [0, 1), not " + std::to_string(alphaThreshold));
    std::vector<SpriteHull> hulls;
    for (int cy = 0; cy < cellsY; ++cy)
        for (int cx = 0; cx < cellsX; ++cx)
            hulls.push_back(trimCell({&rgba, 1}, cx, cy, cellsX, cellsY, vertices, alphaThreshold));
    return hulls;
}

}  // namespace firelab::render

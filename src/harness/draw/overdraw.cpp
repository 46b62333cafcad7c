#include "harness/draw/overdraw.h"

#include <epoxy/gl.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "render/gl/frame_target.h"

namespace firelab::harness {

Overdraw overdrawStats(int width, int height, std::vector<float> counts) {
    Overdraw o;
    o.width = width, o.height = height;
    double sum = 0.0;
    size_t covered = 0;
    for (float c : counts) {
        if (c <= 0.0f) continue;
        ++covered;
        sum += c;
        o.max = std::max(o.max, static_cast<double>(c));
    }
    o.mean = covered ? sum / static_cast<double>(covered) : 0.0;
    o.total = sum;
    o.coveredFraction = counts.empty() ? 0.0 : static_cast<double>(covered) / static_cast<double>(counts.size());
    o.counts = std::move(counts);
    return o;
}

Overdraw measureOverdraw(render::FramePipeline& pipeline, const render::Scene& scene,
                         std::span<render::RenderStrategy* const> layers, const render::Camera& camera,
                         render::DrawMode mode) {
    render::PassCounts counts = pipeline.count(scene, layers, camera, mode);
    const int w = camera.viewportWidth, h = camera.viewportHeight;
    std::vector<float> map(static_cast<size_t>(w) * static_cast<size_t>(h));
    for (int y = 0; y < h; ++y) {  // nearest: the pass pixel under each frame pixel
        const size_t sy = static_cast<size_t>(std::min(counts.height - 1, y * counts.height / h));
        for (int x = 0; x < w; ++x) {
            const size_t sx = static_cast<size_t>(std::min(counts.width - 1, x * counts.width / w));
            map[static_cast<size_t>(y) * static_cast<size_t>(w) + static_cast<size_t>(x)] =
                counts.map[sy * static_cast<size_t>(counts.width) + sx];
        }
    }
    Overdraw o = overdrawStats(w, h, std::move(map));
    o.total = counts.total();
    return o;
}

namespace {
void ramp(double t, uint8_t out[4]) {
    // Piecewise-linear through dark blue, magenta, orange, yellow, white.
    static const double k[5][3] = {{20, 30, 140}, {170, 40, 160}, {240, 120, 40}, {250, 220, 60}, {255, 255, 255}};
    t = std::clamp(t, 0.0, 1.0) * 4.0;
    const int i = std::min(3, static_cast<int>(t));
    const double f = t - i;
    for (int c = 0; c < 3; ++c) out[c] = static_cast<uint8_t>(k[i][c] + (k[i + 1][c] - k[i][c]) * f);
    out[3] = 255;
}
}  // namespace

image::Image overdrawHeatmap(const Overdraw& o) {
    const int legend = 40;
    image::Image img(o.width, o.height + legend);
    const double top = std::max(1.0, o.max);
    for (int y = 0; y < o.height; ++y)
        for (int x = 0; x < o.width; ++x) {
            const float c = o.counts[static_cast<size_t>(y) * static_cast<size_t>(o.width) + static_cast<size_t>(x)];
            uint8_t* p = img.at(x, y);
            if (c <= 0.0f) {
                p[0] = p[1] = p[2] = 0, p[3] = 255;
            } else {
                ramp(std::log1p(c) / std::log1p(top), p);  // log scale: overdraw spans orders of magnitude
            }
        }
    const uint8_t bg[4] = {16, 16, 20, 255}, white[4] = {230, 230, 230, 255};
    image::fillRect(img, 0, o.height, o.width, legend, bg);
    const int x0 = 8, x1 = std::max(x0 + 10, o.width - 8), barY = o.height + 6;
    for (int x = x0; x < x1; ++x) {
        uint8_t col[4];
        ramp(static_cast<double>(x - x0) / (x1 - x0 - 1), col);
        image::fillRect(img, x, barY, 1, 10, col);
    }
    char label[96];
    std::snprintf(label, sizeof label, "fragments/px (log) 1..%.0f  mean %.1f  cover %.0f%%", top, o.mean,
                  100.0 * o.coveredFraction);
    image::drawText(img, x0, barY + 14, label, 1, white);
    return img;
}

}  // namespace firelab::harness

#include "harness/image_metrics.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>

#include "sim/error.h"

namespace firelab::harness {
namespace {

void checkSameSize(const render::Image& a, const render::Image& b) {
    if (a.width != b.width || a.height != b.height)
        throw Error(ErrorCode::BadValue, "images differ in size: " + std::to_string(a.width) + "x" +
                                             std::to_string(a.height) + " vs " + std::to_string(b.width) + "x" +
                                             std::to_string(b.height));
}

std::vector<double> luma(const render::Image& img) {
    std::vector<double> y(static_cast<size_t>(img.width) * static_cast<size_t>(img.height));
    for (size_t i = 0; i < y.size(); ++i) {
        const uint8_t* p = &img.pixels[i * 4];
        y[i] = 0.299 * p[0] + 0.587 * p[1] + 0.114 * p[2];
    }
    return y;
}

}  // namespace

double psnr(const render::Image& a, const render::Image& b) {
    checkSameSize(a, b);
    double sum = 0.0;
    const size_t n = a.pixels.size() / 4;
    for (size_t i = 0; i < n; ++i)
        for (size_t c = 0; c < 3; ++c) {
            const double d = double(a.pixels[i * 4 + c]) - double(b.pixels[i * 4 + c]);
            sum += d * d;
        }
    if (n == 0 || sum == 0.0) return kPsnrCap;
    const double mse = sum / double(n * 3);
    return std::min(kPsnrCap, 10.0 * std::log10(255.0 * 255.0 / mse));
}

double ssim(const render::Image& a, const render::Image& b) {
    checkSameSize(a, b);
    const std::vector<double> x = luma(a), y = luma(b);
    const int w = a.width, h = a.height;
    const int win = std::min({11, w, h});
    // Normalised Gaussian weights (sigma 1.5) over a win x win window.
    std::vector<double> g(static_cast<size_t>(win * win));
    double gsum = 0.0;
    for (int j = 0; j < win; ++j)
        for (int i = 0; i < win; ++i) {
            const double dx = i - (win - 1) / 2.0, dy = j - (win - 1) / 2.0;
            gsum += g[static_cast<size_t>(j * win + i)] = std::exp(-(dx * dx + dy * dy) / (2.0 * 1.5 * 1.5));
        }
    for (auto& v : g) v /= gsum;
    constexpr double c1 = (0.01 * 255) * (0.01 * 255), c2 = (0.03 * 255) * (0.03 * 255);
    double total = 0.0;
    int count = 0;
    for (int oy = 0; oy + win <= h; ++oy)
        for (int ox = 0; ox + win <= w; ++ox) {
            double mx = 0, my = 0, sxx = 0, syy = 0, sxy = 0;
            for (int j = 0; j < win; ++j)
                for (int i = 0; i < win; ++i) {
                    const double wt = g[static_cast<size_t>(j * win + i)];
                    const size_t k = static_cast<size_t>((oy + j) * w + ox + i);
                    mx += wt * x[k], my += wt * y[k];
                    sxx += wt * x[k] * x[k], syy += wt * y[k] * y[k], sxy += wt * x[k] * y[k];
                }
            const double vx = sxx - mx * mx, vy = syy - my * my, cxy = sxy - mx * my;
            total += ((2 * mx * my + c1) * (2 * cxy + c2)) / ((mx * mx + my * my + c1) * (vx + vy + c2));
            ++count;
        }
    return count ? total / count : 1.0;
}

std::vector<bool> differenceMask(const render::Image& image, const render::Image& background, int threshold) {
    checkSameSize(image, background);
    std::vector<bool> m(image.pixels.size() / 4);
    for (size_t i = 0; i < m.size(); ++i) {
        int d = 0;
        for (size_t c = 0; c < 3; ++c) d = std::max(d, std::abs(int(image.pixels[i * 4 + c]) - int(background.pixels[i * 4 + c])));
        m[i] = d > threshold;
    }
    return m;
}

double intersectionOverUnion(const std::vector<bool>& a, const std::vector<bool>& b) {
    size_t inter = 0, uni = 0;
    for (size_t i = 0; i < std::min(a.size(), b.size()); ++i) inter += a[i] && b[i], uni += a[i] || b[i];
    return uni ? double(inter) / double(uni) : 1.0;
}

}  // namespace firelab::harness

#include "harness/quality/image_metrics.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdlib>

#include "core/error.h"

namespace firelab::harness {
namespace {

void checkSameSize(const image::Image& a, const image::Image& b) {
    if (a.width != b.width || a.height != b.height)
        throw Error(ErrorCode::BadValue, "images differ in size: " + std::to_string(a.width) + "x" +
                                             std::to_string(a.height) + " vs " + std::to_string(b.width) + "x" +
                                             std::to_string(b.height));
}

// Rec. 601 luma, rows padded with zeros to `stride` values.
std::vector<double> luma(const image::Image& img, size_t stride) {
    std::vector<double> y(stride * size_t(img.height), 0.0);
    for (int r = 0; r < img.height; ++r)
        for (int c = 0; c < img.width; ++c) {
            const uint8_t* p = img.at(c, r);
            y[size_t(r) * stride + size_t(c)] = 0.299 * p[0] + 0.587 * p[1] + 0.114 * p[2];
        }
    return y;
}

void checkMask(const std::vector<bool>& mask, const image::Image& img) {
    if (mask.size() != img.pixels.size() / 4)
        throw Error(ErrorCode::BadValue, "mask has " + std::to_string(mask.size()) + " pixels, the images " +
                                             std::to_string(img.pixels.size() / 4));
}

// PSNR from the sum of squared RGB differences over `pixels` pixels.
double psnrOf(double squaredSum, size_t pixels) {
    if (pixels == 0 || squaredSum == 0.0) return kPsnrCap;
    const double mse = squaredSum / double(pixels * 3);
    return std::min(kPsnrCap, 10.0 * std::log10(255.0 * 255.0 / mse));
}

double squaredDifference(const image::Image& a, const image::Image& b, size_t pixel) {
    double sum = 0.0;
    for (size_t c = 0; c < 3; ++c) {
        const double d = double(a.pixels[pixel * 4 + c]) - double(b.pixels[pixel * 4 + c]);
        sum += d * d;
    }
    return sum;
}

// SSIM at every window position, row-major, the window's top-left corner at (ox, oy).
struct SsimMap {
    int win = 0, cols = 0, rows = 0;
    std::vector<double> values;
};

// o[i] += k * p[i] for i < n, n a multiple of 8: a loop GCC vectorises at -O2 too (no scalar remainder).
void addScaled(double* __restrict o, const double* __restrict p, double k, size_t n) {
    for (size_t i = 0; i < n / 8 * 8; ++i) o[i] += k * p[i];
}

// Adds k times x, y, x^2, y^2 and xy to the five moment rows, n values (a multiple of 8).
void addMoments(double* __restrict mx, double* __restrict my, double* __restrict mxx, double* __restrict myy,
                double* __restrict mxy, const double* __restrict x, const double* __restrict y, double k, size_t n) {
    for (size_t i = 0; i < n / 8 * 8; ++i) {
        const double kx = k * x[i], ky = k * y[i];
        mx[i] += kx, my[i] += ky, mxx[i] += kx * x[i], myy[i] += ky * y[i], mxy[i] += kx * y[i];
    }
}

SsimMap ssimMap(const image::Image& a, const image::Image& b) {
    checkSameSize(a, b);
    const int w = a.width, h = a.height;
    SsimMap m;
    m.win = std::min({11, w, h});
    if (m.win <= 0) return m;
    m.cols = w - m.win + 1, m.rows = h - m.win + 1;
    // Normalised Gaussian weights (sigma 1.5); the 2D window is their outer product, so the weighted moments
    // of each window are sums down the columns, then along the row. Rows are padded to a multiple of 8 values
    // (plus room for the window) so the loops have no remainder; the extra values are dropped.
    const size_t win = size_t(m.win), cols = size_t(m.cols), stride = (size_t(w) + 7) / 8 * 8,
                 cols8 = (cols + 7) / 8 * 8;
    std::vector<double> g(win);
    double gsum = 0.0;
    for (size_t i = 0; i < win; ++i) {
        const double d = double(i) - double(win - 1) / 2.0;
        gsum += g[i] = std::exp(-d * d / (2.0 * 1.5 * 1.5));
    }
    for (auto& v : g) v /= gsum;
    const std::vector<double> x = luma(a, stride), y = luma(b, stride);
    std::array<std::vector<double>, 5> down, window;  // x, y, x^2, y^2, xy
    for (auto& v : down) v.resize(stride + 8);
    for (auto& v : window) v.resize(cols8);
    constexpr double c1 = (0.01 * 255) * (0.01 * 255), c2 = (0.03 * 255) * (0.03 * 255);
    m.values.resize(cols * size_t(m.rows));
    for (size_t oy = 0; oy < size_t(m.rows); ++oy) {
        for (auto& v : down) std::fill(v.begin(), v.end(), 0.0);
        for (size_t j = 0; j < win; ++j)
            addMoments(down[0].data(), down[1].data(), down[2].data(), down[3].data(), down[4].data(),
                       &x[(oy + j) * stride], &y[(oy + j) * stride], g[j], stride);
        for (size_t k = 0; k < 5; ++k) {
            std::fill(window[k].begin(), window[k].end(), 0.0);
            for (size_t i = 0; i < win; ++i) addScaled(window[k].data(), &down[k][i], g[i], cols8);
        }
        for (size_t ox = 0; ox < cols; ++ox) {
            const double mx = window[0][ox], my = window[1][ox];
            const double vx = window[2][ox] - mx * mx, vy = window[3][ox] - my * my, cxy = window[4][ox] - mx * my;
            m.values[oy * cols + ox] =
                ((2 * mx * my + c1) * (2 * cxy + c2)) / ((mx * mx + my * my + c1) * (vx + vy + c2));
        }
    }
    return m;
}

}  // namespace

double psnr(const image::Image& a, const image::Image& b) {
    checkSameSize(a, b);
    const size_t n = a.pixels.size() / 4;
    double sum = 0.0;
    for (size_t i = 0; i < n; ++i) sum += squaredDifference(a, b, i);
    return psnrOf(sum, n);
}

double psnr(const image::Image& a, const image::Image& b, const std::vector<bool>& mask) {
    checkSameSize(a, b);
    checkMask(mask, a);
    double sum = 0.0;
    size_t n = 0;
    for (size_t i = 0; i < mask.size(); ++i)
        if (mask[i]) sum += squaredDifference(a, b, i), ++n;
    return psnrOf(sum, n);
}

double ssim(const image::Image& a, const image::Image& b) {
    const SsimMap m = ssimMap(a, b);
    double total = 0.0;
    for (double v : m.values) total += v;
    return m.values.empty() ? 1.0 : total / double(m.values.size());
}

double ssim(const image::Image& a, const image::Image& b, const std::vector<bool>& mask) {
    const SsimMap m = ssimMap(a, b);
    checkMask(mask, a);
    const int centre = (m.win - 1) / 2;
    double total = 0.0;
    size_t count = 0;
    for (int oy = 0; oy < m.rows; ++oy)
        for (int ox = 0; ox < m.cols; ++ox)
            if (mask[size_t(oy + centre) * size_t(a.width) + size_t(ox + centre)])
                total += m.values[size_t(oy) * size_t(m.cols) + size_t(ox)], ++count;
    return count ? total / double(count) : 1.0;
}

namespace {
// The joint RGB histogram of the pixels `keep` accepts, as counts.
template <class Keep>
std::vector<double> rgbHistogram(const image::Image& img, Keep keep) {
    constexpr int shift = 8 - 3;  // 256 levels into kHistogramBins = 8 ranges of 32
    static_assert(kHistogramBins == 1 << (8 - shift));
    std::vector<double> h(size_t(kHistogramBins) * kHistogramBins * kHistogramBins, 0.0);
    const size_t n = img.pixels.size() / 4;
    for (size_t i = 0; i < n; ++i) {
        if (!keep(i)) continue;
        const uint8_t* p = &img.pixels[i * 4];
        ++h[(size_t(p[0] >> shift) * kHistogramBins + size_t(p[1] >> shift)) * kHistogramBins + size_t(p[2] >> shift)];
    }
    return h;
}

double hellinger(const std::vector<double>& p, const std::vector<double>& q) {
    double sp = 0.0, sq = 0.0, bc = 0.0;
    for (size_t i = 0; i < p.size(); ++i) sp += p[i], sq += q[i], bc += std::sqrt(p[i] * q[i]);
    if (sp == 0.0 || sq == 0.0) return 0.0;
    return std::sqrt(std::max(0.0, 1.0 - bc / std::sqrt(sp * sq)));
}
}  // namespace

double colorHistogramDistance(const image::Image& a, const image::Image& b) {
    checkSameSize(a, b);
    const auto all = [](size_t) { return true; };
    return hellinger(rgbHistogram(a, all), rgbHistogram(b, all));
}

double colorHistogramDistance(const image::Image& a, const image::Image& b, const std::vector<bool>& mask) {
    checkSameSize(a, b);
    checkMask(mask, a);
    const auto in = [&](size_t i) { return bool(mask[i]); };
    return hellinger(rgbHistogram(a, in), rgbHistogram(b, in));
}

double meanAbsDifference(const image::Image& a, const image::Image& b) {
    checkSameSize(a, b);
    const size_t n = a.pixels.size() / 4;
    double sum = 0.0;
    for (size_t i = 0; i < n; ++i)
        for (size_t c = 0; c < 3; ++c) sum += std::abs(int(a.pixels[i * 4 + c]) - int(b.pixels[i * 4 + c]));
    return n ? sum / double(n * 3) : 0.0;
}

double meanSquaredDifference(const image::Image& a, const image::Image& b) {
    checkSameSize(a, b);
    const size_t n = a.pixels.size() / 4;
    double sum = 0.0;
    for (size_t i = 0; i < n; ++i)
        for (size_t c = 0; c < 3; ++c) {
            const double d = double(a.pixels[i * 4 + c]) - double(b.pixels[i * 4 + c]);
            sum += d * d;
        }
    return n ? sum / double(n * 3) : 0.0;
}

std::vector<bool> differenceMask(const image::Image& image, const image::Image& background, int threshold) {
    checkSameSize(image, background);
    std::vector<bool> m(image.pixels.size() / 4);
    for (size_t i = 0; i < m.size(); ++i) {
        int d = 0;
        for (size_t c = 0; c < 3; ++c)
            d = std::max(d, std::abs(int(image.pixels[i * 4 + c]) - int(background.pixels[i * 4 + c])));
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

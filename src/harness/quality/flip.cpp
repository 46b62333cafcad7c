#include "harness/quality/flip.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <string>

#include "core/error.h"

namespace firelab::harness {
namespace {

constexpr double kPi = 3.14159265358979323846;

// The paper's constants: colour compression (qc, pc, pt), feature width in degrees and exponent (w, qf).
constexpr double kQc = 0.7, kPc = 0.4, kPt = 0.95, kFeatureWidth = 0.082;  // and qf = 1/2 (a square root)

// Contrast sensitivity of each opponent channel, a sum of Gaussians a1 e^(-pi^2 x^2 / b1) sqrt(pi/b1) + (a2, b2)
// with x in degrees; the achromatic and red-green channels have a2 = 0.
struct CsfGaussians {
    double a1, b1, a2, b2;
};
constexpr CsfGaussians kCsfY{1.0, 0.0047, 0.0, 1e-5}, kCsfCx{1.0, 0.0053, 0.0, 1e-5}, kCsfCz{34.1, 0.04, 13.5, 0.025};
constexpr double kCsfLargestB = 0.04;

using Plane = std::vector<float>;
using Kernel = std::vector<float>;  // odd length, centred
using Mat3 = std::array<std::array<double, 3>, 3>;
using Vec3 = std::array<double, 3>;

Vec3 mul(const Mat3& m, const Vec3& v) {
    return {m[0][0] * v[0] + m[0][1] * v[1] + m[0][2] * v[2], m[1][0] * v[0] + m[1][1] * v[1] + m[1][2] * v[2],
            m[2][0] * v[0] + m[2][1] * v[1] + m[2][2] * v[2]};
}

Mat3 inverse(const Mat3& m) {
    // The adjugate over the determinant; with cyclic indices the cofactors come out signed.
    Mat3 r{};
    for (size_t i = 0; i < 3; ++i)
        for (size_t j = 0; j < 3; ++j) {
            const size_t r0 = (j + 1) % 3, r1 = (j + 2) % 3, c0 = (i + 1) % 3, c1 = (i + 2) % 3;
            r[i][j] = m[r0][c0] * m[r1][c1] - m[r0][c1] * m[r1][c0];
        }
    const double det = m[0][0] * r[0][0] + m[0][1] * r[1][0] + m[0][2] * r[2][0];
    for (auto& row : r)
        for (double& v : row) v /= det;
    return r;
}

// Linear sRGB to XYZ divided by the white point (so white is (1, 1, 1)), from the sRGB primaries and D65 white.
struct ColourSpace {
    Mat3 toXyz{}, toRgb{};
    ColourSpace() {
        const double xy[3][2] = {{0.64, 0.33}, {0.30, 0.60}, {0.15, 0.06}}, white[2] = {0.3127, 0.3290};
        Mat3 primaries{};
        for (size_t c = 0; c < 3; ++c) {
            primaries[0][c] = xy[c][0] / xy[c][1];
            primaries[1][c] = 1.0;
            primaries[2][c] = (1.0 - xy[c][0] - xy[c][1]) / xy[c][1];
        }
        const Vec3 whiteXyz{white[0] / white[1], 1.0, (1.0 - white[0] - white[1]) / white[1]};
        const Vec3 scale = mul(inverse(primaries), whiteXyz);
        // Each primary scaled so that they add up to the white point; then each row divided by the white.
        for (size_t r = 0; r < 3; ++r)
            for (size_t c = 0; c < 3; ++c) toXyz[r][c] = primaries[r][c] * scale[c] / whiteXyz[r];
        toRgb = inverse(toXyz);
    }
};

const ColourSpace& colourSpace() {
    static const ColourSpace space;
    return space;
}

// CIELAB from white-normalised XYZ, with the Hunt adjustment (a and b scaled by L / 100).
Vec3 huntLab(const Vec3& xyz) {
    constexpr double d = 6.0 / 29.0;
    // The float cube root: the double one is a third of FLIP's time and the inputs are floats anyway.
    const auto f = [](double t) {
        return t > d * d * d ? double(std::cbrt(float(t))) : t / (3.0 * d * d) + 4.0 / 29.0;
    };
    const double fx = f(xyz[0]), fy = f(xyz[1]), fz = f(xyz[2]);
    const double l = 116.0 * fy - 16.0;
    return {l, 0.01 * l * 500.0 * (fx - fy), 0.01 * l * 200.0 * (fy - fz)};
}

// Perceptual difference: city block on L, Euclidean on (a, b).
double hyab(const Vec3& p, const Vec3& q) {
    const double da = p[1] - q[1], db = p[2] - q[2];
    return std::abs(p[0] - q[0]) + std::sqrt(da * da + db * db);
}

// HyAB^qc between green and blue, the largest colour difference in the sRGB gamut; maps to 1.
double maxColourDifference() {
    const ColourSpace& cs = colourSpace();
    return std::pow(hyab(huntLab(mul(cs.toXyz, {0, 1, 0})), huntLab(mul(cs.toXyz, {0, 0, 1}))), kQc);
}

// o[i] += k * p[i] for i < n, n a multiple of 8: a loop GCC vectorises at -O2 too (no scalar remainder).
void addScaled(float* __restrict o, const float* __restrict p, float k, size_t n) {
    for (size_t i = 0; i < n / 8 * 8; ++i) o[i] += k * p[i];
}

// Clamp-to-edge convolutions, the tap loop outside so the pixel loop vectorises. Rows are processed in
// scratch rows rounded up to a multiple of 8 pixels; the extra pixels are dropped.
size_t roundUp8(int w) { return (size_t(w) + 7) / 8 * 8; }

Plane convolveRows(const Plane& in, int w, int h, const Kernel& k) {
    const int r = int(k.size()) / 2;
    const size_t w8 = roundUp8(w);
    Plane out(in.size()), padded(w8 + 2 * size_t(r)), row(w8);
    for (int y = 0; y < h; ++y) {
        const float* src = &in[size_t(y) * size_t(w)];
        for (int x = -r; x < w + r; ++x) padded[size_t(x + r)] = src[std::clamp(x, 0, w - 1)];
        std::fill(row.begin(), row.end(), 0.0f);
        for (size_t j = 0; j < k.size(); ++j) addScaled(row.data(), &padded[j], k[j], w8);
        std::copy_n(row.begin(), w, out.begin() + y * w);
    }
    return out;
}

Plane convolveColumns(const Plane& in, int w, int h, const Kernel& k) {
    const int r = int(k.size()) / 2;
    const size_t w8 = roundUp8(w);
    Plane out(in.size()), row(w8), src(w8);
    for (int y = 0; y < h; ++y) {
        std::fill(row.begin(), row.end(), 0.0f);
        for (int j = -r; j <= r; ++j) {
            std::copy_n(in.begin() + std::clamp(y + j, 0, h - 1) * w, w, src.begin());
            addScaled(row.data(), src.data(), k[size_t(j + r)], w8);
        }
        std::copy_n(row.begin(), w, out.begin() + y * w);
    }
    return out;
}

Plane convolve(const Plane& in, int w, int h, const Kernel& alongRows, const Kernel& alongColumns) {
    return convolveColumns(convolveRows(in, w, h, alongRows), w, h, alongColumns);
}

struct Kernels {
    // CSF filters, separable: Y and Cx are single Gaussians; Cz is the sum of two separable 2D Gaussians
    // cz1(x) cz1(y) + cz2(x) cz2(y), with sqrt(a sqrt(pi/b)) in each factor.
    Kernel y, cx, cz1, cz2;
    // Feature filters: Gaussian (sums to 1) and its first and second derivatives (positive weights sum to 1,
    // negative weights to -1).
    Kernel g, dg, ddg;

    explicit Kernels(double ppd) {
        const int csfRadius = int(std::ceil(3.0 * std::sqrt(kCsfLargestB / (2.0 * kPi * kPi)) * ppd));
        const auto gaussian = [&](double scale, double b) {
            std::vector<double> k(size_t(2 * csfRadius + 1));
            for (int i = -csfRadius; i <= csfRadius; ++i) {
                const double x = i / ppd;
                k[size_t(i + csfRadius)] = scale * std::exp(-kPi * kPi * x * x / b);
            }
            return k;
        };
        const auto sum = [](const std::vector<double>& k) {
            double s = 0.0;
            for (double v : k) s += v;
            return s;
        };
        const auto toFloat = [](const std::vector<double>& k, double divisor) {
            Kernel out(k.size());
            for (size_t i = 0; i < k.size(); ++i) out[i] = float(k[i] / divisor);
            return out;
        };
        const auto yk = gaussian(1.0, kCsfY.b1), cxk = gaussian(1.0, kCsfCx.b1);
        y = toFloat(yk, sum(yk));
        cx = toFloat(cxk, sum(cxk));
        const auto cz1k = gaussian(std::sqrt(kCsfCz.a1 * std::sqrt(kPi / kCsfCz.b1)), kCsfCz.b1);
        const auto cz2k = gaussian(std::sqrt(kCsfCz.a2 * std::sqrt(kPi / kCsfCz.b2)), kCsfCz.b2);
        const double czNorm = std::sqrt(sum(cz1k) * sum(cz1k) + sum(cz2k) * sum(cz2k));  // 2D sum = 1
        cz1 = toFloat(cz1k, czNorm);
        cz2 = toFloat(cz2k, czNorm);

        const double sigma = 0.5 * kFeatureWidth * ppd;
        const int radius = int(std::ceil(3.0 * sigma));
        std::vector<double> gd, dgd, ddgd;
        for (int i = -radius; i <= radius; ++i) {
            const double e = std::exp(-double(i * i) / (2.0 * sigma * sigma));
            gd.push_back(e);
            dgd.push_back(-i * e);
            ddgd.push_back((i * i / (sigma * sigma) - 1.0) * e);
        }
        g = toFloat(gd, sum(gd));
        dg = balanced(dgd);
        ddg = balanced(ddgd);
    }

    static Kernel balanced(const std::vector<double>& k) {
        double pos = 0.0, neg = 0.0;
        for (double v : k) (v > 0 ? pos : neg) += std::abs(v);
        Kernel out(k.size());
        for (size_t i = 0; i < k.size(); ++i) out[i] = float(k[i] / (k[i] > 0 ? pos : neg));
        return out;
    }
};

// One image seen by the model: its CSF-filtered colours as Hunt-adjusted L*a*b*, and the magnitudes of its
// edge and point responses on the unfiltered luminance.
struct Perceived {
    std::vector<std::array<float, 3>> lab;
    Plane edge, point;
};

Perceived perceive(const image::Image& img, const Kernels& k) {
    static const std::array<float, 256> toLinear = [] {
        std::array<float, 256> t{};
        for (size_t i = 0; i < 256; ++i) {
            const double s = double(i) / 255.0;
            t[i] = float(s <= 0.04045 ? s / 12.92 : std::pow((s + 0.055) / 1.055, 2.4));
        }
        return t;
    }();
    const ColourSpace& cs = colourSpace();
    const int w = img.width, h = img.height;
    const size_t n = size_t(w) * size_t(h);
    // Opponent space YCxCz (linear in XYZ); the luminance Y/Yn in [0,1] feeds the feature detectors.
    Plane lum(n), yy(n), cx(n), cz(n);
    for (size_t i = 0; i < n; ++i) {
        const uint8_t* p = &img.pixels[i * 4];
        const Vec3 xyz = mul(cs.toXyz, {toLinear[p[0]], toLinear[p[1]], toLinear[p[2]]});
        lum[i] = float(xyz[1]);
        yy[i] = float(116.0 * xyz[1] - 16.0);
        cx[i] = float(500.0 * (xyz[0] - xyz[1]));
        cz[i] = float(200.0 * (xyz[1] - xyz[2]));
    }
    Perceived out;
    {
        const Plane fy = convolve(yy, w, h, k.y, k.y), fcx = convolve(cx, w, h, k.cx, k.cx);
        const Plane fcz1 = convolve(cz, w, h, k.cz1, k.cz1), fcz2 = convolve(cz, w, h, k.cz2, k.cz2);
        out.lab.resize(n);
        for (size_t i = 0; i < n; ++i) {
            const double ny = (double(fy[i]) + 16.0) / 116.0;
            Vec3 rgb = mul(cs.toRgb, {ny + fcx[i] / 500.0, ny, ny - (double(fcz1[i]) + double(fcz2[i])) / 200.0});
            for (double& c : rgb) c = std::clamp(c, 0.0, 1.0);
            const Vec3 lab = huntLab(mul(cs.toXyz, rgb));
            out.lab[i] = {float(lab[0]), float(lab[1]), float(lab[2])};
        }
    }
    const Plane rowsG = convolveRows(lum, w, h, k.g);
    const Plane dx = convolveColumns(convolveRows(lum, w, h, k.dg), w, h, k.g);
    const Plane dy = convolveColumns(rowsG, w, h, k.dg);
    const Plane ddx = convolveColumns(convolveRows(lum, w, h, k.ddg), w, h, k.g);
    const Plane ddy = convolveColumns(rowsG, w, h, k.ddg);
    out.edge.resize(n);
    out.point.resize(n);
    for (size_t i = 0; i < n; ++i) {
        out.edge[i] = std::sqrt(dx[i] * dx[i] + dy[i] * dy[i]);
        out.point[i] = std::sqrt(ddx[i] * ddx[i] + ddy[i] * ddy[i]);
    }
    return out;
}

}  // namespace

FlipMaps flipMaps(const image::Image& reference, const image::Image& test, const FlipOptions& options) {
    if (reference.width != test.width || reference.height != test.height)
        throw Error(ErrorCode::BadValue, "images differ in size: " + std::to_string(reference.width) + "x" +
                                             std::to_string(reference.height) + " vs " + std::to_string(test.width) +
                                             "x" + std::to_string(test.height));
    if (!(options.pixelsPerDegree > 0.0) || !std::isfinite(options.pixelsPerDegree))
        throw Error(ErrorCode::BadValue,
                    "FLIP pixels per degree must be a positive number, not " + std::to_string(options.pixelsPerDegree));
    const Kernels kernels(options.pixelsPerDegree);
    const Perceived r = perceive(reference, kernels), t = perceive(test, kernels);
    const double cmax = maxColourDifference(), knee = kPc * cmax;
    const size_t n = r.lab.size();
    FlipMaps m{Plane(n), Plane(n), Plane(n)};
    for (size_t i = 0; i < n; ++i) {
        const auto& p = r.lab[i];
        const auto& q = t.lab[i];
        // Compress: the first pc of the range [0, cmax] takes [0, pt], the rest (pt, 1].
        const double d = std::pow(float(hyab({p[0], p[1], p[2]}, {q[0], q[1], q[2]})), float(kQc));
        const double colour = d < knee ? kPt * d / knee : kPt + (d - knee) / (cmax - knee) * (1.0 - kPt);
        const double features = std::max(std::abs(r.edge[i] - t.edge[i]), std::abs(r.point[i] - t.point[i]));
        const double feature = std::sqrt(features / std::sqrt(2.0));  // ^qf, qf = 1/2
        m.color[i] = float(std::min(colour, 1.0));
        m.feature[i] = float(feature);
        m.error[i] = std::pow(m.color[i], float(1.0 - feature));
    }
    return m;
}

std::vector<float> flipErrorMap(const image::Image& reference, const image::Image& test, const FlipOptions& options) {
    return flipMaps(reference, test, options).error;
}

double flip(const image::Image& reference, const image::Image& test, const FlipOptions& options) {
    const std::vector<float> map = flipErrorMap(reference, test, options);
    double sum = 0.0;
    for (float v : map) sum += v;
    return map.empty() ? 0.0 : sum / double(map.size());
}

double meanOver(const std::vector<float>& map, const std::vector<bool>& mask) {
    if (map.size() != mask.size())
        throw Error(ErrorCode::BadValue,
                    "mask has " + std::to_string(mask.size()) + " pixels, the map " + std::to_string(map.size()));
    double sum = 0.0;
    size_t count = 0;
    for (size_t i = 0; i < map.size(); ++i)
        if (mask[i]) sum += map[i], ++count;
    return count ? sum / double(count) : 0.0;
}

}  // namespace firelab::harness

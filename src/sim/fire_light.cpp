#include "sim/fire_light.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <string>

#include <glm/geometric.hpp>
#include <glm/mat3x3.hpp>
#include <glm/vec4.hpp>

#include "core/error.h"
#include "sim/gradient.h"
#include "sim/look.h"
#include "sim/snapshot.h"

namespace firelab::sim {
namespace {

// One group of samples: light-weighted position sum, weight, rgb light.
struct Group {
    glm::dvec3 weightedPos{0.0};
    double weight = 0.0;
    glm::dvec3 rgb{0.0};
};

// The direction along which the samples spread most: power iteration on their weighted covariance,
// from the axis of largest variance (deterministic; an upright flame gives about +y).
glm::vec3 principalAxis(const glm::dmat3& cov) {
    int start = 1;  // y first: ties go to the vertical
    for (int a : {0, 2})
        if (cov[a][a] > cov[start][start]) start = a;
    glm::dvec3 v(0.0);
    v[start] = 1.0;
    for (int k = 0; k < 16; ++k) {
        const glm::dvec3 next = cov * v;
        const double len = glm::length(next);
        if (!(len > 1e-30)) break;
        v = next / len;
    }
    return glm::vec3(v);
}

// The samples fit() clusters: views of the fitter's arrays.
struct Samples {
    std::span<const float> x, y, z, r, g, b, w;
    size_t size() const { return w.size(); }
    glm::dvec3 position(size_t i) const { return glm::dvec3(x[i], y[i], z[i]); }
};

// The samples' total weight and the axis they spread along.
struct Spread {
    double total = 0.0;
    glm::vec3 axis{0.0f};
};

// Weighted mean and covariance of the samples, and their principal axis.
Spread spreadOf(const Samples& s) {
    const size_t m = s.size();
    double total = 0.0;
    glm::dvec3 mean(0.0);
    for (size_t i = 0; i < m; ++i) total += s.w[i], mean += static_cast<double>(s.w[i]) * s.position(i);
    mean /= total;
    glm::dmat3 cov(0.0);
    for (size_t i = 0; i < m; ++i) {
        const glm::dvec3 d = s.position(i) - mean;
        for (int a = 0; a < 3; ++a)
            for (int b = 0; b < 3; ++b) cov[a][b] += static_cast<double>(s.w[i]) * d[a] * d[b];
    }
    return {total, principalAxis(cov)};
}

// Initial groups: label[i] in [0, n), n groups of about equal light along the axis, cut on a fine
// histogram (no sort). `projection` is scratch.
void binAlongAxis(const Samples& s, const Spread& spread, int n, std::span<float> projection, std::span<int> label) {
    constexpr int kSlots = 256;
    const size_t m = s.size();
    const glm::vec3 axis = spread.axis;
    float lo = INFINITY, hi = -INFINITY;
    for (size_t i = 0; i < m; ++i) {
        projection[i] = axis.x * s.x[i] + axis.y * s.y[i] + axis.z * s.z[i];
        lo = std::min(lo, projection[i]), hi = std::max(hi, projection[i]);
    }
    const float toSlot = hi > lo ? static_cast<float>(kSlots) / (hi - lo) : 0.0f;
    std::array<double, kSlots> slotWeight{};
    for (size_t i = 0; i < m; ++i) {
        label[i] = std::min(static_cast<int>((projection[i] - lo) * toSlot), kSlots - 1);
        slotWeight[static_cast<size_t>(label[i])] += s.w[i];
    }
    std::array<int, kSlots> binOfSlot{};
    double cumulative = 0.0;
    for (size_t slot = 0; slot < kSlots; ++slot) {
        const double mid = cumulative + 0.5 * slotWeight[slot];
        binOfSlot[slot] = std::min(static_cast<int>(mid / spread.total * n), n - 1);
        cumulative += slotWeight[slot];
    }
    for (size_t i = 0; i < m; ++i) label[i] = binOfSlot[static_cast<size_t>(label[i])];
}

// Sums per group of the labelled samples; the groups without light are dropped.
void gather(const Samples& s, std::span<const int> label, std::vector<Group>& groups) {
    std::fill(groups.begin(), groups.end(), Group{});
    for (size_t i = 0; i < s.size(); ++i) {
        Group& g = groups[static_cast<size_t>(label[i])];
        const double w = s.w[i];
        g.weightedPos += w * s.position(i);
        g.weight += w;
        g.rgb += glm::dvec3(s.r[i], s.g[i], s.b[i]);
    }
    std::erase_if(groups, [](const Group& g) { return !(g.weight > 0.0); });
}

// A Lloyd step's first half: each sample to the nearest group's centroid (the first of equals).
// `bestDistance` is scratch: the squared distance to the nearest so far.
void assignNearest(const Samples& s, const std::vector<Group>& groups, std::span<float> bestDistance,
                   std::span<int> label) {
    std::fill(bestDistance.begin(), bestDistance.end(), INFINITY);
    const size_t m = s.size();
    for (size_t k = 0; k < groups.size(); ++k) {
        const glm::vec3 c(groups[k].weightedPos / groups[k].weight);
        const int group = static_cast<int>(k);
        float* __restrict best = bestDistance.data();
        int* __restrict labels = label.data();
        const float* __restrict x = s.x.data();
        const float* __restrict y = s.y.data();
        const float* __restrict z = s.z.data();
        for (size_t i = 0; i < m; ++i) {
            const float dx = x[i] - c.x, dy = y[i] - c.y, dz = z[i] - c.z;
            const float d = dx * dx + dy * dy + dz * dz;
            const bool nearer = d < best[i];
            best[i] = nearer ? d : best[i];
            labels[i] = nearer ? group : labels[i];
        }
    }
}

// Per channel, the factor from the samples' light to the lights' intensity: the total emitted over the
// samples' (the stride's sampling), calibrated.
glm::dvec3 intensityScale(glm::vec3 emitted, glm::vec3 sampled) {
    return glm::dvec3(kFireLightCalibration) * glm::dvec3(sampled.r > 0.0f ? emitted.r / sampled.r : 0.0f,
                                                          sampled.g > 0.0f ? emitted.g / sampled.g : 0.0f,
                                                          sampled.b > 0.0f ? emitted.b / sampled.b : 0.0f);
}

}  // namespace

void FireLightFitter::clear() {
    for (auto* a : {&x_, &y_, &z_, &r_, &g_, &b_, &w_}) a->clear();
    emitted_ = sampled_ = glm::vec3(0.0f);
}

void FireLightFitter::add(const ParticlePool& pool, const FireParams& params, float weight, const PixelView* view) {
    const size_t n = pool.alive();
    if (n == 0 || !(weight > 0.0f)) return;
    const std::vector<glm::vec4> lut = gradientLut(params);  // the renderers' table, and their tint on it
    const bool tint = hasTint(params);
    const FlameFrame flame = flameFrame(params);
    const auto lookUp = [&](float t) {  // the table, interpolated as the GPU's linear filter does
        const float f = std::clamp(t, 0.0f, 1.0f) * static_cast<float>(kGradientLutSize - 1);
        const auto i0 = static_cast<size_t>(f);
        const size_t i1 = std::min(i0 + 1, static_cast<size_t>(kGradientLutSize - 1));
        return lut[i0] + (lut[i1] - lut[i0]) * (f - static_cast<float>(i0));
    };
    auto lightOf = [&](size_t i) {
        const float t = std::clamp(pool.age[i] / pool.life[i], 0.0f, 1.0f);
        const float at = colorCoordinate(flame, t, {pool.px[i], pool.py[i], pool.pz[i]});
        glm::vec4 c = lookUp(t);
        if (at != t) c = glm::vec4(glm::vec3(lookUp(at)), c.a);  // --color-position: the rgb at the place
        if (tint) c = tinted(c, lookTint(params, at, pool.rnd[i], kNoGas, pool.bounces[i]), params.color);
        float size = sizeAt(params, t, pool.scale[i]);
        if (params.sizeUnit == SizeUnit::Pixels)
            size = view ? view->metres({pool.px[i], pool.py[i], pool.pz[i]}, size) : 0.0f;
        return glm::vec3(c) * (c.a * size * size * weight);
    };
    // The samples: every stride-th particle that emits, its light times the stride.
    const size_t stride = (n + kFireLightSamplesPerLayer - 1) / kFireLightSamplesPerLayer;
    const size_t first = w_.size();
    for (auto* a : {&x_, &y_, &z_, &r_, &g_, &b_, &w_}) a->resize(first + (n + stride - 1) / stride);
    size_t k = first;
    glm::vec3 sampled(0.0f);
    for (size_t i = 0; i < n; i += stride) {
        const glm::vec3 s = lightOf(i) * static_cast<float>(stride);
        const float w = s.r + s.g + s.b;
        if (!(w > 0.0f)) continue;
        sampled += s;
        x_[k] = pool.px[i], y_[k] = pool.py[i], z_[k] = pool.pz[i];
        r_[k] = s.r, g_[k] = s.g, b_[k] = s.b, w_[k] = w;
        ++k;
    }
    for (auto* a : {&x_, &y_, &z_, &r_, &g_, &b_, &w_}) a->resize(k);
    sampled_ += sampled;
    if (stride == 1) {
        emitted_ += sampled;
        return;
    }
    glm::vec3 emitted(0.0f);
    for (size_t i = 0; i < n; ++i) emitted += lightOf(i);
    emitted_ += emitted;
}

std::span<const PointLight> FireLightFitter::fit(int n) {
    if (n < 1) throw Error(ErrorCode::BadValue, "fire lights: " + std::to_string(n) + " lights; at least 1");
    lights_.clear();
    const Samples samples{x_, y_, z_, r_, g_, b_, w_};
    if (samples.size() == 0) return {};
    best_.resize(samples.size()), label_.resize(samples.size());
    const Spread spread = spreadOf(samples);
    binAlongAxis(samples, spread, n, best_, label_);
    std::vector<Group> groups(static_cast<size_t>(n));
    gather(samples, label_, groups);
    for (int step = 0; step < kFireLightLloydSteps; ++step) {  // Lloyd: assign, then move the centroids
        assignNearest(samples, groups, best_, label_);
        gather(samples, label_, groups);
    }
    const glm::dvec3 scale = intensityScale(emitted_, sampled_);
    for (const Group& g : groups) lights_.push_back({glm::vec3(g.weightedPos / g.weight), glm::vec3(g.rgb * scale)});
    return lights_;
}

}  // namespace firelab::sim

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

}  // namespace

void FireLightFitter::clear() {
    for (auto* a : {&x_, &y_, &z_, &r_, &g_, &b_, &w_}) a->clear();
    emitted_ = sampled_ = glm::vec3(0.0f);
}

void FireLightFitter::add(const ParticlePool& pool, const FireParams& params, float weight) {
    const size_t n = pool.alive();
    if (n == 0 || !(weight > 0.0f)) return;
    const std::vector<glm::vec4> lut = gradientLut(params.gradient);
    const bool tint = params.colorVar > 0.0f;
    auto lightOf = [&](size_t i) {
        const float t = std::clamp(pool.age[i] / pool.life[i], 0.0f, 1.0f);
        const float f = t * static_cast<float>(kGradientLutSize - 1);
        const auto i0 = static_cast<size_t>(f);
        const size_t i1 = std::min(i0 + 1, static_cast<size_t>(kGradientLutSize - 1));
        glm::vec4 c = lut[i0] + (lut[i1] - lut[i0]) * (f - static_cast<float>(i0));
        if (tint) c = tinted(c, tintOf(params, pool.rnd[i]));
        const float size = sizeAt(params, t, pool.scale[i]);
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
    const size_t m = w_.size();
    if (m == 0) return {};

    // Weighted mean and covariance of the samples, and the axis they spread along.
    double total = 0.0;
    glm::dvec3 mean(0.0);
    for (size_t i = 0; i < m; ++i) total += w_[i], mean += static_cast<double>(w_[i]) * glm::dvec3(x_[i], y_[i], z_[i]);
    mean /= total;
    glm::dmat3 cov(0.0);
    for (size_t i = 0; i < m; ++i) {
        const glm::dvec3 d = glm::dvec3(x_[i], y_[i], z_[i]) - mean;
        for (int a = 0; a < 3; ++a)
            for (int b = 0; b < 3; ++b) cov[a][b] += static_cast<double>(w_[i]) * d[a] * d[b];
    }
    const glm::vec3 axis = principalAxis(cov);

    // Initial groups: n of about equal light along the axis, cut on a fine histogram (no sort).
    constexpr int kSlots = 256;
    best_.resize(m), label_.resize(m);
    float lo = INFINITY, hi = -INFINITY;
    for (size_t i = 0; i < m; ++i) {
        best_[i] = axis.x * x_[i] + axis.y * y_[i] + axis.z * z_[i];  // the projection, for now
        lo = std::min(lo, best_[i]), hi = std::max(hi, best_[i]);
    }
    const float toSlot = hi > lo ? static_cast<float>(kSlots) / (hi - lo) : 0.0f;
    std::array<double, kSlots> slotWeight{};
    for (size_t i = 0; i < m; ++i) {
        label_[i] = std::min(static_cast<int>((best_[i] - lo) * toSlot), kSlots - 1);
        slotWeight[static_cast<size_t>(label_[i])] += w_[i];
    }
    std::array<int, kSlots> binOfSlot{};
    double cumulative = 0.0;
    for (size_t s = 0; s < kSlots; ++s) {
        const double mid = cumulative + 0.5 * slotWeight[s];
        binOfSlot[s] = std::min(static_cast<int>(mid / total * n), n - 1);
        cumulative += slotWeight[s];
    }
    for (size_t i = 0; i < m; ++i) label_[i] = binOfSlot[static_cast<size_t>(label_[i])];

    // Sums per group of the labelled samples; the groups without light are dropped.
    std::vector<Group> groups(static_cast<size_t>(n));
    auto gather = [&] {
        std::fill(groups.begin(), groups.end(), Group{});
        for (size_t i = 0; i < m; ++i) {
            Group& g = groups[static_cast<size_t>(label_[i])];
            const double w = w_[i];
            g.weightedPos += w * glm::dvec3(x_[i], y_[i], z_[i]);
            g.weight += w;
            g.rgb += glm::dvec3(r_[i], g_[i], b_[i]);
        }
        std::erase_if(groups, [](const Group& g) { return !(g.weight > 0.0); });
    };
    gather();
    // Lloyd steps: each sample to the nearest centroid, then the centroids moved to their samples.
    for (int step = 0; step < kFireLightLloydSteps; ++step) {
        std::fill(best_.begin(), best_.end(), INFINITY);
        for (size_t k = 0; k < groups.size(); ++k) {
            const glm::vec3 c(groups[k].weightedPos / groups[k].weight);
            const int label = static_cast<int>(k);
            float* __restrict best = best_.data();
            int* __restrict labels = label_.data();
            const float* __restrict x = x_.data();
            const float* __restrict y = y_.data();
            const float* __restrict z = z_.data();
            for (size_t i = 0; i < m; ++i) {
                const float dx = x[i] - c.x, dy = y[i] - c.y, dz = z[i] - c.z;
                const float d = dx * dx + dy * dy + dz * dz;
                const bool nearer = d < best[i];
                best[i] = nearer ? d : best[i];
                labels[i] = nearer ? label : labels[i];
            }
        }
        gather();
    }

    // Intensities: the samples' light scaled to the total emitted (the stride's sampling), calibrated.
    const glm::dvec3 scale = glm::dvec3(kFireLightCalibration) *
                             glm::dvec3(sampled_.r > 0.0f ? emitted_.r / sampled_.r : 0.0f,
                                        sampled_.g > 0.0f ? emitted_.g / sampled_.g : 0.0f,
                                        sampled_.b > 0.0f ? emitted_.b / sampled_.b : 0.0f);
    for (const Group& g : groups) lights_.push_back({glm::vec3(g.weightedPos / g.weight), glm::vec3(g.rgb * scale)});
    return lights_;
}

}  // namespace firelab::sim

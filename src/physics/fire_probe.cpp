#include "physics/fire_probe.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include <glm/geometric.hpp>

#include "core/error.h"
#include "core/text.h"
#include "fluid/grid_light.h"
#include "physics/correlations.h"
#include "sim/look.h"
#include "sim/snapshot.h"

namespace firelab::physics {

void validate(const ProbeSettings& s, double windowSeconds) {
    struct Check {
        void scalar(std::string_view name, const float& v, float lo, float hi, std::string_view) const {
            if (std::isfinite(v) && v > lo && v <= hi) return;
            throw Error(ErrorCode::BadValue, "--" + std::string(name) + " " + core::formatFloat(v) + ": must be in (" +
                                                 core::formatFloat(lo) + ", " + core::formatFloat(hi) + "]");
        }
    };
    visitProbeSettings(s, Check{});
    if (s.binSize * 2.0f > s.top)  // one bin is one height: no tip, no centreline to find in it
        throw Error(ErrorCode::BadValue, "--bin " + core::formatFloat(s.binSize) + " with --top " +
                                             core::formatFloat(s.top) +
                                             ": the column would hold fewer than 2 bins; give a --bin at most "
                                             "half of --top");
    if (s.top / s.binSize > static_cast<float>(kMaxProbeBins))
        throw Error(ErrorCode::BadValue, "--top " + core::formatFloat(s.top) + " / --bin " +
                                             core::formatFloat(s.binSize) + ": more than " +
                                             std::to_string(kMaxProbeBins) + " bins; use a larger --bin");
    const double needed = 4.0 / static_cast<double>(s.minFrequency);
    if (windowSeconds < needed * (1.0 - 1e-4))  // a window of whole float steps may miss by rounding
        throw Error(ErrorCode::BadValue, "--time " + core::formatFloat(static_cast<float>(windowSeconds)) +
                                             ": the window must hold four periods of --min-frequency " +
                                             core::formatFloat(s.minFrequency) + " Hz, at least " +
                                             core::formatFloat(static_cast<float>(needed)) +
                                             " s (or raise --min-frequency)");
}

size_t ProbeSettings::bins() const { return static_cast<size_t>(std::max(1.0f, std::round(top / binSize))); }

FireProbe::FireProbe(const ProbeSettings& settings, const glm::vec3& base)
    : settings_(settings),
      base_(base),
      bins_(settings.bins()),
      heatSum_(bins_, 0.0),
      heatWeight_(bins_, 0.0),
      velocitySum_(bins_, 0.0),
      velocityWeight_(bins_, 0.0),
      releaseSum_(bins_, 0.0) {}

void FireProbe::beginFrame() {
    emission_.resize(emission_.size() + bins_, 0.0f);
    power_.push_back(0.0);
    ++frames_;
}

namespace {
// The light a particle sends: its colour's luminance times its alpha times its sprite's area.
float emissionOf(const glm::vec4& rgba, float size) {
    const float luminance = glm::dot(glm::vec3(rgba), glm::vec3(0.2126f, 0.7152f, 0.0722f));
    return std::max(luminance, 0.0f) * rgba.a * size * size;
}
}  // namespace

void FireProbe::add(const sim::FireSystem& fire) {
    const sim::FireParams& p = fire.params();
    const sim::ParticlePool& pool = fire.pool();
    const bool blackbody = p.color != sim::ColorModel::Gradient;
    hasTemperature_ = hasTemperature_ && blackbody;
    float* frame = emission_.data() + (frames_ - 1) * bins_;
    const float perMetre = 1.0f / settings_.binSize;
    const float sigma = settings_.centrelineRadius, cut2 = 9.0f * sigma * sigma;
    const sim::FlameFrame flame = sim::flameFrame(p);
    for (size_t i = 0; i < pool.alive(); ++i) {
        const float z = pool.py[i] - base_.y;
        if (z < 0.0f || z >= settings_.top) continue;
        const size_t b = std::min(bins_ - 1, static_cast<size_t>(z / settings_.binSize));
        const float t = std::clamp(pool.age[i] / pool.life[i], 0.0f, 1.0f);
        const float e = emissionOf(sim::particleColor(p, flame, pool, i), sim::sizeAt(p, t, pool.scale[i]));
        frame[b] += e * perMetre;
        power_.back() += e;
        const float dx = pool.px[i] - base_.x, dz = pool.pz[i] - base_.z, r2 = dx * dx + dz * dz;
        if (r2 > cut2) continue;
        const double k = std::exp(-0.5 * static_cast<double>(r2) / static_cast<double>(sigma * sigma));
        velocitySum_[b] += k * pool.vy[i];
        velocityWeight_[b] += k;
        if (!blackbody) continue;
        const float kelvin = sim::temperatureAt(p, t) + sim::temperatureOffset(p, pool.rnd[i]);
        heatSum_[b] += k * e * (static_cast<double>(kelvin) - kAmbientKelvin);
        heatWeight_[b] += k * e;
    }
}

void FireProbe::add(const fluid::FluidSim& grid, const sim::FireParams& look) {
    const fluid::FluidState& g = grid.state();
    const fluid::GridLight light(grid.params(), look);
    hasRelease_ = true;
    float* frame = emission_.data() + (frames_ - 1) * bins_;
    const float perMetre = 1.0f / settings_.binSize, volume = g.h * g.h * g.h;
    const float sigma = settings_.centrelineRadius, cut2 = 9.0f * sigma * sigma;
    for (int k = 0; k < g.n.z; ++k)
        for (int j = 0; j < g.n.y; ++j)
            for (int i = 0; i < g.n.x; ++i) {
                if (g.isSolid(i, j, k)) continue;
                const glm::vec3 c = grid.cellCenter(i, j, k);
                const float z = c.y - base_.y;
                if (z >= settings_.top) releaseAbove_ += static_cast<double>(g.release.at(i, j, k) * volume);
                if (z < 0.0f || z >= settings_.top) continue;
                const size_t b = std::min(bins_ - 1, static_cast<size_t>(z / settings_.binSize));
                const float kelvin = g.temperature.at(i, j, k);
                const float e =
                    std::max(glm::dot(light.at(kelvin), glm::vec3(0.2126f, 0.7152f, 0.0722f)), 0.0f) * volume;
                frame[b] += e * perMetre;
                power_.back() += e;
                releaseSum_[b] += static_cast<double>(g.release.at(i, j, k) * volume);
                const float dx = c.x - base_.x, dz = c.z - base_.z, r2 = dx * dx + dz * dz;
                if (r2 > cut2) continue;
                const double w = std::exp(-0.5 * static_cast<double>(r2) / static_cast<double>(sigma * sigma));
                const float up = 0.5f * (g.v.at(i, j, k) + g.v.at(i, j + 1, k));
                velocitySum_[b] += w * up * volume;
                velocityWeight_[b] += w * volume;
                heatSum_[b] += w * e * (static_cast<double>(kelvin) - static_cast<double>(grid.params().ambient));
                heatWeight_[b] += w * e;
            }
}

FireStatistics FireProbe::finish(double dt, double minHz) const {
    FireStatistics s;
    s.frames = frames_;
    s.hasTemperature = hasTemperature_ && frames_ > 0;
    const double nan = std::numeric_limits<double>::quiet_NaN();
    s.rows.resize(bins_);
    for (size_t b = 0; b < bins_; ++b) {
        HeightRow& row = s.rows[b];
        row.z = (static_cast<double>(b) + 0.5) * settings_.binSize;
        for (size_t f = 0; f < frames_; ++f) row.emission += emission_[f * bins_ + b];
        row.emission /= static_cast<double>(std::max<size_t>(frames_, 1));
        row.velocity = velocityWeight_[b] > 0.0 ? velocitySum_[b] / velocityWeight_[b] : nan;
        row.temperatureRise = s.hasTemperature && heatWeight_[b] > 0.0 ? heatSum_[b] / heatWeight_[b] : nan;
        row.centrelineWeight = velocityWeight_[b];
        row.heatRelease =
            hasRelease_ ? releaseSum_[b] / static_cast<double>(std::max<size_t>(frames_, 1)) / settings_.binSize : nan;
    }
    std::vector<double> release(bins_);
    for (size_t b = 0; b < bins_; ++b) release[b] = s.rows[b].heatRelease;
    // A share the column does not hold (the rest burnt above --top) has no height.
    double inColumn = 0.0;
    for (double r : releaseSum_) inColumn += r;
    const auto height = [&](double share) {
        return hasRelease_ && releaseAbove_ <= (1.0 - share) * (inColumn + releaseAbove_)
                   ? cumulativeHeight(release, settings_.binSize, share)
                   : nan;
    };
    s.heatReleaseHeight95 = height(0.95), s.heatReleaseHeight99 = height(0.99);
    double peak = 0.0;
    for (const HeightRow& row : s.rows) peak = std::max(peak, row.emission);
    s.presenceLevel = settings_.threshold * peak;

    std::vector<uint8_t> presence(emission_.size());
    for (size_t i = 0; i < emission_.size(); ++i) presence[i] = peak > 0.0 && emission_[i] >= s.presenceLevel ? 1 : 0;
    const std::vector<double> profile = intermittency(presence, bins_);
    for (size_t b = 0; b < bins_; ++b) s.rows[b].intermittency = profile[b];
    s.flameHeight = halfIntermittencyHeight(profile, settings_.binSize);

    s.tip.resize(frames_);
    for (size_t f = 0; f < frames_; ++f) s.tip[f] = attachedTip(presence.data() + f * bins_, bins_, settings_.binSize);
    for (double v : s.tip) s.meanTip += v;
    s.meanTip /= static_cast<double>(std::max<size_t>(frames_, 1));
    s.power = power_;
    if (frames_ >= 4) {
        s.tipSpectrum = powerSpectrum(s.tip, dt, minHz);
        s.powerSpectrum = powerSpectrum(s.power, dt, minHz);
    }
    return s;
}

}  // namespace firelab::physics

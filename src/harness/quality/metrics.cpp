#include "harness/quality/metrics.h"

#include <limits>

#include <algorithm>

#include <array>
#include <numeric>

#include "core/error.h"
#include "core/text.h"
#include "harness/quality/flip.h"
#include "harness/quality/image_metrics.h"

namespace firelab::harness {
namespace {

RegionScores psnrScores(const image::Image& run, const image::Image& ref, const std::vector<bool>& fire) {
    return {psnr(run, ref), psnr(run, ref, fire)};
}

RegionScores ssimScores(const image::Image& run, const image::Image& ref, const std::vector<bool>& fire) {
    return {ssim(run, ref), ssim(run, ref, fire)};
}

// One error map serves both regions.
RegionScores flipScores(const image::Image& run, const image::Image& ref, const std::vector<bool>& fire) {
    const std::vector<float> map = flipErrorMap(ref, run);
    const double sum = std::accumulate(map.begin(), map.end(), 0.0);
    return {sum / static_cast<double>(std::max<size_t>(1, map.size())), meanOver(map, fire)};
}

RegionScores histogramScores(const image::Image& run, const image::Image& ref, const std::vector<bool>& fire) {
    return {colorHistogramDistance(run, ref), colorHistogramDistance(run, ref, fire)};
}

// The registry. Columns are written in this order: every metric's frame column, then every fire column.
constexpr std::array kMetrics{
    Metric{"psnr", "PSNR (dB)", "psnr_db", "psnr_fire_db", true, true, 4,
           "peak signal-to-noise ratio over RGB, dB (100 for identical images)", psnrScores},
    Metric{"ssim", "SSIM", "ssim", "ssim_fire", true, true, 6,
           "structural similarity of luma, 11x11 Gaussian window (Wang et al. 2004); 1 identical", ssimScores},
    Metric{"flip", "ꟻLIP", "flip", "flip_fire", false, true, 6,
           "mean LDR-FLIP error (Andersson et al. 2020) at 67 pixels per degree; 0 identical", flipScores},
    Metric{"hist", "colour histogram distance", "hist", "hist_fire", false, true, 6,
           "Hellinger distance between the RGB histograms (8^3 bins): the colours, wherever they lie; 0 the same",
           histogramScores},
};

}  // namespace

std::span<const Metric> metrics() { return kMetrics; }

const std::string& metricNameList() {
    static const std::string names = [] {
        std::vector<std::string> n;
        for (const auto& m : kMetrics) n.emplace_back(m.name);
        return core::join(n);
    }();
    return names;
}

size_t metricIndex(std::string_view name, std::string_view flag) {
    for (size_t i = 0; i < kMetrics.size(); ++i)
        if (kMetrics[i].name == name) return i;
    throw Error(ErrorCode::UnknownName, std::string(flag) + ": '" + std::string(name) +
                                            "' is not a metric; valid ones are " + metricNameList());
}

MetricSet::MetricSet() : on_(kMetrics.size()) {
    for (size_t i = 0; i < kMetrics.size(); ++i) on_[i] = kMetrics[i].byDefault;
}

MetricSet MetricSet::none() {
    MetricSet s;
    for (size_t i = 0; i < kMetrics.size(); ++i) s.set(i, false);
    return s;
}

MetricSet parseMetricSet(std::string_view flag, std::string_view text) {
    MetricSet set = MetricSet::none();
    for (const std::string& item : core::trimmed(core::split(text, ','))) {
        try {
            set.set(metricIndex(item, flag), true);
        } catch (const Error&) {
            throw Error(ErrorCode::BadValue, std::string(flag) + " '" + std::string(text) + "': '" + item +
                                                 "' is not a metric; give a comma-separated subset of " +
                                                 metricNameList());
        }
    }
    return set;
}

std::string metricSetText(const MetricSet& set) {
    std::string out;
    for (size_t i = 0; i < kMetrics.size(); ++i)
        if (set.has(i)) out += (out.empty() ? "" : ",") + std::string(kMetrics[i].name);
    return out;
}

const RegionScores* MetricScores::find(std::string_view name) const {
    for (size_t i = 0; i < kMetrics.size(); ++i)
        if (kMetrics[i].name == name) return values_[i] ? &*values_[i] : nullptr;
    return nullptr;
}

double MetricScores::frame(std::string_view name) const {
    const RegionScores* r = find(name);
    if (!r) throw Error(ErrorCode::BadValue, "metric '" + std::string(name) + "' was not computed");
    return r->frame;
}

double MetricScores::fire(std::string_view name) const {
    const RegionScores* r = find(name);
    if (!r) throw Error(ErrorCode::BadValue, "metric '" + std::string(name) + "' was not computed");
    return r->fire;
}

MetricScores& MetricScores::operator+=(const MetricScores& other) {
    for (size_t i = 0; i < values_.size(); ++i) {
        if (!values_[i] || !other.values_[i]) {
            values_[i].reset();
            continue;
        }
        values_[i]->frame += other.values_[i]->frame;
        values_[i]->fire += other.values_[i]->fire;
    }
    return *this;
}

MetricScores& MetricScores::operator/=(double n) {
    for (auto& v : values_)
        if (v) v->frame /= n, v->fire /= n;
    return *this;
}

MetricScores scoreImages(const image::Image& run, const image::Image& reference, const std::vector<bool>& fire,
                         const MetricSet& which) {
    MetricScores out;
    const bool fireInView = std::find(fire.begin(), fire.end(), true) != fire.end();
    for (size_t i = 0; i < kMetrics.size(); ++i) {
        if (!which.has(i)) continue;
        out[i] = kMetrics[i].score(run, reference, fire);
        // No fire in view: nothing to score there (a perfect score would say the picture matched).
        if (!fireInView) out[i]->fire = std::numeric_limits<double>::quiet_NaN();
    }
    return out;
}

}  // namespace firelab::harness

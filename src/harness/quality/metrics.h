// The image metrics a run's picture is scored with against its reference's: one table, metrics(), from
// which --quality-metrics, the scoring (harness/draw/scorer.h), capture's compare.csv, runs.csv's columns
// and their summary over rounds (harness/results/schema.h), meta.json and the plots all derive. A metric
// scores a pair of images over the whole frame and over the fire's region in one call.
//
//   MetricSet which = parseMetricSet("--quality-metrics", "ssim,flip");
//   MetricScores s = scoreImages(run, reference, fire, which);
//   if (const RegionScores* r = s.find("flip")) use(r->frame, r->fire);
//
// Adding a metric: its function, and one entry in kMetrics (metrics.cpp). docs/extending.md has the recipe.
// GL-free.
#pragma once
#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "image/image.h"

namespace firelab::harness {

// A metric's value over the whole frame and over the fire's region (the pixels particles cover in either
// image).
struct RegionScores {
    double frame = 0.0, fire = 0.0;  // fire: NaN when the fire's region is empty (no fire in view)
};

struct Metric {
    std::string_view name;         // its word in --quality-metrics, e.g. "ssim"
    std::string_view label;        // for plots and tables, e.g. "SSIM"
    std::string_view frameColumn;  // its column over the whole frame in runs.csv and compare.csv
    std::string_view fireColumn;   // its column over the fire's region
    bool higherIsBetter = true;
    bool byDefault = true;  // computed when --quality-metrics does not say
    int decimals = 6;       // compare.csv's format (runs.csv writes 6 significant digits)
    std::string_view help;  // one line: what it measures (docs/csv.md says more)
    RegionScores (*score)(const image::Image& run, const image::Image& reference, const std::vector<bool>& fire);
};

// Every metric, in the order their columns are written.
std::span<const Metric> metrics();
// The metric called `name`; Error(UnknownName) naming `flag` and listing the valid names.
size_t metricIndex(std::string_view name, std::string_view flag = "--quality-metrics");

// Which metrics to compute: one flag per entry of metrics().
class MetricSet {
public:
    MetricSet();  // the metrics on by default
    static MetricSet none();
    bool has(size_t index) const { return on_[index]; }
    void set(size_t index, bool on) { on_[index] = on; }
    bool operator==(const MetricSet&) const = default;

private:
    std::vector<bool> on_;
};
// "ssim,flip": a non-empty comma-separated subset, in any order. Throws Error(BadValue) naming `flag`.
MetricSet parseMetricSet(std::string_view flag, std::string_view text);
// The set as text, in metrics() order (what parseMetricSet reads back).
std::string metricSetText(const MetricSet& set);
// The metric names as "psnr, ssim, ..." for help and messages.
const std::string& metricNameList();

// Each metric's scores, absent for those not computed.
class MetricScores {
public:
    MetricScores() : values_(metrics().size()) {}
    std::optional<RegionScores>& operator[](size_t index) { return values_[index]; }
    const std::optional<RegionScores>& operator[](size_t index) const { return values_[index]; }
    // The metric called `name`'s scores, or null when not computed.
    const RegionScores* find(std::string_view name) const;
    // Its value over the whole frame, or over the fire; Error(BadValue) when it was not computed.
    double frame(std::string_view name) const;
    double fire(std::string_view name) const;
    // Adds `other`'s scores (for means over frames); a metric absent from either stays absent.
    MetricScores& operator+=(const MetricScores& other);
    MetricScores& operator/=(double n);

private:
    std::vector<std::optional<RegionScores>> values_;
};

// Scores `run` against `reference` with the metrics in `which`, over the frame and over `fire` (one flag per
// pixel); with no fire pixel every fire score is NaN ("no fire in view", written as an empty field). Throws
// Error(BadValue) when the sizes differ.
MetricScores scoreImages(const image::Image& run, const image::Image& reference, const std::vector<bool>& fire,
                         const MetricSet& which = {});

}  // namespace firelab::harness

#include "harness/results/stats.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>

namespace firelab::harness {

double percentile(const std::vector<double>& sorted, double p) {
    if (sorted.empty()) return 0.0;
    const double rank = p / 100.0 * static_cast<double>(sorted.size() - 1);
    const auto lo = static_cast<size_t>(std::floor(rank));
    const size_t hi = std::min(lo + 1, sorted.size() - 1);
    return sorted[lo] + (sorted[hi] - sorted[lo]) * (rank - static_cast<double>(lo));
}

Summary summarize(std::vector<double> v) {
    Summary s;
    s.count = v.size();
    if (v.empty()) return s;
    std::sort(v.begin(), v.end());
    s.min = v.front();
    s.max = v.back();
    s.median = percentile(v, 50);
    s.p5 = percentile(v, 5);
    s.p95 = percentile(v, 95);
    s.p99 = percentile(v, 99);
    s.mean = std::accumulate(v.begin(), v.end(), 0.0) / static_cast<double>(v.size());
    if (v.size() > 1) {
        double ss = 0.0;
        for (double x : v) ss += (x - s.mean) * (x - s.mean);
        s.stddev = std::sqrt(ss / static_cast<double>(v.size() - 1));
    }
    return s;
}

Interval bootstrapMedian(const std::vector<double>& values, uint64_t seed, double confidence, int resamples) {
    Interval out;
    if (values.empty()) return out;
    std::vector<double> sorted = values;
    std::sort(sorted.begin(), sorted.end());
    out.median = percentile(sorted, 50);
    out.low = out.high = out.median;
    if (values.size() == 1 || resamples < 1) return out;
    std::mt19937_64 rng(seed);
    std::uniform_int_distribution<size_t> pick(0, values.size() - 1);
    std::vector<double> medians(static_cast<size_t>(resamples)), draw(values.size());
    for (auto& m : medians) {
        for (auto& d : draw) d = values[pick(rng)];
        std::sort(draw.begin(), draw.end());
        m = percentile(draw, 50);
    }
    std::sort(medians.begin(), medians.end());
    out.low = percentile(medians, 50.0 * (1.0 - confidence));
    out.high = percentile(medians, 50.0 * (1.0 + confidence));
    return out;
}

namespace {
// The median of v, reordering it (nth_element: the two middle values of an even count averaged).
double medianInPlace(std::vector<double>& v) {
    if (v.empty()) return 0.0;
    const size_t mid = v.size() / 2;
    std::nth_element(v.begin(), v.begin() + static_cast<long>(mid), v.end());
    const double upper = v[mid];
    if (v.size() % 2) return upper;
    return 0.5 * (upper + *std::max_element(v.begin(), v.begin() + static_cast<long>(mid)));
}
}  // namespace

double medianOfClusters(const Clusters& clusters) {
    std::vector<double> all;
    for (const auto& c : clusters)
        for (const auto& b : c) all.insert(all.end(), b.begin(), b.end());
    return medianInPlace(all);
}

Interval nestedBootstrapMedian(const Clusters& clusters, uint64_t seed, double confidence, int resamples) {
    Interval out;
    Clusters kept;  // clusters with a block that holds a value, and those blocks only
    for (const auto& c : clusters) {
        std::vector<std::vector<double>> blocks;
        for (const auto& b : c)
            if (!b.empty()) blocks.push_back(b);
        if (!blocks.empty()) kept.push_back(std::move(blocks));
    }
    if (kept.empty()) return out;
    out.median = out.low = out.high = medianOfClusters(kept);
    if (resamples < 1) return out;
    std::mt19937_64 rng(seed);
    std::vector<double> medians(static_cast<size_t>(resamples)), draw;
    for (auto& m : medians) {
        draw.clear();
        for (size_t i = 0; i < kept.size(); ++i) {
            const auto& cluster = kept[rng() % kept.size()];
            for (size_t j = 0; j < cluster.size(); ++j) {
                const auto& block = cluster[rng() % cluster.size()];
                draw.insert(draw.end(), block.begin(), block.end());
            }
        }
        m = medianInPlace(draw);
    }
    std::sort(medians.begin(), medians.end());
    out.low = percentile(medians, 50.0 * (1.0 - confidence));
    out.high = percentile(medians, 50.0 * (1.0 + confidence));
    return out;
}

}  // namespace firelab::harness

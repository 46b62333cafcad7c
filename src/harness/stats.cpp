#include "harness/stats.h"

#include <algorithm>
#include <cmath>
#include <numeric>

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

}  // namespace firelab::harness

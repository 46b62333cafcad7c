// Summary statistics of a series of frame times (ms).
#pragma once
#include <cstddef>
#include <vector>

namespace firelab::harness {

struct Summary {
    double median = 0, mean = 0, p5 = 0, p95 = 0, p99 = 0, stddev = 0, min = 0, max = 0;
    size_t count = 0;
};

// Percentiles by linear interpolation between closest ranks (p in [0, 100]); stddev is the sample
// standard deviation (n - 1). An empty series gives all zeros.
Summary summarize(std::vector<double> values);
double percentile(const std::vector<double>& sorted, double p);

}  // namespace firelab::harness

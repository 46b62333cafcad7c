// Summary statistics of a series of frame times (ms).
#pragma once
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

#include "core/hash.h"

namespace firelab::harness {

struct Summary {
    double median = 0, mean = 0, p5 = 0, p95 = 0, p99 = 0, stddev = 0, min = 0, max = 0;
    size_t count = 0;
};

// Percentiles by linear interpolation between closest ranks (p in [0, 100]); stddev is the sample
// standard deviation (n - 1). An empty series gives all zeros.
Summary summarize(std::vector<double> values);
double percentile(const std::vector<double>& sorted, double p);

// The median of `values` with a percentile-bootstrap interval of it: `resamples` resamples of the same
// size drawn with replacement, the interval from their medians' (1 - confidence) / 2 and (1 + confidence)
// / 2 percentiles. Deterministic for a given `seed`, so a CSV written twice from the same rounds is the
// same. With one value the interval is that value; empty: all zeros.
struct Interval {
    double median = 0, low = 0, high = 0;
};
Interval bootstrapMedian(const std::vector<double>& values, uint64_t seed, double confidence = 0.95,
                         int resamples = 2000);

// FNV-1a (64 bits) of `text`: a seed or short name from a key (core/hash.h).
using core::fnv1a;

}  // namespace firelab::harness

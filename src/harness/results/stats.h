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

// The median of values grouped in levels, with a percentile-bootstrap interval that resamples the levels as
// they were measured: `clusters[c][b]` holds the values of block b of cluster c (a process's rounds' blocks of
// consecutive frame pairs, say). Each resample draws as many clusters as there are, with replacement, and
// within each drawn cluster as many of its blocks, with replacement, and takes the median of the values so
// gathered. Values of one block (neighbours in time, which share the machine's state) always move together,
// so the interval is as wide as the variation between blocks and clusters, not only between values. One
// cluster of one-value blocks is bootstrapMedian's resampling. Deterministic for a given seed.
using Clusters = std::vector<std::vector<std::vector<double>>>;
Interval nestedBootstrapMedian(const Clusters& clusters, uint64_t seed, double confidence = 0.95, int resamples = 2000);
// The median of every value in the clusters (0 for none).
double medianOfClusters(const Clusters& clusters);

// FNV-1a (64 bits) of `text`: a seed or short name from a key (core/hash.h).
using core::fnv1a;

}  // namespace firelab::harness

// Frame-time statistics against hand-computed values: median, mean, p5/p95/p99 by linear interpolation
// between closest ranks (rank = p/100 * (n - 1)), sample standard deviation (n - 1), min and max.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "harness/results/stats.h"

namespace {

using firelab::harness::percentile;
using firelab::harness::summarize;

constexpr double kEps = 1e-12;

TEST(HarnessStats, OneToTen) {
    // Given shuffled: summarize sorts its copy.
    const auto s = summarize({7, 3, 10, 1, 5, 9, 2, 8, 6, 4});
    EXPECT_EQ(s.count, 10u);
    EXPECT_NEAR(s.min, 1.0, kEps);
    EXPECT_NEAR(s.max, 10.0, kEps);
    EXPECT_NEAR(s.mean, 5.5, kEps);    // 55 / 10
    EXPECT_NEAR(s.median, 5.5, kEps);  // rank 0.50 * 9 = 4.5: 5 + 0.5 * (6 - 5)
    EXPECT_NEAR(s.p5, 1.45, kEps);     // rank 0.05 * 9 = 0.45: 1 + 0.45 * (2 - 1)
    EXPECT_NEAR(s.p95, 9.55, kEps);    // rank 0.95 * 9 = 8.55: 9 + 0.55 * (10 - 9)
    EXPECT_NEAR(s.p99, 9.91, kEps);    // rank 0.99 * 9 = 8.91: 9 + 0.91
    // Squared deviations from 5.5: 2 * (0.25 + 2.25 + 6.25 + 12.25 + 20.25) = 82.5; / (n - 1) = 9.1666...
    EXPECT_NEAR(s.stddev, std::sqrt(82.5 / 9.0), kEps);
    EXPECT_NEAR(s.stddev, 3.0276503540974917, 1e-12);
}

TEST(HarnessStats, HandComputedSet) {
    // Sorted: 2 4 4 4 5 5 7 9 (n = 8, n - 1 = 7).
    const auto s = summarize({9, 4, 5, 2, 4, 7, 4, 5});
    EXPECT_NEAR(s.mean, 5.0, kEps);    // 40 / 8
    EXPECT_NEAR(s.median, 4.5, kEps);  // rank 3.5: 4 + 0.5 * (5 - 4)
    EXPECT_NEAR(s.p5, 2.7, kEps);      // rank 0.35: 2 + 0.35 * (4 - 2)
    EXPECT_NEAR(s.p95, 8.3, kEps);     // rank 6.65: 7 + 0.65 * (9 - 7)
    EXPECT_NEAR(s.p99, 8.86, kEps);    // rank 6.93: 7 + 0.93 * (9 - 7)
    // Squared deviations from 5: 9 + 1 + 1 + 1 + 0 + 0 + 4 + 16 = 32; sample variance 32 / 7.
    // (The population stddev would be exactly 2: a test that would catch dividing by n.)
    EXPECT_NEAR(s.stddev, std::sqrt(32.0 / 7.0), kEps);
    EXPECT_GT(std::abs(s.stddev - 2.0), 0.1);
    EXPECT_NEAR(s.min, 2.0, kEps);
    EXPECT_NEAR(s.max, 9.0, kEps);
}

TEST(HarnessStats, TwoValues) {
    const auto s = summarize({20, 10});
    EXPECT_NEAR(s.median, 15.0, kEps);
    EXPECT_NEAR(s.p5, 10.5, kEps);  // rank 0.05: 10 + 0.05 * 10
    EXPECT_NEAR(s.p95, 19.5, kEps);
    EXPECT_NEAR(s.p99, 19.9, kEps);
    EXPECT_NEAR(s.stddev, std::sqrt(50.0), kEps);  // (25 + 25) / 1
}

TEST(HarnessStats, SingleValue) {
    const auto s = summarize({3.25});
    EXPECT_EQ(s.count, 1u);
    for (double v : {s.median, s.mean, s.p5, s.p95, s.p99, s.min, s.max}) EXPECT_EQ(v, 3.25);
    EXPECT_EQ(s.stddev, 0.0);  // undefined for one sample: reported as 0, not NaN
}

TEST(HarnessStats, EmptySeriesIsAllZeros) {
    const auto s = summarize({});
    EXPECT_EQ(s.count, 0u);
    for (double v : {s.median, s.mean, s.p5, s.p95, s.p99, s.stddev, s.min, s.max}) EXPECT_EQ(v, 0.0);
    EXPECT_EQ(percentile({}, 50), 0.0);
}

TEST(HarnessStats, PercentileEnds) {
    const std::vector<double> sorted{1, 2, 4, 8};
    EXPECT_EQ(percentile(sorted, 0), 1.0);
    EXPECT_EQ(percentile(sorted, 100), 8.0);
    EXPECT_NEAR(percentile(sorted, 50), 3.0, kEps);           // rank 1.5
    EXPECT_NEAR(percentile(sorted, 100.0 / 3.0), 2.0, kEps);  // rank 1 exactly
    EXPECT_NEAR(percentile(sorted, 75), 5.0, kEps);           // rank 2.25: 4 + 0.25 * 4
}

TEST(HarnessStats, ConstantSeries) {
    const auto s = summarize(std::vector<double>(1000, 0.5));
    EXPECT_EQ(s.median, 0.5);
    EXPECT_EQ(s.p99, 0.5);
    EXPECT_NEAR(s.stddev, 0.0, 1e-15);
}

// The published FNV-1a 64-bit test vectors: seeds (and reference frame names) stay the same everywhere.
TEST(HarnessStats, Fnv1aMatchesTheReferenceValues) {
    EXPECT_EQ(firelab::harness::fnv1a(""), 0xcbf29ce484222325ULL);
    EXPECT_EQ(firelab::harness::fnv1a("a"), 0xaf63dc4c8601ec8cULL);
    EXPECT_EQ(firelab::harness::fnv1a("foobar"), 0x85944171f73967e8ULL);
}

}  // namespace

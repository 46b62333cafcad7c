// sim::Rng, the counter-based generator the CPU model and the GPU share: every word of the key and of
// the counter reaches the stream, and its uniforms and normals have the right moments.
#include <gtest/gtest.h>

#include <cmath>
#include <set>

#include "sim/random.h"

namespace firelab::sim {
namespace {

// pcgHash is a bijection, so the 65536 counters 0..65535 (and as many high words) key distinct streams:
// their first draws are all distinct. Dropping a word from the key chain would collapse them.
TEST(Rng, EveryWordOfKeyAndCounterKeysADistinctStream) {
    std::set<uint32_t> low, high, seedLow, seedHigh;
    for (uint64_t i = 0; i < 65536; ++i) {
        low.insert(Rng(7, i).next());
        high.insert(Rng(7, i << 32).next());
        seedLow.insert(Rng(i, 7).next());
        seedHigh.insert(Rng(i << 32, 7).next());
    }
    EXPECT_EQ(low.size(), 65536u);
    EXPECT_EQ(high.size(), 65536u);
    EXPECT_EQ(seedLow.size(), 65536u);
    EXPECT_EQ(seedHigh.size(), 65536u);
}

TEST(Rng, SameKeyAndCounterGiveTheSameStream) {
    Rng a(0x0123456789abcdefULL, 42), b(0x0123456789abcdefULL, 42);
    for (int i = 0; i < 100; ++i) ASSERT_EQ(a.next(), b.next());
}

// 200000 draws of each from one stream (key 3, counter 0), tolerances 5 standard errors. uniform01: in
// [0, 1), mean 1/2 (SE 0.00065), variance 1/12 (SE 0.00017); symmetric: in [-1, 1), mean 0 (SE 0.0013).
TEST(Rng, UniformsAreUniform) {
    Rng rng(3, 0);
    double sum = 0.0, sumSq = 0.0, symSum = 0.0;
    constexpr int kN = 200000;
    for (int i = 0; i < kN; ++i) {
        const float u = rng.uniform01();
        ASSERT_GE(u, 0.0f);
        ASSERT_LT(u, 1.0f);
        sum += u, sumSq += static_cast<double>(u) * u;
        const float s = rng.symmetric();
        ASSERT_GE(s, -1.0f);
        ASSERT_LT(s, 1.0f);
        symSum += s;
    }
    const double mean = sum / kN;
    EXPECT_NEAR(mean, 0.5, 0.0033);
    EXPECT_NEAR(sumSq / kN - mean * mean, 1.0 / 12.0, 0.0009);
    EXPECT_NEAR(symSum / kN, 0.0, 0.0065);
}

// Box-Muller pairs (key 5, counter 0, 100000 pairs = 200000 values): mean 0 (SE 0.0022), variance 1
// (SE 0.0032), kurtosis 3 (SE ~0.011; a uniform passed off as normal has 1.8), the two values of a pair
// uncorrelated (SE 0.0032), and P(|x| <= 1) = 0.6827 (SE 0.001). Tolerances 5 SE.
TEST(Rng, Normal2GivesIndependentStandardNormals) {
    Rng rng(5, 0);
    constexpr int kPairs = 100000;
    double m1 = 0, m2 = 0, m4 = 0, cross = 0, inside = 0;
    for (int i = 0; i < kPairs; ++i) {
        const glm::vec2 v = rng.normal2();
        ASSERT_TRUE(std::isfinite(v.x) && std::isfinite(v.y));
        for (const double x : {static_cast<double>(v.x), static_cast<double>(v.y)}) {
            m1 += x, m2 += x * x, m4 += x * x * x * x;
            inside += std::fabs(x) <= 1.0 ? 1.0 : 0.0;
        }
        cross += static_cast<double>(v.x) * v.y;
    }
    const double n = 2.0 * kPairs;
    EXPECT_NEAR(m1 / n, 0.0, 0.011);
    EXPECT_NEAR(m2 / n, 1.0, 0.016);
    EXPECT_NEAR((m4 / n) / ((m2 / n) * (m2 / n)), 3.0, 0.055);
    EXPECT_NEAR(cross / kPairs, 0.0, 0.016);
    EXPECT_NEAR(inside / n, 0.6827, 0.0052);
}

}  // namespace
}  // namespace firelab::sim

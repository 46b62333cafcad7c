// The turbulence field: fastCos accuracy, and a field that is divergence-free (it moves particles
// without compressing them), non-zero, proportional to its strength and evolving in time.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include <glm/geometric.hpp>

#include "sim/random.h"
#include "sim/turbulence.h"

namespace firelab::sim {
namespace {

// |fastCos(x) - cos(x)| < 2e-3 for |x| <= 1000 (the integrator's arguments are k.p + a phase in
// [0, 2 pi), a few tens at most), sampled every 1e-3 near zero and every 0.0137 beyond.
TEST(FastCos, AccurateToTwoThousandths) {
    double worst = 0.0;
    for (int i = -20000; i <= 20000; ++i) {
        const float x = static_cast<float>(i) * 1e-3f;
        worst = std::max(worst, std::fabs(static_cast<double>(fastCos(x)) - std::cos(static_cast<double>(x))));
    }
    for (int i = -73000; i <= 73000; ++i) {
        const float x = static_cast<float>(i) * 0.0137f;
        worst = std::max(worst, std::fabs(static_cast<double>(fastCos(x)) - std::cos(static_cast<double>(x))));
    }
    EXPECT_LT(worst, 2e-3);
    EXPECT_GT(worst, 1e-5) << "suspiciously exact: is this still the fast approximation?";
}

TEST(FastCos, HitsTheExtremesAndZeros) {
    const float pi = 3.14159265f;
    EXPECT_NEAR(fastCos(0.0f), 1.0f, 2e-3f);
    EXPECT_NEAR(fastCos(pi), -1.0f, 2e-3f);
    EXPECT_NEAR(fastCos(pi / 2), 0.0f, 2e-3f);
    EXPECT_NEAR(fastCos(-pi / 2), 0.0f, 2e-3f);
    for (float x : {0.3f, 1.7f, 2.9f, 40.0f}) EXPECT_NEAR(fastCos(x), fastCos(-x), 1e-6f);
    for (int i = -1000; i <= 1000; ++i) {
        const float c = fastCos(static_cast<float>(i) * 0.05f);
        ASSERT_LE(std::fabs(c), 1.0f + 1e-3f);
    }
}

// Central differences (h = 1e-3 m) of the field at 500 random points (seed 17) in a 2 m box around
// the flame, at several times: |div F| stays below 1e-3 of the size of the individual derivatives
// (sum of |dFi/dxj|), which are themselves substantial, so the field is non-zero and divergence-free.
TEST(Turbulence, FieldIsDivergenceFreeAndNonZero) {
    const float strength = 1.6f, frequency = 2.2f, speed = 1.5f;
    const float h = 1e-3f;
    Rng rng(17, 0);
    double worstRatio = 0.0, largestField = 0.0, sumDerivatives = 0.0;
    for (double t : {0.0, 0.7, 3.3, 100.0}) {
        const TurbulenceField f = turbulenceAt(t, strength, frequency, speed);
        for (int i = 0; i < 500; ++i) {
            const glm::vec3 p(rng.symmetric(), 1.0f + rng.symmetric(), rng.symmetric());
            double div = 0.0, size = 0.0;
            for (int a = 0; a < 3; ++a) {
                glm::vec3 e(0.0f);
                e[a] = h;
                const glm::vec3 d = (evaluateTurbulence(f, p + e) - evaluateTurbulence(f, p - e)) / (2.0f * h);
                div += static_cast<double>(d[a]);
                for (int b = 0; b < 3; ++b) size += std::fabs(static_cast<double>(d[b]));
            }
            worstRatio = std::max(worstRatio, std::fabs(div) / (size + 1e-12));
            sumDerivatives += size;
            largestField = std::max(largestField, static_cast<double>(glm::length(evaluateTurbulence(f, p))));
        }
    }
    EXPECT_LT(worstRatio, 1e-3);
    EXPECT_GT(sumDerivatives / 2000.0, 0.5 * static_cast<double>(strength * frequency));
    EXPECT_GT(largestField, 0.3 * static_cast<double>(strength));
}

TEST(Turbulence, WavesAreTransverse) {
    const TurbulenceField f = turbulenceAt(1.0, 2.0f, 3.0f, 1.0f);
    for (const auto& w : f) {
        EXPECT_NEAR(glm::dot(w.k, w.amp), 0.0f, 1e-5f);  // the analytic reason for zero divergence
        EXPECT_GT(glm::length(w.k), 0.0f);
        EXPECT_GT(glm::length(w.amp), 0.0f);
        EXPECT_GE(w.phase, 0.0f);
        EXPECT_LT(w.phase, 6.2832f);
    }
}

TEST(Turbulence, ScalesWithStrengthAndVanishesAtZero) {
    const glm::vec3 p(0.1f, 0.8f, -0.3f);
    const glm::vec3 one = evaluateTurbulence(turbulenceAt(2.0, 1.0f, 2.2f, 1.5f), p);
    const glm::vec3 three = evaluateTurbulence(turbulenceAt(2.0, 3.0f, 2.2f, 1.5f), p);
    EXPECT_GT(glm::length(one), 0.0f);
    EXPECT_LT(glm::length(three - 3.0f * one), 1e-5f);
    EXPECT_EQ(evaluateTurbulence(turbulenceAt(2.0, 0.0f, 2.2f, 1.5f), p), glm::vec3(0.0f));
}

TEST(Turbulence, EvolvesInTimeOnlyWhenSpeedIsNonZero) {
    const glm::vec3 p(0.2f, 0.5f, 0.1f);
    const glm::vec3 a = evaluateTurbulence(turbulenceAt(0.0, 1.6f, 2.2f, 1.5f), p);
    const glm::vec3 b = evaluateTurbulence(turbulenceAt(0.5, 1.6f, 2.2f, 1.5f), p);
    EXPECT_GT(glm::length(a - b), 1e-3f);
    const glm::vec3 c = evaluateTurbulence(turbulenceAt(0.0, 1.6f, 2.2f, 0.0f), p);
    const glm::vec3 d = evaluateTurbulence(turbulenceAt(9.0, 1.6f, 2.2f, 0.0f), p);
    EXPECT_EQ(c, d);
}

}  // namespace
}  // namespace firelab::sim

// A particle's tint (--color-var, sim/look.h): uniform +-color-var per channel around 1, the channels
// independent, fixed for the particle's life and per seed, 1 exactly by default; the snapshot's colour
// is the gradient's tinted.
#include <gtest/gtest.h>

#include <cmath>
#include <sstream>
#include <string>

#include "sim/fire_system.h"
#include "sim/gradient.h"
#include "sim/look.h"
#include "sim/snapshot.h"

namespace firelab::sim {
namespace {

constexpr size_t kSamples = 40000;

// Seed 6, 40000 particles, color-var 0.3: each channel's mean within 5 standard errors of 1 (SE =
// 0.3 / sqrt(3n)), its sd 0.3 / sqrt(3) within 2% (about 9 SE), all within [0.7, 1.3); the channels'
// pairwise correlations below 0.03 (SE 0.005) and tints differ between particles.
TEST(Look, TintsAreUniformPerChannelAndIndependent) {
    FireParams p;
    p.colorVar = 0.3f;
    p.seed = 6;
    p.particles = kSamples;
    FireSystem fire(p);
    fire.emit(kSamples);
    const ParticlePool& q = fire.pool();
    double s[3] = {}, s2[3] = {}, cross[3] = {};
    for (size_t i = 0; i < q.alive(); ++i) {
        const glm::dvec3 d = glm::dvec3(tintOf(p, q.rnd[i])) - 1.0;
        for (int c = 0; c < 3; ++c) {
            ASSERT_GE(d[c], -0.3 - 1e-6);
            ASSERT_LT(d[c], 0.3);
            s[c] += d[c], s2[c] += d[c] * d[c];
            cross[c] += d[c] * d[(c + 1) % 3];
        }
    }
    const double n = static_cast<double>(q.alive()), sd = 0.3 / std::sqrt(3.0);
    for (int c = 0; c < 3; ++c) {
        EXPECT_NEAR(s[c] / n, 0.0, 5.0 * sd / std::sqrt(n)) << "channel " << c;
        EXPECT_NEAR(std::sqrt(s2[c] / n), sd, 0.02 * sd) << "channel " << c;
        EXPECT_LT(std::fabs(cross[c] / n) / (sd * sd), 0.03) << "channels " << c << ", " << (c + 1) % 3;
    }
}

// The same seed gives every particle the same tint; another seed other tints; color-var 0 tints nothing.
TEST(Look, TintsAreFixedPerSeedAndOneByDefault) {
    FireParams p;
    p.colorVar = 0.5f;
    p.particles = 1000;
    FireSystem a(p), b(p);
    p.seed = 2;
    FireSystem c(p);
    a.emit(1000), b.emit(1000), c.emit(1000);
    size_t same = 0;
    for (size_t i = 0; i < 1000; ++i) {
        ASSERT_EQ(tintOf(a.params(), a.pool().rnd[i]), tintOf(b.params(), b.pool().rnd[i]));
        same += tintOf(a.params(), a.pool().rnd[i]) == tintOf(c.params(), c.pool().rnd[i]);
    }
    EXPECT_EQ(same, 0u);
    EXPECT_FALSE(hasLook(FireParams{}));
    EXPECT_EQ(tintOf(FireParams{}, a.pool().rnd[0]), glm::vec3(1.0f));
    const glm::vec4 white(1.0f, 0.97f, 0.92f, 0.3f);
    EXPECT_EQ(tinted(white, glm::vec3(1.0f)), white);
    EXPECT_EQ(tinted(white, glm::vec3(1.2f, 0.5f, 1.0f)), glm::vec4(1.0f, 0.485f, 0.92f, 0.3f));  // at most 1
}

// The sprite's angle: at birth uniform +-rotation-var (sd within 2%, about 9 SE), then turning at its own
// spin, uniform spin +- spin-var (deg/s), for its whole life; 0 by default. Seed 8, 40000 particles.
TEST(Look, SpritesStartAtARandomAngleAndSpinAtTheirOwnRate) {
    FireParams p;
    p.rotationVarDeg = 90.0f;
    p.spinDeg = 120.0f;
    p.spinVarDeg = 30.0f;
    p.seed = 8;
    p.particles = kSamples;
    FireSystem fire(p);
    fire.emit(kSamples);
    const SpinRadians r = spinRadians(p);
    const double kDeg = 180.0 / 3.14159265358979323846;
    double a2 = 0.0, rateSum = 0.0, rateMin = 1e9, rateMax = -1e9;
    for (size_t i = 0; i < kSamples; ++i) {
        const float rnd = fire.pool().rnd[i];
        const double a0 = spriteAngle(r, rnd, 0.0f) * kDeg;
        ASSERT_LE(std::fabs(a0), 90.0 + 1e-3);
        a2 += a0 * a0;
        const double rate = (spriteAngle(r, rnd, 2.0f) - spriteAngle(r, rnd, 1.0f)) * kDeg;       // deg/s
        EXPECT_NEAR((spriteAngle(r, rnd, 1.0f) - spriteAngle(r, rnd, 0.0f)) * kDeg, rate, 1e-3);  // steady
        rateSum += rate, rateMin = std::min(rateMin, rate), rateMax = std::max(rateMax, rate);
    }
    EXPECT_NEAR(std::sqrt(a2 / kSamples), 90.0 / std::sqrt(3.0), 0.02 * 90.0 / std::sqrt(3.0));
    EXPECT_NEAR(rateSum / kSamples, 120.0, 5.0 * 30.0 / std::sqrt(3.0 * kSamples));
    EXPECT_GE(rateMin, 90.0 - 1e-2);
    EXPECT_LE(rateMax, 150.0 + 1e-2);
    EXPECT_LT(rateMin, 90.5);
    EXPECT_GT(rateMax, 149.5);
    EXPECT_FALSE(hasTurn(FireParams{}));
    EXPECT_EQ(spriteAngle(spinRadians(FireParams{}), 0.5f, 3.0f), 0.0f);
}

// `firelab snapshot` writes each particle's tinted colour.
TEST(Look, SnapshotColoursAreTinted) {
    FireParams p;
    p.colorVar = 0.4f;
    p.particles = 200;
    FireSystem fire(p);
    for (int i = 0; i < 30; ++i) fire.step(1.0f / 60.0f);
    std::stringstream csv;
    writeSnapshotCsv(fire, csv);
    std::string line;
    std::getline(csv, line);  // header
    const ParticlePool& q = fire.pool();
    for (size_t i = 0; i < q.alive(); ++i) {
        ASSERT_TRUE(std::getline(csv, line));
        float v[16];
        std::istringstream row(line);
        for (float& x : v) {
            row >> x;
            row.ignore(1);
        }
        const glm::vec4 expected = tinted(evaluateGradient(p.gradient, q.age[i] / q.life[i]), tintOf(p, q.rnd[i]));
        for (int c = 0; c < 4; ++c) EXPECT_NEAR(v[12 + c], expected[c], 1e-5f);
    }
}

}  // namespace
}  // namespace firelab::sim

// Colour over life: piecewise-linear interpolation of the keys, the lookup table, and the default
// fire gradient's endpoints and monotone progression from a white core to dark and transparent.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "core/error.h"
#include "sim/gradient.h"
#include "sim/params.h"

namespace firelab::sim {
namespace {

void expectColor(const glm::vec4& got, const glm::vec4& want, float tol = 1e-6f) {
    for (int c = 0; c < 4; ++c) EXPECT_NEAR(got[c], want[c], tol) << "component " << c;
}

// Each particle is faint (hundreds overlap in a flame), so the start is the most opaque point of the
// gradient rather than alpha 1.
TEST(Gradient, DefaultStartsWhiteHotAndMostOpaque) {
    const auto& keys = FireParams{}.gradient;
    const glm::vec4 c = evaluateGradient(keys, 0.0f);
    EXPECT_GT(c.r, 0.9f);
    EXPECT_GT(c.g, 0.9f);
    EXPECT_GT(c.b, 0.9f);
    EXPECT_GT(c.a, 0.2f);
    for (const auto& k : keys) EXPECT_LE(k.rgba.a, c.a);
}

TEST(Gradient, DefaultEndsDarkAndTransparent) {
    const glm::vec4 c = evaluateGradient(FireParams{}.gradient, 1.0f);
    EXPECT_EQ(c.a, 0.0f);
    EXPECT_LT(c.r, 0.2f);
    EXPECT_LT(c.g, 0.2f);
    EXPECT_LT(c.b, 0.2f);
}

// White -> yellow -> red -> dark: over 2001 evenly spaced ages no channel ever increases, the blue
// channel drops before the green (the core turns yellow), and the green before the red (then red).
TEST(Gradient, DefaultProgressesMonotonically) {
    const auto& keys = FireParams{}.gradient;
    glm::vec4 prev = evaluateGradient(keys, 0.0f);
    for (int i = 1; i <= 2000; ++i) {
        const float t = static_cast<float>(i) / 2000.0f;
        const glm::vec4 c = evaluateGradient(keys, t);
        ASSERT_LE(c.r, prev.r + 1e-6f) << "red rises at t=" << t;
        ASSERT_LE(c.g, prev.g + 1e-6f) << "green rises at t=" << t;
        ASSERT_LE(c.b, prev.b + 1e-6f) << "blue rises at t=" << t;
        ASSERT_LE(c.a, prev.a + 1e-6f) << "alpha rises at t=" << t;
        ASSERT_GE(c.r, c.g - 1e-6f) << "not fire-coloured at t=" << t;
        ASSERT_GE(c.g, c.b - 1e-6f) << "not fire-coloured at t=" << t;
        prev = c;
    }
    const glm::vec4 mid = evaluateGradient(keys, 0.5f);
    EXPECT_GT(mid.r, 2.0f * mid.g) << "red by mid-life";
}

TEST(Gradient, InterpolatesLinearlyBetweenKeys) {
    const std::vector<ColorKey> keys = {
        {0.0f, {0.0f, 0.0f, 0.0f, 0.0f}},
        {0.5f, {1.0f, 0.5f, 0.25f, 1.0f}},
        {1.0f, {0.0f, 1.0f, 0.0f, 0.5f}},
    };
    expectColor(evaluateGradient(keys, 0.0f), {0.0f, 0.0f, 0.0f, 0.0f});
    expectColor(evaluateGradient(keys, 0.25f), {0.5f, 0.25f, 0.125f, 0.5f});
    expectColor(evaluateGradient(keys, 0.5f), {1.0f, 0.5f, 0.25f, 1.0f});
    expectColor(evaluateGradient(keys, 0.75f), {0.5f, 0.75f, 0.125f, 0.75f});
    expectColor(evaluateGradient(keys, 0.6f), {0.8f, 0.6f, 0.2f, 0.9f});
    expectColor(evaluateGradient(keys, 1.0f), {0.0f, 1.0f, 0.0f, 0.5f});
}

TEST(Gradient, ClampsOutsideTheKeys) {
    const std::vector<ColorKey> keys = {
        {0.2f, {1.0f, 0.0f, 0.0f, 1.0f}},
        {0.8f, {0.0f, 0.0f, 1.0f, 0.0f}},
    };
    expectColor(evaluateGradient(keys, -1.0f), keys.front().rgba);
    expectColor(evaluateGradient(keys, 0.1f), keys.front().rgba);
    expectColor(evaluateGradient(keys, 0.5f), {0.5f, 0.0f, 0.5f, 0.5f});
    expectColor(evaluateGradient(keys, 0.9f), keys.back().rgba);
    expectColor(evaluateGradient(keys, 7.0f), keys.back().rgba);
}

// Two keys at the same time make a step: the colour jumps there instead of dividing by zero.
TEST(Gradient, CoincidentKeysMakeAStep) {
    const std::vector<ColorKey> keys = {
        {0.0f, {0.0f, 0.0f, 0.0f, 1.0f}},
        {0.5f, {0.2f, 0.2f, 0.2f, 1.0f}},
        {0.5f, {1.0f, 1.0f, 1.0f, 1.0f}},
        {1.0f, {1.0f, 0.0f, 0.0f, 1.0f}},
    };
    expectColor(evaluateGradient(keys, 0.5f), {0.2f, 0.2f, 0.2f, 1.0f});
    expectColor(evaluateGradient(keys, 0.75f), {1.0f, 0.5f, 0.5f, 1.0f});
    for (int i = 0; i <= 100; ++i) {
        const glm::vec4 c = evaluateGradient(keys, static_cast<float>(i) / 100.0f);
        for (int k = 0; k < 4; ++k) ASSERT_TRUE(std::isfinite(c[k]));
    }
}

TEST(Gradient, LutSamplesTheGradientEvenly) {
    const auto& keys = FireParams{}.gradient;
    const auto lut = gradientLut(keys);
    ASSERT_EQ(lut.size(), static_cast<size_t>(kGradientLutSize));
    for (int i = 0; i < kGradientLutSize; ++i) {
        const float t = static_cast<float>(i) / static_cast<float>(kGradientLutSize - 1);
        const glm::vec4 want = evaluateGradient(keys, t);
        for (int c = 0; c < 4; ++c) ASSERT_EQ(lut[static_cast<size_t>(i)][c], want[c]) << "entry " << i;
    }
    expectColor(lut.front(), keys.front().rgba);
    expectColor(lut.back(), keys.back().rgba);
}

}  // namespace
}  // namespace firelab::sim

namespace firelab::sim {
namespace {

// NVIDIA's shader (../shared/seeds/002): green (1 - t)^2 so yellow turns red, alpha 1 - t. The preset's straight
// pieces stay within 1/128 of the parabola (h^2/8 x 2 = 1/256 for 8 pieces), alpha exactly linear.
TEST(GradientPreset, NvidiaIsTheShadersGreenParabolaAndLinearAlpha) {
    FireParams p;
    setParam(p, "gradient", "nvidia");
    ASSERT_EQ(p.gradient.size(), static_cast<size_t>(kNvidiaGradientKeys));
    double worst = 0.0;
    for (int i = 0; i <= 1000; ++i) {
        const float t = static_cast<float>(i) / 1000.0f;
        const glm::vec4 c = evaluateGradient(p.gradient, t);
        worst = std::max(worst, static_cast<double>(std::abs(c.g - (1.0f - t) * (1.0f - t))));
        EXPECT_FLOAT_EQ(c.r, 1.0f);
        EXPECT_FLOAT_EQ(c.b, 0.0f);
        EXPECT_NEAR(c.a, 1.0f - t, 1e-6f);
    }
    EXPECT_LT(worst, 1.0 / 128.0);
    EXPECT_GT(worst, 1.0 / 1024.0) << "exactly the parabola: not piecewise linear, so the bound is untested";
    FireParams q;
    setParam(q, "gradient", "paper");
    EXPECT_EQ(getParam(q, "gradient"), getParam(FireParams{}, "gradient"));
    try {
        setParam(q, "gradient", "nvidea");
        ADD_FAILURE() << "an unknown preset was taken";
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("paper, nvidia"), std::string::npos) << e.what();
    }
}

}  // namespace
}  // namespace firelab::sim

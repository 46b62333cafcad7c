// The estimators on synthetic records whose answers are known: a flame whose tip is drawn around a known median
// height, tones of known frequency and power. Seeds are fixed; each tolerance says what it allows.
#include <cmath>
#include <numbers>
#include <random>

#include <gtest/gtest.h>

#include "core/error.h"
#include "physics/estimators.h"
#include "support/error_of.h"

namespace firelab::physics {
namespace {

// Frames of a flame whose attached tip is uniform on [median - spread, median + spread]: present in every bin
// whose centre is below the frame's tip. The intermittency at z is then P(tip > z), one half at the median.
std::vector<uint8_t> flameOfMedian(double median, double spread, size_t frames, size_t bins, double binSize) {
    std::mt19937 rng(7);
    std::uniform_real_distribution<double> tip(median - spread, median + spread);
    std::vector<uint8_t> presence(frames * bins, 0);
    for (size_t f = 0; f < frames; ++f) {
        const double h = tip(rng);
        for (size_t b = 0; b < bins; ++b) presence[f * bins + b] = (static_cast<double>(b) + 0.5) * binSize < h;
    }
    return presence;
}

TEST(Intermittency, RecoversTheMedianHeightOfAKnownFlame) {
    const double binSize = 0.05;
    for (const double median : {0.62, 1.07, 1.91}) {
        const auto presence = flameOfMedian(median, 0.3, 2000, 60, binSize);
        const std::vector<double> profile = intermittency(presence, 60);
        EXPECT_DOUBLE_EQ(profile[0], 1.0);  // the base is always in the flame
        EXPECT_DOUBLE_EQ(profile[59], 0.0);
        // 2000 frames: the crossing's sampling error is about 0.6 spread / sqrt(2000) = 0.004 m; the linear
        // reading between bin centres adds nothing for a uniform tip. 0.01 m allows both.
        EXPECT_NEAR(halfIntermittencyHeight(profile, binSize), median, 0.01) << median;
    }
}

TEST(Intermittency, SaysNoneWhereTheColumnHoldsNoCrossing) {
    EXPECT_TRUE(std::isnan(halfIntermittencyHeight({0.4, 0.2, 0.0}, 0.1)));  // no attached flame
    EXPECT_TRUE(std::isnan(halfIntermittencyHeight({1.0, 0.9, 0.7}, 0.1)));  // the column ends in the flame
    EXPECT_TRUE(std::isnan(halfIntermittencyHeight({}, 0.1)));
    // Exactly: 1.0 at 0.05 m, 0.0 at 0.15 m: one half at 0.10 m.
    EXPECT_NEAR(halfIntermittencyHeight({1.0, 0.0}, 0.1), 0.10, 1e-12);
}

// A heat release that decays as e^(-z / 0.4 m) up a 4 m column: share p of it lies below -0.4 ln(1 - p (1 - e^-10))
// m. Bins of 1 cm sample it finely enough to read that to 5 mm.
TEST(HeatReleaseHeight, FindsTheHeightHoldingAShareOfAnExponentialProfile) {
    const double bin = 0.01, scale = 0.4;
    std::vector<double> perMetre(400);
    for (size_t b = 0; b < perMetre.size(); ++b) perMetre[b] = std::exp(-(static_cast<double>(b) + 0.5) * bin / scale);
    for (const double share : {0.5, 0.95, 0.99}) {
        const double exact = -scale * std::log(1.0 - share * (1.0 - std::exp(-4.0 / scale)));
        EXPECT_NEAR(cumulativeHeight(perMetre, bin, share), exact, 0.005) << share;
    }
    // A uniform release over the lowest metre: 95 % of it below 0.95 m, exactly.
    EXPECT_NEAR(cumulativeHeight(std::vector<double>(10, 3.0), 0.1, 0.95), 0.95, 1e-12);
    EXPECT_TRUE(std::isnan(cumulativeHeight(std::vector<double>(10, 0.0), 0.1, 0.95)));
    EXPECT_TRUE(std::isnan(cumulativeHeight({}, 0.1, 0.95)));
}

TEST(Intermittency, AttachedTipStopsAtTheFirstGap) {
    const uint8_t row[] = {1, 1, 0, 1, 1};
    EXPECT_NEAR(attachedTip(row, 5, 0.1), 0.2, 1e-12);  // the pocket above the gap is shed, not the flame
    const uint8_t empty[] = {0, 1};
    EXPECT_EQ(attachedTip(empty, 2, 0.1), 0.0);
}

std::vector<double> tone(double hz, double amplitude, size_t n, double dt, double noise = 0.0) {
    std::mt19937 rng(11);
    std::normal_distribution<double> gauss(0.0, noise > 0.0 ? noise : 1.0);
    std::vector<double> s(n);
    for (size_t i = 0; i < n; ++i)
        s[i] = 5.0 + amplitude * std::sin(2.0 * std::numbers::pi * hz * static_cast<double>(i) * dt) +
               (noise > 0.0 ? gauss(rng) : 0.0);
    return s;
}

TEST(Spectrum, FindsAKnownFrequencyWithinItsResolution) {
    const double dt = 1.0 / 60.0;
    for (const double hz : {0.9, 1.73, 2.6, 7.31}) {
        const Spectrum s = powerSpectrum(tone(hz, 1.0, 1200, dt, 0.5), dt, 0.2);
        EXPECT_NEAR(s.resolutionHz, 1.0 / 20.0, 1e-12);  // 1200 samples at 60 Hz: a 20 s window
        EXPECT_LE(std::abs(s.peakHz - hz), s.resolutionHz) << hz;
    }
}

TEST(Spectrum, ItsPowerIsTheSeriesVariance) {
    // Parseval with the window's energy taken out: a sine of amplitude 2 has variance 2; its spectrum integrates
    // to it (the mean, 5, removed first). A tone between bins leaks into its neighbours, not out of the sum.
    const double dt = 0.01;
    const Spectrum s = powerSpectrum(tone(3.33, 2.0, 4000, dt), dt, 0.0);
    double total = 0.0;
    for (double p : s.power) total += p * s.resolutionHz;
    EXPECT_NEAR(total, 2.0, 0.02);
    EXPECT_LT(s.power[0], 1e-3 * s.peakPower);  // the mean is removed (the window leaves a trace of it)
}

TEST(Spectrum, PeakIgnoresWhatIsBelowTheLowestFrequencyAsked) {
    const double dt = 1.0 / 30.0;
    std::vector<double> s = tone(0.1, 3.0, 3000, dt);
    const std::vector<double> fast = tone(2.0, 1.0, 3000, dt);
    for (size_t i = 0; i < s.size(); ++i) s[i] += fast[i];
    EXPECT_NEAR(powerSpectrum(s, dt, 0.0).peakHz, 0.1, 0.011);
    EXPECT_NEAR(powerSpectrum(s, dt, 0.5).peakHz, 2.0, 0.011);
}

TEST(Spectrum, RefusesTooShortASeries) {
    EXPECT_EQ(firelab::testing::errorOf([] { powerSpectrum({1.0, 2.0}, 0.1, 0.0); }).code(), ErrorCode::BadValue);
    EXPECT_EQ(firelab::testing::errorOf([] {
                  powerSpectrum({1.0, 2.0, 3.0, 4.0}, 0.0, 0.0);
              }).code(),
              ErrorCode::BadValue);
}

}  // namespace
}  // namespace firelab::physics

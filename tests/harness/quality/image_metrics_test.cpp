// PSNR and SSIM, whole-image and masked, against values computed by hand (grey pixels, so luma = the grey
// level exactly).
#include <gtest/gtest.h>

#include <cmath>

#include "harness/quality/image_metrics.h"
#include "harness/draw/overdraw.h"
#include "core/error.h"

namespace firelab::testing {
namespace {

image::Image grey(int w, int h, std::initializer_list<int> values) {
    image::Image img(w, h);
    size_t i = 0;
    for (int v : values) {
        for (int c = 0; c < 3; ++c) img.pixels[i * 4 + static_cast<size_t>(c)] = static_cast<uint8_t>(v);
        img.pixels[i * 4 + 3] = 255;
        ++i;
    }
    return img;
}

TEST(Psnr, MatchesHandComputedValues) {
    // Four pixels, one differs by 10 in all three channels: MSE = 3*100 / 12 = 25,
    // PSNR = 10 log10(255^2 / 25) = 34.1514 dB.
    const auto a = grey(2, 2, {10, 20, 30, 40}), b = grey(2, 2, {10, 20, 30, 50});
    EXPECT_NEAR(harness::psnr(a, b), 34.1514, 1e-3);
    // Every pixel off by 1: MSE = 1, PSNR = 20 log10(255) = 48.1308 dB.
    EXPECT_NEAR(harness::psnr(grey(2, 1, {0, 255}), grey(2, 1, {1, 254})), 48.1308, 1e-3);
    // Identical: the documented finite cap.
    EXPECT_EQ(harness::psnr(a, a), harness::kPsnrCap);
}

TEST(Ssim, MatchesHandComputedValues) {
    constexpr double c1 = 6.5025, c2 = 58.5225;  // (0.01*255)^2, (0.03*255)^2
    // 2x2 images use one 2x2 window with equal weights.
    // Constant 100 vs constant 120: variances and covariance 0, SSIM = (2ab + c1) / (a^2 + b^2 + c1).
    const double flat = (2.0 * 100 * 120 + c1) / (100.0 * 100 + 120.0 * 120 + c1);  // 0.983611
    EXPECT_NEAR(harness::ssim(grey(2, 2, {100, 100, 100, 100}), grey(2, 2, {120, 120, 120, 120})), flat, 1e-9);
    EXPECT_NEAR(flat, 0.983611, 1e-6);
    // A checkerboard against its inverse: equal means 127.5, variances 127.5^2, covariance -127.5^2,
    // SSIM = (2 * -127.5^2 + c2) / (2 * 127.5^2 + c2) = -0.996406.
    const auto checker = grey(2, 2, {0, 255, 255, 0}), inverse = grey(2, 2, {255, 0, 0, 255});
    EXPECT_NEAR(harness::ssim(checker, inverse), (-2.0 * 127.5 * 127.5 + c2) / (2.0 * 127.5 * 127.5 + c2), 1e-9);
    EXPECT_NEAR(harness::ssim(checker, checker), 1.0, 1e-12);
}

TEST(Ssim, SlidesAnElevenPixelGaussianWindow) {
    // 12x12 has 2x2 window positions; a change in one corner pixel lowers SSIM below 1 but not by much.
    image::Image a(12, 12);
    for (size_t i = 0; i < a.pixels.size(); ++i) a.pixels[i] = static_cast<uint8_t>((i * 37) % 251);
    image::Image b = a;
    b.pixels[0] = static_cast<uint8_t>(b.pixels[0] + 100);
    const double s = harness::ssim(a, b);
    EXPECT_LT(s, 1.0);
    EXPECT_GT(s, 0.9);
}

TEST(Psnr, OverAMaskUsesOnlyItsPixels) {
    const auto a = grey(2, 2, {10, 20, 30, 40}), b = grey(2, 2, {10, 20, 30, 50});
    // Only the differing pixel: MSE = 3*100 / 3 = 100, PSNR = 10 log10(255^2 / 100) = 28.1308 dB.
    EXPECT_NEAR(harness::psnr(a, b, {false, false, false, true}), 28.1308, 1e-3);
    // The whole image is the unmasked PSNR; equal pixels only, or none, give the cap.
    EXPECT_DOUBLE_EQ(harness::psnr(a, b, {true, true, true, true}), harness::psnr(a, b));
    EXPECT_EQ(harness::psnr(a, b, {true, true, true, false}), harness::kPsnrCap);
    EXPECT_EQ(harness::psnr(a, b, {false, false, false, false}), harness::kPsnrCap);
}

TEST(Ssim, OverAMaskAveragesTheWindowsCentredInIt) {
    constexpr double c1 = 6.5025, c2 = 58.5225;
    // 3x2 images: a 2x2 window with equal weights at two positions, x = 0 and x = 1, whose centre pixel
    // (offset (2 - 1) / 2 = 0) is (0, 0) and (1, 0). Only column 2 differs, so the first window is identical
    // (SSIM 1) and the second sees constant 100 against 100, 120, 100, 120: means 100 and 110, variances 0
    // and 100, covariance 0: SSIM = (2*100*110 + c1) c2 / ((100^2 + 110^2 + c1)(100 + c2)) = 0.367505.
    const auto a = grey(3, 2, {100, 100, 100, 100, 100, 100}), b = grey(3, 2, {100, 100, 120, 100, 100, 120});
    const double second = (2.0 * 100 * 110 + c1) * c2 / ((100.0 * 100 + 110.0 * 110 + c1) * (100.0 + c2));
    EXPECT_NEAR(second, 0.367505, 1e-6);
    EXPECT_NEAR(harness::ssim(a, b, {false, true, false, false, false, false}), second, 1e-12);
    EXPECT_NEAR(harness::ssim(a, b, {true, false, false, false, false, false}), 1.0, 1e-12);
    EXPECT_NEAR(harness::ssim(a, b, std::vector<bool>(6, true)), (1.0 + second) / 2, 1e-12);
    EXPECT_EQ(harness::ssim(a, b, std::vector<bool>(6, true)), harness::ssim(a, b));
    // Column 2 and the bottom row are no window's centre: nothing to average, 1 like identical images.
    EXPECT_EQ(harness::ssim(a, b, {false, false, true, true, true, true}), 1.0);
}

// The colour histogram distance, against values worked by hand: grey levels 4, 8, 12 and 16 fall in bin
// 0 of each channel (0..31), 50 in bin 1 (32..63), 250 in bin 7.
TEST(ColorHistogram, MatchesHandComputedValues) {
    const auto a = grey(2, 2, {4, 8, 12, 16});
    EXPECT_DOUBLE_EQ(harness::colorHistogramDistance(a, a), 0.0);
    // One pixel of four moves to another bin: p = (1, 0), q = (3/4, 1/4); BC = sqrt(3/4); H = sqrt(1 - BC).
    const auto b = grey(2, 2, {4, 8, 12, 50});
    EXPECT_NEAR(harness::colorHistogramDistance(a, b), std::sqrt(1.0 - std::sqrt(0.75)), 1e-12);
    // No colour in common: 1.
    EXPECT_DOUBLE_EQ(harness::colorHistogramDistance(grey(2, 1, {0, 0}), grey(2, 1, {255, 255})), 1.0);
    // The same colours elsewhere: 0, where every pixel metric sees a difference.
    const auto left = grey(2, 1, {0, 255}), right = grey(2, 1, {255, 0});
    EXPECT_DOUBLE_EQ(harness::colorHistogramDistance(left, right), 0.0);
    EXPECT_LT(harness::psnr(left, right), 10.0);
    // Symmetric.
    EXPECT_DOUBLE_EQ(harness::colorHistogramDistance(a, b), harness::colorHistogramDistance(b, a));
}

TEST(ColorHistogram, OverAMaskCountsOnlyItsPixels) {
    const auto a = grey(2, 2, {4, 8, 12, 16}), b = grey(2, 2, {4, 8, 12, 250});
    EXPECT_DOUBLE_EQ(harness::colorHistogramDistance(a, b, {true, true, true, false}), 0.0);
    EXPECT_NEAR(harness::colorHistogramDistance(a, b, {false, false, true, true}), std::sqrt(1.0 - std::sqrt(0.5)),
                1e-12);  // bins 0 and 7: p = (1, 0), q = (1/2, 1/2)
    EXPECT_DOUBLE_EQ(harness::colorHistogramDistance(a, b, {false, false, false, false}),
                     0.0);  // empty: nothing differs
    EXPECT_THROW(harness::colorHistogramDistance(a, b, {true}), Error);
}

TEST(ImageMetrics, MeanAbsDifferenceOverPixelsAndChannels) {
    // |0 - 10| and |255 - 250| in three channels each: (30 + 15) / 6 = 7.5.
    EXPECT_DOUBLE_EQ(harness::meanAbsDifference(grey(2, 1, {0, 255}), grey(2, 1, {10, 250})), 7.5);
    image::Image a(1, 1), b(1, 1);
    a.pixels = {10, 20, 30, 255}, b.pixels = {13, 20, 24, 0};  // alpha ignored: (3 + 0 + 6) / 3
    EXPECT_DOUBLE_EQ(harness::meanAbsDifference(a, b), 3.0);
    EXPECT_EQ(harness::meanAbsDifference(a, a), 0.0);
}

TEST(ImageMetrics, RefuseDifferentSizes) {
    try {
        harness::psnr(image::Image(2, 2), image::Image(3, 2));
        FAIL();
    } catch (const Error& e) {
        EXPECT_EQ(e.code(), ErrorCode::BadValue);
    }
    for (const auto& call : {+[] { harness::psnr(image::Image(2, 2), image::Image(2, 2), std::vector<bool>(3)); },
                             +[] { harness::ssim(image::Image(2, 2), image::Image(2, 2), std::vector<bool>(5)); },
                             +[] { harness::meanAbsDifference(image::Image(2, 2), image::Image(2, 1)); }}) {
        try {
            call();
            ADD_FAILURE() << "no error";
        } catch (const Error& e) {
            EXPECT_EQ(e.code(), ErrorCode::BadValue);
        }
    }
}

TEST(Overdraw, StatsOfACountImage) {
    // 4 pixels: 0, 3, 3, 6 fragments: covered 3/4, mean over covered (3+3+6)/3 = 4, max 6.
    const auto o = harness::overdrawStats(2, 2, {0.0f, 3.0f, 3.0f, 6.0f});
    EXPECT_DOUBLE_EQ(o.mean, 4.0);
    EXPECT_DOUBLE_EQ(o.max, 6.0);
    EXPECT_DOUBLE_EQ(o.coveredFraction, 0.75);
}

}  // namespace
}  // namespace firelab::testing

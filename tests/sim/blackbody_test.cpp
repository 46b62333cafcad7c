// Blackbody emission (sim/blackbody.h) against published numbers, and --color blackbody in colorOf
// (sim/look.h): rgb from the temperature over life, spread by --temperature-var, alpha from the gradient;
// --color gradient unchanged.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>

#include <glm/geometric.hpp>

#include "sim/blackbody.h"
#include "sim/fire_system.h"
#include "sim/gradient.h"
#include "sim/look.h"

namespace firelab::sim {
namespace {

// The Planckian locus in CIE 1931 xy (2-degree observer), from Radiance's blackbody.cal (G. Ward, Lawrence
// Berkeley National Laboratory; src/cal/cal/blackbody.cal, tables cct_x and cct_y, 1000 K to 50 000 K in
// 50 K steps: the entries for the temperatures below). Within 0.002 in x and y. (Mitchell Charity's
// bbr_color.txt, also published, integrates the Judd-Vos corrected CMFs: its 1000 K "2deg" row, 0.6499
// 0.3474, lies 0.003 from the CIE 1931 observer's and is not the table for CIE 1931.)
TEST(Blackbody, ChromaticityFollowsThePublishedPlanckianLocus) {
    struct Point {
        double kelvin, x, y;
    };
    for (const Point& p :
         {Point{1000.0, 0.6527561, 0.3444569}, Point{1500.0, 0.5857252, 0.3931174}, Point{2000.0, 0.5266859, 0.4132957},
          Point{3000.0, 0.4369393, 0.4040768}, Point{6500.0, 0.3135299, 0.3236324}}) {
        const glm::dvec2 xy = blackbodyChromaticity(p.kelvin);
        EXPECT_NEAR(xy.x, p.x, 0.002) << p.kelvin << " K";
        EXPECT_NEAR(xy.y, p.y, 0.002) << p.kelvin << " K";
        std::printf("[ measured ] %5.0f K: x %.5f (table %.5f, error %+.1e), y %.5f (table %.5f, error %+.1e)\n",
                    p.kelvin, xy.x, p.x, xy.x - p.x, xy.y, p.y, xy.y - p.y);
    }
}

// Y(T1) / Y(T2) against a direct numerical integral of Planck's law times an independent photopic
// luminosity function: the CIE 1924 V(lambda) approximated by a Gaussian fit (peak 555 nm), integrated at
// 0.1 nm. The fit differs from the table by a few per cent, so the ratio (which spans a factor of about 40)
// is checked to 3 %; a ratio computed at the wrong temperature or with lambda^-4 would be far off.
TEST(Blackbody, LuminanceRatioMatchesADirectIntegral) {
    auto direct = [](double kelvin) {
        double sum = 0.0;
        for (double nm = 360.0; nm <= 830.0; nm += 0.1) {
            const double l = nm * 1e-9;
            const double v = 1.019 * std::exp(-285.4 * std::pow(nm * 1e-3 - 0.559, 2.0));  // V(lambda) fit
            sum += v * 1.191042972e-16 / (std::pow(l, 5.0) * std::expm1(1.438776877e-2 / (l * kelvin)));
        }
        return sum;
    };
    for (const auto& [a, b] : {std::pair{1500.0, 2000.0}, std::pair{2000.0, 3000.0}, std::pair{3000.0, 6500.0}}) {
        const double ratio = blackbodyLuminance(a) / blackbodyLuminance(b);
        EXPECT_NEAR(ratio / (direct(a) / direct(b)), 1.0, 0.03) << a << " K / " << b << " K";
    }
    // Physical proportion: the colour relative to a reference temperature has luminance Y(T) / Y(ref).
    const glm::vec3 c = blackbodyRgb(3000.0, 2000.0);
    const double y = 0.2126 * c.r + 0.7152 * c.g + 0.0722 * c.b;  // sRGB's luminance row
    EXPECT_NEAR(y, blackbodyLuminance(3000.0) / blackbodyLuminance(2000.0), 2e-3 * y);
}

// D65's correlated colour temperature is about 6504 K: a 6500 K blackbody is near white in linear sRGB
// (each channel within 5 % of its luminance); cooler ones are redder, with blue clipped at 0 below ~1900 K.
TEST(Blackbody, SixtyFiveHundredKelvinIsNearWhite) {
    const glm::vec3 c = blackbodyRgb(6500.0, 6500.0);
    for (int i = 0; i < 3; ++i) EXPECT_NEAR(c[i], 1.0f, 0.05f) << "channel " << i;
    const glm::vec3 warm = blackbodyRgb(2000.0, 2000.0);
    EXPECT_GT(warm.r, warm.g);
    EXPECT_GT(warm.g, warm.b);
    const glm::vec3 red = blackbodyRgb(1000.0, 1000.0);
    EXPECT_EQ(red.b, 0.0f);  // outside the gamut: clipped, not negative
    EXPECT_GT(red.r, 20.0f * red.g);
    EXPECT_NEAR(glm::length(linearSrgbFromXyz({0.9505, 1.0, 1.089}) - glm::dvec3(1.0)), 0.0, 2e-3);
}

// The table the renderers read agrees with the exact colour between its entries.
TEST(Blackbody, TemperatureTableInterpolatesTheExactColour) {
    const TemperatureTable table = temperatureTable(800.0f, 2400.0f, 2000.0f);
    for (float k = 800.0f; k <= 2400.0f; k += 37.0f) {
        const glm::vec3 exact = blackbodyRgb(k, 2000.0);
        for (int i = 0; i < 3; ++i) EXPECT_NEAR(table.at(k)[i], exact[i], 1e-3f * exact.r) << k << " K";
    }
}

FireParams blackbody(float start, float end, float var = 0.0f) {
    FireParams p;
    p.color = ColorModel::Blackbody;
    p.temperature = {start, end};
    p.temperatureVar = var;
    return p;
}

// --color gradient (the default) is today's colour bit for bit: the gradient tinted, at most 1.
TEST(Blackbody, GradientModeIsUnchanged) {
    FireParams p;
    p.colorVar = 0.3f;
    for (float rnd : {0.1f, 0.5f, 0.9f})
        for (float t : {0.0f, 0.3f, 0.7f, 1.0f}) {
            const glm::vec4 c = evaluateGradient(p.gradient, t);
            const glm::vec3 tint = tintOf(p, rnd);
            EXPECT_EQ(colorOf(p, t, rnd), glm::vec4(glm::min(glm::vec3(c) * tint, glm::vec3(1.0f)), c.a));
            EXPECT_EQ(lookTint(p, t, rnd), tint);
        }
    EXPECT_EQ(gradientLut(p), gradientLut(p.gradient));
}

// Blackbody: rgb is the blackbody's at START + (END - START) t relative to START (luminance 1 at birth),
// alpha the gradient's; the colour dims and reddens as the particle cools. An explicit reference moves the
// luminance 1 there.
TEST(Blackbody, ColourFollowsTheTemperatureOverLife) {
    const FireParams p = blackbody(2400.0f, 1200.0f);
    for (float t : {0.0f, 0.25f, 0.5f, 1.0f}) {
        const glm::vec4 c = colorOf(p, t, 0.37f);
        const glm::vec3 exact = blackbodyRgb(2400.0 - 1200.0 * t, 2400.0);
        for (int i = 0; i < 3; ++i) EXPECT_NEAR(c[i], exact[i], 1e-3f * exact.r) << "t " << t;
        EXPECT_EQ(c.a, evaluateGradient(p.gradient, t).a);
    }
    const glm::vec4 birth = colorOf(p, 0.0f, 0.5f), death = colorOf(p, 1.0f, 0.5f);
    EXPECT_NEAR(0.2126f * birth.r + 0.7152f * birth.g + 0.0722f * birth.b, 1.0f, 2e-3f);
    EXPECT_LT(death.g / death.r, birth.g / birth.r);  // redder
    EXPECT_LT(death.r, 0.01f * birth.r);              // and far dimmer (Y(1200) / Y(2400) ~ 1e-4)
    FireParams ref = p;
    ref.temperatureRef = 1200.0f;
    const glm::vec4 c = colorOf(ref, 1.0f, 0.5f);  // 1200 K: clipping its negative blue adds 0.6 % of luminance
    EXPECT_NEAR(0.2126f * c.r + 0.7152f * c.g + 0.0722f * c.b, 1.0f, 0.01f);
    EXPECT_FALSE(hasLook(p));  // no variance: nothing to stream, the table over t is the colour
    const auto lut = gradientLut(p);
    for (int i : {0, 100, 255}) {
        const float t = static_cast<float>(i) / 255.0f;
        for (int k = 0; k < 4; ++k)
            EXPECT_NEAR(lut[size_t(i)][k], colorOf(p, t, 0.5f)[k], 1e-6f + 1e-5f * colorOf(p, t, 0.5f)[k]);
    }
}

// --temperature-var spreads the particles' temperatures uniformly by +-var (salt 5 of their rnd): at one age
// their colours differ, each the blackbody's at its own temperature; the table over t is then white with
// the gradient's alpha and the look carries the colour, so table x look is colorOf.
TEST(Blackbody, TemperatureVarSpreadsTheColour) {
    FireParams p = blackbody(2000.0f, 1400.0f, 200.0f);
    p.particles = 4000;
    p.colorVar = 0.2f;
    FireSystem fire(p);
    fire.emit(4000);
    const ParticlePool& q = fire.pool();
    double lo = 1e9, hi = -1e9;
    const auto lut = gradientLut(p);
    EXPECT_EQ(glm::vec3(lut[128]), glm::vec3(1.0f));
    for (size_t i = 0; i < q.alive(); ++i) {
        const float d = temperatureOffset(p, q.rnd[i]);
        lo = std::min(lo, double(d)), hi = std::max(hi, double(d));
        const glm::vec4 c = colorOf(p, 0.5f, q.rnd[i]);
        const glm::vec3 exact = blackbodyRgb(1700.0 + d, 2000.0) * tintOf(p, q.rnd[i]);
        // The table interpolates across the gamut's edge (blue clipped at 0 below ~1900 K): within 0.2 % of
        // the brightest channel.
        for (int k = 0; k < 3; ++k) ASSERT_NEAR(c[k], exact[k], 2e-3f * exact.r);
        const glm::vec4 drawn = tinted(lut[128], lookTint(p, 128.0f / 255.0f, q.rnd[i]), p.color);
        const glm::vec4 cpu = colorOf(p, 128.0f / 255.0f, q.rnd[i]);
        for (int k = 0; k < 4; ++k) ASSERT_NEAR(drawn[k], cpu[k], 1e-6f * (1.0f + cpu[k]));
    }
    EXPECT_LT(lo, -190.0);
    EXPECT_GT(hi, 190.0);
    EXPECT_GE(lo, -200.0);
    EXPECT_LT(hi, 200.0);
    EXPECT_TRUE(hasLook(p));
}

}  // namespace
}  // namespace firelab::sim

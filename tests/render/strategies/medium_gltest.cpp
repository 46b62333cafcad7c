// The medium strategies (volume-reference, volume) against what the medium is (render/particles/medium.h):
// the projected Gaussian is its line integral, one absorbing blob has an analytic transmittance, the scene
// occludes the medium, layers are one medium whatever their order, and the real-time grid converges to the
// reference as it refines.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <sstream>

#include "harness/draw/capture.h"
#include "harness/quality/image_metrics.h"
#include "render/particles/medium.h"
#include "render/strategies/strategy.h"
#include "support/gl_fixture.h"
#include <unistd.h>
#include "support/still_particles.h"

namespace firelab::testing {
namespace {

class Medium : public GlTest {
protected:
    static std::map<std::string, harness::CaptureResult> draw(const harness::CaptureSettings& s) {
        std::map<std::string, harness::CaptureResult> out;
        for (auto& r : harness::renderStrategies(s)) out.emplace(r.strategy, std::move(r));
        return out;
    }
    // PSNR over the pixels either image's fragment counts cover (the fire, as quality scoring takes it).
    static double firePsnr(const harness::CaptureResult& a, const harness::CaptureResult& b) {
        std::vector<bool> fire(a.overdraw.counts.size());
        for (size_t i = 0; i < fire.size(); ++i) fire[i] = a.overdraw.counts[i] > 0.0f || b.overdraw.counts[i] > 0.0f;
        return harness::psnr(a.image, b.image, fire);
    }
    // One motionless particle of `size` at `at`, of constant colour `rgba`, seen from a fixed camera on the
    // +z side of `target` at `target`'s height, 3 m away.
    static harness::CaptureSettings oneBlob(const glm::vec3& at, float size, const glm::vec4& rgba,
                                            const glm::vec3& target = {0.0f, 0.7f, 0.0f}) {
        harness::CaptureSettings s = smallCapture({"volume-reference"});
        s.params = stillParticles(at, size);
        s.params.gradient = {{0.0f, rgba}, {1.0f, rgba}};
        s.camera.mode = render::CameraMode::Fixed;
        s.camera.target = target;
        s.camera.height = target.y;
        s.camera.distance = 3.0f;
        s.camera.yawDeg = 90.0f;
        s.time = 0.5f;
        return s;
    }
    static glm::vec3 pixel(const image::Image& im, int x, int y) {
        const uint8_t* c = im.at(x, y);
        return glm::vec3(c[0], c[1], c[2]) / 255.0f;
    }
};

// Emission only: additive billboards of textures/gaussian.png draw each blob's line integral, so they and the
// reference are one picture up to sampling (the sprite's texels are filtered over each pixel's footprint,
// the reference samples the pixel's centre: at 192x144 the fire's 10-pixel sprites widen by their
// mip level's blur, 41.8 dB measured; at 384x288 47.5 dB). The fire is lifted off the logs so that no
// sprite is cut by the depth test where its blob is cut by the scene's depth along the ray (different by
// design: a sprite is flat). The same at flame.png is far from an identity.
TEST_F(Medium, AdditiveGaussianSpritesAreTheEmissionOnlyMediumsLineIntegral) {
    harness::CaptureSettings s = smallCapture({"volume-reference", "billboards-instanced"});
    s.width = 384, s.height = 288;
    s.render.hdr = true;  // blending in 8 bits rounds every one of ~40 layers of sprites: not the identity's
    s.render.texture = "gaussian.png";
    s.params.center = {0.0f, 0.5f, 0.0f};
    auto g = draw(s);
    const double gaussian = firePsnr(g.at("billboards-instanced"), g.at("volume-reference"));
    EXPECT_GE(gaussian, 40.0);
    s.render.texture = "flame.png";
    auto f = draw(s);
    EXPECT_LT(firePsnr(f.at("billboards-instanced"), f.at("volume-reference")), gaussian - 10.0);
}

// One absorbing blob (alpha blending: optical depth -ln(1 - a) through its centre) seen against the sky: at
// the pixel through its centre and at pixels off it, light c (1 - T) + T * sky with T = exp(-tau g), g the
// Gaussian of the ray's distance, which render::oneKernelLight gives in closed form. The march converged:
// its last halving changed no pixel by more than 0.5/255, and the picture is within 1.5/255 of the formula
// (8-bit output).
TEST_F(Medium, OneAbsorbingBlobHasItsAnalyticTransmittance) {
    // One blob of opacity 0.9, and 120 coincident blobs whose optical depths add up to the same: more than the
    // march's arrays hold (96), so their windows are marched from the tile list (the direct dispatch).
    for (const uint32_t count : {1u, 120u}) {
        SCOPED_TRACE(count);
        const float alpha = 0.9f;
        const float each = 1.0f - std::pow(1.0f - alpha, 1.0f / static_cast<float>(count));
        const glm::vec4 rgba(1.0f, 0.5f, 0.25f, each);
        const float size = 1.2f;
        harness::CaptureSettings s = oneBlob({0.0f, 1.5f, 0.0f}, size, rgba, {0.0f, 1.5f, 0.0f});
        s.params.burst = count;
        s.render.blend = render::Blend::Alpha;
        s.render.hdr = false;
        const image::Image blob = draw(s).at("volume-reference").image;
        const render::MediumConvergence c = render::lastMediumConvergence();
        EXPECT_TRUE(c.converged);
        EXPECT_GE(c.integrations, 2);
        EXPECT_LE(c.maxChange, render::kMediumTolerance);
        EXPECT_EQ(c.overflowed > 0, count > 96) << c.overflowed;
        s.params.center.x = 100.0f;  // off screen: the sky alone
        const image::Image sky = draw(s).at("volume-reference").image;

        const float sigma = size * render::kKernelSigmaPerSize;
        const double tau = -std::log(1.0 - alpha);
        // A fixed camera 3 m from the blob, 45 degrees of view over 144 pixels: metres per pixel at its depth.
        const double perPixel = 2.0 * 3.0 * std::tan(22.5 * M_PI / 180.0) / s.height;
        const int cx = s.width / 2, cy = s.height / 2;
        for (int dx : {0, 3, 6, 10, 14}) {
            SCOPED_TRACE(dx);
            // The pixel's centre is half a pixel off the image's centre in each axis.
            const double d = perPixel * std::hypot(dx + 0.5, 0.5);
            const double light = render::oneKernelLight(tau, tau, sigma, d);  // eta / tau = 1: per unit colour
            const double through = std::exp(-tau * std::exp(-d * d / (2.0 * sigma * sigma)));
            const glm::vec3 bg = pixel(sky, cx + dx, cy);
            const glm::vec3 got = pixel(blob, cx + dx, cy);
            for (int ch = 0; ch < 3; ++ch)
                EXPECT_NEAR(got[ch], rgba[ch] * light + through * bg[ch], 1.5 / 255.0) << "channel " << ch;
        }
    }
}

// A small glowing blob (additive: emission only) at the centre of a large absorbing one (alpha), two layers of
// one medium: the glow is dimmed by the smoke in front of it and not by the smoke behind, which no single
// blob's closed form gives. Each march step's emission and optical depth are closed forms, and only the
// transmittance within a step is approximated, so this is what the step's refinement is for: the converged
// picture is within 1.5/255 of the integral along the ray taken by a fine quadrature here.
TEST_F(Medium, AGlowInsideSmokeMatchesAFineQuadrature) {
    const std::filesystem::path dir =
        std::filesystem::temp_directory_path() / ("firelab-glow-" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
    const glm::vec3 glow(0.8f, 0.4f, 0.2f), smoke(0.3f, 0.3f, 0.35f);
    const float glowAlpha = 0.6f, smokeAlpha = 0.9f, glowSize = 0.2f, smokeSize = 1.2f;
    // One motionless particle per layer, both at x (off screen at x = 100: the sky alone).
    auto effect = [&](float x) {
        const std::filesystem::path file = dir / ("glow" + std::to_string(static_cast<int>(x)) + ".toml");
        std::ofstream out(file);
        out << "[effect]\ndescription = \"a glow inside smoke\"\n";
        auto layer = [&](const char* name, const char* blend, float size, const glm::vec3& c, float a) {
            out << "[[layer]]\nname = \"" << name << "\"\nblend = \"" << blend << "\"\nemitter = \"rect\"\n"
                << "center = [" << x << ", 1.5, 0.0]\nextent = [0.000001, 0.000001, 0.000001]\ncone = 0.0\n"
                << "speed = [0.0, 0.0, 0.0]\nspeed-var = [0.0, 0.0, 0.0]\naccel = [0.0, 0.0, 0.0]\n"
                << "accel-var = [0.0, 0.0, 0.0]\nturbulence = 0.0\nsize-start = " << size << "\nsize-end = " << size
                << "\nsize-var = 0.0\nparticles = 1\nburst = 1\nlifetime = 500.0\nlifetime-var = 0.0\n"
                << "gradient = [[0.0, " << c.r << ", " << c.g << ", " << c.b << ", " << a << "], [1.0, " << c.r << ", "
                << c.g << ", " << c.b << ", " << a << "]]\n";
        };
        layer("glow", "additive", glowSize, glow, glowAlpha);
        layer("smoke", "alpha", smokeSize, smoke, smokeAlpha);
        return file.string();
    };
    harness::CaptureSettings s = oneBlob({0.0f, 1.5f, 0.0f}, 1.0f, glm::vec4(1.0f), {0.0f, 1.5f, 0.0f});
    s.effect = effect(0.0f);
    const image::Image picture = draw(s).at("volume-reference").image;
    const render::MediumConvergence c = render::lastMediumConvergence();
    EXPECT_TRUE(c.converged);
    EXPECT_LE(c.maxChange, render::kMediumTolerance);
    s.effect = effect(100.0f);
    const image::Image sky = draw(s).at("volume-reference").image;
    std::filesystem::remove_all(dir);

    const double sg = glowSize * render::kKernelSigmaPerSize, ss = smokeSize * render::kKernelSigmaPerSize;
    const double tau = -std::log(1.0 - smokeAlpha);
    const double perPixel = 2.0 * 3.0 * std::tan(22.5 * M_PI / 180.0) / s.height;
    const int cx = s.width / 2, cy = s.height / 2;
    for (int dx : {0, 1, 2, 4, 8}) {
        SCOPED_TRACE(dx);
        const double d = perPixel * std::hypot(dx + 0.5, 0.5);
        // Along the ray, u from the blobs' common foot: each blob's density g exp(-u^2 / 2 s^2) / (sqrt(2 pi) s).
        const double gg = std::exp(-d * d / (2.0 * sg * sg)), gs = std::exp(-d * d / (2.0 * ss * ss));
        auto density = [](double u, double sigma) {
            return std::exp(-u * u / (2.0 * sigma * sigma)) / (std::sqrt(2.0 * M_PI) * sigma);
        };
        const int n = 200000;
        const double lo = -4.0 * ss, h = 8.0 * ss / n;
        glm::dvec3 light(0.0);
        double through = 1.0;
        for (int i = 0; i < n; ++i) {
            const double u = lo + (i + 0.5) * h;
            // The smoke's optical depth from the eye to u, exactly.
            const double t = std::exp(-tau * gs * 0.5 * (1.0 + std::erf(u / (std::sqrt(2.0) * ss))));
            light += (glm::dvec3(glow) * (glowAlpha * gg * density(u, sg)) +
                      glm::dvec3(smoke) * (tau * gs * density(u, ss))) *
                     (t * h);
            through = t;
        }
        const glm::vec3 bg = pixel(sky, cx + dx, cy), got = pixel(picture, cx + dx, cy);
        for (int ch = 0; ch < 3; ++ch)
            EXPECT_NEAR(got[ch], std::clamp(light[ch] + through * bg[ch], 0.0, 1.0), 1.5 / 255.0) << "channel " << ch;
    }
}

// The scene occludes the medium: a blob behind the stone block, seen through it, leaves the picture as the
// scene alone draws it (60 dB: within a level), in volume-reference and in volume; a blob in front of the
// block is plainly visible. The stone is the box at (0.2, 0.12, 0.9) (render/frame/scene.cpp).
TEST_F(Medium, TheSceneOccludesTheMedium) {
    for (const std::string name : {"volume-reference", "volume"}) {
        SCOPED_TRACE(name);
        auto at = [&](const glm::vec3& p, float size = 0.15f) {
            harness::CaptureSettings s = oneBlob(p, size, {1.0f, 0.8f, 0.4f, 1.0f}, {0.2f, 0.12f, 0.0f});
            s.strategies = {name};
            return draw(s).at(name).image;
        };
        const image::Image sceneOnly = at({100.0f, 0.12f, 0.0f});
        const image::Image behind = at({0.2f, 0.12f, 0.5f});
        const image::Image inFront = at({0.2f, 0.12f, 1.4f}, 0.3f);
        EXPECT_GE(harness::psnr(behind, sceneOnly), 60.0);
        EXPECT_LT(harness::psnr(inFront, sceneOnly), 35.0);
    }
}

// An effect's layers are one medium: the campfire with its layers listed in reverse draws the same picture
// in volume (layer order does not arise: its fixed-point sums are order-free) and in volume-reference (its
// march meets the same kernels in another order: the same sums up to rounding). The campfire's flame glows
// inside its absorbing smoke, so this is also the march through a mixed medium.
TEST_F(Medium, LayersAreOneMediumWhateverTheirOrder) {
    const std::filesystem::path dir =
        std::filesystem::temp_directory_path() / ("firelab-medium-" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
    std::ifstream in(std::filesystem::path(FIRELAB_SOURCE_DIR) / "effects" / "campfire.toml");
    std::stringstream text;
    text << in.rdbuf();
    // The [[layer]] tables reversed.
    const std::string all = text.str();
    std::vector<std::string> tables;
    std::string head;
    size_t at = all.find("[[layer]]");
    head = all.substr(0, at);
    while (at != std::string::npos) {
        const size_t next = all.find("[[layer]]", at + 1);
        tables.push_back(all.substr(at, next == std::string::npos ? std::string::npos : next - at));
        at = next;
    }
    ASSERT_GE(tables.size(), 2u);
    std::ofstream out(dir / "reversed.toml");
    out << head;
    for (auto it = tables.rbegin(); it != tables.rend(); ++it) out << *it << '\n';
    out.close();

    harness::CaptureSettings s = smallCapture({"volume", "volume-reference"}, 1500);
    s.overdraw = false;
    s.effect = "campfire";
    auto forward = draw(s);
    s.effect = (dir / "reversed.toml").string();
    auto reversed = draw(s);
    for (const std::string name : {"volume", "volume-reference"}) {
        SCOPED_TRACE(name);
        EXPECT_GE(harness::psnr(forward.at(name).image, reversed.at(name).image), 60.0);
    }
    EXPECT_TRUE(render::lastMediumConvergence().converged);
    std::filesystem::remove_all(dir);
}

// volume converges to volume-reference as its grid refines: each finer grid (smaller froxels, more slices)
// is closer in the fire, and the finest is close (measured 30+ dB).
TEST_F(Medium, TheVolumeGridConvergesToTheReference) {
    harness::CaptureSettings s = smallCapture({"volume"});
    s.render.hdr = true;
    s.reference = "strategy=volume-reference";
    std::vector<double> scores;
    const std::pair<render::VolumeCell, render::VolumeSlices> grids[] = {
        {render::VolumeCell::Px32, render::VolumeSlices::S32},
        {render::VolumeCell::Px8, render::VolumeSlices::S64},
        {render::VolumeCell::Px4, render::VolumeSlices::S256}};
    harness::CaptureSettings r = s;
    r.strategies = {"volume-reference"};
    const auto reference = draw(r).at("volume-reference");
    for (const auto& [cell, slices] : grids) {
        s.render.volumeCell = cell, s.render.volumeSlices = slices;
        scores.push_back(firePsnr(draw(s).at("volume"), reference));
    }
    EXPECT_LT(scores[0], scores[1]);
    EXPECT_LT(scores[1], scores[2]);
    EXPECT_GE(scores[2], 30.0);
    std::printf("volume against volume-reference in the fire: cell 32/32 slices %.1f dB, 8/64 %.1f dB, 4/256 %.1f dB\n",
                scores[0], scores[1], scores[2]);
}

}  // namespace
}  // namespace firelab::testing

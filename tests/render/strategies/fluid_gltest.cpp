// The grid fluid drawn (--model fluid): the medium strategies integrate the grid's gas (render/particles/medium.h,
// gridKernels), volume converges to volume-reference on it as on particles, and sprite strategies draw the
// particles the fluid carries (--motion fluid), which gather where its gas is (their light rises as high as the grid's).
#include <gtest/gtest.h>

#include <cstdio>
#include <map>
#include <vector>

#include "harness/draw/capture.h"
#include "harness/quality/image_metrics.h"
#include "support/gl_fixture.h"

namespace firelab::testing {
namespace {

class FluidDrawn : public GlTest {
protected:
    // A small fluid fire (16x32x16 cells of 0.1 m) 1.5 s after it is lit, seen from the default camera.
    static harness::CaptureSettings fluidCapture(std::vector<std::string> strategies) {
        harness::CaptureSettings s = smallCapture(std::move(strategies));
        s.fluid.model = fluid::Model::Fluid;
        s.fluid.grid = {16, 32, 16};
        s.fluid.cell = 0.1f;
        return s;
    }
    static std::map<std::string, harness::CaptureResult> draw(const harness::CaptureSettings& s) {
        std::map<std::string, harness::CaptureResult> out;
        for (auto& r : harness::renderStrategies(s)) out.emplace(r.strategy, std::move(r));
        return out;
    }
    static double light(const image::Image& im) {
        double sum = 0.0;
        for (int y = 0; y < im.height; ++y)
            for (int x = 0; x < im.width; ++x) sum += im.at(x, y)[0] + im.at(x, y)[1] + im.at(x, y)[2];
        return sum;
    }
    static std::vector<bool> covered(const harness::CaptureResult& a, const harness::CaptureResult& b) {
        std::vector<bool> fire(a.overdraw.counts.size());
        for (size_t i = 0; i < fire.size(); ++i) fire[i] = a.overdraw.counts[i] > 0.0f || b.overdraw.counts[i] > 0.0f;
        return fire;
    }
};

// The grid's medium is drawn, and it is the grid's: another grid (no fuel at the source) draws the scene alone.
TEST_F(FluidDrawn, TheMediumStrategiesDrawTheGridsGas) {
    harness::CaptureSettings s = fluidCapture({"volume-reference", "volume"});
    const auto lit = draw(s);
    s.fluid.sourceFuel = 0.0f, s.fluid.sourceTemperature = s.fluid.ambient;
    const auto unlit = draw(s);
    for (const char* name : {"volume-reference", "volume"}) {
        SCOPED_TRACE(name);
        EXPECT_GT(lit.at(name).drawn, 100u) << "cells that glow, each a kernel";
        EXPECT_EQ(unlit.at(name).drawn, 0u) << "no gas hotter than the air, no soot";
        EXPECT_GT(light(lit.at(name).image), light(unlit.at(name).image) * 1.05);
    }
}

// The real-time froxel grid converges to the reference on the grid's gas as on particles (medium_gltest.cpp):
// each finer froxel grid is closer over the fire's pixels, and the finest is close.
TEST_F(FluidDrawn, TheVolumeConvergesToTheReferenceOnTheGridsGas) {
    harness::CaptureSettings s = fluidCapture({"volume-reference"});
    const auto reference = draw(s).at("volume-reference");
    s.strategies = {"volume"};
    const std::pair<render::VolumeCell, render::VolumeSlices> grids[] = {
        {render::VolumeCell::Px32, render::VolumeSlices::S32},
        {render::VolumeCell::Px8, render::VolumeSlices::S64},
        {render::VolumeCell::Px4, render::VolumeSlices::S256}};
    std::vector<double> scores;
    for (const auto& [cell, slices] : grids) {
        s.render.volumeCell = cell, s.render.volumeSlices = slices;
        const auto volume = draw(s).at("volume");
        scores.push_back(harness::psnr(volume.image, reference.image, covered(volume, reference)));
    }
    std::printf("volume against volume-reference on the grid's gas: 32/32 %.1f dB, 8/64 %.1f dB, 4/256 %.1f dB\n",
                scores[0], scores[1], scores[2]);
    EXPECT_LT(scores[0], scores[1]);
    EXPECT_LT(scores[1], scores[2]);
    EXPECT_GE(scores[2], 30.0);
}

// Sprites draw the particles the fluid carries: moved by its velocity, they are where its hot gas rose (their
// light's centroid is within 15 % of the picture's height of the grid's).
TEST_F(FluidDrawn, SpritesDrawTheParticlesTheFluidCarries) {
    harness::CaptureSettings s = fluidCapture({"volume-reference", "billboards-cpu"});
    s.fluid.motion = fluid::Motion::Fluid;
    const auto carried = draw(s);
    const auto& grid = carried.at("volume-reference");
    const auto& sprites = carried.at("billboards-cpu");
    EXPECT_GT(sprites.drawn, 1000u);
    // The fire's light (over the pixels its fragments cover) weighted by row.
    const auto centroidY = [](const harness::CaptureResult& r) {
        double sum = 0.0, w = 0.0;
        for (int y = 0; y < r.image.height; ++y)
            for (int x = 0; x < r.image.width; ++x) {
                if (r.overdraw.counts[static_cast<size_t>(y) * static_cast<size_t>(r.image.width) +
                                      static_cast<size_t>(x)] <= 0.0f)
                    continue;
                const double l = r.image.at(x, y)[0] + r.image.at(x, y)[1] + r.image.at(x, y)[2];
                sum += l * y, w += l;
            }
        return w > 0.0 ? sum / w : -1.0;
    };
    EXPECT_NEAR(centroidY(sprites), centroidY(grid), 0.15 * grid.image.height);
}

}  // namespace
}  // namespace firelab::testing

// Quality scoring with a GL context: a run scored against itself is perfect, the replay draws the state
// the timed frames drew, fragments shaded are at least the fragments visible, energy-preserving alpha
// keeps the mean image of a 10x-count reference, and a supersampled reference is drawn at its size.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <string>

#include <unistd.h>

#include "support/gl_fixture.h"
#include "harness/quality/image_metrics.h"
#include "harness/draw/scorer.h"
#include "render/camera.h"
#include "render/frame/frame_pipeline.h"
#include "render/gl/frame_target.h"
#include "render/frame/scene.h"
#include "render/strategies/strategy.h"
#include "sim/fire_system.h"

namespace firelab::testing {
namespace {

harness::RunSettings smallRun(const std::string& strategy, uint32_t particles = 2000) {
    harness::RunSettings s;
    s.strategy = strategy;
    s.params.particles = particles;
    s.width = 160;
    s.height = 120;
    s.threads = 1;
    s.render.hdr = false;  // linear 8-bit light: energy-preserving alpha is exact there, not through a tone curve
    s.fireLight = 0;       // the scene's static glow: these tests compare particles, not the light they cast
    return s;
}

// Mean Rec. 601 luma of an image minus a background image, 0..255.
double meanLumaAbove(const image::Image& img, const image::Image& background) {
    double sum = 0;
    for (size_t i = 0; i < img.pixels.size(); i += 4)
        for (size_t c = 0; c < 3; ++c) {
            const double w = c == 0 ? 0.299 : c == 1 ? 0.587 : 0.114;
            sum += w * (double(img.pixels[i + c]) - double(background.pixels[i + c]));
        }
    return sum / double(img.pixels.size() / 4);
}

class Quality : public GlTest {
protected:
    render::Scene scene_{FIRELAB_SOURCE_DIR};
};

TEST_F(Quality, ARunScoredAgainstItselfIsPerfect) {
    auto s = smallRun("billboards-cpu");
    s.quality.enabled = true;
    s.quality.reference = harness::parseReference("strategy=billboards-cpu");  // exactly the run
    harness::QualityScorer scorer(FIRELAB_SOURCE_DIR, scene_);
    const auto q = scorer.score(s, "k", {100, 120}, {});
    EXPECT_EQ(q.frames, 2);
    EXPECT_EQ(q.mean.frame("psnr"), harness::kPsnrCap);
    EXPECT_EQ(q.mean.fire("psnr"), harness::kPsnrCap);
    EXPECT_DOUBLE_EQ(q.mean.frame("ssim"), 1.0);
    EXPECT_DOUBLE_EQ(q.mean.fire("ssim"), 1.0);
    EXPECT_DOUBLE_EQ(q.mean.frame("flip"), 0.0);
    EXPECT_DOUBLE_EQ(q.mean.fire("flip"), 0.0);
    EXPECT_DOUBLE_EQ(q.flickerRatio, 1.0);  // the same change frame to frame
    EXPECT_GT(q.fragmentsVisible, 1000.0);
    EXPECT_GT(q.fragmentsShaded, q.fragmentsVisible);  // transparent texels are shaded, then discarded
    EXPECT_GT(q.coveredFraction, 0.02);
    EXPECT_LT(q.coveredFraction, 0.9);
}

// A reference that draws no sprite (volume-reference, points) is one picture whatever the run's texture: runs
// over textures share its frame (one file in the report, drawn once); a sprite reference is one per texture.
TEST_F(Quality, AReferenceWithoutASpriteIsSharedAcrossTextures) {
    const std::filesystem::path dir =
        std::filesystem::temp_directory_path() / ("firelab-refshare-" + std::to_string(::getpid()));
    harness::QualityScorer scorer(FIRELAB_SOURCE_DIR, scene_);
    harness::FrameOutput out;
    out.reportDir = dir;
    auto referencePng = [&](const std::string& reference, const std::string& texture) {
        auto s = smallRun("billboards-instanced", 500);
        s.quality.enabled = true;
        s.quality.reference = harness::parseReference(reference);
        s.render.texture = texture;
        return scorer.score(s, "k-" + texture, {60}, out).referencePng;
    };
    EXPECT_EQ(referencePng("strategy=volume-reference", "flame.png"),
              referencePng("strategy=volume-reference", "gaussian.png"));
    EXPECT_EQ(referencePng("strategy=points", "flame.png"), referencePng("strategy=points", "gaussian.png"));
    EXPECT_NE(referencePng("strategy=billboards-cpu", "flame.png"),
              referencePng("strategy=billboards-cpu", "gaussian.png"));
    std::filesystem::remove_all(dir);
}

// Issue 23: an empty fire region scored perfectly (PSNR 100, SSIM 1, FLIP 0). A fire off screen has no
// fire scores (NaN: empty in the CSV) while its frame scores stand; a fire in view has them.
TEST_F(Quality, NoFireInViewHasNoFireScores) {
    auto s = smallRun("billboards-instanced", 500);
    s.quality.enabled = true;
    s.quality.reference = harness::parseReference("strategy=billboards-cpu");
    s.params.center = {100.0f, 0.0f, 0.0f};  // far off screen
    harness::QualityScorer scorer(FIRELAB_SOURCE_DIR, scene_);
    const auto away = scorer.score(s, "away", {60, 80}, {});
    EXPECT_EQ(away.frames, 2);
    EXPECT_EQ(away.fireFrames, 0);
    for (const char* m : {"psnr", "ssim", "flip"}) {
        SCOPED_TRACE(m);
        EXPECT_TRUE(std::isnan(away.mean.fire(m)));
        EXPECT_TRUE(std::isfinite(away.mean.frame(m)));
    }
    // Nor a flicker figure (the adversarial pass: it stayed a perfect 1 with no fire in view).
    EXPECT_LT(away.flickerRatio, 0.0);
    s.params.center = {0.0f, 0.0f, 0.0f};
    const auto here = scorer.score(s, "here", {60, 80}, {});
    EXPECT_EQ(here.fireFrames, 2);
    EXPECT_TRUE(std::isfinite(here.mean.fire("ssim")));
    EXPECT_GT(here.flickerRatio, 0.0);
}

TEST_F(Quality, ScoresSeparateADifferentPictureAndTheFireRegionIsStricter) {
    auto s = smallRun("points");
    s.quality.enabled = true;  // default reference: billboards-cpu sorted
    harness::QualityScorer scorer(FIRELAB_SOURCE_DIR, scene_);
    const auto q = scorer.score(s, "k", {110}, {});
    EXPECT_LT(q.mean.frame("psnr"), 40.0);
    EXPECT_GT(q.mean.frame("flip"), 0.0);
    // The background matches everywhere outside the fire, so the fire's region scores worse.
    EXPECT_LT(q.mean.fire("ssim"), q.mean.frame("ssim"));
    EXPECT_GT(q.mean.fire("flip"), q.mean.frame("flip"));
    EXPECT_LE(q.mean.fire("psnr"), q.mean.frame("psnr"));
}

TEST_F(Quality, ReplayDrawsTheStateTheTimedFramesDrew) {
    // What a run draws after 100 steps, drawn directly, equals the replay's frame at step 100.
    const auto s = smallRun("billboards-instanced");
    sim::FireSystem fire(s.params, 1);
    for (int i = 0; i < 100; ++i) fire.step(s.dt);
    render::FrameTarget target(s.width, s.height);
    auto strategy = render::makeStrategy(s.strategy, {FIRELAB_SOURCE_DIR, s.render, s.params, s.dt});
    const auto camera = render::orbitCamera(fire.time(), s.width, s.height);
    strategy->upload(fire, camera);
    render::FramePipeline pipeline(FIRELAB_SOURCE_DIR, s.render, s.width, s.height);
    pipeline.draw(scene_, *strategy, camera, target);
    glFinish();
    const image::Image direct = target.read();
    harness::FrameReplay replay(s, 1, FIRELAB_SOURCE_DIR, scene_);
    replay.drawAt(40);  // an earlier frame on the way changes nothing
    const auto frame = replay.drawAt(100);
    EXPECT_EQ(harness::psnr(frame.image, direct), harness::kPsnrCap);
}

TEST_F(Quality, EnergyPreservingAlphaKeepsTheMeanImage) {
    // Additive light: 150 particles with alpha x10 against 1500 of the same model, seed and time. Small
    // sprites over a wide emitter keep the overlap low, so a reference fragment still carries ~20 of
    // 255 levels (8-bit rounding per fragment stays small) and no pixel clips. Tolerance 5 % of the
    // mean luma (150 particles sample the light; measured 1.7 % with seed 1, and 4 % before the
    // generator was shared with the GPU).
    auto run = smallRun("billboards-cpu", 150);
    run.params.extent = {0.7f, 0.7f, 0.7f};
    run.params.sizeStart = 0.08f, run.params.sizeEnd = 0.05f;
    run.params.gradient = {{0.0f, {0.9f, 0.8f, 0.6f, 0.1f}}, {1.0f, {0.9f, 0.6f, 0.3f, 0.1f}}};
    run.quality.enabled = true;
    run.quality.energyPreserving = true;
    run.quality.reference = harness::parseReference("strategy=billboards-cpu;particles=1500");
    const auto drawn = [&](const harness::RunSettings& s) {
        harness::FrameReplay replay(s, 1, FIRELAB_SOURCE_DIR, scene_);
        return replay.drawAt(150).image;
    };
    auto scaled = run;
    scaled.render = harness::effectiveRenderOptions(run);
    ASSERT_FLOAT_EQ(scaled.render.alphaScale, 10.0f);
    auto empty = run;
    empty.params.particles = 1;
    empty.params.gradient = {{0.0f, {0.0f, 0.0f, 0.0f, 0.0f}}, {1.0f, {0.0f, 0.0f, 0.0f, 0.0f}}};
    const image::Image background = drawn(empty);
    const image::Image reference = drawn(harness::referenceSettings(run, run.quality.reference));
    const double few = meanLumaAbove(drawn(scaled), background);
    const double many = meanLumaAbove(reference, background);
    const double unscaled = meanLumaAbove(drawn(run), background);
    ASSERT_GT(many, 0.5);
    int brightest = 0;
    for (size_t i = 0; i < reference.pixels.size(); ++i)
        if (i % 4 != 3) brightest = std::max(brightest, int(reference.pixels[i]));
    ASSERT_LT(brightest, 255) << "the reference clips";
    EXPECT_NEAR(few / many, 1.0, 0.05) << "few " << few << " many " << many << " unscaled " << unscaled;
    EXPECT_NEAR(unscaled / many, 0.1, 0.02);  // without the scale: a tenth of the light
}

TEST_F(Quality, SupersampledReferenceIsDrawnLargerAndFilteredDown) {
    const auto s = smallRun("billboards-cpu");
    harness::FrameReplay one(s, 1, FIRELAB_SOURCE_DIR, scene_), two(s, 2, FIRELAB_SOURCE_DIR, scene_);
    const auto a = one.drawAt(100), b = two.drawAt(100);
    ASSERT_EQ(b.image.width, s.width);
    ASSERT_EQ(b.image.height, s.height);
    ASSERT_EQ(b.overdraw.counts.size(), a.overdraw.counts.size());
    ASSERT_EQ(b.overdraw.width, s.width);
    const double p = harness::psnr(a.image, b.image);
    EXPECT_LT(p, harness::kPsnrCap);  // not the same picture: edges are antialiased
    EXPECT_GT(p, 25.0);               // but the same fire
    // Counted at 2x2 the pixels (fewer than 4x: the sharper mip level leaves more texels below the
    // discard threshold).
    EXPECT_GT(b.overdraw.total, 2.0 * a.overdraw.total);
}

}  // namespace
}  // namespace firelab::testing

namespace firelab::testing {
namespace {

TEST_F(Quality, AReferenceOfSeveralSeedsIsCloserToAnyRealisation) {
    // The mean image of 6 seeds has less sampling noise than one seed, so a realisation with a seed of
    // its own (20) scores better against it: the noise floor of a comparison drops.
    auto run = smallRun("billboards-cpu", 1500);
    run.params.seed = 20;
    run.quality.enabled = true;
    harness::QualityScorer scorer(FIRELAB_SOURCE_DIR, scene_);
    run.quality.reference = harness::parseReference("strategy=billboards-cpu;seed=1");
    const auto one = scorer.score(run, "one", {100}, {});
    run.quality.reference = harness::parseReference("strategy=billboards-cpu;seed=1;seeds=6");
    EXPECT_EQ(harness::referenceText(run.quality.reference), "strategy=billboards-cpu;seed=1;supersample=1;seeds=6");
    const auto six = scorer.score(run, "six", {100}, {});
    EXPECT_GT(six.mean.fire("ssim"), one.mean.fire("ssim"));
    EXPECT_GT(six.mean.fire("psnr"), one.mean.fire("psnr"));
    EXPECT_LT(six.mean.fire("flip"), one.mean.fire("flip"));
}

}  // namespace
}  // namespace firelab::testing

// The quality settings without GL: --reference specs (parsing, canonical text, errors naming the flag and
// the key), the reference's settings and the energy-preserving alpha scale, the [quality] table of an
// experiment file, --quality-metrics, and which frames are scored.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "harness/settings/experiment.h"
#include "harness/draw/scorer.h"
#include "core/error.h"

#include "support/error_of.h"
#include "support/scratch_dir.h"

namespace {

using firelab::Error;
using firelab::ErrorCode;
namespace h = firelab::harness;

using firelab::testing::errorOf;

bool mentions(const Error& e, const std::string& text) { return std::string(e.what()).find(text) != std::string::npos; }

TEST(ReferenceSpec, DefaultIsBillboardsCpuSortedAtFullResolution) {
    const h::QualitySettings q;
    EXPECT_EQ(h::referenceText(q.reference), "strategy=billboards-cpu;sort=back-to-front;supersample=1");
    h::RunSettings run;
    run.strategy = "points";
    run.params.particles = 1234;
    run.render.blend = firelab::render::Blend::Alpha;
    const h::RunSettings ref = h::referenceSettings(run, q.reference);
    EXPECT_EQ(ref.strategy, "billboards-cpu");
    EXPECT_EQ(ref.render.sort, firelab::render::Sort::BackToFront);
    EXPECT_EQ(ref.render.blend, firelab::render::Blend::Alpha);  // follows the run
    EXPECT_EQ(ref.params.particles, 1234u);
    EXPECT_FALSE(ref.quality.enabled);
}

TEST(ReferenceSpec, ParsesKeysInAnyOrderToCanonicalText) {
    const auto spec =
        h::parseReference(" supersample=2; particles = 2e4 ;strategy=billboards-cpu;seed=7;sort=back-to-front");
    EXPECT_EQ(spec.supersample, 2);
    EXPECT_EQ(h::referenceText(spec),
              "strategy=billboards-cpu;sort=back-to-front;particles=20000;seed=7;supersample=2");
    h::RunSettings run;
    run.params.particles = 1000;
    run.render.texture = "smoke.png";
    const auto ref = h::referenceSettings(run, spec);
    EXPECT_EQ(ref.params.particles, 20000u);
    EXPECT_EQ(ref.render.texture, "smoke.png");
    EXPECT_EQ(ref.params.seed, 7u);  // a pinned reference seed: another seed of the run is a noise floor
    // Its canonical text parses back to itself.
    EXPECT_EQ(h::referenceText(h::parseReference(h::referenceText(spec))), h::referenceText(spec));
}

TEST(ReferenceSpec, ABareNameReplacesOnlyTheStrategy) {
    const auto spec = h::parseReference("points");
    EXPECT_EQ(h::referenceText(spec), "strategy=points;supersample=1");
    h::RunSettings run;
    run.render.sort = firelab::render::Sort::None;
    EXPECT_EQ(h::referenceSettings(run, spec).render.sort, firelab::render::Sort::None);
}

TEST(ReferenceSpec, EveryRenderOptionIsAKeyAndTheRestFollowTheRun) {
    const auto spec = h::parseReference("exposure=2.50;hdr=on;hull=8;particle-scale=0.5;strategy=billboards-cpu");
    EXPECT_EQ(h::referenceText(spec),
              "strategy=billboards-cpu;particle-scale=0.5;hull=8;hdr=true;exposure=2.5;supersample=1");
    h::RunSettings run;
    run.render.tonemap = firelab::render::Tonemap::Reinhard;
    run.render.soft = 0.2f;
    const auto ref = h::referenceSettings(run, spec);
    EXPECT_EQ(ref.render.hull, firelab::render::Hull::Eight);
    EXPECT_EQ(ref.render.particleScale, firelab::render::ParticleScale::Half);
    EXPECT_TRUE(ref.render.hdr);
    EXPECT_FLOAT_EQ(ref.render.exposure, 2.5f);
    EXPECT_EQ(ref.render.tonemap, firelab::render::Tonemap::Reinhard);  // the run's own tone mapping
    EXPECT_FLOAT_EQ(ref.render.soft, 0.2f);
    for (const auto& name : h::renderOptionNames())
        EXPECT_NE(std::string(h::referenceKeyList()).find(name), std::string::npos) << name;
    const Error bad = errorOf([] { h::parseReference("hull=6"); });
    EXPECT_TRUE(mentions(bad, "--reference") && mentions(bad, "--hull") && mentions(bad, "quad, 4, 8")) << bad.what();
}

// A run's fill-rate approximations are what quality scores: its reference draws the full picture in the
// run's look unless the spec names them.
TEST(ReferenceSpec, KeepsTheRunsLookButNotItsFillRateApproximations) {
    h::RunSettings run;
    run.render.particleScale = firelab::render::ParticleScale::Quarter;
    run.render.upsample = firelab::render::Upsample::Bilinear;
    run.render.edgeFixup = true;
    run.render.hull = firelab::render::Hull::Eight;
    run.render.filter = firelab::render::Filter::Nearest;
    run.render.blend = firelab::render::Blend::Alpha;
    run.render.hdr = false;
    run.render.exposure = 2.0f;
    run.render.soft = 0.1f;
    const auto ref = h::referenceSettings(run, h::ReferenceSpec{});
    const firelab::render::RenderOptions full;
    EXPECT_EQ(ref.render.particleScale, full.particleScale);
    EXPECT_EQ(ref.render.upsample, full.upsample);
    EXPECT_EQ(ref.render.edgeFixup, full.edgeFixup);
    EXPECT_EQ(ref.render.hull, full.hull);
    EXPECT_EQ(ref.render.filter, full.filter);
    EXPECT_EQ(ref.render.blend, firelab::render::Blend::Alpha);
    EXPECT_FALSE(ref.render.hdr);
    EXPECT_FLOAT_EQ(ref.render.exposure, 2.0f);
    EXPECT_FLOAT_EQ(ref.render.soft, 0.1f);
    const auto named = h::referenceSettings(run, h::parseReference("strategy=billboards-cpu;hull=4"));
    EXPECT_EQ(named.render.hull, firelab::render::Hull::Four);
}

TEST(ReferenceSpec, BadSpecsNameTheFlagAndTheKey) {
    const Error unknownKey = errorOf([] { h::parseReference("strategy=points;width=3"); });
    EXPECT_EQ(unknownKey.code(), ErrorCode::UnknownName);
    EXPECT_TRUE(mentions(unknownKey, "--reference") && mentions(unknownKey, "'width'") &&
                mentions(unknownKey, "supersample"))
        << unknownKey.what();
    const Error badStrategy = errorOf([] { h::parseReference("strategy=quads"); });
    EXPECT_EQ(badStrategy.code(), ErrorCode::UnknownName);
    EXPECT_TRUE(mentions(badStrategy, "--reference") && mentions(badStrategy, "quads")) << badStrategy.what();
    EXPECT_EQ(errorOf([] { h::parseReference("nope"); }).code(), ErrorCode::UnknownName);
    for (const char* bad : {"particles=abc", "supersample=0", "supersample=9", "sort=sideways", "strategy",
                            "strategy=points;strategy=compute", ";", "blend"}) {
        const Error e = errorOf([&] { h::parseReference(bad); });
        EXPECT_TRUE(mentions(e, "--reference")) << bad << ": " << e.what();
    }
}

TEST(ReferenceSpec, EnergyPreservingScalesAlphaByTheCountRatio) {
    h::RunSettings run;
    run.params.particles = 2000;
    run.quality.reference = h::parseReference("particles=20000");
    EXPECT_FLOAT_EQ(h::effectiveRenderOptions(run).alphaScale, 1.0f);  // off: unchanged
    run.quality.energyPreserving = true;
    EXPECT_FLOAT_EQ(h::effectiveRenderOptions(run).alphaScale, 10.0f);
    run.quality.reference = h::parseReference("strategy=points");  // the same count
    EXPECT_FLOAT_EQ(h::effectiveRenderOptions(run).alphaScale, 1.0f);
}

TEST(QualitySettings, MetricsAreASubsetNeverAList) {
    h::RunSettings s;
    h::applySetting(s, "quality-metrics", "ssim, flip");
    const auto has = [&](const char* m) { return s.quality.metrics.has(h::metricIndex(m)); };
    EXPECT_FALSE(has("psnr"));
    EXPECT_TRUE(has("ssim") && has("flip"));
    EXPECT_EQ(h::settingText(s, "quality-metrics"), "ssim,flip");
    EXPECT_EQ(h::splitValues("quality-metrics", "psnr,ssim"), (std::vector<std::string>{"psnr,ssim"}));
    const Error e = errorOf([&] { h::applySetting(s, "quality-metrics", "psnr,lpips"); });
    EXPECT_TRUE(mentions(e, "--quality-metrics") && mentions(e, "lpips")) << e.what();
}

class QualityTable : public firelab::testing::ScratchDirTest {};

TEST_F(QualityTable, TurnsQualityOnWithItsSettings) {
    const auto f = write("q.toml",
                         "[experiment]\nname = \"q\"\n[quality]\nframes = 6\nreference = \"strategy=billboards-cpu;"
                         "particles=8000;supersample=2\"\nenergy-preserving = true\nmetrics = [\"ssim\", \"flip\"]\n"
                         "[sweep]\nparticles = [1000, 2000]\n");
    const auto runs = h::expand(h::loadExperiment(f), f.string());
    ASSERT_EQ(runs.size(), 2u);
    const auto& q = runs[1].settings.quality;
    EXPECT_TRUE(q.enabled);
    EXPECT_EQ(q.frames, 6);
    EXPECT_EQ(h::referenceText(q.reference), "strategy=billboards-cpu;particles=8000;supersample=2");
    EXPECT_TRUE(q.energyPreserving);
    EXPECT_FALSE(q.metrics.has(h::metricIndex("psnr")));
    EXPECT_FLOAT_EQ(h::effectiveRenderOptions(runs[1].settings).alphaScale, 4.0f);
    // A command-line value overrides the table; enabled = false turns it off.
    auto e = h::loadExperiment(f);
    e.override("quality", "false");
    EXPECT_FALSE(h::expand(e, f.string())[0].settings.quality.enabled);
    const auto off = write("off.toml", "[quality]\nenabled = false\n");
    EXPECT_FALSE(h::expand(h::loadExperiment(off), off.string())[0].settings.quality.enabled);
}

TEST_F(QualityTable, UnknownKeysAndUndrawableReferencesAreRefused) {
    const auto typo = write("typo.toml", "[quality]\nframe = 3\n");
    const Error e = errorOf([&] { h::loadExperiment(typo); });
    EXPECT_EQ(e.code(), ErrorCode::UnknownName);
    EXPECT_TRUE(mentions(e, typo.string() + ":2") && mentions(e, "'frame'")) << e.what();
    // gpu-stateless cannot sort, and the default reference sorts.
    const auto stateless = write(
        "stateless.toml",
        "[quality]\nreference = \"strategy=gpu-stateless\"\n[run]\nsort = \"back-to-front\"\nstrategy = \"compute\"\n");
    const Error s = errorOf([&] { h::expand(h::loadExperiment(stateless), stateless.string()); });
    EXPECT_EQ(s.code(), ErrorCode::BadValue);
    EXPECT_TRUE(mentions(s, "--reference") && mentions(s, "gpu-stateless")) << s.what();
    const auto big = write("big.toml", "[quality]\nreference = \"supersample=8\"\n[run]\nwidth = 4096\n");
    EXPECT_TRUE(mentions(errorOf([&] { h::expand(h::loadExperiment(big), big.string()); }), "supersample"));
}

TEST(ScoredSteps, SpreadEvenlyOverTheMeasuredFrames) {
    // 90 prewarm steps, 10 warm-up frames, 100 measured frames (steps 101..200), 4 scored.
    EXPECT_EQ(h::scoredSteps(90, 10, 100, 4), (std::vector<long>{113, 138, 163, 188}));
    EXPECT_EQ(h::scoredSteps(90, 10, 1, 4), (std::vector<long>{101}));  // fewer frames than asked: each once
    EXPECT_EQ(h::scoredSteps(0, 0, 3, 4).size(), 3u);
    EXPECT_TRUE(h::scoredSteps(90, 10, 0, 4).empty());
    for (long s : h::scoredSteps(5, 7, 40, 9)) {
        EXPECT_GT(s, 5 + 7);
        EXPECT_LE(s, 5 + 7 + 40);
    }
}

// A frame's file name: the key made safe and readable, then a hash of what the run is, so that names never
// collide (issue 36: labels differing only in '/' against '_' overwrote each other's frames, and the report showed
// the wrong picture; two lone runs, both keyed "single", shared one folder).
TEST(FileSlug, SafeReadableAndNeverShared) {
    const auto safe = [](const std::string& slug) {
        return !slug.empty() && slug[0] != '.' && slug.size() <= h::kSlugReadable + 17 &&
               slug.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-") ==
                   std::string::npos;
    };
    EXPECT_EQ(h::fileSlug("strategy=points;particles=1000").rfind("strategy_points_particles_1000-", 0), 0u);
    for (const std::string& key :
         std::vector<std::string>{"../x y", "..", "", "label=a/b", std::string(400, 'k'), "\xff\xfe"})
        EXPECT_TRUE(safe(h::fileSlug(key))) << h::fileSlug(key);
    EXPECT_EQ(h::fileSlug(".."), "_..-" + h::fileSlug("..").substr(4));
    EXPECT_NE(h::fileSlug("label=a/b"), h::fileSlug("label=a_b"));
    EXPECT_NE(h::fileSlug("single", "particles = 100\n"), h::fileSlug("single", "particles = 200\n"));
    EXPECT_EQ(h::fileSlug("single", "particles = 100\n"), h::fileSlug("single", "particles = 100\n"));
}

}  // namespace

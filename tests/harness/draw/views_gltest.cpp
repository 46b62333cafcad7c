// The camera as a setting (--camera, harness/settings/camera_path.h), drawn: coverage against distance, a
// path that passes through a fixed view, camera fade to nothing at NEAR in every strategy, and the points
// clamped up close.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>

#include "harness/draw/capture.h"
#include "harness/draw/layer_rig.h"
#include "harness/settings/camera_path.h"
#include "render/particles/view_census.h"
#include "render/strategies/strategy.h"
#include "support/gl_fixture.h"
#include "support/still_particles.h"

namespace firelab::testing {
namespace {
namespace fs = std::filesystem;

class Views : public GlTest {
protected:
    // The strategies' frames with the capture's camera replaced.
    static std::vector<harness::CaptureResult> drawWith(harness::CaptureSettings s, const render::CameraSettings& c) {
        s.camera = c;
        return harness::renderStrategies(s);
    }
    static render::CameraSettings fixedAt(float distance) {
        render::CameraSettings c;
        c.mode = render::CameraMode::Fixed;
        c.distance = distance;
        return c;
    }
};

TEST_F(Views, CoverageRisesAsTheCameraComesCloser) {
    const auto s = smallCapture({"billboards-instanced"}, 2000);
    double last = -1.0;
    for (const float d : {24.0f, 12.0f, 6.0f, 3.2f, 1.0f}) {
        const auto r = drawWith(s, fixedAt(d));
        ASSERT_EQ(r.size(), 1u);
        SCOPED_TRACE("distance " + std::to_string(d));
        EXPECT_GT(r[0].overdraw.coveredFraction, last);
        last = r[0].overdraw.coveredFraction;
    }
    EXPECT_GT(last, 0.5) << "from 1 m the flame fills most of the frame";
}

TEST_F(Views, APathPassesThroughItsKeysExactly) {
    // A fixed camera's view after 90 steps, and a path whose middle key is that view at that time (the keys
    // around it elsewhere). The clock is the fire's: 90 additions of the float step, not exactly 1.5 s.
    auto s = smallCapture({"billboards-instanced"}, 2000);
    s.time = 1.5f;  // 90 steps of 1/60 s
    double clock = 0.0;
    for (int i = 0; i < 90; ++i) clock += s.dt;
    const render::CameraSettings fixed = fixedAt(2.0f);
    const render::CameraKey there = render::viewKeyAt(fixed, {}, clock);
    const fs::path file = fs::temp_directory_path() / ("firelab-path-" + std::to_string(::getpid()) + ".toml");
    struct Remove {
        fs::path f;
        ~Remove() { fs::remove(f); }
    } removed{file};  // whether the test passes or not
    {
        std::ofstream out(file);
        out << harness::cameraKeyToml({0.0, {5.0f, 2.0f, 1.0f}, {0.0f, 0.5f, 0.0f}, 60.0f}) << "\n"
            << harness::cameraKeyToml({clock, there.eye, there.target, there.fovDeg}) << "\n"
            << harness::cameraKeyToml({4.0, {-1.0f, 3.0f, -2.0f}, {0.0f, 1.0f, 0.0f}, 30.0f});
    }
    render::CameraSettings path;
    path.mode = render::CameraMode::Path;
    path.path = file.string();
    const auto a = drawWith(s, fixed), b = drawWith(s, path);
    ASSERT_EQ(a.size(), 1u);
    ASSERT_EQ(b.size(), 1u);
    EXPECT_EQ(a[0].image.pixels, b[0].image.pixels) << "the frame at a key is the fixed camera's there";
    s.time = 0.75f;  // between keys: somewhere else
    EXPECT_NE(drawWith(s, fixed)[0].image.pixels, drawWith(s, path)[0].image.pixels);
}

TEST_F(Views, CameraFadeReachesNothingAtNearInEveryStrategy) {
    for (const auto& name : render::strategyNames()) {
        SCOPED_TRACE(name);
        auto s = smallCapture({name}, 2000);
        const double full = harness::renderStrategies(s)[0].overdraw.total;
        ASSERT_GT(full, 0.0);
        s.render.cameraFade = {2.0f, 8.0f};  // every particle is 2.5 to 4.5 m away: partly faded
        const auto partly = harness::renderStrategies(s)[0];
        s.render.cameraFade = {20.0f, 40.0f};  // every particle nearer than NEAR: faded out and not drawn
        const auto none = harness::renderStrategies(s)[0];
        EXPECT_EQ(none.overdraw.total, 0.0) << "no fragment survives at NEAR and nearer";
        EXPECT_EQ(none.fragmentsShaded, 0.0) << "nor is any shaded: faded-out particles cost no fill";
        // Partly faded: each particle's alpha is lower, so the fire is darker.
        long lit = 0, litPartly = 0;
        const auto fullImage = harness::renderStrategies(smallCapture({name}, 2000))[0].image;
        for (size_t i = 0; i < fullImage.pixels.size(); i += 4) {
            lit += fullImage.pixels[i];
            litPartly += partly.image.pixels[i];
        }
        EXPECT_LT(litPartly, lit);
    }
}

// The fade's value, not only its ends: one white particle 4 m from the eye, additive; its centre pixel adds
// the particle's light times cameraFadeAt, so fades of 0.5 and 0.25 add light in the ratio 2.
TEST_F(Views, CameraFadeScalesAParticlesLightByItsViewDepth) {
    const fs::path sprite = fs::temp_directory_path() / ("firelab-white-" + std::to_string(::getpid()) + ".png");
    writeWhiteSprite(sprite);
    for (const auto& name : render::strategyNames([](const render::StrategyInfo& i) { return !i.simulatesOnGpu; })) {
        SCOPED_TRACE(name);
        auto s = smallCapture({name});
        s.params = stillParticles({0.0f, 3.0f, 0.0f}, 0.5f);
        s.render.texture = sprite.string();
        s.render.volumeCell = render::VolumeCell::Px4;  // volume's froxels: the finest, to see the centre's light
        s.camera = fixedAt(4.0f);                       // the eye at the particle's height, 4 m away: view depth 4
        s.camera.height = 3.0f;
        s.camera.target = {0.0f, 3.0f, 0.0f};
        auto centre = [&](glm::vec2 fade) {
            s.render.cameraFade = fade;
            const auto r = harness::renderStrategies(s);
            return static_cast<double>(r[0].image.at(s.width / 2, s.height / 2)[0]);
        };
        const double none = centre({5.0f, 6.0f}), half = centre({2.0f, 6.0f}), quarter = centre({3.0f, 7.0f});
        ASSERT_GT(half - none, 20.0) << "the particle is seen at half its light";
        EXPECT_NEAR((half - none) / (quarter - none), 2.0, 0.15);
    }
    fs::remove(sprite);
}

TEST_F(Views, ParticlesBehindTheCameraAreSkippedAndCounted) {
    // From inside the flame: some particles lie behind the eye. The CPU-simulated strategies draw exactly
    // the others, and the census counts them.
    auto s = smallCapture({"billboards-instanced"}, 3000);
    harness::RunSettings run;
    run.params = s.params;
    run.strategy = "billboards-instanced";
    run.camera = fixedAt(0.3f);
    run.camera.height = 0.9f;
    harness::LayerRig rig(run, FIRELAB_SOURCE_DIR);
    for (int i = 0; i < 90; ++i) rig.step(1.0f / 60.0f);
    const render::Camera camera = rig.camera(s.width, s.height);
    rig.upload(camera);
    const render::ViewCensus c = rig.census(camera, 1e9f);
    EXPECT_GT(c.behind, 0u) << "inside the flame";
    EXPECT_LT(c.behind, c.alive);
    EXPECT_EQ(rig.stack().strategy(0).drawnCount(), c.alive - c.behind);
    // A GPU-simulated strategy replays the CPU model for its census: the same counts at the same step.
    run.strategy = "gpu-stateless";
    harness::LayerRig gpu(run, FIRELAB_SOURCE_DIR);
    for (int i = 0; i < 90; ++i) gpu.step(1.0f / 60.0f);
    const render::ViewCensus g = gpu.census(camera, 1e9f);
    EXPECT_EQ(g.alive, c.alive);
    EXPECT_EQ(g.behind, c.behind);
}

TEST_F(Views, PointsAreClampedUpCloseOnlyWhereTheyExceedTheLargestPoint) {
    const float largest = context().info().pointSizeMax;
    ASSERT_GE(largest, 1.0f);
    harness::RunSettings run;
    run.params.particles = 3000;
    run.strategy = "points";
    run.width = 1280, run.height = 720;
    harness::LayerRig rig(run, FIRELAB_SOURCE_DIR);
    for (int i = 0; i < 90; ++i) rig.step(1.0f / 60.0f);
    const render::ViewCensus atDefault = rig.census(rig.camera(run.width, run.height), largest);
    EXPECT_EQ(atDefault.clamped, 0u) << "the default view draws every point at its size";
    // Sprites four times the largest point across, seen from about 1 m: most are clamped, whatever the GL.
    const float perUnit = render::pixelsPerUnit(render::lookAtCamera({1, 0, 0}, {0, 0, 0}, 45.0f, 1280, 720), 720.0f);
    run.params.sizeStart = run.params.sizeEnd = 4.0f * largest / perUnit;
    run.camera = fixedAt(1.0f);
    harness::LayerRig close(run, FIRELAB_SOURCE_DIR);
    for (int i = 0; i < 90; ++i) close.step(1.0f / 60.0f);
    const render::ViewCensus up = close.census(close.camera(run.width, run.height), largest);
    EXPECT_GT(up.clampedFraction(), 0.5);
}

}  // namespace
}  // namespace firelab::testing

// Per-pass GPU time (render/gl/pass_timer.h) on a real frame: results arrive kLag frames later, once; the
// whole frame's span holds its passes; a null timer records nothing and changes no picture; a pass outside
// a frame is not timed and one inside another is part of it. (Values are not meaningful on llvmpipe; only
// their presence, sign and order are asserted.)
#include <gtest/gtest.h>

#include <numeric>
#include <optional>
#include <vector>

#include "support/gl_fixture.h"
#include "render/camera.h"
#include "render/frame/frame_pipeline.h"
#include "render/gl/frame_target.h"
#include "render/gl/pass_timer.h"
#include "render/frame/scene.h"
#include "render/strategies/strategy.h"
#include "sim/fire_system.h"
#include "support/frame_step.h"

namespace firelab::testing {
namespace {

using render::Pass;
using render::PassTimer;
constexpr int kW = 160, kH = 96;

size_t index(Pass p) { return static_cast<size_t>(p); }

class PassTimerTest : public GlTest {
protected:
    void SetUp() override {
        GlTest::SetUp();
        if (IsSkipped() || HasFatalFailure()) return;
        scene_ = std::make_unique<render::Scene>(FIRELAB_SOURCE_DIR);
    }
    void TearDown() override {
        scene_.reset();
        GlTest::TearDown();
    }

    // Every pass: GPU simulation and sorting, low-resolution particles with edge fix-up, tone mapping.
    static render::RenderOptions everyPass() {
        render::RenderOptions o;
        o.sort = render::Sort::BackToFront;
        o.particleScale = render::ParticleScale::Half;
        o.edgeFixup = true;
        o.hdr = true;
        return o;
    }

    std::unique_ptr<render::Scene> scene_;
};

TEST_F(PassTimerTest, TheFrameSpanHoldsItsPassesAndEachFrameIsReadOnceKLagFramesLater) {
    sim::FireParams params;
    params.particles = 2000;
    const auto options = everyPass();
    auto strategy = render::makeStrategy("compute", {FIRELAB_SOURCE_DIR, options, params, kDt});
    render::FramePipeline pipeline(FIRELAB_SOURCE_DIR, options, kW, kH);
    render::FrameTarget target(kW, kH);
    sim::FireSystem fire(params, 1);
    PassTimer timer;
    strategy->setTimer(&timer);
    pipeline.setTimer(&timer);
    constexpr long kFrames = 6;
    std::vector<render::PassTimes> read;
    for (long f = 0; f < kFrames; ++f) {
        fire.advanceClock(kDt);
        const auto camera = render::orbitCamera(fire.time(), kW, kH);
        timer.beginFrame(f);
        strategy->upload(fire, camera);
        pipeline.draw(*scene_, *strategy, camera, target);
        timer.endFrame();
        glFinish();  // frame f is done: only the lag keeps it from being read now
        const auto t = timer.collect(f);
        EXPECT_EQ(t.has_value(), f >= PassTimer::kLag) << "frame " << f;
        if (t) read.push_back(*t);
        EXPECT_FALSE(timer.collect(f)) << "frame " << f - PassTimer::kLag << " read twice";
    }
    for (long f = kFrames; f < kFrames + PassTimer::kLag; ++f) {
        const auto t = timer.collect(f);
        ASSERT_TRUE(t) << "frame " << f - PassTimer::kLag;
        read.push_back(*t);
    }
    ASSERT_EQ(read.size(), static_cast<size_t>(kFrames));
    for (const auto& t : read) {
        double sum = 0.0;
        for (size_t p = 0; p < render::kPassCount; ++p) {
            // volume's (below), not compute's; the haze pass only with a haze layer (tests/render/frame/haze_gltest.cpp)
            if (p == index(Pass::Splat) || p == index(Pass::Integrate) || p == index(Pass::Haze)) {
                EXPECT_FALSE(t.passMs[p]) << render::kPassNames[p];
                continue;
            }
            ASSERT_TRUE(t.passMs[p]) << render::kPassNames[p] << " missing";
            EXPECT_GE(*t.passMs[p], 0.0) << render::kPassNames[p];
            sum += *t.passMs[p];
        }
        EXPECT_GE(t.frameMs, sum - 1e-6) << "the passes are disjoint spans inside the frame";
    }
}

// The volume strategy's grid passes: its upload fills (splat) and integrates the froxel grid, each timed as its
// pass, before the frame's scene; its composite is the particles pass.
TEST_F(PassTimerTest, TheVolumeMarksItsSplatAndIntegratePasses) {
    sim::FireParams params;
    params.particles = 2000;
    render::RenderOptions options;
    auto strategy = render::makeStrategy("volume", {FIRELAB_SOURCE_DIR, options, params, kDt});
    render::FramePipeline pipeline(FIRELAB_SOURCE_DIR, options, kW, kH);
    render::FrameTarget target(kW, kH);
    sim::FireSystem fire(params, 1);
    for (int i = 0; i < 30; ++i) fire.step(kDt);
    PassTimer timer;
    strategy->setTimer(&timer);
    pipeline.setTimer(&timer);
    const auto camera = render::orbitCamera(fire.time(), kW, kH);
    timer.beginFrame(0);
    strategy->upload(fire, camera);
    pipeline.draw(*scene_, *strategy, camera, target);
    timer.endFrame();
    glFinish();
    const auto t = timer.collect(PassTimer::kLag);
    ASSERT_TRUE(t);
    for (Pass p : {Pass::Splat, Pass::Integrate, Pass::Scene, Pass::Particles, Pass::Tonemap})
        EXPECT_TRUE(t->passMs[index(p)]) << render::kPassNames[index(p)] << " missing";
    EXPECT_FALSE(t->passMs[index(Pass::Simulate)]);
}

TEST_F(PassTimerTest, ANullTimerRecordsNothingAndChangesNoPicture) {
    { PassTimer::Scope scope(nullptr, Pass::Scene); }  // nothing to mark: no GL call, no crash
    sim::FireParams params;
    params.particles = 2000;
    const auto options = everyPass();
    sim::FireSystem fire(params, 1);
    for (int i = 0; i < 30; ++i) fire.step(kDt);
    const auto camera = render::orbitCamera(fire.time(), kW, kH);
    auto picture = [&](PassTimer* timer) {
        auto strategy = render::makeStrategy("billboards-cpu", {FIRELAB_SOURCE_DIR, options, params, kDt});
        render::FramePipeline pipeline(FIRELAB_SOURCE_DIR, options, kW, kH);
        strategy->setTimer(timer);
        pipeline.setTimer(timer);
        render::FrameTarget target(kW, kH);
        strategy->upload(fire, camera);
        pipeline.draw(*scene_, *strategy, camera, target);
        return target.read().pixels;
    };
    PassTimer timer;
    timer.beginFrame(0);
    const auto untimed = picture(nullptr);  // inside a frame, but the pipeline and strategy have no timer
    timer.endFrame();
    timer.beginFrame(1);
    const auto timed = picture(&timer);
    timer.endFrame();
    EXPECT_EQ(timed, untimed);
    glFinish();
    const auto t0 = timer.collect(PassTimer::kLag), t1 = timer.collect(PassTimer::kLag + 1);
    ASSERT_TRUE(t0 && t1);
    for (size_t p = 0; p < render::kPassCount; ++p) EXPECT_FALSE(t0->passMs[p]) << render::kPassNames[p];
    EXPECT_GE(t0->frameMs, 0.0);
    EXPECT_TRUE(t1->passMs[index(Pass::Scene)] && t1->passMs[index(Pass::Particles)]);
}

TEST_F(PassTimerTest, APassInsideAnotherIsPartOfItAndAnOpenPassEndsWithTheFrame) {
    PassTimer timer;
    timer.begin(Pass::Scene);  // before any frame: not timed
    timer.end();
    timer.beginFrame(0);
    {
        PassTimer::Scope particles(&timer, Pass::Particles);
        PassTimer::Scope sort(&timer, Pass::Sort);
    }
    timer.begin(Pass::Tonemap);  // left open
    timer.endFrame();
    timer.end();  // after the frame: nothing to end
    glFinish();
    EXPECT_FALSE(timer.collect(PassTimer::kLag - 1));
    const auto t = timer.collect(PassTimer::kLag);
    ASSERT_TRUE(t);
    EXPECT_TRUE(t->passMs[index(Pass::Particles)]);
    EXPECT_TRUE(t->passMs[index(Pass::Tonemap)]);
    for (Pass p : {Pass::Simulate, Pass::Sort, Pass::Scene, Pass::Depth, Pass::Composite})
        EXPECT_FALSE(t->passMs[index(p)]) << render::kPassNames[index(p)];
}

}  // namespace
}  // namespace firelab::testing

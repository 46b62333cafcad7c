// --flipbook-blend: one motionless particle drawn through its life's flipbook frames, a step at a time. Without
// the blend its picture jumps when a frame is cut to the next and holds still in between (its colour is
// constant); with the linear blend it moves at an even pace, so the change across a frame
// switch is no larger than the change within a frame. Every strategy that draws the sprite.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "support/gl_fixture.h"
#include "support/still_particles.h"
#include "harness/quality/image_metrics.h"
#include "render/camera.h"
#include "render/frame/frame_pipeline.h"
#include "render/frame/scene.h"
#include "render/gl/frame_target.h"
#include "render/particles/particle_material.h"
#include "render/strategies/strategy.h"
#include "sim/fire_system.h"

namespace firelab::testing {
namespace {

constexpr float kLife = 1.6f;      // s: each of the 16 frames holds 0.1 s
constexpr int kStepsPerFrame = 8;  // drawn steps per flipbook frame
constexpr float kFlipbookDt = kLife / 16.0f / kStepsPerFrame;
constexpr int kFirstStep = 4 * kStepsPerFrame;  // from frame 4 ...
constexpr int kLastStep = 7 * kStepsPerFrame;   // ... to frame 7: three switches (and the blend's pairs)

struct Change {
    double amount;  // meanAbsDifference of the step's two pictures, 0..255
    bool switches;  // the first flipbook frame shown changed over the step
};

class FlipbookBlend : public GlTest {
protected:
    // The frame-to-frame changes of one particle, 1 m wide in the middle of the view, over kFirstStep..kLastStep.
    std::vector<Change> changes(const std::string& strategy, render::FlipbookBlend blend) const {
        sim::FireParams p = stillParticles({0.0f, 0.6f, 0.0f}, 1.0f);
        p.lifetimeMean = kLife;
        p.rate = 1e-6f;   // no steady emission: the burst's one particle alone
        p.particles = 2;  // the most alive (gpu-stateless's slots: one would be reused within a life)
        p.gradient = {{0.0f, {1.0f, 0.8f, 0.5f, 1.0f}}, {1.0f, {1.0f, 0.8f, 0.5f, 1.0f}}};  // only the sprite changes
        sim::FireSystem fire(p, 1);
        render::RenderOptions o;
        o.flipbook = render::kFlameAtlasLayout;
        o.flipbookBlend = blend;
        o.hdr = false;
        const int w = 160, h = 120;
        const render::Camera camera = render::orbitCamera(0.0, w, h);  // fixed: only the sprite changes
        auto s = render::makeStrategy(strategy, {FIRELAB_SOURCE_DIR, o, p, kFlipbookDt});
        const render::Scene scene(FIRELAB_SOURCE_DIR);
        render::FramePipeline pipeline(FIRELAB_SOURCE_DIR, o, w, h);
        render::FrameTarget target(w, h);
        std::vector<Change> out;
        image::Image last;
        int lastFrame = -1;
        for (int step = 1; step <= kLastStep; ++step) {
            fire.step(kFlipbookDt);
            s->upload(fire, camera);
            if (step < kFirstStep) continue;
            pipeline.draw(scene, *s, camera, target);
            image::Image picture = target.read();
            EXPECT_EQ(fire.pool().alive(), 1u);
            const float t = fire.pool().age[0] / fire.pool().life[0];  // the GPU-simulated ones' too, to a step
            const int frame = render::flipbookFrame(t, blend);
            if (!last.pixels.empty()) out.push_back({harness::meanAbsDifference(last, picture), frame != lastFrame});
            last = std::move(picture);
            lastFrame = frame;
        }
        return out;
    }
};

// The largest change over the steps that switch frames (or are next to one: a GPU-simulated particle's age may
// be a step off the CPU's), and over the steps well inside a frame.
std::pair<double, double> atAndBetweenSwitches(const std::vector<Change>& c) {
    double at = 0, within = 0;
    for (size_t i = 0; i < c.size(); ++i) {
        const bool near = c[i].switches || (i > 0 && c[i - 1].switches) || (i + 1 < c.size() && c[i + 1].switches);
        (near ? at : within) = std::max(near ? at : within, c[i].amount);
    }
    return {at, within};
}

TEST_F(FlipbookBlend, LinearIsContinuousAcrossAFrameSwitch) {
    for (const std::string& strategy :
         render::strategyNames([](const render::StrategyInfo& i) { return i.textured; })) {
        SCOPED_TRACE(strategy);
        const auto [cutAt, cutWithin] = atAndBetweenSwitches(changes(strategy, render::FlipbookBlend::None));
        const auto [blendAt, blendWithin] = atAndBetweenSwitches(changes(strategy, render::FlipbookBlend::Linear));
        std::printf("[ flipbook ] %-22s none: %.3f at a switch, %.3f within a frame; linear: %.3f, %.3f\n",
                    strategy.c_str(), cutAt, cutWithin, blendAt, blendWithin);
        EXPECT_GT(cutAt, 3.0 * cutWithin) << "without the blend the cut is not seen: the test cannot tell";
        EXPECT_LE(blendAt, blendWithin * 1.05 + 0.05) << "the blend jumps at a frame switch";
        EXPECT_LT(blendAt, 0.5 * cutAt) << "the blend moves in steps as large as the cut";
    }
}

// The two blended frames fetch from the same cell position: at a frame's middle the blend shows that frame
// alone, the picture without the blend.
TEST(FlipbookPosition, AtAFramesMiddleTheBlendIsThatFrame) {
    EXPECT_EQ(render::flipbookFrame(4.5f / 16.0f, render::FlipbookBlend::Linear), 4);
    EXPECT_FLOAT_EQ(render::flipbookPosition(4.5f / 16.0f, render::FlipbookBlend::Linear), 4.0f);
    EXPECT_FLOAT_EQ(render::flipbookPosition(4.75f / 16.0f, render::FlipbookBlend::Linear), 4.25f);
    EXPECT_FLOAT_EQ(render::flipbookPosition(4.75f / 16.0f, render::FlipbookBlend::None), 4.0f);
    EXPECT_FLOAT_EQ(render::flipbookPosition(0.0f, render::FlipbookBlend::Linear), 0.0f);  // the first half-frame
    EXPECT_FLOAT_EQ(render::flipbookPosition(1.0f, render::FlipbookBlend::Linear), 15.0f);
    EXPECT_FLOAT_EQ(render::flipbookPosition(1.0f, render::FlipbookBlend::None), 15.0f);
}

}  // namespace
}  // namespace firelab::testing

// An effect's layers on the screen (render/frame/layer_stack.h): the alpha layers reach it back to front,
// whatever their order in the effect, for every strategy that sorts, CPU- and GPU-simulated alike.
#include <gtest/gtest.h>

#include "support/gl_fixture.h"
#include "support/still_particles.h"
#include "render/frame/frame_pipeline.h"
#include "render/gl/frame_target.h"
#include "render/frame/layer_stack.h"
#include "render/frame/scene.h"
#include "render/strategies/strategy.h"

namespace firelab::testing {
namespace {

// An opaque-looking alpha layer: a dense cloud of big sprites of one colour at depth z, sorted.
render::LayerSetup cloud(const char* name, glm::vec3 rgb, float z) {
    render::LayerSetup l = stillCloud(name, rgb, 0.6f, {0.0f, 0.6f, z}, {0.15f, 0.0f, 0.15f}, 0.6f, 400);
    l.render.sort = render::Sort::BackToFront;
    return l;
}

class Layers : public GlTest {};

TEST_F(Layers, AlphaLayersReachTheScreenBackToFront) {
    const render::Camera camera = render::lookAtCamera({0.0f, 0.6f, 4.0f}, {0.0f, 0.6f, 0.0f}, 40.0f, 96, 96);
    render::Scene scene(FIRELAB_SOURCE_DIR);
    render::FrameTarget target(96, 96);
    render::RenderOptions frame;
    frame.hdr = false;
    render::FramePipeline pipeline(FIRELAB_SOURCE_DIR, frame, 96, 96);
    const auto nearRed = cloud("near", {1.0f, 0.0f, 0.0f}, 1.0f);
    const auto farBlue = cloud("far", {0.0f, 0.0f, 1.0f}, -1.0f);
    // Every strategy that draws alpha layers sorted, CPU- or GPU-simulated (the media included: they need no
    // order).
    for (const auto& strategy :
         render::strategyNames([](const render::StrategyInfo& s) { return s.canSort && !s.additiveOnly; })) {
        for (bool nearFirst : {true, false}) {
            SCOPED_TRACE(strategy + (nearFirst ? ", near layer first in the file" : ", far layer first"));
            std::vector<render::LayerSetup> layers{nearFirst ? nearRed : farBlue, nearFirst ? farBlue : nearRed};
            render::LayerStack stack(FIRELAB_SOURCE_DIR, strategy, layers, 1.0f / 60, 1);
            for (int i = 0; i < 60; ++i) stack.step(1.0f / 60);
            stack.upload(camera);
            pipeline.draw(scene, stack.ordered(camera), camera, target);
            const image::Image img = target.read();
            const uint8_t* c = img.at(48, 48);
            // The near red cloud covers the far blue one: red dominates; drawn the other way, blue would.
            EXPECT_GT(c[0], 3 * c[2]) << "rgb " << int(c[0]) << "," << int(c[1]) << "," << int(c[2]);
            EXPECT_GT(c[0], 150);
        }
    }
}

}  // namespace
}  // namespace firelab::testing

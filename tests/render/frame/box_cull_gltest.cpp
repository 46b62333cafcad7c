// Culling by the bounding box (the D3D9 tutorial's AABB, RenderOptions::cullBox): a layer whose particles' box lies
// behind the camera is neither uploaded nor drawn, and the frame is the same pixels as without the cull; in view,
// the same pixels too. Every CPU-simulated strategy that draws sprites.
#include <gtest/gtest.h>

#include "render/frame/frame_pipeline.h"
#include "render/frame/layer_stack.h"
#include "render/frame/scene.h"
#include "render/gl/frame_target.h"
#include "render/strategies/strategy.h"
#include "support/gl_fixture.h"
#include "support/still_particles.h"

namespace firelab::testing {
namespace {

class BoxCull : public GlTest {};

TEST_F(BoxCull, ABoxBehindTheCameraDrawsNothingAndInViewTheSamePixels) {
    constexpr int kSide = 96;
    render::Scene scene(FIRELAB_SOURCE_DIR);
    render::FrameTarget target(kSide, kSide);
    render::RenderOptions frame;
    frame.hdr = false;
    render::FramePipeline pipeline(FIRELAB_SOURCE_DIR, frame, kSide, kSide);
    const render::Camera facing = render::lookAtCamera({0.0f, 0.6f, 4.0f}, {0.0f, 0.6f, 0.0f}, 40.0f, kSide, kSide);
    const render::Camera away = render::lookAtCamera({0.0f, 0.6f, 4.0f}, {0.0f, 0.6f, 8.0f}, 40.0f, kSide, kSide);
    for (const auto& strategy : render::strategyNames([](const render::StrategyInfo& s) {
             return !s.simulatesOnGpu && s.primitive != render::Primitive::Medium && !s.referenceOnly;
         })) {
        SCOPED_TRACE(strategy);
        std::vector<image::Image> pictures[2];  // [cull off, on]: facing, away
        size_t drawnAway[2] = {0, 0};
        for (const bool cull : {false, true}) {
            render::LayerSetup l =
                stillCloud("flame", {1.0f, 0.5f, 0.2f}, 0.5f, {0.0f, 0.6f, 0.0f}, {0.3f, 0.0f, 0.3f}, 0.3f, 300);
            l.render.blend = render::Blend::Additive;  // every strategy draws it (compute-splat only this)
            l.render.cullBox = cull;
            render::LayerStack stack(FIRELAB_SOURCE_DIR, strategy, {l}, 1.0f / 60, 1);
            for (int i = 0; i < 30; ++i) stack.step(1.0f / 60);
            for (const render::Camera* camera : {&facing, &away}) {
                stack.upload(*camera);
                pipeline.draw(scene, stack.ordered(*camera), *camera, target);
                pictures[cull].push_back(target.read());
                if (camera == &away) drawnAway[cull] = stack.ordered(*camera).size();
                EXPECT_EQ(stack.culled(0), cull && camera == &away);
            }
        }
        EXPECT_EQ(pictures[0][0].pixels, pictures[1][0].pixels) << "in view, the cull changed the picture";
        EXPECT_EQ(pictures[0][1].pixels, pictures[1][1].pixels) << "behind, the cull changed the picture";
        EXPECT_EQ(drawnAway[0], 1u);
        EXPECT_EQ(drawnAway[1], 0u) << "the layer behind the camera is still drawn";
        EXPECT_NE(pictures[1][0].pixels, pictures[1][1].pixels) << "the fire is not in the facing view";
    }
}

}  // namespace
}  // namespace firelab::testing

// Trail layers (--draw-as trail) in the frame: a layer of rising sparks drawn as trails lights the pixels along
// their paths, more of them the longer the trail, whatever the run's strategy (a trail layer is simulated on the
// CPU even when the strategy simulates on the GPU).
#include <gtest/gtest.h>

#include "render/frame/frame_pipeline.h"
#include "render/frame/layer_stack.h"
#include "render/frame/scene.h"
#include "render/gl/frame_target.h"
#include "support/gl_fixture.h"

namespace firelab::testing {
namespace {

class Trails : public GlTest {};

constexpr int kSide = 128;

render::LayerSetup sparks(float seconds) {
    render::LayerSetup l{"sparks", {}, {}, {}};
    l.params.particles = 60;
    l.params.center = {0.0f, 0.3f, 0.0f};
    l.params.speedMean = {0.0f, 1.5f, 0.0f};
    l.params.speedVar = {0.6f, 0.3f, 0.6f};
    l.params.accelMean = glm::vec3(0.0f);
    l.params.sizeStart = l.params.sizeEnd = 0.03f;
    l.render.drawAs = render::DrawAs::Trail;
    l.render.trailSeconds = seconds;
    l.render.hdr = false;
    return l;
}

struct Drawn {
    int lit = 0;  // pixels brighter than the scene's
    size_t ribbons = 0;
};

// everyFrame false: the steps of a capture or a scorer, then one upload and one frame. slices: the run's layer order
// depth-slices, with a flame layer the strategy draws beside the trails.
Drawn draw(const std::string& strategy, float seconds, bool everyFrame = true, bool slices = false) {
    render::Scene scene(FIRELAB_SOURCE_DIR);
    render::RenderOptions frame;
    frame.hdr = false;
    render::FramePipeline pipeline(FIRELAB_SOURCE_DIR, frame, kSide, kSide);
    render::FrameTarget target(kSide, kSide);
    const render::Camera camera = render::lookAtCamera({0.0f, 0.9f, 2.5f}, {0.0f, 0.8f, 0.0f}, 45.0f, kSide, kSide);
    pipeline.draw(scene, std::span<render::RenderStrategy* const>{}, camera, target);
    const image::Image empty = target.read();
    std::vector<render::LayerSetup> layers{sparks(seconds)};
    if (slices) {
        render::LayerSetup flame{"flame", {}, {}, {}};
        flame.params.particles = 200;
        flame.params.center = {1.5f, 0.0f, 0.0f};  // beside the sparks, so that its light is not theirs
        flame.render.hdr = false;
        for (auto& l : layers) l.render.layerOrder = render::LayerOrder::DepthSlices;
        flame.render.layerOrder = render::LayerOrder::DepthSlices;
        layers.insert(layers.begin(), flame);
    }
    render::LayerStack stack(FIRELAB_SOURCE_DIR, strategy, layers, 1.0f / 60, 1);
    for (int i = 0; i < 60; ++i) {  // a point recorded every step
        stack.step(1.0f / 60);
        if (!everyFrame && i + 1 < 60) continue;
        stack.upload(camera);
        pipeline.draw(scene, stack.ordered(camera), camera, target);
    }
    const image::Image img = target.read();
    Drawn d;
    d.ribbons = stack.strategy(slices ? 1 : 0).drawnCount();
    for (size_t i = 0; i < img.pixels.size(); i += 4) d.lit += img.pixels[i] > empty.pixels[i] + 8 ? 1 : 0;
    return d;
}

TEST_F(Trails, ALongerTrailLightsMorePixelsUnderEveryKindOfStrategy) {
    for (const char* strategy : {"billboards-instanced", "compute", "points"}) {
        SCOPED_TRACE(strategy);
        const Drawn short_ = draw(strategy, 0.03f), long_ = draw(strategy, 0.3f);
        EXPECT_GT(short_.ribbons, 20u) << "the trail layer drew no ribbons";
        EXPECT_GT(short_.lit, 10);
        EXPECT_GT(long_.lit, 2 * short_.lit) << "a trail ten times longer should light far more pixels";
    }
}

TEST_F(Trails, ManyStepsBeforeOneUploadStillLeaveTheirTrails) {
    const Drawn stepped = draw("billboards-instanced", 0.3f, false), drawn = draw("billboards-instanced", 0.3f);
    EXPECT_EQ(stepped.ribbons, drawn.ribbons);
    EXPECT_EQ(stepped.lit, drawn.lit) << "a capture's trails should be the trails drawn frame by frame";
}

TEST_F(Trails, TheDepthSlicedOrderDrawsTheTrailsToo) {
    const Drawn sliced = draw("billboards-cpu", 0.3f, true, true);
    EXPECT_GT(sliced.ribbons, 20u);
    EXPECT_GT(sliced.lit, 10);
}

}  // namespace
}  // namespace firelab::testing

// Particles wholly behind the camera are skipped before drawing (RenderOptions::cullBehind): with the camera
// inside the fire a third or more are, and every strategy that skips them draws the very picture it draws
// without skipping, while drawnCount() reports only the particles drawn.
#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "support/gl_fixture.h"
#include "render/camera.h"
#include "render/frame/frame_pipeline.h"
#include "render/gl/frame_target.h"
#include "image/image.h"
#include "render/frame/scene.h"
#include "render/strategies/strategy.h"
#include "sim/fire_system.h"
#include "support/frame_step.h"

namespace firelab::testing {
namespace {

constexpr int kW = 192, kH = 144;

class Cull : public GlTest {
protected:
    struct Drawn {
        image::Image picture;
        size_t drawn = 0;
    };

    // The fire drawn by `strategy` from `camera` with `options`, skipping (or not) what lies behind it.
    Drawn draw(const std::string& strategy, render::RenderOptions options, const render::Camera& camera, bool cull) {
        options.cullBehind = cull;
        auto s = render::makeStrategy(strategy, {FIRELAB_SOURCE_DIR, options, fire_->params(), kDt});
        s->upload(*fire_, camera);
        render::FramePipeline pipeline(FIRELAB_SOURCE_DIR, options, kW, kH);
        render::FrameTarget target(kW, kH);
        pipeline.draw(scene(), *s, camera, target);
        glFinish();
        return {target.read(), s->drawnCount()};
    }

    void SetUp() override {
        GlTest::SetUp();
        if (IsSkipped() || HasFatalFailure()) return;
        sim::FireParams p;
        p.particles = 3000;
        p.colorVar = 0.3f;
        fire_ = std::make_unique<sim::FireSystem>(p, 1);
        fire_->prewarm(kDt);
    }
    void TearDown() override {
        scene_.reset();
        fire_.reset();
        GlTest::TearDown();
    }
    const render::Scene& scene() {
        if (!scene_) scene_ = std::make_unique<render::Scene>(FIRELAB_SOURCE_DIR);
        return *scene_;
    }

    std::unique_ptr<sim::FireSystem> fire_;
    std::unique_ptr<render::Scene> scene_;
};

// The camera inside the fire, at its particles' centroid looking along +x.
render::Camera insideCamera(const sim::FireSystem& fire) {
    const sim::ParticlePool& q = fire.pool();
    glm::vec3 c(0.0f);
    for (size_t i = 0; i < q.alive(); ++i) c += glm::vec3(q.px[i], q.py[i], q.pz[i]);
    c /= static_cast<float>(q.alive());
    return render::lookAtCamera(c, c + glm::vec3(1.0f, 0.0f, 0.0f), 60.0f, kW, kH);
}

// Pixels whose red differs.
size_t differingPixels(const image::Image& a, const image::Image& b) {
    size_t n = 0;
    for (size_t i = 0; i < a.pixels.size(); i += 4) n += a.pixels[i] != b.pixels[i];
    return n;
}

TEST_F(Cull, SkippingWhatIsBehindTheCameraChangesNoPicture) {
    const render::Camera camera = insideCamera(*fire_);
    const size_t alive = fire_->pool().alive();
    render::RenderOptions additive;
    render::RenderOptions sorted;
    sorted.blend = render::Blend::Alpha, sorted.sort = render::Sort::BackToFront;
    render::RenderOptions stretched = sorted;
    stretched.facing = render::Facing::Velocity;
    render::RenderOptions facingEye = additive;
    facingEye.facing = render::Facing::Viewpoint, facingEye.hull = render::Hull::Eight;
    // Nothing drawn at all (the scene alone), to check that the pictures show the fire.
    render::RenderOptions none;
    none.alphaScale = 0.0f;
    const image::Image scene = draw("billboards-instanced", none, camera, false).picture;
    // Every strategy that streams the CPU pool (the GPU-simulated ones have nothing to skip), with every
    // option set it takes.
    for (const auto& strategy : render::strategyNames([](const render::StrategyInfo& s) { return !s.simulatesOnGpu; }))
        for (const auto& options : {additive, sorted, stretched, facingEye}) {
            try {
                render::checkOptions(strategy, options);
            } catch (const Error&) {
                continue;  // a set the strategy refuses
            }
            SCOPED_TRACE(::testing::Message() << strategy << " blend " << int(options.blend) << " facing "
                                              << int(options.facing) << " hull " << int(options.hull));
            const Drawn skipped = draw(strategy, options, camera, true);
            const Drawn all = draw(strategy, options, camera, false);
            EXPECT_EQ(all.drawn, alive);
            EXPECT_LT(skipped.drawn, alive * 3 / 4) << "a large share of the particles lies behind the camera";
            EXPECT_GT(skipped.drawn, alive / 4);
            EXPECT_GT(differingPixels(all.picture, scene), size_t(kW * kH / 20)) << "the fire is in the picture";
            ASSERT_EQ(skipped.picture.pixels.size(), all.picture.pixels.size());
            EXPECT_TRUE(skipped.picture.pixels == all.picture.pixels)
                << differingPixels(skipped.picture, all.picture) << " pixels differ";
        }
}

// The default orbit camera stands outside the fire: nothing is skipped.
TEST_F(Cull, TheOrbitCameraDrawsEveryParticle) {
    for (double t : {0.0, 13.0, 27.0}) {
        const Drawn d = draw("billboards-instanced", {}, render::orbitCamera(t, kW, kH), true);
        EXPECT_EQ(d.drawn, fire_->pool().alive()) << t;
    }
}

}  // namespace
}  // namespace firelab::testing

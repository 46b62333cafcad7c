// Order-independent transparency (--sort wboit | moment | abuffer, render/frame/order_independent.h) and lit particles
// (--lit, shaders/particle_light.glsl), drawn through the frame pipeline:
// - abuffer, the exact order per pixel, draws what back-to-front sorting draws for particles that do not
//   intersect (view-plane sprites are parallel planes): >= 50 dB over the fire, every CPU-simulated strategy
//   that draws alpha;
// - wboit, moment and abuffer give the same picture whatever order the particles and layers are drawn in;
// - moment, the estimate of the order, is nearer the exact picture than wboit's weights and than no order;
// - abuffer and moment dim an additive layer behind smoke and not one in front of it;
// - a lit particle is brighter on the side towards a light, and lit by the moon alone without lights; a light
//   behind it shines through.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <memory>
#include <vector>

#include "support/gl_fixture.h"
#include "support/still_particles.h"
#include "harness/quality/image_metrics.h"
#include "render/frame/frame_pipeline.h"
#include "render/frame/layer_stack.h"
#include "render/frame/scene.h"
#include "render/gl/frame_target.h"
#include "render/strategies/strategy.h"
#include "support/frame_step.h"

namespace firelab::testing {
namespace {

constexpr int kSize = 128;

render::Camera frontCamera() {
    return render::lookAtCamera({0.0f, 0.7f, 4.0f}, {0.0f, 0.7f, 0.0f}, 40.0f, kSize, kSize);
}

// A layer of `particles` alpha sprites of one colour, still, spread around (0, 0.7, z).
render::LayerSetup cloud(glm::vec3 rgb, float z, float alpha, uint32_t particles = 300,
                         render::Blend blend = render::Blend::Alpha) {
    render::LayerSetup l = stillCloud("cloud", rgb, alpha, {0.0f, 0.7f, z}, {0.5f, 0.0f, 0.3f}, 0.35f, particles);
    l.render.blend = blend;
    return l;
}

class Oit : public GlTest {
protected:
    // The layers drawn by `strategy` with the frame's sort `frameSort`, each layer's own sort as set.
    image::Image draw(const std::string& strategy, std::vector<render::LayerSetup> layers, render::Sort frameSort,
                      bool reverse = false, bool hdr = false) const {
        render::RenderOptions frame;
        frame.hdr = hdr;
        frame.sort = frameSort;
        render::FramePipeline pipeline(FIRELAB_SOURCE_DIR, frame, kSize, kSize);
        render::Scene scene(FIRELAB_SOURCE_DIR);
        render::FrameTarget target(kSize, kSize);
        render::LayerStack stack(FIRELAB_SOURCE_DIR, strategy, std::move(layers), kDt, 1);
        for (int i = 0; i < 30; ++i) stack.step(kDt);
        const auto camera = frontCamera();
        stack.upload(camera);
        std::vector<render::RenderStrategy*> order = stack.ordered(camera);
        if (reverse) std::reverse(order.begin(), order.end());
        pipeline.draw(scene, order, camera, target);
        const render::OitStats st = pipeline.oitStats();
        EXPECT_EQ(st.overflow, 0u);
        return target.read();
    }
    image::Image sceneOnly() const {
        render::LayerSetup none = cloud({1, 1, 1}, 0.0f, 0.0f, 1);
        return draw("billboards-cpu", {none}, render::Sort::None);
    }
};

int maxDifference(const image::Image& a, const image::Image& b) {
    int d = 0;
    for (size_t i = 0; i < a.pixels.size(); ++i) d = std::max(d, std::abs(int(a.pixels[i]) - int(b.pixels[i])));
    return d;
}

TEST_F(Oit, AbufferDrawsWhatBackToFrontSortingDraws) {
    const image::Image scene = sceneOnly();
    for (const auto& strategy : render::strategyNames([](const render::StrategyInfo& s) {
             return !s.simulatesOnGpu && !s.additiveOnly && s.canSort &&
                    (s.primitive == render::Primitive::Sprites || s.primitive == render::Primitive::Points);
         })) {
        SCOPED_TRACE(strategy);
        render::LayerSetup l = cloud({0.9f, 0.5f, 0.2f}, 0.0f, 0.35f);
        l.params.gradient = {{0.0f, {1.0f, 0.9f, 0.6f, 0.4f}}, {1.0f, {0.3f, 0.3f, 0.35f, 0.3f}}};
        l.params.lifetimeVar = 0.5f;  // colours differ by age: the order shows
        l.params.sizeStart = l.params.sizeEnd = 0.6f;
        // In HDR (RGBA16F), as the experiments draw: in an 8-bit frame each of the sorted blends rounds to 8 bits,
        // which the list's composite, in float, does not (48 dB then).
        l.render.sort = render::Sort::BackToFront;
        const image::Image sorted = draw(strategy, {l}, render::Sort::None, false, true);
        l.render.sort = render::Sort::Abuffer;
        const image::Image abuffer = draw(strategy, {l}, render::Sort::Abuffer, false, true);
        const auto fire = harness::differenceMask(sorted, scene, 2);
        ASSERT_GT(std::count(fire.begin(), fire.end(), true), kSize * kSize / 40) << "no fire to compare";
        const double db = harness::psnr(abuffer, sorted, fire);
        std::printf("[ oit      ] %-22s abuffer against back-to-front: %.1f dB\n", strategy.c_str(), db);
        EXPECT_GE(db, 50.0);
        l.render.sort = render::Sort::None;
        EXPECT_LT(harness::psnr(draw(strategy, {l}, render::Sort::None, false, true), sorted, fire), db - 10.0)
            << "unsorted is as close: the test cannot tell an order";
    }
}

TEST_F(Oit, EveryOrderIndependentModeIsTheSameWhateverTheDrawOrder) {
    for (const render::Sort mode : {render::Sort::Wboit, render::Sort::Moment, render::Sort::Abuffer}) {
        SCOPED_TRACE(render::kSortNames[static_cast<size_t>(mode)]);
        render::LayerSetup red = cloud({1.0f, 0.1f, 0.1f}, 0.6f, 0.3f), blue = cloud({0.1f, 0.2f, 1.0f}, -0.6f, 0.3f);
        red.render.sort = blue.render.sort = mode;
        const image::Image a = draw("billboards-cpu", {red, blue}, mode);
        const image::Image reversed = draw("billboards-cpu", {red, blue}, mode, true);
        red.render.sort = blue.render.sort = render::Sort::BackToFront;  // each layer's particles drawn sorted
        const image::Image sortedWithin = draw("billboards-cpu", {blue, red}, mode);
        EXPECT_LE(maxDifference(a, reversed), 1);
        EXPECT_LE(maxDifference(a, sortedWithin), 1);
    }
}

// Red smoke in front of blue, both dense: the order decides the colour. abuffer is exact; moment reconstructs
// the order from four moments; wboit weighs by distance; none draws blue over red.
TEST_F(Oit, MomentIsNearerTheExactPictureThanWboitAndNoOrder) {
    auto layers = [](render::Sort sort) {
        render::LayerSetup red = cloud({1.0f, 0.1f, 0.1f}, 0.6f, 0.45f), blue = cloud({0.1f, 0.2f, 1.0f}, -0.6f, 0.45f);
        red.render.sort = blue.render.sort = sort;
        return std::vector<render::LayerSetup>{red, blue};
    };
    auto drawn = [&](render::Sort sort, bool reverse = false) {
        return draw("billboards-cpu", layers(sort), sort, reverse, true);
    };
    const image::Image exact = drawn(render::Sort::Abuffer), scene = sceneOnly();
    const auto fire = harness::differenceMask(exact, scene, 2);
    ASSERT_GT(std::count(fire.begin(), fire.end(), true), kSize * kSize / 20) << "no smoke to compare";
    const double moment = harness::psnr(drawn(render::Sort::Moment), exact, fire);
    const double wboit = harness::psnr(drawn(render::Sort::Wboit), exact, fire);
    const double wrongOrder = harness::psnr(drawn(render::Sort::None, true), exact, fire);
    std::printf(
        "[ oit      ] against abuffer: moment %.1f dB, wboit %.1f dB, whole layers in the wrong order %.1f dB\n",
        moment, wboit, wrongOrder);
    EXPECT_GT(moment, wboit + 3.0);
    EXPECT_GT(moment, wrongOrder + 6.0);
    EXPECT_GE(moment, 30.0);
}

TEST_F(Oit, AbufferAndMomentDimAdditiveLightBehindSmokeNotInFront) {
    for (const render::Sort mode : {render::Sort::Abuffer, render::Sort::Moment}) {
        SCOPED_TRACE(render::kSortNames[static_cast<size_t>(mode)]);
        const render::LayerSetup smoke = [mode] {
            render::LayerSetup s = cloud({0.3f, 0.3f, 0.3f}, 0.0f, 0.5f, 600);
            s.render.sort = mode;
            return s;
        }();
        auto glow = [mode](float z) {
            render::LayerSetup g = cloud({1.0f, 0.6f, 0.2f}, z, 0.5f, 300, render::Blend::Additive);
            g.render.sort = mode;
            return g;
        };
        auto centre = [](const image::Image& img) {
            double sum = 0;
            for (int y = kSize / 2 - 8; y < kSize / 2 + 8; ++y)
                for (int x = kSize / 2 - 8; x < kSize / 2 + 8; ++x) sum += img.at(x, y)[0];
            return sum / 256.0;
        };
        const double behind = centre(draw("billboards-cpu", {smoke, glow(-1.0f)}, mode));
        const double behindUndimmed = centre(draw("billboards-cpu", {smoke, glow(-1.0f)}, render::Sort::None));
        const double inFront = centre(draw("billboards-cpu", {smoke, glow(1.0f)}, mode));
        std::printf("[ oit      ] %-7s glow behind smoke %.1f (whole layers: %.1f), in front %.1f\n",
                    render::kSortNames[static_cast<size_t>(mode)].data(), behind, behindUndimmed, inFront);
        EXPECT_LT(behind, 0.8 * behindUndimmed) << "the smoke in front does not dim the glow";
        EXPECT_GT(inFront, 1.2 * behind) << "a glow in front of the smoke is dimmed as if behind it";
    }
}

// --lit: one big alpha sprite in front of the camera, a fire light to its right.
class Lit : public GlTest {
protected:
    image::Image draw(render::Lit lit, const std::vector<sim::PointLight>& lights, bool unlitScene = false) const {
        render::LayerSetup l = cloud({0.5f, 0.5f, 0.5f}, 0.0f, 1.0f, 1);
        l.params.extent = glm::vec3(1e-6f);
        l.params.sizeStart = l.params.sizeEnd = 1.2f;
        l.params.burst = 1, l.params.rate = 1e-6f, l.params.particles = 1, l.params.lifetimeMean = 100.0f;
        l.render.texture = "smoke.png";
        l.render.lit = unlitScene ? render::Lit::None : lit;
        render::RenderOptions frame;
        frame.hdr = false;
        render::FramePipeline pipeline(FIRELAB_SOURCE_DIR, frame, kSize, kSize);
        render::Scene scene(FIRELAB_SOURCE_DIR);
        scene.setFireLights(lights);
        render::FrameTarget target(kSize, kSize);
        render::LayerStack stack(FIRELAB_SOURCE_DIR, "billboards-instanced", {l}, kDt, 1);
        stack.step(kDt);
        const auto camera = frontCamera();
        stack.upload(camera);
        pipeline.draw(scene, stack.ordered(camera), camera, target);
        return target.read();
    }
};

// Mean red over a block of columns [x0, x1) around the sprite's middle row band.
double meanRed(const image::Image& img, int x0, int x1) {
    double sum = 0;
    int n = 0;
    for (int y = kSize / 2 - 10; y < kSize / 2 + 10; ++y)
        for (int x = x0; x < x1; ++x, ++n) sum += img.at(x, y)[0];
    return sum / n;
}

TEST_F(Lit, TheSideTowardsALightIsBrighterAndWithoutLightsOnlyTheMoonLights) {
    const std::vector<sim::PointLight> right{{{1.2f, 0.7f, 0.3f}, {0.6f, 0.6f, 0.6f}}};
    const int left0 = kSize / 2 - 24, left1 = kSize / 2 - 8, right0 = kSize / 2 + 8, right1 = kSize / 2 + 24;
    for (const render::Lit lit : {render::Lit::Vertex, render::Lit::Pixel}) {
        SCOPED_TRACE(render::kLitNames[static_cast<size_t>(lit)]);
        const image::Image lightRight = draw(lit, right);
        const double l = meanRed(lightRight, left0, left1), r = meanRed(lightRight, right0, right1);
        std::printf("[ lit      ] %-6s light on the right: left %.1f, right %.1f\n",
                    render::kLitNames[static_cast<size_t>(lit)].data(), l, r);
        // Per vertex a quad has four lit points to interpolate: its contrast is the weaker (about 1.2 here, 2 per pixel).
        EXPECT_GT(r, (lit == render::Lit::Pixel ? 1.5 : 1.1) * l) << "the side towards the light is not the bright one";
        // No fire light: the moon alone, from above (a little to the right), so the sides are nearly even and the
        // sprite darker than unlit (the moon's 0.25 .. 0.6 of the albedo).
        const image::Image moon = draw(lit, {}), unlit = draw(lit, {}, true);
        const double ml = meanRed(moon, left0, left1), mr = meanRed(moon, right0, right1);
        EXPECT_NEAR(ml, mr, 0.25 * std::max(ml, mr));
        const double u = meanRed(unlit, kSize / 2 - 16, kSize / 2 + 16),
                     m = meanRed(moon, kSize / 2 - 16, kSize / 2 + 16);
        EXPECT_LT(m, 0.7 * u);
        EXPECT_GT(m, 0.2 * u);
    }
}

// Smoke between the eye and a fire glows: a light behind the puff lights the side the eye sees through its
// translucency (shaders/particle_light.glsl), where an opaque sphere would show only the moon.
TEST_F(Lit, ALightBehindThePuffShinesThroughIt) {
    const std::vector<sim::PointLight> behind{{{0.0f, 0.7f, -0.8f}, {0.6f, 0.6f, 0.6f}}};
    for (const render::Lit lit : {render::Lit::Vertex, render::Lit::Pixel}) {
        SCOPED_TRACE(render::kLitNames[static_cast<size_t>(lit)]);
        const double moon = meanRed(draw(lit, {}), kSize / 2 - 16, kSize / 2 + 16);
        const double through = meanRed(draw(lit, behind), kSize / 2 - 16, kSize / 2 + 16);
        std::printf("[ lit      ] %-6s light behind: %.1f, the moon alone %.1f\n",
                    render::kLitNames[static_cast<size_t>(lit)].data(), through, moon);
        EXPECT_GT(through, 1.3 * moon) << "the light behind the puff does not reach its near side";
    }
}

}  // namespace
}  // namespace firelab::testing

// Heat haze (--draw-as haze, render/layers/haze_layer.cpp and the frame pipeline's haze pass): a haze layer of
// strength 0 leaves the frame bit for bit as without it, in the 8-bit and the HDR frame; a hot one moves the scene's
// pixels only where its particles are, draws nothing of its own into the picture, and moves nothing a log hides it
// behind.
#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "render/frame/frame_pipeline.h"
#include "render/frame/layer_stack.h"
#include "render/frame/scene.h"
#include "render/gl/frame_target.h"
#include "support/gl_fixture.h"
#include "support/still_particles.h"

namespace firelab::testing {
namespace {

class Haze : public GlTest {};

constexpr int kSide = 128;

render::LayerSetup flame() {
    render::LayerSetup l{"flame", {}, {}, {}};
    l.params.particles = 400;
    return l;
}

// A still cloud of haze particles over the logs, seen against the ground and the stone.
render::LayerSetup haze(float strength) {
    render::LayerSetup l =
        stillCloud("haze", {1.0f, 1.0f, 1.0f}, 1.0f, {0.0f, 0.35f, 0.0f}, {0.25f, 0.1f, 0.25f}, 0.5f, 60);
    l.params.lifetimeMean = 50.0f, l.params.lifetimeVar = 0.0f;  // hot all through the test
    l.params.burst = 60;                                         // all at once
    l.render.drawAs = render::DrawAs::Haze;
    l.render.hazeStrength = strength;
    return l;
}

// The frame, and with `distance` each pixel's view distance to the scene (m, row 0 at the bottom).
image::Image drawn(std::vector<render::LayerSetup> layers, bool hdr, const render::Camera& camera,
                   std::vector<float>* distance = nullptr) {
    render::Scene scene(FIRELAB_SOURCE_DIR);
    render::RenderOptions frame;
    frame.hdr = hdr;
    render::FramePipeline pipeline(FIRELAB_SOURCE_DIR, frame, kSide, kSide);
    render::FrameTarget target(kSide, kSide);
    for (auto& l : layers) l.render.hdr = hdr;
    render::LayerStack stack(FIRELAB_SOURCE_DIR, "billboards-instanced", std::move(layers), 1.0f / 60, 1);
    for (int i = 0; i < 20; ++i) stack.step(1.0f / 60);
    stack.upload(camera);
    pipeline.draw(scene, stack.ordered(camera), camera, target);
    if (distance) {
        std::vector<float> depth(static_cast<size_t>(kSide) * kSide);
        glGetTextureImage(target.depthTexture(), 0, GL_DEPTH_COMPONENT, GL_FLOAT,
                          static_cast<GLsizei>(depth.size() * sizeof(float)), depth.data());
        const glm::vec2 t = render::depthTerms(camera);  // z_ndc = (A z + B) / -z: distance = B / (z_ndc + A)
        for (float& d : depth) d = t.y / (d * 2.0f - 1.0f + t.x);
        *distance = std::move(depth);
    }
    return target.read();
}

const render::Camera kView = render::lookAtCamera({0.0f, 1.2f, 2.2f}, {0.0f, 0.3f, 0.0f}, 45.0f, kSide, kSide);

TEST_F(Haze, StrengthZeroLeavesTheFrameBitForBit) {
    for (const bool hdr : {false, true}) {
        SCOPED_TRACE(hdr ? "hdr" : "8-bit");
        const image::Image without = drawn({flame()}, hdr, kView);
        const image::Image zero = drawn({flame(), haze(0.0f)}, hdr, kView);
        EXPECT_EQ(without.pixels, zero.pixels);
        const image::Image hot = drawn({flame(), haze(0.05f)}, hdr, kView);
        EXPECT_NE(without.pixels, hot.pixels) << "a hot haze changed nothing: the zero case proves nothing";
    }
}

TEST_F(Haze, ItMovesTheScenesPixelsOnlyWhereItsParticlesAreAndDrawsNothingOfItsOwn) {
    const image::Image scene = drawn({haze(0.0f)}, false, kView);  // the scene alone (tested above)
    const image::Image hazy = drawn({haze(0.05f)}, false, kView);
    // The haze particles' screen box: the cloud's extent and its particles' half size around its centre.
    const glm::vec3 lo(-0.25f - 0.36f, 0.25f - 0.36f, -0.25f - 0.36f), hi(0.25f + 0.36f, 0.45f + 0.36f, 0.25f + 0.36f);
    glm::vec2 boxLo(1e9f), boxHi(-1e9f);
    for (int c = 0; c < 8; ++c) {
        const glm::vec3 p((c & 1) ? hi.x : lo.x, (c & 2) ? hi.y : lo.y, (c & 4) ? hi.z : lo.z);
        const glm::vec4 clip = kView.viewProj * glm::vec4(p, 1.0f);
        const glm::vec2 px = (glm::vec2(clip) / clip.w * 0.5f + 0.5f) * float(kSide);
        boxLo = glm::min(boxLo, px), boxHi = glm::max(boxHi, px);
    }
    int changed = 0, outside = 0;
    double brighter = 0.0;
    for (int y = 0; y < kSide; ++y)
        for (int x = 0; x < kSide; ++x) {
            const size_t i = 4 * (static_cast<size_t>(y) * kSide + x);
            if (std::equal(scene.pixels.begin() + i, scene.pixels.begin() + i + 3, hazy.pixels.begin() + i)) continue;
            ++changed;
            const float gx = float(x) + 0.5f, gy = float(kSide - 1 - y) + 0.5f;  // row 0 is the top
            if (gx < boxLo.x - 1 || gx > boxHi.x + 1 || gy < boxLo.y - 1 || gy > boxHi.y + 1) ++outside;
            for (int ch = 0; ch < 3; ++ch) brighter += double(hazy.pixels[i + ch]) - double(scene.pixels[i + ch]);
        }
    EXPECT_GT(changed, 200) << "the haze moved too few pixels";
    EXPECT_EQ(outside, 0) << "pixels changed outside the haze particles";
    // Refraction moves light about; it adds none of its own (a drawn haze would brighten every pixel it covers).
    EXPECT_LT(std::abs(brighter) / changed, 6.0);
}

TEST_F(Haze, ALogInFrontOfTheHazeIsNotMoved) {
    // Seen low from the side, the near log hides part of the haze behind it: its pixels stay as they are.
    const render::Camera low = render::lookAtCamera({0.0f, 0.12f, 1.6f}, {0.0f, 0.12f, 0.0f}, 40.0f, kSide, kSide);
    render::LayerSetup far = haze(0.08f);
    far.params.center = {0.0f, 0.12f, -0.9f};
    far.params.shape = sim::EmitterShape::Rect;  // a thin slab across the view  // behind the logs, as seen from +z
    far.params.extent = {0.5f, 0.02f, 0.02f};
    std::vector<float> distance;
    const image::Image scene = drawn({haze(0.0f)}, false, low, &distance);
    const image::Image hazy = drawn({far}, false, low);
    // The haze's quads lie 2.5 +- 0.3 m from the eye: every pixel of the scene nearer than 2.1 m is in front of it.
    int changed = 0, nearer = 0, nearerChanged = 0;
    for (int y = 0; y < kSide; ++y)
        for (int x = 0; x < kSide; ++x) {
            const size_t i = 4 * (static_cast<size_t>(kSide - 1 - y) * kSide + x);  // the image's row 0 is the top
            const bool same =
                std::equal(scene.pixels.begin() + i, scene.pixels.begin() + i + 3, hazy.pixels.begin() + i);
            changed += same ? 0 : 1;
            if (distance[static_cast<size_t>(y) * kSide + x] < 2.1f) ++nearer, nearerChanged += same ? 0 : 1;
        }
    EXPECT_GT(changed, 20) << "the haze behind the logs moved nothing at all";
    EXPECT_GT(nearer, 500);
    EXPECT_EQ(nearerChanged, 0) << "the haze moved pixels of the scene in front of it";
}

}  // namespace
}  // namespace firelab::testing

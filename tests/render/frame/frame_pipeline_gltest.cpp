// The frame's passes (render/frame/frame_pipeline.h): a low-resolution particle pass composited with
// nearest-depth upsampling keeps a particle behind the scene hidden and one in front visible at every
// scale; HDR with clamp tone mapping at exposure 1 is the 8-bit frame; soft particles fade to nothing
// where they meet the scene.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>

#include "support/gl_fixture.h"
#include "harness/quality/image_metrics.h"
#include "render/camera.h"
#include "render/frame/frame_pipeline.h"
#include "render/gl/frame_target.h"
#include "image/image.h"
#include "render/frame/scene.h"
#include "render/strategies/strategy.h"
#include "sim/fire_system.h"
#include "support/still_particles.h"
#include "support/white_sprite_fixture.h"

namespace firelab::testing {
namespace {

constexpr int kW = 240, kH = 180;


class FramePipelineTest : public WhiteSpriteTest {
protected:
    // The frame of `params` (one step) drawn by `strategy` through a pipeline with `options`.
    image::Image draw(const sim::FireParams& params, render::RenderOptions options, const render::Camera& camera,
                      const std::string& strategy = "billboards-instanced", int steps = 1) {
        return drawFrame(params, options, camera, strategy, steps);
    }
    void softParticlesFadeToZero(const std::string& strategy);
    render::RenderOptions whiteSprite() const {
        render::RenderOptions o;
        o.texture = whiteSpritePath();
        o.hdr = false;  // the 8-bit look: a particle adds exactly its light
        return o;
    }
};

// billboards-instanced, standing for the rasteriser's depth test that every rasterising strategy shares, and
// every strategy that tests the pass's scene depth itself (primitive Splats: in its compute shaders).
std::vector<std::string> depthTestingStrategies() {
    auto names =
        render::strategyNames([](const render::StrategyInfo& s) { return s.primitive == render::Primitive::Splats; });
    names.insert(names.begin(), "billboards-instanced");
    return names;
}

// The largest channel difference between two images over a rectangle.
int maxDifference(const image::Image& a, const image::Image& b, int x0, int y0, int x1, int y1) {
    int worst = 0;
    for (int y = y0; y < y1; ++y)
        for (int x = x0; x < x1; ++x)
            for (int c = 0; c < 3; ++c) worst = std::max(worst, std::abs(int(a.at(x, y)[c]) - int(b.at(x, y)[c])));
    return worst;
}

// The scene's stone block (centre (0.2, 0.12, 0.9), half-size 0.14 x 0.12 x 0.12) seen head on, and a
// particle behind it straddling its right edge: inside the block's silhouette nothing of the particle
// shows, at full, half and quarter resolution with nearest-depth upsampling (with and without edge
// fix-up), while bilinear upsampling at quarter resolution bleeds it over the block's edge (what
// nearest-depth is for). The same particle in front of the block is drawn.
TEST_F(FramePipelineTest, NearestDepthCompositeKeepsOcclusionAtEveryScale) {
    // Off centre by 1 cm so that the block's edge falls inside a quarter-resolution pixel, not on its border.
    const auto camera = render::lookAtCamera({0.21f, 0.12f, 3.0f}, {0.21f, 0.12f, 0.0f}, 30.0f, kW, kH);
    auto pixel = [&](const glm::vec3& p) {
        const glm::vec4 c = camera.viewProj * glm::vec4(p, 1.0f);
        return glm::ivec2(int((c.x / c.w * 0.5f + 0.5f) * kW), int((0.5f - c.y / c.w * 0.5f) * kH));
    };
    // The block's front face on screen, less a pixel of rasterisation slack.
    const glm::ivec2 lo = pixel({0.06f, 0.24f, 1.02f}) + 1, hi = pixel({0.34f, 0.0f, 1.02f}) - 1;
    const glm::vec3 behind(0.34f, 0.12f, 0.4f), inFront(0.34f, 0.12f, 1.5f);
    render::RenderOptions none = whiteSprite();
    none.alphaScale = 0.0f;  // the scene alone
    const image::Image scene = draw(stillParticles(behind, 0.15f), none, camera);
    auto drawWith = [&](render::ParticleScale scale, render::Upsample upsample, bool fixup, const glm::vec3& at,
                        const std::string& strategy = "billboards-instanced") {
        render::RenderOptions o = whiteSprite();
        o.particleScale = scale, o.upsample = upsample, o.edgeFixup = fixup;
        return draw(stillParticles(at, 0.15f), o, camera, strategy);
    };
    for (const std::string& strategy : depthTestingStrategies())
        for (auto scale : {render::ParticleScale::Full, render::ParticleScale::Half, render::ParticleScale::Quarter})
            for (bool fixup : {false, true}) {
                SCOPED_TRACE(strategy + " " + std::string(render::kParticleScaleNames[size_t(scale)]) +
                             (fixup ? " edge-fixup" : ""));
                const auto hidden = drawWith(scale, render::Upsample::NearestDepth, fixup, behind, strategy);
                EXPECT_LE(maxDifference(hidden, scene, lo.x, lo.y, hi.x, hi.y), 2) << "the hidden particle shows";
                const auto shown = drawWith(scale, render::Upsample::NearestDepth, fixup, inFront, strategy);
                const glm::ivec2 c = pixel(inFront);
                EXPECT_GE(int(shown.at(c.x - 2, c.y)[0]) - int(scene.at(c.x - 2, c.y)[0]), 50)
                    << "the particle is missing";
            }
    const auto bled = drawWith(render::ParticleScale::Quarter, render::Upsample::Bilinear, false, behind);
    EXPECT_GT(maxDifference(bled, scene, lo.x, lo.y, hi.x, hi.y), 10) << "bilinear was expected to bleed";
}

// HDR accumulation with clamp tone mapping at exposure 1 is the 8-bit frame (up to 16-bit float rounding
// and 8-bit clamping order), for additive and alpha blending.
TEST_F(FramePipelineTest, HdrClampAtExposureOneMatchesTheEightBitFrame) {
    sim::FireParams p;
    p.particles = 3000;
    const auto camera = render::orbitCamera(1.5, kW, kH);
    for (auto blend : {render::Blend::Additive, render::Blend::Alpha}) {
        render::RenderOptions ldr;
        ldr.hdr = false;
        ldr.blend = blend;
        ldr.sort = blend == render::Blend::Alpha ? render::Sort::BackToFront : render::Sort::None;
        render::RenderOptions hdr = ldr;
        hdr.hdr = true;
        hdr.tonemap = render::Tonemap::Clamp;
        hdr.exposure = 1.0f;
        const image::Image eightBit = draw(p, ldr, camera, "billboards-instanced", 90);
        EXPECT_GE(harness::psnr(draw(p, hdr, camera, "billboards-instanced", 90), eightBit), 40.0)
            << render::kBlendNames[size_t(blend)];
        hdr.tonemap = render::Tonemap::Aces;  // and the HDR path is really taken: another curve differs
        EXPECT_LT(harness::psnr(draw(p, hdr, camera, "billboards-instanced", 90), eightBit), 35.0)
            << render::kBlendNames[size_t(blend)];
    }
}

// A large particle standing on the ground, seen from above: with --soft D its light is the hard
// particle's times gap / D where the ground is a gap < D behind it, so nothing where they meet. The
// same for the splat strategies (compute-splat), which fade in their compute shaders.
TEST_F(FramePipelineTest, SoftParticlesFadeToZeroAtTheSceneSurface) {
    for (const std::string& strategy : depthTestingStrategies()) {
        SCOPED_TRACE(strategy);
        softParticlesFadeToZero(strategy);
    }
}

void FramePipelineTest::softParticlesFadeToZero(const std::string& strategy) {
    const glm::vec3 at(-1.2f, 0.1f, 1.2f);  // clear of the logs and the block
    const auto camera = render::lookAtCamera({-1.2f, 1.2f, 3.2f}, at, 40.0f, kW, kH);
    render::RenderOptions none = whiteSprite();
    none.alphaScale = 0.0f;
    const auto params = stillParticles(at, 0.6f);
    const image::Image scene = draw(params, none, camera);
    render::RenderOptions hardOptions = whiteSprite();
    render::RenderOptions softOptions = whiteSprite();
    softOptions.soft = 0.3f;
    const image::Image hard = draw(params, hardOptions, camera, strategy);
    const image::Image soft = draw(params, softOptions, camera, strategy);

    // The scene's view distance per pixel, from its depth buffer.
    render::FrameTarget target(kW, kH);
    target.bind();
    scene_->draw(camera);
    glFinish();
    std::vector<float> depth(size_t(kW) * kH);
    glGetTextureImage(target.depthTexture(), 0, GL_DEPTH_COMPONENT, GL_FLOAT, GLsizei(depth.size() * 4), depth.data());
    const float a = camera.proj[2][2], b = camera.proj[3][2];
    const float particleDistance = glm::dot(at - camera.eye, camera.forward);  // a view-plane quad's
    int near = 0, worst = 0, contact = 0;
    for (int y = 0; y < kH; ++y)
        for (int x = 0; x < kW; ++x) {
            const float d = depth[size_t(kH - 1 - y) * kW + size_t(x)];  // GL rows start at the bottom
            const float gap = b / (d * 2.0f - 1.0f + a) - particleDistance;
            const int hardAdds = int(hard.at(x, y)[0]) - int(scene.at(x, y)[0]);
            if (gap <= 0.0f || gap >= softOptions.soft || hardAdds < 40) continue;  // not behind the quad's near part
            ++near;
            const int softAdds = int(soft.at(x, y)[0]) - int(scene.at(x, y)[0]);
            worst = std::max(worst, std::abs(softAdds - int(std::lround(float(hardAdds) * gap / softOptions.soft))));
            if (gap < 0.05f) contact = std::max(contact, softAdds);
        }
    ASSERT_GE(near, 20) << "the test sees too little of the contact";
    EXPECT_LE(worst, 3) << "the fade is not linear in the gap";
    EXPECT_LE(contact, int(std::lround(76 * 0.05 / 0.3)) + 2) << "light where the particle meets the ground";
    // Away from the ground the soft particle keeps its light: its top centre.
    const glm::vec4 top = camera.viewProj * glm::vec4(at + glm::vec3(0.0f, 0.25f, 0.0f), 1.0f);
    const int tx = int((top.x / top.w * 0.5f + 0.5f) * kW), ty = int((0.5f - top.y / top.w * 0.5f) * kH);
    EXPECT_GE(int(soft.at(tx, ty)[0]) - int(scene.at(tx, ty)[0]), 40);
}

}  // namespace
}  // namespace firelab::testing

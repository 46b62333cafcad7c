// Atlases of any layout and the motion blend, drawn by every strategy that draws the sprite: a numbered 8x8 atlas
// shows frame k at life k/64, and between two frames of a translating blob the motion blend is nearer the true
// in-between picture than the linear blend (which shows two faded blobs).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <string>

#include "harness/quality/image_metrics.h"
#include "image/image.h"
#include "render/camera.h"
#include "render/frame/frame_pipeline.h"
#include "render/frame/scene.h"
#include "render/gl/frame_target.h"
#include "render/particles/particle_material.h"
#include "render/strategies/strategy.h"
#include "sim/fire_system.h"
#include "support/gl_fixture.h"
#include "support/scratch_dir.h"
#include "support/still_particles.h"

namespace firelab::testing {
namespace {

constexpr float kLife = 6.4f;
constexpr int kW = 160, kH = 120;

class FlipbookAtlas : public GlTest {
protected:
    void SetUp() override {
        dir_ =
            std::filesystem::temp_directory_path() /
            ("firelab_FlipbookAtlas_" + std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()) +
             "_" + std::to_string(::getpid()));
        std::filesystem::create_directories(dir_);
    }
    void TearDown() override {
        std::error_code ec;
        if (!HasFailure()) std::filesystem::remove_all(dir_, ec);
    }

    // The picture of one still particle of `alpha` (additive, which every strategy draws: the texel's light added
    // to the scene's) filling much of the view, drawn by `strategy` with `o` after `steps` steps of `dt`.
    image::Image draw(const std::string& strategy, render::RenderOptions o, int steps, float dt,
                      float alpha = 1.0f) const {
        sim::FireParams p = stillParticles({0.0f, 0.6f, 0.0f}, 1.2f);
        p.lifetimeMean = kLife;
        p.rate = 1e-6f;
        p.particles = 2;
        p.gradient = {{0.0f, {1.0f, 1.0f, 1.0f, alpha}}, {1.0f, {1.0f, 1.0f, 1.0f, alpha}}};
        sim::FireSystem fire(p, 1);
        o.hdr = false;
        const render::Camera camera = render::orbitCamera(0.0, kW, kH);
        auto s = render::makeStrategy(strategy, {FIRELAB_SOURCE_DIR, o, p, dt});
        const render::Scene scene(FIRELAB_SOURCE_DIR);
        render::FramePipeline pipeline(FIRELAB_SOURCE_DIR, o, kW, kH);
        render::FrameTarget target(kW, kH);
        for (int i = 0; i < steps; ++i) {
            fire.step(dt);
            s->upload(fire, camera);
        }
        pipeline.draw(scene, *s, camera, target);
        return target.read();
    }
    // The particle's centre on screen.
    static glm::ivec2 centre() {
        const render::Camera camera = render::orbitCamera(0.0, kW, kH);
        const glm::vec4 c = camera.viewProj * glm::vec4(0.0f, 0.6f, 0.0f, 1.0f);
        return {static_cast<int>((c.x / c.w * 0.5f + 0.5f) * kW), static_cast<int>((0.5f - c.y / c.w * 0.5f) * kH)};
    }
    static std::vector<std::string> textured() {
        return render::strategyNames([](const render::StrategyInfo& i) { return i.textured; });
    }

    std::filesystem::path dir_;
};

// Frame k of the numbered atlas: red 3k, green 190 - 3k, opaque; read over the scene's own pixel there.
TEST_F(FlipbookAtlas, ANumbered8x8AtlasShowsFrameKAtLifeKOver64) {
    constexpr int kCell = 8;
    image::Image atlas(8 * kCell, 8 * kCell);
    for (int k = 0; k < 64; ++k)
        for (int y = 0; y < kCell; ++y)
            for (int x = 0; x < kCell; ++x) {
                uint8_t* t = atlas.at((k % 8) * kCell + x, (k / 8) * kCell + y);
                t[0] = static_cast<uint8_t>(3 * k), t[1] = static_cast<uint8_t>(190 - 3 * k), t[2] = 0, t[3] = 255;
            }
    image::writePng(dir_ / "numbered.png", atlas);
    render::RenderOptions o;
    o.texture = (dir_ / "numbered.png").string();
    o.flipbook = {8, 8};
    o.filter = render::Filter::Nearest;
    const float dt = kLife / 64.0f / 4.0f;  // four steps a frame: the middle of frame k after 4k + 2
    const glm::ivec2 c = centre();
    for (const std::string& strategy : textured()) {
        SCOPED_TRACE(strategy);
        const image::Image scene = draw(strategy, o, 2, dt, 0.0f);
        const uint8_t* bg = scene.at(c.x, c.y);
        for (const int k : {0, 1, 9, 37, 63}) {
            const image::Image picture = draw(strategy, o, 4 * k + 2, dt);
            const uint8_t* px = picture.at(c.x, c.y);
            const int red = px[0] - bg[0], green = px[1] - bg[1];
            EXPECT_EQ(static_cast<int>(std::lround(red / 3.0)), k) << "red " << red << " green " << green;
            EXPECT_NEAR(green, 190 - 3 * k, 2);
        }
    }
}

// A blob of sigma 3 texels that moves kShift texels right each frame in 32-texel cells, its motion atlas the shift
// everywhere. Half-way between frames 5 and 6, the true picture is the blob half-way (an atlas whose every frame
// holds it there, drawn without a blend).
TEST_F(FlipbookAtlas, MotionBlendingOfATranslatingBlobIsNearerTheTrueInBetweenThanLinear) {
    constexpr int kCell = 32;
    constexpr float kShift = 6.0f, kSigma = 2.5f;
    auto blobAtlas = [&](float offset) {
        image::Image a(4 * kCell, 4 * kCell);
        for (int k = 0; k < 16; ++k) {
            const float cx = 6.0f + kShift * static_cast<float>(k % 4) + offset;  // frames 4..7 span the cell
            for (int y = 0; y < kCell; ++y)
                for (int x = 0; x < kCell; ++x) {
                    const float dx = static_cast<float>(x) + 0.5f - cx, dy = static_cast<float>(y) + 0.5f - 16.0f;
                    const float g = std::exp(-(dx * dx + dy * dy) / (2.0f * kSigma * kSigma));
                    uint8_t* t = a.at((k % 4) * kCell + x, (k / 4) * kCell + y);
                    t[0] = t[1] = t[2] = 255, t[3] = static_cast<uint8_t>(std::lround(g * 255.0f));
                }
        }
        return a;
    };
    image::writePng(dir_ / "blob.png", blobAtlas(0.0f));
    image::Image motion(4 * kCell, 4 * kCell);
    for (size_t i = 0; i < motion.pixels.size(); i += 4) {
        motion.pixels[i] = static_cast<uint8_t>(std::lround(128.0f + kShift / kCell / render::kMotionRange * 127.0f));
        motion.pixels[i + 1] = 128, motion.pixels[i + 2] = 0, motion.pixels[i + 3] = 255;
    }
    image::writePng(dir_ / "blob_motion.png", motion);
    image::writePng(dir_ / "between.png", blobAtlas(kShift * 0.5f));

    // Frame 5's middle is life 5.5/16; half-way to frame 6 (the blend's position 5.5) is life 6/16.
    const float dt = kLife / 16.0f / 8.0f;
    const int steps = 6 * 8;
    render::RenderOptions o;
    o.texture = (dir_ / "blob.png").string();
    o.flipbook = {4, 4};
    o.filter = render::Filter::Bilinear;
    for (const std::string& strategy : textured()) {
        SCOPED_TRACE(strategy);
        render::RenderOptions truth = o;
        truth.texture = (dir_ / "between.png").string();
        const image::Image expected = draw(strategy, truth, steps, dt);
        o.flipbookBlend = render::FlipbookBlend::Linear;
        const double linear = harness::meanAbsDifference(draw(strategy, o, steps, dt), expected);
        o.flipbookBlend = render::FlipbookBlend::Motion;
        const double moved = harness::meanAbsDifference(draw(strategy, o, steps, dt), expected);
        o.flipbookBlend = render::FlipbookBlend::None;
        const double cut = harness::meanAbsDifference(draw(strategy, o, steps, dt), expected);
        std::printf("[ motion ] %-22s mean |difference| to the true in-between: none %.3f, linear %.3f, motion %.3f\n",
                    strategy.c_str(), cut, linear, moved);
        EXPECT_GT(linear, 0.0) << "the linear blend is the truth: the test cannot tell";
        EXPECT_LT(moved, 0.5 * linear);
    }
}

}  // namespace
}  // namespace firelab::testing

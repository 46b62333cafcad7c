// compute-splat against the rasteriser: the picture and fragment counts of billboards-instanced
// (additive, view-plane: the same quads) for a small fire, whatever the footprint size, pass size and
// options; the scene's depth hides a particle behind it; refused blend modes and facings.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <filesystem>

#include "support/gl_fixture.h"
#include "harness/quality/image_metrics.h"
#include "harness/draw/overdraw.h"
#include "harness/draw/scorer.h"
#include "render/camera.h"
#include "render/frame/frame_pipeline.h"
#include "render/gl/frame_target.h"
#include "image/image.h"
#include "render/frame/scene.h"
#include "render/strategies/strategy.h"
#include "support/error_of.h"
#include "support/still_particles.h"

namespace firelab::testing {
namespace {
namespace fs = std::filesystem;

class ComputeSplat : public GlTest {};

// The splat picture against billboards-instanced's for variations of a small fire. The default sizes
// give footprints of 3 to 15 pixels (both the per-particle and the per-workgroup path); the reference
// samples the same mip levels at the same pixel centres, so the pictures differ by 8-bit rounding of
// the blend (the splat rounds its sum once, the blender each fragment): measured 44.6 dB (large
// sprites) to 62 dB on llvmpipe. Counts agree but for pixel centres on a quad's edge (0.03 %).
TEST_F(ComputeSplat, MatchesBillboardsInstanced) {
    struct Case {
        const char* what;
        void (*change)(harness::CaptureSettings&);
    };
    const Case cases[] = {
        {"default", [](harness::CaptureSettings&) {}},
        {"small sprites (one invocation each)",
         [](harness::CaptureSettings& s) { s.params.sizeStart = 0.04f, s.params.sizeEnd = 0.02f; }},
        {"large sprites (a workgroup each)",
         [](harness::CaptureSettings& s) { s.params.sizeStart = 0.6f, s.params.sizeEnd = 0.3f; }},
        {"flipbook", [](harness::CaptureSettings& s) { s.render.flipbook = render::kFlameAtlasLayout; }},
        {"soft", [](harness::CaptureSettings& s) { s.render.soft = 0.3f; }},
        {"half resolution, edge fix-up",
         [](harness::CaptureSettings& s) {
             s.render.particleScale = render::ParticleScale::Half;
             s.render.edgeFixup = true;
         }},
        {"hdr", [](harness::CaptureSettings& s) { s.render.hdr = true; }},
    };
    for (const Case& c : cases) {
        SCOPED_TRACE(c.what);
        auto s = smallCapture({"billboards-instanced", "compute-splat"});
        c.change(s);
        const auto r = harness::renderStrategies(s);
        ASSERT_EQ(r.size(), 2u);
        const double db = harness::psnr(r[0].image, r[1].image);
        std::printf("[ compute-splat ] %-36s PSNR %.1f dB, visible %.0f / %.0f, shaded %.0f / %.0f\n", c.what, db,
                    r[1].overdraw.total, r[0].overdraw.total, r[1].fragmentsShaded, r[0].fragmentsShaded);
        EXPECT_GE(db, 40.0);
        EXPECT_GT(r[1].overdraw.total, 1000.0);
        // The same (particle, pixel) pairs: the pixel centres a quad covers, past the depth test.
        EXPECT_NEAR(r[1].fragmentsShaded / r[0].fragmentsShaded, 1.0, 0.002);
        EXPECT_NEAR(r[1].overdraw.total / r[0].overdraw.total, 1.0, 0.01);
    }
    // The measure separates another picture: points draw the same particles untextured.
    auto s = smallCapture({"points", "compute-splat"});
    const auto r = harness::renderStrategies(s);
    EXPECT_LT(harness::psnr(r[0].image, r[1].image), 35.0);
}

// `n` particles at rest at `at`, of edge `size`, lit white at full alpha, one step after birth.
sim::FireSystem whiteParticles(const glm::vec3& at, float size, uint32_t n = 1) {
    sim::FireParams p = stillParticles(at, size, n);
    p.gradient = {{0.0f, {1.0f, 1.0f, 1.0f, 1.0f}}, {1.0f, {1.0f, 1.0f, 1.0f, 1.0f}}};
    sim::FireSystem fire(p, 1);
    fire.step(1.0f / 60.0f);
    return fire;
}

// An opaque white 8x8 sprite in a directory of its own.
struct WhiteSprite {
    fs::path dir = fs::temp_directory_path() / ("firelab-splat-" + std::to_string(::getpid()));
    WhiteSprite() {
        fs::create_directories(dir);
        writeWhiteSprite(file());
    }
    ~WhiteSprite() { fs::remove_all(dir); }
    fs::path file() const { return dir / "white.png"; }
};

struct Drawn {
    harness::DrawnFrame frame;
    image::Image sceneOnly;
};

Drawn drawWith(const std::string& strategy, const sim::FireSystem& fire, const render::RenderOptions& options,
               const render::Camera& camera) {
    const int w = camera.viewportWidth, h = camera.viewportHeight;
    render::StrategyContext sc{FIRELAB_SOURCE_DIR, options, fire.params(), 1.0f / 60.0f};
    auto s = render::makeStrategy(strategy, sc);
    s->upload(fire, camera);
    const render::Scene scene(FIRELAB_SOURCE_DIR);
    render::FramePipeline pipeline(FIRELAB_SOURCE_DIR, options, w, h);
    render::FrameTarget target(w, h);
    Drawn d{harness::drawFrame(pipeline, *s, scene, camera, target, true), {}};
    target.bind();
    scene.draw(camera);
    glFinish();
    d.sceneOnly = target.read();
    return d;
}

// The scene's stone block (centre (0.2, 0.12, 0.9), 0.28 x 0.24 x 0.24 m) between the camera and a
// particle: nothing of it is drawn or shaded. In front of the stone, the same particle is.
TEST_F(ComputeSplat, AParticleBehindTheSceneIsHidden) {
    const WhiteSprite sprite;
    render::RenderOptions o;
    o.texture = sprite.file().string();
    o.hdr = false;  // the 8-bit look of the bare scene it is compared with
    const auto camera = render::lookAtCamera({0.2f, 0.12f, 3.0f}, {0.2f, 0.12f, 0.0f}, 45.0f, 160, 120);
    for (auto scale : {render::ParticleScale::Full, render::ParticleScale::Half}) {
        SCOPED_TRACE(render::kParticleScaleNames[static_cast<size_t>(scale)]);
        o.particleScale = scale;
        const auto behind = drawWith("compute-splat", whiteParticles({0.2f, 0.12f, 0.0f}, 0.1f), o, camera);
        EXPECT_EQ(harness::psnr(behind.frame.image, behind.sceneOnly), harness::kPsnrCap);
        EXPECT_EQ(behind.frame.fragmentsShaded, 0.0);
        const auto before = drawWith("compute-splat", whiteParticles({0.2f, 0.12f, 1.5f}, 0.1f), o, camera);
        EXPECT_LT(harness::psnr(before.frame.image, before.sceneOnly), 30.0);
        EXPECT_GT(before.frame.fragmentsShaded, 10.0);  // a 10-pixel square, 5 at half resolution
    }
}

// One particle with an opaque white sprite above the logs: every pixel of its footprint is shaded and
// visible once, as many as the rasteriser covers for its quad (edge size * proj[1][1] * h/2 / distance).
TEST_F(ComputeSplat, CountsTheFootprintOfOneParticle) {
    const WhiteSprite sprite;
    render::RenderOptions o;
    o.texture = sprite.file().string();
    const int w = 200, h = 200;
    const float distance = 4.0f, size = 0.5f;
    const auto camera = render::lookAtCamera({0, 3, distance}, {0, 3, 0}, 45.0f, w, h);
    const auto fire = whiteParticles({0.0f, 3.0f, 0.0f}, size);
    const auto splat = drawWith("compute-splat", fire, o, camera);
    const auto quads = drawWith("billboards-instanced", fire, o, camera);
    const double edge = size * camera.proj[1][1] * h / 2.0 / distance;
    EXPECT_NEAR(splat.frame.fragmentsShaded, edge * edge, 2.0 * edge + 1.0);  // within a row and a column
    EXPECT_EQ(splat.frame.fragmentsShaded, quads.frame.fragmentsShaded);
    EXPECT_EQ(splat.frame.overdraw.total, splat.frame.fragmentsShaded);
    EXPECT_DOUBLE_EQ(splat.frame.overdraw.max, 1.0);
    // Three stacked: each pixel three times.
    const auto three = drawWith("compute-splat", whiteParticles({0.0f, 3.0f, 0.0f}, size, 3), o, camera);
    EXPECT_EQ(three.frame.fragmentsShaded, 3.0 * splat.frame.fragmentsShaded);
    EXPECT_DOUBLE_EQ(three.frame.overdraw.mean, 3.0);
}

TEST_F(ComputeSplat, RefusesOtherBlendModesAndFacingsNamingTheOption) {
    const auto refusal = [](const render::RenderOptions& o) {
        const Error e = errorOf([&] { render::checkOptions("compute-splat", o); });
        EXPECT_EQ(e.code(), ErrorCode::BadValue);
        return std::string(e.what());
    };
    render::RenderOptions o;
    EXPECT_NO_THROW(render::checkOptions("compute-splat", o));
    o.blend = render::Blend::Alpha;
    const std::string blend = refusal(o);
    EXPECT_NE(blend.find("--blend alpha"), std::string::npos) << blend;
    EXPECT_NE(blend.find("--blend additive"), std::string::npos) << blend;
    o.blend = render::Blend::Premultiplied;
    EXPECT_NE(refusal(o).find("--blend premultiplied"), std::string::npos);
    o.blend = render::Blend::Additive;
    for (auto facing : {render::Facing::Viewpoint, render::Facing::Velocity}) {
        o.facing = facing;
        const std::string why = refusal(o);
        EXPECT_NE(why.find("--facing " + std::string(render::kFacingNames[static_cast<size_t>(facing)])),
                  std::string::npos)
            << why;
        EXPECT_NE(why.find("--facing view-plane"), std::string::npos) << why;
    }
    o.facing = render::Facing::ViewPlane;
    o.hull = render::Hull::Eight;
    EXPECT_NE(refusal(o).find("--hull 8"), std::string::npos);
    // makeStrategy refuses before it compiles anything.
    o.hull = render::Hull::Quad;
    o.blend = render::Blend::Alpha;
    EXPECT_EQ(errorOf([&] {
                  render::makeStrategy("compute-splat", {FIRELAB_SOURCE_DIR, o, {}, 1.0f / 60.0f});
              }).code(),
              ErrorCode::BadValue);
}

}  // namespace
}  // namespace firelab::testing

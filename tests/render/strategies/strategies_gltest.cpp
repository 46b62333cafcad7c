// Every strategy draws the same simulation: non-empty fire-coloured pictures, the three billboard
// paths agreeing, points and point sprites covering the same places, no GL errors for any option.
#include <gtest/gtest.h>

#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <fstream>

#include "support/gl_fixture.h"
#include "harness/quality/image_metrics.h"
#include "render/camera.h"
#include "render/gl/frame_target.h"
#include "render/frame/scene.h"
#include "render/strategies/strategy.h"

namespace firelab::testing {
namespace {

using harness::CaptureResult;

image::Image sceneOnly(const harness::CaptureSettings& s) {
    render::Scene scene(s.dataDir);
    render::FrameTarget target(s.width, s.height);
    const long steps = std::lround(static_cast<double>(s.time) / static_cast<double>(s.dt));
    const auto camera = render::orbitCamera(static_cast<double>(steps) * static_cast<double>(s.dt), s.width, s.height);
    target.bind();
    scene.draw(camera);
    return target.read();
}

// Pixels that differ from the bare scene and look like fire: red dominant over blue.
size_t firePixels(const image::Image& img, const image::Image& background) {
    const auto mask = harness::differenceMask(img, background, 12);
    size_t n = 0;
    for (size_t i = 0; i < mask.size(); ++i) {
        const uint8_t* p = &img.pixels[i * 4];
        n += mask[i] && p[0] >= p[2] + 20 && p[0] >= 80;
    }
    return n;
}

class Strategies : public GlTest {};

TEST_F(Strategies, EachDrawsANonEmptyFireColouredImage) {
    std::vector<std::string> all;
    for (const auto& s : render::strategies()) all.emplace_back(s.name);
    const auto settings = smallCapture(all);
    const auto background = sceneOnly(settings);
    for (const CaptureResult& r : harness::renderStrategies(settings)) {
        SCOPED_TRACE(r.strategy);
        EXPECT_GT(r.drawn, 1000u);
        // At least 2% of the image is fire: the flame spans a good part of a 192x144 frame.
        EXPECT_GT(firePixels(r.image, background), 192u * 144u / 50u);
    }
}

// The three billboard strategies build the same quads (CPU, instancing, geometry shader) from the same
// state; rasterisation order and rounding differ slightly, so they agree to within 35 dB PSNR.
TEST_F(Strategies, BillboardPathsAgreeForEveryFacing) {
    for (auto facing : {render::Facing::ViewPlane, render::Facing::Viewpoint, render::Facing::Velocity}) {
        auto s = smallCapture({"billboards-cpu", "billboards-instanced", "billboards-geometry"});
        s.render.facing = facing;
        s.render.blend = render::Blend::Alpha;
        s.render.sort = render::Sort::BackToFront;
        const auto r = harness::renderStrategies(s);
        ASSERT_EQ(r.size(), 3u);
        SCOPED_TRACE(render::kFacingNames[static_cast<size_t>(facing)]);
        EXPECT_GE(harness::psnr(r[0].image, r[1].image), 35.0);
        EXPECT_GE(harness::psnr(r[0].image, r[2].image), 35.0);
        // Sanity: the metric separates different pictures (a different facing is another picture).
    }
}

TEST_F(Strategies, FacingModesDrawDifferentPictures) {
    auto a = smallCapture({"billboards-instanced"});
    auto b = a;
    b.render.facing = render::Facing::Velocity;
    const auto ra = harness::renderStrategies(a), rb = harness::renderStrategies(b);
    EXPECT_LT(harness::psnr(ra[0].image, rb[0].image), 35.0);
}

// points and point-sprites put the same-sized points at the same places: their covered pixels overlap.
TEST_F(Strategies, PointsAndPointSpritesCoverTheSamePlaces) {
    auto s = smallCapture({"points", "point-sprites"}, 1500);
    const auto background = sceneOnly(s);
    const auto r = harness::renderStrategies(s);
    const auto a = harness::differenceMask(r[0].image, background, 8);
    const auto b = harness::differenceMask(r[1].image, background, 8);
    EXPECT_GT(harness::intersectionOverUnion(a, b), 0.6);
    // A shifted camera covers other places: the same measure must drop.
    auto later = s;
    later.time = 2.5f;
    const auto other = harness::renderStrategies(later);
    const auto c = harness::differenceMask(other[1].image, background, 8);
    EXPECT_LT(harness::intersectionOverUnion(a, c), harness::intersectionOverUnion(a, b));
}

TEST_F(Strategies, NoHighSeverityGlMessageForAnyStrategyAndOption) {
    for (const auto& info : render::strategies()) {
        for (auto blend : {render::Blend::Additive, render::Blend::Alpha, render::Blend::Premultiplied})
            for (auto facing : {render::Facing::ViewPlane, render::Facing::Viewpoint, render::Facing::Velocity})
                for (auto sort : {render::Sort::None, render::Sort::BackToFront})
                    for (bool flipbook : {false, true}) {
                        auto s = smallCapture({std::string(info.name)}, 300);
                        s.time = 0.5f;
                        s.width = 64, s.height = 48;
                        s.render.blend = blend, s.render.facing = facing, s.render.sort = sort;
                        s.render.flipbook = flipbook;
                        try {
                            render::checkOptions(info.name, s.render);
                        } catch (const Error&) {
                            continue;  // a combination the strategy refuses with a message, tested elsewhere
                        }
                        harness::renderStrategies(s);
                    }
        SCOPED_TRACE(std::string(info.name));
        EXPECT_EQ(context().highSeverityCount(), 0u);
    }
}

TEST_F(Strategies, GpuStatelessRefusesToSortWithAClearMessage) {
    render::RenderOptions o;
    o.sort = render::Sort::BackToFront;
    try {
        render::checkOptions("gpu-stateless", o);
        FAIL() << "expected a refusal";
    } catch (const Error& e) {
        EXPECT_EQ(e.code(), ErrorCode::BadValue);
        EXPECT_NE(std::string(e.what()).find("cannot sort"), std::string::npos);
    }
}

TEST_F(Strategies, UnknownStrategyIsRefusedWithTheValidNames) {
    render::StrategyContext c{FIRELAB_SOURCE_DIR, {}, {}, 1.0f / 60.0f};
    try {
        render::makeStrategy("quads", c);
        FAIL();
    } catch (const Error& e) {
        EXPECT_EQ(e.code(), ErrorCode::UnknownName);
        EXPECT_NE(std::string(e.what()).find("billboards-instanced"), std::string::npos);
    }
}

TEST_F(Strategies, BrokenShaderFileGivesAnErrorNamingIt) {
    namespace fs = std::filesystem;
    const fs::path dir = fs::temp_directory_path() / ("firelab-broken-" + std::to_string(::getpid()));
    fs::remove_all(dir);
    fs::create_directories(dir);
    fs::copy(fs::path(FIRELAB_SOURCE_DIR) / "shaders", dir / "shaders", fs::copy_options::recursive);
    fs::copy(fs::path(FIRELAB_SOURCE_DIR) / "textures", dir / "textures", fs::copy_options::recursive);
    std::ofstream(dir / "shaders" / "quad.frag", std::ios::app) << "\nthis is not glsl;\n";
    render::StrategyContext c{dir, {}, {}, 1.0f / 60.0f};
    try {
        render::makeStrategy("billboards-instanced", c);
        FAIL() << "expected a shader error";
    } catch (const Error& e) {
        EXPECT_EQ(e.code(), ErrorCode::ShaderCompile);
        EXPECT_NE(std::string(e.what()).find("quad.frag"), std::string::npos) << e.what();
        EXPECT_NE(std::string(e.what()).find("fragment"), std::string::npos) << e.what();
    }
    context().clearDebugMessages();  // the compile failure itself may be reported by the driver
    fs::remove_all(dir);
}

TEST_F(Strategies, MissingTextureIsNamed) {
    render::RenderOptions o;
    o.texture = "no-such-sprite.png";
    render::StrategyContext c{FIRELAB_SOURCE_DIR, o, {}, 1.0f / 60.0f};
    try {
        render::makeStrategy("point-sprites", c);
        FAIL();
    } catch (const Error& e) {
        EXPECT_EQ(e.code(), ErrorCode::MissingFile);
        EXPECT_NE(std::string(e.what()).find("no-such-sprite.png"), std::string::npos);
    }
}

}  // namespace
}  // namespace firelab::testing

// Every strategy draws the same simulation: non-empty fire-coloured pictures, the billboard paths agreeing,
// the point strategies covering the same places, no GL errors for any option. Each test takes the
// registered strategies it applies to, selected by capability.
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
#include "support/error_of.h"

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
    const auto settings = smallCapture(render::strategyNames());
    const auto background = sceneOnly(settings);
    for (const CaptureResult& r : harness::renderStrategies(settings)) {
        SCOPED_TRACE(r.strategy);
        EXPECT_GT(r.drawn, 1000u);
        // At least 2% of the image is fire: the flame spans a good part of a 192x144 frame.
        EXPECT_GT(firePixels(r.image, background), 192u * 144u / 50u);
    }
}

// The strategies that build sprite polygons from the CPU pool (billboards-cpu on the CPU, instancing, a
// geometry shader...) build the same quads from the same state; rasterisation order and rounding differ
// slightly, so they agree with the first of them to within 35 dB PSNR.
TEST_F(Strategies, BillboardPathsAgreeForEveryFacing) {
    const auto billboards = render::strategyNames(
        [](const render::StrategyInfo& s) { return s.primitive == render::Primitive::Sprites && !s.simulatesOnGpu; });
    ASSERT_GE(billboards.size(), 2u) << "nothing to compare";
    for (auto facing : {render::Facing::ViewPlane, render::Facing::Viewpoint, render::Facing::Velocity}) {
        auto s = smallCapture(billboards);
        s.render.facing = facing;
        s.render.blend = render::Blend::Alpha;
        s.render.sort = render::Sort::BackToFront;
        const auto r = harness::renderStrategies(s);
        ASSERT_EQ(r.size(), billboards.size());
        for (size_t i = 1; i < r.size(); ++i) {
            SCOPED_TRACE(r[i].strategy + " against " + r[0].strategy + ", facing " +
                         std::string(render::kFacingNames[static_cast<size_t>(facing)]));
            EXPECT_GE(harness::psnr(r[0].image, r[i].image), 35.0);
        }
    }
}

// Every strategy that draws sprite polygons turns them as --facing says: another facing, another picture.
TEST_F(Strategies, FacingModesDrawDifferentPictures) {
    for (const auto& name : render::strategyNames([](const render::StrategyInfo& s) {
             return s.primitive == render::Primitive::Sprites && !s.viewPlaneOnly;
         })) {
        auto a = smallCapture({name});
        auto b = a;
        b.render.facing = render::Facing::Velocity;
        const auto ra = harness::renderStrategies(a), rb = harness::renderStrategies(b);
        EXPECT_LT(harness::psnr(ra[0].image, rb[0].image), 35.0) << name;
    }
}

// The GL_POINTS strategies (points, point-sprites...) put the same-sized points at the same places: the
// pixels each covers overlap the first one's.
TEST_F(Strategies, PointStrategiesCoverTheSamePlaces) {
    const auto points =
        render::strategyNames([](const render::StrategyInfo& s) { return s.primitive == render::Primitive::Points; });
    ASSERT_GE(points.size(), 2u) << "nothing to compare";
    auto s = smallCapture(points, 1500);
    const auto background = sceneOnly(s);
    const auto r = harness::renderStrategies(s);
    const auto first = harness::differenceMask(r[0].image, background, 8);
    // A shifted camera covers other places: the same measure must drop.
    auto later = s;
    later.time = 2.5f;
    const auto other = harness::renderStrategies(later);
    for (size_t i = 1; i < r.size(); ++i) {
        SCOPED_TRACE(r[i].strategy + " against " + r[0].strategy);
        const double same = harness::intersectionOverUnion(first, harness::differenceMask(r[i].image, background, 8));
        EXPECT_GT(same, 0.6);
        EXPECT_LT(harness::intersectionOverUnion(first, harness::differenceMask(other[i].image, background, 8)), same);
    }
}

// Every strategy drawn with every pair of option values (blend x facing x sort x flipbook: an L9 orthogonal array,
// 9 combinations in which each pair of values of any two options occurs, instead of all 36) raises no
// high-severity debug message. Each shader source's variants are compiled on their own, every pair of them, by
// Shaders.CompileWithoutWarningInEveryVariant; this checks what drawing with them reports.
TEST_F(Strategies, NoHighSeverityGlMessageForAnyStrategyAndOption) {
    constexpr render::Blend kBlends[] = {render::Blend::Additive, render::Blend::Alpha, render::Blend::Premultiplied};
    constexpr render::Facing kFacings[] = {render::Facing::ViewPlane, render::Facing::Viewpoint,
                                           render::Facing::Velocity};
    constexpr render::Sort kSorts[] = {render::Sort::None, render::Sort::BackToFront, render::Sort::None};
    constexpr render::FlipbookLayout kFlipbooks[] = {{}, render::kFlameAtlasLayout, {}};
    constexpr int kL9[9][4] = {{0, 0, 0, 0}, {0, 1, 1, 1}, {0, 2, 2, 2}, {1, 0, 1, 2}, {1, 1, 2, 0},
                               {1, 2, 0, 1}, {2, 0, 2, 1}, {2, 1, 0, 2}, {2, 2, 1, 0}};
    for (const auto& info : render::strategies()) {
        SCOPED_TRACE(std::string(info.name));
        size_t drawn = 0;
        for (const auto& row : kL9) {
            auto s = smallCapture({std::string(info.name)}, 300);
            s.time = 0.5f;
            s.width = 64, s.height = 48;
            s.render.blend = kBlends[row[0]], s.render.facing = kFacings[row[1]], s.render.sort = kSorts[row[2]];
            s.render.flipbook = kFlipbooks[row[3]];
            try {
                render::checkOptions(info.name, s.render);
            } catch (const Error&) {
                continue;  // a combination the strategy refuses with a message, tested elsewhere
            }
            harness::renderStrategies(s);
            ++drawn;
        }
        EXPECT_GT(drawn, 0u) << "no combination was drawn";
        EXPECT_EQ(context().highSeverityCount(), 0u);
    }
}

// Each entry's factory makes the strategy the entry names (makeStrategy finds the entry by name).
TEST_F(Strategies, EveryEntryMakesTheStrategyItNames) {
    for (const auto& info : render::strategies()) {
        const auto s = render::makeStrategy(info.name, {FIRELAB_SOURCE_DIR, {}, {}, 1.0f / 60.0f});
        ASSERT_NE(s, nullptr) << info.name;
        EXPECT_EQ(s->name(), info.name);
    }
}

TEST_F(Strategies, EveryStrategyThatCannotSortRefusesToWithAClearMessage) {
    render::RenderOptions o;
    o.sort = render::Sort::BackToFront;
    for (const auto& name : render::strategyNames([](const render::StrategyInfo& s) { return !s.canSort; })) {
        const Error e = errorOf([&] { render::checkOptions(name, o); });
        EXPECT_EQ(e.code(), ErrorCode::BadValue) << name;
        EXPECT_NE(std::string(e.what()).find(name + " cannot sort"), std::string::npos) << e.what();
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

// Every strategy that draws the sprite names a --texture it cannot find.
TEST_F(Strategies, MissingTextureIsNamed) {
    render::RenderOptions o;
    o.texture = "no-such-sprite.png";
    const render::StrategyContext c{FIRELAB_SOURCE_DIR, o, {}, 1.0f / 60.0f};
    for (const auto& name : render::strategyNames([](const render::StrategyInfo& s) { return s.textured; })) {
        const Error e = errorOf([&] { render::makeStrategy(name, c); });
        EXPECT_EQ(e.code(), ErrorCode::MissingFile) << name;
        EXPECT_NE(std::string(e.what()).find("no-such-sprite.png"), std::string::npos) << name << ": " << e.what();
    }
}

}  // namespace
}  // namespace firelab::testing

// Trimmed sprites drawn (--hull 4 | 8, render/particles/sprite_hull.h): every sprite strategy (primitive Sprites in
// the registry) draws the quad's picture (PSNR >= 45 dB over the fire's pixels, where a misplaced, flipped or
// too-fine polygon cuts sprites off) for flame.png, the flipbook and a sprite visible only in its top-left corner,
// at a small size (particles a few pixels wide: coarse mip levels) and at 1280 x 720; and shades fewer fragments:
// at least half fewer with 8 vertices on the default fire at 1280 x 720.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <ostream>
#include <string>

#include "support/gl_fixture.h"
#include "harness/quality/image_metrics.h"
#include "harness/draw/overdraw.h"
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
namespace fs = std::filesystem;

constexpr int kSteps = 90;  // t = 1.5 s: the fire has risen
constexpr double kMinPsnr = 45.0;

enum class Sprite { Flame, Flipbook, Corner };

struct Case {
    std::string strategy;
    Sprite sprite;
};

std::string spriteName(Sprite s) {
    return s == Sprite::Flame ? "flame" : s == Sprite::Flipbook ? "flipbook" : "corner";
}

// How GoogleTest prints a case (in the test list and failures): not its bytes.
void PrintTo(const Case& c, std::ostream* os) { *os << c.strategy << " " << spriteName(c.sprite); }

std::string caseName(const ::testing::TestParamInfo<Case>& info) {
    std::string s = info.param.strategy + "_" + spriteName(info.param.sprite);
    std::replace(s.begin(), s.end(), '-', '_');
    return s;
}

// The strategies that draw sprite polygons, the ones a trimmed hull applies to.
std::vector<std::string> spriteStrategies() {
    return render::strategyNames(
        [](const render::StrategyInfo& s) { return s.primitive == render::Primitive::Sprites; });
}

std::vector<Case> cases(std::initializer_list<Sprite> sprites) {
    std::vector<Case> c;
    for (const auto& s : spriteStrategies())
        for (auto sprite : sprites) c.push_back({s, sprite});
    return c;
}

struct Drawn {
    image::Image frame;
    double shaded = 0.0;  // fragments the particle shaders ran on
};

// The default fire (3000 particles) at t = 1.5 s on the scripted orbit, drawn through the frame pipeline.
class HullTest : public GlTest {
protected:
    void SetUp() override {
        GlTest::SetUp();
        if (IsSkipped() || HasFatalFailure()) return;
        dir_ = fs::temp_directory_path() / ("firelab-hull-" + std::to_string(::getpid()));
        fs::create_directories(dir_);
        // Opaque in a disc in the top-left quadrant, soft-edged, transparent elsewhere: its polygons are far
        // from symmetric, so one flipped in u or v, or taken from another slot or cell, cuts it off.
        image::Image corner(64, 64);
        for (int y = 0; y < 64; ++y)
            for (int x = 0; x < 64; ++x) {
                const float d = std::hypot(static_cast<float>(x) - 18.0f, static_cast<float>(y) - 16.0f);
                uint8_t* p = corner.at(x, y);
                p[0] = p[1] = p[2] = 255;
                p[3] = static_cast<uint8_t>(std::clamp(255.0f * (12.0f - d) / 6.0f, 0.0f, 255.0f));
            }
        image::writePng(dir_ / "corner.png", corner);
        scene_ = std::make_unique<render::Scene>(FIRELAB_SOURCE_DIR);
        params_.particles = 3000;
        fire_ = std::make_unique<sim::FireSystem>(params_, 1);
        for (int i = 0; i < kSteps; ++i) fire_->step(kDt);
    }
    void TearDown() override {
        scene_.reset();
        if (!dir_.empty()) fs::remove_all(dir_);
        GlTest::TearDown();
    }

    render::RenderOptions options(Sprite sprite, render::Hull hull) const {
        render::RenderOptions o;
        o.hull = hull;
        o.flipbook = sprite == Sprite::Flipbook ? render::kFlameAtlasLayout : render::FlipbookLayout{};
        if (sprite == Sprite::Corner) o.texture = (dir_ / "corner.png").string();
        return o;
    }

    // The frame and the fragments shaded, counted by the same pipeline.
    Drawn draw(const std::string& strategy, const render::RenderOptions& o, int width, int height) const {
        const auto camera = render::orbitCamera(kSteps * static_cast<double>(kDt), width, height);
        auto s = render::makeStrategy(strategy, {FIRELAB_SOURCE_DIR, o, params_, kDt});
        s->upload(*fire_, camera);
        render::FramePipeline pipeline(FIRELAB_SOURCE_DIR, o, width, height);
        render::FrameTarget target(width, height);
        pipeline.draw(*scene_, *s, camera, target);
        Drawn d{target.read(), 0.0};
        d.shaded = harness::measureOverdraw(pipeline, *scene_, *s, camera, render::DrawMode::CountShaded).total;
        return d;
    }

    // --hull 4 and 8 against the quad: the same picture over the fire's pixels (PSNR >= 45 dB; the whole frame,
    // mostly the scene, would flatter it) and fewer fragments shaded. Returns the cuts (1 - trimmed / quad).
    // `adjust` sets other options (`label` names them).
    std::pair<double, double> compare(const std::string& strategy, Sprite sprite, int width, int height,
                                      const std::function<void(render::RenderOptions&)>& adjust = {},
                                      const std::string& label = "") const {
        auto with = [&](render::Hull hull) {
            render::RenderOptions o = options(sprite, hull);
            if (adjust) adjust(o);
            return o;
        };
        render::RenderOptions none = with(render::Hull::Quad);
        none.alphaScale = 0.0f;  // the scene alone
        const image::Image scene = draw(strategy, none, width, height).frame;
        const Drawn quad = draw(strategy, with(render::Hull::Quad), width, height);
        const auto fire = harness::differenceMask(quad.frame, scene, 2);
        const auto firePixels = std::count(fire.begin(), fire.end(), true);
        EXPECT_GE(firePixels, width * height / 50) << "no fire to compare";
        double cut[2] = {};
        for (auto hull : {render::Hull::Four, render::Hull::Eight}) {
            const Drawn trimmed = draw(strategy, with(hull), width, height);
            const double psnr = harness::psnr(trimmed.frame, quad.frame, fire);
            const double c = 1.0 - trimmed.shaded / quad.shaded;
            const std::string what = strategy + " --hull " + std::string(render::kHullNames[size_t(hull)]) + " " +
                                     spriteName(sprite) + " " + std::to_string(width) + "x" + std::to_string(height) +
                                     label;
            std::printf("[ hull     ] %-70s %5.1f dB over %6lld fire pixels, fragments shaded cut %4.1f%%\n",
                        what.c_str(), psnr, static_cast<long long>(firePixels), 100.0 * c);
            EXPECT_GE(psnr, kMinPsnr) << what;
            EXPECT_GT(c, 0.0) << what << ": no fewer fragments than the quad";
            cut[hull == render::Hull::Eight] = c;
        }
        EXPECT_GE(cut[1], cut[0] - 0.01) << "8 vertices shade more than 4";
        return {cut[0], cut[1]};
    }

    fs::path dir_;
    sim::FireParams params_;
    std::unique_ptr<sim::FireSystem> fire_;
    std::unique_ptr<render::Scene> scene_;
};

// Particles 5 to 10 pixels wide: every one minified, drawn with the coarse slots' polygons.
class HullSmall : public HullTest, public ::testing::WithParamInterface<Case> {};

TEST_P(HullSmall, TrimmedSpritesDrawTheQuadsPicture) {
    const auto [four, eight] = compare(GetParam().strategy, GetParam().sprite, 192, 144);
    if (GetParam().sprite == Sprite::Corner) {
        EXPECT_GE(eight, 0.5) << "the corner sprite's polygons stay small";
    }
}

INSTANTIATE_TEST_SUITE_P(Strategies, HullSmall,
                         ::testing::ValuesIn(cases({Sprite::Flame, Sprite::Flipbook, Sprite::Corner})), caseName);

// A rotated sprite (velocity) and one turned to the eye (viewpoint) take LOD slots with half a level of margin;
// a quarter-resolution particle pass takes coarser slots (billboards-cpu chooses them at upload, for that pass,
// the others in sprite_hull.glsl). Every sprite strategy.
TEST_F(HullTest, OtherFacingsAndParticleScalesDrawTheQuadsPicture) {
    for (const auto& strategy : spriteStrategies()) {
        for (auto facing : {render::Facing::Viewpoint, render::Facing::Velocity}) {
            const auto set = [facing](render::RenderOptions& o) { o.facing = facing; };
            const std::string label = " --facing " + std::string(render::kFacingNames[size_t(facing)]);
            compare(strategy, Sprite::Flame, 192, 144, set, label);
            compare(strategy, Sprite::Corner, 480, 360, set, label);
        }
        const auto quarter = [](render::RenderOptions& o) { o.particleScale = render::ParticleScale::Quarter; };
        compare(strategy, Sprite::Corner, 480, 360, quarter, " --particle-scale 0.25");
        compare(strategy, Sprite::Flame, 480, 360, quarter, " --particle-scale 0.25");
    }
}

// --flipbook-blend linear blends a frame with the next: each cell's polygon encloses both frames' texels.
TEST_F(HullTest, BlendedFlipbookFramesStayInsideTheirPolygons) {
    const auto blend = [](render::RenderOptions& o) { o.flipbookBlend = render::FlipbookBlend::Linear; };
    for (const auto& strategy : spriteStrategies()) compare(strategy, Sprite::Flipbook, 480, 360, blend, " blended");
}

// Turned sprites (--rotation-var, --spin): the trimmed polygon turns with the texture in every sprite strategy,
// so the corner sprite, whose polygon is far off-centre, is not cut off.
TEST_F(HullTest, TurnedSpritesTurnTheirPolygons) {
    params_.rotationVarDeg = 180.0f;
    params_.spinDeg = 120.0f;
    fire_ = std::make_unique<sim::FireSystem>(params_, 1);
    for (int i = 0; i < kSteps; ++i) fire_->step(kDt);
    for (const auto& strategy : spriteStrategies()) compare(strategy, Sprite::Corner, 480, 360, {}, " turned");
}

// At the viewer's and the experiments' size, where the fragments are: the picture, and the cut per strategy.
class HullLarge : public HullTest, public ::testing::WithParamInterface<Case> {};

TEST_P(HullLarge, EightVerticesShadeUnderHalfTheQuadsFragments) {
    const auto [four, eight] = compare(GetParam().strategy, GetParam().sprite, 1280, 720);
    EXPECT_GE(eight, 0.5);
}

INSTANTIATE_TEST_SUITE_P(Strategies, HullLarge, ::testing::ValuesIn(cases({Sprite::Flame, Sprite::Flipbook})),
                         caseName);

}  // namespace
}  // namespace firelab::testing

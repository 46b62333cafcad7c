// Flipbook options against their files, refused before any run (render::checkSprite, harness::checkBake), and the
// layout's and the bake's encodings. No GL.
#include <gtest/gtest.h>

#include <string>

#include "core/error.h"
#include "harness/draw/bake.h"
#include "harness/settings/run_settings.h"
#include "image/image.h"
#include "render/particles/particle_material.h"
#include "support/scratch_dir.h"

namespace firelab::testing {
namespace {

class FlipbookCheck : public ScratchDirTest {
protected:
    std::filesystem::path png(const std::string& name, int w, int h) const {
        image::Image i(w, h);
        for (auto& b : i.pixels) b = 200;
        image::writePng(dir_ / name, i);
        return dir_ / name;
    }
    static render::RenderOptions atlas(const std::filesystem::path& file, render::FlipbookLayout layout,
                                       render::FlipbookBlend blend = render::FlipbookBlend::None) {
        render::RenderOptions o;
        o.texture = file.string();
        o.flipbook = layout;
        o.flipbookBlend = blend;
        return o;
    }
    // The message of the BadValue `f` throws, or a failure.
    template <class F>
    static std::string badValue(F f) {
        try {
            f();
        } catch (const Error& e) {
            EXPECT_EQ(e.code(), ErrorCode::BadValue) << e.what();
            return e.what();
        }
        ADD_FAILURE() << "accepted";
        return "";
    }
};

TEST_F(FlipbookCheck, AnAtlasItsLayoutDoesNotDivideIsRefusedNamingTheFlagTheFileAndTheRule) {
    const auto file = png("odd.png", 30, 32);
    const std::string m = badValue([&] { render::checkSprite(dir_, atlas(file, {4, 4})); });
    EXPECT_NE(m.find("--flipbook 4x4"), std::string::npos) << m;
    EXPECT_NE(m.find(file.string()), std::string::npos) << m;
    EXPECT_NE(m.find("30x32"), std::string::npos) << m;
    EXPECT_NE(m.find("multiple of the columns"), std::string::npos) << m;
    render::checkSprite(dir_, atlas(png("even.png", 32, 32), {4, 4}));  // divisible: taken
    render::checkSprite(dir_, atlas(png("wide.png", 30, 32), {4, 3}));  // 3 columns of 10, 4 rows of 8
}

TEST_F(FlipbookCheck, ALayoutWithZeroRowsOrOfAnotherShapeIsRefused) {
    for (const std::string text : {"0x4", "4x0", "4", "4x4x4", "axb", "65x1", "-1x2"}) {
        harness::RunSettings s;
        const std::string m = badValue([&] { harness::applySetting(s, "flipbook", text); });
        EXPECT_NE(m.find("--flipbook"), std::string::npos) << m;
        EXPECT_NE(m.find("RxC"), std::string::npos) << m;
    }
    harness::RunSettings s;
    harness::applySetting(s, "flipbook", "8x4");
    EXPECT_EQ(s.render.flipbook, (render::FlipbookLayout{8, 4}));
    harness::applySetting(s, "flipbook", "true");  // an older file's switch: the first atlas's layout
    EXPECT_EQ(s.render.flipbook, render::kFlameAtlasLayout);
    harness::applySetting(s, "flipbook", "off");
    EXPECT_FALSE(s.render.flipbook);
    EXPECT_EQ(harness::settingText(s, "flipbook"), "off");
}

TEST_F(FlipbookCheck, AMotionAtlasOfAnotherSizeOrNoneIsRefusedNamingBothFiles) {
    const auto file = png("fire.png", 64, 64);
    const auto o = atlas(file, {4, 4}, render::FlipbookBlend::Motion);
    try {
        render::checkSprite(dir_, o);
        ADD_FAILURE() << "a motion blend without its motion atlas was taken";
    } catch (const Error& e) {
        EXPECT_EQ(e.code(), ErrorCode::MissingFile);
        EXPECT_NE(std::string(e.what()).find("fire_motion.png"), std::string::npos) << e.what();
    }
    png("fire_motion.png", 32, 64);
    const std::string m = badValue([&] { render::checkSprite(dir_, o); });
    EXPECT_NE(m.find("fire_motion.png"), std::string::npos) << m;
    EXPECT_NE(m.find(file.string()), std::string::npos) << m;
    EXPECT_NE(m.find("same size"), std::string::npos) << m;
    png("fire_motion.png", 64, 64);
    render::checkSprite(dir_, o);
    auto trimmed = o;
    trimmed.hull = render::Hull::Eight;  // a warped texel may lie outside the frame's polygon
    EXPECT_NE(badValue([&] { render::checkSprite(dir_, trimmed); }).find("--hull quad"), std::string::npos);
}

TEST_F(FlipbookCheck, TheDefaultTexturesAtlasIsPlayedAsItsOwn4x4Only) {
    render::RenderOptions o;
    o.flipbook = {8, 8};  // the default texture: textures/flame_atlas.png, 4x4, whose sides 8 divides too
    const std::string m = badValue([&] { render::checkSprite(FIRELAB_SOURCE_DIR, o); });
    EXPECT_NE(m.find("--flipbook 8x8"), std::string::npos) << m;
    EXPECT_NE(m.find("--texture"), std::string::npos) << m;
    o.flipbook = render::kFlameAtlasLayout;
    render::checkSprite(FIRELAB_SOURCE_DIR, o);
}

TEST_F(FlipbookCheck, ATrimmedHullIsKeptForSixteenFramesAtMost) {
    auto o = atlas(png("big.png", 64, 64), {8, 8});
    o.hull = render::Hull::Four;
    EXPECT_NE(badValue([&] { render::checkSprite(dir_, o); }).find("16 frames"), std::string::npos);
    o.hull = render::Hull::Quad;
    render::checkSprite(dir_, o);
}

TEST_F(FlipbookCheck, ABakeLargerThanTheAtlasOrTheMemoryAllowsIsRefusedNamingItsFlags) {
    harness::BakeSettings s;
    s.layout = {64, 64};
    s.cell = 512;  // 32768 pixels a side
    const std::string side = badValue([&] { harness::checkBake(s); });
    EXPECT_NE(side.find("--flipbook 64x64 --frame 512"), std::string::npos) << side;
    EXPECT_NE(side.find("16384"), std::string::npos) << side;
    s.cell = 256;  // 4104 frames of 256 x 256: 6.4 GB of floats, over the 4 GiB budget
    const std::string memory = badValue([&] { harness::checkBake(s); });
    EXPECT_NE(memory.find("MiB"), std::string::npos) << memory;
    EXPECT_NE(memory.find("--frame 256"), std::string::npos) << memory;
    s.layout = {4, 4}, s.cell = 64, s.loopFrames = 16;
    EXPECT_NE(badValue([&] { harness::checkBake(s); }).find("--loop 16"), std::string::npos);
    s.loopFrames = 4;
    harness::checkBake(s);
}

// A flipbook's frames over the life: n frames each 1/n of it; the blend's position shows frame k alone at its
// middle. And the bake's encodings give back what they hold, to a byte.
TEST(FlipbookFrames, FrameKShowsAtLifeKOverN) {
    for (int k : {0, 1, 9, 37, 63}) {
        EXPECT_EQ(render::flipbookFrame((static_cast<float>(k) + 0.5f) / 64.0f, render::FlipbookBlend::None, 64), k);
        EXPECT_FLOAT_EQ(
            render::flipbookPosition((static_cast<float>(k) + 0.5f) / 64.0f, render::FlipbookBlend::Motion, 64),
            static_cast<float>(k));
    }
    EXPECT_EQ(render::flipbookFrame(1.0f, render::FlipbookBlend::None, 64), 63);
}

TEST(BakeEncoding, LightAndMotionComeBackWithinAByte) {
    const float scale = 20.0f;
    for (const glm::vec4 light : {glm::vec4(19.0f, 8.0f, 1.0f, 0.0f), glm::vec4(0.5f, 0.2f, 0.1f, 0.3f),
                                  glm::vec4(0.0f), glm::vec4(40.0f, 1.0f, 0.0f, 0.9f)}) {
        const glm::vec4 t = harness::encodeLight(light, scale);
        const uint8_t bytes[4] = {
            static_cast<uint8_t>(std::lround(t.r * 255)), static_cast<uint8_t>(std::lround(t.g * 255)),
            static_cast<uint8_t>(std::lround(t.b * 255)), static_cast<uint8_t>(std::lround(t.a * 255))};
        const glm::vec3 back = harness::decodedLight(bytes, scale);
        for (int c = 0; c < 3; ++c)  // clipped at the scale, then within a byte of the scale (two roundings)
            EXPECT_NEAR(back[c], std::min(light[c], scale), 2.5f * scale / 255.0f) << c;
    }
    const glm::vec2 m = harness::encodeMotion({0.1875f, -0.05f}) * 255.0f;
    EXPECT_NEAR((std::round(m.x) - 128.0f) / 127.0f * render::kMotionRange, 0.1875f, 0.5f / 127.0f * 0.5f + 1e-6f);
    EXPECT_NEAR((std::round(m.y) - 128.0f) / 127.0f * render::kMotionRange, -0.05f, 0.5f / 127.0f * 0.5f + 1e-6f);
    EXPECT_FLOAT_EQ(harness::encodeMotion({9.0f, -9.0f}).x * 255.0f, 255.0f);  // clamped to the range
    EXPECT_FLOAT_EQ(harness::encodeMotion({9.0f, -9.0f}).y * 255.0f, 1.0f);
    EXPECT_FLOAT_EQ(harness::encodeMotion({0.0f, 0.0f}).x * 255.0f, 128.0f);  // still
}

}  // namespace
}  // namespace firelab::testing

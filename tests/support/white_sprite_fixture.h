// A GL test with a scratch folder holding an opaque white sprite (white.png, writeWhiteSprite) and the scene, and a
// frame drawn through the frame pipeline: for tests that measure exactly what a sprite covers. The folder is the process's own and removed after the test.
#pragma once
#include <unistd.h>

#include <filesystem>
#include <memory>
#include <string>

#include "image/image.h"
#include "render/camera.h"
#include "render/frame/frame_pipeline.h"
#include "render/frame/scene.h"
#include "render/gl/frame_target.h"
#include "render/strategies/strategy.h"
#include "sim/fire_system.h"
#include "support/gl_fixture.h"
#include "support/still_particles.h"

namespace firelab::testing {

class WhiteSpriteTest : public GlTest {
protected:
    void SetUp() override {
        GlTest::SetUp();
        if (IsSkipped() || HasFatalFailure()) return;
        dir_ = std::filesystem::temp_directory_path() / ("firelab-white-sprite-" + std::to_string(::getpid()));
        std::filesystem::create_directories(dir_);
        writeWhiteSprite(dir_ / "white.png");
        scene_ = std::make_unique<render::Scene>(FIRELAB_SOURCE_DIR);
    }
    void TearDown() override {
        scene_.reset();
        if (!dir_.empty()) std::filesystem::remove_all(dir_);
        GlTest::TearDown();
    }
    // The white sprite's path, as --texture takes it.
    std::string whiteSpritePath() const { return (dir_ / "white.png").string(); }

    // The frame of `params` after `steps` steps drawn by `strategy` with `options` through a frame pipeline over the
    // scene, at the camera's viewport size.
    image::Image drawFrame(const sim::FireParams& params, const render::RenderOptions& options,
                           const render::Camera& camera, const std::string& strategy, int steps = 1) const {
        sim::FireSystem fire(params, 1);
        for (int i = 0; i < steps; ++i) fire.step(1.0f / 60.0f);
        auto s = render::makeStrategy(strategy, {FIRELAB_SOURCE_DIR, options, params, 1.0f / 60.0f});
        s->upload(fire, camera);
        render::FramePipeline pipeline(FIRELAB_SOURCE_DIR, options, camera.viewportWidth, camera.viewportHeight);
        render::FrameTarget target(camera.viewportWidth, camera.viewportHeight);
        pipeline.draw(*scene_, *s, camera, target);
        glFinish();
        return target.read();
    }

    std::filesystem::path dir_;
    std::unique_ptr<render::Scene> scene_;
};

}  // namespace firelab::testing

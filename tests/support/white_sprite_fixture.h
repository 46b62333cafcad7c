// A GL test with a scratch folder holding an opaque white sprite (white.png, writeWhiteSprite) and the scene: for
// tests that measure exactly what a sprite covers. The folder is the process's own and removed after the test.
#pragma once
#include <unistd.h>

#include <filesystem>
#include <memory>
#include <string>

#include "render/frame/scene.h"
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

    std::filesystem::path dir_;
    std::unique_ptr<render::Scene> scene_;
};

}  // namespace firelab::testing

// The viewer in a real X window under Xvfb: it runs, quits after N frames and writes a screenshot that
// is not black. Without xvfb-run the test skips, except under CI, which must prove the viewer.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <string>

#include "render/image.h"

namespace firelab::testing {
namespace {
namespace fs = std::filesystem;

bool haveXvfbRun() { return std::system("command -v xvfb-run >/dev/null 2>&1") == 0; }

int runViewer(const std::string& args) {
    // SDL must use X11 here, not the offscreen driver the other tests ask for.
    const std::string cmd = "env -u SDL_VIDEODRIVER xvfb-run -a -s '-screen 0 1024x768x24' " + std::string(FIRELAB_EXE) +
                            " view " + args + " >/dev/null 2>&1";
    const int rc = std::system(cmd.c_str());
    return WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
}

class Viewer : public ::testing::Test {
protected:
    void SetUp() override {
        if (haveXvfbRun()) return;
        if (std::getenv("CI")) FAIL() << "xvfb-run is missing under CI (package xvfb)";
        GTEST_SKIP() << "xvfb-run is not installed (package xvfb)";
    }
    fs::path dir_ = fs::temp_directory_path() / ("firelab-view-" + std::to_string(::getpid()));
    void TearDown() override { fs::remove_all(dir_); }
};

TEST_F(Viewer, WritesANonBlackScreenshotInAnXWindow) {
    fs::create_directories(dir_);
    const fs::path shot = dir_ / "ab.png";
    ASSERT_EQ(runViewer("--split --particles 3000 --width 1000 --height 560 --quit-after 20 --screenshot " + shot.string()), 0);
    const auto img = render::readPng(shot);
    EXPECT_EQ(img.width, 1000);
    EXPECT_EQ(img.height, 560);
    size_t bright = 0, fire = 0;
    for (size_t i = 0; i < img.pixels.size(); i += 4) {
        const uint8_t r = img.pixels[i], g = img.pixels[i + 1], b = img.pixels[i + 2];
        bright += std::max({r, g, b}) > 40;
        fire += r > 150 && r > b + 60;  // flame colours, not the grey UI
    }
    const size_t n = img.pixels.size() / 4;
    EXPECT_GT(bright, n / 20) << "the screenshot is (nearly) black";
    EXPECT_GT(fire, n / 200) << "no fire in the screenshot";
}

TEST_F(Viewer, RefusesBadArgumentsWithExitCode2) {
    EXPECT_EQ(runViewer("--strategy nonsense --quit-after 1"), 2);
    EXPECT_EQ(runViewer("--particles 0 --quit-after 1"), 2);
}

}  // namespace
}  // namespace firelab::testing

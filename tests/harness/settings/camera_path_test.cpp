// The view as settings (harness::visitCameraSettings, render/camera.h) and camera path files
// (harness/settings/camera_path.h): the default is the old orbit bit for bit, a path passes through its keys
// smoothly, and every bad value or file is refused naming the flag, or the file, the line and the key.
#include <gtest/gtest.h>

#include <cmath>

#include <glm/geometric.hpp>
#include <glm/trigonometric.hpp>

#include "harness/settings/camera_path.h"
#include "harness/settings/experiment.h"
#include "render/camera.h"
#include "support/error_of.h"
#include "support/scratch_dir.h"

namespace firelab::testing {
namespace {

using harness::RunSettings;

bool sameMatrix(const glm::mat4& a, const glm::mat4& b) {
    for (int c = 0; c < 4; ++c)
        for (int r = 0; r < 4; ++r)
            if (a[c][r] != b[c][r]) return false;
    return true;
}

TEST(CameraSettings, TheDefaultIsTheOrbitEveryRunLookedFromBefore) {
    const harness::RunCamera view{RunSettings{}};
    for (const double t : {0.0, 1.5, 7.25, 39.9, 123.0}) {
        const render::Camera a = view.at(t, 1280, 720), b = render::orbitCamera(t, 1280, 720);
        EXPECT_TRUE(sameMatrix(a.viewProj, b.viewProj)) << "t = " << t;
        EXPECT_EQ(a.eye, b.eye);
    }
    // The orbit itself, as it was before the camera was a setting: 3.2 m from (0, 0.7, 0), 1.3 m high, from
    // 20 degrees, one turn in 40 s (a quarter turn at 10 s), a 45-degree field of view.
    const glm::vec3 at0 = view.at(0.0, 1280, 720).eye, at10 = view.at(10.0, 1280, 720).eye;
    EXPECT_NEAR(at0.x, 3.0070164f, 1e-5f);
    EXPECT_NEAR(at0.y, 1.3f, 1e-6f);
    EXPECT_NEAR(at0.z, 1.0944644f, 1e-5f);
    EXPECT_NEAR(at10.x, -1.0944644f, 1e-5f);
    EXPECT_NEAR(at10.z, 3.0070164f, 1e-5f);
    EXPECT_NEAR(view.at(0.0, 1280, 720).proj[1][1], 1.0f / std::tan(glm::radians(22.5f)), 1e-6f);
}

TEST(CameraSettings, EachIsASettingWithAColumnAndReadsBackAsWritten) {
    RunSettings s;
    const std::vector<std::pair<const char*, const char*>> given{
        {"camera", "fixed"},     {"camera-distance", "0.5"},   {"camera-height", "2"},
        {"camera-yaw", "-90"},   {"camera-target", "0,1,0.5"}, {"fov", "70"},
        {"orbit-period", "-12"}, {"camera-fade", "0.25,1.5"}};
    for (const auto& [name, value] : given) {
        harness::applySetting(s, name, value);
        EXPECT_EQ(harness::settingText(s, name), value) << name;
        EXPECT_TRUE(harness::hasAttrs(name, core::kColumn)) << name;
    }
    EXPECT_EQ(s.camera.mode, render::CameraMode::Fixed);
    EXPECT_EQ(s.camera.target, glm::vec3(0.0f, 1.0f, 0.5f));
    EXPECT_EQ(s.render.cameraFade, glm::vec2(0.25f, 1.5f));
    EXPECT_TRUE(harness::hasAttrs("camera-fade", core::kApproximation)) << "a reference resets it";
    // A fixed camera is the orbit's eye at time 0, at every time.
    const harness::RunCamera view(s);
    EXPECT_EQ(view.at(0.0, 64, 64).eye, view.at(30.0, 64, 64).eye);
    EXPECT_NEAR(glm::length(glm::vec2(view.at(0.0, 64, 64).eye.x, view.at(0.0, 64, 64).eye.z - 0.5f)), 0.5f, 1e-5f);
    // Distances are a sweep axis, one run each, keyed by the value.
    harness::Experiment e;
    e.override("camera-distance", "0.5,1,2,3.2,6,12,24");
    e.override("particles", "1000");
    const auto runs = harness::expand(e);
    ASSERT_EQ(runs.size(), 7u);
    EXPECT_EQ(runs.front().key, "camera-distance=0.5");
    EXPECT_FLOAT_EQ(runs.back().settings.camera.distance, 24.0f);
}

TEST(CameraSettings, BadValuesNameTheFlagTheValueAndWhatIsAllowed) {
    RunSettings s;
    const struct {
        const char *name, *value, *says;
    } cases[] = {
        {"camera-distance", "0", "(0, 10000]"},
        {"camera-distance", "-1", "(0, 10000]"},
        {"fov", "1", "(1, 170)"},
        {"fov", "170", "(1, 170)"},
        {"fov", "nan", "finite"},
        {"fov", "wide", "not a number"},
        {"camera", "dolly", "orbit, fixed, path"},
        {"camera-target", "0,1", "x,y,z"},
        {"camera-fade", "2,1", "must be below"},
        {"camera-fade", "1", "A,B"},
        {"camera-fade", "-1,2", "[0, 1000]"},
    };
    for (const auto& c : cases) {
        const Error e = errorOf([&] { harness::applySetting(s, c.name, c.value); });
        EXPECT_EQ(e.code(), c.name == std::string("camera") ? ErrorCode::UnknownName : ErrorCode::BadValue) << c.name;
        const std::string m = e.what();
        EXPECT_NE(m.find(std::string("--") + c.name), std::string::npos) << m;
        EXPECT_NE(m.find(c.says), std::string::npos) << m;
    }
    harness::applySetting(s, "camera-fade", "0,0");  // off
    EXPECT_FALSE(render::fadesNearCamera(s.render.cameraFade));
}

TEST(CameraFade, FallsFromOneAtFarToZeroAtNear) {
    const glm::vec2 fade{0.5f, 2.5f};
    EXPECT_EQ(render::cameraFadeAt(fade, 0.5f), 0.0f);
    EXPECT_EQ(render::cameraFadeAt(fade, 0.1f), 0.0f);
    EXPECT_FLOAT_EQ(render::cameraFadeAt(fade, 1.5f), 0.5f);
    EXPECT_EQ(render::cameraFadeAt(fade, 2.5f), 1.0f);
    EXPECT_EQ(render::cameraFadeAt(fade, 100.0f), 1.0f);
    EXPECT_EQ(render::cameraFadeAt({0.0f, 0.0f}, 0.0f), 1.0f) << "off";
}

TEST(CameraPathSpline, PassesThroughEveryKeyAndHoldsTheEnds) {
    const std::vector<render::CameraKey> keys{
        {0.0, {4, 1, 0}, {0, 0.7f, 0}, 45}, {1.0, {0, 1.5f, 4}, {0, 0.8f, 0}, 60}, {3.0, {-4, 1, 0}, {0, 0.7f, 0}, 30}};
    for (const auto& k : keys) {
        const render::CameraKey at = render::samplePath(keys, k.time);
        EXPECT_EQ(at.eye, k.eye);
        EXPECT_EQ(at.target, k.target);
        EXPECT_EQ(at.fovDeg, k.fovDeg);
    }
    EXPECT_EQ(render::samplePath(keys, -5.0).eye, keys.front().eye);
    EXPECT_EQ(render::samplePath(keys, 9.0).eye, keys.back().eye);
    EXPECT_EQ(render::samplePath(keys, 9.0).time, 9.0) << "an end key's view, at the time asked";
    // A spline that would overshoot the field of view's range stays inside it.
    const std::vector<render::CameraKey> wide{
        {0.0, {4, 1, 0}, {0, 0.7f, 0}, 30}, {1.0, {4, 1, 1}, {0, 0.7f, 0}, 165}, {10.0, {4, 1, 2}, {0, 0.7f, 0}, 165}};
    for (double t = 0.0; t <= 10.0; t += 0.05) EXPECT_LT(render::samplePath(wide, t).fovDeg, 170.0f) << t;
    // Smooth: no jump anywhere, and the velocity on either side of the middle key agrees.
    const double h = 1e-3;
    for (double t = 0.0; t < 3.0; t += 0.01)
        EXPECT_LT(glm::length(render::samplePath(keys, t + h).eye - render::samplePath(keys, t).eye), 0.05f) << t;
    const glm::vec3 before = (render::samplePath(keys, 1.0).eye - render::samplePath(keys, 1.0 - h).eye) / float(h);
    const glm::vec3 after = (render::samplePath(keys, 1.0 + h).eye - render::samplePath(keys, 1.0).eye) / float(h);
    EXPECT_LT(glm::length(after - before), 0.05f * glm::length(before));
}

class CameraPathFile : public ScratchDirTest {
protected:
    Error refused(const std::string& text) {
        const auto f = write("path.toml", text);
        return errorOf([&] { harness::loadCameraPath(f); });
    }
    static std::string key(double t, const char* eye = "[3, 1.3, 0]", const char* extra = "") {
        return "[[key]]\ntime = " + std::to_string(t) + "\neye = " + eye + "\ntarget = [0, 0.7, 0]\n" + extra + "\n";
    }
};

TEST_F(CameraPathFile, ReadsBackWhatTheViewerWrites) {
    const render::CameraKey a{0.5, {3.25f, 1.5f, -0.125f}, {0.0f, 0.75f, 0.0f}, 50.0f};
    const render::CameraKey b{2.0, {-1.0f, 2.0f, 3.0f}, {0.5f, 1.0f, 0.0f}, 30.0f};
    const auto keys =
        harness::loadCameraPath(write("p.toml", harness::cameraKeyToml(a) + "\n" + harness::cameraKeyToml(b)));
    ASSERT_EQ(keys.size(), 2u);
    EXPECT_EQ(keys[0].time, a.time);
    EXPECT_EQ(keys[0].eye, a.eye);
    EXPECT_EQ(keys[1].target, b.target);
    EXPECT_EQ(keys[1].fovDeg, b.fovDeg);
    EXPECT_EQ(harness::loadCameraPath(write("q.toml", key(0) + key(1)))[1].fovDeg, 45.0f) << "fov defaults to 45";
}

TEST_F(CameraPathFile, BadFilesNameTheFileTheLineAndTheKey) {
    const struct {
        const char* what;
        std::string text;
        std::vector<std::string> says;
    } cases[] = {
        {"one key", key(0), {"path.toml", "1 [[key]]", "at least 2"}},
        {"no key", "# nothing\n", {"path.toml", "0 [[key]]"}},
        {"times not increasing", key(1) + key(1), {"path.toml:7", "time", "must increase"}},
        {"times decreasing", key(0) + key(2) + key(1), {"path.toml:12", "time"}},
        {"a key that is not a table", "key = 5\n", {"path.toml:1", "key", "[[key]]"}},
        {"nan", key(0) + "[[key]]\ntime = nan\neye = [1, 1, 1]\ntarget = [0, 0, 0]\n", {"path.toml:7", "time", "nan"}},
        {"text for a number",
         key(0) + "[[key]]\ntime = \"soon\"\neye = [1, 1, 1]\ntarget = [0, 0, 0]\n",
         {"path.toml:7", "time", "expected a number", "soon"}},
        {"text in a point", key(0) + key(1, "[1, \"up\", 1]"), {"path.toml:8", "eye", "three finite numbers"}},
        {"a point of two", key(0) + key(1, "[1, 1]"), {"path.toml:8", "eye", "[x, y, z]"}},
        {"fov out of range", key(0) + key(1, "[3, 1.3, 0]", "fov = 175"), {"path.toml:10", "fov", "(1, 170)"}},
        {"missing target", key(0) + "[[key]]\ntime = 2\neye = [1, 1, 1]\n", {"path.toml:6", "target", "missing"}},
        {"unknown key",
         key(0) + key(1, "[3, 1.3, 0]", "zoom = 2"),
         {"path.toml:10", "zoom", "time, eye, target and fov"}},
        {"unknown table", "[camera]\nx = 1\n", {"path.toml:1", "camera", "[[key]]"}},
        {"eye on target", key(0) + key(1, "[0, 0.7, 0]"), {"path.toml:6", "same point"}},
        {"not TOML", "[[key]\ntime = 0\n", {"path.toml"}},
    };
    for (const auto& c : cases) {
        SCOPED_TRACE(c.what);
        const Error e = refused(c.text);
        EXPECT_TRUE(e.code() == ErrorCode::BadFile || e.code() == ErrorCode::BadValue);
        for (const auto& s : c.says) EXPECT_NE(std::string(e.what()).find(s), std::string::npos) << e.what();
    }
    EXPECT_EQ(errorOf([&] { harness::loadCameraPath(dir_ / "absent.toml"); }).code(), ErrorCode::MissingFile);
}

TEST_F(CameraPathFile, TheViewerSavesKeysInTheirPlaceByTime) {
    const auto f = dir_ / "saved.toml";
    auto save = [&](double t, float x) {
        writeFile(f, harness::cameraPathWith(f, {t, {x, 1.0f, 0.0f}, {0.0f, 0.7f, 0.0f}, 45.0f}));
    };
    save(2.0, 2.0f);
    save(1.0, 1.0f);  // saved after scrubbing back: goes first
    save(3.0, 3.0f);
    save(2.0, 2.5f);  // the same time again: replaces
    const auto keys = harness::loadCameraPath(f);
    ASSERT_EQ(keys.size(), 3u);
    EXPECT_EQ(keys[0].time, 1.0);
    EXPECT_EQ(keys[1].eye.x, 2.5f);
    EXPECT_EQ(keys[2].time, 3.0);
}

TEST_F(CameraPathFile, ARunThatFollowsAPathNeedsOneAndChecksItBeforeRunning) {
    harness::Experiment e;
    e.override("camera", "path");
    EXPECT_NE(std::string(errorOf([&] { harness::expand(e); }).what()).find("--camera-path"), std::string::npos);
    e.override("camera-path", write("bad.toml", key(0)).string());
    const std::string m = errorOf([&] { harness::expand(e); }).what();
    EXPECT_NE(m.find("bad.toml"), std::string::npos) << m;
    e.override("camera-path", write("good.toml", key(0) + key(2)).string());
    EXPECT_EQ(harness::expand(e).size(), 1u);
}

}  // namespace
}  // namespace firelab::testing

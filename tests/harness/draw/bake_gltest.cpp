// firelab bake: each atlas frame k is volume-reference's picture of the fire at the clip's time k / fps (drawn here
// on its own, with the bake's view), to within 8 bits; the motion atlas says the fire rises; the metadata says how
// to play it.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>

#include "harness/draw/bake.h"
#include "harness/draw/layer_rig.h"
#include "image/image.h"
#include "render/draw_pass.h"
#include "render/gl/frame_target.h"
#include "render/particles/particle_material.h"
#include "support/gl_fixture.h"
#include "support/scratch_dir.h"

namespace firelab::testing {
namespace {

constexpr double kMinPsnr = 40.0;  // dB over the light / light_scale, clipped to 1: 8 bits and two roundings

class Bake : public GlTest {};

// volume-reference's light of the run's fire at `steps` steps, drawn alone (no scene) with `camera`.
std::vector<glm::vec4> referenceLight(const harness::RunSettings& run, long steps, const render::Camera& camera,
                                      int side) {
    harness::RunSettings s = run;
    s.strategy = "volume-reference";
    s.width = s.height = side;
    harness::LayerRig rig(s, FIRELAB_SOURCE_DIR);
    for (long i = 0; i < steps; ++i) rig.step(s.dt);
    render::FrameTarget target(side, side, GL_RGBA16F);
    target.bind();
    glClearColor(0.0f, 0.0f, 0.0f, 0.0f);
    glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
    rig.upload(camera);
    for (render::RenderStrategy* r : rig.ordered(camera)) r->draw(render::DrawPass{camera});
    std::vector<glm::vec4> light(static_cast<size_t>(side * side));
    glGetTextureImage(target.colorTexture(), 0, GL_RGBA, GL_FLOAT, static_cast<GLsizei>(light.size() * 16),
                      light.data());
    return light;
}

TEST_F(Bake, AtlasFrameKIsTheReferenceAtTheClipsTimeKOverFps) {
    const auto dir = std::filesystem::temp_directory_path() / ("firelab_Bake_" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
    harness::BakeSettings s;
    s.run.params.particles = 3000;
    s.layout = {2, 3};
    s.cell = 48;
    s.fps = 20.0f;  // three steps of 1/60 s a frame
    s.start = 1.0f;
    s.loopFrames = 0;  // no crossfade: every frame is the fire at its own time
    s.out = dir / "fire.png";
    s.dataDir = FIRELAB_SOURCE_DIR;
    const harness::BakeResult r = harness::bake(s);
    ASSERT_EQ(r.times.size(), 6u);
    const image::Image atlas = image::readPng(s.out);
    ASSERT_EQ(atlas.width, 3 * 48);
    ASSERT_EQ(atlas.height, 2 * 48);
    const render::Camera camera = harness::bakeCamera(r.view, s.cell);
    for (int k = 0; k < 6; ++k) {
        SCOPED_TRACE(k);
        EXPECT_NEAR(r.times[static_cast<size_t>(k)], 1.0 + k / 20.0, 1e-4);
        const long steps = std::lround(r.times[static_cast<size_t>(k)] * 60.0);
        const auto light = referenceLight(s.run, steps, camera, s.cell);
        double squared = 0.0, peak = 0.0;
        for (int y = 0; y < s.cell; ++y)
            for (int x = 0; x < s.cell; ++x) {
                const glm::vec4& ref = light[static_cast<size_t>((s.cell - 1 - y) * s.cell + x)];  // GL rows: bottom up
                const glm::vec3 baked =
                    harness::decodedLight(atlas.at((k % 3) * s.cell + x, (k / 3) * s.cell + y), r.lightScale);
                for (int c = 0; c < 3; ++c) {
                    const double want = std::min(ref[c] / r.lightScale, 1.0f), got = baked[c] / r.lightScale;
                    squared += (want - got) * (want - got);
                    peak = std::max(peak, want);
                }
            }
        const double psnr = 10.0 * std::log10(1.0 / (squared / (3.0 * s.cell * s.cell)));
        std::printf("[ bake ] frame %d at t = %.3f s: PSNR %.1f dB against volume-reference (peak %.2f of the scale)\n",
                    k, r.times[static_cast<size_t>(k)], psnr, peak);
        EXPECT_GT(peak, 0.2) << "the frame holds no fire: the test cannot tell";
        EXPECT_GT(psnr, kMinPsnr);
    }
    // The flame rises: the motion atlas's v, where the first frame has light, is mostly up.
    const image::Image motion = image::readPng(render::motionAtlasPath(s.out));
    double up = 0.0, weight = 0.0;
    for (int y = 0; y < s.cell; ++y)
        for (int x = 0; x < s.cell; ++x) {
            const double a = atlas.at(x, y)[3] / 255.0;
            up += a * (motion.at(x, y)[1] - 128.0), weight += a;
        }
    EXPECT_GT(up / weight, 1.0) << "the motion atlas does not see the flame rise";
    const std::string meta = readFile(dir / "fire.toml");
    for (const char* key : {"layout = \"2x3\"", "cell = 48", "fps = 20", "light_scale = ", "size = ", "[fire]"})
        EXPECT_NE(meta.find(key), std::string::npos) << key;
    if (!HasFailure()) std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace firelab::testing

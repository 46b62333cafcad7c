// The heat-haze pass's cost against its screen coverage (--draw-as haze): the frame (the opaque scene, the haze
// layer's offsets, the refraction of the scene through them, at 1280x720) fenced with glFinish, for a haze layer of
// 40 particles whose size sets how much of the screen it covers, against the same frame without it (size 0).
// BM_HazeFrame/size_cm:<S>; counters: coverage (the fraction of the frame's pixels the haze moved: dark, flat
// ground shifted by a pixel does not change, so it is less than what the haze covers), haze_px (the haze's fragments:
// each particle's disk, pi/4 of its projected square, summed: what its shader runs on), haze_ms_extra (the frame's time
// less the frame without haze, alternated with it frame by frame).
#include <benchmark/benchmark.h>

#include <chrono>
#include <vector>

#include "bench_gl.h"
#include "render/frame/frame_pipeline.h"
#include "render/frame/layer_stack.h"
#include "render/frame/scene.h"

namespace firelab {
namespace {

using bench::glState;
using bench::kHeight;
using bench::kWidth;

render::LayerSetup hazeLayer(float size, float strength) {
    render::LayerSetup l{"haze", {}, {}, {}};
    sim::FireParams& p = l.params;
    p.center = {0.0f, 0.8f, 0.0f};
    p.extent = {0.3f, 0.0f, 0.3f};
    p.speedMean = p.speedVar = p.accelMean = p.accelVar = glm::vec3(0.0f);
    p.turbulence = 0.0f;
    p.sizeStart = p.sizeEnd = size, p.sizeVar = 0.0f;
    p.lifetimeMean = 100.0f, p.lifetimeVar = 0.0f;
    p.particles = 40, p.burst = 40;
    l.render.drawAs = render::DrawAs::Haze;
    l.render.hazeStrength = strength;
    return l;
}

struct HazeFrame {
    render::Scene scene{glState().dataDir};
    render::FramePipeline pipeline{glState().dataDir, render::RenderOptions{}, kWidth, kHeight};
    render::Camera camera = render::lookAtCamera({0.0f, 1.3f, 3.0f}, {0.0f, 0.6f, 0.0f}, 45.0f, kWidth, kHeight);
    std::unique_ptr<render::LayerStack> stack;

    explicit HazeFrame(float size, float strength) {
        if (size > 0.0f)
            stack = std::make_unique<render::LayerStack>(glState().dataDir, "billboards-instanced",
                                                         std::vector<render::LayerSetup>{hazeLayer(size, strength)},
                                                         1.0f / 60, 1);
        if (stack) stack->step(1.0f / 60), stack->upload(camera);
    }
    // One frame, fenced: seconds.
    double draw() {
        const auto t0 = std::chrono::steady_clock::now();
        std::vector<render::RenderStrategy*> layers;
        if (stack) layers = stack->ordered(camera);
        pipeline.draw(scene, layers, camera, glState().target);
        glFinish();
        return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    }
};

void hazeFrame(benchmark::State& state) {
    const float size = static_cast<float>(state.range(0)) / 100.0f;
    HazeFrame none(0.0f, 0.0f), haze(size, 0.015f);
    none.draw();
    const image::Image plain = glState().target.read();
    haze.draw();
    const image::Image hazy = glState().target.read();
    size_t moved = 0;
    for (size_t i = 0; i < plain.pixels.size(); i += 4)
        moved += std::equal(plain.pixels.begin() + i, plain.pixels.begin() + i + 3, hazy.pixels.begin() + i) ? 0 : 1;
    double withHaze = 0.0, without = 0.0;
    for (auto _ : state) {
        const double s = haze.draw();
        withHaze += s;
        without += none.draw();  // alternated frame by frame with the haze frame
        state.SetIterationTime(s);
    }
    const auto n = static_cast<double>(state.iterations());
    state.counters["coverage"] = static_cast<double>(moved) / static_cast<double>(kWidth * kHeight);
    state.counters["haze_ms_extra"] = 1e3 * (withHaze - without) / n;
    double fragments = 0.0;
    const sim::ParticlePool& q = haze.stack->fire(0).pool();
    const float pixels = render::pixelsPerUnit(haze.camera, static_cast<float>(kHeight));
    for (size_t i = 0; i < q.alive(); ++i) {
        const glm::vec3 p(q.px[i], q.py[i], q.pz[i]);
        const float side = size * pixels / glm::dot(haze.camera.forward, p - haze.camera.eye);
        fragments += 0.785398 * static_cast<double>(side * side);
    }
    state.counters["haze_px"] = fragments;
}

BENCHMARK(hazeFrame)
    ->Name("BM_HazeFrame")
    ->Arg(10)
    ->Arg(30)
    ->Arg(60)
    ->Arg(120)
    ->Arg(240)
    ->ArgName("size_cm")
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace firelab

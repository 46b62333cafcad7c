// Per strategy and particle count: the frame cost (the strategy's own per-frame CPU work, upload and
// draw, fenced with glFinish; the CPU simulation step is excluded) against its floor (the same draw
// calls and shaders on data already resident on the GPU). Registered at run time, one pair per strategy.
// BM_StrategyFrame/<strategy>/<N>, BM_StrategyFloor/<strategy>/<N>; manual time = wall clock around the fence.
//
// BM_FloorVsMinimal/<strategy>[/<options>]/<N>, per strategy that draws sprites: its floor against the
// floor of a minimal renderer (tests/bench/shaders/minimal_billboard.*: instanced view-plane quads, the
// colour per vertex, one texture fetch, additive) drawing the same particles with the same camera,
// texture, gradient and target, the two drawn alternately so the machine's load falls on both alike.
// Manual time is the strategy's; counters: vs_minimal (strategy ms / minimal ms, the figure that
// survives a noisy machine), minimal_ms, fragments_vs_minimal (fragments shaded, strategy / minimal:
// 1 when both draw the same fragments; the GPU-simulated strategies draw their own realisation of the
// model, which the minimal renderer reads from the CPU pool) and psnr_vs_minimal_db over the pixels
// either lights.
#include <benchmark/benchmark.h>
#include <epoxy/gl.h>

#include <chrono>
#include <cstdio>
#include <map>
#include <memory>

#include "bench_gl.h"
#include "harness/platform/data_dir.h"
#include "harness/quality/image_metrics.h"
#include "render/camera.h"
#include "render/gl/frame_target.h"
#include "render/gl/gl_context.h"
#include "render/particles/instance_stream.h"
#include "render/particles/particle_material.h"
#include "render/gl/shader.h"
#include "render/strategies/strategy.h"
#include "render/gl/texture.h"
#include "sim/fire_system.h"
#include "sim/gradient.h"

namespace {
using namespace firelab;
constexpr float kDt = 1.0f / 60.0f;
using bench::Gl;
using bench::glState;
using bench::kHeight;
using bench::kWidth;

// One prewarmed fire per count, shared by every strategy so each sees the same particles.
sim::FireSystem& fireFor(int n) {
    static std::map<int, std::unique_ptr<sim::FireSystem>> fires;
    auto& f = fires[n];
    if (!f) {
        sim::FireParams p;
        p.particles = static_cast<uint32_t>(n);
        f = std::make_unique<sim::FireSystem>(p, 2);
        f->prewarm(kDt);
    }
    return *f;
}

double fencedSeconds(const std::chrono::steady_clock::time_point& t0) {
    glFinish();
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

void run(benchmark::State& state, const std::string& name, bool floorOnly) {
    Gl& g = glState();
    const int n = static_cast<int>(state.range(0));
    sim::FireSystem& fire = fireFor(n);
    render::StrategyContext sc;
    sc.dataDir = g.dataDir;
    sc.params = fire.params();
    sc.dt = kDt;
    auto strategy = render::makeStrategy(name, sc);
    g.target.bind();
    glClearColor(0, 0, 0, 1);
    auto camera = render::orbitCamera(fire.time(), kWidth, kHeight);
    strategy->upload(fire, camera);  // the floor draws this resident data
    for (auto _ : state) {
        if (!floorOnly) fire.step(kDt);  // the simulation is not the strategy's cost
        camera = render::orbitCamera(fire.time(), kWidth, kHeight);
        const auto t0 = std::chrono::steady_clock::now();
        if (!floorOnly) strategy->upload(fire, camera);
        glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
        strategy->draw({camera});
        state.SetIterationTime(fencedSeconds(t0));
    }
    state.counters["particles"] = static_cast<double>(strategy->drawnCount());
    // The CPU pool's allocation per live particle (capacity, not just the 52-byte record).
    state.counters["pool_B_per_particle"] =
        static_cast<double>(fire.pool().bytes()) / static_cast<double>(fire.pool().alive());
    state.SetItemsProcessed(static_cast<int64_t>(state.iterations()) * n);
}

// The least a renderer does to draw the billboard strategies' default picture (additive view-plane
// sprites coloured over their life), from the same Instance records, texture (and filter) and gradient.
class MinimalBillboards {
public:
    MinimalBillboards(const std::filesystem::path& dataDir, const render::RenderOptions& options,
                      const sim::FireParams& params)
        : program_(FIRELAB_BENCH_SHADERS, {"minimal_billboard.vert", "minimal_billboard.frag"},
                   options.flipbook ? std::vector<std::string>{"FLIPBOOK"} : std::vector<std::string>{}),
          sprite_(gl::loadTexture(render::spritePath(dataDir, options))),
          gradient_(gl::makeGradientTexture(sim::gradientLut(params.gradient))) {
        for (GLuint a = 0; a < 2; ++a) {
            glEnableVertexArrayAttrib(vao_.id(), a);
            glVertexArrayAttribFormat(vao_.id(), a, 4, GL_FLOAT, GL_FALSE, a * 16);
            glVertexArrayAttribBinding(vao_.id(), a, 0);
        }
        glVertexArrayBindingDivisor(vao_.id(), 0, 1);
        render::setSpriteFilter(sprite_, options.filter);
        program_.set("uSprite", 0);
        program_.set("uGradient", 1);
    }

    void upload(const sim::FireSystem& fire, const render::Camera& camera) {
        stream_.upload(fire, camera, render::RenderOptions{});
    }

    // The strategies' state for additive light over the scene: depth test, no depth writes, ONE + ONE.
    void draw(const render::Camera& camera) const {
        glEnable(GL_DEPTH_TEST);
        glDepthFunc(GL_LESS);
        glDepthMask(GL_FALSE);
        glEnable(GL_BLEND);
        glBlendFunc(GL_ONE, GL_ONE);
        program_.use();
        program_.set("uViewProj", camera.viewProj);
        program_.set("uCamRight", camera.right);
        program_.set("uCamUp", camera.up);
        glBindTextureUnit(0, sprite_.texture.id());
        glBindTextureUnit(1, gradient_.id());
        glBindVertexArray(vao_.id());
        glVertexArrayVertexBuffer(vao_.id(), 0, stream_.buffer(), 0, sizeof(render::Instance));
        glDrawArraysInstanced(GL_TRIANGLE_STRIP, 0, 4, static_cast<GLsizei>(stream_.count()));
        glDisable(GL_BLEND);
        glDepthMask(GL_TRUE);
    }

private:
    gl::Program program_;
    gl::Texture2D sprite_;
    gl::Texture gradient_;
    gl::VertexArray vao_;
    render::InstanceStream stream_;
};

// Fragments that pass the depth test in `draw` (the target bound and cleared).
template <class Draw>
double fragmentsPassed(Draw&& draw) {
    gl::Query query(GL_SAMPLES_PASSED);
    glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
    glBeginQuery(GL_SAMPLES_PASSED, query.id());
    draw();
    glEndQuery(GL_SAMPLES_PASSED);
    GLuint64 n = 0;
    glGetQueryObjectui64v(query.id(), GL_QUERY_RESULT, &n);
    return static_cast<double>(n);
}

// PSNR over the pixels either picture lights (the background is black in both).
double psnrLit(const image::Image& a, const image::Image& b) {
    std::vector<bool> lit(a.pixels.size() / 4);
    for (size_t i = 0; i < lit.size(); ++i)
        for (size_t c = 0; c < 3; ++c) lit[i] = lit[i] || a.pixels[i * 4 + c] != 0 || b.pixels[i * 4 + c] != 0;
    return harness::psnr(a, b, lit);
}

void floorVsMinimal(benchmark::State& state, const std::string& name, const render::RenderOptions& options) {
    Gl& g = glState();
    const int n = static_cast<int>(state.range(0));
    sim::FireSystem& fire = fireFor(n);
    const render::StrategyContext sc{g.dataDir, options, fire.params(), kDt};
    auto strategy = render::makeStrategy(name, sc);
    MinimalBillboards minimal(g.dataDir, options, fire.params());
    g.target.bind();
    glClearColor(0, 0, 0, 1);
    const auto camera = render::orbitCamera(fire.time(), kWidth, kHeight);
    strategy->upload(fire, camera);
    minimal.upload(fire, camera);

    const double shaded = fragmentsPassed([&] { strategy->draw({camera, render::DrawMode::CountShaded}); });
    state.counters["fragments_vs_minimal"] = shaded / fragmentsPassed([&] { minimal.draw(camera); });
    glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
    strategy->draw({camera});
    const image::Image picture = g.target.read();
    glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
    minimal.draw(camera);
    state.counters["psnr_vs_minimal_db"] = psnrLit(picture, g.target.read());

    double strategySeconds = 0.0, minimalSeconds = 0.0;
    for (auto _ : state) {
        auto t0 = std::chrono::steady_clock::now();
        glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
        strategy->draw({camera});
        const double s = fencedSeconds(t0);
        t0 = std::chrono::steady_clock::now();
        glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
        minimal.draw(camera);
        minimalSeconds += fencedSeconds(t0);
        strategySeconds += s;
        state.SetIterationTime(s);
    }
    state.counters["minimal_ms"] = 1e3 * minimalSeconds / static_cast<double>(state.iterations());
    state.counters["vs_minimal"] = strategySeconds / minimalSeconds;
}

void registerAll() {
    for (const auto& info : render::strategies()) {
        const std::string name(info.name);
        for (bool floorOnly : {false, true}) {
            const std::string bm = std::string(floorOnly ? "BM_StrategyFloor/" : "BM_StrategyFrame/") + name;
            benchmark::RegisterBenchmark(bm.c_str(),
                                         [name, floorOnly](benchmark::State& s) { run(s, name, floorOnly); })
                ->Arg(1'000)
                ->Arg(10'000)
                ->Arg(100'000)
                ->ArgName("N")
                ->UseManualTime()
                ->Unit(benchmark::kMillisecond);
        }
    }
    render::RenderOptions flipbook, bilinear;
    flipbook.flipbook = render::kFlameAtlasLayout;
    bilinear.filter = render::Filter::Bilinear;
    const std::pair<std::string, render::RenderOptions> optionSets[] = {
        {"", {}}, {"/flipbook", flipbook}, {"/bilinear", bilinear}};
    for (const auto& info : render::strategies()) {
        if (info.primitive != render::Primitive::Sprites) continue;
        const std::string name(info.name);
        for (const auto& [suffix, options] : optionSets) {
            const std::string bm = "BM_FloorVsMinimal/" + name + suffix;
            benchmark::RegisterBenchmark(bm.c_str(),
                                         [name, o = options](benchmark::State& s) { floorVsMinimal(s, name, o); })
                ->Arg(1'000)
                ->Arg(10'000)
                ->ArgName("N")
                ->UseManualTime()
                ->Unit(benchmark::kMillisecond);
        }
    }
}
const bool registered = (registerAll(), true);

}  // namespace

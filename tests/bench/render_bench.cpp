// Per strategy and particle count: the frame cost (the strategy's own per-frame CPU work, upload and
// draw, fenced with glFinish; the CPU simulation step is excluded) against its floor (the same draw
// calls and shaders on data already resident on the GPU). Registered at run time, one pair per strategy.
// BM_StrategyFrame/<strategy>/<N>, BM_StrategyFloor/<strategy>/<N>; manual time = wall clock around the fence.
#include <benchmark/benchmark.h>
#include <epoxy/gl.h>

#include <chrono>
#include <cstdio>
#include <map>
#include <memory>

#include "harness/data_dir.h"
#include "render/camera.h"
#include "render/frame_target.h"
#include "render/gl_context.h"
#include "render/strategy.h"
#include "sim/fire_system.h"

namespace {
using namespace firelab;
constexpr float kDt = 1.0f / 60.0f;
constexpr int kWidth = 1280, kHeight = 720;

struct Gl {
    gl::Context context;
    render::FrameTarget target{kWidth, kHeight};
    std::filesystem::path dataDir = harness::findDataDir();
};
Gl& glState() {
    static Gl g;
    return g;
}

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

double fencedMs(const std::chrono::steady_clock::time_point& t0) {
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
        state.SetIterationTime(fencedMs(t0));
    }
    state.counters["particles"] = static_cast<double>(strategy->drawnCount());
    // The CPU pool's allocation per live particle (capacity, not just the 52-byte record).
    state.counters["pool_B_per_particle"] = static_cast<double>(fire.pool().bytes()) / static_cast<double>(fire.pool().alive());
    state.SetItemsProcessed(static_cast<int64_t>(state.iterations()) * n);
}

void registerAll() {
    for (const auto& info : render::strategies()) {
        const std::string name(info.name);
        for (bool floorOnly : {false, true}) {
            const std::string bm = std::string(floorOnly ? "BM_StrategyFloor/" : "BM_StrategyFrame/") + name;
            benchmark::RegisterBenchmark(bm.c_str(), [name, floorOnly](benchmark::State& s) { run(s, name, floorOnly); })
                ->Arg(1'000)->Arg(10'000)->Arg(100'000)->ArgName("N")
                ->UseManualTime()->Unit(benchmark::kMillisecond);
        }
    }
}
const bool registered = (registerAll(), true);

}  // namespace

// The grid fluid's cost (issue 34), on each device (fluid/gpu in compute shaders, fluid/ on the CPU):
//
// BM_FluidStep/<device>/<solver>/N: one 1/60 s step of N^3 cells over one 3.2 m cube (the cell 3.2/N m), from a
// stirred state (tests/support/stirred_fluid.h: the same field at every N, one sub-step), the solver held to 60
// iterations (tolerance 0) so that every size does the same work per cell. Manual time: the step's wall clock
// (each GPU pass ended by glFinish). Counters: each pass's ms (fluid::kPassNames, the pass timer), cells, MiB of
// the grid (the CPU's fields and scratch, or the GPU's buffers), ns_per_cell, the residual reached.
//
// BM_FluidProject/<device>/<solver>/iterations: the projection alone on 64^3 from the same stirred state each
// time, at 10 to 300 iterations: the solver's cost against the residual it reaches (residual: the divergence's
// rms after / before).
#include <benchmark/benchmark.h>

#include <chrono>
#include <memory>
#include <string>

#include "bench_gl.h"
#include "fluid/gpu/gpu_fluid.h"
#include "support/stirred_fluid.h"

namespace {
using namespace firelab;
constexpr float kStep = 1.0f / 60.0f;
constexpr float kCube = 3.2f;  // m

fluid::FluidParams cube(int n, fluid::Device device, fluid::Solver solver, int iterations) {
    fluid::FluidParams p;
    p.model = fluid::Model::Fluid;
    p.device = device;
    p.grid = glm::ivec3(n);
    p.cell = kCube / static_cast<float>(n);
    p.solver = solver;
    p.iterations = iterations;
    p.tolerance = 0.0f;
    return p;
}

std::unique_ptr<fluid::FluidSim> make(const fluid::FluidParams& p) {
    if (p.device == fluid::Device::Cpu) return std::make_unique<fluid::FluidSim>(p, sim::FireParams{});
    bench::Gl& g = bench::glState();
    g.context.makeCurrent();
    return std::make_unique<fluid::GpuFluid>(g.dataDir / "shaders", p, sim::FireParams{});
}

void push(fluid::FluidSim& f) {
    if (auto* gpu = dynamic_cast<fluid::GpuFluid*>(&f)) gpu->pushState();
}

double seconds(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

void fluidStep(benchmark::State& state, fluid::Device device, fluid::Solver solver) {
    const int n = static_cast<int>(state.range(0));
    const fluid::FluidParams p = cube(n, device, solver, 60);
    const auto f = make(p);
    testing::stir(*f, 1, 0.4f);
    push(*f);
    std::array<double, static_cast<size_t>(fluid::Pass::Count)> ms{};
    double residual = 0.0;
    for (auto _ : state) {
        const auto t0 = std::chrono::steady_clock::now();
        f->step(kStep);
        state.SetIterationTime(seconds(t0));
        const fluid::StepStats& st = f->lastStep();
        for (size_t q = 0; q < ms.size(); ++q) ms[q] += st.ms[q];
        residual += st.divergenceBefore > 0.0 ? st.divergenceAfter / st.divergenceBefore : 0.0;
    }
    const auto its = static_cast<double>(state.iterations());
    for (size_t q = 0; q < ms.size(); ++q) state.counters[std::string(fluid::kPassNames[q]) + "_ms"] = ms[q] / its;
    const double cells = static_cast<double>(n) * n * n;
    state.counters["cells"] = cells;
    state.counters["mib"] =
        (device == fluid::Device::Gpu ? fluid::GpuFluid::gpuBytesFor(p) : fluid::FluidSim::bytesFor(p)) / 1048576.0;
    state.counters["substeps"] = f->lastStep().substeps;
    state.counters["residual"] = residual / its;
    state.counters["ns_per_cell"] =
        benchmark::Counter(cells * its / 1e9, benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}

void fluidProject(benchmark::State& state, fluid::Device device, fluid::Solver solver) {
    const int iterations = static_cast<int>(state.range(0));
    const auto f = make(cube(64, device, solver, iterations));
    double residual = 0.0;
    for (auto _ : state) {
        testing::stir(*f, 2);
        f->state().pressure.v.assign(f->state().pressure.v.size(), 0.0f);  // no warm start: the same solve each time
        push(*f);
        const auto t0 = std::chrono::steady_clock::now();
        f->project(kStep);
        state.SetIterationTime(seconds(t0));
        const fluid::StepStats& st = f->lastStep();
        residual += st.divergenceAfter / st.divergenceBefore;
    }
    state.counters["residual"] = residual / static_cast<double>(state.iterations());
}

void registerAll() {
    for (const fluid::Device device : {fluid::Device::Cpu, fluid::Device::Gpu})
        for (const fluid::Solver solver : {fluid::Solver::Jacobi, fluid::Solver::Pcg}) {
            const std::string name = std::string(fluid::kDeviceNames[static_cast<size_t>(device)]) + "/" +
                                     std::string(fluid::kSolverNames[static_cast<size_t>(solver)]);
            benchmark::RegisterBenchmark(("BM_FluidStep/" + name).c_str(),
                                         [=](benchmark::State& s) { fluidStep(s, device, solver); })
                ->Arg(32)
                ->Arg(64)
                ->Arg(128)
                ->ArgName("N")
                ->UseManualTime()
                ->Unit(benchmark::kMillisecond);
            benchmark::RegisterBenchmark(("BM_FluidProject/" + name).c_str(),
                                         [=](benchmark::State& s) { fluidProject(s, device, solver); })
                ->Arg(10)
                ->Arg(30)
                ->Arg(100)
                ->Arg(300)
                ->ArgName("iterations")
                ->UseManualTime()
                ->Unit(benchmark::kMillisecond);
        }
}
const bool registered = (registerAll(), true);

}  // namespace

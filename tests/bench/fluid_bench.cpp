// The grid fluid's cost, on each device (fluid/gpu in compute shaders, fluid/ on the CPU):
//
// BM_FluidStep/<device>/<solver>/N/threads: one 1/60 s step of N^3 cells over one 3.2 m cube (the cell 3.2/N m), each
// iteration from the same state: a stirred one (tests/support/stirred_fluid.h: the same field at every N) stepped
// once; .../grid:64x128x64/threads the same cells over a domain twice as tall. Jacobi and PCG, the baselines, are
// held to 60 iterations (tolerance 0) so that every size does the same work per cell; multigrid and mgpcg stop at
// the default tolerance. Manual time: the step's wall clock (each GPU pass ended by glFinish). Counters: each pass's
// ms (fluid::kPassNames, the pass timer), cells, MiB of the grid (the CPU's fields and scratch, or the GPU's
// buffers), ns_per_cell, the iterations and the residual reached; on the CPU the memory floor: each pass's bytes
// (fluid::passBytesPerCell) over this machine's streaming bandwidth on the same threads (triad_gb_s, measured in
// the same process), floor_ms, and step_over_floor.
//
// BM_FluidProject/<device>/<solver>/iterations: the projection alone on 64^3 from the same stirred state each
// time, at 10 to 300 iterations: the solver's cost against the residual it reaches (residual: the divergence's
// rms after / before).
#include <benchmark/benchmark.h>

#include <chrono>
#include <cmath>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "bench_gl.h"
#include "fluid/gpu/gpu_fluid.h"
#include "sim/worker_pool.h"
#include "support/stirred_fluid.h"

namespace {
using namespace firelab;
constexpr float kStep = 1.0f / 60.0f;
constexpr float kCube = 3.2f;  // m

// The multigrid solvers stop at the default tolerance (iterations bounded as by default); Jacobi and PCG, the
// baselines, do `iterations` whatever the residual.
fluid::FluidParams cube(glm::ivec3 grid, fluid::Device device, fluid::Solver solver, int iterations) {
    fluid::FluidParams p;
    p.model = fluid::Model::Fluid;
    p.device = device;
    p.grid = grid;
    p.cell = kCube / static_cast<float>(grid.x);
    p.solver = solver;
    if (solver == fluid::Solver::Jacobi || solver == fluid::Solver::Pcg) p.iterations = iterations, p.tolerance = 0.0f;
    return p;
}

std::unique_ptr<fluid::FluidSim> make(const fluid::FluidParams& p, unsigned threads = 1) {
    if (p.device == fluid::Device::Cpu) return std::make_unique<fluid::FluidSim>(p, sim::FireParams{}, threads);
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

// This machine's streaming bandwidth on `threads` threads, bytes/s: STREAM's triad a = b + s c over three arrays of
// 64 MiB (far beyond the caches), 12 bytes an element, the best of five passes; measured once a process.
double triadBandwidth(unsigned threads) {
    static std::map<unsigned, double> measured;
    if (auto it = measured.find(threads); it != measured.end()) return it->second;
    const size_t n = (64u << 20) / sizeof(float);
    std::vector<float> a(n, 0.0f), b(n, 1.0f), c(n, 2.0f);
    firelab::sim::WorkerPool pool(threads);
    double best = 0.0;
    for (int pass = 0; pass < 5; ++pass) {
        const auto t0 = std::chrono::steady_clock::now();
        pool.parallelFor(n, [&](unsigned, size_t begin, size_t end) {
            for (size_t i = begin; i < end; ++i) a[i] = b[i] + 0.5f * c[i];
        });
        best = std::max(best, 12.0 * static_cast<double>(n) / seconds(t0));
    }
    benchmark::DoNotOptimize(a.data());
    return measured[threads] = best;
}

void fluidStep(benchmark::State& state, fluid::Device device, fluid::Solver solver, glm::ivec3 grid) {
    // A cube's arguments are N and the threads; a named grid's the threads alone.
    const bool isCube = grid == glm::ivec3(0);
    const unsigned threads = static_cast<unsigned>(state.range(isCube ? 1 : 0));
    if (isCube) grid = glm::ivec3(static_cast<int>(state.range(0)));
    const fluid::FluidParams p = cube(grid, device, solver, 60);
    const auto f = make(p, threads);
    testing::stir(*f, 1, 0.4f);
    push(*f);
    f->step(kStep);  // the solver's warm start and the sub-step count of a running fluid
    const fluid::FluidState start = f->state();
    std::array<double, static_cast<size_t>(fluid::Pass::Count)> ms{};
    double residual = 0.0, iterations = 0.0;
    for (auto _ : state) {
        f->state() = start;  // every iteration steps the same state
        push(*f);
        const auto t0 = std::chrono::steady_clock::now();
        f->step(kStep);
        state.SetIterationTime(seconds(t0));
        const fluid::StepStats& st = f->lastStep();
        for (size_t q = 0; q < ms.size(); ++q) ms[q] += st.ms[q];
        residual += st.divergenceBefore > 0.0 ? st.divergenceAfter / st.divergenceBefore : 0.0;
        iterations += st.iterations;
    }
    const auto its = static_cast<double>(state.iterations());
    for (size_t q = 0; q < ms.size(); ++q) state.counters[std::string(fluid::kPassNames[q]) + "_ms"] = ms[q] / its;
    const double cells = static_cast<double>(grid.x) * grid.y * grid.z;
    state.counters["cells"] = cells;
    if (device == fluid::Device::Cpu) {  // the memory floor: each pass's bytes over the streaming bandwidth
        const double bandwidth = triadBandwidth(threads);
        double floorMs = 0.0, stepMs = 0.0;
        for (size_t q = 0; q < ms.size(); ++q) {
            const auto pass = static_cast<fluid::Pass>(q);
            const double bytes = fluid::passBytesPerCell(pass, p, static_cast<int>(std::lround(iterations / its)));
            const double passFloor = 1e3 * bytes * cells / bandwidth;
            floorMs += passFloor, stepMs += ms[q] / its;
            if (passFloor > 0.0) state.counters[std::string(fluid::kPassNames[q]) + "_floor_ms"] = passFloor;
        }
        state.counters["triad_gb_s"] = bandwidth / 1e9;
        state.counters["floor_ms"] = floorMs;
        state.counters["step_over_floor"] = stepMs / floorMs;
    }
    state.counters["mib"] =
        (device == fluid::Device::Gpu ? fluid::GpuFluid::gpuBytesFor(p) : fluid::FluidSim::bytesFor(p)) / 1048576.0;
    state.counters["substeps"] = f->lastStep().substeps;
    state.counters["residual"] = residual / its;
    state.counters["iterations"] = iterations / its;
    state.counters["ns_per_cell"] =
        benchmark::Counter(cells * its / 1e9, benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}

void fluidProject(benchmark::State& state, fluid::Device device, fluid::Solver solver) {
    const int iterations = static_cast<int>(state.range(0));
    fluid::FluidParams p = cube(glm::ivec3(64), device, solver, iterations);
    p.iterations = iterations, p.tolerance = 0.0f;  // every solver to the iterations asked
    const auto f = make(p);
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
        for (size_t q = 0; q < fluid::kSolverNames.size(); ++q) {
            const auto solver = static_cast<fluid::Solver>(q);
            const bool multigrid = solver == fluid::Solver::Multigrid || solver == fluid::Solver::Mgpcg;
            if (device == fluid::Device::Gpu && multigrid) continue;  // the compute shaders solve with jacobi or pcg
            const std::string name = std::string(fluid::kDeviceNames[static_cast<size_t>(device)]) + "/" +
                                     std::string(fluid::kSolverNames[static_cast<size_t>(solver)]);
            const std::vector<int64_t> threads =
                device == fluid::Device::Cpu ? std::vector<int64_t>{1, 2} : std::vector<int64_t>{1};
            benchmark::RegisterBenchmark(("BM_FluidStep/" + name).c_str(),
                                         [=](benchmark::State& s) { fluidStep(s, device, solver, glm::ivec3(0)); })
                ->ArgsProduct({{32, 64, 96, 128}, threads})
                ->ArgNames({"N", "threads"})
                ->UseManualTime()
                ->Unit(benchmark::kMillisecond);
            if (device == fluid::Device::Cpu)  // the GPU's tall grid takes seconds a step on llvmpipe
                benchmark::RegisterBenchmark(("BM_FluidStep/" + name + "/grid:64x128x64").c_str(),
                                             [=](benchmark::State& s) {
                                                 fluidStep(s, device, solver, {64, 128, 64});
                                             })
                    ->ArgsProduct({threads})
                    ->ArgNames({"threads"})
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

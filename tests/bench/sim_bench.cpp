// The fire model's update against memcpy of the same bytes: the ratio survives a noisy machine.
// BM_FireUpdate/<N>/<threads>: one fixed step (update, kill, emit) of a steady-state fire of N particles.
// BM_FireBirths/<N>/<threads>: the same, but every particle lives one step: N births per step, so the
// figure is dominated by emission (the random draws of a birth) rather than the update.
// BM_Memcpy/<N>: memcpy moving the bytes that step reads plus writes.
#include <benchmark/benchmark.h>

#include <cstring>
#include <vector>

#include "sim/fire_system.h"

namespace {
using firelab::sim::FireParams;
using firelab::sim::FireSystem;

constexpr float kDt = 1.0f / 60.0f;
// Per live particle and step: the update reads position, velocity, acceleration and age (10 floats)
// and writes position, velocity and age (7); the kill pass reads age and lifetime (2).
constexpr size_t kBytesPerParticle = (10 + 7 + 2) * sizeof(float);

void BM_FireUpdate(benchmark::State& state) {
    FireParams p;
    p.particles = static_cast<uint32_t>(state.range(0));
    FireSystem fire(p, static_cast<unsigned>(state.range(1)));
    fire.prewarm(kDt);
    size_t particles = 0;
    for (auto _ : state) {
        fire.step(kDt);
        particles += fire.pool().alive();
    }
    state.SetItemsProcessed(static_cast<int64_t>(particles));
    state.SetBytesProcessed(static_cast<int64_t>(particles * kBytesPerParticle));
    state.counters["alive"] = static_cast<double>(fire.pool().alive());
    state.counters["pool_B_per_particle"] =
        static_cast<double>(fire.pool().bytes()) / static_cast<double>(fire.pool().alive());
}
BENCHMARK(BM_FireUpdate)
    ->ArgsProduct({{1'000, 10'000, 100'000, 1'000'000}, {1, 2}})
    ->ArgNames({"N", "threads"})
    ->Unit(benchmark::kMicrosecond)
    ->UseRealTime();

void BM_FireBirths(benchmark::State& state) {
    FireParams p;
    p.particles = static_cast<uint32_t>(state.range(0));
    p.lifetimeMean = kDt, p.lifetimeVar = 0.0f;  // born, one update, dead: N births per step
    FireSystem fire(p, static_cast<unsigned>(state.range(1)));
    fire.prewarm(kDt);
    for (auto _ : state) fire.step(kDt);
    state.counters["births/s"] =
        benchmark::Counter(static_cast<double>(state.range(0)), benchmark::Counter::kIsIterationInvariantRate);
}
BENCHMARK(BM_FireBirths)
    ->ArgsProduct({{1'000, 100'000, 1'000'000}, {1, 2}})
    ->ArgNames({"N", "threads"})
    ->Unit(benchmark::kMicrosecond)
    ->UseRealTime();

void BM_Memcpy(benchmark::State& state) {
    const size_t half = static_cast<size_t>(state.range(0)) * kBytesPerParticle / 2;  // read half, write half
    std::vector<char> src(half, 1), dst(half, 0);
    for (auto _ : state) {
        std::memcpy(dst.data(), src.data(), half);
        benchmark::DoNotOptimize(dst.data());
        benchmark::ClobberMemory();
    }
    state.SetItemsProcessed(static_cast<int64_t>(state.iterations()) * state.range(0));
    state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * half * 2));
}
BENCHMARK(BM_Memcpy)->Arg(1'000)->Arg(10'000)->Arg(100'000)->Arg(1'000'000)->ArgName("N")->Unit(
    benchmark::kMicrosecond);

}  // namespace

BENCHMARK_MAIN();

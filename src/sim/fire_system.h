// The paper's fire model: emission, motion under acceleration, drag and turbulence, ageing and death,
// over a SoA pool. A fixed time step and a seed give bit-identical state for any thread count:
// the per-particle update is independent per particle and runs in parallel over ranges; emission and
// kill-by-swap run in a fixed order, and every particle draws its birth state from its own random
// stream, keyed by the seed and its birth number (sim::Rng), so emission too can run in parallel and
// the GPU-simulated strategies draw the same births.
//
//   sim::FireSystem fire(params, threads);
//   fire.prewarm(1.0f / 60);                 // to steady state
//   for (...) fire.step(1.0f / 60);          // then read fire.pool()
#pragma once
#include <memory>
#include <vector>

#include <glm/vec3.hpp>

#include "sim/emission.h"
#include "sim/flow.h"
#include "sim/ground.h"
#include "sim/params.h"
#include "sim/particle_pool.h"
#include "sim/random.h"
#include "sim/turbulence.h"
#include "sim/worker_pool.h"

namespace firelab::sim {

// An axis-aligned box: lo > hi on some axis when it holds nothing.
struct Bounds {
    glm::vec3 lo{1.0f}, hi{-1.0f};
    bool empty() const { return lo.x > hi.x; }
};

class FireSystem {
public:
    // Validates params (throws firelab::Error) and allocates the pool for them.
    explicit FireSystem(const FireParams& params, unsigned threads = 1);

    const FireParams& params() const { return params_; }
    const ParticlePool& pool() const { return pool_; }
    double time() const { return time_; }
    unsigned threads() const { return workers_->threads(); }
    float emissionRate() const { return EmissionCounter::rate(params_); }
    uint64_t emitted() const { return emitted_; }  // particles emitted so far (the dropped not counted)
    // The box of the live particles' centres (the D3D9 system's AABB); empty when none lives. A pass
    // over the pool: for culling or framing, once a frame.
    Bounds bounds() const;

    // Advances one fixed step: update and age every particle, emit rate*dt new ones (the fractional
    // part is carried to the next step) into the slots of those that died, kill the rest of the dead.
    // The first step also emits the burst. With params().rate, births beyond params().particles alive
    // are dropped.
    void step(float dt);
    // Emits n particles now at their initial state (the pool grows if it must).
    void emit(size_t n);
    // Steps until the oldest possible particle has lived a full life (prewarmSeconds()): the count is
    // then steady.
    void prewarm(float dt);
    double prewarmSeconds() const { return prewarmSecondsFor(params_); }
    static double prewarmSecondsFor(const FireParams& p) { return static_cast<double>(p.lifetimeMean + p.lifetimeVar); }
    // Moves the clock by dt without simulating: for front ends whose particles are simulated elsewhere
    // (the GPU-simulated strategies read only the time).
    void advanceClock(float dt) { time_ += dt; }
    // Only the update of live particles, without emission or kills (the benchmark's subject).
    void integrate(float dt);
    // With a flow (--motion fluid), the particles are carried by its velocity (the midpoint rule: the flow at the
    // position half a step along the flow's velocity), their velocity the flow's, and drawn accelerations, drag and
    // turbulence play no part; the ground still bounces them. The flow must outlive the system; null: the paper's motion.
    void setFlow(const Flow* flow) { flow_ = flow; }
    const Flow* flow() const { return flow_; }

    // An upper bound of the live count: every particle living its longest life, plus a step's births
    // and the burst, at most the cap a rate sets (what a GPU pool that cannot grow allocates).
    static size_t capacityFor(const FireParams& p, float dt = 1.0f / 30.0f);
    // The CPU pool's first size: the steady state, four standard deviations of its fluctuation, a
    // step's births and the burst. It grows (rarely) if that is not enough.
    static size_t initialCapacity(const FireParams& p);
    // The bytes the pool of `p` takes as it starts, and what every pool of a process may take together: three
    // quarters of the machine's memory (0 where it cannot be read). Pools beyond it are refused (TooLarge).
    static double poolBytes(const FireParams& p);
    static double memoryBudgetBytes();

private:
    void findDead();                  // fills dead_, ascending
    void killRemaining(size_t from);  // kill-by-swap of dead_[from..]
    void emitInto(const uint32_t* slots, size_t reuse, size_t n);
    void followFlow(float dt);  // integrate() with a flow

    FireParams params_;
    ParticlePool pool_;
    std::vector<std::vector<uint32_t>> deadLists_;  // per worker part, reused across steps
    std::vector<uint32_t> dead_;                    // this step's dead, ascending
    uint64_t births_ = 0;                           // births due so far: the key of the next one's random stream
    uint64_t emitted_ = 0;                          // births emitted so far (the dropped ones not)
    std::unique_ptr<WorkerPool> workers_;
    double time_ = 0.0;
    EmissionCounter emission_;
    const Flow* flow_ = nullptr;
    std::vector<StageCollider> stage_;  // Ground::Stage: the boxes particles bounce on (sim/ground.h)
};

}  // namespace firelab::sim

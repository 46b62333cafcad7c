#include "sim/fire_system.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

#include <sys/resource.h>
#include <unistd.h>

#include <glm/geometric.hpp>

#include "sim/emitter.h"
#include "sim/ground.h"
#include "core/error.h"

namespace firelab::sim {

namespace {
// Births per second and the steady-state count they lead to (capped by EmissionCounter::limit).
double birthRate(const FireParams& p) {
    return p.rate > 0.0f ? static_cast<double>(p.rate) : static_cast<double>(p.particles) / p.lifetimeMean;
}
double steadyCount(const FireParams& p) {
    const double n = static_cast<double>(p.particles);
    return p.rate > 0.0f ? std::min(n, birthRate(p) * static_cast<double>(p.lifetimeMean)) : n;
}
}  // namespace

size_t FireSystem::capacityFor(const FireParams& p, float dt) {
    const double maxLife = static_cast<double>(p.lifetimeMean + p.lifetimeVar);
    const size_t bound =
        static_cast<size_t>(std::ceil(birthRate(p) * (maxLife + dt))) + p.burst * EmissionCounter::burstsAlive(p) + 64;
    return std::min(bound, EmissionCounter::limit(p));
}

size_t FireSystem::initialCapacity(const FireParams& p) {
    const double n = steadyCount(p);
    const double stepBirths = birthRate(p) / 30.0;
    const size_t capacity = static_cast<size_t>(std::ceil(n + 4.0 * std::sqrt(n) + stepBirths)) +
                            p.burst * EmissionCounter::burstsAlive(p) + 16;
    return std::min(capacity, EmissionCounter::limit(p));
}

double FireSystem::poolBytes(const FireParams& p) {
    return static_cast<double>(initialCapacity(p)) * ParticlePool::kBytesPerParticle;
}

double FireSystem::memoryBudgetBytes() {
    double limit = static_cast<double>(::sysconf(_SC_PHYS_PAGES)) * static_cast<double>(::sysconf(_SC_PAGE_SIZE));
    // A process limited below the machine's memory (ulimit -v) is limited by that: its address space also
    // holds the program, the GL driver and the frame's buffers.
    rlimit as{};
    if (::getrlimit(RLIMIT_AS, &as) == 0 && as.rlim_cur != RLIM_INFINITY &&
        (limit <= 0 || static_cast<double>(as.rlim_cur) < limit))
        limit = static_cast<double>(as.rlim_cur);
    return limit > 0 ? 0.75 * limit : 0.0;
}

namespace {
// Refuses, before allocating, a pool that would not fit in three quarters of the machine's memory.
size_t checkedCapacity(const FireParams& p) {
    const double bytes = FireSystem::poolBytes(p), budget = FireSystem::memoryBudgetBytes();
    if (budget > 0 && bytes > budget) {
        char msg[200];
        std::snprintf(
            msg, sizeof msg,
            "--particles %u (burst %u): the pool would need %.1f GiB, more than the %.1f GiB this process may use (the machine's memory, or ulimit -v) allows",
            p.particles, p.burst, bytes / 1073741824.0, budget / 0.75 / 1073741824.0);
        throw Error(ErrorCode::TooLarge, msg);
    }
    return FireSystem::initialCapacity(p);
}
}  // namespace

FireSystem::FireSystem(const FireParams& params, unsigned threads)
    : params_((validate(params), params)),
      pool_(checkedCapacity(params)),
      workers_(std::make_unique<WorkerPool>(threads)) {
    if (params_.ground == Ground::Stage) stage_ = stageColliders();
}

void FireSystem::emit(size_t n) { emitInto(nullptr, 0, n); }

void FireSystem::emitInto(const uint32_t* slots, size_t reuse, size_t n) {
    // Births 0..reuse-1 fill the given slots (particles that just died), the rest are appended.
    reuse = std::min(reuse, n);
    const size_t appended = n - reuse;
    if (pool_.alive() + appended > pool_.capacity())  // grow by an eighth at least: rare, and amortised
        pool_.reserve(std::max(pool_.alive() + appended, pool_.capacity() + pool_.capacity() / 8));
    const FireParams& p = params_;
    ParticlePool& q = pool_;
    const size_t first = q.add(appended);
    const uint64_t firstBirth = births_;
    const EmitterTransform transform = emitterTransform(p, time_);
    constexpr size_t kBirthGrain = 1024;  // a birth costs ~30x an update: split finer
    workers_->parallelFor(
        n,
        [&](unsigned, size_t begin, size_t end) {
            for (size_t k = begin; k < end; ++k) {
                Rng rng(p.seed, firstBirth + k);
                const Birth b = sampleBirth(p, transform, rng);
                const size_t i = k < reuse ? slots[k] : first + (k - reuse);
                q.px[i] = b.position.x, q.py[i] = b.position.y, q.pz[i] = b.position.z;
                q.vx[i] = b.velocity.x, q.vy[i] = b.velocity.y, q.vz[i] = b.velocity.z;
                q.ax[i] = b.acceleration.x, q.ay[i] = b.acceleration.y, q.az[i] = b.acceleration.z;
                q.age[i] = 0.0f;
                q.life[i] = b.life;
                q.scale[i] = b.scale;
                q.rnd[i] = b.rnd;
                q.id[i] = static_cast<uint32_t>(firstBirth + k);
                q.bounces[i] = 0;
            }
        },
        kBirthGrain);
    births_ += n;
    emitted_ += n;
}

namespace {
// The per-particle update over [begin, end): a free function with __restrict arrays and every constant
// passed by value, so the compiler sees no aliasing and vectorises the loop (fastCos is branch-free).
struct WaveConstants {
    float kx[kTurbulenceWaves], ky[kTurbulenceWaves], kz[kTurbulenceWaves], ph[kTurbulenceWaves];
    float mx[kTurbulenceWaves], my[kTurbulenceWaves], mz[kTurbulenceWaves];
};

void integrateRange(float* __restrict px, float* __restrict py, float* __restrict pz, float* __restrict vx,
                    float* __restrict vy, float* __restrict vz, const float* __restrict ax, const float* __restrict ay,
                    const float* __restrict az, float* __restrict age, size_t begin, size_t end, const WaveConstants wc,
                    const float dt, const float damp, const float undamp) {
    static_assert(kTurbulenceWaves == 4);
    for (size_t i = begin; i < end; ++i) {
        const float x = px[i], y = py[i], z = pz[i];
        float tx = 0.0f, ty = 0.0f, tz = 0.0f;
        const auto wave = [&](int w) {  // called with constants below: fully unrolled
            const float c = fastCos(wc.kx[w] * x + wc.ky[w] * y + wc.kz[w] * z + wc.ph[w]);
            tx += wc.mx[w] * c;
            ty += wc.my[w] * c;
            tz += wc.mz[w] * c;
        };
        wave(0), wave(1), wave(2), wave(3);
        // --drag-on launch: the damped part is v - a age, so a (age + dt) (1 - damp) is given back (undamp 0 else).
        const float a1 = age[i] + dt, back = a1 * undamp;
        const float nvx = (vx[i] + (ax[i] + tx) * dt) * damp + ax[i] * back;
        const float nvy = (vy[i] + (ay[i] + ty) * dt) * damp + ay[i] * back;
        const float nvz = (vz[i] + (az[i] + tz) * dt) * damp + az[i] * back;
        vx[i] = nvx, vy[i] = nvy, vz[i] = nvz;
        px[i] = x + nvx * dt, py[i] = y + nvy * dt, pz[i] = z + nvz * dt;
        age[i] = a1;
    }
}
// What a step of particle i's acceleration gives its speed (sim::contactOf), |a| dt; a particle the flow carries
// (--motion fluid) is put back on a surface it is pushed into, never bounced: none of its contacts counts.
float stepSpeed(const ParticlePool& q, size_t i, float dt, bool stepped) {
    return stepped ? glm::length(glm::vec3(q.ax[i], q.ay[i], q.az[i])) * dt : std::numeric_limits<float>::infinity();
}
void bounceRange(ParticlePool& q, size_t begin, size_t end, const GroundPlane g, const float dt, bool stepped) {
    for (size_t i = begin; i < end; ++i) {
        if (!(q.py[i] < g.height)) continue;  // no contact: no step speed to weigh (a square root a particle)
        countBounce(q.bounces[i], bounceOnGround(q.py[i], q.vx[i], q.vy[i], q.vz[i], g, stepSpeed(q, i, dt, stepped)));
    }
}
// Ground::Stage: the plane, the stage's boxes, and the plane again if a box moved the particle (the logs' inner ends
// dip below the ground: not out through it); one bounce a step counted at most, as compute's.
void collideRange(ParticlePool& q, size_t begin, size_t end, const GroundPlane g,
                  const std::vector<StageCollider>& boxes, const float dt, bool stepped) {
    for (size_t i = begin; i < end; ++i) {
        const float step = stepSpeed(q, i, dt, stepped);
        glm::vec3 p(q.px[i], q.py[i], q.pz[i]), v(q.vx[i], q.vy[i], q.vz[i]);
        Contact c = bounceOnGround(p.y, v.x, v.y, v.z, g, step), onBox = Contact::None;
        for (const StageCollider& b : boxes) onBox = std::max(onBox, bounceOnBox(p, v, b, g, dt, step));
        if (onBox != Contact::None) c = std::max({c, onBox, bounceOnGround(p.y, v.x, v.y, v.z, g, step)});
        countBounce(q.bounces[i], c);
        q.px[i] = p.x, q.py[i] = p.y, q.pz[i] = p.z;
        q.vx[i] = v.x, q.vy[i] = v.y, q.vz[i] = v.z;
    }
}
}  // namespace

void FireSystem::integrate(float dt) {
    if (flow_ != nullptr) return followFlow(dt);
    const TurbulenceField field =
        turbulenceAt(time_, params_.turbulence, params_.turbulenceFrequency, params_.turbulenceSpeed);
    WaveConstants wc{};
    for (int w = 0; w < kTurbulenceWaves; ++w) {
        const auto& wave = field[static_cast<size_t>(w)];
        wc.kx[w] = wave.k.x, wc.ky[w] = wave.k.y, wc.kz[w] = wave.k.z, wc.ph[w] = wave.phase;
        wc.mx[w] = wave.amp.x, wc.my[w] = wave.amp.y, wc.mz[w] = wave.amp.z;
    }
    const float damp = std::exp(-params_.drag * dt);
    const float undamp = params_.dragOn == DragOn::Launch ? 1.0f - damp : 0.0f;
    ParticlePool& q = pool_;
    const bool bounce = params_.ground != Ground::Off;
    const GroundPlane ground = groundPlane(params_);
    workers_->parallelFor(q.alive(), [&](unsigned, size_t begin, size_t end) {
        integrateRange(q.px, q.py, q.pz, q.vx, q.vy, q.vz, q.ax, q.ay, q.az, q.age, begin, end, wc, dt, damp, undamp);
        if (!stage_.empty()) {
            collideRange(q, begin, end, ground, stage_, dt, true);
        } else if (bounce) {
            bounceRange(q, begin, end, ground, dt, true);
        }
    });
}

void FireSystem::followFlow(float dt) {
    ParticlePool& q = pool_;
    const bool bounce = params_.ground != Ground::Off;
    const GroundPlane ground = groundPlane(params_);
    workers_->parallelFor(q.alive(), [&](unsigned, size_t begin, size_t end) {
        for (size_t i = begin; i < end; ++i) {
            const glm::vec3 x(q.px[i], q.py[i], q.pz[i]);
            const glm::vec3 v = flow_->velocityAt(x + flow_->velocityAt(x) * (0.5f * dt));
            const glm::vec3 to = x + v * dt;
            q.px[i] = to.x, q.py[i] = to.y, q.pz[i] = to.z;
            q.vx[i] = v.x, q.vy[i] = v.y, q.vz[i] = v.z;
            q.age[i] += dt;
        }
        if (!stage_.empty()) {
            collideRange(q, begin, end, ground, stage_, dt, false);
        } else if (bounce) {
            bounceRange(q, begin, end, ground, dt, false);
        }
    });
}

void FireSystem::findDead() {
    // In parallel: each part lists its range's dead in ascending order, so the concatenation is the
    // same sorted list for any thread count.
    ParticlePool& q = pool_;
    const unsigned parts = workers_->partsFor(q.alive());
    deadLists_.resize(parts);
    for (auto& list : deadLists_) list.clear();  // a part the workers never call (an empty pool) lists nobody
    workers_->parallelFor(q.alive(), [&](unsigned part, size_t begin, size_t end) {
        auto& dead = deadLists_[part];
        dead.clear();
        const float* __restrict age = q.age;
        const float* __restrict life = q.life;
        for (size_t i = begin; i < end; ++i)
            if (age[i] >= life[i]) dead.push_back(static_cast<uint32_t>(i));
    });
    dead_.clear();
    for (unsigned part = 0; part < parts; ++part)
        dead_.insert(dead_.end(), deadLists_[part].begin(), deadLists_[part].end());
}

void FireSystem::killRemaining(size_t from) {
    // Kill-by-swap of dead_[from..], ascending: equivalent to the plain loop `if dead: kill(i) else ++i`
    // (a dead particle at the end is dropped, and the last live one fills the hole).
    ParticlePool& q = pool_;
    for (size_t k = from; k < dead_.size(); ++k) {
        const uint32_t d = dead_[k];
        while (q.alive() > d && q.age[q.alive() - 1] >= q.life[q.alive() - 1]) q.kill(q.alive() - 1);
        if (d >= q.alive()) return;
        q.kill(d);
    }
}

void FireSystem::step(float dt) {
    integrate(dt);
    findDead();
    time_ += dt;
    const size_t due = emission_.births(params_, dt);
    const size_t live = pool_.alive() - dead_.size(), limit = EmissionCounter::limit(params_);
    const size_t births = live < limit ? std::min(due, limit - live) : 0;
    // At steady state about as many are born as die: new particles take the slots of the dead
    // directly, which saves moving a particle from the end into each hole. Leftover dead are killed
    // by swap; leftover births are appended.
    const size_t reuse = std::min(births, dead_.size());
    emitInto(dead_.data(), reuse, births);
    births_ += due - births;  // dropped births use up their random streams, as the compute strategy's do
    killRemaining(reuse);
}

namespace {
void extend(const float* __restrict v, size_t n, float& lo, float& hi) {
    for (size_t i = 0; i < n; ++i) lo = std::min(lo, v[i]), hi = std::max(hi, v[i]);
}
}  // namespace

Bounds FireSystem::bounds() const {
    const ParticlePool& q = pool_;
    if (q.alive() == 0) return {};
    Bounds b{{q.px[0], q.py[0], q.pz[0]}, {q.px[0], q.py[0], q.pz[0]}};
    extend(q.px, q.alive(), b.lo.x, b.hi.x);
    extend(q.py, q.alive(), b.lo.y, b.hi.y);
    extend(q.pz, q.alive(), b.lo.z, b.hi.z);
    return b;
}

void FireSystem::prewarm(float dt) {
    const double until = time_ + prewarmSeconds() + dt;
    while (time_ < until) step(dt);
}

}  // namespace firelab::sim

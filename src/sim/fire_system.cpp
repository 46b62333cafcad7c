#include "sim/fire_system.h"

#include <algorithm>
#include <cmath>

#include "sim/emitter.h"

namespace firelab::sim {

size_t FireSystem::capacityFor(const FireParams& p, float dt) {
    const double rate = static_cast<double>(p.particles) / p.lifetimeMean;
    const double maxLife = static_cast<double>(p.lifetimeMean + p.lifetimeVar);
    return static_cast<size_t>(std::ceil(rate * (maxLife + dt))) + p.burst + 64;
}

FireSystem::FireSystem(const FireParams& params, unsigned threads)
    : params_((validate(params), params)),
      pool_(capacityFor(params)),
      workers_(std::make_unique<WorkerPool>(threads)) {}

void FireSystem::emit(size_t n) {
    n = std::min(n, pool_.capacity() - pool_.alive());
    const FireParams& p = params_;
    ParticlePool& q = pool_;
    const size_t first = q.add(n);
    const uint64_t firstBirth = births_;
    const uint64_t seedKey = mix64(p.seed);
    workers_->parallelFor(n, [&](size_t begin, size_t end) {
        for (size_t k = begin; k < end; ++k) {
            Pcg32 rng(mix64(seedKey ^ (firstBirth + k)));
            const size_t i = first + k;
            const glm::vec3 pos = samplePosition(p, rng);
            const glm::vec3 dir = sampleDirection(p, pos, rng);
            const glm::vec3 localV(p.speedMean.x + rng.symmetric() * p.speedVar.x,
                                   p.speedMean.y + rng.symmetric() * p.speedVar.y,
                                   p.speedMean.z + rng.symmetric() * p.speedVar.z);
            const glm::vec3 v = fromEmissionFrame(dir, localV);
            q.px[i] = pos.x, q.py[i] = pos.y, q.pz[i] = pos.z;
            q.vx[i] = v.x, q.vy[i] = v.y, q.vz[i] = v.z;
            q.ax[i] = p.accelMean.x + rng.symmetric() * p.accelVar.x;
            q.ay[i] = p.accelMean.y + rng.symmetric() * p.accelVar.y;
            q.az[i] = p.accelMean.z + rng.symmetric() * p.accelVar.z;
            q.age[i] = 0.0f;
            q.life[i] = p.lifetimeMean + rng.symmetric() * p.lifetimeVar;
            q.scale[i] = 1.0f + rng.symmetric() * p.sizeVar;
            q.rnd[i] = rng.uniform01();
        }
    });
    births_ += n;
}

void FireSystem::integrate(float dt) {
    const TurbulenceField field = turbulenceAt(time_, params_.turbulence, params_.turbulenceFrequency,
                                               params_.turbulenceSpeed);
    const float damp = std::exp(-params_.drag * dt);
    ParticlePool& q = pool_;
    workers_->parallelFor(q.alive(), [&](size_t begin, size_t end) {
        float* __restrict px = q.px;
        float* __restrict py = q.py;
        float* __restrict pz = q.pz;
        float* __restrict vx = q.vx;
        float* __restrict vy = q.vy;
        float* __restrict vz = q.vz;
        const float* __restrict ax = q.ax;
        const float* __restrict ay = q.ay;
        const float* __restrict az = q.az;
        float* __restrict age = q.age;
        for (size_t i = begin; i < end; ++i) {
            float tx = 0.0f, ty = 0.0f, tz = 0.0f;
            for (const auto& w : field) {
                const float c = fastCos(w.k.x * px[i] + w.k.y * py[i] + w.k.z * pz[i] + w.phase);
                tx += w.amp.x * c;
                ty += w.amp.y * c;
                tz += w.amp.z * c;
            }
            const float nvx = (vx[i] + (ax[i] + tx) * dt) * damp;
            const float nvy = (vy[i] + (ay[i] + ty) * dt) * damp;
            const float nvz = (vz[i] + (az[i] + tz) * dt) * damp;
            vx[i] = nvx, vy[i] = nvy, vz[i] = nvz;
            px[i] += nvx * dt, py[i] += nvy * dt, pz[i] += nvz * dt;
            age[i] += dt;
        }
    });
}

void FireSystem::killDead() {
    ParticlePool& q = pool_;
    for (size_t i = 0; i < q.alive();) {
        if (q.age[i] >= q.life[i])
            q.kill(i);  // the last particle moved into i: look at i again
        else
            ++i;
    }
}

void FireSystem::step(float dt) {
    integrate(dt);
    killDead();
    time_ += dt;
    if (!burstDone_) {
        emit(params_.burst);
        burstDone_ = true;
    }
    carry_ += static_cast<double>(emissionRate()) * dt;
    const double whole = std::floor(carry_);
    carry_ -= whole;
    emit(static_cast<size_t>(whole));
}

void FireSystem::prewarm(float dt) {
    const double until = time_ + static_cast<double>(params_.lifetimeMean + params_.lifetimeVar) + dt;
    while (time_ < until) step(dt);
}

}  // namespace firelab::sim

#include "sim/particle_pool.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <new>

namespace firelab::sim {

void ParticlePool::FreeDeleter::operator()(float* p) const { std::free(p); }

ParticlePool::ParticlePool(size_t capacity) : capacity_(capacity) {
    // Round each array up to a whole number of 64-byte lines so every array starts aligned.
    const size_t stride = ((capacity * sizeof(float) + 63) / 64) * 64 / sizeof(float);
    static_assert(sizeof(uint32_t) == sizeof(float));  // the id array takes a float array's room
    // The floats, the ids, then the bounce counts (a byte each: stride bytes, after 64-byte aligned float arrays),
    // in whole 64-byte lines (aligned_alloc takes a multiple of its alignment).
    const size_t used = stride * ((kFloatsPerParticle + 1) * sizeof(float) + sizeof(uint8_t));
    const size_t bytes = std::max<size_t>(64, (used + 63) / 64 * 64);
    auto* base = static_cast<float*>(std::aligned_alloc(64, bytes));
    if (!base) throw std::bad_alloc();
    std::memset(base, 0, bytes);
    storage_.reset(base);
    float** arrays[kFloatsPerParticle] = {&px, &py, &pz, &vx, &vy, &vz, &ax, &ay, &az, &age, &life, &scale, &rnd};
    for (size_t a = 0; a < kFloatsPerParticle; ++a) *arrays[a] = base + a * stride;
    id = reinterpret_cast<uint32_t*>(base + kFloatsPerParticle * stride);
    bounces = reinterpret_cast<uint8_t*>(base + (kFloatsPerParticle + 1) * stride);
}

void ParticlePool::reserve(size_t n) {
    if (n <= capacity_) return;
    ParticlePool bigger(n);
    float* from[kFloatsPerParticle] = {px, py, pz, vx, vy, vz, ax, ay, az, age, life, scale, rnd};
    float* to[kFloatsPerParticle] = {bigger.px, bigger.py, bigger.pz,  bigger.vx,   bigger.vy,    bigger.vz, bigger.ax,
                                     bigger.ay, bigger.az, bigger.age, bigger.life, bigger.scale, bigger.rnd};
    for (size_t a = 0; a < kFloatsPerParticle; ++a) std::memcpy(to[a], from[a], alive_ * sizeof(float));
    std::memcpy(bigger.id, id, alive_ * sizeof(uint32_t));
    std::memcpy(bigger.bounces, bounces, alive_ * sizeof(uint8_t));
    bigger.alive_ = alive_;
    *this = std::move(bigger);
}

void ParticlePool::kill(size_t i) {
    const size_t last = --alive_;
    if (i == last) return;
    float* arrays[kFloatsPerParticle] = {px, py, pz, vx, vy, vz, ax, ay, az, age, life, scale, rnd};
    for (float* a : arrays) a[i] = a[last];
    id[i] = id[last];
    bounces[i] = bounces[last];
}

}  // namespace firelab::sim

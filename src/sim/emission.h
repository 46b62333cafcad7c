// How many particles a fixed step emits: the burst on the first step (and, with a burst period, on the
// first step at or past each multiple of it), then rate * dt with the
// fractional part carried to the next step (so low rates still emit). Shared by the CPU model and the
// GPU-simulated strategies, so both emit exactly the same counts. With FireParams::rate the count is
// capped at FireParams::particles alive (limit()): births beyond it are dropped.
#pragma once
#include <cmath>
#include <cstddef>
#include <cstdint>

#include "sim/params.h"

namespace firelab::sim {

class EmissionCounter {
public:
    static float rate(const FireParams& p) {
        return p.rate > 0.0f ? p.rate : static_cast<float>(p.particles) / p.lifetimeMean;
    }
    // The most particles alive at once: particles with a given rate; none without one (the pool grows).
    static size_t limit(const FireParams& p) { return p.rate > 0.0f ? p.particles : SIZE_MAX; }
    // Bursts alive at once at most: one, or with a period every burst within the longest life.
    static size_t burstsAlive(const FireParams& p) {
        if (p.burst == 0) return 0;
        if (p.burstPeriod <= 0.0f) return 1;
        return static_cast<size_t>(std::ceil(static_cast<double>(p.lifetimeMean + p.lifetimeVar) / p.burstPeriod)) + 1;
    }

    size_t births(const FireParams& p, float dt) {
        size_t n = 0;
        if (nextBurst_ >= 0.0 && elapsed_ >= nextBurst_) {
            n = p.burst;
            nextBurst_ = p.burstPeriod > 0.0f ? nextBurst_ + static_cast<double>(p.burstPeriod) : -1.0;
        }
        elapsed_ += dt;
        carry_ += static_cast<double>(rate(p)) * dt;
        const double whole = std::floor(carry_);
        carry_ -= whole;
        return n + static_cast<size_t>(whole);
    }

private:
    double carry_ = 0.0;
    double elapsed_ = 0.0;    // simulated time before this step
    double nextBurst_ = 0.0;  // when the next burst is due; negative: none
};

}  // namespace firelab::sim

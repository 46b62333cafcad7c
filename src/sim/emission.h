// How many particles a fixed step emits: the burst on the first step, then rate * dt with the
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

    size_t births(const FireParams& p, float dt) {
        size_t n = burstDone_ ? 0 : p.burst;
        burstDone_ = true;
        carry_ += static_cast<double>(rate(p)) * dt;
        const double whole = std::floor(carry_);
        carry_ -= whole;
        return n + static_cast<size_t>(whole);
    }

private:
    double carry_ = 0.0;
    bool burstDone_ = false;
};

}  // namespace firelab::sim

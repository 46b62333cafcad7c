// How many particles a fixed step emits: the burst on the first step, then rate * dt with the
// fractional part carried to the next step (so low rates still emit). Shared by the CPU model and the
// GPU-simulated strategies, so both emit exactly the same counts.
#pragma once
#include <cmath>
#include <cstddef>

#include "sim/params.h"

namespace firelab::sim {

class EmissionCounter {
public:
    static float rate(const FireParams& p) { return static_cast<float>(p.particles) / p.lifetimeMean; }

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

// Seeded random numbers for the fire model: PCG32 (O'Neill 2014), small, fast and statistically strong.
// The same seed and stream give the same sequence on every platform; no global state, no rand().
#pragma once
#include <cmath>
#include <cstdint>

namespace firelab::sim {

// SplitMix64's finaliser: a strong 64-bit mix, used to derive independent seeds from counters.
constexpr uint64_t mix64(uint64_t x) {
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

class Pcg32 {
public:
    explicit Pcg32(uint64_t seed = 0x853c49e6748fea9bULL, uint64_t stream = 0xda3e39cb94b95bdbULL) {
        inc_ = (stream << 1u) | 1u;
        next();
        state_ += seed;
        next();
    }

    uint32_t next() {
        const uint64_t old = state_;
        state_ = old * 6364136223846793005ULL + inc_;
        const auto xorshifted = static_cast<uint32_t>(((old >> 18u) ^ old) >> 27u);
        const auto rot = static_cast<uint32_t>(old >> 59u);
        return (xorshifted >> rot) | (xorshifted << ((32u - rot) & 31u));
    }

    // Uniform on [0, 1): the top 24 bits, so every value is exactly representable.
    float uniform01() { return static_cast<float>(next() >> 8) * 0x1.0p-24f; }
    // Uniform on [-1, 1], the paper's rand().
    float symmetric() { return uniform01() * 2.0f - 1.0f; }

    // Standard normal by the Marsaglia polar method; the spare value is cached.
    float normal() {
        if (hasSpare_) {
            hasSpare_ = false;
            return spare_;
        }
        float u, v, s;
        do {
            u = symmetric();
            v = symmetric();
            s = u * u + v * v;
        } while (s >= 1.0f || s == 0.0f);
        const float m = std::sqrt(-2.0f * std::log(s) / s);
        spare_ = v * m;
        hasSpare_ = true;
        return u * m;
    }

private:
    uint64_t state_ = 0;
    uint64_t inc_ = 0;
    float spare_ = 0.0f;
    bool hasSpare_ = false;
};

}  // namespace firelab::sim

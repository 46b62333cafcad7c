// Counter-based random numbers for the fire model, written once here and once in
// shaders/fire_model.glsl (rngInit, rngNext, uniform01, symmetric, normal2), with identical bits:
// a particle draws its birth state from the stream keyed by the seed and its birth number, so the CPU
// model (any thread count) and the GPU-simulated strategies draw the same births. No global state.
//
//   Rng rng(seed, birthNumber);
//   float u = rng.uniform01();  // [0, 1), the top 24 bits: exact in float, the same on the GPU
#pragma once
#include <cmath>
#include <cstdint>

#include <glm/vec2.hpp>

namespace firelab::sim {

// PCG hash (Jarzynski & Olano 2020, "Hash Functions for GPU Rendering"): one LCG step, then PCG's
// RXS-M-XS output permutation. Each step is invertible, so it is a bijection of 32-bit words.
constexpr uint32_t pcgHash(uint32_t v) {
    const uint32_t state = v * 747796405u + 2891336453u;
    const uint32_t word = ((state >> ((state >> 28u) + 4u)) ^ state) * 277803737u;
    return (word >> 22u) ^ word;
}

// A 32-bit stream: the state is keyed by hashing the four 32-bit words of (key, counter), each draw
// steps the LCG and permutes the state (pcgHash). For a fixed key, counters below 2^32 give distinct
// states (the key chain is a bijection of the counter's low word). Streams are short (a birth takes
// about 20 draws); with a 32-bit state two births may share a stretch of draws, shifted, about once
// per 10^8 pairs: invisible in a fire, and the price of matching the GPU's 32-bit arithmetic.
class Rng {
public:
    constexpr Rng(uint64_t key, uint64_t counter)
        : state_(pcgHash(low(key) ^ pcgHash(high(key) ^ pcgHash(low(counter) ^ pcgHash(high(counter)))))) {}

    constexpr uint32_t next() {
        const uint32_t out = pcgHash(state_);
        state_ = state_ * 747796405u + 2891336453u;
        return out;
    }
    // Uniform on [0, 1): the top 24 bits, so every value is exactly representable.
    float uniform01() { return static_cast<float>(next() >> 8) * 0x1.0p-24f; }
    // Uniform on [-1, 1), the paper's rand(); exact too (2u - 1 needs no rounding).
    float symmetric() { return uniform01() * 2.0f - 1.0f; }
    // Two independent standard normals by Box-Muller: two draws, no loop and no cached spare, so every
    // call consumes the same draws on the CPU and the GPU. 1 - u is in (0, 1]: the log is finite.
    glm::vec2 normal2() {
        const float r = std::sqrt(-2.0f * std::log(1.0f - uniform01()));
        const float phi = 6.283185307179586f * uniform01();
        return {r * std::cos(phi), r * std::sin(phi)};
    }

private:
    static constexpr uint32_t low(uint64_t x) { return static_cast<uint32_t>(x); }
    static constexpr uint32_t high(uint64_t x) { return static_cast<uint32_t>(x >> 32); }
    uint32_t state_;
};

}  // namespace firelab::sim

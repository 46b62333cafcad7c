// Structure-of-arrays particle storage with a fixed capacity and a live count.
// Live particles are [0, alive()); kill(i) moves the last live particle into slot i, so a loop that
// kills must not advance i after a kill. 13 floats, an id and a bounce count per particle (57 bytes), each array
// 64-byte aligned.
#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>

namespace firelab::sim {

class ParticlePool {
public:
    static constexpr size_t kFloatsPerParticle = 13;
    static constexpr size_t kBytesPerParticle = kFloatsPerParticle * sizeof(float) + sizeof(uint32_t) + sizeof(uint8_t);

    explicit ParticlePool(size_t capacity = 0);

    size_t capacity() const { return capacity_; }
    // Grows the capacity to at least n, keeping the live particles (indices unchanged).
    void reserve(size_t n);
    size_t alive() const { return alive_; }
    size_t bytesPerParticle() const { return kBytesPerParticle; }
    size_t bytes() const { return capacity_ * bytesPerParticle(); }  // what the pool holds allocated

    // Appends n particles and returns the index of the first; the caller fills them.
    // Requires alive() + n <= capacity().
    size_t add(size_t n = 1) {
        const size_t first = alive_;
        alive_ += n;
        return first;
    }
    void kill(size_t i);
    void clear() { alive_ = 0; }

    // Attribute arrays. age and life in seconds; scale multiplies the size; rnd is uniform [0,1),
    // fixed for the particle's life (flipbook phase, sprite rotation).
    float* px;
    float* py;
    float* pz;
    float* vx;
    float* vy;
    float* vz;
    float* ax;
    float* ay;
    float* az;
    float* age;
    float* life;
    float* scale;
    float* rnd;
    // The particle's birth number (FireSystem's count of births before it, modulo 2^32): who it is from step to
    // step while kills move it between slots (a trail follows it by this).
    uint32_t* id;
    // How many times it has bounced (sim/ground.h: a contact it leaves at kRestSpeed or faster), up to 255.
    uint8_t* bounces;

private:
    struct FreeDeleter {
        void operator()(float* p) const;
    };
    std::unique_ptr<float, FreeDeleter> storage_;
    size_t capacity_ = 0;
    size_t alive_ = 0;
};

}  // namespace firelab::sim

// ParticlePool: structure-of-arrays storage, add(), and kill(i), which moves the last live particle into i.
#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <vector>

#include "sim/particle_pool.h"

namespace firelab::sim {
namespace {

std::array<float*, ParticlePool::kFloatsPerParticle> arraysOf(ParticlePool& q) {
    return {q.px, q.py, q.pz, q.vx, q.vy, q.vz, q.ax, q.ay, q.az, q.age, q.life, q.scale, q.rnd};
}

// Fills particle i's every attribute with a value that identifies it: 100 * i + attribute.
void label(ParticlePool& q, size_t i) {
    const auto arrays = arraysOf(q);
    for (size_t a = 0; a < arrays.size(); ++a) arrays[a][i] = static_cast<float>(100 * i + a);
    q.id[i] = static_cast<uint32_t>(7 * i + 3);
    q.bounces[i] = static_cast<uint8_t>(5 * i + 1);
}

// Which particle (by label) is in slot i, checking every attribute agrees; -1 if they do not.
long labelAt(ParticlePool& q, size_t i) {
    const auto arrays = arraysOf(q);
    const long id = static_cast<long>(arrays[0][i]) / 100;
    for (size_t a = 0; a < arrays.size(); ++a)
        if (arrays[a][i] != static_cast<float>(100 * id + static_cast<long>(a))) return -1;
    if (q.id[i] != static_cast<uint32_t>(7 * id + 3)) return -1;      // the id moves with the particle
    if (q.bounces[i] != static_cast<uint8_t>(5 * id + 1)) return -1;  // and so does its bounce count
    return id;
}

ParticlePool labelled(size_t n) {
    ParticlePool q(n);
    const size_t first = q.add(n);
    EXPECT_EQ(first, 0u);
    for (size_t i = 0; i < n; ++i) label(q, i);
    return q;
}

TEST(ParticlePool, StartsEmptyWithTheCapacityAndAlignedZeroedArrays) {
    ParticlePool q(1000);
    EXPECT_EQ(q.capacity(), 1000u);
    EXPECT_EQ(q.alive(), 0u);
    EXPECT_EQ(q.bytesPerParticle(), 13 * sizeof(float) + sizeof(uint32_t) + 1);  // and the id and bounce count
    EXPECT_EQ(reinterpret_cast<std::uintptr_t>(q.id) % 64, 0u);
    EXPECT_EQ(reinterpret_cast<std::uintptr_t>(q.bounces) % 64, 0u);
    EXPECT_GE(reinterpret_cast<const char*>(q.bounces) - reinterpret_cast<const char*>(q.id), 4000);
    for (size_t i = 0; i < q.capacity(); ++i) ASSERT_EQ(q.bounces[i], 0u);
    const auto arrays = arraysOf(q);
    for (size_t a = 0; a < arrays.size(); ++a) {
        EXPECT_EQ(reinterpret_cast<std::uintptr_t>(arrays[a]) % 64, 0u) << "array " << a;
        for (size_t i = 0; i < q.capacity(); ++i) ASSERT_EQ(arrays[a][i], 0.0f);
        if (a > 0) {
            EXPECT_GE(arrays[a] - arrays[a - 1], 1000) << "arrays overlap";
        }
    }
}

TEST(ParticlePool, AddAppendsAndReturnsTheFirstIndex) {
    ParticlePool q(10);
    EXPECT_EQ(q.add(3), 0u);
    EXPECT_EQ(q.add(), 3u);
    EXPECT_EQ(q.add(6), 4u);
    EXPECT_EQ(q.alive(), 10u);
    q.clear();
    EXPECT_EQ(q.alive(), 0u);
}

TEST(ParticlePool, KillMovesTheLastParticleIntoTheSlot) {
    ParticlePool q = labelled(5);
    q.kill(1);
    EXPECT_EQ(q.alive(), 4u);
    EXPECT_EQ(labelAt(q, 0), 0);
    EXPECT_EQ(labelAt(q, 1), 4);  // every attribute of the last moved, not just some
    EXPECT_EQ(labelAt(q, 2), 2);
    EXPECT_EQ(labelAt(q, 3), 3);
}

TEST(ParticlePool, KillingTheLastParticleJustShrinks) {
    ParticlePool q = labelled(3);
    q.kill(2);
    EXPECT_EQ(q.alive(), 2u);
    EXPECT_EQ(labelAt(q, 0), 0);
    EXPECT_EQ(labelAt(q, 1), 1);
    q.kill(0);
    EXPECT_EQ(q.alive(), 1u);
    EXPECT_EQ(labelAt(q, 0), 1);
    q.kill(0);
    EXPECT_EQ(q.alive(), 0u);
}

// The loop from STYLE.md: do not advance i after a kill, or the moved particle escapes the test.
TEST(ParticlePool, KillLoopWithoutAdvancingRemovesEveryMarkedParticle) {
    const size_t n = 1000;
    ParticlePool q = labelled(n);
    auto dead = [](long id) { return id % 3 == 0 || (id > 900); };  // runs of dead at the end
    for (size_t i = 0; i < q.alive();) {
        if (dead(labelAt(q, i)))
            q.kill(i);
        else
            ++i;
    }
    std::vector<int> seen(n, 0);
    for (size_t i = 0; i < q.alive(); ++i) {
        const long id = labelAt(q, i);
        ASSERT_GE(id, 0);
        ASSERT_FALSE(dead(id)) << "particle " << id << " survived";
        ++seen[static_cast<size_t>(id)];
    }
    size_t expectedAlive = 0;
    for (size_t id = 0; id < n; ++id) {
        const bool shouldLive = !dead(static_cast<long>(id));
        expectedAlive += shouldLive ? 1 : 0;
        EXPECT_EQ(seen[id], shouldLive ? 1 : 0) << "particle " << id;
    }
    EXPECT_EQ(q.alive(), expectedAlive);
}

TEST(ParticlePool, ZeroCapacityIsUsable) {
    ParticlePool q(0);
    EXPECT_EQ(q.capacity(), 0u);
    EXPECT_EQ(q.alive(), 0u);
}

}  // namespace
}  // namespace firelab::sim

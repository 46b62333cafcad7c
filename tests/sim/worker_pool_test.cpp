// WorkerPool::parallelFor: every index in [0, n) is visited exactly once, in partsFor(n) contiguous
// ranges numbered in index order, for any n and thread count, call after call.
#include <gtest/gtest.h>

#include <atomic>
#include <map>
#include <mutex>
#include <set>
#include <thread>
#include <utility>
#include <vector>

#include "sim/worker_pool.h"

namespace firelab::sim {
namespace {

TEST(WorkerPool, CoversEveryIndexExactlyOnce) {
    const size_t k = WorkerPool::kMinPerThread;
    const size_t sizes[] = {0, 1, 15, 16, 17, 100, k - 1, k, 2 * k - 1, 2 * k, 2 * k + 1, 3 * k + 7, 40000, 100003};
    for (unsigned threads : {1u, 2u, 3u, 4u, 7u}) {
        WorkerPool pool(threads);
        EXPECT_EQ(pool.threads(), threads);
        for (size_t n : sizes) {
            std::vector<std::atomic<int>> hits(n);
            std::mutex m;
            std::map<unsigned, std::pair<size_t, size_t>> ranges;  // by part
            size_t calls = 0;
            pool.parallelFor(n, [&](unsigned part, size_t b, size_t e) {
                {
                    std::lock_guard lock(m);
                    ranges[part] = {b, e};
                    ++calls;
                }
                for (size_t i = b; i < e; ++i) hits[i].fetch_add(1, std::memory_order_relaxed);
            });
            size_t wrong = 0;
            for (size_t i = 0; i < n; ++i) wrong += hits[i].load() == 1 ? 0 : 1;
            EXPECT_EQ(wrong, 0u) << "n=" << n << " threads=" << threads;
            const unsigned parts = pool.partsFor(n);
            EXPECT_LE(parts, threads);
            EXPECT_GE(parts, 1u);
            if (n == 0) {
                EXPECT_LE(calls, 1u);
                continue;
            }
            // One call per part, parts 0..parts-1, each range following the previous one.
            EXPECT_EQ(calls, parts) << "n=" << n;
            ASSERT_EQ(ranges.size(), parts) << "n=" << n;
            size_t next = 0;
            for (const auto& [part, range] : ranges) {
                EXPECT_LT(part, parts);
                EXPECT_EQ(range.first, next) << "n=" << n << " part " << part;
                EXPECT_LE(range.first, range.second);
                next = range.second;
            }
            EXPECT_EQ(next, n);
        }
    }
}

// Large loops run on several threads; small ones (< 2 * kMinPerThread) on the caller alone.
TEST(WorkerPool, SplitsLargeLoopsAcrossThreadsOnly) {
    WorkerPool pool(4);
    auto threadsUsed = [&](size_t n) {
        std::mutex m;
        std::set<std::thread::id> ids;
        pool.parallelFor(n, [&](unsigned, size_t b, size_t e) {
            if (b == e) return;
            std::lock_guard lock(m);
            ids.insert(std::this_thread::get_id());
        });
        return ids.size();
    };
    EXPECT_EQ(pool.partsFor(WorkerPool::kMinPerThread), 1u);
    EXPECT_EQ(pool.partsFor(100000), 4u);
    EXPECT_EQ(threadsUsed(WorkerPool::kMinPerThread), 1u);
    EXPECT_EQ(threadsUsed(100000), 4u);
    EXPECT_GE(threadsUsed(2 * WorkerPool::kMinPerThread), 2u);
}

TEST(WorkerPool, ZeroThreadsMeansTheCallerAlone) {
    WorkerPool pool(0);
    EXPECT_EQ(pool.threads(), 1u);
    size_t total = 0;
    pool.parallelFor(50000, [&](unsigned, size_t b, size_t e) { total += e - b; });
    EXPECT_EQ(total, 50000u);
}

// Many calls in a row, alternating sizes that use different numbers of threads, never lose or repeat work.
TEST(WorkerPool, SurvivesManyCallsOfVaryingSize) {
    WorkerPool pool(3);
    std::atomic<size_t> total{0};
    size_t expected = 0;
    for (int call = 0; call < 500; ++call) {
        const size_t n = call % 3 == 0 ? 30000 : (call % 3 == 1 ? 9000 : 10);
        expected += n;
        pool.parallelFor(n, [&](unsigned, size_t b, size_t e) { total.fetch_add(e - b, std::memory_order_relaxed); });
    }
    EXPECT_EQ(total.load(), expected);
}

}  // namespace
}  // namespace firelab::sim

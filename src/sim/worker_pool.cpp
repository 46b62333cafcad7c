#include "sim/worker_pool.h"

#include <algorithm>
#include <utility>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#endif

namespace firelab::sim {
namespace {
// Range p of `parts` over [0, n), aligned to 16 items so threads never share a cache line of a float array.
std::pair<size_t, size_t> rangeOf(size_t n, unsigned parts, unsigned p) {
    const size_t per = ((n + parts - 1) / parts + 15) / 16 * 16;
    const size_t b = std::min(n, per * p);
    return {b, std::min(n, b + per)};
}

void relaxCpu() {
#if defined(__x86_64__) || defined(__i386__)
    _mm_pause();
#else
    std::this_thread::yield();
#endif
}

// Spins until done() or kSpin has passed; true when done.
template <class Done>
bool spinUntil(Done done, std::chrono::microseconds limit) {
    const auto end = std::chrono::steady_clock::now() + limit;
    for (unsigned n = 1;; ++n) {
        if (done()) return true;
        relaxCpu();
        if (n % 64 == 0 && std::chrono::steady_clock::now() > end) return false;
    }
}
}  // namespace

WorkerPool::WorkerPool(unsigned threads) {
    for (unsigned i = 1; i < std::max(1u, threads); ++i) workers_.emplace_back([this, i] { workerLoop(i); });
}

WorkerPool::~WorkerPool() {
    {
        std::lock_guard lock(mutex_);
        stop_ = true;
    }
    start_.notify_all();
    for (auto& w : workers_) w.join();
}

unsigned WorkerPool::partsFor(size_t n, size_t minPerThread) const {
    return static_cast<unsigned>(std::clamp<size_t>(n / std::max<size_t>(1, minPerThread), 1, threads()));
}

void WorkerPool::parallelFor(size_t n, const RangeFn& fn, size_t minPerThread) {
    const unsigned parts = partsFor(n, minPerThread);
    if (parts == 1) {
        if (n) fn(0, 0, n);
        return;
    }
    {
        std::lock_guard lock(mutex_);
        job_ = &fn;
        n_ = n;
        parts_ = parts;
        pending_.store(parts - 1);
        generation_.fetch_add(1);
    }
    start_.notify_all();
    const auto [b, e] = rangeOf(n, parts, 0);
    std::exception_ptr mine;
    try {
        fn(0, b, e);
    } catch (...) {
        mine = std::current_exception();
    }
    spinUntil([this] { return pending_.load() == 0; }, kSpin);
    std::unique_lock lock(mutex_);
    done_.wait(lock, [this] { return pending_.load() == 0; });  // never return while workers still use fn
    job_ = nullptr;
    std::exception_ptr error = mine ? mine : std::exchange(error_, nullptr);
    error_ = nullptr;
    lock.unlock();
    if (error) std::rethrow_exception(error);
}

void WorkerPool::workerLoop(unsigned index) {
    unsigned long seen = 0;
    for (;;) {
        spinUntil([&] { return generation_.load() != seen; }, kSpin);
        std::unique_lock lock(mutex_);
        start_.wait(lock, [&] { return stop_ || generation_.load() != seen; });
        if (stop_) return;
        seen = generation_.load();
        if (index >= parts_) continue;
        const auto* job = job_;
        const auto [b, e] = rangeOf(n_, parts_, index);
        lock.unlock();
        std::exception_ptr error;
        try {
            (*job)(index, b, e);
        } catch (...) {
            error = std::current_exception();
        }
        lock.lock();
        if (error && !error_) error_ = error;
        if (pending_.fetch_sub(1) == 1) done_.notify_one();
    }
}

}  // namespace firelab::sim

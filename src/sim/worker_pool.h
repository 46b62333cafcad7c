// A small persistent thread pool for data-parallel loops over the particle pool and the fluid's grid.
// parallelFor(n, fn) splits [0, n) into partsFor(n) contiguous ranges, one per thread (the caller
// runs part 0), calls fn(part, begin, end) for each and returns when all are done. A thread that finds
// no work spins for kSpin before it sleeps, and so does the caller waiting for the parts: loops that
// follow each other closely (a fluid step is hundreds) do not pay a sleep and a wake each.
#pragma once
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <exception>
#include <cstddef>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace firelab::sim {

class WorkerPool {
public:
    explicit WorkerPool(unsigned threads = 1);
    ~WorkerPool();
    WorkerPool(const WorkerPool&) = delete;
    WorkerPool& operator=(const WorkerPool&) = delete;

    unsigned threads() const { return static_cast<unsigned>(workers_.size()) + 1; }
    using RangeFn = std::function<void(unsigned part, size_t begin, size_t end)>;
    // minPerThread: below this many items per thread the loop runs on fewer threads (the caller alone
    // for small n), since waking a thread costs tens of microseconds.
    // An exception thrown by fn in any part is rethrown here, after every part has finished.
    void parallelFor(size_t n, const RangeFn& fn, size_t minPerThread = kMinPerThread);
    unsigned partsFor(size_t n, size_t minPerThread = kMinPerThread) const;

    static constexpr size_t kMinPerThread = 8192;
    static constexpr std::chrono::microseconds kSpin{200};

private:
    void workerLoop(unsigned index);

    std::vector<std::thread> workers_;
    std::mutex mutex_;
    std::condition_variable start_;
    std::condition_variable done_;
    const RangeFn* job_ = nullptr;
    size_t n_ = 0;
    unsigned parts_ = 1;
    std::atomic<unsigned> pending_{0};
    std::atomic<unsigned long> generation_{0};
    bool stop_ = false;
    std::exception_ptr error_;  // the first exception of the current job
};

}  // namespace firelab::sim

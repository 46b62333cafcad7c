// Loops over a grid's rows (j, k) on the worker pool, with results that do not depend on the thread count: each
// row is computed whole by one thread, and sums are kept per row and added in row order.
//
//   forRows(pool, n, [&](int j, int k) { ... });              // every row of an n.x x n.y x n.z grid
//   double s = sumRows(pool, n, partial, [&](int j, int k) { return rowSum; });
#pragma once
#include <algorithm>
#include <cstddef>
#include <vector>

#include <glm/vec3.hpp>

#include "sim/worker_pool.h"

namespace firelab::fluid {

// Rows per thread below which a loop stays on fewer threads: about 8k cells each, as the particle loops.
inline size_t minRowsPerThread(const glm::ivec3& n) {
    return std::max<size_t>(1, sim::WorkerPool::kMinPerThread / static_cast<size_t>(std::max(n.x, 1)));
}

template <class F>
void forRows(sim::WorkerPool& pool, const glm::ivec3& n, F&& f) {
    const size_t rows = static_cast<size_t>(n.y) * static_cast<size_t>(n.z);
    pool.parallelFor(
        rows,
        [&](unsigned, size_t begin, size_t end) {
            for (size_t r = begin; r < end; ++r)
                f(static_cast<int>(r % static_cast<size_t>(n.y)), static_cast<int>(r / static_cast<size_t>(n.y)));
        },
        minRowsPerThread(n));
}

// The sum over rows of f(j, k) (a double each), added in row order whatever the threads; `partial` is scratch.
template <class F>
double sumRows(sim::WorkerPool& pool, const glm::ivec3& n, std::vector<double>& partial, F&& f) {
    partial.resize(static_cast<size_t>(n.y) * static_cast<size_t>(n.z));
    forRows(pool, n, [&](int j, int k) { partial[static_cast<size_t>(j) + static_cast<size_t>(n.y) * k] = f(j, k); });
    double sum = 0.0;
    for (double x : partial) sum += x;
    return sum;
}

}  // namespace firelab::fluid

// The projection's pressure problem and its solvers, on the CPU. For each fluid cell c,
//   sum over its open neighbours n of (p_c - p_n) = b_c,
// a neighbour open when it is a fluid cell or the open air beyond the sides and the top (p = 0 there); solid cells
// and the floor are walls (no term). A is symmetric positive definite. The vectors live on grids padded by one
// cell on every side whose pad holds 0, so that a stencil reads its six neighbours with no test: open air and
// walls both add nothing to a neighbour sum, and A's diagonal says which of them counts.
//
// The solvers (fluid::Solver), each stopping when rms(b - A p) over the fluid cells reaches `target` or after
// `maxIterations`:
//   jacobi     p <- (b + the neighbours' p) / A_cc, every cell at once (the residual checked every 10);
//   pcg        conjugate gradients preconditioned by A's diagonal;
//   multigrid  V-cycles alone: p += V(b - A p);
//   mgpcg      conjugate gradients preconditioned by one V-cycle (McAdams, Sifakis and Teran 2010).
// The V-cycle: on a hierarchy of grids each half the last along every axis (a coarse cell is fluid when any of its
// eight is), two red-black Gauss-Seidel sweeps before and after (black first after, so that the cycle is a
// symmetric operator and conjugate gradients may use it), the residual carried down by the transpose of the
// trilinear interpolation that carries the correction up, the coarse operator A rebuilt on each grid with the same
// walls and open sides, and the coarsest grid relaxed by symmetric sweeps. Every pass runs over rows on the worker
// pool; sums are per row, in row order, so the result does not depend on the thread count.
#pragma once
#include <cstdint>
#include <vector>

#include <glm/vec3.hpp>

#include "fluid/fluid_params.h"
#include "sim/worker_pool.h"

namespace firelab::fluid {

// Red-black Gauss-Seidel sweeps before and after the coarse correction, on every grid but the coarsest.
inline constexpr int kSmoothingSweeps = 2;

// How many times a grid of n cells halves along every axis, to grids of at least 2 cells an axis: 0 when an axis
// is odd (multigrid needs at least one).
int coarsenings(const glm::ivec3& n);

class Poisson {
public:
    // `solid`: per cell (x fastest) 1 inside an obstacle. The grids multigrid needs are built when `multigrid`.
    Poisson(const glm::ivec3& n, const std::vector<uint8_t>& solid, bool multigrid);

    struct Result {
        int iterations = 0;  // iterations, or V-cycles of multigrid alone
        double flops = 0.0;  // floating-point operations, counted as the code does them
        double residualRms = 0.0;
    };
    // Solves A p = b (both n.x x n.y x n.z, x fastest; b 0 in solid cells) from p's values, into p.
    Result solve(Solver solver, const std::vector<float>& b, std::vector<float>& p, double target, int maxIterations,
                 sim::WorkerPool& pool);

    double fluidCells() const { return fluidCells_; }
    int levels() const { return static_cast<int>(levels_.size()); }
    // A's diagonal at each cell (0 in solid cells, which are not unknowns), unpadded, x fastest.
    std::vector<float> diagonal() const;

    // A padded grid: its cells n, and per padded cell A's diagonal, its inverse and the fluid mask (1 or 0).
    struct Level {
        glm::ivec3 n{0};
        size_t sy = 0, sz = 0;  // strides of y and z; x's is 1
        std::vector<float> diag, invDiag, fluid;
        std::vector<float> x, b, r;  // the level's solution, right side and residual
        size_t at(int i, int j, int k) const {
            return static_cast<size_t>(i + 1) + sy * static_cast<size_t>(j + 1) + sz * static_cast<size_t>(k + 1);
        }
        size_t size() const { return diag.size(); }
        double cells() const { return static_cast<double>(n.x) * n.y * n.z; }
    };

private:
    Result jacobi(double target, int maxIterations, sim::WorkerPool& pool);
    Result pcg(bool multigrid, double target, int maxIterations, sim::WorkerPool& pool);
    Result multigrid(double target, int maxIterations, sim::WorkerPool& pool);
    // z = V(r) into levels_[0].x (levels_[0].b = r), its flops added to `flops`.
    void vcycle(const std::vector<float>& r, std::vector<float>& z, double& flops, sim::WorkerPool& pool);
    void cycle(size_t level, sim::WorkerPool& pool);
    double rms(const std::vector<float>& v, sim::WorkerPool& pool);
    double dot(const std::vector<float>& a, const std::vector<float>& b, sim::WorkerPool& pool);

    std::vector<Level> levels_;     // levels_[0]: the grid itself (its x, b, r serve the cycle on it)
    std::vector<float> p_, b_, r_;  // the outer solve's p, b and residual, padded as levels_[0]
    std::vector<float> z_, d_, q_;  // conjugate gradients' vectors
    std::vector<double> rowSums_;
    double fluidCells_ = 0.0;
};

}  // namespace firelab::fluid

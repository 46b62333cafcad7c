#include "fluid/poisson.h"

#include <algorithm>
#include <cmath>
#include <utility>

#include <glm/vector_relational.hpp>

#include "fluid/grid_loops.h"

namespace firelab::fluid {
namespace {

using Level = Poisson::Level;

// Floating-point operations per cell, counted as the loops below do them.
constexpr double kStencilFlops = 8.0;    // six neighbour adds, the right side, one multiply
constexpr double kResidualFlops = 9.0;   // the stencil and a subtraction
constexpr double kRestrictFlops = 16.0;  // 64 weighted fine values a coarse cell: 128 flops over 8 fine cells
constexpr double kProlongFlops = 16.0;   // 8 weighted coarse values a fine cell
constexpr int kJacobiCheck = 10;         // Jacobi's residual is checked every this many iterations

Level makeLevel(const glm::ivec3& n) {
    Level l;
    l.n = n;
    l.sy = static_cast<size_t>(n.x + 2);
    l.sz = l.sy * static_cast<size_t>(n.y + 2);
    const size_t size = l.sz * static_cast<size_t>(n.z + 2);
    l.diag.assign(size, 0.0f), l.invDiag.assign(size, 0.0f), l.fluid.assign(size, 0.0f);
    l.x.assign(size, 0.0f), l.b.assign(size, 0.0f), l.r.assign(size, 0.0f);
    return l;
}

// A's diagonal from the fluid mask: each fluid cell's open neighbours (fluid cells, and the open air beyond the
// sides and the top; the floor and solid cells are walls). A fluid cell with no open neighbour is no unknown.
// The open air holds p = 0 half a fine cell beyond the grid's face (the fine grid's pad); on a grid of cells `ratio`
// fine cells wide that is (ratio + 1) / 2 fine cells from a boundary cell's centre rather than `ratio`, so the open
// air's term weighs 2 ratio / (ratio + 1): every grid puts the open air's pressure at the same place.
void buildOperator(Level& l, int ratio) {
    const glm::ivec3 n = l.n;
    const float air = 2.0f * static_cast<float>(ratio) / static_cast<float>(ratio + 1);
    const auto open = [&](int i, int j, int k) {
        if (j < 0) return 0.0f;                                              // the floor
        if (i < 0 || i >= n.x || k < 0 || k >= n.z || j >= n.y) return air;  // open air
        return l.fluid[l.at(i, j, k)];
    };
    for (int k = 0; k < n.z; ++k)
        for (int j = 0; j < n.y; ++j)
            for (int i = 0; i < n.x; ++i) {
                const size_t c = l.at(i, j, k);
                if (l.fluid[c] == 0.0f) continue;
                l.diag[c] = open(i - 1, j, k) + open(i + 1, j, k) + open(i, j - 1, k) + open(i, j + 1, k) +
                            open(i, j, k - 1) + open(i, j, k + 1);
            }
    for (size_t c = 0; c < l.size(); ++c) {
        if (l.diag[c] == 0.0f) l.fluid[c] = 0.0f;
        l.invDiag[c] = l.diag[c] > 0.0f ? 1.0f / l.diag[c] : 0.0f;
    }
}

// The grid half the size of `fine` along every axis, a cell fluid when any of its eight is; `ratio`: its cells' edge
// in the finest grid's.
Level coarsen(const Level& fine, int ratio) {
    Level c = makeLevel(fine.n / 2);
    for (int k = 0; k < fine.n.z; ++k)
        for (int j = 0; j < fine.n.y; ++j)
            for (int i = 0; i < fine.n.x; ++i)
                if (fine.fluid[fine.at(i, j, k)] != 0.0f) c.fluid[c.at(i / 2, j / 2, k / 2)] = 1.0f;
    buildOperator(c, ratio);
    return c;
}

float neighbourSum(const float* x, size_t c, size_t sy, size_t sz) {
    return x[c - 1] + x[c + 1] + x[c - sy] + x[c + sy] + x[c - sz] + x[c + sz];
}

// out = b - A x over the level's cells (0 outside the fluid).
void residual(const Level& l, const std::vector<float>& x, const std::vector<float>& b, std::vector<float>& out,
              sim::WorkerPool& pool) {
    const float* xs = x.data();
    forRows(pool, l.n, [&](int j, int k) {
        const size_t row = l.at(0, j, k);
        for (int i = 0; i < l.n.x; ++i) {
            const size_t c = row + static_cast<size_t>(i);
            out[c] = l.fluid[c] * (b[c] + neighbourSum(xs, c, l.sy, l.sz)) - l.diag[c] * xs[c];
        }
    });
}

// One colour's half of a Gauss-Seidel sweep: the cells with (i + j + k) % 2 == colour take (b + neighbours) / A_cc.
void relax(Level& l, int colour, sim::WorkerPool& pool) {
    float* x = l.x.data();
    forRows(pool, l.n, [&](int j, int k) {
        const size_t row = l.at(0, j, k);
        for (int i = (colour + j + k) & 1; i < l.n.x; i += 2) {
            const size_t c = row + static_cast<size_t>(i);
            x[c] = l.invDiag[c] * (l.b[c] + neighbourSum(x, c, l.sy, l.sz));
        }
    });
}

// The trilinear interpolation's weight of coarse cell C on fine cell f along one axis: 3/4 from the parent, 1/4
// from the parent's neighbour on f's side; the floor (y's low end) mirrors, so fine row 0 takes all of coarse row 0;
// beyond an open end the coarse correction is 0 and the weight goes nowhere.
float weight(int f, int C, bool floorAxis) {
    if (floorAxis && f == 0 && C == 0) return 1.0f;
    const int parent = f >> 1;  // rounds down, -1 too
    if (parent == C) return 0.75f;
    const int other = (f & 1) ? parent + 1 : parent - 1;
    return other == C ? 0.25f : 0.0f;
}

// coarse.b = 4 x (the transpose of the interpolation / 8) fine.r: the residual's mean over the fine cells about
// each coarse cell, times the ratio of the two grids' h^2 (A is scaled by h^2).
void restrictResidual(const Level& fine, Level& coarse, sim::WorkerPool& pool) {
    forRows(pool, coarse.n, [&](int J, int K) {
        for (int I = 0; I < coarse.n.x; ++I) {
            const size_t C = coarse.at(I, J, K);
            if (coarse.fluid[C] == 0.0f) continue;
            float sum = 0.0f;
            for (int fk = 2 * K - 1; fk <= 2 * K + 2; ++fk) {
                const float wz = weight(fk, K, false);
                for (int fj = 2 * J - 1; fj <= 2 * J + 2; ++fj) {
                    const float wyz = wz * weight(fj, J, true);
                    const float* r = fine.r.data() + fine.at(0, fj, fk);  // the pads hold 0
                    sum +=
                        wyz * (0.25f * r[2 * I - 1] + 0.75f * r[2 * I] + 0.75f * r[2 * I + 1] + 0.25f * r[2 * I + 2]);
                }
            }
            coarse.b[C] = 0.5f * sum;
        }
    });
}

// fine.x += the coarse correction, interpolated trilinearly to the fine cells (the fluid ones).
void prolongAdd(const Level& coarse, Level& fine, sim::WorkerPool& pool) {
    // A fine row's two coarse rows; beyond an open end the far one is a pad, which holds 0.
    const auto parents = [](int f, bool floorAxis, int& near, int& far) {
        near = f / 2;
        far = (f & 1) ? near + 1 : near - 1;
        if (floorAxis && far < 0) far = near;  // the floor mirrors
    };
    forRows(pool, fine.n, [&](int j, int k) {
        int J0, J1, K0, K1;
        parents(j, true, J0, J1);
        parents(k, false, K0, K1);
        const float* c00 = coarse.x.data() + coarse.at(0, J0, K0);
        const float* c10 = coarse.x.data() + coarse.at(0, J1, K0);
        const float* c01 = coarse.x.data() + coarse.at(0, J0, K1);
        const float* c11 = coarse.x.data() + coarse.at(0, J1, K1);
        const size_t row = fine.at(0, j, k);
        for (int i = 0; i < fine.n.x; ++i) {
            const int I0 = i / 2, I1 = (i & 1) ? I0 + 1 : I0 - 1;
            const auto lerpX = [&](const float* c) { return 0.75f * c[I0] + 0.25f * c[I1]; };
            const float y0 = 0.75f * lerpX(c00) + 0.25f * lerpX(c10);
            const float y1 = 0.75f * lerpX(c01) + 0.25f * lerpX(c11);
            fine.x[row + static_cast<size_t>(i)] +=
                fine.fluid[row + static_cast<size_t>(i)] * (0.75f * y0 + 0.25f * y1);
        }
    });
}

}  // namespace

int coarsenings(const glm::ivec3& n) {
    int count = 0;
    for (glm::ivec3 m = n;
         m.x % 2 == 0 && m.y % 2 == 0 && m.z % 2 == 0 && glm::all(glm::greaterThanEqual(m / 2, glm::ivec3(2))); m /= 2)
        ++count;
    return count;
}

Poisson::Poisson(const glm::ivec3& n, const std::vector<uint8_t>& solid, bool multigrid) {
    Level top = makeLevel(n);
    size_t c = 0;
    for (int k = 0; k < n.z; ++k)
        for (int j = 0; j < n.y; ++j)
            for (int i = 0; i < n.x; ++i, ++c)
                if (!solid[c]) top.fluid[top.at(i, j, k)] = 1.0f;
    buildOperator(top, 1);
    for (float f : top.fluid) fluidCells_ += f;
    levels_.push_back(std::move(top));
    if (multigrid)
        for (int l = 1; l <= coarsenings(n); ++l) levels_.push_back(coarsen(levels_.back(), 1 << l));
    const size_t size = levels_[0].size();
    for (auto* v : {&p_, &b_, &r_, &z_, &d_, &q_}) v->assign(size, 0.0f);
}

std::vector<float> Poisson::diagonal() const {
    const Level& l = levels_[0];
    std::vector<float> out;
    out.reserve(static_cast<size_t>(l.cells()));
    for (int k = 0; k < l.n.z; ++k)
        for (int j = 0; j < l.n.y; ++j)
            for (int i = 0; i < l.n.x; ++i) out.push_back(l.diag[l.at(i, j, k)]);
    return out;
}

double Poisson::dot(const std::vector<float>& a, const std::vector<float>& b, sim::WorkerPool& pool) {
    const Level& l = levels_[0];
    return sumRows(pool, l.n, rowSums_, [&](int j, int k) {
        const size_t row = l.at(0, j, k);
        double s = 0.0;
        for (size_t c = row; c < row + static_cast<size_t>(l.n.x); ++c) s += static_cast<double>(a[c]) * b[c];
        return s;
    });
}

double Poisson::rms(const std::vector<float>& v, sim::WorkerPool& pool) {
    return std::sqrt(dot(v, v, pool) / std::max(fluidCells_, 1.0));
}

Poisson::Result Poisson::solve(Solver solver, const std::vector<float>& b, std::vector<float>& p, double target,
                               int maxIterations, sim::WorkerPool& pool) {
    const Level& l = levels_[0];
    size_t c = 0;
    for (int k = 0; k < l.n.z; ++k)
        for (int j = 0; j < l.n.y; ++j)
            for (int i = 0; i < l.n.x; ++i, ++c) {
                const size_t q = l.at(i, j, k);
                b_[q] = l.fluid[q] * b[c];
                p_[q] = l.fluid[q] * p[c];
            }
    Result out;
    switch (solver) {
    case Solver::Jacobi: out = jacobi(target, maxIterations, pool); break;
    case Solver::Pcg: out = pcg(false, target, maxIterations, pool); break;
    case Solver::Multigrid: out = multigrid(target, maxIterations, pool); break;
    case Solver::Mgpcg:
    case Solver::Count: out = pcg(true, target, maxIterations, pool); break;
    }
    c = 0;
    for (int k = 0; k < l.n.z; ++k)
        for (int j = 0; j < l.n.y; ++j)
            for (int i = 0; i < l.n.x; ++i, ++c) p[c] = p_[l.at(i, j, k)];
    return out;
}

Poisson::Result Poisson::jacobi(double target, int maxIterations, sim::WorkerPool& pool) {
    const Level& l = levels_[0];
    std::vector<float>& next = z_;
    Result out;
    while (out.iterations < maxIterations) {
        forRows(pool, l.n, [&](int j, int k) {
            const size_t row = l.at(0, j, k);
            for (size_t c = row; c < row + static_cast<size_t>(l.n.x); ++c)
                next[c] = l.invDiag[c] * (b_[c] + neighbourSum(p_.data(), c, l.sy, l.sz));
        });
        p_.swap(next);
        ++out.iterations;
        out.flops += fluidCells_ * kStencilFlops;
        if (out.iterations % kJacobiCheck == 0 || out.iterations == maxIterations) {
            residual(l, p_, b_, r_, pool);
            out.residualRms = rms(r_, pool);
            out.flops += fluidCells_ * (kResidualFlops + 2.0);
            if (out.residualRms <= target) break;
        }
    }
    return out;
}

Poisson::Result Poisson::multigrid(double target, int maxIterations, sim::WorkerPool& pool) {
    const Level& l = levels_[0];
    Result out;
    for (;;) {
        residual(l, p_, b_, r_, pool);
        out.residualRms = rms(r_, pool);
        out.flops += fluidCells_ * (kResidualFlops + 2.0);
        if (out.residualRms <= target || out.iterations >= maxIterations) break;
        vcycle(r_, z_, out.flops, pool);
        forRows(pool, l.n, [&](int j, int k) {
            const size_t row = l.at(0, j, k);
            for (size_t c = row; c < row + static_cast<size_t>(l.n.x); ++c) p_[c] += z_[c];
        });
        out.flops += fluidCells_;
        ++out.iterations;
    }
    return out;
}

// Preconditioned conjugate gradients, from p's values: z = M^-1 r with M^-1 A's inverse diagonal or one V-cycle.
Poisson::Result Poisson::pcg(bool multigrid, double target, int maxIterations, sim::WorkerPool& pool) {
    const Level& l = levels_[0];
    Result out;
    const auto precondition = [&] {
        if (multigrid) return vcycle(r_, z_, out.flops, pool);
        for (size_t c = 0; c < z_.size(); ++c) z_[c] = l.invDiag[c] * r_[c];
        out.flops += fluidCells_;
    };
    residual(l, p_, b_, r_, pool);
    out.residualRms = rms(r_, pool);
    out.flops += fluidCells_ * (kResidualFlops + 2.0);
    if (out.residualRms <= target) return out;
    precondition();
    d_ = z_;
    double rz = dot(r_, z_, pool);
    while (out.iterations < maxIterations) {
        // q = A d
        forRows(pool, l.n, [&](int j, int k) {
            const size_t row = l.at(0, j, k);
            for (size_t c = row; c < row + static_cast<size_t>(l.n.x); ++c)
                q_[c] = l.diag[c] * d_[c] - l.fluid[c] * neighbourSum(d_.data(), c, l.sy, l.sz);
        });
        const double dq = dot(d_, q_, pool);
        if (dq <= 0.0) break;
        const float alpha = static_cast<float>(rz / dq);
        const double rr = sumRows(pool, l.n, rowSums_, [&](int j, int k) {
            const size_t row = l.at(0, j, k);
            double s = 0.0;
            for (size_t c = row; c < row + static_cast<size_t>(l.n.x); ++c) {
                p_[c] += alpha * d_[c];
                r_[c] -= alpha * q_[c];
                s += static_cast<double>(r_[c]) * r_[c];
            }
            return s;
        });
        ++out.iterations;
        out.flops += fluidCells_ * (kStencilFlops + 4.0 + 6.0 + 2.0);
        out.residualRms = std::sqrt(rr / std::max(fluidCells_, 1.0));
        if (out.residualRms <= target) break;
        precondition();
        const double rzNext = dot(r_, z_, pool);
        const float beta = static_cast<float>(rzNext / rz);
        rz = rzNext;
        forRows(pool, l.n, [&](int j, int k) {
            const size_t row = l.at(0, j, k);
            for (size_t c = row; c < row + static_cast<size_t>(l.n.x); ++c) d_[c] = z_[c] + beta * d_[c];
        });
        out.flops += fluidCells_ * 4.0;
    }
    return out;
}

void Poisson::vcycle(const std::vector<float>& r, std::vector<float>& z, double& flops, sim::WorkerPool& pool) {
    Level& top = levels_[0];
    std::copy(r.begin(), r.end(), top.b.begin());
    cycle(0, pool);
    std::copy(top.x.begin(), top.x.end(), z.begin());
    for (size_t l = 0; l < levels_.size(); ++l) {
        const double perCell = l + 1 == levels_.size() ? 0.0
                                                       : 2.0 * kSmoothingSweeps * kStencilFlops + kResidualFlops +
                                                             kRestrictFlops / 8.0 + kProlongFlops;
        flops += levels_[l].cells() * perCell;
    }
    const Level& last = levels_.back();
    flops += last.cells() * 2.0 * kStencilFlops * std::max({last.n.x, last.n.y, last.n.z});
}

// One V-cycle on levels_[level] from x = 0: smooth, carry the residual down, correct, smooth in reverse order.
void Poisson::cycle(size_t level, sim::WorkerPool& pool) {
    Level& l = levels_[level];
    std::fill(l.x.begin(), l.x.end(), 0.0f);
    if (level + 1 == levels_.size()) {  // the coarsest: symmetric sweeps, as many pairs as its longest axis
        const int pairs = std::max({l.n.x, l.n.y, l.n.z});
        for (int s = 0; s < pairs; ++s) relax(l, 0, pool), relax(l, 1, pool);
        for (int s = 0; s < pairs; ++s) relax(l, 1, pool), relax(l, 0, pool);
        return;
    }
    for (int s = 0; s < kSmoothingSweeps; ++s) relax(l, 0, pool), relax(l, 1, pool);
    residual(l, l.x, l.b, l.r, pool);
    restrictResidual(l, levels_[level + 1], pool);
    cycle(level + 1, pool);
    prolongAdd(levels_[level + 1], l, pool);
    for (int s = 0; s < kSmoothingSweeps; ++s) relax(l, 1, pool), relax(l, 0, pool);
}

}  // namespace firelab::fluid

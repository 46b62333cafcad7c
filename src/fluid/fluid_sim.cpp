#include "fluid/fluid_sim.h"

#include <algorithm>
#include <chrono>
#include <cmath>

#include <glm/geometric.hpp>

#include "core/error.h"
#include "fluid/grid_loops.h"
#include "fluid/poisson.h"
#include "sim/emitter.h"
#include "sim/random.h"
#include "sim/stage.h"

namespace firelab::fluid {
namespace {

using Clock = std::chrono::steady_clock;

double msSince(Clock::time_point t0) { return std::chrono::duration<double, std::milli>(Clock::now() - t0).count(); }

// Trilinear sample of a field whose value (i, j, k) sits at origin + h (i + offset), clamped to the field's
// samples (outside: the nearest's), or `outside` beyond the open ends when `open` is set.
float sampleField(const Field& f, const glm::vec3& local, const glm::vec3& offset) {
    const glm::vec3 g = local - offset;  // in samples
    const glm::ivec3 hi = f.n - 1;
    // Clamped to the samples there are, a NaN (a velocity that overflowed) to 0: no index leaves the grid.
    const glm::vec3 c = glm::min(glm::vec3(hi), glm::max(glm::vec3(0.0f), g));
    const glm::ivec3 i0 = glm::min(glm::ivec3(glm::floor(c)), glm::max(hi - 1, glm::ivec3(0)));
    const glm::vec3 t = c - glm::vec3(i0);
    const glm::ivec3 i1 = glm::min(i0 + 1, hi);
    const auto at = [&](int x, int y, int z) { return f.at(x, y, z); };
    const float c00 = glm::mix(at(i0.x, i0.y, i0.z), at(i1.x, i0.y, i0.z), t.x);
    const float c10 = glm::mix(at(i0.x, i1.y, i0.z), at(i1.x, i1.y, i0.z), t.x);
    const float c01 = glm::mix(at(i0.x, i0.y, i1.z), at(i1.x, i0.y, i1.z), t.x);
    const float c11 = glm::mix(at(i0.x, i1.y, i1.z), at(i1.x, i1.y, i1.z), t.x);
    return glm::mix(glm::mix(c00, c10, t.y), glm::mix(c01, c11, t.y), t.z);
}

}  // namespace

double FluidSim::bytesFor(const FluidParams& p) {
    const double cells = static_cast<double>(p.grid.x) * p.grid.y * p.grid.z;
    const double faces = static_cast<double>(p.grid.x + 1) * p.grid.y * p.grid.z +
                         static_cast<double>(p.grid.x) * (p.grid.y + 1) * p.grid.z +
                         static_cast<double>(p.grid.x) * p.grid.y * (p.grid.z + 1);
    const double padded = static_cast<double>(p.grid.x + 2) * (p.grid.y + 2) * (p.grid.z + 2);
    // State: 3 face fields, 4 scalars, the solid mask. Advection: four more buffers of each carried field (traced,
    // corrected, MacCormack's limits). Forces: 3 vec3 a cell. Projection: the divergence and right side, and the
    // solver's 12 padded vectors (a multigrid's coarser grids add a seventh).
    // The heat release a cell; --combustion mixing: the mixture fraction, its four advection buffers, the dilatation,
    // the subgrid diffusivity and a field's copy.
    const double mixing = p.combustion == Combustion::Mixing ? 8.0 : 0.0;
    return faces * 4.0 * (1 + 4) + cells * (4.0 * (4 + 3 * 4 + 9 + 2 + 1 + mixing) + 1.0) +
           padded * 4.0 * 12.0 * 8.0 / 7.0;
}

FluidSim::FluidSim(const FluidParams& params, const sim::FireParams& source, unsigned threads)
    : params_(params), source_(source) {
    validate(params_, source_, 1.0f / 240.0f);
    checkThreads(threads);
    pool_ = std::make_unique<sim::WorkerPool>(threads);
    FluidState& s = state_;
    s.n = params_.grid;
    s.h = params_.cell;
    const glm::vec3 size = glm::vec3(s.n) * s.h;
    s.origin = glm::vec3(source_.center.x - 0.5f * size.x, source_.groundHeight, source_.center.z - 0.5f * size.z);
    s.u = Field(s.n + glm::ivec3(1, 0, 0), 0.0f);
    s.v = Field(s.n + glm::ivec3(0, 1, 0), 0.0f);
    s.w = Field(s.n + glm::ivec3(0, 0, 1), 0.0f);
    s.temperature = Field(s.n, params_.ambient);
    s.fuel = Field(s.n, 0.0f);
    s.soot = Field(s.n, 0.0f);
    s.pressure = Field(s.n, 0.0f);
    s.release = Field(s.n, 0.0f);
    if (params_.combustion == Combustion::Mixing) s.mixture = Field(s.n, 0.0f);
    s.solid.assign(s.temperature.v.size(), 0);
    if (params_.obstacles == Obstacles::Logs) markLogs();
    for (size_t c = 0; c < s.solid.size(); ++c)
        if (s.solid[c]) solidCells_.push_back(c);
    enforceSolids();
}

FluidSim::~FluidSim() = default;

glm::vec3 FluidSim::cellCenter(int i, int j, int k) const {
    return state_.origin + (glm::vec3(i, j, k) + 0.5f) * state_.h;
}

void FluidSim::markLogs() {
    const auto boxes = sim::stageBoxes();
    FluidState& s = state_;
    for (int k = 0; k < s.n.z; ++k)
        for (int j = 0; j < s.n.y; ++j)
            for (int i = 0; i < s.n.x; ++i)
                for (const sim::StageBox& b : boxes)
                    if (sim::insideBox(b, cellCenter(i, j, k))) s.solid[s.temperature.index(i, j, k)] = 1;
}

// Solid cells hold ambient air at rest, and no face of theirs carries flow; the floor is a wall.
void FluidSim::enforceSolids() {
    FluidState& s = state_;
    const glm::ivec3 n = s.n;
    for (int k = 0; k < n.z; ++k)  // the ground, but where the source blows through it
        for (int i = 0; i < n.x; ++i)
            if (inflow_.empty() || !inflow_[static_cast<size_t>(i) + static_cast<size_t>(n.x) * static_cast<size_t>(k)])
                s.v.at(i, 0, k) = 0.0f;
    const size_t nx = static_cast<size_t>(n.x), nxy = nx * static_cast<size_t>(n.y);
    for (size_t c : solidCells_) {
        const int i = static_cast<int>(c % nx), j = static_cast<int>(c / nx % static_cast<size_t>(n.y)),
                  k = static_cast<int>(c / nxy);
        s.temperature.v[c] = params_.ambient;
        s.fuel.v[c] = 0.0f, s.soot.v[c] = 0.0f, s.pressure.v[c] = 0.0f;
        if (!s.mixture.v.empty()) s.mixture.v[c] = 0.0f;
        s.u.at(i, j, k) = s.u.at(i + 1, j, k) = 0.0f;
        s.v.at(i, j, k) = s.v.at(i, j + 1, k) = 0.0f;
        s.w.at(i, j, k) = s.w.at(i, j, k + 1) = 0.0f;
    }
}

glm::vec3 FluidSim::local(const glm::vec3& p) const { return (p - state_.origin) / state_.h; }

// Velocity at a point in cells (the grid's own units), trilinear from each face field.
glm::vec3 FluidSim::velocityInCells(const glm::vec3& g) const {
    return {sampleField(state_.u, g, kFaceX), sampleField(state_.v, g, kFaceY), sampleField(state_.w, g, kFaceZ)};
}

glm::vec3 FluidSim::velocityAt(const glm::vec3& p) const {
    const glm::vec3 g = local(p);
    if (glm::any(glm::lessThan(g, glm::vec3(0.0f))) || glm::any(glm::greaterThan(g, glm::vec3(state_.n))))
        return glm::vec3(0.0f);
    return velocityInCells(g);
}

float FluidSim::temperatureAt(const glm::vec3& p) const {
    const glm::vec3 g = local(p);
    if (glm::any(glm::lessThan(g, glm::vec3(0.0f))) || glm::any(glm::greaterThan(g, glm::vec3(state_.n))))
        return params_.ambient;
    return sampleField(state_.temperature, g, kCentre);
}

float FluidSim::sootAt(const glm::vec3& p) const {
    const glm::vec3 g = local(p);
    if (glm::any(glm::lessThan(g, glm::vec3(0.0f))) || glm::any(glm::greaterThan(g, glm::vec3(state_.n)))) return 0.0f;
    return sampleField(state_.soot, g, kCentre);
}

// ---- sources -----------------------------------------------------------------------------------------------

// The emitter's region this step: kSourceSamples births (the paper's shape, distribution, rotation and path,
// seeded by the step), binned into cells; a cell a sample falls in holds the source's fuel and heat, and its
// faces the mean velocity of the births in it (a face two such cells share: the later cell's).
SourceWrites FluidSim::sourceWrites() {
    const FluidState& s = state_;
    inflow_.assign(static_cast<size_t>(s.n.x) * static_cast<size_t>(s.n.z), 0);
    const sim::EmitterTransform transform = sim::emitterTransform(source_, time_);
    sim::Rng rng(source_.seed ^ 0x9e3779b97f4a7c15ull, steps_ * static_cast<uint64_t>(kSourceSamples));
    struct Hit {
        size_t cell;
        glm::ivec3 at;
        glm::vec3 velocity;
    };
    std::vector<Hit> hits;
    hits.reserve(kSourceSamples);
    for (int n = 0; n < kSourceSamples; ++n) {
        const sim::Birth b = sim::sampleBirth(source_, transform, rng);
        const glm::ivec3 c(glm::floor(local(b.position)));
        if (glm::any(glm::lessThan(c, glm::ivec3(0))) || glm::any(glm::greaterThanEqual(c, s.n))) continue;
        const size_t cell = s.temperature.index(c.x, c.y, c.z);
        if (s.solid[cell]) continue;
        hits.push_back({cell, c, b.velocity});
    }
    std::sort(hits.begin(), hits.end(), [](const Hit& a, const Hit& b) { return a.cell < b.cell; });
    SourceWrites out;
    const std::array<const Field*, 3> fields{&s.u, &s.v, &s.w};
    const auto face = [&](uint32_t field, int x, int y, int z, float value) {
        const Field& f = *fields[field];
        if (x < f.n.x && y < f.n.y && z < f.n.z)
            out.faces.push_back({field, static_cast<uint32_t>(f.index(x, y, z)), value});
    };
    for (size_t first = 0; first < hits.size();) {
        size_t last = first;
        glm::vec3 mean(0.0f);
        while (last < hits.size() && hits[last].cell == hits[first].cell) mean += hits[last++].velocity;
        mean /= static_cast<float>(last - first);
        const glm::ivec3 c = hits[first].at;
        out.cells.push_back(static_cast<uint32_t>(hits[first].cell));
        face(0, c.x, c.y, c.z, mean.x), face(0, c.x + 1, c.y, c.z, mean.x);
        face(1, c.x, c.y, c.z, mean.y);  // on the floor: the fuel's surface blowing the gas in
        if (c.y == 0) inflow_[static_cast<size_t>(c.x) + static_cast<size_t>(s.n.x) * static_cast<size_t>(c.z)] = 1;
        face(1, c.x, c.y + 1, c.z, mean.y);
        face(2, c.x, c.y, c.z, mean.z), face(2, c.x, c.y, c.z + 1, mean.z);
        first = last;
    }
    // Each face once, the last value written to it.
    const auto key = [](const SourceWrites::Face& f) { return std::pair(f.field, f.index); };
    std::stable_sort(out.faces.begin(), out.faces.end(), [&](const auto& a, const auto& b) { return key(a) < key(b); });
    std::vector<SourceWrites::Face> unique;
    unique.reserve(out.faces.size());
    for (size_t i = 0; i < out.faces.size(); ++i)
        if (i + 1 == out.faces.size() || key(out.faces[i]) != key(out.faces[i + 1])) unique.push_back(out.faces[i]);
    out.faces = std::move(unique);
    return out;
}

void FluidSim::addSources(float dt) {
    if (params_.combustion == Combustion::Mixing) return feedBurner(dt);
    if (params_.sourceFuel <= 0.0f && params_.sourceTemperature <= params_.ambient) return;  // the source is off
    FluidState& s = state_;
    const SourceWrites w = sourceWrites();
    for (uint32_t c : w.cells) {
        s.fuel.v[c] = std::max(s.fuel.v[c], params_.sourceFuel);
        s.temperature.v[c] = std::max(s.temperature.v[c], params_.sourceTemperature);
    }
    const std::array<Field*, 3> fields{&s.u, &s.v, &s.w};
    for (const SourceWrites::Face& f : w.faces) fields[f.field]->v[f.index] = f.value;
    enforceSolids();
}

// ---- forces ------------------------------------------------------------------------------------------------

// Boussinesq buoyancy on the y faces between two fluid cells (the wall's stay at rest), from their mean temperature;
// the top face of the top cell (open air above) from the cell's own.
void FluidSim::addBuoyancy(float dt) {
    FluidState& s = state_;
    const float k = dt * params_.buoyancy * kGravity / params_.ambient;
    const float ambient = params_.ambient;
    forRows(*pool_, s.v.n, [&](int j, int kk) {
        if (j == 0) return;  // the floor
        const int below = j - 1, above = std::min(j, s.n.y - 1);
        for (int i = 0; i < s.n.x; ++i) {
            if (s.isSolid(i, below, kk) || s.isSolid(i, above, kk)) continue;
            const float t = j == s.n.y ? s.temperature.at(i, below, kk)
                                       : 0.5f * (s.temperature.at(i, j, kk) + s.temperature.at(i, below, kk));
            s.v.at(i, j, kk) += k * (t - ambient);
        }
    });
}

// The curl of the velocity at each cell's centre (central differences of the centre velocities, one-sided at the
// grid's ends), 1/s, into curl_.
void FluidSim::vorticity() {
    const FluidState& s = state_;
    const glm::ivec3 n = s.n;
    centre_.resize(s.temperature.v.size()), curl_.resize(centre_.size());
    forRows(*pool_, n, [&](int j, int k) {  // each cell's velocity: the mean of its two faces per axis
        for (int i = 0; i < n.x; ++i)
            centre_[s.temperature.index(i, j, k)] =
                0.5f * glm::vec3(s.u.at(i, j, k) + s.u.at(i + 1, j, k), s.v.at(i, j, k) + s.v.at(i, j + 1, k),
                                 s.w.at(i, j, k) + s.w.at(i, j, k + 1));
    });
    const auto d = [&](int i, int j, int k, int axis) {  // d(centre velocity)/d(axis), per metre
        glm::ivec3 a(i, j, k), b(i, j, k);
        a[axis] = std::max(a[axis] - 1, 0), b[axis] = std::min(b[axis] + 1, n[axis] - 1);
        const float span = static_cast<float>(b[axis] - a[axis]) * s.h;
        if (span <= 0.0f) return glm::vec3(0.0f);
        return (centre_[s.temperature.index(b.x, b.y, b.z)] - centre_[s.temperature.index(a.x, a.y, a.z)]) / span;
    };
    forRows(*pool_, n, [&](int j, int k) {
        for (int i = 0; i < n.x; ++i) {
            const glm::vec3 dx = d(i, j, k, 0), dy = d(i, j, k, 1), dz = d(i, j, k, 2);
            curl_[s.temperature.index(i, j, k)] = {dy.z - dz.y, dz.x - dx.z, dx.y - dy.x};
        }
    });
}

// Vorticity confinement (Fedkiw, Stam and Jensen 2001): f = epsilon h (N x omega), N the unit gradient of
// |omega|, at the cell centres, added to each face as the mean of its two cells'.
void FluidSim::confineVorticity(float dt) {
    if (params_.vorticity <= 0.0f) return;
    FluidState& s = state_;
    const glm::ivec3 n = s.n;
    vorticity();
    force_.assign(curl_.size(), glm::vec3(0.0f));
    const auto mag = [&](int i, int j, int k) {
        i = std::clamp(i, 0, n.x - 1), j = std::clamp(j, 0, n.y - 1), k = std::clamp(k, 0, n.z - 1);
        return glm::length(curl_[s.temperature.index(i, j, k)]);
    };
    forRows(*pool_, n, [&](int j, int k) {
        for (int i = 0; i < n.x; ++i) {
            const glm::vec3 grad(mag(i + 1, j, k) - mag(i - 1, j, k), mag(i, j + 1, k) - mag(i, j - 1, k),
                                 mag(i, j, k + 1) - mag(i, j, k - 1));
            const float len = glm::length(grad);
            if (len < 1e-12f) continue;
            const size_t c = s.temperature.index(i, j, k);
            force_[c] = params_.vorticity * s.h * glm::cross(grad / len, curl_[c]);
        }
    });
    const auto f = [&](int i, int j, int k) { return force_[s.temperature.index(i, j, k)]; };
    forRows(*pool_, n, [&](int j, int k) {
        for (int i = 0; i < n.x; ++i) {
            if (i > 0) s.u.at(i, j, k) += dt * 0.5f * (f(i - 1, j, k).x + f(i, j, k).x);
            if (j > 0) s.v.at(i, j, k) += dt * 0.5f * (f(i, j - 1, k).y + f(i, j, k).y);
            if (k > 0) s.w.at(i, j, k) += dt * 0.5f * (f(i, j, k - 1).z + f(i, j, k).z);
        }
    });
}

void FluidSim::applyForces(float dt) {
    addBuoyancy(dt);
    confineVorticity(dt);
    enforceSolids();
}

// ---- combustion --------------------------------------------------------------------------------------------

namespace {
// Radiative cooling dT/dt = -c (T^4 - Ta^4) / (1000 K)^3 over dt, integrated exactly enough: four explicit
// quarter steps, each at most the way down to ambient (ta4: ambient^4).
float cooled(float t, float dt, double ambient, double ta4, double cooling) {
    double x = t;
    for (int q = 0; q < 4; ++q) {
        if (x <= ambient) break;
        const double rate = cooling * (x * x * x * x - ta4) / 1e9;
        x = std::max(ambient, x - rate * 0.25 * static_cast<double>(dt));
    }
    return static_cast<float>(x);
}
}  // namespace

void FluidSim::combust(float dt) {
    if (params_.combustion == Combustion::Mixing) return burnMixing(dt);
    FluidState& s = state_;
    const float toKwPerVolume = static_cast<float>(heatReleaseKw(1.0, params_.ambient, 1.0, dt));
    const float burnt = 1.0f - std::exp(-params_.burnRate * dt);
    const float keep = std::exp(-params_.sootDissipation * dt);
    const double ambient = params_.ambient, ta4 = std::pow(ambient, 4.0), cooling = params_.cooling;
    const double released = sumRows(*pool_, s.n, rowSums_, [&](int j, int k) {  // K over the cells
        double sum = 0.0;
        const size_t row = s.temperature.index(0, j, k);
        for (size_t c = row; c < row + static_cast<size_t>(s.n.x); ++c) {
            s.release.v[c] = 0.0f;
            if (s.solid[c]) continue;
            float& t = s.temperature.v[c];
            float& fuel = s.fuel.v[c];
            if (t > params_.ignition && fuel > 0.0f) {
                const float b = fuel * burnt;
                fuel -= b;
                t += params_.heat * b;
                s.soot.v[c] += params_.sootYield * b;
                sum += static_cast<double>(params_.heat * b);
                s.release.v[c] = toKwPerVolume * params_.heat * b;
            }
            t = cooled(t, dt, ambient, ta4, cooling);
            s.soot.v[c] *= keep;
        }
        return sum;
    });
    stats_.heatReleaseKw = heatReleaseKw(released, params_.ambient, s.h, dt);
}

// ---- projection --------------------------------------------------------------------------------------------
//
// The pressure p (times dt / density) that makes the velocity divergence-free (fluid/poisson.h): A p = b with
// b = -h^2 / dt div. After the solve each face between open cells loses dt / h times the pressure difference across
// it. The residual b - A p is, times -dt / h^2, the divergence left, so the solvers stop when
// rms(b - A p) <= tolerance x rms(b): the divergence's rms fell by that factor.

void FluidSim::buildDiagonal() {
    diagonal_ = Poisson(state_.n, state_.solid, false).diagonal();
    fluidCells_ =
        static_cast<double>(std::count_if(diagonal_.begin(), diagonal_.end(), [](float a) { return a > 0.0f; }));
}

// The divergence of the velocity at each cell (1/s), 0 in solid cells.
void FluidSim::divergence(std::vector<float>& out) {
    const FluidState& s = state_;
    out.resize(s.temperature.v.size());
    const float invH = 1.0f / s.h;
    forRows(*pool_, s.n, [&](int j, int k) {
        const size_t row = s.temperature.index(0, j, k);
        const float* u = &s.u.v[s.u.index(0, j, k)];
        const float* v0 = &s.v.v[s.v.index(0, j, k)];
        const float* v1 = &s.v.v[s.v.index(0, j + 1, k)];
        const float* w0 = &s.w.v[s.w.index(0, j, k)];
        const float* w1 = &s.w.v[s.w.index(0, j, k + 1)];
        for (int i = 0; i < s.n.x; ++i)
            out[row + i] = s.solid[row + i] ? 0.0f : (u[i + 1] - u[i] + v1[i] - v0[i] + w1[i] - w0[i]) * invH;
    });
}

// Each face loses dt / h times the pressure difference across it (p = 0 in the open air), but the floor's, which
// is a wall; the faces of solid cells are zeroed after (enforceSolids).
void FluidSim::subtractGradient(const std::vector<float>& p, float dt) {
    FluidState& s = state_;
    const glm::ivec3 n = s.n;
    const float k = dt / s.h;
    const Field& pf = s.pressure;
    forRows(*pool_, n, [&](int j, int kk) {
        const float* pc = &p[pf.index(0, j, kk)];
        float* u = &s.u.v[s.u.index(0, j, kk)];
        u[0] -= k * pc[0];
        for (int i = 1; i < n.x; ++i) u[i] -= k * (pc[i] - pc[i - 1]);
        u[n.x] += k * pc[n.x - 1];
        if (j > 0) {
            const float* below = &p[pf.index(0, j - 1, kk)];
            float* v = &s.v.v[s.v.index(0, j, kk)];
            for (int i = 0; i < n.x; ++i) v[i] -= k * (pc[i] - below[i]);
        }
        if (j == n.y - 1) {
            float* v = &s.v.v[s.v.index(0, n.y, kk)];
            for (int i = 0; i < n.x; ++i) v[i] += k * pc[i];
        }
        float* w = &s.w.v[s.w.index(0, j, kk)];
        const float* back = kk > 0 ? &p[pf.index(0, j, kk - 1)] : nullptr;
        for (int i = 0; i < n.x; ++i) w[i] -= k * (pc[i] - (back ? back[i] : 0.0f));
        if (kk == n.z - 1) {
            float* front = &s.w.v[s.w.index(0, j, n.z)];
            for (int i = 0; i < n.x; ++i) front[i] += k * pc[i];
        }
    });
}

void FluidSim::project(float dt) {
    FluidState& s = state_;
    enforceSolids();
    if (!poisson_) {
        const bool multigrid = params_.solver == Solver::Multigrid || params_.solver == Solver::Mgpcg;
        poisson_ = std::make_unique<Poisson>(s.n, s.solid, multigrid);
    }
    const double cells = std::max(poisson_->fluidCells(), 1.0);
    std::vector<float>& div = divergence_;
    // What the projection leaves: the divergence the heat release asks for (--combustion mixing), else none.
    const auto excess = [&] {
        divergence(div);
        if (dilatation_.size() == div.size())
            for (size_t c = 0; c < div.size(); ++c) div[c] -= dilatation_[c];
    };
    excess();
    const auto rmsOf = [&](const std::vector<float>& x) {
        return std::sqrt(sumRows(*pool_, s.n, rowSums_,
                                 [&](int j, int k) {
                                     const size_t row = s.temperature.index(0, j, k);
                                     double sum = 0.0;
                                     for (size_t c = row; c < row + static_cast<size_t>(s.n.x); ++c)
                                         sum += static_cast<double>(x[c]) * x[c];
                                     return sum;
                                 }) /
                         cells);
    };
    const double before = rmsOf(div);
    rhs_.resize(div.size());
    const float scale = -s.h * s.h / dt;
    for (size_t c = 0; c < div.size(); ++c) rhs_[c] = scale * div[c];
    const double target = static_cast<double>(params_.tolerance) * before * static_cast<double>(-scale);
    const Poisson::Result solved =
        poisson_->solve(params_.solver, rhs_, s.pressure.v, target, iterationBound(params_), *pool_);
    subtractGradient(s.pressure.v, dt);
    enforceSolids();
    excess();
    stats_.iterations = solved.iterations;
    stats_.operations = solved.flops;
    stats_.divergenceBefore = before;
    stats_.divergenceAfter = rmsOf(div);
}

// ---- the step ----------------------------------------------------------------------------------------------

float FluidSim::fastestFace() const {
    float m = 0.0f;
    for (const Field* f : {&state_.u, &state_.v, &state_.w})
        for (float x : f->v) m = std::max(m, std::abs(x));
    return m;
}

void FluidSim::clampSpeeds(float limit) {
    for (Field* f : {&state_.u, &state_.v, &state_.w})
        for (float& x : f->v) x = std::clamp(x, -limit, limit);
}

void FluidSim::step(float dt) {
    stats_.ms.fill(0.0);
    stats_.maxSpeed = fastestFace();
    const float cellsPerStep = stats_.maxSpeed * dt / state_.h;
    // Bounded as a float first: a speed that overflowed (an infinity, a NaN) takes the most sub-steps.
    const float wanted = std::ceil(cellsPerStep / params_.maxCfl);
    const int substeps =
        wanted < static_cast<float>(kMaxSubsteps) ? std::max(1, static_cast<int>(wanted)) : kMaxSubsteps;
    stats_.substeps = substeps;
    const float sub = dt / static_cast<float>(substeps);
    if (cellsPerStep > params_.maxCfl * static_cast<float>(kMaxSubsteps)) clampSpeeds(params_.maxCfl * state_.h / sub);
    const auto timed = [&](Pass pass, auto&& run) {
        const auto t0 = Clock::now();
        run();
        finishPass();
        stats_.ms[static_cast<size_t>(pass)] += msSince(t0);
    };
    double released = 0.0;  // kW, over the sub-steps
    for (int n = 0; n < substeps; ++n) {
        timed(Pass::Sources, [&] { addSources(sub); });
        timed(Pass::Advect, [&] { advect(sub); });
        timed(Pass::Forces, [&] { applyForces(sub); });
        timed(Pass::Combust, [&] { combust(sub); });
        released += stats_.heatReleaseKw;
        timed(Pass::Project, [&] { project(sub); });
        time_ += sub;
    }
    stats_.heatReleaseKw = released / substeps;
    ++steps_;
    timed(Pass::Readback, [&] { afterStep(); });
}

// ---- the memory floor -------------------------------------------------------------------------------------

double passBytesPerCell(Pass pass, const FluidParams& p, int iterations) {
    switch (pass) {
    case Pass::Sources: return 0.0;  // 4096 births into the few cells they fall in
    case Pass::Advect:
        // Each of the four places (centres, three kinds of face) reads the velocity (12) for its trace; its fields
        // (24 bytes over the four places) are read and the traced values written, with MacCormack's limits (two
        // more). MacCormack's second loop reads the velocity again, the traced values (about the forward trace and
        // at the sample), the fields and the limits, and writes the corrected values.
        return p.advection == Advection::MacCormack ? 4 * 24 + 10 * 24 : 4 * 12 + 2 * 24;
    case Pass::Forces:  // buoyancy: T, the mask, v; confinement: centre velocities, curl, force, the faces
        return 13.0 + (p.vorticity > 0.0f ? 120.0 : 0.0);
    case Pass::Combust: return 25.0;  // T, fuel, soot read and written, the mask
    case Pass::Project: {
        // Fixed: the divergence twice (u, v, w, the mask, out), its rms twice, the right side, the padded copies
        // in and out, the gradient (p, u, v, w). Per iteration, as poisson.cpp's loops do it.
        constexpr double fixed = 34 + 8 + 8 + 20 + 8 + 28;
        constexpr double vcycle = (4 * 2 * 14 + 20 + 4 + 12 + 4) * 8.0 / 7.0 + 16;  // sweeps, residual, transfers
        const double perIteration = p.solver == Solver::Jacobi      ? 16 + 24 / 10.0
                                    : p.solver == Solver::Pcg       ? 80
                                    : p.solver == Solver::Multigrid ? 24 + 12 + vcycle
                                                                    : 72 + vcycle;
        return fixed + perIteration * (iterations + (p.solver == Solver::Jacobi ? 0 : 1));
    }
    case Pass::Readback:
    case Pass::Count: return 0.0;
    }
    return 0.0;
}

// ---- measures ----------------------------------------------------------------------------------------------

namespace {
double dot(const std::vector<float>& a, const std::vector<float>& b) {
    double sum = 0.0;
    for (size_t i = 0; i < a.size(); ++i) sum += static_cast<double>(a[i]) * b[i];
    return sum;
}
std::vector<float> divergenceOf(const FluidState& s) {
    std::vector<float> out(s.temperature.v.size(), 0.0f);
    size_t c = 0;
    for (int k = 0; k < s.n.z; ++k)
        for (int j = 0; j < s.n.y; ++j)
            for (int i = 0; i < s.n.x; ++i, ++c)
                if (!s.solid[c])
                    out[c] = (s.u.at(i + 1, j, k) - s.u.at(i, j, k) + s.v.at(i, j + 1, k) - s.v.at(i, j, k) +
                              s.w.at(i, j, k + 1) - s.w.at(i, j, k)) /
                             s.h;
    return out;
}
double fluidCount(const FluidState& s) {
    return static_cast<double>(std::count(s.solid.begin(), s.solid.end(), uint8_t{0}));
}
}  // namespace

double divergenceRms(const FluidState& s) {
    const std::vector<float> d = divergenceOf(s);
    return std::sqrt(dot(d, d) / std::max(fluidCount(s), 1.0));
}

double divergenceMax(const FluidState& s) {
    double m = 0.0;
    for (float x : divergenceOf(s)) m = std::max(m, static_cast<double>(std::abs(x)));
    return m;
}

double enstrophy(const FluidState& s) {
    const glm::ivec3 n = s.n;
    const auto centre = [&](int i, int j, int k) {
        i = std::clamp(i, 0, n.x - 1), j = std::clamp(j, 0, n.y - 1), k = std::clamp(k, 0, n.z - 1);
        return 0.5f * glm::vec3(s.u.at(i, j, k) + s.u.at(i + 1, j, k), s.v.at(i, j, k) + s.v.at(i, j + 1, k),
                                s.w.at(i, j, k) + s.w.at(i, j, k + 1));
    };
    double sum = 0.0;
    const float twoH = 2.0f * s.h;
    for (int k = 0; k < n.z; ++k)
        for (int j = 0; j < n.y; ++j)
            for (int i = 0; i < n.x; ++i) {
                const glm::vec3 dx = (centre(i + 1, j, k) - centre(i - 1, j, k)) / twoH;
                const glm::vec3 dy = (centre(i, j + 1, k) - centre(i, j - 1, k)) / twoH;
                const glm::vec3 dz = (centre(i, j, k + 1) - centre(i, j, k - 1)) / twoH;
                const glm::vec3 curl(dy.z - dz.y, dz.x - dx.z, dx.y - dy.x);
                sum += static_cast<double>(glm::dot(curl, curl));
            }
    return sum * static_cast<double>(s.h * s.h * s.h);
}

double total(const FluidState& s, const Field& f) {
    double sum = 0.0;
    for (size_t c = 0; c < f.v.size(); ++c)
        if (!s.solid[c]) sum += f.v[c];
    return sum * static_cast<double>(s.h * s.h * s.h);
}

}  // namespace firelab::fluid

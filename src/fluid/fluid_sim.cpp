#include "fluid/fluid_sim.h"

#include <algorithm>
#include <chrono>
#include <cmath>

#include <glm/geometric.hpp>

#include "core/error.h"
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
    const glm::vec3 c = glm::clamp(g, glm::vec3(0.0f), glm::vec3(hi));
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

// The 8 samples around `local` (as sampleField takes them): their least and largest (the MacCormack limiter's range).
glm::vec2 sampleRange(const Field& f, const glm::vec3& local, const glm::vec3& offset) {
    const glm::vec3 g = local - offset;
    const glm::ivec3 hi = f.n - 1;
    const glm::vec3 c = glm::clamp(g, glm::vec3(0.0f), glm::vec3(hi));
    const glm::ivec3 i0 = glm::min(glm::ivec3(glm::floor(c)), glm::max(hi - 1, glm::ivec3(0)));
    const glm::ivec3 i1 = glm::min(i0 + 1, hi);
    float lo = f.at(i0.x, i0.y, i0.z), up = lo;
    for (int z : {i0.z, i1.z})
        for (int y : {i0.y, i1.y})
            for (int x : {i0.x, i1.x}) lo = std::min(lo, f.at(x, y, z)), up = std::max(up, f.at(x, y, z));
    return {lo, up};
}


}  // namespace

double FluidSim::bytesFor(const FluidParams& p) {
    const double cells = static_cast<double>(p.grid.x) * p.grid.y * p.grid.z;
    const double faces = static_cast<double>(p.grid.x + 1) * p.grid.y * p.grid.z +
                         static_cast<double>(p.grid.x) * (p.grid.y + 1) * p.grid.z +
                         static_cast<double>(p.grid.x) * p.grid.y * (p.grid.z + 1);
    // State: 3 face fields, 4 scalars, the solid mask. Scratch: the advected copies (3 faces, 3 scalars, the
    // MacCormack pass's 2 more of each), the divergence and 4 solver vectors, the vorticity (4 per cell).
    return faces * 4.0 * (1 + 1 + 2) + cells * (4.0 * (4 + 3 + 6 + 1 + 4 + 4) + 1.0);
}

FluidSim::FluidSim(const FluidParams& params, const sim::FireParams& source) : params_(params), source_(source) {
    validate(params_, source_, 1.0f / 240.0f);
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
    s.solid.assign(s.temperature.v.size(), 0);
    if (params_.obstacles == Obstacles::Logs) markLogs();
    enforceSolids();
}

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
    for (int k = 0; k < n.z; ++k)
        for (int j = 0; j < n.y; ++j)
            for (int i = 0; i < n.x; ++i) {
                if (!s.isSolid(i, j, k)) continue;
                s.temperature.at(i, j, k) = params_.ambient;
                s.fuel.at(i, j, k) = 0.0f, s.soot.at(i, j, k) = 0.0f, s.pressure.at(i, j, k) = 0.0f;
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

void FluidSim::addSources(float) {
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

// ---- advection ---------------------------------------------------------------------------------------------

// Where the fluid at `g` (cells) was dt ago: an RK2 (midpoint) back-trace through the velocity.
glm::vec3 FluidSim::backTrace(const glm::vec3& g, float dtCells) const {
    const glm::vec3 mid = g - 0.5f * dtCells * velocityInCells(g);
    return g - dtCells * velocityInCells(mid);
}

// One field carried by the velocity: each sample takes the value at its back-traced point; with MacCormack,
// corrected by half the error a forward trace of the result makes, and clamped to the values around the
// back-traced point (Selle et al. 2008: no new extremum). Outside the grid's open ends the air is `outside`.
void FluidSim::advectField(const Field& from, Field& to, const glm::vec3& offset, float dtCells, float outside,
                           bool openEnds) {
    const glm::ivec3 n = from.n;
    const glm::vec3 top = glm::vec3(state_.n);
    const auto traced = [&](int i, int j, int k) { return backTrace(glm::vec3(i, j, k) + offset, dtCells); };
    const auto valueAt = [&](const Field& f, const glm::vec3& g) {
        if (openEnds && (g.x < 0.0f || g.x > top.x || g.z < 0.0f || g.z > top.z || g.y > top.y)) return outside;
        return sampleField(f, g, offset);
    };
    for (int k = 0; k < n.z; ++k)
        for (int j = 0; j < n.y; ++j)
            for (int i = 0; i < n.x; ++i) to.at(i, j, k) = valueAt(from, traced(i, j, k));
    if (params_.advection != Advection::MacCormack) return;
    // The forward trace of the semi-Lagrangian result, back to where each sample came from.
    Field& back = scratch_;
    back = to;
    for (int k = 0; k < n.z; ++k)
        for (int j = 0; j < n.y; ++j)
            for (int i = 0; i < n.x; ++i) {
                const glm::vec3 g = glm::vec3(i, j, k) + offset;
                const glm::vec3 ahead = g + dtCells * velocityInCells(g + 0.5f * dtCells * velocityInCells(g));
                back.at(i, j, k) = valueAt(to, ahead);
            }
    for (int k = 0; k < n.z; ++k)
        for (int j = 0; j < n.y; ++j)
            for (int i = 0; i < n.x; ++i) {
                const glm::vec3 g = traced(i, j, k);
                const float sl = to.at(i, j, k);
                const float corrected = sl + 0.5f * (from.at(i, j, k) - back.at(i, j, k));
                const bool outsideOpen =
                    openEnds && (g.x < 0.0f || g.x > top.x || g.z < 0.0f || g.z > top.z || g.y > top.y);
                if (outsideOpen) continue;
                const glm::vec2 range = sampleRange(from, g, offset);
                to.at(i, j, k) = std::clamp(corrected, range.x, range.y);
            }
}

void FluidSim::advect(float dt) {
    FluidState& s = state_;
    const float dtCells = dt / s.h;
    Field u = s.u, v = s.v, w = s.w, t = s.temperature, fuel = s.fuel, soot = s.soot;
    advectField(s.u, u, kFaceX, dtCells, 0.0f, true);
    advectField(s.v, v, kFaceY, dtCells, 0.0f, true);
    advectField(s.w, w, kFaceZ, dtCells, 0.0f, true);
    advectField(s.temperature, t, kCentre, dtCells, params_.ambient, true);
    advectField(s.fuel, fuel, kCentre, dtCells, 0.0f, true);
    advectField(s.soot, soot, kCentre, dtCells, 0.0f, true);
    s.u = std::move(u), s.v = std::move(v), s.w = std::move(w);
    s.temperature = std::move(t), s.fuel = std::move(fuel), s.soot = std::move(soot);
    enforceSolids();
}

// ---- forces ------------------------------------------------------------------------------------------------

// Boussinesq buoyancy on the y faces between two fluid cells (the wall's stay at rest), from their mean temperature.
void FluidSim::addBuoyancy(float dt) {
    FluidState& s = state_;
    const float k = dt * params_.buoyancy * kGravity / params_.ambient;
    for (int kk = 0; kk < s.n.z; ++kk)
        for (int j = 1; j < s.n.y; ++j)
            for (int i = 0; i < s.n.x; ++i) {
                if (s.isSolid(i, j, kk) || s.isSolid(i, j - 1, kk)) continue;
                const float t = 0.5f * (s.temperature.at(i, j, kk) + s.temperature.at(i, j - 1, kk));
                s.v.at(i, j, kk) += k * (t - params_.ambient);
            }
    // The top face of the top cell: open air above, the cell's own temperature.
    for (int kk = 0; kk < s.n.z; ++kk)
        for (int i = 0; i < s.n.x; ++i)
            if (!s.isSolid(i, s.n.y - 1, kk))
                s.v.at(i, s.n.y, kk) += k * (s.temperature.at(i, s.n.y - 1, kk) - params_.ambient);
}

// The velocity at each cell's centre (the mean of its two faces per axis).
glm::vec3 FluidSim::centreVelocity(int i, int j, int k) const {
    const FluidState& s = state_;
    return 0.5f * glm::vec3(s.u.at(i, j, k) + s.u.at(i + 1, j, k), s.v.at(i, j, k) + s.v.at(i, j + 1, k),
                            s.w.at(i, j, k) + s.w.at(i, j, k + 1));
}

// The curl of the velocity at each cell's centre (central differences of the centre velocities, one-sided at
// the grid's ends), 1/s.
std::vector<glm::vec3> FluidSim::vorticity() const {
    const FluidState& s = state_;
    const glm::ivec3 n = s.n;
    std::vector<glm::vec3> centre(s.temperature.v.size()), curl(centre.size());
    for (int k = 0; k < n.z; ++k)
        for (int j = 0; j < n.y; ++j)
            for (int i = 0; i < n.x; ++i) centre[s.temperature.index(i, j, k)] = centreVelocity(i, j, k);
    const auto d = [&](int i, int j, int k, int axis) {  // d(centre velocity)/d(axis), per metre
        glm::ivec3 a(i, j, k), b(i, j, k);
        a[axis] = std::max(a[axis] - 1, 0), b[axis] = std::min(b[axis] + 1, n[axis] - 1);
        const float span = static_cast<float>(b[axis] - a[axis]) * s.h;
        if (span <= 0.0f) return glm::vec3(0.0f);
        return (centre[s.temperature.index(b.x, b.y, b.z)] - centre[s.temperature.index(a.x, a.y, a.z)]) / span;
    };
    for (int k = 0; k < n.z; ++k)
        for (int j = 0; j < n.y; ++j)
            for (int i = 0; i < n.x; ++i) {
                const glm::vec3 dx = d(i, j, k, 0), dy = d(i, j, k, 1), dz = d(i, j, k, 2);
                curl[s.temperature.index(i, j, k)] = {dy.z - dz.y, dz.x - dx.z, dx.y - dy.x};
            }
    return curl;
}

// Vorticity confinement (Fedkiw, Stam and Jensen 2001): f = epsilon h (N x omega), N the unit gradient of
// |omega|, at the cell centres, added to each face as the mean of its two cells'.
void FluidSim::confineVorticity(float dt) {
    if (params_.vorticity <= 0.0f) return;
    FluidState& s = state_;
    const glm::ivec3 n = s.n;
    const std::vector<glm::vec3> curl = vorticity();
    std::vector<glm::vec3> force(curl.size(), glm::vec3(0.0f));
    const auto mag = [&](int i, int j, int k) {
        i = std::clamp(i, 0, n.x - 1), j = std::clamp(j, 0, n.y - 1), k = std::clamp(k, 0, n.z - 1);
        return glm::length(curl[s.temperature.index(i, j, k)]);
    };
    for (int k = 0; k < n.z; ++k)
        for (int j = 0; j < n.y; ++j)
            for (int i = 0; i < n.x; ++i) {
                const glm::vec3 grad(mag(i + 1, j, k) - mag(i - 1, j, k), mag(i, j + 1, k) - mag(i, j - 1, k),
                                     mag(i, j, k + 1) - mag(i, j, k - 1));
                const float len = glm::length(grad);
                if (len < 1e-12f) continue;
                const size_t c = s.temperature.index(i, j, k);
                force[c] = params_.vorticity * s.h * glm::cross(grad / len, curl[c]);
            }
    const auto f = [&](int i, int j, int k) { return force[s.temperature.index(i, j, k)]; };
    for (int k = 0; k < n.z; ++k)
        for (int j = 0; j < n.y; ++j)
            for (int i = 0; i < n.x; ++i) {
                if (i > 0) s.u.at(i, j, k) += dt * 0.5f * (f(i - 1, j, k).x + f(i, j, k).x);
                if (j > 0) s.v.at(i, j, k) += dt * 0.5f * (f(i, j - 1, k).y + f(i, j, k).y);
                if (k > 0) s.w.at(i, j, k) += dt * 0.5f * (f(i, j, k - 1).z + f(i, j, k).z);
            }
}

void FluidSim::applyForces(float dt) {
    addBuoyancy(dt);
    confineVorticity(dt);
    enforceSolids();
}

// ---- combustion --------------------------------------------------------------------------------------------

// Radiative cooling dT/dt = -c (T^4 - Ta^4) / (1000 K)^3 over dt, integrated exactly enough: four explicit
// quarter steps, each at most the way down to ambient.
float FluidSim::cooled(float t, float dt) const {
    const double ta4 = std::pow(static_cast<double>(params_.ambient), 4.0);
    double x = t;
    for (int q = 0; q < 4; ++q) {
        if (x <= params_.ambient) break;
        const double rate = static_cast<double>(params_.cooling) * (x * x * x * x - ta4) / 1e9;
        x = std::max(static_cast<double>(params_.ambient), x - rate * 0.25 * static_cast<double>(dt));
    }
    return static_cast<float>(x);
}

void FluidSim::combust(float dt) {
    FluidState& s = state_;
    const float burnt = 1.0f - std::exp(-params_.burnRate * dt);
    const float keep = std::exp(-params_.sootDissipation * dt);
    double released = 0.0;  // K over the cells
    for (size_t c = 0; c < s.temperature.v.size(); ++c) {
        if (s.solid[c]) continue;
        float& t = s.temperature.v[c];
        float& fuel = s.fuel.v[c];
        if (t > params_.ignition && fuel > 0.0f) {
            const float b = fuel * burnt;
            fuel -= b;
            t += params_.heat * b;
            s.soot.v[c] += params_.sootYield * b;
            released += static_cast<double>(params_.heat * b);
        }
        t = cooled(t, dt);
        s.soot.v[c] *= keep;
    }
    stats_.heatReleaseKw = heatReleaseKw(released, params_.ambient, s.h, dt);
}

// ---- projection --------------------------------------------------------------------------------------------
//
// The pressure p (times dt / density) that makes the velocity divergence-free: for each fluid cell c,
//   sum over its open neighbours n of (p_c - p_n) = -h^2 / dt div_c,
// a neighbour open when it is a fluid cell or the open air beyond the sides and the top (p = 0 there); solid
// cells and the floor are walls (no term: their faces carry no flow). The matrix A is symmetric positive
// definite; b = -h^2 / dt div. After the solve each face between open cells loses dt / h times the pressure
// difference across it. The residual b - A p is, times -dt / h^2, the divergence left, so the solvers stop when
// rms(b - A p) <= tolerance x rms(b): the divergence's rms fell by that factor.

// Each fluid cell's open neighbours (A's diagonal); 0 for solid cells, which are not unknowns.
void FluidSim::buildDiagonal() {
    const FluidState& s = state_;
    const glm::ivec3 n = s.n;
    diagonal_.assign(s.temperature.v.size(), 0.0f);
    const auto open = [&](int i, int j, int k) {
        if (j < 0) return false;                                              // the floor
        if (i < 0 || i >= n.x || k < 0 || k >= n.z || j >= n.y) return true;  // open air
        return !s.isSolid(i, j, k);
    };
    for (int k = 0; k < n.z; ++k)
        for (int j = 0; j < n.y; ++j)
            for (int i = 0; i < n.x; ++i) {
                if (s.isSolid(i, j, k)) continue;
                diagonal_[s.temperature.index(i, j, k)] =
                    static_cast<float>(open(i - 1, j, k) + open(i + 1, j, k) + open(i, j - 1, k) + open(i, j + 1, k) +
                                       open(i, j, k - 1) + open(i, j, k + 1));
            }
    fluidCells_ =
        static_cast<double>(std::count_if(diagonal_.begin(), diagonal_.end(), [](float a) { return a > 0.0f; }));
}

// The sum of x over the fluid neighbours of cell (i, j, k) (open air and walls add nothing).
float FluidSim::neighbourSum(const std::vector<float>& x, int i, int j, int k) const {
    const glm::ivec3 n = state_.n;
    const size_t c = state_.temperature.index(i, j, k);
    const size_t sx = 1, sy = static_cast<size_t>(n.x), sz = static_cast<size_t>(n.x) * static_cast<size_t>(n.y);
    float sum = 0.0f;  // solid cells hold x = 0, so they add nothing either
    if (i > 0) sum += x[c - sx];
    if (i + 1 < n.x) sum += x[c + sx];
    if (j > 0) sum += x[c - sy];
    if (j + 1 < n.y) sum += x[c + sy];
    if (k > 0) sum += x[c - sz];
    if (k + 1 < n.z) sum += x[c + sz];
    return sum;
}

// out = A x over the fluid cells.
void FluidSim::applyMatrix(const std::vector<float>& x, std::vector<float>& out) const {
    const glm::ivec3 n = state_.n;
    size_t c = 0;
    for (int k = 0; k < n.z; ++k)
        for (int j = 0; j < n.y; ++j)
            for (int i = 0; i < n.x; ++i, ++c)
                out[c] = diagonal_[c] > 0.0f ? diagonal_[c] * x[c] - neighbourSum(x, i, j, k) : 0.0f;
}

// The divergence of the velocity at each cell (1/s), 0 in solid cells.
void FluidSim::divergence(std::vector<float>& out) const {
    const FluidState& s = state_;
    const glm::ivec3 n = s.n;
    out.assign(s.temperature.v.size(), 0.0f);
    size_t c = 0;
    for (int k = 0; k < n.z; ++k)
        for (int j = 0; j < n.y; ++j)
            for (int i = 0; i < n.x; ++i, ++c)
                if (!s.solid[c])
                    out[c] = (s.u.at(i + 1, j, k) - s.u.at(i, j, k) + s.v.at(i, j + 1, k) - s.v.at(i, j, k) +
                              s.w.at(i, j, k + 1) - s.w.at(i, j, k)) /
                             s.h;
}

namespace {
double dot(const std::vector<float>& a, const std::vector<float>& b) {
    double sum = 0.0;
    for (size_t i = 0; i < a.size(); ++i) sum += static_cast<double>(a[i]) * b[i];
    return sum;
}
}  // namespace

// Jacobi: p_c <- (b_c + the fluid neighbours' p) / A_cc, all cells at once; the residual checked every
// kJacobiCheck iterations (its cost counted).
int FluidSim::solveJacobi(const std::vector<float>& b, std::vector<float>& p, double target, double& flops) {
    constexpr int kJacobiCheck = 10;
    const glm::ivec3 n = state_.n;
    std::vector<float>& next = solverVectors_[0];
    std::vector<float>& r = solverVectors_[1];
    next.assign(p.size(), 0.0f);
    r.assign(p.size(), 0.0f);
    const double cells = fluidCells_;
    int it = 0;
    while (it < params_.iterations) {
        size_t c = 0;
        for (int k = 0; k < n.z; ++k)
            for (int j = 0; j < n.y; ++j)
                for (int i = 0; i < n.x; ++i, ++c)
                    next[c] = diagonal_[c] > 0.0f ? (b[c] + neighbourSum(p, i, j, k)) / diagonal_[c] : 0.0f;
        p.swap(next);
        ++it;
        flops += cells * kJacobiFlopsPerCell;
        if (it % kJacobiCheck == 0 || it == params_.iterations) {
            applyMatrix(p, r);
            double rr = 0.0;
            for (size_t q = 0; q < r.size(); ++q) {
                const double e = static_cast<double>(b[q]) - r[q];
                rr += e * e;
            }
            flops += cells * (kJacobiFlopsPerCell + 3.0);
            if (std::sqrt(rr / cells) <= target) break;
        }
    }
    return it;
}

// Conjugate gradients preconditioned by A's diagonal, from the last step's pressure.
int FluidSim::solvePcg(const std::vector<float>& b, std::vector<float>& p, double target, double& flops) {
    std::vector<float>& r = solverVectors_[0];
    std::vector<float>& z = solverVectors_[1];
    std::vector<float>& d = solverVectors_[2];
    std::vector<float>& q = solverVectors_[3];
    const size_t size = p.size();
    r.resize(size), z.resize(size), d.resize(size), q.resize(size);
    const double cells = fluidCells_;
    applyMatrix(p, q);
    for (size_t c = 0; c < size; ++c) r[c] = b[c] - q[c];
    flops += cells * (kJacobiFlopsPerCell + 1.0);
    if (std::sqrt(dot(r, r) / cells) <= target) return 0;
    for (size_t c = 0; c < size; ++c) z[c] = diagonal_[c] > 0.0f ? r[c] / diagonal_[c] : 0.0f;
    d = z;
    double rz = dot(r, z);
    int it = 0;
    while (it < params_.iterations) {
        applyMatrix(d, q);
        const double dq = dot(d, q);
        if (dq <= 0.0) break;
        const float alpha = static_cast<float>(rz / dq);
        double rr = 0.0;
        for (size_t c = 0; c < size; ++c) {
            p[c] += alpha * d[c];
            r[c] -= alpha * q[c];
            rr += static_cast<double>(r[c]) * r[c];
        }
        ++it;
        flops += cells * kPcgFlopsPerCell;
        if (std::sqrt(rr / cells) <= target) break;
        for (size_t c = 0; c < size; ++c) z[c] = diagonal_[c] > 0.0f ? r[c] / diagonal_[c] : 0.0f;
        const double rzNext = dot(r, z);
        const float beta = static_cast<float>(rzNext / rz);
        rz = rzNext;
        for (size_t c = 0; c < size; ++c) d[c] = z[c] + beta * d[c];
    }
    return it;
}

// Each face between open cells loses dt / h times the pressure difference across it (p = 0 in the open air).
void FluidSim::subtractGradient(const std::vector<float>& p, float dt) {
    FluidState& s = state_;
    const glm::ivec3 n = s.n;
    const float k = dt / s.h;
    const auto pAt = [&](int i, int j, int kk) -> float {
        if (i < 0 || i >= n.x || kk < 0 || kk >= n.z || j >= n.y) return 0.0f;  // open air
        return p[s.temperature.index(i, j, kk)];
    };
    const auto wall = [&](int i, int j, int kk) {  // a cell whose faces carry no flow
        if (j < 0) return true;
        if (i < 0 || i >= n.x || kk < 0 || kk >= n.z || j >= n.y) return false;
        return s.isSolid(i, j, kk);
    };
    for (int kk = 0; kk < n.z; ++kk)
        for (int j = 0; j < n.y; ++j)
            for (int i = 0; i <= n.x; ++i)
                if (!wall(i - 1, j, kk) && !wall(i, j, kk)) s.u.at(i, j, kk) -= k * (pAt(i, j, kk) - pAt(i - 1, j, kk));
    for (int kk = 0; kk < n.z; ++kk)
        for (int j = 0; j <= n.y; ++j)
            for (int i = 0; i < n.x; ++i)
                if (!wall(i, j - 1, kk) && !wall(i, j, kk)) s.v.at(i, j, kk) -= k * (pAt(i, j, kk) - pAt(i, j - 1, kk));
    for (int kk = 0; kk <= n.z; ++kk)
        for (int j = 0; j < n.y; ++j)
            for (int i = 0; i < n.x; ++i)
                if (!wall(i, j, kk - 1) && !wall(i, j, kk)) s.w.at(i, j, kk) -= k * (pAt(i, j, kk) - pAt(i, j, kk - 1));
}

void FluidSim::project(float dt) {
    FluidState& s = state_;
    enforceSolids();
    if (diagonal_.empty()) buildDiagonal();
    std::vector<float>& div = divergence_;
    divergence(div);
    const double before = std::sqrt(dot(div, div) / std::max(fluidCells_, 1.0));
    std::vector<float>& b = rhs_;
    b.resize(div.size());
    const float scale = -s.h * s.h / dt;
    for (size_t c = 0; c < div.size(); ++c) b[c] = scale * div[c];
    const double target = static_cast<double>(params_.tolerance) * before * static_cast<double>(-scale);
    double flops = 0.0;
    std::vector<float>& p = s.pressure.v;
    const int iterations =
        params_.solver == Solver::Pcg ? solvePcg(b, p, target, flops) : solveJacobi(b, p, target, flops);
    subtractGradient(p, dt);
    enforceSolids();
    divergence(div);
    stats_.iterations = iterations;
    stats_.operations = flops;
    stats_.divergenceBefore = before;
    stats_.divergenceAfter = std::sqrt(dot(div, div) / std::max(fluidCells_, 1.0));
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
    const int substeps = std::clamp(static_cast<int>(std::ceil(cellsPerStep / params_.maxCfl)), 1, kMaxSubsteps);
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

// ---- measures ----------------------------------------------------------------------------------------------

namespace {
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

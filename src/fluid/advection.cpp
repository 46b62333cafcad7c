// FluidSim::advect: every field carried by the velocity. The samples of one kind sit at one place (the scalars
// at the cell centres, each velocity component on its faces), so each place is traced once and every field that
// lives there is sampled at the traced point:
//   semi-Lagrangian  a sample takes the value at its RK2 (midpoint) back-trace, trilinear;
//   MacCormack       corrected by half the error a forward trace of that result makes, and clamped to the eight
//                    values around the back-traced point (Selle et al. 2008: no new extremum), kept from the first
//                    loop's samples.
// Outside the grid's open ends (the sides and the top) the air is ambient and at rest. The results go to buffers
// kept between steps and are swapped in: no field is copied or allocated in a step.
#include <algorithm>
#include <array>
#include <span>

#include "fluid/fluid_sim.h"
#include "fluid/grid_loops.h"

namespace firelab::fluid {
namespace {

// Places are traced a chunk of a row at a time, each step a loop over the chunk's lanes that the compiler turns
// into vector instructions (a trilinear sample's eight loads into gathers). A row's last chunk repeats its last
// place in the lanes past the row's end and stores none of them.
constexpr int kLanes = 16;
using Lanes = std::array<float, kLanes>;
struct Points {
    Lanes x, y, z;
};

float lerp(float a, float b, float t) { return a + t * (b - a); }

// x clamped to [0, top]; a NaN (a velocity that overflowed) to 0, so that no index leaves the grid.
float clampToGrid(float x, float top) { return std::min(top, std::max(0.0f, x)); }

// The trilinear samples of a field at a chunk's points (x, y, z), the field's value (i, j, k) sitting at (i, j, k) +
// (ox, oy, oz) cells. Along each axis a point is clamped to the samples there are (beyond them the nearest's). With
// Limits, also the least and the largest of each sample's eight values (MacCormack's limits). The pointers are
// __restrict (nothing written is read) and the indices 32-bit (a grid holds at most kMaxGridCellCount cells): what
// GCC needs to vectorise the loop.
template <bool Limits>
void sampleLanes(const float* __restrict v, glm::ivec3 n, float ox, float oy, float oz, const float* __restrict x,
                 const float* __restrict y, const float* __restrict z, float* __restrict out, float* __restrict lo,
                 float* __restrict hi) {
    const int sy = n.x, sz = n.x * n.y;
    const float mx = static_cast<float>(n.x - 1), my = static_cast<float>(n.y - 1), mz = static_cast<float>(n.z - 1);
    for (int l = 0; l < kLanes; ++l) {
        const float cx = clampToGrid(x[l] - ox, mx), cy = clampToGrid(y[l] - oy, my), cz = clampToGrid(z[l] - oz, mz);
        const int ix = std::min(static_cast<int>(cx), n.x - 2), iy = std::min(static_cast<int>(cy), n.y - 2),
                  iz = std::min(static_cast<int>(cz), n.z - 2);
        const float tx = cx - static_cast<float>(ix), ty = cy - static_cast<float>(iy),
                    tz = cz - static_cast<float>(iz);
        const int b = ix + sy * iy + sz * iz;
        const float s0 = v[b], s1 = v[b + 1], s2 = v[b + sy], s3 = v[b + sy + 1];
        const float s4 = v[b + sz], s5 = v[b + sz + 1], s6 = v[b + sz + sy], s7 = v[b + sz + sy + 1];
        const float c00 = lerp(s0, s1, tx), c10 = lerp(s2, s3, tx), c01 = lerp(s4, s5, tx), c11 = lerp(s6, s7, tx);
        out[l] = lerp(lerp(c00, c10, ty), lerp(c01, c11, ty), tz);
        if constexpr (Limits) {
            lo[l] =
                std::min(std::min(std::min(s0, s1), std::min(s2, s3)), std::min(std::min(s4, s5), std::min(s6, s7)));
            hi[l] =
                std::max(std::max(std::max(s0, s1), std::max(s2, s3)), std::max(std::max(s4, s5), std::max(s6, s7)));
        }
    }
}

template <bool Limits>
void sample(const Field& f, const glm::vec3& offset, const Points& at, Lanes& out, Lanes& lo, Lanes& hi) {
    sampleLanes<Limits>(f.v.data(), f.n, offset.x, offset.y, offset.z, at.x.data(), at.y.data(), at.z.data(),
                        out.data(), lo.data(), hi.data());
}

// The velocity (cells per second) at a chunk's points: each component trilinear from its own faces.
void velocityAt(const FluidState& s, const Points& at, Points& out) {
    Lanes unused;
    sample<false>(s.u, kFaceX, at, out.x, unused, unused);
    sample<false>(s.v, kFaceY, at, out.y, unused, unused);
    sample<false>(s.w, kFaceZ, at, out.z, unused, unused);
}

// RK2 along the velocity from the chunk's places g, whose own velocity is at: `step` (cells per unit velocity,
// negative back in time) from g by the velocity at the midpoint.
void trace(const FluidState& s, const Points& g, const Points& at, float step, Points& out) {
    Points mid, velocity;
    const float half = 0.5f * step;
    for (int l = 0; l < kLanes; ++l) {
        mid.x[l] = g.x[l] + half * at.x[l];
        mid.y[l] = g.y[l] + half * at.y[l];
        mid.z[l] = g.z[l] + half * at.z[l];
    }
    velocityAt(s, mid, velocity);
    for (int l = 0; l < kLanes; ++l) {
        out.x[l] = g.x[l] + step * velocity.x[l];
        out.y[l] = g.y[l] + step * velocity.y[l];
        out.z[l] = g.z[l] + step * velocity.z[l];
    }
}

// The velocity at the samples of a place whose offset is half a cell on the axes where H is 1 (the centres: all
// three; a face: the two across it): each component the mean of its faces nearest the sample, which is what its
// trilinear sample gives there with fewer loads, the faces' indices clamped to the grid as the samplers clamp them.
template <int HX, int HY, int HZ>
struct PlaceVelocity {
    const Field &u, &v, &w;
    glm::vec3 operator()(int i, int j, int k) const {
        return {component<0, 1, 1>(u, i, j, k), component<1, 0, 1>(v, i, j, k), component<1, 1, 0>(w, i, j, k)};
    }
    // A component whose faces sit at the half cell on the axes where F is 1: along an axis where the place and the
    // faces differ the sample lies midway between two faces (above it when the place is at the half cell).
    template <int FX, int FY, int FZ>
    static float component(const Field& f, int i, int j, int k) {
        const auto span = [](int at, int place, int face, int size, int& lo, int& hi) {
            lo = hi = at;
            if (place == face) return;
            if (place)
                hi = at + 1;
            else
                lo = at - 1;
            lo = std::clamp(lo, 0, size - 1), hi = std::clamp(hi, 0, size - 1);
        };
        int x0, x1, y0, y1, z0, z1;
        span(i, HX, FX, f.n.x, x0, x1), span(j, HY, FY, f.n.y, y0, y1), span(k, HZ, FZ, f.n.z, z0, z1);
        const float y0z0 = f.at(x0, y0, z0) + f.at(x1, y0, z0), y1z0 = f.at(x0, y1, z0) + f.at(x1, y1, z0);
        const float y0z1 = f.at(x0, y0, z1) + f.at(x1, y0, z1), y1z1 = f.at(x0, y1, z1) + f.at(x1, y1, z1);
        return 0.125f * ((y0z0 + y1z0) + (y0z1 + y1z1));
    }
};

// A field of one place: the state's, the semi-Lagrangian result, the limits of the values its back-trace
// interpolated, the MacCormack result, and the air outside.
struct Carried {
    const Field* from;
    Field *traced, *low, *high, *corrected;
    float outside;
};

// The mass of a mass fraction y over the fluid cells, in units of rho_a T_a h^3 (rho = rho_a T_a / T).
double massOf(const FluidState& s, const Field& y) {
    double sum = 0.0;
    for (size_t c = 0; c < y.v.size(); ++c)
        if (!s.solid[c]) sum += static_cast<double>(y.v[c]) / s.temperature.v[c];
    return sum;
}

// What of y the open faces (the sides and the top) let out in dt, in massOf's units: each face's outward volume over
// the cell's, times the cell's share.
double outflowOf(const FluidState& s, const Field& y, float dt) {
    const float k = dt / s.h;
    const glm::ivec3 n = s.n;
    double sum = 0.0;
    const auto out = [&](int i, int j, int k2, float speed) {
        if (speed > 0.0f) sum += static_cast<double>(k * speed * y.at(i, j, k2)) / s.temperature.at(i, j, k2);
    };
    for (int k2 = 0; k2 < n.z; ++k2)
        for (int j = 0; j < n.y; ++j) out(0, j, k2, -s.u.at(0, j, k2)), out(n.x - 1, j, k2, s.u.at(n.x, j, k2));
    for (int j = 0; j < n.y; ++j)
        for (int i = 0; i < n.x; ++i) out(i, j, 0, -s.w.at(i, j, 0)), out(i, j, n.z - 1, s.w.at(i, j, n.z));
    for (int k2 = 0; k2 < n.z; ++k2)
        for (int i = 0; i < n.x; ++i) out(i, n.y - 1, k2, s.v.at(i, n.y, k2));
    return sum;
}

}  // namespace

void FluidSim::advect(float dt) {
    FluidState& s = state_;
    const float dtCells = dt / s.h;
    const glm::vec3 top(s.n);
    const auto outsideOpen = [&](float x, float y, float z) {
        return x < 0.0f || x > top.x || z < 0.0f || z > top.z || y > top.y;
    };
    const bool maccormack = params_.advection == Advection::MacCormack;

    // Each place: its fields, carried from the velocity before any of them moved. The back-trace's eight samples give
    // the semi-Lagrangian value and MacCormack's limits (outside the open ends: the air, limits and all); then
    // MacCormack's forward trace of that result, a second pass over the rows once every row is traced.
    const auto carry = [&](const glm::vec3& offset, const auto& placeVelocity, std::span<const Carried> fields) {
        const glm::ivec3 n = fields.begin()->from->n;
        // The chunk of row (j, k) from i0: its places and their own velocities.
        const auto places = [&](int i0, int j, int k, Points& g, Points& at) {
            for (int l = 0; l < kLanes; ++l) {
                const int i = std::min(i0 + l, n.x - 1);
                const glm::vec3 v = placeVelocity(i, j, k);
                g.x[l] = static_cast<float>(i) + offset.x, g.y[l] = static_cast<float>(j) + offset.y;
                g.z[l] = static_cast<float>(k) + offset.z;
                at.x[l] = v.x, at.y[l] = v.y, at.z[l] = v.z;
            }
        };
        forRows(*pool_, n, [&](int j, int k) {
            const size_t row = static_cast<size_t>(n.x) * (static_cast<size_t>(j) + static_cast<size_t>(n.y) * k);
            for (int i0 = 0; i0 < n.x; i0 += kLanes) {
                Points g, at, back;
                places(i0, j, k, g, at);
                trace(s, g, at, -dtCells, back);
                const int count = std::min(kLanes, n.x - i0);
                for (const Carried& f : fields) {
                    Lanes value, lo, hi;
                    if (maccormack)
                        sample<true>(*f.from, offset, back, value, lo, hi);
                    else
                        sample<false>(*f.from, offset, back, value, lo, hi);
                    for (int l = 0; l < count; ++l) {
                        const size_t c = row + static_cast<size_t>(i0 + l);
                        const bool out = outsideOpen(back.x[l], back.y[l], back.z[l]);
                        f.traced->v[c] = out ? f.outside : value[l];
                        if (!maccormack) continue;
                        f.low->v[c] = out ? f.outside : lo[l];
                        f.high->v[c] = out ? f.outside : hi[l];
                    }
                }
            }
        });
        if (!maccormack) return;
        forRows(*pool_, n, [&](int j, int k) {
            const size_t row = static_cast<size_t>(n.x) * (static_cast<size_t>(j) + static_cast<size_t>(n.y) * k);
            for (int i0 = 0; i0 < n.x; i0 += kLanes) {
                Points g, at, ahead;
                places(i0, j, k, g, at);
                trace(s, g, at, dtCells, ahead);
                const int count = std::min(kLanes, n.x - i0);
                for (const Carried& f : fields) {
                    Lanes returned, unused;
                    sample<false>(*f.traced, offset, ahead, returned, unused, unused);
                    for (int l = 0; l < count; ++l) {
                        const size_t c = row + static_cast<size_t>(i0 + l);
                        const float r = outsideOpen(ahead.x[l], ahead.y[l], ahead.z[l]) ? f.outside : returned[l];
                        const float corrected = f.traced->v[c] + 0.5f * (f.from->v[c] - r);
                        f.corrected->v[c] = std::clamp(corrected, f.low->v[c], f.high->v[c]);
                    }
                }
            }
        });
    };
    const size_t count = carriedCount();
    // --combustion mixing: what the open faces let out of the fuel's and the mixture fraction's budgets (holdBudgets).
    const bool budgeted = params_.combustion == Combustion::Mixing;
    if (budgeted) {
        const double unit = budgetUnit();
        fuelBudget_ = std::max(0.0, fuelBudget_ - unit * outflowOf(s, s.fuel, dt));
        mixtureBudget_ = std::max(0.0, mixtureBudget_ - unit * outflowOf(s, s.mixture, dt));
    }
    for (size_t q = 0; q < count; ++q) {  // the buffers take the shapes of the state's fields
        const Field& f = *carriedFields()[q];
        if (traced_[q].n == f.n) continue;
        traced_[q] = corrected_[q] = low_[q] = high_[q] = Field(f.n, 0.0f);
    }
    const auto field = [&](size_t q, const Field& from, float outside) {
        return Carried{&from, &traced_[q], &low_[q], &high_[q], &corrected_[q], outside};
    };
    const Carried faces[] = {field(0, s.u, 0.0f), field(1, s.v, 0.0f), field(2, s.w, 0.0f)};
    carry(kFaceX, PlaceVelocity<0, 1, 1>{s.u, s.v, s.w}, std::span(faces, 1));
    carry(kFaceY, PlaceVelocity<1, 0, 1>{s.u, s.v, s.w}, std::span(faces + 1, 1));
    carry(kFaceZ, PlaceVelocity<1, 1, 0>{s.u, s.v, s.w}, std::span(faces + 2, 1));
    const Carried centres[] = {field(3, s.temperature, params_.ambient), field(4, s.fuel, 0.0f), field(5, s.soot, 0.0f),
                               field(6, s.mixture, 0.0f)};  // outside: air
    carry(kCentre, PlaceVelocity<1, 1, 1>{s.u, s.v, s.w}, std::span(centres, count - 3));
    for (size_t q = 0; q < count; ++q) std::swap(*carriedFields()[q], maccormack ? corrected_[q] : traced_[q]);
    if (budgeted) holdBudgets();
    enforceSolids();
}

// Semi-Lagrangian transport, and MacCormack's correction more so, neither keeps nor loses what it carries on purpose.
// The burner's fuel and its mixture fraction are held to their budgets (kg: what the burner fed, less what burnt and
// what the open faces let out): each is scaled after the carry so that its mass is its budget (a global mass fixer,
// as semi-Lagrangian atmosphere models keep their tracers' mass), neither above 1; then the temperature follows
// (settleMixture).
void FluidSim::holdBudgets() {
    FluidState& s = state_;
    const double unit = budgetUnit();
    const auto scale = [&](Field& y, double budget) {
        const double due = budget / unit, now = massOf(s, y);
        if (!(now > 0.0) || !(due > 0.0)) return;
        const float k = static_cast<float>(due / now);
        for (float& x : y.v) x = std::min(1.0f, x * k);
    };
    scale(s.mixture, mixtureBudget_);
    scale(s.fuel, fuelBudget_);
    settleMixture();
}

std::array<Field*, 7> FluidSim::carriedFields() {
    FluidState& s = state_;
    return {&s.u, &s.v, &s.w, &s.temperature, &s.fuel, &s.soot, &s.mixture};
}

double FluidSim::budgetUnit() const {
    const double h = state_.h;
    return airDensity(params_.ambient) * params_.ambient * h * h * h;
}

size_t FluidSim::carriedCount() const { return state_.mixture.v.empty() ? 6 : 7; }

}  // namespace firelab::fluid

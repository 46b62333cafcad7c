// FluidSim::advect: every field carried by the velocity. The samples of one kind sit at one place (the scalars
// at the cell centres, each velocity component on its faces), so each place is traced once and every field that
// lives there is sampled at the traced point:
//   semi-Lagrangian  a sample takes the value at its RK2 (midpoint) back-trace, trilinear;
//   MacCormack       corrected by half the error a forward trace of that result makes, and clamped to the eight
//                    values around the back-traced point (Selle et al. 2008: no new extremum).
// Outside the grid's open ends (the sides and the top) the air is ambient and at rest. The results go to buffers
// kept between steps and are swapped in: no field is copied or allocated in a step.
#include <algorithm>
#include <array>

#include "fluid/fluid_sim.h"
#include "fluid/grid_loops.h"

namespace firelab::fluid {
namespace {

// Trilinear samples of a field whose value (i, j, k) sits at (i, j, k) + offset in cells, clamped to the field's
// samples (beyond them: the nearest's).
struct Sampler {
    const float* v;
    int nx, ny, nz;
    size_t sy, sz;
    glm::vec3 offset;

    Sampler(const Field& f, const glm::vec3& off)
        : v(f.v.data()),
          nx(f.n.x),
          ny(f.n.y),
          nz(f.n.z),
          sy(static_cast<size_t>(f.n.x)),
          sz(static_cast<size_t>(f.n.x) * static_cast<size_t>(f.n.y)),
          offset(off) {}

    // The corner cell below g and g's fractions within it.
    const float* corner(const glm::vec3& g, glm::vec3& t) const {
        const float x = std::clamp(g.x - offset.x, 0.0f, static_cast<float>(nx - 1));
        const float y = std::clamp(g.y - offset.y, 0.0f, static_cast<float>(ny - 1));
        const float z = std::clamp(g.z - offset.z, 0.0f, static_cast<float>(nz - 1));
        const int i = std::min(static_cast<int>(x), nx - 2), j = std::min(static_cast<int>(y), ny - 2),
                  k = std::min(static_cast<int>(z), nz - 2);
        t = glm::vec3(x - static_cast<float>(i), y - static_cast<float>(j), z - static_cast<float>(k));
        return v + static_cast<size_t>(i) + sy * static_cast<size_t>(j) + sz * static_cast<size_t>(k);
    }
    static float lerp(float a, float b, float t) { return a + t * (b - a); }
    float operator()(const glm::vec3& g) const {
        glm::vec3 t;
        const float* p = corner(g, t);
        const float c00 = lerp(p[0], p[1], t.x), c10 = lerp(p[sy], p[sy + 1], t.x);
        const float c01 = lerp(p[sz], p[sz + 1], t.x), c11 = lerp(p[sz + sy], p[sz + sy + 1], t.x);
        return lerp(lerp(c00, c10, t.y), lerp(c01, c11, t.y), t.z);
    }
    // The least and the largest of the eight samples about g.
    void range(const glm::vec3& g, float& lo, float& hi) const {
        glm::vec3 t;
        const float* p = corner(g, t);
        const std::array<float, 8> s{p[0], p[1], p[sy], p[sy + 1], p[sz], p[sz + 1], p[sz + sy], p[sz + sy + 1]};
        lo = *std::min_element(s.begin(), s.end());
        hi = *std::max_element(s.begin(), s.end());
    }
};

// The velocity (cells per second) at a point: each component trilinear from its own faces.
struct Velocity {
    Sampler u, v, w;
    glm::vec3 operator()(const glm::vec3& g) const { return {u(g), v(g), w(g)}; }
};

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

// Fields of one place: the state's, the semi-Lagrangian results, the MacCormack results, and the air outside.
struct Carried {
    const Field* from;
    Field* traced;
    Field* corrected;
    float outside;
};

}  // namespace

void FluidSim::advect(float dt) {
    FluidState& s = state_;
    const float dtCells = dt / s.h;
    const Velocity velocity{Sampler(s.u, kFaceX), Sampler(s.v, kFaceY), Sampler(s.w, kFaceZ)};
    const glm::vec3 top(s.n);
    const auto outsideOpen = [&](const glm::vec3& g) {
        return g.x < 0.0f || g.x > top.x || g.z < 0.0f || g.z > top.z || g.y > top.y;
    };
    const bool maccormack = params_.advection == Advection::MacCormack;

    // Each place: its fields, carried from the velocity before any of them moved.
    const auto carry = [&](const glm::vec3& offset, const auto& placeVelocity, std::initializer_list<Carried> fields) {
        const glm::ivec3 n = fields.begin()->from->n;
        backTraced_.resize(fields.begin()->from->v.size());
        forRows(*pool_, n, [&](int j, int k) {
            const size_t row = static_cast<size_t>(n.x) * (static_cast<size_t>(j) + static_cast<size_t>(n.y) * k);
            for (int i = 0; i < n.x; ++i) {
                const glm::vec3 g = glm::vec3(i, j, k) + offset;
                const glm::vec3 back = g - dtCells * velocity(g - 0.5f * dtCells * placeVelocity(i, j, k));
                const bool out = outsideOpen(back);
                for (const Carried& f : fields) f.traced->v[row + i] = out ? f.outside : Sampler(*f.from, offset)(back);
                backTraced_[row + i] = back;
            }
        });
        if (!maccormack) return;
        forRows(*pool_, n, [&](int j, int k) {
            const size_t row = static_cast<size_t>(n.x) * (static_cast<size_t>(j) + static_cast<size_t>(n.y) * k);
            for (int i = 0; i < n.x; ++i) {
                const size_t c = row + static_cast<size_t>(i);
                const glm::vec3 g = glm::vec3(i, j, k) + offset;
                const glm::vec3 back = backTraced_[c];
                if (outsideOpen(back)) {
                    for (const Carried& f : fields) f.corrected->v[c] = f.traced->v[c];
                    continue;
                }
                const glm::vec3 ahead = g + dtCells * velocity(g + 0.5f * dtCells * placeVelocity(i, j, k));
                const bool aheadOut = outsideOpen(ahead);
                for (const Carried& f : fields) {
                    const float sl = f.traced->v[c];
                    const float returned = aheadOut ? f.outside : Sampler(*f.traced, offset)(ahead);
                    float lo, hi;
                    Sampler(*f.from, offset).range(back, lo, hi);
                    f.corrected->v[c] = std::clamp(sl + 0.5f * (f.from->v[c] - returned), lo, hi);
                }
            }
        });
    };
    const auto slot = [&](size_t q) { return std::pair<Field*, Field*>(&traced_[q], &corrected_[q]); };
    for (size_t q = 0; q < traced_.size(); ++q) {  // the buffers take the shapes of the state's fields
        const Field& f = *carriedFields()[q];
        if (traced_[q].n != f.n) traced_[q] = Field(f.n, 0.0f), corrected_[q] = Field(f.n, 0.0f);
    }
    carry(kFaceX, PlaceVelocity<0, 1, 1>{s.u, s.v, s.w}, {{&s.u, slot(0).first, slot(0).second, 0.0f}});
    carry(kFaceY, PlaceVelocity<1, 0, 1>{s.u, s.v, s.w}, {{&s.v, slot(1).first, slot(1).second, 0.0f}});
    carry(kFaceZ, PlaceVelocity<1, 1, 0>{s.u, s.v, s.w}, {{&s.w, slot(2).first, slot(2).second, 0.0f}});
    carry(kCentre, PlaceVelocity<1, 1, 1>{s.u, s.v, s.w},
          {{&s.temperature, slot(3).first, slot(3).second, params_.ambient},
           {&s.fuel, slot(4).first, slot(4).second, 0.0f},
           {&s.soot, slot(5).first, slot(5).second, 0.0f}});
    for (size_t q = 0; q < traced_.size(); ++q) std::swap(*carriedFields()[q], maccormack ? corrected_[q] : traced_[q]);
    enforceSolids();
}

std::array<Field*, 6> FluidSim::carriedFields() {
    FluidState& s = state_;
    return {&s.u, &s.v, &s.w, &s.temperature, &s.fuel, &s.soot};
}

}  // namespace firelab::fluid

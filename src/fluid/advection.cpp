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

#include "fluid/fluid_sim.h"
#include "fluid/grid_loops.h"

namespace firelab::fluid {
namespace {

// One axis of a trilinear sample: the sample below x (in samples, clamped to the `size` samples there are; beyond
// them the nearest's) and x's fraction past it.
struct Axis {
    int i;
    float t;
};
Axis axis(float x, int size) {
    const float c = std::clamp(x, 0.0f, static_cast<float>(size - 1));
    const int i = std::min(static_cast<int>(c), size - 2);
    return {i, c - static_cast<float>(i)};
}
float lerp(float a, float b, float t) { return a + t * (b - a); }

// The eight samples about a point in a field of n samples (x fastest): the first's index, the strides, the fractions.
struct Corner {
    size_t base, sy, sz;
    glm::vec3 t;
    Corner(const Axis& x, const Axis& y, const Axis& z, const glm::ivec3& n)
        : base(static_cast<size_t>(x.i) +
               static_cast<size_t>(n.x) * (static_cast<size_t>(y.i) + static_cast<size_t>(n.y) * z.i)),
          sy(static_cast<size_t>(n.x)),
          sz(static_cast<size_t>(n.x) * static_cast<size_t>(n.y)),
          t(x.t, y.t, z.t) {}
    float sample(const float* v) const {
        const float* p = v + base;
        const float c00 = lerp(p[0], p[1], t.x), c10 = lerp(p[sy], p[sy + 1], t.x);
        const float c01 = lerp(p[sz], p[sz + 1], t.x), c11 = lerp(p[sz + sy], p[sz + sy + 1], t.x);
        return lerp(lerp(c00, c10, t.y), lerp(c01, c11, t.y), t.z);
    }
    // The sample, and the least and the largest of the eight (MacCormack's limits).
    float sample(const float* v, float& lo, float& hi) const {
        const float* p = v + base;
        const float s0 = p[0], s1 = p[1], s2 = p[sy], s3 = p[sy + 1];
        const float s4 = p[sz], s5 = p[sz + 1], s6 = p[sz + sy], s7 = p[sz + sy + 1];
        lo = std::min({s0, s1, s2, s3, s4, s5, s6, s7});
        hi = std::max({s0, s1, s2, s3, s4, s5, s6, s7});
        const float c00 = lerp(s0, s1, t.x), c10 = lerp(s2, s3, t.x);
        const float c01 = lerp(s4, s5, t.x), c11 = lerp(s6, s7, t.x);
        return lerp(lerp(c00, c10, t.y), lerp(c01, c11, t.y), t.z);
    }
};

// The corner of a point g (cells) among the n samples of a field whose value (i, j, k) sits at (i, j, k) + offset.
Corner cornerAt(const glm::vec3& g, const glm::vec3& offset, const glm::ivec3& n) {
    return Corner(axis(g.x - offset.x, n.x), axis(g.y - offset.y, n.y), axis(g.z - offset.z, n.z), n);
}

// The velocity (cells per second) at a point: each component trilinear from its own faces. Along each axis a point
// sits somewhere among the faces (that axis's component) and among the centres (the other two): six axes a point.
struct Velocity {
    const Field &u, &v, &w;
    glm::vec3 operator()(const glm::vec3& g) const {
        const glm::ivec3 n(w.n.x, u.n.y, u.n.z);  // cells
        const Axis xf = axis(g.x, n.x + 1), xc = axis(g.x - 0.5f, n.x);
        const Axis yf = axis(g.y, n.y + 1), yc = axis(g.y - 0.5f, n.y);
        const Axis zf = axis(g.z, n.z + 1), zc = axis(g.z - 0.5f, n.z);
        return {Corner(xf, yc, zc, u.n).sample(u.v.data()), Corner(xc, yf, zc, v.n).sample(v.v.data()),
                Corner(xc, yc, zf, w.n).sample(w.v.data())};
    }
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

// A field of one place: the state's, the semi-Lagrangian result, the limits of the values its back-trace
// interpolated, the MacCormack result, and the air outside.
struct Carried {
    const Field* from;
    Field *traced, *low, *high, *corrected;
    float outside;
};

}  // namespace

void FluidSim::advect(float dt) {
    FluidState& s = state_;
    const float dtCells = dt / s.h;
    const Velocity velocity{s.u, s.v, s.w};
    const glm::vec3 top(s.n);
    const auto outsideOpen = [&](const glm::vec3& g) {
        return g.x < 0.0f || g.x > top.x || g.z < 0.0f || g.z > top.z || g.y > top.y;
    };
    const bool maccormack = params_.advection == Advection::MacCormack;

    // Each place: its fields, carried from the velocity before any of them moved. The back-trace's eight samples give
    // the semi-Lagrangian value and MacCormack's limits (outside the open ends: the air, limits and all).
    const auto carry = [&](const glm::vec3& offset, const auto& placeVelocity, std::initializer_list<Carried> fields) {
        const glm::ivec3 n = fields.begin()->from->n;
        forRows(*pool_, n, [&](int j, int k) {
            const size_t row = static_cast<size_t>(n.x) * (static_cast<size_t>(j) + static_cast<size_t>(n.y) * k);
            for (int i = 0; i < n.x; ++i) {
                const size_t c = row + static_cast<size_t>(i);
                const glm::vec3 g = glm::vec3(i, j, k) + offset;
                const glm::vec3 back = g - dtCells * velocity(g - 0.5f * dtCells * placeVelocity(i, j, k));
                if (outsideOpen(back)) {
                    for (const Carried& f : fields) f.traced->v[c] = f.low->v[c] = f.high->v[c] = f.outside;
                    continue;
                }
                const Corner corner = cornerAt(back, offset, n);
                for (const Carried& f : fields)
                    f.traced->v[c] = maccormack ? corner.sample(f.from->v.data(), f.low->v[c], f.high->v[c])
                                                : corner.sample(f.from->v.data());
            }
        });
        if (!maccormack) return;
        forRows(*pool_, n, [&](int j, int k) {
            const size_t row = static_cast<size_t>(n.x) * (static_cast<size_t>(j) + static_cast<size_t>(n.y) * k);
            for (int i = 0; i < n.x; ++i) {
                const size_t c = row + static_cast<size_t>(i);
                const glm::vec3 g = glm::vec3(i, j, k) + offset;
                const glm::vec3 ahead = g + dtCells * velocity(g + 0.5f * dtCells * placeVelocity(i, j, k));
                const bool aheadOut = outsideOpen(ahead);
                const Corner corner = cornerAt(ahead, offset, n);
                for (const Carried& f : fields) {
                    const float returned = aheadOut ? f.outside : corner.sample(f.traced->v.data());
                    const float corrected = f.traced->v[c] + 0.5f * (f.from->v[c] - returned);
                    f.corrected->v[c] = std::clamp(corrected, f.low->v[c], f.high->v[c]);
                }
            }
        });
    };
    for (size_t q = 0; q < traced_.size(); ++q) {  // the buffers take the shapes of the state's fields
        const Field& f = *carriedFields()[q];
        if (traced_[q].n == f.n) continue;
        traced_[q] = corrected_[q] = low_[q] = high_[q] = Field(f.n, 0.0f);
    }
    const auto field = [&](size_t q, const Field& from, float outside) {
        return Carried{&from, &traced_[q], &low_[q], &high_[q], &corrected_[q], outside};
    };
    carry(kFaceX, PlaceVelocity<0, 1, 1>{s.u, s.v, s.w}, {field(0, s.u, 0.0f)});
    carry(kFaceY, PlaceVelocity<1, 0, 1>{s.u, s.v, s.w}, {field(1, s.v, 0.0f)});
    carry(kFaceZ, PlaceVelocity<1, 1, 0>{s.u, s.v, s.w}, {field(2, s.w, 0.0f)});
    carry(kCentre, PlaceVelocity<1, 1, 1>{s.u, s.v, s.w},
          {field(3, s.temperature, params_.ambient), field(4, s.fuel, 0.0f), field(5, s.soot, 0.0f)});
    for (size_t q = 0; q < traced_.size(); ++q) std::swap(*carriedFields()[q], maccormack ? corrected_[q] : traced_[q]);
    enforceSolids();
}

std::array<Field*, 6> FluidSim::carriedFields() {
    FluidState& s = state_;
    return {&s.u, &s.v, &s.w, &s.temperature, &s.fuel, &s.soot};
}

}  // namespace firelab::fluid

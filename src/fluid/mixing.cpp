// --combustion mixing: fuel that burns only as fast as air mixes into it, the way fire science's CFD burns it (NIST's
// FDS: the eddy dissipation model, a single-step reaction fuel + s air -> (1 + s) products, infinitely fast chemistry
// limited by mixing). Three centre fields carry it: the fuel's mass fraction Y_F, the mixture fraction Z (the share of
// the gas that came from the burner) and the temperature; the air left is Y_A = 1 - (1 + s) Z + s Y_F (what the fuel
// burnt so far, Z - Y_F, took s times its mass of).
//
//   the burner     the floor cells under the emitter's footprint (its centre and extent; its rotation and path are
//                  not followed), fed fuel at the ambient temperature at Q / dHc kg/s shared evenly, which blows up
//                  through their floor faces at the speed that mass flux has at the ambient density;
//   the reaction   each cell burns min(Y_F, Y_A / s) (1 - exp(-dt / tau)) a sub-step, tau = sqrt(2 h / g) (FDS's
//                  acceleration time scale: the mixing time of a cell of edge h that gravity stirs), its heat per
//                  unit volume capped at 200 / h + 2500 kW/m^3 (FDS 5's bound on the heat release per volume);
//   the heat       raises the temperature by (1 - chi_r) dHc / c_p a unit of fuel burnt (the radiative fraction leaves
//                  as light; no other radiative cooling), and expands the gas: the projection makes the divergence
//                  dT / (T dt) there (constant pressure, an ideal gas of one molar mass), so that the volume the
//                  fire makes, integrated, is its convective power over rho_a c_p T_a;
//   the subgrid    the air that eddies smaller than a cell mix in: Smagorinsky's diffusivity on the mixture fraction
//                  and the fuel, as FDS's LES adds its turbulent diffusivity (diffuseMixture);
//   the state      the temperature is not carried on its own: a parcel's is the ambient plus that rise times the
//                  share of it that burnt, b = Z - Y_F (one heat capacity, a fixed radiative fraction), so that no
//                  carrying of three fields apart can make gas hotter than its mixture burns to, nor air that its
//                  burnt share already took (b <= (1 - Z) / s, Y_F <= Z).
#include <algorithm>
#include <cmath>

#include <glm/common.hpp>

#include "fluid/fluid_sim.h"
#include "fluid/fuel.h"
#include "fluid/grid_loops.h"

namespace firelab::fluid {

// The floor cells whose centres lie in the emitter's footprint (a circle or sphere: within extent.x of its centre;
// a rectangle: within extent.x and extent.z); the cell under the centre when the footprint is smaller than a cell.
void FluidSim::findBurner() {
    const FluidState& s = state_;
    burner_.clear();
    const bool rect = source_.shape == sim::EmitterShape::Rect;
    for (int k = 0; k < s.n.z; ++k)
        for (int i = 0; i < s.n.x; ++i) {
            if (s.isSolid(i, 0, k)) continue;
            const glm::vec3 c = cellCenter(i, 0, k) - source_.center;
            const bool inside = rect ? std::abs(c.x) <= source_.extent.x && std::abs(c.z) <= source_.extent.z
                                     : c.x * c.x + c.z * c.z <= source_.extent.x * source_.extent.x;
            if (inside) burner_.push_back(static_cast<uint32_t>(s.temperature.index(i, 0, k)));
        }
    if (!burner_.empty()) return;
    const glm::ivec3 under =
        glm::clamp(glm::ivec3(glm::floor((source_.center - s.origin) / s.h)), glm::ivec3(0), s.n - 1);
    burner_.push_back(static_cast<uint32_t>(s.temperature.index(under.x, 0, under.z)));
}

// Each burner cell gains its share of the fuel's mass flow this sub-step (mixed into the cell's mass at its
// temperature's density), at the ambient temperature, and its floor face blows the fuel in.
void FluidSim::feedBurner(float dt) {
    FluidState& s = state_;
    if (burner_.empty()) findBurner();
    const FuelProperties& fuel = fuelOf(params_.fuel);
    const double ambientDensity = airDensity(params_.ambient);
    const double cellVolume = static_cast<double>(s.h) * s.h * s.h;
    const double perCell = source_.heatRelease / fuel.heatOfCombustion / static_cast<double>(burner_.size());  // kg/s
    const float inflow = static_cast<float>(perCell / (ambientDensity * static_cast<double>(s.h) * s.h));      // m/s
    inflow_.assign(static_cast<size_t>(s.n.x) * static_cast<size_t>(s.n.z), 0);
    const size_t nx = static_cast<size_t>(s.n.x);
    for (uint32_t c : burner_) {
        const double density = ambientDensity * params_.ambient / s.temperature.v[c];
        const float r = static_cast<float>(perCell * dt / (density * cellVolume));  // the fed mass over the cell's
        const float keep = 1.0f / (1.0f + r);
        s.fuel.v[c] = (s.fuel.v[c] + r) * keep;
        s.mixture.v[c] = (s.mixture.v[c] + r) * keep;
        s.temperature.v[c] = (s.temperature.v[c] + r * params_.ambient) * keep;
        const size_t i = c % nx, k = c / (nx * static_cast<size_t>(s.n.y));
        inflow_[i + nx * k] = 1;
        s.v.at(static_cast<int>(i), 0, static_cast<int>(k)) = inflow;
    }
    settleMixture();
    const double fed = perCell * static_cast<double>(burner_.size()) * dt;  // kg
    fuelBudget_ += fed, mixtureBudget_ += fed;
    enforceSolids();
}

namespace {
// K a unit of fuel burnt raises the gas by: (1 - chi_r) dHc / c_p.
double riseOfBurnt(const FuelProperties& fuel) {
    return (1.0 - fuel.radiativeFraction) * fuel.heatOfCombustion / kAirHeatCapacity;
}
}  // namespace

void FluidSim::settleMixture() {
    FluidState& s = state_;
    const FuelProperties& fuel = fuelOf(params_.fuel);
    const float air = static_cast<float>(stoichiometricAir(fuel)), rise = static_cast<float>(riseOfBurnt(fuel));
    forRows(*pool_, s.n, [&](int j, int k) {
        const size_t row = s.temperature.index(0, j, k);
        for (size_t c = row; c < row + static_cast<size_t>(s.n.x); ++c) {
            if (s.solid[c]) continue;
            // The fuel stands; the burnt share gives way (the air it took, s b, at most what the gas holds besides
            // fuel), so that settling never makes fuel.
            const float fuelShare = std::clamp(s.fuel.v[c], 0.0f, 1.0f);
            const float burnt = std::clamp(s.mixture.v[c] - fuelShare, 0.0f, (1.0f - fuelShare) / (1.0f + air));
            s.fuel.v[c] = fuelShare;
            s.mixture.v[c] = fuelShare + burnt;
            s.temperature.v[c] = params_.ambient + rise * burnt;
        }
    });
}

// Smagorinsky's subgrid diffusivity D = (C_s h)^2 |S| / Sc_t (C_s 0.2, Sc_t 0.5, FDS's turbulent Schmidt number),
// |S| from the cell-centred velocity's central differences, mixing the mixture fraction and the fuel across each
// face by the mean of its cells' D (a conservative flux; bounded by the explicit step's stability, D dt / h^2 <= 1/6).
void FluidSim::diffuseMixture(float dt) {
    FluidState& s = state_;
    const glm::ivec3 n = s.n;
    const size_t cells = s.temperature.v.size();
    eddy_.assign(cells, 0.0f);
    const float cs = 0.2f * s.h, limit = s.h * s.h / (6.0f * dt);
    const auto centre = [&](int i, int j, int k) {
        i = std::clamp(i, 0, n.x - 1), j = std::clamp(j, 0, n.y - 1), k = std::clamp(k, 0, n.z - 1);
        return 0.5f * glm::vec3(s.u.at(i, j, k) + s.u.at(i + 1, j, k), s.v.at(i, j, k) + s.v.at(i, j + 1, k),
                                s.w.at(i, j, k) + s.w.at(i, j, k + 1));
    };
    forRows(*pool_, n, [&](int j, int k) {
        for (int i = 0; i < n.x; ++i) {
            const glm::vec3 dx = (centre(i + 1, j, k) - centre(i - 1, j, k)) / (2.0f * s.h);
            const glm::vec3 dy = (centre(i, j + 1, k) - centre(i, j - 1, k)) / (2.0f * s.h);
            const glm::vec3 dz = (centre(i, j, k + 1) - centre(i, j, k - 1)) / (2.0f * s.h);
            const float sxy = 0.5f * (dx.y + dy.x), sxz = 0.5f * (dx.z + dz.x), syz = 0.5f * (dy.z + dz.y);
            const float ss = dx.x * dx.x + dy.y * dy.y + dz.z * dz.z + 2.0f * (sxy * sxy + sxz * sxz + syz * syz);
            eddy_[s.temperature.index(i, j, k)] = std::min(limit, cs * cs * std::sqrt(2.0f * ss) / 0.5f);
        }
    });
    const float k2 = dt / (s.h * s.h);
    for (Field* f : {&s.mixture, &s.fuel}) {
        scratch_ = f->v;
        forRows(*pool_, n, [&](int j, int k) {
            for (int i = 0; i < n.x; ++i) {
                const size_t c = s.temperature.index(i, j, k);
                if (s.solid[c]) continue;
                float sum = 0.0f;
                const auto across = [&](int a, int b, int cc) {
                    if (a < 0 || b < 0 || cc < 0 || a >= n.x || b >= n.y || cc >= n.z) return;
                    const size_t o = s.temperature.index(a, b, cc);
                    if (s.solid[o]) return;
                    sum += 0.5f * (eddy_[c] + eddy_[o]) * (scratch_[o] - scratch_[c]);
                };
                across(i - 1, j, k), across(i + 1, j, k), across(i, j - 1, k), across(i, j + 1, k);
                across(i, j, k - 1), across(i, j, k + 1);
                f->v[c] = scratch_[c] + k2 * sum;
            }
        });
    }
    settleMixture();
}

void FluidSim::burnMixing(float dt) {
    diffuseMixture(dt);
    FluidState& s = state_;
    const FuelProperties& fuel = fuelOf(params_.fuel);
    const double air = stoichiometricAir(fuel);
    const double mixed = 1.0 - std::exp(-static_cast<double>(dt) / std::sqrt(2.0 * s.h / kGravity));
    const double cap = 200.0 / static_cast<double>(s.h) + 2500.0;                // kW/m^3
    const double risePerBurnt = riseOfBurnt(fuel);                               // K
    const double densityTimesT = airDensity(params_.ambient) * params_.ambient;  // rho T, the same everywhere
    const float keep = std::exp(-params_.sootDissipation * dt);
    const double cellVolume = static_cast<double>(s.h) * s.h * s.h;
    dilatation_.assign(s.temperature.v.size(), 0.0f);
    const double released = sumRows(*pool_, s.n, rowSums_, [&](int j, int k) {  // kW over the cells
        double sum = 0.0;
        const size_t row = s.temperature.index(0, j, k);
        for (size_t c = row; c < row + static_cast<size_t>(s.n.x); ++c) {
            s.release.v[c] = 0.0f;
            if (s.solid[c]) continue;
            s.soot.v[c] *= keep;
            const double yf = s.fuel.v[c], z = s.mixture.v[c], t = s.temperature.v[c];
            const double yAir = std::max(0.0, 1.0 - (1.0 + air) * z + air * yf);
            double burnt = std::min(yf, yAir / air) * mixed;
            if (!(burnt > 0.0)) continue;
            double perVolume = densityTimesT / t * burnt * fuel.heatOfCombustion / dt;  // kW/m^3
            if (perVolume > cap) burnt *= cap / perVolume, perVolume = cap;
            const double rise = risePerBurnt * burnt;
            s.fuel.v[c] = static_cast<float>(std::max(0.0, yf - burnt));
            s.temperature.v[c] = static_cast<float>(t + rise);
            s.soot.v[c] += static_cast<float>(fuel.sootYield * burnt);
            s.release.v[c] = static_cast<float>(perVolume);
            dilatation_[c] = static_cast<float>(rise / (t * dt));
            sum += perVolume * cellVolume;
        }
        return sum;
    });
    stats_.heatReleaseKw = released;
    const double burntMass = released * dt / fuel.heatOfCombustion;  // kg
    fuelBudget_ = std::max(0.0, fuelBudget_ - burntMass);
}

}  // namespace firelab::fluid

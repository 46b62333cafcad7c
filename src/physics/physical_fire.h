// A physically parameterised fire: --fire-diameter D (m) and --heat-release Q (kW) set the model's emitter,
// motion, lifetimes, sizes, sway and temperatures from fire science's correlations (physics/correlations.h).
// The mapping is here and nowhere else; docs/physics.md lists it from kPhysicalFireMapping.
//
// What it sets by calibration (so never evidence): the centreline velocity (a buoyant acceleration and a drag
// whose terminal speed are McCaffrey's continuous and intermittent regimes; the fire measures 20-27 % under them,
// its parcels' spread, its sway and the model's discrete drag taking some), the flame's temperature
// (McCaffrey's continuous flame), and the flame height at one fire, D = 1 m and Q = 1000 kW, where kLifeReach was
// set. What it predicts, and the physics record measures against the correlations: the flame height by
// intermittency at every other size and power (how it scales), the centreline temperature profile, and the
// tip's and the emitted power's puffing frequency (the sway is an eddy of the fire's size turning over at the
// flame's speed: nothing in it is Cetegen & Ahmed's).
//
//   const sim::FireParams p = physics::physicalFire(base, 0.5, 200.0);  // a 0.5 m, 200 kW pool fire
#pragma once
#include <array>
#include <string_view>

#include "sim/params.h"

namespace firelab::physics {

// The fire's size and power; both zero: not a parameterised fire.
struct FireSize {
    double diameter = 0.0;                                // m
    double heatRelease = 0.0;                             // kW
    std::string_view heatReleaseFrom = "--heat-release";  // what the power is (the grid fluid's: its combustion's)
    bool given() const { return diameter != 0.0 || heatRelease != 0.0; }
};

// The range a parameterised fire accepts: Cetegen & Ahmed's pool diameters and Heskestad's Q^(2/5) / D.
// Throws Error(BadValue) naming --fire-diameter or --heat-release, the value and what is allowed: one without
// the other, a value at or below zero, a diameter outside [0.03, 50] m, a ratio outside [7, 700] kW^(2/5)/m.
void validate(const FireSize& fire);

// How far a parcel rises in its mean life, in Heskestad's flame heights: the one constant set by measuring the
// model rather than from a correlation. At 4.4, `firelab physics --fire-diameter 1 --heat-release 1000
// --particles 4000` measures a flame height within 2 % of Heskestad's 2.70 m (the luminous medium's presence is
// relative to its densest bin, near the base where the parcels are slow, so a parcel must rise past the tip).
inline constexpr double kLifeReach = 4.4;

// `base` with the mapped parameters replaced (every other parameter, the count, the seed, the colour model's
// choice, kept); the colour is always --color blackbody, whose temperatures the probes read. Validates first.
sim::FireParams physicalFire(const sim::FireParams& base, const FireSize& fire);

// The mapping as the docs list it: the parameter, its formula, and what sets it.
struct MappedParam {
    std::string_view param, formula, basis;
};
extern const std::array<MappedParam, 13> kPhysicalFireMapping;

// The model's motion under the mapping: a parcel from rest under acceleration a with drag k rises
// y(t) = (a/k) t - (a/k^2)(1 - e^(-kt)); the time it takes to reach height h (s).
double riseTime(double accel, double drag, double height);

}  // namespace firelab::physics

// A measured fire set beside the correlations: the size and power a real fire of its kind would have, and what
// fire science says such a fire does. The diameter is the pool's: a parameterised flame's --fire-diameter, or
// else the emitter's (a circle's 2 r; a rectangle's or a sphere's of equal area). The power is the flame's
// --heat-release when it has one; otherwise the power at which Heskestad's flame height equals the measured one
// (inverted: Q = ((L + 1.02 D) / 0.235)^(5/2)): the fire "flames like a pool of Q kW", and McCaffrey's centreline
// at that Q is then a prediction of its temperatures and velocities, not a fit.
//
//   const physics::Comparison c = physics::compare(stats, layerParams, {run.fireDiameter, run.heatRelease});
#pragma once
#include <string_view>

#include "physics/fire_probe.h"
#include "physics/physical_fire.h"

namespace firelab::physics {

struct Comparison {
    double diameter = 0.0;       // m
    double heatRelease = 0.0;    // kW; NaN: none given and no flame height to infer it from
    bool powerGiven = false;     // heatRelease is the fire's own (--heat-release, the fluid's), not Heskestad's inverse
    std::string_view powerFrom;  // where heatRelease came from
    double flameHeight = 0.0;    // m, Heskestad's at (heatRelease, diameter)
    double puffing = 0.0;        // Hz, Cetegen & Ahmed's at diameter
    // measured / correlation - 1 (NaN where either is missing): the error of each statistic.
    double flameHeightError = 0.0, tipPeakError = 0.0, emissionPeakError = 0.0;
};

// The diameter of a pool that stands for the model's emitter (m).
double poolDiameter(const sim::FireParams& p);
// The power (kW) of the pool of diameter D whose Heskestad flame height is L; NaN for L <= 0 or NaN.
double heskestadInversePower(double flameHeight, double diameter);
Comparison compare(const FireStatistics& s, const sim::FireParams& flame, const FireSize& given);

}  // namespace firelab::physics

// Fire science's correlations for a buoyant fire of diameter D (m) and heat release rate Q (kW): what a real
// fire of that size and power does, to set firelab's fires beside. Each function cites its source; each has the
// range its source supports (outside it, the functions still compute, and inRange says so). docs/physics.md
// lists them with their sources and the values the tests check.
//
//   physics::heskestadFlameHeight(1690.0, 1.6)  // 2.96 m: Karlsson & Quintiere's Example 4.1
//   physics::mcCaffrey(0.1)                     // the intermittent regime at z / Q^(2/5) = 0.1 m kW^-2/5
#pragma once
#include <string_view>

namespace firelab::physics {

// Ambient air, as the correlations' constants assume (SFPE Handbook: 293 K, 1.2 kg/m^3, cp 1.0 kJ/(kg K)).
inline constexpr double kAmbientKelvin = 293.0;
inline constexpr double kAmbientDensity = 1.2;      // kg/m^3
inline constexpr double kAirHeatCapacity = 1.0;     // kJ/(kg K)
inline constexpr double kGravity = 9.81;            // m/s^2
inline constexpr double kConvectiveFraction = 0.7;  // Qc / Q of a typical pool fire (SFPE Handbook)

// Heskestad (1983; SFPE Handbook, "Fire plumes, flame height and air entrainment"): the mean flame height
// L = 0.235 Q^(2/5) - 1.02 D (m), and the plume's virtual origin z0 = 0.083 Q^(2/5) - 1.02 D (m). Its range,
// NIST GCR 98-744: 7 < Q^(2/5) / D < 700 kW^(2/5)/m (below 7 the "flame" is a mass fire of separate
// flamelets; the formula would give a height at or below zero near Q^(2/5)/D = 4.3).
double heskestadFlameHeight(double kw, double diameter);
double heskestadVirtualOrigin(double kw, double diameter);
inline constexpr double kHeskestadMinRatio = 7.0, kHeskestadMaxRatio = 700.0;  // Q^(2/5) / D, kW^(2/5)/m

// McCaffrey (1979, NBSIR 79-1910, "Purely buoyant diffusion flames"): the centreline of a fire in the scaled
// height eta = z / Q^(2/5) (m kW^-2/5) falls in three regimes, each a power law of eta for the upward velocity
// (u / Q^(1/5), m s^-1 kW^-1/5) and the temperature rise (K). The constants are McCaffrey's, as NIST's FDS
// Validation Guide plots them: continuous flame (eta < 0.08) u/Q^(1/5) = 6.84 eta^(1/2), dT = 800;
// intermittent (0.08 <= eta <= 0.20) u/Q^(1/5) = 1.93, dT = 63 / eta; plume (eta > 0.20)
// u/Q^(1/5) = 1.12 eta^(-1/3), dT = 21.6 eta^(-5/3).
enum class McCaffreyRegime { Continuous, Intermittent, Plume };
inline constexpr double kMcCaffreyContinuousEnd = 0.08, kMcCaffreyIntermittentEnd = 0.20;  // m kW^-2/5
struct McCaffreyPoint {
    McCaffreyRegime regime;
    double velocityScaled;   // u / Q^(1/5), m s^-1 kW^-1/5
    double temperatureRise;  // K
};
McCaffreyPoint mcCaffrey(double eta);
std::string_view regimeName(McCaffreyRegime r);  // "continuous", "intermittent", "plume"
// The same at height z (m) above the fire's base for power Q (kW): u in m/s, dT in K.
struct CentrelinePoint {
    McCaffreyRegime regime;
    double velocity;         // m/s
    double temperatureRise;  // K
};
CentrelinePoint mcCaffreyAt(double z, double kw);

// Cetegen & Ahmed (1993, Combust. Flame 93, "Experiments on the periodic instability of buoyant plumes and pool
// fires"): pool fires puff at f = 1.5 D^(-1/2) Hz (D in m), over pools from centimetres to tens of metres.
double puffingFrequency(double diameter);
inline constexpr double kPuffingMinDiameter = 0.03, kPuffingMaxDiameter = 50.0;  // m, the data it was fitted to

// Heskestad's far field (SFPE Handbook): above the flame, a plume from the virtual origin z0 with the
// convective power Qc = kConvectiveFraction Q: dT0 = 9.1 (T_inf / (g cp^2 rho^2))^(1/3) Qc^(2/3) (z - z0)^(-5/3)
// and u0 = 3.4 (g / (cp rho T_inf))^(1/3) Qc^(1/3) (z - z0)^(-1/3); at ambient air these are 25.0 and 1.03 times
// the powers. Valid above the mean flame height (and where dT0 is small against T_inf); nothing at or below z0.
struct PlumePoint {
    double velocity;         // m/s
    double temperatureRise;  // K
};
PlumePoint heskestadPlume(double z, double kw, double diameter);

// Whether a fire of this size and power lies where the flame-height correlation was fitted (Heskestad's
// ratio) and the puffing one (Cetegen & Ahmed's diameters); what the fire's own settings refuse beyond.
bool inFlameHeightRange(double kw, double diameter);
bool inPuffingRange(double diameter);

}  // namespace firelab::physics

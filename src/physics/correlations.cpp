#include "physics/correlations.h"

#include <cmath>
#include <limits>

namespace firelab::physics {

namespace {
double twoFifths(double kw) { return std::pow(kw, 0.4); }
}  // namespace

double heskestadFlameHeight(double kw, double diameter) { return 0.235 * twoFifths(kw) - 1.02 * diameter; }

double heskestadVirtualOrigin(double kw, double diameter) { return 0.083 * twoFifths(kw) - 1.02 * diameter; }

McCaffreyPoint mcCaffrey(double eta) {
    if (eta < kMcCaffreyContinuousEnd) return {McCaffreyRegime::Continuous, 6.84 * std::sqrt(eta), 800.0};
    if (eta <= kMcCaffreyIntermittentEnd) return {McCaffreyRegime::Intermittent, 1.93, 63.0 / eta};
    return {McCaffreyRegime::Plume, 1.12 * std::pow(eta, -1.0 / 3.0), 21.6 * std::pow(eta, -5.0 / 3.0)};
}

std::string_view regimeName(McCaffreyRegime r) {
    switch (r) {
    case McCaffreyRegime::Continuous: return "continuous";
    case McCaffreyRegime::Intermittent: return "intermittent";
    case McCaffreyRegime::Plume: return "plume";
    }
    return "?";
}

CentrelinePoint mcCaffreyAt(double z, double kw) {
    const McCaffreyPoint p = mcCaffrey(z / twoFifths(kw));
    return {p.regime, p.velocityScaled * std::pow(kw, 0.2), p.temperatureRise};
}

double puffingFrequency(double diameter) { return 1.5 / std::sqrt(diameter); }

PlumePoint heskestadPlume(double z, double kw, double diameter) {
    const double above = z - heskestadVirtualOrigin(kw, diameter);
    if (above <= 0.0) {
        const double nan = std::numeric_limits<double>::quiet_NaN();
        return {nan, nan};
    }
    const double qc = kConvectiveFraction * kw;
    const double rho = kAmbientDensity, cp = kAirHeatCapacity, t = kAmbientKelvin, g = kGravity;
    const double temperatureScale = 9.1 * std::cbrt(t / (g * cp * cp * rho * rho));
    const double velocityScale = 3.4 * std::cbrt(g / (cp * rho * t));
    return {velocityScale * std::cbrt(qc) * std::pow(above, -1.0 / 3.0),
            temperatureScale * std::pow(qc, 2.0 / 3.0) * std::pow(above, -5.0 / 3.0)};
}

bool inFlameHeightRange(double kw, double diameter) {
    if (!(kw > 0.0) || !(diameter > 0.0)) return false;
    const double ratio = twoFifths(kw) / diameter;
    return ratio >= kHeskestadMinRatio && ratio <= kHeskestadMaxRatio;
}

bool inPuffingRange(double diameter) { return diameter >= kPuffingMinDiameter && diameter <= kPuffingMaxDiameter; }

}  // namespace firelab::physics

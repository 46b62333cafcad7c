#include "physics/comparison.h"

#include <cmath>
#include <limits>
#include <numbers>

#include "physics/correlations.h"

namespace firelab::physics {

namespace {
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
double relativeError(double measured, double expected) {
    return std::isfinite(measured) && std::isfinite(expected) && expected != 0.0 ? measured / expected - 1.0 : kNaN;
}
}  // namespace

double poolDiameter(const sim::FireParams& p) {
    const double pi = std::numbers::pi;
    switch (p.shape) {
    case sim::EmitterShape::Circle: return 2.0 * p.extent.x;
    case sim::EmitterShape::Rect: return std::sqrt(4.0 * (2.0 * p.extent.x) * (2.0 * p.extent.z) / pi);
    case sim::EmitterShape::Sphere: return 2.0 * p.extent.x;  // its cross-section
    case sim::EmitterShape::Ring: return 2.0 * p.extent.x;    // the circle it rims
    default: return kNaN;
    }
}

double heskestadInversePower(double flameHeight, double diameter) {
    if (!(flameHeight > 0.0) || !(diameter > 0.0)) return kNaN;
    return std::pow((flameHeight + 1.02 * diameter) / 0.235, 2.5);
}

Comparison compare(const FireStatistics& s, const sim::FireParams& flame, const FireSize& given) {
    Comparison c;
    c.powerGiven = given.heatRelease > 0.0;
    c.diameter = given.diameter > 0.0 ? given.diameter : poolDiameter(flame);
    c.heatRelease = c.powerGiven ? given.heatRelease : heskestadInversePower(s.flameHeight, c.diameter);
    c.powerFrom = c.powerGiven ? given.heatReleaseFrom : "Heskestad's flame height inverted at the measured one";
    c.flameHeight = std::isfinite(c.heatRelease) ? heskestadFlameHeight(c.heatRelease, c.diameter) : kNaN;
    c.puffing = c.diameter > 0.0 ? puffingFrequency(c.diameter) : kNaN;
    // An inferred power makes the flame height right by construction: no error to report.
    c.flameHeightError = c.powerGiven ? relativeError(s.flameHeight, c.flameHeight) : kNaN;
    // A spectrum with no power above the lowest frequency sought has no peak (peakHz stays 0): no error either.
    const auto peak = [](const Spectrum& sp) { return sp.peakHz > 0.0 ? sp.peakHz : kNaN; };
    c.tipPeakError = relativeError(peak(s.tipSpectrum), c.puffing);
    c.emissionPeakError = relativeError(peak(s.powerSpectrum), c.puffing);
    return c;
}

}  // namespace firelab::physics

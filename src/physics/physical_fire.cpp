#include "physics/physical_fire.h"

#include <cmath>
#include <string>

#include "core/error.h"
#include "core/text.h"
#include "physics/correlations.h"

namespace firelab::physics {

namespace {
// McCaffrey's continuous flame, u = 6.84 z^(1/2) (Q's powers cancel): a parcel from rest under a constant
// acceleration u^2 / 2z.
constexpr double kBuoyantAccel = 6.84 * 6.84 / 2.0;  // m/s^2
// The share of the buoyant acceleration the sway, the fuel's exit speed and each variance take.
constexpr double kSwayShare = 0.25, kExitShare = 0.1, kLifeSpread = 0.25;
// McCaffrey's continuous flame, where the flame is always there, is 800 K above ambient: the flame's own
// temperature. A parcel burns at it and cools by kBurnoutCooling by the end of its life (the flame's tip).
constexpr double kFlameKelvin = kAmbientKelvin + 800.0, kBurnoutCooling = 100.0;

double flameSpeed(double kw) { return 1.93 * std::pow(kw, 0.2); }  // McCaffrey's intermittent u, m/s

std::string text(double v) { return core::formatFloat(static_cast<float>(v)); }
}  // namespace

const std::array<MappedParam, 13> kPhysicalFireMapping{{
    {"emitter, distribution, extent", "circle, uniform, radius D/2", "the pool"},
    {"cone", "5 degrees", "a pool's vapour rises straight up"},
    {"accel", "(0, a, 0), a = 6.84^2 / 2 = 23.4 m/s^2", "calibration: McCaffrey's continuous flame u = 6.84 z^(1/2)"},
    {"drag", "k = a / u_f, u_f = 1.93 Q^(1/5)",
     "calibration: McCaffrey's intermittent u = 1.93 Q^(1/5) as terminal speed"},
    {"speed, speed-var", "(0, 0.1 u_f, 0), 0.1 u_f per axis", "the fuel's exit: small against the buoyant rise"},
    {"accel-var", "(0.1 a, 0.25 a, 0.1 a)", "spread of parcels"},
    {"lifetime", "the time y(t) = (a/k) t - (a/k^2)(1 - e^(-kt)) reaches 4.4 L, L = 0.235 Q^(2/5) - 1.02 D",
     "calibration: Heskestad's flame height, the factor 4.4 (kLifeReach) set at D = 1 m, Q = 1000 kW"},
    {"lifetime-var", "0.25 x lifetime", "spread of parcels"},
    {"size-start, size-end", "0.4 D, 0.3 D", "a parcel of the pool's scale, shrinking little"},
    {"turbulence", "0.25 a", "the sway: a quarter of the buoyant acceleration"},
    {"turbulence-freq, turbulence-speed", "1 / D, u_f / D",
     "prediction: an eddy of the fire's size turning over at the flame's speed (not Cetegen & Ahmed's)"},
    {"color", "blackbody", "the probes read the parcels' temperatures"},
    {"temperature", "1093 K : 993 K",
     "calibration: McCaffrey's continuous flame, 800 K above 293 K, cooling 100 K as it burns out"},
}};

void validate(const FireSize& fire) {
    const std::string d = "--fire-diameter " + text(fire.diameter), q = "--heat-release " + text(fire.heatRelease);
    if (!(fire.diameter > 0.0) || !(fire.heatRelease > 0.0)) {
        if (fire.diameter != 0.0 && !(fire.diameter > 0.0))
            throw Error(ErrorCode::BadValue, d + ": a pool's diameter in m, above 0");
        if (fire.heatRelease != 0.0 && !(fire.heatRelease > 0.0))
            throw Error(ErrorCode::BadValue, q + ": a heat release rate in kW, above 0");
        throw Error(ErrorCode::BadValue,
                    (fire.diameter > 0.0 ? d + " needs --heat-release" : q + " needs --fire-diameter") +
                        ": a parameterised fire takes both, its diameter (m) and its power (kW)");
    }
    if (!inPuffingRange(fire.diameter))
        throw Error(ErrorCode::BadValue, d + ": allowed " + text(kPuffingMinDiameter) + " to " +
                                             text(kPuffingMaxDiameter) +
                                             " m, the pools Cetegen & Ahmed's puffing correlation was fitted to");
    if (!inFlameHeightRange(fire.heatRelease, fire.diameter)) {
        const double ratio = std::pow(fire.heatRelease, 0.4) / fire.diameter;
        throw Error(ErrorCode::BadValue, q + " with " + d + ": Q^(2/5) / D = " + text(ratio) + " kW^(2/5)/m; allowed " +
                                             text(kHeskestadMinRatio) + " to " + text(kHeskestadMaxRatio) +
                                             ", the range of Heskestad's flame height (for this diameter, " +
                                             text(std::pow(kHeskestadMinRatio * fire.diameter, 2.5)) + " to " +
                                             text(std::pow(kHeskestadMaxRatio * fire.diameter, 2.5)) + " kW)");
    }
}

double riseTime(double accel, double drag, double height) {
    const auto rise = [&](double t) { return accel / drag * t - accel / (drag * drag) * (1.0 - std::exp(-drag * t)); };
    double lo = 0.0, hi = 1.0;
    while (rise(hi) < height && hi < 1e6) hi *= 2.0;
    for (int i = 0; i < 100; ++i) {
        const double mid = 0.5 * (lo + hi);
        (rise(mid) < height ? lo : hi) = mid;
    }
    return 0.5 * (lo + hi);
}

namespace {
// Every scalar and vector parameter the mapping set lies in the model's range (sim::visitParams'), or the size
// and power are refused together: a 3 cm pool at 10 kW would need its sway to turn faster than the model allows.
struct InModelRange {
    const FireSize& fire;
    void check(std::string_view name, float v, float lo, float hi) const {
        if (v >= lo && v <= hi) return;
        throw Error(ErrorCode::BadValue, "--heat-release " + text(fire.heatRelease) + " with --fire-diameter " +
                                             text(fire.diameter) + ": the parameterised fire's " + std::string(name) +
                                             " would be " + text(v) + ", outside the model's " + text(lo) + " to " +
                                             text(hi) + "; a larger pool or a different power");
    }
    void scalar(std::string_view name, const float& v, float lo, float hi, std::string_view, unsigned = 0) const {
        check(name, v, lo, hi);
    }
    void vec3(std::string_view name, const glm::vec3& v, float lo, float hi, std::string_view, unsigned = 0) const {
        for (int i = 0; i < 3; ++i) check(name, v[i], lo, hi);
    }
    template <class... A>
    void choice(A&&...) const {}
    template <class... A>
    void count(A&&...) const {}
    template <class... A>
    void seed(A&&...) const {}
    template <class... A>
    void gradient(A&&...) const {}
    template <class... A>
    void span(A&&...) const {}
};
}  // namespace

sim::FireParams physicalFire(const sim::FireParams& base, const FireSize& fire) {
    validate(fire);
    const double d = fire.diameter, kw = fire.heatRelease;
    const double a = kBuoyantAccel, uf = flameSpeed(kw), k = a / uf;
    const double reach = kLifeReach * heskestadFlameHeight(kw, d);
    const double life = riseTime(a, k, reach);
    const auto f = [](double v) { return static_cast<float>(v); };

    sim::FireParams p = base;
    p.shape = sim::EmitterShape::Circle;
    p.distribution = sim::Distribution::Uniform;
    p.extent = {f(d / 2), 0.0f, f(d / 2)};
    p.coneAngleDeg = 5.0f;
    p.speedMean = {0.0f, f(kExitShare * uf), 0.0f};
    p.speedVar = glm::vec3(f(kExitShare * uf));
    p.accelMean = {0.0f, f(a), 0.0f};
    p.accelVar = {f(0.1 * a), f(0.25 * a), f(0.1 * a)};
    p.drag = f(k);
    p.turbulence = f(kSwayShare * a);
    p.turbulenceFrequency = f(1.0 / d);
    p.turbulenceSpeed = f(uf / d);
    p.lifetimeMean = f(life);
    p.lifetimeVar = f(kLifeSpread * life);
    p.sizeStart = f(0.4 * d);
    p.sizeEnd = f(0.3 * d);
    p.color = sim::ColorModel::Blackbody;
    p.temperature = {f(kFlameKelvin), f(kFlameKelvin - kBurnoutCooling)};
    p.temperatureVar = 0.0f;
    p.temperatureRef = 0.0f;
    p.heatRelease = f(kw);
    sim::visitParams(p, InModelRange{fire});
    return p;
}

}  // namespace firelab::physics

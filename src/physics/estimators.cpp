#include "physics/estimators.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <numbers>

#include <fftw3.h>

#include "core/error.h"

namespace firelab::physics {

std::vector<double> intermittency(const std::vector<uint8_t>& presence, size_t bins) {
    std::vector<double> profile(bins, 0.0);
    if (bins == 0 || presence.empty()) return profile;
    const size_t frames = presence.size() / bins;
    for (size_t f = 0; f < frames; ++f)
        for (size_t b = 0; b < bins; ++b) profile[b] += presence[f * bins + b] ? 1.0 : 0.0;
    for (double& v : profile) v /= static_cast<double>(frames);
    return profile;
}

double halfIntermittencyHeight(const std::vector<double>& profile, double binSize) {
    const double nan = std::numeric_limits<double>::quiet_NaN();
    if (profile.empty() || profile[0] < 0.5) return nan;
    for (size_t b = 1; b < profile.size(); ++b) {
        if (profile[b] >= 0.5) continue;
        const double above = profile[b - 1], below = profile[b];  // above >= 0.5 > below
        const double fraction = (above - 0.5) / (above - below);
        return (static_cast<double>(b) - 0.5 + fraction) * binSize;
    }
    return nan;
}

double cumulativeHeight(const std::vector<double>& perMetre, double binSize, double share) {
    double total = 0.0;
    for (double v : perMetre) total += std::max(v, 0.0) * binSize;
    if (!(total > 0.0)) return std::numeric_limits<double>::quiet_NaN();
    const double due = share * total;
    double below = 0.0;
    for (size_t b = 0; b < perMetre.size(); ++b) {
        const double in = std::max(perMetre[b], 0.0) * binSize;
        if (below + in >= due) return (static_cast<double>(b) + (due - below) / in) * binSize;
        below += in;
    }
    return static_cast<double>(perMetre.size()) * binSize;
}

double attachedTip(const uint8_t* row, size_t bins, double binSize) {
    size_t b = 0;
    while (b < bins && row[b]) ++b;
    return static_cast<double>(b) * binSize;
}

namespace {
struct FftwFree {
    void operator()(void* p) const { fftw_free(p); }
};
struct PlanDestroy {
    void operator()(fftw_plan p) const { fftw_destroy_plan(p); }
};
}  // namespace

Spectrum powerSpectrum(const std::vector<double>& series, double dt, double minHz) {
    const size_t n = series.size();
    if (n < 4 || !(dt > 0.0))
        throw Error(ErrorCode::BadValue,
                    "a spectrum needs at least 4 samples at a positive step (got " + std::to_string(n) + " samples)");
    double mean = 0.0;
    for (double v : series) mean += v;
    mean /= static_cast<double>(n);

    std::unique_ptr<double, FftwFree> in(fftw_alloc_real(n));
    std::unique_ptr<fftw_complex, FftwFree> out(fftw_alloc_complex(n / 2 + 1));
    double windowEnergy = 0.0;
    for (size_t i = 0; i < n; ++i) {
        const double w = 0.5 - 0.5 * std::cos(2.0 * std::numbers::pi * static_cast<double>(i) / static_cast<double>(n));
        in.get()[i] = (series[i] - mean) * w;
        windowEnergy += w * w;
    }
    const std::unique_ptr<fftw_plan_s, PlanDestroy> plan(
        fftw_plan_dft_r2c_1d(static_cast<int>(n), in.get(), out.get(), FFTW_ESTIMATE));
    fftw_execute(plan.get());

    Spectrum s;
    s.resolutionHz = 1.0 / (static_cast<double>(n) * dt);
    const size_t half = n / 2 + 1;
    s.frequency.resize(half);
    s.power.resize(half);
    for (size_t k = 0; k < half; ++k) {
        const double re = out.get()[k][0], im = out.get()[k][1];
        const bool edge = k == 0 || (n % 2 == 0 && k == n / 2);  // DC and Nyquist appear once
        s.frequency[k] = static_cast<double>(k) * s.resolutionHz;
        s.power[k] = (edge ? 1.0 : 2.0) * (re * re + im * im) * dt / windowEnergy;
        if (k > 0 && s.frequency[k] >= minHz && s.power[k] > s.peakPower)
            s.peakPower = s.power[k], s.peakHz = s.frequency[k];
    }
    return s;
}

}  // namespace firelab::physics

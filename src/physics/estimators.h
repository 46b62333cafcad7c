// The estimators a fire experiment applies to its record, on plain series: the intermittency of a flame by
// height and the height where it falls through one half, the attached flame's tip in one frame, and the power
// spectrum of a series with its peak and the resolution the window allows. GL-free and model-free: the
// probes (physics/fire_probe.h) feed them the simulated fire, the tests synthetic flames of known height and
// frequency.
//
//   const auto profile = physics::intermittency(presence, bins);        // fraction of frames present per bin
//   const double L = physics::halfIntermittencyHeight(profile, 0.05);   // m: where it falls through 0.5
//   const physics::Spectrum s = physics::powerSpectrum(tip, 1.0 / 60, 0.2);  // s.peakHz, s.resolutionHz
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

namespace firelab::physics {

// Presence is frames x bins, row-major (frame f, height bin b at f * bins + b), 1 where the flame is there.
// The fraction of frames present in each bin.
std::vector<double> intermittency(const std::vector<uint8_t>& presence, size_t bins);
// The height (m) where an intermittency profile whose bin b is centred at (b + 1/2) binSize falls through 0.5
// going up from the base: linear between the centres of the last bin at or above 0.5 and the first below it.
// NaN where the lowest bin is already below 0.5 (no attached flame) or no bin falls below it (the probe column
// ends inside the flame).
double halfIntermittencyHeight(const std::vector<double>& profile, double binSize);
// The height (m) below which `share` of a profile's total lies, the profile per metre in bins of binSize from the
// base: the cumulative sum, linear within the bin where it passes the share. Fire science's flame height from the
// heat release per unit height (the heights holding 95 % and 99 % of it). NaN where the profile holds nothing.
double cumulativeHeight(const std::vector<double>& perMetre, double binSize, double share);
// One frame's attached flame: the top (m) of the run of present bins that starts at the base, 0 when the
// lowest bin is empty. `row` points at the frame's `bins` entries.
double attachedTip(const uint8_t* row, size_t bins, double binSize);

// The one-sided power spectrum of a series sampled every dt seconds: its mean removed, a Hann window, FFTW's
// real transform; power[k] at frequency k / (n dt). The peak is the largest power at or above minHz (the DC bin
// never); resolutionHz = 1 / (n dt), the spacing of the frequencies (the Hann window's main lobe is two of
// them wide), so a tone at f is found within one resolution of f.
struct Spectrum {
    std::vector<double> frequency;  // Hz
    std::vector<double> power;      // the series' units squared per Hz
    double peakHz = 0.0;
    double peakPower = 0.0;
    double resolutionHz = 0.0;
};
Spectrum powerSpectrum(const std::vector<double>& series, double dt, double minHz);

}  // namespace firelab::physics

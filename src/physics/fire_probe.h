// The probes of a fire experiment, on the simulated fire itself (its particles, not a picture): a column of
// height bins up the fire's axis from its base, sampled once a step over a window of steady-state time.
//   - Each bin's luminous emission in each frame, over the whole cross-section: the particles' emitted
//     luminance, sum of Y(rgb) x alpha x size^2 (the light a sprite of that colour and coverage sends). The
//     flame is present in a bin in a frame where that is at least `threshold` times the largest time-mean
//     emission of any bin (the flame's core); the intermittency and its 0.5 height follow (physics/estimators.h).
//   - The centreline: a Gaussian kernel of standard deviation `centrelineRadius` in the distance from the axis
//     (cut at three of them). The mean temperature rise above ambient is emission-weighted (kernel x emission,
//     the particles' own temperatures under --color blackbody; none under a gradient's colours, which have no
//     temperature); the mean upward velocity is parcel-weighted (kernel alone: each particle a parcel of gas).
//   - Two series a frame: the attached flame's tip and the total emitted power, whose spectra give the puffing.
//
//   physics::FireProbe probe(settings, params.center);
//   for (each step) { fire.step(dt); probe.beginFrame(); probe.add(fire); }
//   const physics::FireStatistics s = probe.finish(dt, minHz);
#pragma once
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

#include <glm/vec3.hpp>

#include "physics/estimators.h"
#include "fluid/fluid_sim.h"
#include "sim/fire_system.h"

namespace firelab::physics {

struct ProbeSettings {
    float binSize = 0.05f;           // m, each height bin
    float top = 3.0f;                // m above the base: the column's height
    float centrelineRadius = 0.05f;  // m, the centreline kernel's standard deviation
    float threshold = 0.05f;         // presence: emission >= threshold x the largest time-mean bin's
    float minFrequency = 0.25f;      // Hz: the spectra's peaks are sought at or above it
    size_t bins() const;
};

// The probe settings' names, ranges (lo, hi], and help, for every front end: a visitor provides
//   void scalar(std::string_view name, float& v, float lo, float hi, std::string_view help);
template <class S, class V>
void visitProbeSettings(S& s, V&& v) {
    v.scalar("bin", s.binSize, 0.0f, 10.0f, "height of each bin of the probe column (m)");
    v.scalar("top", s.top, 0.0f, 1000.0f, "the probe column's height above the fire's base (m)");
    v.scalar("centreline-radius", s.centrelineRadius, 0.0f, 100.0f,
             "standard deviation of the centreline's Gaussian kernel in the distance from the axis (m), cut at 3");
    v.scalar("flame-threshold", s.threshold, 0.0f, 1.0f,
             "a bin holds the flame in a frame where its emission is at least this fraction of the largest "
             "time-mean bin's");
    v.scalar("min-frequency", s.minFrequency, 0.0f, 100.0f,
             "the lowest frequency the spectra's peaks are sought at (Hz); the window must hold four periods of it");
}
inline constexpr size_t kMaxProbeBins = 100000;
// Throws Error(BadValue) naming the setting (as --NAME), its value and its range: each value in its (lo, hi],
// at most kMaxProbeBins bins, a window (s) of at least four periods of minFrequency.
void validate(const ProbeSettings& s, double windowSeconds);

// One height bin of the record (physics.csv's row).
struct HeightRow {
    double z = 0.0;                 // m above the base, the bin's centre
    double intermittency = 0.0;     // fraction of frames with the flame present
    double emission = 0.0;          // time-mean luminous emission per metre of height (relative units)
    double temperatureRise = 0.0;   // K, centreline, emission-weighted; NaN without temperatures or particles
    double velocity = 0.0;          // m/s upward, centreline, parcel-weighted; NaN without particles
    double centrelineWeight = 0.0;  // the kernel's weight summed over the window (how much the means rest on)
    double heatRelease = 0.0;       // kW per metre of height, time-mean; NaN for particles (they release none)
};

struct FireStatistics {
    std::vector<HeightRow> rows;
    double flameHeight = 0.0;  // m, intermittency 0.5 (NaN: none, see halfIntermittencyHeight)
    // m, the heights holding 95 % and 99 % of the time-mean heat release (cumulativeHeight); NaN for particles.
    double heatReleaseHeight95 = 0.0, heatReleaseHeight99 = 0.0;
    double meanTip = 0.0;        // m, the attached flame's tip averaged over the frames
    double presenceLevel = 0.0;  // the emission per metre a bin needs to count as flame
    size_t frames = 0;
    bool hasTemperature = false;  // the particles had temperatures (every layer under --color blackbody)
    std::vector<double> tip;      // m, a frame each
    std::vector<double> power;    // relative, a frame each
    Spectrum tipSpectrum, powerSpectrum;
};

class FireProbe {
public:
    // `base`: the bottom of the column, on the fire's axis (the emitter's centre).
    FireProbe(const ProbeSettings& settings, const glm::vec3& base);
    // Starts a frame; add() then puts one fire's (one layer's) live particles into it.
    void beginFrame();
    void add(const sim::FireSystem& fire);
    // The grid fluid's gas instead of particles (--model fluid): each cell's light (fluid::GridLight, `look` the
    // model whose blackbody scale it shares) times its volume is its emission; the centreline's temperature rise is
    // emission-weighted and its velocity (the cell-centred upward velocity) volume-weighted, by the same kernel; each
    // cell's heat release (FluidState::release) goes to its bin's.
    void add(const fluid::FluidSim& grid, const sim::FireParams& look);
    size_t frames() const { return frames_; }
    // The statistics of the frames recorded, sampled every dt s; spectra's peaks at or above minHz.
    FireStatistics finish(double dt, double minHz) const;

private:
    ProbeSettings settings_;
    glm::vec3 base_;
    size_t bins_;
    size_t frames_ = 0;
    bool hasTemperature_ = true;
    std::vector<float> emission_;                                              // frames x bins, per metre
    std::vector<double> power_;                                                // a frame each
    std::vector<double> heatSum_, heatWeight_, velocitySum_, velocityWeight_;  // per bin, over the window
    std::vector<double> releaseSum_;  // per bin, kW summed over the window's frames (the grid's alone)
    double releaseAbove_ = 0.0;       // kW summed over the frames, released above the column's top
    bool hasRelease_ = false;
};

}  // namespace firelab::physics

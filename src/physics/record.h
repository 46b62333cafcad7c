// A fire's statistics as files: physics.csv (a row per height bin), spectrum.csv (a row per frequency, the
// attached tip's and the emitted power's spectra), meta.json (how it was taken, and its summary). The columns are declared once here, with their units and
// meaning; the headers and docs/physics.md's table come from these lists.
//
//   const physics::Record record{stats, physics::compare(stats, flame, size)};
//   physics::writeHeightCsv(record, file.stream());
//   physics::writeSpectrumCsv(record, file.stream());
#pragma once
#include <array>
#include <cmath>
#include <filesystem>
#include <limits>
#include <ostream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <glm/vec3.hpp>

#include "physics/comparison.h"
#include "physics/correlations.h"
#include "physics/fire_probe.h"

namespace firelab::physics {

// What a record holds: the fire's statistics and the correlations' values for a fire of its size and power.
struct Record {
    FireStatistics stats;
    Comparison against;
};

// A column: its name, what it holds, and where its value comes from (row i of the file).
struct Column {
    std::string_view name, help;
    double (*value)(const Record&, size_t row);
};

inline constexpr std::array kHeightColumns{
    Column{"z_m", "height of the bin's centre above the fire's base (m)",
           [](const Record& r, size_t i) { return r.stats.rows[i].z; }},
    Column{"z_scaled", "z / Q^(2/5), the height fire science plots the centreline in (m kW^-2/5; Q: meta.json's)",
           [](const Record& r, size_t i) { return r.stats.rows[i].z / std::pow(r.against.heatRelease, 0.4); }},
    Column{"intermittency", "fraction of the window's frames in which the flame is present in the bin",
           [](const Record& r, size_t i) { return r.stats.rows[i].intermittency; }},
    Column{"emission", "time-mean luminous emission per metre of height (relative: sum of Y x alpha x size^2)",
           [](const Record& r, size_t i) { return r.stats.rows[i].emission; }},
    Column{"centreline_temperature_rise_k",
           "mean temperature above 293 K on the axis, emission-weighted (K); empty without --color blackbody",
           [](const Record& r, size_t i) { return r.stats.rows[i].temperatureRise; }},
    Column{"centreline_velocity_ms", "mean upward velocity on the axis, parcel-weighted (m/s)",
           [](const Record& r, size_t i) { return r.stats.rows[i].velocity; }},
    Column{"centreline_weight", "the centreline kernel's weight summed over the window: how much the means rest on",
           [](const Record& r, size_t i) { return r.stats.rows[i].centrelineWeight; }},
    Column{"heat_release_kw_per_m", "time-mean heat release per metre of height (kW/m); empty for particles",
           [](const Record& r, size_t i) { return r.stats.rows[i].heatRelease; }},
    Column{"mccaffrey_temperature_rise_k", "McCaffrey's centreline temperature rise at this height and Q (K)",
           [](const Record& r, size_t i) {
               return mcCaffreyAt(r.stats.rows[i].z, r.against.heatRelease).temperatureRise;
           }},
    Column{"mccaffrey_velocity_ms", "McCaffrey's centreline velocity at this height and Q (m/s)",
           [](const Record& r, size_t i) { return mcCaffreyAt(r.stats.rows[i].z, r.against.heatRelease).velocity; }},
};

inline constexpr std::array kSpectrumColumns{
    Column{"frequency_hz", "frequency (Hz): k / window, every resolution_hz",
           [](const Record& r, size_t k) { return r.stats.tipSpectrum.frequency[k]; }},
    Column{"tip_power", "power spectral density of the attached flame's tip height (m^2/Hz)",
           [](const Record& r, size_t k) { return r.stats.tipSpectrum.power[k]; }},
    Column{"emission_power", "power spectral density of the total emitted power (relative units^2/Hz)",
           [](const Record& r, size_t k) { return r.stats.powerSpectrum.power[k]; }},
};

// summary.csv of `firelab physics --experiment`: a row per run, its run key first, then these.
// A measured flame height / Heskestad's - 1 where the power was the fire's own; NaN where it was inferred from the
// luminous height (as flame_height_error is).
inline double againstHeskestad(const Record& r, double height) {
    return r.against.powerGiven ? height / r.against.flameHeight - 1.0 : std::numeric_limits<double>::quiet_NaN();
}

inline constexpr std::array kSummaryColumns{
    Column{"diameter_m", "the pool's diameter (m): --fire-diameter, or the emitter's",
           [](const Record& r, size_t) { return r.against.diameter; }},
    Column{"heat_release_kw",
           "the power (kW): --heat-release, the grid fluid's combustion (--model fluid), or Heskestad's flame "
           "height inverted at the measured one",
           [](const Record& r, size_t) { return r.against.heatRelease; }},
    Column{"flame_height_m", "the measured flame height, intermittency 0.5 (m)",
           [](const Record& r, size_t) { return r.stats.flameHeight; }},
    Column{"heskestad_flame_height_m", "Heskestad's flame height at that diameter and power (m)",
           [](const Record& r, size_t) { return r.against.flameHeight; }},
    Column{"flame_height_error", "measured / Heskestad's - 1; empty where the power was inferred from the height",
           [](const Record& r, size_t) { return r.against.flameHeightError; }},
    Column{"flame_height_hrr95_m", "the height holding 95 % of the time-mean heat release (m); empty for particles",
           [](const Record& r, size_t) { return r.stats.heatReleaseHeight95; }},
    Column{"flame_height_hrr99_m", "the height holding 99 % of the time-mean heat release (m); empty for particles",
           [](const Record& r, size_t) { return r.stats.heatReleaseHeight99; }},
    Column{"hrr95_error", "flame_height_hrr95_m / Heskestad's - 1",
           [](const Record& r, size_t) { return againstHeskestad(r, r.stats.heatReleaseHeight95); }},
    Column{"hrr99_error", "flame_height_hrr99_m / Heskestad's - 1",
           [](const Record& r, size_t) { return againstHeskestad(r, r.stats.heatReleaseHeight99); }},
    Column{"mean_tip_m", "the attached flame's tip, mean over the window (m)",
           [](const Record& r, size_t) { return r.stats.meanTip; }},
    Column{"tip_peak_hz", "the tip's spectrum's peak (Hz)",
           [](const Record& r, size_t) { return r.stats.tipSpectrum.peakHz; }},
    Column{"emission_peak_hz", "the emitted power's spectrum's peak (Hz)",
           [](const Record& r, size_t) { return r.stats.powerSpectrum.peakHz; }},
    Column{"resolution_hz", "the spectra's frequency resolution, 1 / window (Hz)",
           [](const Record& r, size_t) { return r.stats.tipSpectrum.resolutionHz; }},
    Column{"cetegen_ahmed_puffing_hz", "Cetegen & Ahmed's puffing frequency at that diameter (Hz)",
           [](const Record& r, size_t) { return r.against.puffing; }},
    Column{"tip_peak_error", "the tip's peak / Cetegen & Ahmed's - 1",
           [](const Record& r, size_t) { return r.against.tipPeakError; }},
    Column{"emission_peak_error", "the emitted power's peak / Cetegen & Ahmed's - 1",
           [](const Record& r, size_t) { return r.against.emissionPeakError; }},
};

void writeHeightCsv(const Record& r, std::ostream& out);
void writeSpectrumCsv(const Record& r, std::ostream& out);
// Each run as (its run key, its record).
void writeSummaryCsv(const std::vector<std::pair<std::string, Record>>& runs, std::ostream& out);

// What meta.json says of a record beside its statistics: how it was taken.
struct RecordInfo {
    std::string commandLine, started, firelabVersion, gitCommit;
    std::string runKey;  // the run's key in an experiment (`firelab physics --experiment`); empty alone
    double windowSeconds = 0.0, dt = 0.0, prewarmSeconds = 0.0;
    glm::vec3 base{0.0f};
    ProbeSettings probe;
    // Each layer's name ("" for a model alone) and every model parameter's text (sim::getParam).
    struct Layer {
        std::string name;
        std::vector<std::pair<std::string, std::string>> params;
    };
    std::vector<Layer> layers;
};
// meta.json: {"record": "physics", the info, the summary (flame height, mean tip, the spectra's peaks and
// resolution, the presence level), the columns with their help}. Written to a temporary name and renamed.
void writeMetaJson(const std::filesystem::path& file, const RecordInfo& info, const Record& r);
// An experiment's meta.json (`firelab physics --experiment`): {"record": "physics", the experiment, `info`'s
// provenance, the runs' keys, those left out, summary.csv's columns}. Written to a temporary name and renamed.
void writeExperimentMetaJson(const std::filesystem::path& file, const RecordInfo& info, const std::string& experiment,
                             const std::vector<std::pair<std::string, Record>>& runs,
                             const std::vector<std::string>& leftOut);
// Whether `folder` holds a record of this kind (its meta.json says "record": "physics"): one that may be
// replaced. Anything else in a folder that is not empty is someone else's results.
bool holdsPhysicsRecord(const std::filesystem::path& folder);

}  // namespace firelab::physics

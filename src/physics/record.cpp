#include "physics/record.h"

#include <cmath>
#include <cstdio>
#include <fstream>
#include <string>

#include <nlohmann/json.hpp>

#include "core/atomic_file.h"

namespace firelab::physics {

namespace {
// A number as the CSV holds it: 6 significant figures, empty for NaN (no value there).
std::string cell(double v) {
    if (!std::isfinite(v)) return "";
    char text[32];
    std::snprintf(text, sizeof text, "%.6g", v);
    return text;
}

template <size_t N>
void writeTable(const FireStatistics& s, size_t rows, std::ostream& out, const std::array<Column, N>& columns) {
    for (size_t c = 0; c < N; ++c) out << (c ? "," : "") << columns[c].name;
    out << '\n';
    for (size_t i = 0; i < rows; ++i) {
        for (size_t c = 0; c < N; ++c) out << (c ? "," : "") << cell(columns[c].value(s, i));
        out << '\n';
    }
}
}  // namespace

void writeHeightCsv(const FireStatistics& s, std::ostream& out) { writeTable(s, s.rows.size(), out, kHeightColumns); }

void writeSpectrumCsv(const FireStatistics& s, std::ostream& out) {
    writeTable(s, s.tipSpectrum.frequency.size(), out, kSpectrumColumns);
}

namespace {
nlohmann::json number(double v) { return std::isfinite(v) ? nlohmann::json(v) : nlohmann::json(nullptr); }

nlohmann::json peakOf(const Spectrum& s) {
    return {
        {"peak_hz", number(s.peakHz)}, {"peak_power", number(s.peakPower)}, {"resolution_hz", number(s.resolutionHz)}};
}

template <size_t N>
nlohmann::json columnsOf(const std::array<Column, N>& columns) {
    nlohmann::json out = nlohmann::json::array();
    for (const Column& c : columns) out.push_back({{"name", c.name}, {"help", c.help}});
    return out;
}
}  // namespace

void writeMetaJson(const std::filesystem::path& file, const RecordInfo& info, const FireStatistics& s) {
    nlohmann::json probe;
    struct Visit {
        nlohmann::json& out;
        void scalar(std::string_view name, const float& v, float, float, std::string_view) const {
            out[std::string(name)] = v;
        }
    };
    visitProbeSettings(info.probe, Visit{probe});
    nlohmann::json layers = nlohmann::json::array();
    for (const RecordInfo::Layer& l : info.layers) {
        nlohmann::json params;
        for (const auto& [name, value] : l.params) params[name] = value;
        layers.push_back({{"name", l.name}, {"params", params}});
    }
    const nlohmann::json meta = {
        {"record", "physics"},
        {"command_line", info.commandLine},
        {"started", info.started},
        {"firelab_version", info.firelabVersion},
        {"window_s", info.windowSeconds},
        {"dt_s", info.dt},
        {"prewarm_s", info.prewarmSeconds},
        {"frames", s.frames},
        {"base_m", {info.base.x, info.base.y, info.base.z}},
        {"probe", probe},
        {"presence",
         "a bin holds the flame in a frame where its luminous emission (sum of Y x alpha x size^2 per "
         "metre) is at least flame-threshold x the largest time-mean bin's"},
        {"presence_level", s.presenceLevel},
        {"centreline_kernel", "Gaussian in the distance from the axis, sigma centreline-radius, cut at 3 sigma"},
        {"has_temperature", s.hasTemperature},
        {"layers", layers},
        {"summary",
         {{"flame_height_m", number(s.flameHeight)},
          {"mean_tip_m", number(s.meanTip)},
          {"tip_spectrum", peakOf(s.tipSpectrum)},
          {"emission_spectrum", peakOf(s.powerSpectrum)}}},
        {"columns", {{"physics.csv", columnsOf(kHeightColumns)}, {"spectrum.csv", columnsOf(kSpectrumColumns)}}},
    };
    core::AtomicFile out(file);
    out.stream() << meta.dump(2) << '\n';
    out.commit();
}

bool holdsPhysicsRecord(const std::filesystem::path& folder) {
    std::ifstream in(folder / "meta.json");
    if (!in) return false;
    const nlohmann::json meta = nlohmann::json::parse(in, nullptr, false);
    return meta.is_object() && meta.value("record", "") == "physics";
}

}  // namespace firelab::physics

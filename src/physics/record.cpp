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
void writeTable(const Record& s, size_t rows, std::ostream& out, const std::array<Column, N>& columns) {
    for (size_t c = 0; c < N; ++c) out << (c ? "," : "") << columns[c].name;
    out << '\n';
    for (size_t i = 0; i < rows; ++i) {
        for (size_t c = 0; c < N; ++c) out << (c ? "," : "") << cell(columns[c].value(s, i));
        out << '\n';
    }
}
}  // namespace

void writeHeightCsv(const Record& r, std::ostream& out) { writeTable(r, r.stats.rows.size(), out, kHeightColumns); }

void writeSpectrumCsv(const Record& r, std::ostream& out) {
    writeTable(r, r.stats.tipSpectrum.frequency.size(), out, kSpectrumColumns);
}

void writeSummaryCsv(const std::vector<std::pair<std::string, Record>>& runs, std::ostream& out) {
    out << "run_key";
    for (const Column& c : kSummaryColumns) out << ',' << c.name;
    out << '\n';
    for (const auto& [key, record] : runs) {
        out << '"';  // a key holds commas (a vector's value) and may hold quotes (a label's): quoted as CSV quotes
        for (const char ch : key) out << (ch == '"' ? "\"\"" : std::string(1, ch));
        out << '"';
        for (const Column& c : kSummaryColumns) out << ',' << cell(c.value(record, 0));
        out << '\n';
    }
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

namespace {
nlohmann::json comparisonOf(const Comparison& c) {
    return {{"diameter_m", number(c.diameter)},
            {"heat_release_kw", number(c.heatRelease)},
            {"heat_release_from", std::string(c.powerFrom)},
            {"heskestad_flame_height_m", number(c.flameHeight)},
            {"cetegen_ahmed_puffing_hz", number(c.puffing)},
            {"flame_height_error", number(c.flameHeightError)},
            {"tip_peak_error", number(c.tipPeakError)},
            {"emission_peak_error", number(c.emissionPeakError)}};
}
}  // namespace

void writeMetaJson(const std::filesystem::path& file, const RecordInfo& info, const Record& r) {
    const FireStatistics& s = r.stats;
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
        {"git_commit", info.gitCommit},
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
          {"flame_height_hrr95_m", number(s.heatReleaseHeight95)},
          {"flame_height_hrr99_m", number(s.heatReleaseHeight99)},
          {"mean_tip_m", number(s.meanTip)},
          {"tip_spectrum", peakOf(s.tipSpectrum)},
          {"emission_spectrum", peakOf(s.powerSpectrum)}}},
        {"correlations", comparisonOf(r.against)},
        {"columns", {{"physics.csv", columnsOf(kHeightColumns)}, {"spectrum.csv", columnsOf(kSpectrumColumns)}}},
        {"run_key", info.runKey},
    };
    core::AtomicFile out(file);
    out.stream() << meta.dump(2) << '\n';
    out.commit();
}

void writeExperimentMetaJson(const std::filesystem::path& file, const RecordInfo& info, const std::string& experiment,
                             const std::vector<std::pair<std::string, Record>>& runs,
                             const std::vector<std::string>& leftOut) {
    nlohmann::json keys = nlohmann::json::array();
    for (const auto& [key, record] : runs) keys.push_back(key);
    const nlohmann::json meta = {{"record", "physics"},
                                 {"experiment", experiment},
                                 {"command_line", info.commandLine},
                                 {"started", info.started},
                                 {"firelab_version", info.firelabVersion},
                                 {"git_commit", info.gitCommit},
                                 {"runs", keys},
                                 {"left_out", leftOut},
                                 {"columns", {{"summary.csv", columnsOf(kSummaryColumns)}}}};
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

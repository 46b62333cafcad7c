#include "harness/results/compare.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>

#include "core/atomic_file.h"
#include "core/error.h"
#include "harness/results/csv.h"
#include "harness/results/meta.h"

namespace firelab::harness {
namespace fs = std::filesystem;

namespace {

using Axes = std::vector<std::pair<std::string, std::vector<std::string>>>;

bool isSettingName(std::string_view s) {
    return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) {
        return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '_';
    });
}

std::string joined(const std::vector<std::string>& items) {
    std::string out;
    for (const auto& item : items) out += (out.empty() ? "" : ", ") + item;
    return out;
}

std::string joinParts(const KeyParts& parts) {
    std::string key;
    for (const auto& [name, value] : parts) key += (key.empty() ? "" : ";") + name + "=" + value;
    return key;
}

// A finite positive number, or nothing (empty, unparsable, zero, NaN).
std::optional<double> positive(const std::string& text) {
    if (text.empty()) return std::nullopt;
    char* end = nullptr;
    const double v = std::strtod(text.c_str(), &end);
    if (end != text.c_str() + text.size() || !std::isfinite(v) || v <= 0) return std::nullopt;
    return v;
}

std::string number(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.6g", v);
    return buf;
}

double medianOf(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return percentile(v, 50);
}

// A round that measured something: status ok and a frame time.
bool usable(const Row& r) { return r.at("status") == "ok" && positive(r.at("frame_ms_median")); }

// What a sweep folder holds, per configuration and round.
struct SweepRounds {
    std::vector<std::string> order;               // configurations, in the order runs.csv first lists them
    std::map<std::string, KeyParts> parts;        // each configuration's key, split
    std::map<std::string, Row> first;             // a row of each (its settings' columns)
    std::map<std::string, std::map<long, Row>> rounds;  // configuration -> round -> its best row
    Axes axes;                                    // meta.json's, or the keys' when it records none
    std::vector<std::string> warnings;
};

Axes recordedAxes(const fs::path& dir) {
    std::error_code ec;
    if (!fs::exists(dir / "meta.json", ec)) return {};
    const MetaRecord meta = readMeta(dir / "meta.json");
    return meta.config ? meta.config->axes : Axes{};
}

SweepRounds readSweep(const fs::path& dir) {
    std::error_code ec;
    if (!fs::exists(dir, ec))
        throw Error(ErrorCode::MissingFile, dir.string() + ": no such folder; name a sweep's results folder (results/NAME)");
    if (!fs::is_directory(dir, ec))
        throw Error(ErrorCode::MissingFile, dir.string() + ": not a folder; name a sweep's results folder (results/NAME)");
    const fs::path runsFile = dir / "runs.csv", roundsFile = dir / "rounds.csv";
    if (!fs::exists(runsFile, ec))
        throw Error(ErrorCode::MissingFile, dir.string() + ": no runs.csv, so not a sweep's results folder "
                                                           "(or its sweep has not finished)");
    const std::vector<Row> runs = readRunsCsv(runsFile);
    std::vector<Row> rows = fs::exists(roundsFile, ec) ? readRunsCsv(roundsFile) : std::vector<Row>{};
    const bool perRound = !rows.empty();
    const fs::path& roundsSource = perRound ? roundsFile : runsFile;
    if (!perRound) rows = runs;  // written before repetitions: each configuration ran once, round 1

    SweepRounds s;
    s.axes = recordedAxes(dir);
    const bool recorded = !s.axes.empty();
    std::vector<std::string> names;
    for (const auto& axis : s.axes) names.push_back(axis.first);
    const auto see = [&](const Row& r, const fs::path& file) {
        const std::string& key = r.at("run_key");
        if (s.parts.count(key)) return;
        try {
            s.parts[key] = splitRunKey(key, names);
        } catch (const Error& e) {
            throw Error(e.code(), file.string() + ": " + e.what() + " (meta.json's axes)");
        }
        s.order.push_back(key);
        s.first.emplace(key, r);
    };
    for (const Row& r : runs) see(r, runsFile);
    for (const Row& r : rows) see(r, roundsSource);
    if (!recorded) {  // the axes as the keys name them: names and values in order of first appearance
        for (const auto& key : s.order)
            for (const auto& part : s.parts[key]) {
                const auto& [name, value] = part;
                auto it = std::find_if(s.axes.begin(), s.axes.end(), [&](const auto& a) { return a.first == part.first; });
                if (it == s.axes.end()) it = s.axes.insert(s.axes.end(), {name, {}});
                if (std::find(it->second.begin(), it->second.end(), value) == it->second.end()) it->second.push_back(value);
            }
    }
    for (const Row& r : rows) {
        long round = 1;
        if (perRound) {
            char* end = nullptr;
            const std::string& text = r.at("round");
            round = std::strtol(text.c_str(), &end, 10);
            if (text.empty() || *end || round < 1) {
                s.warnings.push_back(roundsFile.string() + ": run " + r.at("run_key") + " has round '" + text +
                                     "', not 1 or more: left out");
                continue;
            }
        }
        // One row per configuration and round: an ok row beats a failed one, a later one an earlier one.
        auto [it, fresh] = s.rounds[r.at("run_key")].try_emplace(round, r);
        if (!fresh && (usable(r) || !usable(it->second))) it->second = r;
    }
    return s;
}

// The axis `key` names (a column name with '_' for '-' is taken too), or throws UnknownName.
const std::pair<std::string, std::vector<std::string>>& findAxis(const Axes& axes, const std::string& key,
                                                                 const std::string& flag) {
    std::vector<std::string> names;
    for (const auto& axis : axes) {
        std::string dashed = key;
        std::replace(dashed.begin(), dashed.end(), '_', '-');
        if (axis.first == key || axis.first == dashed) return axis;
        names.push_back(axis.first);
    }
    throw Error(ErrorCode::UnknownName, flag + ": '" + key + "' is not a swept setting of this sweep; " +
                                            (names.empty() ? "it sweeps nothing" : "its axes are " + joined(names)));
}

// The axis's value `value` stands for: the same text, or the same number (1e3 for 1000).
std::string findValue(const std::pair<std::string, std::vector<std::string>>& axis, const std::string& value,
                      const std::string& flag) {
    for (const auto& v : axis.second)
        if (v == value) return v;
    if (const auto n = positive(value))
        for (const auto& v : axis.second)
            if (positive(v) == n) return v;
    throw Error(ErrorCode::BadValue, flag + ": '" + value + "' is not among " + axis.first + "'s swept values (" +
                                         joined(axis.second) + ")");
}

std::string rowText(const RatioRow& r, const std::string& baseline) {
    const bool figures = r.rounds > 0;
    const auto fig = [&](double v) { return figures ? number(v) : std::string(); };
    const auto drawFig = [&](double Interval::*field) {
        return figures && r.drawRatio ? number((*r.drawRatio).*field) : std::string();
    };
    return csvLine({r.experiment, r.runKey, r.series, baseline, r.baselineKey, r.strategy, r.particles, r.innerAxis,
                    r.innerValue, std::to_string(r.rounds), fig(r.frameMs), fig(r.baselineFrameMs),
                    fig(r.frameRatio.median), fig(r.frameRatio.low), fig(r.frameRatio.high),
                    drawFig(&Interval::median), drawFig(&Interval::low), drawFig(&Interval::high), r.note});
}

}  // namespace

KeyParts splitRunKey(std::string_view key, const std::vector<std::string>& axisNames) {
    KeyParts parts;
    const auto refuse = [&](const std::string& why) {
        return Error(ErrorCode::BadFile, "run_key '" + std::string(key) + "': " + why);
    };
    if (axisNames.empty()) {
        if (key == "single") return parts;
        for (size_t start = 0;;) {
            const size_t semi = key.find(';', start);
            const std::string_view part = key.substr(start, semi == std::string_view::npos ? semi : semi - start);
            const size_t eq = part.find('=');
            if (eq != std::string_view::npos && isSettingName(part.substr(0, eq)))
                parts.emplace_back(std::string(part.substr(0, eq)), std::string(part.substr(eq + 1)));
            else if (!parts.empty())
                parts.back().second += ";" + std::string(part);  // a ';' inside a value
            else
                throw refuse("'" + std::string(part) + "' is not name=value");
            if (semi == std::string_view::npos) return parts;
            start = semi + 1;
        }
    }
    size_t pos = 0;
    for (size_t i = 0; i < axisNames.size(); ++i) {
        const std::string head = (i ? ";" : "") + axisNames[i] + "=";
        if (key.substr(pos, head.size()) != head) break;
        pos += head.size();
        const size_t end = i + 1 < axisNames.size() ? key.find(";" + axisNames[i + 1] + "=", pos) : key.size();
        if (end == std::string_view::npos) break;
        parts.emplace_back(axisNames[i], std::string(key.substr(pos, end - pos)));
        pos = end;
    }
    if (parts.size() != axisNames.size()) throw refuse("does not name the axes " + joined(axisNames) + " in that order");
    return parts;
}

Comparison compareToBaseline(const fs::path& dir, const std::string& baseline) {
    const std::string flag = "--baseline '" + baseline + "'";
    const size_t eq = baseline.find('=');
    SweepRounds sweep = readSweep(dir);
    std::vector<std::string> names;
    for (const auto& axis : sweep.axes) names.push_back(axis.first);
    if (eq == std::string::npos || eq == 0 || eq + 1 == baseline.size())
        throw Error(ErrorCode::BadValue, flag + ": not KEY=VALUE; name a swept setting and the value to compare "
                                                "against, e.g. strategy=points" +
                                                (names.empty() ? "" : " (swept here: " + joined(names) + ")"));
    const auto& axis = findAxis(sweep.axes, baseline.substr(0, eq), flag);
    const std::string key = axis.first, value = findValue(axis, baseline.substr(eq + 1), flag);
    // The innermost axis other than KEY is what a series is plotted against (particles, usually).
    std::string inner = key;
    for (const auto& a : sweep.axes)
        if (a.first != key) inner = a.first;

    Comparison out;
    out.file = dir / "ratios.csv";
    out.baseline = key + "=" + value;
    out.warnings = std::move(sweep.warnings);
    for (const auto& runKey : sweep.order) {
        const KeyParts& parts = sweep.parts[runKey];
        auto mine = std::find_if(parts.begin(), parts.end(), [&](const auto& p) { return p.first == key; });
        if (mine == parts.end() || mine->second == value) continue;  // a baseline itself
        KeyParts baseParts = parts, seriesParts;
        baseParts[static_cast<size_t>(mine - parts.begin())].second = value;
        RatioRow row;
        const Row& settings = sweep.first.at(runKey);
        row.experiment = settings.at("experiment");
        row.runKey = runKey;
        row.baselineKey = joinParts(baseParts);
        row.strategy = settings.at("strategy");
        row.particles = settings.at("particles");
        row.innerAxis = inner;
        for (const auto& [name, v] : parts) {
            if (name == inner) row.innerValue = v;
            else seriesParts.emplace_back(name, v);
        }
        row.series = joinParts(seriesParts);

        // Paired by round: a round counts when both ran ok in it.
        std::vector<double> frame, draw, mineMs, baseMs;
        const auto& baseRounds = sweep.rounds[row.baselineKey];
        const auto& myRounds = sweep.rounds[runKey];
        for (const auto& [round, r] : myRounds) {
            const auto b = baseRounds.find(round);
            if (!usable(r) || b == baseRounds.end() || !usable(b->second)) continue;
            const double ms = *positive(r.at("frame_ms_median")), base = *positive(b->second.at("frame_ms_median"));
            frame.push_back(ms / base);
            mineMs.push_back(ms);
            baseMs.push_back(base);
            const auto d = positive(r.at("draw_ms_median")), db = positive(b->second.at("draw_ms_median"));
            if (d && db) draw.push_back(*d / *db);
        }
        row.rounds = frame.size();
        if (row.rounds) {
            const uint64_t seed = fnv1a(runKey);
            row.frameRatio = bootstrapMedian(frame, seed);
            if (!draw.empty()) row.drawRatio = bootstrapMedian(draw, seed);
            row.frameMs = medianOf(mineMs);
            row.baselineFrameMs = medianOf(baseMs);
        } else {
            const auto anyUsable = [](const std::map<long, Row>& rs) {
                return std::any_of(rs.begin(), rs.end(), [](const auto& r) { return usable(r.second); });
            };
            row.note = !sweep.parts.count(row.baselineKey) ? "baseline " + row.baselineKey + " is not in the sweep"
                       : !anyUsable(baseRounds)           ? "baseline " + row.baselineKey + " never ran ok"
                       : !anyUsable(myRounds)             ? "never ran ok"
                                                          : "no round in which both it and its baseline ran ok";
            out.warnings.push_back(runKey + ": " + row.note + ": no ratio");
        }
        out.rows.push_back(std::move(row));
    }

    core::AtomicFile file(out.file);
    file.stream() << csvLine(std::vector<std::string>(kRatioColumns.begin(), kRatioColumns.end()));
    for (const auto& row : out.rows) file.stream() << rowText(row, out.baseline);
    file.commit();
    return out;
}

}  // namespace firelab::harness

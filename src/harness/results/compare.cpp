#include "harness/results/compare.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>

#include "core/atomic_file.h"
#include "core/error.h"
#include "core/text.h"
#include "harness/results/csv.h"
#include "harness/results/frame_pairs.h"
#include "harness/results/merge.h"
#include "harness/results/meta.h"
#include "harness/settings/run_settings.h"

namespace firelab::harness {
namespace fs = std::filesystem;

namespace {

using Axes = std::vector<std::pair<std::string, std::vector<std::string>>>;

bool isSettingName(std::string_view s) {
    return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) {
        return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '_';
    });
}

std::string joinParts(const KeyParts& parts) {
    std::string key;
    for (const auto& [name, value] : parts) key += (key.empty() ? "" : ";") + name + "=" + runKeyValue(value);
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
    std::vector<std::string> order;                          // configurations, in the order runs.csv first lists them
    std::map<std::string, KeyParts> parts;                   // each configuration's key, split
    std::map<std::string, Row> first;                        // a row of each (its settings' columns)
    std::map<std::string, std::map<long, Row>> rounds;       // configuration -> round -> its best row
    std::map<std::string, std::vector<FrameRecord>> frames;  // configuration -> its frames.csv records
    Axes axes;                                               // meta.json's, or the keys' when it records none
    std::vector<std::string> warnings;
};

std::vector<std::string> axisNames(const Axes& axes) {
    std::vector<std::string> names;
    for (const auto& axis : axes) names.push_back(axis.first);
    return names;
}

Axes recordedAxes(const fs::path& dir) {
    std::error_code ec;
    if (!fs::exists(dir / "meta.json", ec)) return {};
    const MetaRecord meta = readMeta(dir / "meta.json");
    return meta.config ? meta.config->axes : Axes{};
}

// A folder that holds a sweep's results, or throws MissingFile saying what it is instead.
void checkSweepFolder(const fs::path& dir) {
    std::error_code ec;
    if (!fs::exists(dir, ec))
        throw Error(ErrorCode::MissingFile,
                    dir.string() + ": no such folder; name a sweep's results folder (results/NAME)");
    if (!fs::is_directory(dir, ec))
        throw Error(ErrorCode::MissingFile,
                    dir.string() + ": not a folder; name a sweep's results folder (results/NAME)");
    if (!fs::exists(dir / "runs.csv", ec))
        throw Error(ErrorCode::MissingFile, dir.string() +
                                                ": no runs.csv, so not a sweep's results folder "
                                                "(or its sweep has not finished)");
}

// A configuration the first time a row of `file` names it: its key split by the axes' `names`.
void addConfiguration(SweepRounds& s, const Row& r, const fs::path& file, const std::vector<std::string>& names) {
    const std::string& key = r.at("run_key");
    if (s.parts.count(key)) return;
    try {
        s.parts[key] = splitRunKey(key, names);
    } catch (const Error& e) {
        throw Error(e.code(), file.string() + ": " + e.what() + " (meta.json's axes)");
    }
    s.order.push_back(key);
    s.first.emplace(key, r);
}

// The axes as the keys name them (a meta.json that records none): names and values in order of first appearance.
Axes axesOfKeys(const SweepRounds& s) {
    Axes axes;
    for (const auto& key : s.order)
        for (const auto& part : s.parts.at(key)) {
            const auto& [name, value] = part;  // (a lambda may not capture a structured binding in clang 14)
            auto it = std::find_if(axes.begin(), axes.end(), [&](const auto& a) { return a.first == part.first; });
            if (it == axes.end()) it = axes.insert(axes.end(), {name, {}});
            if (std::find(it->second.begin(), it->second.end(), value) == it->second.end()) it->second.push_back(value);
        }
    return axes;
}

// A rounds.csv row's round; nothing, with a warning, when it names no round of 1 or more.
std::optional<long> roundOf(const Row& r, const fs::path& roundsFile, std::vector<std::string>& warnings) {
    char* end = nullptr;
    const std::string& text = r.at("round");
    const long round = std::strtol(text.c_str(), &end, 10);
    if (text.empty() || *end || round < 1) {
        warnings.push_back(roundsFile.string() + ": run " + r.at("run_key") + " has round '" + text +
                           "', not 1 or more: left out");
        return std::nullopt;
    }
    return round;
}

// One row per configuration and round: an ok row beats a failed one, a later one an earlier one.
void keepBest(std::map<long, Row>& rounds, long round, const Row& r) {
    auto [it, fresh] = rounds.try_emplace(round, r);
    if (!fresh && (usable(r) || !usable(it->second))) it->second = r;
}

// A file's whole rows; each record that is not one (torn, garbage, a wrong field count) is said, by file and line,
// and left out of the comparison (it was skipped without a word).
std::vector<Row> readSaid(const fs::path& file, std::vector<std::string>& warnings) {
    CheckedRuns read = readCheckedRuns(file, "");
    for (const RejectedRecord& r : read.rejected)
        warnings.push_back(r.file + ":" + std::to_string(r.line) + ": malformed row (" + r.why +
                           "): left out of the comparison");
    return std::move(read.rows);
}

// rounds.csv holds at least the ok rounds runs.csv summarises; fewer (a damaged or truncated file) are said, since the
// intervals would then rest on fewer rounds than the summary counts.
void checkRoundsHeld(const std::vector<Row>& runs, const std::vector<Row>& rounds, const fs::path& roundsFile,
                     std::vector<std::string>& warnings) {
    std::map<std::string, long> held;  // every round on file, ok or not: a damaged file lost some
    for (const Row& r : rounds) ++held[r.at("run_key")];
    for (const Row& r : runs) {
        const long n = std::strtol(r.at("rounds").c_str(), nullptr, 10);
        if (n > held[r.at("run_key")])
            warnings.push_back(roundsFile.string() + " holds " + std::to_string(held[r.at("run_key")]) +
                               " round(s) of run " + r.at("run_key") + ", but runs.csv summarises " +
                               std::to_string(n) + ": rounds are missing (a damaged file?)");
    }
}

SweepRounds readSweep(const fs::path& dir) {
    checkSweepFolder(dir);
    std::error_code ec;
    const fs::path runsFile = dir / "runs.csv", roundsFile = dir / "rounds.csv";
    std::vector<std::string> said;
    const std::vector<Row> runs = readSaid(runsFile, said);
    const std::vector<Row> roundRows = fs::exists(roundsFile, ec) ? readSaid(roundsFile, said) : std::vector<Row>{};
    if (!roundRows.empty()) checkRoundsHeld(runs, roundRows, roundsFile, said);
    const bool perRound = !roundRows.empty();
    const std::vector<Row>& rows = perRound ? roundRows : runs;  // written before repetitions: each ran once, round 1
    const fs::path& roundsSource = perRound ? roundsFile : runsFile;

    SweepRounds s;
    s.warnings = std::move(said);
    s.axes = recordedAxes(dir);
    const std::vector<std::string> names = axisNames(s.axes);
    for (const Row& r : runs) addConfiguration(s, r, runsFile, names);
    for (const Row& r : rows) addConfiguration(s, r, roundsSource, names);
    if (names.empty()) s.axes = axesOfKeys(s);
    for (const Row& r : rows) {
        const std::optional<long> round = perRound ? roundOf(r, roundsFile, s.warnings) : 1;
        if (round) keepBest(s.rounds[r.at("run_key")], *round, r);
    }
    for (auto& f : readFrameRecords(dir / "frames.csv")) s.frames[f.runKey].push_back(std::move(f));
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
    throw Error(ErrorCode::UnknownName,
                flag + ": '" + key + "' is not a swept setting of this sweep; " +
                    (names.empty() ? "it sweeps nothing" : "its axes are " + core::join(names)));
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
                                         core::join(axis.second) + ")");
}

// What a comparison is against: KEY and VALUE as the sweep spells them, and the axis a series is plotted
// along (the innermost other than KEY, particles usually; KEY itself when nothing else is swept).
struct BaselineAxis {
    std::string key, value, inner;
};

}  // namespace

void checkOneKeyValue(const std::string& baseline, const std::string& flag) {
    const size_t eq = baseline.find('=');
    if (eq == std::string::npos) return;
    size_t pairs = 1;
    for (const std::string& part : core::split(baseline.substr(eq + 1), ';'))
        for (const std::string& piece : core::split(part, ','))
            if (const size_t e = piece.find('='); e != std::string::npos && findSetting(core::trim(piece.substr(0, e))))
                ++pairs;
    if (pairs == 1) return;
    throw Error(ErrorCode::BadValue, flag + " '" + baseline + "': " + std::to_string(pairs) +
                                         " KEY=VALUE pairs; a baseline is one (the swept setting and the value the "
                                         "others are compared against, e.g. strategy=points): each configuration "
                                         "is then compared with the baseline run of its own other settings");
}

namespace {
BaselineAxis findBaseline(const Axes& axes, const std::string& baseline) {
    checkOneKeyValue(baseline, "--baseline");
    const std::string flag = "--baseline '" + baseline + "'";
    const size_t eq = baseline.find('=');
    if (eq == std::string::npos || eq == 0 || eq + 1 == baseline.size())
        throw Error(ErrorCode::BadValue,
                    flag +
                        ": not KEY=VALUE; name a swept setting and the value to compare "
                        "against, e.g. strategy=points" +
                        (axes.empty() ? "" : " (swept here: " + core::join(axisNames(axes)) + ")"));
    const auto& axis = findAxis(axes, baseline.substr(0, eq), flag);
    BaselineAxis b{axis.first, findValue(axis, baseline.substr(eq + 1), flag), axis.first};
    for (const auto& a : axes)
        if (a.first != b.key) b.inner = a.first;
    return b;
}

// Who a row is: its configuration, its baseline (the same key with KEY=VALUE), its series (the key less
// the inner axis) and where along the inner axis it stands.
RatioRow namedRow(const SweepRounds& sweep, const BaselineAxis& base, const std::string& runKey, size_t keyPart) {
    const KeyParts& parts = sweep.parts.at(runKey);
    KeyParts baseParts = parts, seriesParts;
    baseParts[keyPart].second = base.value;
    RatioRow row;
    const Row& settings = sweep.first.at(runKey);
    row.experiment = settings.at("experiment");
    row.runKey = runKey;
    row.baselineKey = joinParts(baseParts);
    row.strategy = settings.at("strategy");
    row.particles = settings.at("particles");
    row.innerAxis = base.inner;
    for (const auto& [name, v] : parts) {
        if (name == base.inner)
            row.innerValue = v;
        else
            seriesParts.emplace_back(name, v);
    }
    row.series = joinParts(seriesParts);
    return row;
}

// A configuration's rounds (none when the sweep holds no row of it).
const std::map<long, Row>& roundsOf(const SweepRounds& sweep, const std::string& runKey) {
    static const std::map<long, Row> kNone;
    const auto it = sweep.rounds.find(runKey);
    return it == sweep.rounds.end() ? kNone : it->second;
}

// The rounds in which both a configuration and its baseline ran ok: each one's frame time and the ratios
// (a draw ratio where both have a draw time).
struct PairedRounds {
    std::vector<double> frame, draw, cpu, mineMs, baseMs;
    std::vector<long> rounds;  // which
    size_t canaryOff = 0;      // of them, those either ran while the canary was off
};

PairedRounds pairRounds(const std::map<long, Row>& mine, const std::map<long, Row>& base) {
    PairedRounds p;
    for (const auto& [round, r] : mine) {
        const auto b = base.find(round);
        if (!usable(r) || b == base.end() || !usable(b->second)) continue;
        const double ms = *positive(r.at("frame_ms_median")), baselineMs = *positive(b->second.at("frame_ms_median"));
        p.frame.push_back(ms / baselineMs);
        p.rounds.push_back(round);
        const auto flagged = [](const Row& row) { return row.count("canary_off") && row.at("canary_off") == "1"; };
        if (flagged(r) || flagged(b->second)) ++p.canaryOff;
        p.mineMs.push_back(ms);
        p.baseMs.push_back(baselineMs);
        const auto d = positive(r.at("draw_ms_median")), db = positive(b->second.at("draw_ms_median"));
        if (d && db) p.draw.push_back(*d / *db);
        // Rounds of an older firelab have no CPU time: no ratio from them.
        const auto cpuOf = [](const Row& row) {
            return row.count("cpu_ms_median") ? positive(row.at("cpu_ms_median")) : std::nullopt;
        };
        const auto c = cpuOf(r), cb = cpuOf(b->second);
        if (c && cb) p.cpu.push_back(*c / *cb);
    }
    return p;
}

// The records of the rounds paired (both configurations ran ok in them).
std::vector<FrameRecord> inRounds(const std::vector<FrameRecord>& records, const std::vector<long>& rounds) {
    std::vector<FrameRecord> out;
    for (const auto& r : records)
        if (std::find(rounds.begin(), rounds.end(), r.round) != rounds.end()) out.push_back(r);
    return out;
}

// A row's figures from its pairs of frames: medians, and intervals over processes then blocks of cycles.
void setFrameFigures(RatioRow& row, const FramePairs& f) {
    const uint64_t seed = fnv1a(row.runKey);
    row.pairedBy = "frames";
    row.pairs = f.pairs;
    row.frameRatio = nestedBootstrapMedian(f.frame, seed);
    if (!f.draw.empty()) row.drawRatio = nestedBootstrapMedian(f.draw, seed);
    if (!f.cpu.empty()) row.cpuRatio = nestedBootstrapMedian(f.cpu, seed);
    row.frameMs = medianOf(f.mineMs);
    row.baselineFrameMs = medianOf(f.baseMs);
}

// How a configuration's rounds were measured against its group, as its rows say (paired_by): "rounds" and
// why, when it ran alone; "rounds" when nothing says (a sweep before alternation).
std::string roundsPairing(const std::map<long, Row>& mine) {
    for (const auto& [round, r] : mine)
        if (r.count("paired_by") && r.at("paired_by").rfind("rounds", 0) == 0) return r.at("paired_by");
    return "rounds";
}

// A row's figures from its paired rounds (at least one): medians, and intervals seeded by its run_key.
void setFigures(RatioRow& row, const PairedRounds& p) {
    row.rounds = p.frame.size();
    row.pairs = p.frame.size();
    row.canaryOffRounds = p.canaryOff;
    const uint64_t seed = fnv1a(row.runKey);
    row.frameRatio = bootstrapMedian(p.frame, seed);
    if (!p.draw.empty()) row.drawRatio = bootstrapMedian(p.draw, seed);
    if (!p.cpu.empty()) row.cpuRatio = bootstrapMedian(p.cpu, seed);
    row.frameMs = medianOf(p.mineMs);
    row.baselineFrameMs = medianOf(p.baseMs);
}

// Why a row has no paired round, the first reason that holds.
std::string whyNoRatio(const SweepRounds& sweep, const std::string& baselineKey, const std::map<long, Row>& mine,
                       const std::map<long, Row>& base) {
    const auto anyUsable = [](const std::map<long, Row>& rs) {
        return std::any_of(rs.begin(), rs.end(), [](const auto& r) { return usable(r.second); });
    };
    return !sweep.parts.count(baselineKey) ? "baseline " + baselineKey + " is not in the sweep"
           : !anyUsable(base)              ? "baseline " + baselineKey + " never ran ok"
           : !anyUsable(mine)              ? "never ran ok"
                                           : "no round in which both it and its baseline ran ok";
}

// A configuration against its baseline, paired by round; nothing for a baseline configuration itself.
std::optional<RatioRow> ratioRow(const SweepRounds& sweep, const BaselineAxis& base, const std::string& runKey) {
    const KeyParts& parts = sweep.parts.at(runKey);
    const auto mine = std::find_if(parts.begin(), parts.end(), [&](const auto& p) { return p.first == base.key; });
    if (mine == parts.end() || mine->second == base.value) return std::nullopt;
    RatioRow row = namedRow(sweep, base, runKey, static_cast<size_t>(mine - parts.begin()));
    const auto& myRounds = roundsOf(sweep, runKey);
    const auto& baseRounds = roundsOf(sweep, row.baselineKey);
    const PairedRounds paired = pairRounds(myRounds, baseRounds);
    if (paired.frame.empty()) {
        row.note = whyNoRatio(sweep, row.baselineKey, myRounds, baseRounds);
        return row;
    }
    setFigures(row, paired);
    row.pairedBy = roundsPairing(myRounds);
    const auto myFrames = sweep.frames.find(runKey), baseFrames = sweep.frames.find(row.baselineKey);
    if (myFrames != sweep.frames.end() && baseFrames != sweep.frames.end()) {
        const FramePairs f =
            pairFrames(inRounds(myFrames->second, paired.rounds), inRounds(baseFrames->second, paired.rounds));
        if (f.pairs > 0) {
            setFrameFigures(row, f);
            row.rounds = f.rounds;
        }
    }
    return row;
}

std::string rowText(const RatioRow& r, const std::string& baseline) {
    const bool figures = r.rounds > 0;
    const auto fig = [&](double v) { return figures ? number(v) : std::string(); };
    const auto optionalFig = [&](const std::optional<Interval>& ratio, double Interval::*field) {
        return figures && ratio ? number((*ratio).*field) : std::string();
    };
    return csvLine({r.experiment,
                    r.runKey,
                    r.series,
                    baseline,
                    r.baselineKey,
                    r.strategy,
                    r.particles,
                    r.innerAxis,
                    r.innerValue,
                    std::to_string(r.rounds),
                    r.pairedBy,
                    std::to_string(r.pairs),
                    std::to_string(r.canaryOffRounds),
                    fig(r.frameMs),
                    fig(r.baselineFrameMs),
                    fig(r.frameRatio.median),
                    fig(r.frameRatio.low),
                    fig(r.frameRatio.high),
                    optionalFig(r.drawRatio, &Interval::median),
                    optionalFig(r.drawRatio, &Interval::low),
                    optionalFig(r.drawRatio, &Interval::high),
                    optionalFig(r.cpuRatio, &Interval::median),
                    optionalFig(r.cpuRatio, &Interval::low),
                    optionalFig(r.cpuRatio, &Interval::high),
                    r.note});
}

void writeRatiosCsv(const Comparison& c) {
    core::AtomicFile file(c.file);
    file.stream() << csvLine(std::vector<std::string>(kRatioColumns.begin(), kRatioColumns.end()));
    for (const auto& row : c.rows) file.stream() << rowText(row, c.baseline);
    file.commit();
}

Error badKey(std::string_view key, const std::string& why) {
    return Error(ErrorCode::BadFile, "run_key '" + std::string(key) + "': " + why);
}

// Without the axes' names: split on ';', a part that is not a setting name and '=' continuing the value
// before it.
KeyParts partsByName(std::string_view key) {
    KeyParts parts;
    if (key == "single") return parts;
    for (const std::string& part : core::split(key, ';')) {
        const size_t eq = part.find('=');
        if (eq != std::string::npos && isSettingName(std::string_view(part).substr(0, eq)))
            parts.emplace_back(part.substr(0, eq), part.substr(eq + 1));
        else if (!parts.empty())
            parts.back().second += ";" + part;  // a ';' inside a value
        else
            throw badKey(key, "'" + part + "' is not name=value");
    }
    return parts;
}

// With the axes' names: each value runs to the next ";NAME=", so it may hold ';'.
KeyParts partsOfAxes(std::string_view key, const std::vector<std::string>& axisNames) {
    KeyParts parts;
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
    if (parts.size() != axisNames.size())
        throw badKey(key, "does not name the axes " + core::join(axisNames) + " in that order");
    return parts;
}

}  // namespace

KeyParts splitRunKey(std::string_view key, const std::vector<std::string>& axisNames) {
    KeyParts parts = axisNames.empty() ? partsByName(key) : partsOfAxes(key, axisNames);
    for (auto& [name, value] : parts) value = runKeyValueText(value);  // as the sweep was given it
    return parts;
}

Comparison compareToBaseline(const fs::path& dir, const std::string& baseline) {
    SweepRounds sweep = readSweep(dir);
    const BaselineAxis base = findBaseline(sweep.axes, baseline);
    Comparison out;
    out.file = dir / "ratios.csv";
    out.baseline = base.key + "=" + base.value;
    out.warnings = std::move(sweep.warnings);
    for (const auto& runKey : sweep.order) {
        std::optional<RatioRow> row = ratioRow(sweep, base, runKey);
        if (!row) continue;
        if (!row->rounds) out.warnings.push_back(runKey + ": " + row->note + ": no ratio");
        out.rows.push_back(std::move(*row));
    }
    writeRatiosCsv(out);
    return out;
}

void writeRatiosOrWarn(const std::filesystem::path& dir, const std::string& baseline) {
    if (baseline.empty()) return;
    try {
        const Comparison c = compareToBaseline(dir, baseline);
        for (const auto& w : c.warnings) std::fprintf(stderr, "firelab: warning: %s\n", w.c_str());
    } catch (const Error& e) {
        std::fprintf(stderr, "firelab: warning: no ratios.csv: %s\n", e.what());
    }
}

}  // namespace firelab::harness

#include "harness/settings/experiment.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <map>
#include <set>
#include <string_view>
#include <unordered_set>

#include "core/error.h"
#include "core/text.h"
#include "harness/platform/interrupt.h"
#include "harness/settings/camera_path.h"
#include "harness/settings/config.h"
#include "harness/settings/effect.h"
#include "render/frame/layer_stack.h"
#include "render/strategies/strategy.h"
#include "sim/fire_system.h"

namespace firelab::harness {
namespace {

// Canonical axis order: the comparison variables outermost, the particle count innermost.
// applySetting, and an effect's file read at once: a bad one fails before any run, naming it.
void applyChecked(RunSettings& s, const std::string& name, const std::string& value) {
    applySetting(s, name, value);
    if (name == "effect") checkEffectFile(value);
}

int axisRank(const std::string& name) {
    static const std::vector<std::string> order{
        "strategy", "emitter",        "distribution", "blend",    "sort",       "facing", "flipbook",
        "texture",  "particle-scale", "hull",         "upsample", "edge-fixup", "filter", "hdr",
        "tonemap",  "exposure",       "soft",         "width",    "height"};
    const auto it = std::find(order.begin(), order.end(), name);
    if (name == "particles") return 1000;
    return it == order.end() ? 100 : static_cast<int>(it - order.begin());
}

}  // namespace

void Experiment::override(const std::string& setting, const std::string& text) {
    auto values = splitValues(setting, text);
    if (values.size() > 1 && sweepWide(setting))
        throw Error(ErrorCode::BadValue,
                    "--" + setting + " '" + text + "': one value for the whole sweep (it is not a sweep axis)");
    // A zipped axis given a list anew keeps its place in its group (the lengths are checked at expansion); one
    // given a single value leaves the group, whose next axis then leads the rest.
    std::string follows;
    for (const Axis& a : axes)
        if (a.name == setting) follows = a.follows;
    if (values.size() == 1) {
        std::string next;
        for (Axis& a : axes)
            if (a.follows == setting) {
                a.follows = next;
                if (next.empty()) next = a.name;
            }
    }
    axes.erase(std::remove_if(axes.begin(), axes.end(), [&](const Axis& a) { return a.name == setting; }), axes.end());
    if (values.size() == 1) {
        fixed.push_back({setting, values[0], ""});
        return;
    }
    axes.push_back({setting, std::move(values), "", text, follows});
    std::stable_sort(axes.begin(), axes.end(),
                     [](const Axis& a, const Axis& b) { return axisRank(a.name) < axisRank(b.name); });
}

namespace {
// [quality]: enabled (default true), frames, reference, energy-preserving, metrics (an array), as the
// settings quality, quality-frames, reference, energy-preserving and quality-metrics.
void loadQualityTable(const toml::table& q, const std::string& f, Experiment& e) {
    static const std::map<std::string, std::string> setting{{"enabled", "quality"},
                                                            {"frames", "quality-frames"},
                                                            {"reference", "reference"},
                                                            {"energy-preserving", "energy-preserving"},
                                                            {"metrics", "quality-metrics"}};
    e.fixed.push_back({"quality", "true", f + ": [quality]"});
    for (const auto& [key, node] : q) {
        const std::string k(key.str());
        const std::string line = f + ":" + std::to_string(node.source().begin.line);
        const auto it = setting.find(k);
        if (it == setting.end())
            throw Error(ErrorCode::UnknownName, line + ": [quality] '" + k +
                                                    "' is not a quality setting; valid keys are enabled, frames, "
                                                    "reference, energy-preserving, metrics");
        e.fixed.push_back({it->second, tomlValueText(node, line + ": [quality] " + k, it->second), line});
    }
}
}  // namespace

namespace {
// The file holds only firelab's tables, each a table. [report] declares the finding's tables and plots; the
// sweep runs none of it, and scripts/findings.py reads and checks it (docs/report.md).
void checkTables(const toml::table& t, const std::string& f) {
    static constexpr std::array<std::string_view, 6> kTables{"experiment", "run",   "model",
                                                             "quality",    "sweep", "report"};
    for (const auto& [key, node] : t) {
        const std::string k(key.str());
        if (std::find(kTables.begin(), kTables.end(), key.str()) == kTables.end())
            throw Error(ErrorCode::BadFile, tomlLine(f, node) + ": unknown table [" + k +
                                                "]; expected [experiment], [run], [model], [quality], [sweep] and "
                                                "[report]");
        if (!node.is_table()) throw Error(ErrorCode::BadFile, f + ": '" + k + "' must be a table ([" + k + "])");
    }
}

// A key of [run], [model] or [sweep] must be a setting.
void checkKnown(const std::string& key, const toml::node& node, const std::string& f) {
    const auto names = allSettingNames();
    if (std::find(names.begin(), names.end(), key) == names.end())
        throw Error(ErrorCode::UnknownName,
                    tomlLine(f, node) + ": '" + key + "' is not a firelab setting (see firelab run --help)");
}

// [experiment] name (it names the results folder: letters, digits, '.', '_' and '-'), description,
// question and baseline (text), and leave-out (true/false).
void loadExperimentTable(const toml::table& ex, const std::string& f, Experiment& e) {
    static constexpr std::array<std::string_view, 5> kKeys{"name", "description", "question", "baseline", "leave-out"};
    for (const auto& [key, node] : ex) {  // each key one of these, and of its type: nothing silently ignored
        const std::string where = tomlLine(f, node) + ": [experiment] " + std::string(key.str());
        if (std::find(kKeys.begin(), kKeys.end(), key.str()) == kKeys.end())
            throw Error(
                ErrorCode::UnknownName,
                where + ": not a key of [experiment]; it takes name, description, question, baseline and leave-out");
        const bool flag = key.str() == "leave-out";
        if (flag ? !node.is_boolean() : !node.is_string())
            throw Error(ErrorCode::BadValue, where + ": expected " + (flag ? "true or false" : "text in quotes") +
                                                 ", got " +
                                                 (node.is_string()    ? "text"
                                                  : node.is_number()  ? "a number"
                                                  : node.is_boolean() ? "true/false"
                                                  : node.is_array()   ? "an array"
                                                  : node.is_table()   ? "a table"
                                                                      : "a date or time"));
    }
    if (auto l = ex["leave-out"].value<bool>()) e.leaveOut = *l;
    if (auto n = ex["name"].value<std::string>()) {
        const bool ok = !n->empty() && *n != "." && *n != ".." &&
                        n->find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-") ==
                            std::string::npos;
        if (!ok)
            throw Error(ErrorCode::BadValue,
                        f + ": [experiment] name '" + *n +
                            "': use letters, digits, '.', '_' and '-' (it names the results folder)");
        e.name = *n;
    }
    if (auto d = ex["description"].value<std::string>()) e.description = *d;
    if (auto q = ex["question"].value<std::string>()) e.question = *q;
    if (auto b = ex["baseline"].value<std::string>()) e.baseline = *b;
}

// A list where one value belongs ([run] particles = [100, 200]) is refused as such, pointing at [sweep], rather
// than as a value that is not a number. A vector, a gradient or a list of metrics is one value that is a list.
void refuseList(const std::string& k, const toml::node& node, const std::string& where) {
    using Kind = SettingInfo::Kind;
    const SettingInfo* info = findSetting(k);
    if (!node.is_array() || info == nullptr) return;
    for (const auto& el : *node.as_array())
        if (el.is_array()) return;  // arrays in arrays: tomlValueText says what is wrong with them
    if (info->kind != Kind::Choice && info->kind != Kind::Flag && info->kind != Kind::Scalar &&
        info->kind != Kind::Integer && info->kind != Kind::Path && info->kind != Kind::Grid &&
        info->kind != Kind::Layout)
        return;
    throw Error(ErrorCode::BadValue, where +
                                         ": a list, where one value belongs; to measure each of them, put the list "
                                         "in [sweep] (" +
                                         k + " = [...]), which makes it an axis");
}

// [run] and [model]: one value per setting, applied in file order.
void loadFixedTable(const toml::table& table, const char* name, const std::string& f, Experiment& e) {
    for (const auto& [key, node] : table) {
        const std::string k(key.str());
        checkKnown(k, node, f);
        const std::string line = tomlLine(f, node);
        refuseList(k, node, line + ": [" + name + "] " + k);
        e.fixed.push_back({k, tomlValueText(node, line + ": [" + name + "] " + k, k), line});
    }
}

// A [sweep] value as the file spells it, for messages: a string or number as written, an array's items joined.
std::string writtenText(const toml::node& node) {
    const auto one = [](const toml::node& n) {
        try {
            return tomlValueText(n, "", "");
        } catch (const Error&) {  // an array in an array: loadAxis says what is wrong with it
            return std::string("[...]");
        }
    };
    const auto* arr = node.as_array();
    if (arr == nullptr) return one(node);
    std::string out;
    for (const auto& el : *arr) out += (out.empty() ? "" : ", ") + one(el);
    return out;
}

// The key of [sweep] that zips axes rather than sweeping a setting.
constexpr std::string_view kZipKey = "zip";

// One [sweep] key: an array (each element may itself be a list or a range) or a single list or range.
Axis loadAxis(const std::string& k, const toml::node& node, const std::string& f) {
    checkKnown(k, node, f);
    const std::string line = tomlLine(f, node);
    const std::string where = line + ": [sweep] " + k;
    if (sweepWide(k))
        throw Error(ErrorCode::BadValue, where + ": one value for the whole sweep, not an axis; set it in [run]");
    Axis axis{k, {}, line, writtenText(node), ""};
    if (const auto* arr = node.as_array()) {
        // An element that is itself an array is one value of a vector or a gradient; of anything else it
        // would be flattened into several runs, which an axis writes as one list.
        const SettingInfo* info = findSetting(k);
        const bool oneValueIsAnArray =
            info != nullptr && (info->kind == SettingInfo::Kind::Vector || info->kind == SettingInfo::Kind::Gradient);
        for (const auto& el : *arr) {
            if (el.is_array() && !oneValueIsAnArray)
                throw Error(ErrorCode::BadValue, where +
                                                     ": a list of values, not arrays in arrays (only a vector "
                                                     "or gradient value is itself an array); write [0.3, 0.4]");
            auto vals = splitValues(k, tomlValueText(el, where, k));
            axis.values.insert(axis.values.end(), vals.begin(), vals.end());
        }
    } else {
        axis.values = splitValues(k, tomlValueText(node, where, k));
    }
    if (axis.values.empty()) throw Error(ErrorCode::BadValue, where + ": an empty list");
    return axis;
}
// [sweep] zip = ["a", "b"] or [["a", "b"], ["c", "d"]]: each group's axes advance together (their k-th values
// make one run), and the groups are crossed with each other and the other axes. Every name must be an axis of
// the sweep, in one group only, and a group's axes as long as each other.
void zipAxes(const toml::node& node, const std::string& f, std::vector<Axis>& axes) {
    const std::string where = tomlLine(f, node) + ": [sweep] zip";
    const auto* groups = node.as_array();
    if (groups == nullptr || groups->empty())
        throw Error(ErrorCode::BadValue, where +
                                             ": a list of the axes to advance together, e.g. zip = "
                                             "[\"fire-diameter\", \"heat-release\"], or a list of such lists");
    std::vector<std::vector<std::string>> names;
    if (groups->front().is_array()) {
        for (const auto& g : *groups) {
            if (!g.is_array()) throw Error(ErrorCode::BadValue, where + ": every group a list of axis names");
            names.emplace_back();
            for (const auto& n : *g.as_array()) names.back().push_back(tomlValueText(n, where, ""));
        }
    } else {
        names.emplace_back();
        for (const auto& n : *groups) names.back().push_back(tomlValueText(n, where, ""));
    }
    std::set<std::string> zipped;
    for (const auto& group : names) {
        if (group.size() < 2) throw Error(ErrorCode::BadValue, where + ": a group of one axis (zip two or more)");
        const Axis* first = nullptr;
        for (const std::string& n : group) {
            auto it = std::find_if(axes.begin(), axes.end(), [&](const Axis& a) { return a.name == n; });
            if (it == axes.end())
                throw Error(ErrorCode::BadValue, where + ": '" + n + "' is not swept here; zip names axes of [sweep]");
            if (!zipped.insert(n).second)
                throw Error(ErrorCode::BadValue, where + ": '" + n + "' is zipped twice; an axis is in one group");
            if (first == nullptr) {
                first = &*it;
                continue;
            }
            if (it->values.size() != first->values.size())
                throw Error(ErrorCode::BadValue, where + ": " + first->name + " has " +
                                                     std::to_string(first->values.size()) + " values and " + n + " " +
                                                     std::to_string(it->values.size()) +
                                                     "; zipped axes take one value each per run, as many each");
            it->follows = first->name;
        }
    }
}
}  // namespace

Experiment loadExperiment(const std::filesystem::path& file) {
    const toml::table t = parseTomlFile(file);
    const std::string f = file.string();
    checkTables(t, f);
    Experiment e;
    e.name = file.stem().string();
    if (const auto* ex = t["experiment"].as_table()) loadExperimentTable(*ex, f, e);
    for (const char* table : {"run", "model"})
        if (const auto* tb = t[table].as_table()) loadFixedTable(*tb, table, f, e);
    if (const auto* q = t["quality"].as_table()) loadQualityTable(*q, f, e);
    if (const auto* sw = t["sweep"].as_table()) {
        for (const auto& [key, node] : *sw)
            if (key.str() != kZipKey) e.axes.push_back(loadAxis(std::string(key.str()), node, f));
        if (const toml::node* zip = sw->get(kZipKey)) zipAxes(*zip, f, e.axes);
    }
    std::stable_sort(e.axes.begin(), e.axes.end(),
                     [](const Axis& a, const Axis& b) { return axisRank(a.name) < axisRank(b.name); });
    return e;
}


namespace {
// " (generated from --particles '1e3..1e9x10')" when the refused value is not one the user wrote but one a range
// or `all` made.
std::string generatedFrom(const Axis& a, const std::string& value) {
    if (a.written.empty() || a.written == value) return "";
    for (const std::string& item : core::trimmed(core::split(a.written, ',')))
        if (item == value) return "";
    return a.where.empty() ? " (generated from --" + a.name + " '" + a.written + "')"
                           : " (generated from [sweep] " + a.name + " = " + a.written + ")";
}

// An experiment's strategy may also be `all` (every timed strategy), which a refusal of an unknown one offers;
// where one strategy belongs (the viewer's sides, a reference) it is not offered.
std::string orAll(const std::string& setting, const Error& err) {
    return setting == "strategy" && err.code() == ErrorCode::UnknownName ? " (or all, every timed strategy)" : "";
}

// The fixed settings applied in order to the defaults.
RunSettings baseSettings(const Experiment& e, const std::string& prefix) {
    RunSettings base;
    for (const auto& f : e.fixed) {
        try {
            applyChecked(base, f.name, f.value);
        } catch (const Error& err) {
            throw Error(err.code(), (f.where.empty() ? prefix : f.where + ": ") + err.what() + orAll(f.name, err));
        }
    }
    return base;
}

// Planning polls for a stop signal (a sweep's StopScope holds it until then): a sweep of very many runs stops
// while it is planned, not only once its first run starts.
void stopIfRequested() {
    if (stopRequested())
        throw Error(ErrorCode::Interrupted, "interrupted while the sweep was planned; nothing written");
}

// Each axis with its values as settingText writes them, so that a run key is a value, not a spelling
// (500, 5e2, 500.0 and 0500 are all particles=500); a value spelled twice is kept once.
std::vector<Axis> canonicalAxes(const Experiment& e, const RunSettings& base, const std::string& prefix) {
    std::vector<Axis> out;
    for (const auto& a : e.axes) {
        Axis c{a.name, {}, a.where, a.written, a.follows};
        // A zipped axis keeps every value in place: its k-th goes with its group's k-th.
        const bool zipped = !a.follows.empty() || std::any_of(e.axes.begin(), e.axes.end(),
                                                              [&](const Axis& o) { return o.follows == a.name; });
        std::unordered_set<std::string> seen;  // linear in the values: a list of 200 000 seeds is planned at once
        for (const auto& v : a.values) {
            RunSettings probe = base;
            try {
                applyChecked(probe, a.name, v);
            } catch (const Error& err) {
                throw Error(err.code(), (a.where.empty() ? prefix : a.where + ": ") + err.what() + orAll(a.name, err) +
                                            generatedFrom(a, v));
            }
            std::string text = settingText(probe, a.name);
            if (zipped || seen.insert(text).second) c.values.push_back(std::move(text));
            stopIfRequested();
        }
        out.push_back(std::move(c));
    }
    return out;
}
}  // namespace

ExperimentConfig describe(const Experiment& e, const std::string& source) {
    const std::string prefix = source.empty() ? "" : source + ": ";
    const RunSettings base = baseSettings(e, prefix);
    ExperimentConfig c;
    c.experiment = e.name;
    std::string zips;  // "b<a;d<c": each zipped axis and the one it follows (resume and merge compare it)
    for (auto& a : canonicalAxes(e, base, prefix)) {
        if (!a.follows.empty()) zips += (zips.empty() ? "" : ";") + a.name + "<" + a.follows;
        c.axes.emplace_back(a.name, std::move(a.values));
    }
    if (!zips.empty()) c.settings.emplace_back(std::string(kZipKey), zips);
    for (const auto& name : allSettingNames()) {
        const bool swept = std::any_of(c.axes.begin(), c.axes.end(), [&](const auto& a) { return a.first == name; });
        if (!swept) c.settings.emplace_back(name, settingText(base, name));
    }
    return c;
}

std::vector<std::string> configDifferences(const ExperimentConfig& was, const ExperimentConfig& now) {
    std::vector<std::string> out;
    if (was.experiment != now.experiment)
        out.push_back("experiment: '" + was.experiment + "' there, '" + now.experiment + "' here");
    auto join = [](const std::vector<std::string>& v) {
        std::string s;
        for (const auto& x : v) s += (s.empty() ? "" : " | ") + x;
        return s;
    };
    // Every name either holds one value or is an axis; describe each name's values on both sides.
    auto valuesOf = [&](const ExperimentConfig& c, const std::string& name) -> std::string {
        for (const auto& [n, v] : c.axes)
            if (n == name) return "swept over " + join(v);
        for (const auto& [n, v] : c.settings)
            if (n == name) return "'" + v + "'";
        return "(not recorded)";
    };
    std::vector<std::string> names;
    for (const auto* c : {&was, &now}) {
        for (const auto& [n, v] : c->axes)
            if (std::find(names.begin(), names.end(), n) == names.end()) names.push_back(n);
        for (const auto& [n, v] : c->settings)
            if (std::find(names.begin(), names.end(), n) == names.end()) names.push_back(n);
    }
    for (const auto& name : names) {
        const std::string a = valuesOf(was, name), b = valuesOf(now, name);
        if (a != b) out.push_back(name + ": " + a + " there, " + b + " here");
    }
    if (was.inputs.empty() || now.inputs.empty()) return out;
    auto hashOf = [](const ExperimentConfig& c, const std::string& name) -> const std::string* {
        for (const auto& [n, h] : c.inputs)
            if (n == name) return &h;
        return nullptr;
    };
    // An input of one side only: the same bytes under another name on the other (a file copied, or reached
    // through a hard link) is said so; else it is missing from one side.
    auto nameWithHash = [](const ExperimentConfig& c, const std::string& hash, const ExperimentConfig& other) {
        for (const auto& input : c.inputs) {
            const std::string& n = input.first;
            if (input.second == hash &&
                std::none_of(other.inputs.begin(), other.inputs.end(), [&](const auto& o) { return o.first == n; }))
                return n;
        }
        return std::string();
    };
    for (const auto& [name, hash] : was.inputs) {
        const std::string* here = hashOf(now, name);
        if (here && *here != hash)
            out.push_back("input " + name + ": its content changed (" + hash + " there, " + *here + " here)");
        if (here) continue;
        const std::string same = nameWithHash(now, hash, was);
        out.push_back("input " + name +
                      (same.empty() ? ": read there, but not here (missing here, or not read by these runs)"
                                    : ": the same content is read here as " + same +
                                          "; a sweep's inputs are named by path: use the same path"));
    }
    for (const auto& [name, hash] : now.inputs)
        if (!hashOf(was, name) && nameWithHash(was, hash, now).empty())
            out.push_back("input " + name + ": read here, but not there");
    return out;
}

namespace {
// The odometer over the axes' values: the last axis turns fastest.
// Each axis's place in the run's index: its own, or (zipped) that of the axis it follows.
size_t leaderOf(const std::vector<Axis>& axes, size_t a) {
    if (axes[a].follows.empty()) return a;
    for (size_t b = 0; b < axes.size(); ++b)
        if (axes[b].name == axes[a].follows) return b;
    return a;
}

void advance(std::vector<size_t>& idx, const std::vector<Axis>& axes) {
    for (size_t a = axes.size(); a-- > 0;) {
        if (leaderOf(axes, a) != a) continue;  // zipped: moves with the axis it follows
        if (++idx[a] < axes[a].values.size()) break;
        idx[a] = 0;
    }
}

// Each zip group's k-th values make one run: two places holding the same values would be two runs of one key
// (which --resume and merge take for one run measured twice). Refused, naming both places.
void refuseRepeatedZips(const std::vector<Axis>& axes, const std::string& prefix) {
    for (size_t lead = 0; lead < axes.size(); ++lead) {
        std::vector<size_t> group{lead};
        for (size_t a = 0; a < axes.size(); ++a)
            if (a != lead && leaderOf(axes, a) == lead) group.push_back(a);
        if (group.size() < 2) continue;
        std::map<std::string, size_t> seen;  // the values at k, joined -> k
        for (size_t k = 0; k < axes[lead].values.size(); ++k) {
            std::string names, values;
            for (const size_t a : group) {
                if (k >= axes[a].values.size()) return;  // unequal lengths: crossProductSize says so
                names += (names.empty() ? "" : ", ") + axes[a].name;
                values += (values.empty() ? "" : ", ") + axes[a].values[k];
            }
            if (const auto [it, fresh] = seen.emplace(values, k); !fresh)
                throw Error(ErrorCode::BadValue, prefix + "zipped axes " + names + ": values " +
                                                     std::to_string(it->second + 1) + " and " + std::to_string(k + 1) +
                                                     " are the same (" + values +
                                                     "), so two runs would be one; give each once");
        }
    }
}

// Whether the run's strategy takes its options (StrategyInfo's capabilities). A refusal is thrown, or,
// given `leftOut`, recorded there ("key: why") and the run left out.
bool strategyTakes(const PlannedRun& run, std::vector<std::string>* leftOut) {
    try {
        render::checkOptions(run.settings.strategy, run.settings.render);
        checkEffect(run.settings);  // every layer of the effect: its look and its model
        return true;
    } catch (const Error& err) {
        if (!leftOut || err.code() != ErrorCode::BadValue) throw;
        leftOut->push_back(run.key + ": " + err.what());
        return false;
    }
}
}  // namespace

namespace {
// The number of runs in the cross product; BadValue above a million.
size_t crossProductSize(const std::vector<Axis>& axes, const std::string& prefix) {
    size_t total = 1;
    for (size_t i = 0; i < axes.size(); ++i) {
        const Axis& a = axes[i];
        if (const size_t lead = leaderOf(axes, i); lead != i) {  // zipped: one value per run of the group
            if (a.values.size() != axes[lead].values.size())
                throw Error(ErrorCode::BadValue, prefix + "zipped axes " + axes[lead].name + " (" +
                                                     std::to_string(axes[lead].values.size()) + " values) and " +
                                                     a.name + " (" + std::to_string(a.values.size()) +
                                                     ") must be as long as each other");
            continue;
        }
        total *= a.values.size();
        if (total > 1'000'000) throw Error(ErrorCode::BadValue, prefix + "the sweep has more than 1,000,000 runs");
    }
    return total;
}

}  // namespace

std::string runKeyValue(std::string_view value) {
    std::string out;
    for (const char c : value) out += c == '%' ? "%25" : c == ';' ? "%3B" : std::string(1, c);
    return out;
}

std::string runKeyValueText(std::string_view escaped) {
    std::string out;
    for (size_t i = 0; i < escaped.size(); ++i) {
        if (escaped.substr(i, 3) == "%3B")
            out += ';', i += 2;
        else if (escaped.substr(i, 3) == "%25")
            out += '%', i += 2;
        else
            out += escaped[i];
    }
    return out;
}

namespace {
// The run at the odometer's position `idx`: the base settings with each axis's value, and its key.
void applyAxes(PlannedRun& run, const std::vector<Axis>& axes, const std::vector<size_t>& idx) {
    for (size_t a = 0; a < axes.size(); ++a) {
        const auto& axis = axes[a];
        const size_t k = idx[leaderOf(axes, a)];
        try {
            applySetting(run.settings, axis.name, axis.values[k]);
        } catch (const Error& err) {
            if (axis.where.empty()) throw;
            throw Error(err.code(), axis.where + ": " + err.what());
        }
        run.key += (run.key.empty() ? "" : ";") + axis.name + "=" + runKeyValue(axis.values[k]);
    }
}

// Each run first simulates one longest lifetime to reach steady state, in steps of --dt: at most a million. The
// lifetime is the flame's as run (a parameterised fire's is mapped from its size and power).
void checkPrewarm(const RunSettings& s) {
    const sim::FireParams m = s.fireDiameter > 0.0 || s.heatRelease > 0.0 ? resolveLayers(s).front().params : s.params;
    const double prewarmSteps = sim::FireSystem::prewarmSecondsFor(m) / static_cast<double>(s.dt);
    if (prewarmSteps <= 1e6) return;
    char msg[200];
    std::snprintf(msg, sizeof msg,
                  "--dt %g with --lifetime %g: reaching steady state would take %.0f steps (at most 1,000,000); use "
                  "a larger --dt",
                  static_cast<double>(s.dt), static_cast<double>(m.lifetimeMean), prewarmSteps);
    throw Error(ErrorCode::BadValue, msg);
}

// --start-time: the steps that reach it must reach the steady state (every layer's longest life), and number
// at most a million.
void checkStartTime(const RunSettings& s) {
    const long steps = startSteps(s);
    if (steps == 0) return;
    const double steady = render::LayerStack::prewarmSecondsFor(resolveLayers(s));
    const double dt = static_cast<double>(s.dt);
    char msg[256];
    constexpr double kSlack = 1e-6;  // s: the lives are floats, the times doubles
    if (static_cast<double>(steps) * dt < steady - kSlack) {
        const double earliest = std::ceil((steady - kSlack) / dt) * dt;  // the first whole step there
        std::snprintf(msg, sizeof msg,
                      "--start-time %g: before the steady state at %g s (the longest life of any layer); use %g or "
                      "later",
                      s.startTime, steady, earliest);
        throw Error(ErrorCode::BadValue, msg);
    }
    if (steps > 1'000'000) {
        std::snprintf(msg, sizeof msg, "--start-time %g with --dt %g: %ld steps (at most 1,000,000); use a larger --dt",
                      s.startTime, dt, steps);
        throw Error(ErrorCode::BadValue, msg);
    }
}

// A --camera-path that no run follows (none has --camera path) would be recorded as used and ignored: refused.
// A sweep over the camera's modes may follow it in some runs only.
void refuseUnfollowedCameraPath(const std::vector<PlannedRun>& runs, const std::string& prefix) {
    const auto follows = [](const PlannedRun& r) { return r.settings.camera.mode == render::CameraMode::Path; };
    if (runs.empty() || runs.front().settings.camera.path.empty() || std::any_of(runs.begin(), runs.end(), follows))
        return;
    throw Error(ErrorCode::BadValue,
                prefix + "--camera-path " + runs.front().settings.camera.path + ": no run follows it (--camera is " +
                    settingText(runs.front().settings, "camera") + "); add --camera path, or leave --camera-path out");
}

// Plans the run at `idx`: false when its strategy cannot draw it and `leftOut` takes the refusal. Errors
// name the source (unless they already do) and the run.
bool planRun(PlannedRun& run, const std::vector<Axis>& axes, const std::vector<size_t>& idx, const std::string& source,
             std::vector<std::string>* leftOut) {
    try {
        applyAxes(run, axes, idx);
        sim::validate(run.settings.params);
        checkCamera(run.settings);  // a path file read before anything runs
        render::checkTimed(run.settings.strategy);
        checkOverrideLayers(run.settings);  // a typo is refused, never left out
        if (!strategyTakes(run, leftOut)) return false;
        render::checkVolumeGrid(run.settings.strategy, run.settings.width, run.settings.height, run.settings.render);
        if (run.settings.quality.enabled) checkReference(run.settings);
        checkPrewarm(run.settings);
        checkStartTime(run.settings);
    } catch (const Error& err) {
        const std::string msg = err.what();  // axis errors already name the file and line
        const std::string prefix = source.empty() || msg.rfind(source, 0) == 0 ? "" : source + ": ";
        throw Error(err.code(), prefix + msg + (run.key.empty() ? "" : " (run " + run.key + ")"));
    }
    if (run.key.empty()) run.key = "single";
    return true;
}
}  // namespace

std::vector<PlannedRun> expand(const Experiment& e, const std::string& source, std::vector<std::string>* leftOut) {
    const std::string prefix = source.empty() ? "" : source + ": ";
    const RunSettings base = baseSettings(e, prefix);
    const std::vector<Axis> axes = canonicalAxes(e, base, prefix);
    // Combinations a strategy cannot draw are left out (and listed) only when strategies are compared, or the
    // experiment asks (leave-out): otherwise the sweep is refused.
    const bool strategiesSwept = std::any_of(axes.begin(), axes.end(),
                                             [](const Axis& a) { return a.name == "strategy" && a.values.size() > 1; });
    std::vector<std::string>* refusals = leftOut && (strategiesSwept || e.leaveOut) ? leftOut : nullptr;
    refuseRepeatedZips(axes, prefix);
    const size_t total = crossProductSize(axes, prefix);
    std::vector<PlannedRun> runs;
    runs.reserve(total);
    std::vector<size_t> idx(axes.size(), 0);
    for (size_t r = 0; r < total; ++r, advance(idx, axes)) {
        stopIfRequested();
        PlannedRun run{r, {}, base};
        if (planRun(run, axes, idx, source, refusals)) runs.push_back(std::move(run));
    }
    if (runs.empty() && total > 0)
        throw Error(ErrorCode::BadValue, prefix + "no strategy of the sweep can draw any of its combinations: " +
                                             (leftOut && !leftOut->empty() ? leftOut->front() : std::string()));
    refuseUnfollowedCameraPath(runs, prefix);
    return runs;
}

RunSettings loadRunSettings(const std::filesystem::path& file) {
    const auto runs = expand(loadExperiment(file), file.string());
    return runs.front().settings;
}

std::pair<size_t, size_t> parseShard(const std::string& text) {
    const auto slash = text.find('/');
    const std::string msg = "--shard '" + text + "': expected K/N with 1 <= K <= N (e.g. 3/8)";
    if (slash == std::string::npos) throw Error(ErrorCode::BadValue, msg);
    uint64_t k = 0, n = 0;
    try {
        k = core::parseCount("--shard", text.substr(0, slash));
        n = core::parseCount("--shard", text.substr(slash + 1));
    } catch (const Error&) {
        throw Error(ErrorCode::BadValue, msg);
    }
    if (k < 1 || n < 1 || k > n) throw Error(ErrorCode::BadValue, msg);
    return {k, n};
}

}  // namespace firelab::harness

#include "harness/settings/experiment.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <initializer_list>
#include <iterator>
#include <map>
#include <sstream>
#include <type_traits>

#include "harness/settings/config.h"
#include "harness/settings/effect.h"
#include "render/strategies/strategy.h"
#include "core/error.h"
#include "sim/fire_system.h"

namespace firelab::harness {
namespace {

int parseInt(const std::string& name, const std::string& text, int lo, int hi) {
    const uint64_t v = core::parseCount("--" + name, text);
    if (v < static_cast<uint64_t>(lo) || v > static_cast<uint64_t>(hi))
        throw Error(ErrorCode::BadValue, "--" + name + " " + text + ": must be an integer in [" + std::to_string(lo) +
                                             ", " + std::to_string(hi) + "]");
    return static_cast<int>(v);
}

bool parseBool(const std::string& name, const std::string& text) {
    if (text == "true" || text == "1" || text == "on" || text == "yes") return true;
    if (text == "false" || text == "0" || text == "off" || text == "no") return false;
    throw Error(ErrorCode::BadValue, "--" + name + " '" + text + "': expected true or false");
}

std::string fmt(double v) {
    std::ostringstream o;
    o.precision(9);
    o << v;
    return o.str();
}

// A number in [lo, hi], the range a render option declares.
float parseFloatIn(const std::string& name, const std::string& text, float lo, float hi) {
    const float v = core::parseFloat("--" + name, text);
    if (v < lo || v > hi)
        throw Error(ErrorCode::BadValue, "--" + name + " " + text + ": must be a number in [" + core::formatFloat(lo) +
                                             ", " + core::formatFloat(hi) + "]");
    return v;
}

// A visitRunSettings number's range as text: (0, hi] when lo is 0, [lo, hi] otherwise.
std::string numberRange(double lo, double hi) {
    return (lo == 0.0 ? "(" : "[") + fmt(lo) + ", " + fmt(hi) + "]";
}

void applyMetrics(QualitySettings& q, const std::string& text);
std::string metricsText(const QualitySettings& q);

// Sets the setting called `target` from text as its flag would, checked against the visitor's range
// or choices; `found` says whether `target` is a run-level setting.
struct RunSettingSetter {
    const std::string& target;
    const std::string& value;
    bool found = false;

    bool is(std::string_view n) {
        if (n != target) return false;
        found = true;
        return true;
    }
    void strategy(std::string_view n, std::string& v, std::string_view) {
        if (is(n)) v = render::strategyInfo(value).name;  // UnknownName lists the valid ones
    }
    template <class I>
    void integer(std::string_view n, I& v, long lo, long hi, std::string_view, unsigned) {
        if (is(n)) v = static_cast<I>(parseInt(target, value, static_cast<int>(lo), static_cast<int>(hi)));
    }
    template <class F>
    void number(std::string_view n, F& v, double lo, double hi, std::string_view, unsigned) {
        if (!is(n)) return;
        const double x = core::parseFloat("--" + target, value);
        if ((lo == 0.0 ? x <= lo : x < lo) || x > hi)
            throw Error(ErrorCode::BadValue, "--" + target + " " + value + ": must be in " + numberRange(lo, hi));
        v = static_cast<F>(x);
    }
    template <class E, size_t N>
    void choice(std::string_view n, E& v, const std::array<std::string_view, N>& names, std::string_view,
                unsigned = kColumn) {
        if (is(n)) v = static_cast<E>(core::parseChoice("--" + target, value, names));
    }
    void flag(std::string_view n, bool& v, std::string_view, unsigned = kColumn) {
        if (is(n)) v = parseBool(target, value);
    }
    void scalar(std::string_view n, float& v, float lo, float hi, std::string_view) {
        if (is(n)) v = parseFloatIn(target, value, lo, hi);
    }
    void text(std::string_view n, std::string& v, std::string_view, unsigned = kNoColumn) {
        if (is(n)) v = value;
    }
    void reference(std::string_view n, ReferenceSpec& v, std::string_view) {
        if (is(n)) v = parseReference(value);
    }
    void metrics(std::string_view n, QualitySettings& q, std::string_view) {
        if (is(n)) applyMetrics(q, value);
    }
};

// Every run-level setting's value as the text that sets it, in visitor order.
struct RunSettingTexts {
    std::vector<std::pair<std::string, std::string>> out;

    void strategy(std::string_view n, const std::string& v, std::string_view) { out.emplace_back(n, v); }
    template <class I>
    void integer(std::string_view n, const I& v, long, long, std::string_view, unsigned) {
        out.emplace_back(n, std::to_string(v));
    }
    template <class F>
    void number(std::string_view n, const F& v, double, double, std::string_view, unsigned) {
        if constexpr (std::is_same_v<F, float>)
            out.emplace_back(n, core::formatFloat(v));
        else
            out.emplace_back(n, fmt(v));
    }
    template <class E, size_t N>
    void choice(std::string_view n, const E& v, const std::array<std::string_view, N>& names, std::string_view,
                unsigned = kColumn) {
        out.emplace_back(n, names[static_cast<size_t>(v)]);
    }
    void flag(std::string_view n, const bool& v, std::string_view, unsigned = kColumn) {
        out.emplace_back(n, v ? "true" : "false");
    }
    void scalar(std::string_view n, const float& v, float, float, std::string_view) {
        out.emplace_back(n, core::formatFloat(v));
    }
    void text(std::string_view n, const std::string& v, std::string_view, unsigned = kNoColumn) { out.emplace_back(n, v); }
    void reference(std::string_view n, const ReferenceSpec& v, std::string_view) { out.emplace_back(n, referenceText(v)); }
    void metrics(std::string_view n, const QualitySettings& q, std::string_view) { out.emplace_back(n, metricsText(q)); }
};

std::vector<std::pair<std::string, std::string>> runSettingTexts(const RunSettings& s) {
    RunSettingTexts t;
    visitRunSettings(s, t);
    return std::move(t.out);
}

std::vector<std::pair<std::string, std::string>> renderOptionTexts(const render::RenderOptions& o) {
    RunSettingTexts t;
    render::visitRenderOptions(o, t);
    return std::move(t.out);
}

// Each run-level setting's name, help, kind, allowed values and use.
struct RunSettingLister {
    std::vector<SettingInfo> out;

    SettingInfo& add(std::string_view n, std::string_view help, SettingInfo::Kind kind, unsigned use) {
        out.push_back({std::string(n), std::string(help), kind, {}, 0.0, 0.0, {}, use, false});
        return out.back();
    }
    void strategy(std::string_view n, const std::string&, std::string_view help) {
        auto& o = add(n, help, SettingInfo::Kind::Choice, kColumn);
        for (const auto& info : render::strategies()) o.choices.emplace_back(info.name);
    }
    template <class I>
    void integer(std::string_view n, const I&, long lo, long hi, std::string_view help, unsigned use) {
        auto& o = add(n, help, SettingInfo::Kind::Integer, use);
        o.lo = static_cast<double>(lo), o.hi = static_cast<double>(hi);
    }
    template <class F>
    void number(std::string_view n, const F&, double lo, double hi, std::string_view help, unsigned use) {
        auto& o = add(n, help, SettingInfo::Kind::Scalar, use);
        o.lo = lo, o.hi = hi;
    }
    template <class E, size_t N>
    void choice(std::string_view n, const E&, const std::array<std::string_view, N>& names, std::string_view help,
                unsigned use = kColumn) {
        add(n, help, SettingInfo::Kind::Choice, use).choices.assign(names.begin(), names.end());
    }
    void flag(std::string_view n, const bool&, std::string_view help, unsigned use = kColumn) {
        add(n, help, SettingInfo::Kind::Flag, use);
    }
    void scalar(std::string_view n, const float&, float lo, float hi, std::string_view help) {
        auto& o = add(n, help, SettingInfo::Kind::Scalar, kColumn);
        o.lo = static_cast<double>(lo), o.hi = static_cast<double>(hi);
    }
    void text(std::string_view n, const std::string&, std::string_view help, unsigned use = kNoColumn) {
        add(n, help, SettingInfo::Kind::Text, use);
    }
    void reference(std::string_view n, const ReferenceSpec&, std::string_view help) {
        add(n, std::string(help) + "; keys: " + referenceKeyList(), SettingInfo::Kind::Text, kNoColumn);
    }
    void metrics(std::string_view n, const QualitySettings&, std::string_view help) {
        add(n, help, SettingInfo::Kind::Text, kNoColumn);
    }
};

const SettingInfo* findRenderOption(const std::string& name) {
    for (const auto& o : renderOptions())
        if (o.name == name) return &o;
    return nullptr;
}

// `before`, every render option's name, then `after`.
std::vector<std::string> aroundRenderOptions(std::initializer_list<const char*> before,
                                             std::initializer_list<const char*> after) {
    std::vector<std::string> names(before.begin(), before.end());
    names.insert(names.end(), renderOptionNames().begin(), renderOptionNames().end());
    names.insert(names.end(), after.begin(), after.end());
    return names;
}

constexpr const char* kMetricNames[] = {"psnr", "ssim", "flip"};

// --quality-metrics psnr,ssim,flip (any non-empty subset).
void applyMetrics(QualitySettings& q, const std::string& text) {
    bool on[3] = {false, false, false};
    size_t start = 0;
    for (;;) {
        const auto comma = text.find(',', start);
        std::string item = text.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
        item.erase(0, item.find_first_not_of(" \t"));
        item.erase(item.find_last_not_of(" \t") + 1);
        size_t i = 0;
        while (i < 3 && item != kMetricNames[i]) ++i;
        if (i == 3)
            throw Error(ErrorCode::BadValue, "--quality-metrics '" + text + "': '" + item +
                                                 "' is not a metric; give a comma-separated subset of psnr, ssim, flip");
        on[i] = true;
        if (comma == std::string::npos) break;
        start = comma + 1;
    }
    q.psnr = on[0], q.ssim = on[1], q.flip = on[2];
}

std::string metricsText(const QualitySettings& q) {
    std::string out;
    const bool on[3] = {q.psnr, q.ssim, q.flip};
    for (size_t i = 0; i < 3; ++i)
        if (on[i]) out += (out.empty() ? "" : ",") + std::string(kMetricNames[i]);
    return out;
}

// Settings whose single value contains commas: their lists use ';'.
bool commaValued(const std::string& name) {
    return name == "center" || name == "extent" || name == "speed" || name == "speed-var" || name == "accel" ||
           name == "accel-var" || name == "gradient";
}

// Canonical axis order: the comparison variables outermost, the particle count innermost.
int axisRank(const std::string& name) {
    static const std::vector<std::string> order{
        "strategy", "emitter", "distribution", "blend",  "sort",    "facing", "flipbook", "texture", "particle-scale",
        "hull",     "upsample", "edge-fixup",  "filter", "hdr",     "tonemap", "exposure", "soft",    "width",
        "height"};
    const auto it = std::find(order.begin(), order.end(), name);
    if (name == "particles") return 1000;
    return it == order.end() ? 100 : static_cast<int>(it - order.begin());
}

// A range bound in double precision: a float's rounding (0.1f) would drop the end point of 0.1..0.5+0.1.
double parseBound(const std::string& flag, std::string text) {
    core::parseFloat(flag, text);  // checks the text, with firelab's message
    text.erase(0, text.find_first_not_of(" \t"));
    double v = 0.0;
    std::from_chars(text.data(), text.data() + text.size(), v);
    return v;
}

}  // namespace

const std::vector<SettingInfo>& runSettings() {
    static const std::vector<SettingInfo> infos = [] {
        const RunSettings defaults;
        RunSettingLister l;
        visitRunSettings(defaults, l);
        const auto texts = runSettingTexts(defaults);
        const auto& renderNames = renderOptionNames();
        for (size_t i = 0; i < l.out.size(); ++i) {
            l.out[i].defaultText = texts[i].second;
            l.out[i].renderOption =
                std::find(renderNames.begin(), renderNames.end(), l.out[i].name) != renderNames.end();
        }
        return l.out;
    }();
    return infos;
}

const SettingInfo* findRunSetting(const std::string& name) {
    for (const auto& o : runSettings())
        if (o.name == name) return &o;
    return nullptr;
}

const std::vector<SettingInfo>& renderOptions() {
    static const std::vector<SettingInfo> infos = [] {
        std::vector<SettingInfo> out;
        for (const auto& o : runSettings())
            if (o.renderOption) out.push_back(o);
        return out;
    }();
    return infos;
}

const std::vector<std::string>& renderOptionNames() {
    // Straight from the visitor (not from runSettings(), whose reference help lists them).
    static const std::vector<std::string> names = [] {
        RunSettingLister r;
        const render::RenderOptions options;
        render::visitRenderOptions(options, r);
        std::vector<std::string> n;
        for (const auto& o : r.out) n.push_back(o.name);
        return n;
    }();
    return names;
}
std::string settingHelp(const SettingInfo& o) {
    std::string help = o.help;
    if (o.kind == SettingInfo::Kind::Scalar && o.renderOption)
        help += " (" + fmt(o.lo) + " to " + fmt(o.hi) + ")";
    else if (o.kind == SettingInfo::Kind::Scalar)
        help += " " + numberRange(o.lo, o.hi);
    else if (o.kind == SettingInfo::Kind::Integer)
        help += " [" + fmt(o.lo) + ", " + fmt(o.hi) + "]";
    if (o.use & kSweepWide) help += "; one value for the whole sweep";
    return help + (o.defaultText.empty() ? "" : " [default: " + o.defaultText + "]");
}

std::string renderOptionsText(const render::RenderOptions& o) {
    std::string out;
    for (const auto& [name, text] : renderOptionTexts(o)) out += (out.empty() ? "" : ";") + name + "=" + text;
    return out;
}

const std::vector<std::string>& runSettingNames() {
    static const std::vector<std::string> names = [] {
        std::vector<std::string> n;
        for (const auto& o : runSettings()) n.push_back(o.name);
        return n;
    }();
    return names;
}

const std::vector<std::string>& settingColumns() {
    static const std::vector<std::string> names = [] {
        std::vector<std::string> n{"emitter", "distribution", "particles", "seed"};
        for (const auto& o : runSettings())
            if (o.use & kColumn) n.push_back(o.name);
        return n;
    }();
    return names;
}

bool sweepWide(const std::string& name) {
    const SettingInfo* o = findRunSetting(name);
    return o && (o->use & kSweepWide);
}

const std::vector<std::string>& referenceKeys() {
    static const std::vector<std::string> keys = aroundRenderOptions({"strategy"}, {"particles", "seed", "supersample", "seeds"});
    return keys;
}

std::string referenceKeyList() {
    std::string out;
    for (const auto& k : referenceKeys()) out += (out.empty() ? "" : ", ") + k;
    return out;
}

std::vector<std::string> allSettingNames() {
    auto names = runSettingNames();
    for (const auto& n : sim::paramNames()) names.push_back(n);
    return names;
}

void applySetting(RunSettings& s, const std::string& name, const std::string& value) {
    RunSettingSetter setter{name, value};
    visitRunSettings(s, setter);
    if (!setter.found) sim::setParam(s.params, name, value);  // UnknownName lists the model parameters
    if (name == "effect" && !value.empty()) {  // read now: a bad file fails before any run, naming it
        try {
            loadEffect(resolveEffectPath(value));
        } catch (const Error& e) {
            throw Error(e.code(), "--effect " + value + ": " + e.what());
        }
    }
}

std::string settingText(const RunSettings& s, const std::string& name) {
    for (auto& [setting, text] : runSettingTexts(s))
        if (setting == name) return std::move(text);
    return sim::getParam(s.params, name);
}

ReferenceSpec parseReference(const std::string& text) {
    const std::string flag = "--reference '" + text + "'";
    ReferenceSpec spec;
    spec.overrides.clear();
    if (text.find('=') == std::string::npos) {  // a bare strategy name
        std::string name = text;
        name.erase(0, name.find_first_not_of(" \t"));
        name.erase(name.find_last_not_of(" \t") + 1);
        try {
            spec.overrides.emplace_back("strategy", render::strategyInfo(name).name);
        } catch (const Error& e) {
            std::string valid;
            for (const auto& info : render::strategies()) valid += (valid.empty() ? "" : ", ") + std::string(info.name);
            throw Error(e.code(), flag + ": '" + name + "' is not a strategy; give one of " + valid +
                                      ", or key=value;... (e.g. strategy=billboards-cpu;sort=back-to-front)");
        }
        return spec;
    }
    std::map<std::string, std::string> given;
    size_t start = 0;
    for (;;) {
        const auto semi = text.find(';', start);
        std::string item = text.substr(start, semi == std::string::npos ? std::string::npos : semi - start);
        start = semi + 1;
        item.erase(0, item.find_first_not_of(" \t"));
        item.erase(item.find_last_not_of(" \t") + 1);
        if (!item.empty()) {
            const auto eq = item.find('=');
            if (eq == std::string::npos)
                throw Error(ErrorCode::BadValue, flag + ": '" + item + "' is not key=value");
            std::string key = item.substr(0, eq), value = item.substr(eq + 1);
            key.erase(key.find_last_not_of(" \t") + 1);
            value.erase(0, value.find_first_not_of(" \t"));
            if (std::find(referenceKeys().begin(), referenceKeys().end(), key) == referenceKeys().end())
                throw Error(ErrorCode::UnknownName,
                            flag + ": '" + key + "' cannot be set for a reference; valid keys are " + referenceKeyList());
            if (!given.emplace(key, value).second)
                throw Error(ErrorCode::BadValue, flag + ": '" + key + "' is given twice");
        }
        if (semi == std::string::npos) break;
    }
    if (given.empty()) throw Error(ErrorCode::BadValue, flag + ": empty; e.g. strategy=billboards-cpu;sort=back-to-front");
    RunSettings probe;  // each value checked (and canonicalised) as its flag would be
    for (const std::string& key : referenceKeys()) {
        const auto it = given.find(key);
        if (it == given.end()) continue;
        try {
            if (it->first == "supersample" || it->first == "seeds") {  // the spec's own keys, not flags
                const bool ss = it->first == "supersample";
                const int hi = ss ? 8 : 64;
                try {
                    (ss ? spec.supersample : spec.seeds) = parseInt(it->first, it->second, 1, hi);
                } catch (const Error&) {
                    throw Error(ErrorCode::BadValue, it->first + " '" + it->second + "': must be an integer in [1, " +
                                                         std::to_string(hi) + "]");
                }
                continue;
            }
            applySetting(probe, it->first, it->second);
        } catch (const Error& e) {
            throw Error(e.code(), flag + ": " + e.what());
        }
        spec.overrides.emplace_back(it->first, settingText(probe, it->first));
    }
    return spec;
}

std::string referenceText(const ReferenceSpec& spec) {
    std::string out;
    for (const auto& [key, value] : spec.overrides) out += key + "=" + value + ";";
    out += "supersample=" + std::to_string(spec.supersample);
    return spec.seeds > 1 ? out + ";seeds=" + std::to_string(spec.seeds) : out;
}

RunSettings referenceSettings(const RunSettings& run, const ReferenceSpec& spec) {
    RunSettings ref = run;
    ref.quality = QualitySettings{};
    // The reference keeps the run's look (blend, texture, facing, soft particles, tone mapping) but not its
    // approximations of it: the fill-rate techniques are what is scored, against the full picture.
    const render::RenderOptions full;
    ref.render.particleScale = full.particleScale, ref.render.upsample = full.upsample;
    ref.render.edgeFixup = full.edgeFixup, ref.render.hull = full.hull, ref.render.filter = full.filter;
    for (const auto& [key, value] : spec.overrides) applySetting(ref, key, value);
    // An effect's layers set their own look: the reference's full-quality sprite and the spec's layer
    // options must win over the layers' own (a layer's hull 8 is an approximation to score, not to copy).
    ref.layerForce = {{"hull", std::string(render::kHullNames[static_cast<size_t>(full.hull)])},
                      {"filter", std::string(render::kFilterNames[static_cast<size_t>(full.filter)])}};
    for (const auto& [key, value] : spec.overrides)
        if (isLayerRenderOption(key)) ref.layerForce.emplace_back(key, value);
    return ref;
}

RunSettings drawnSettings(const RunSettings& run) {
    RunSettings d = run;
    d.render = effectiveRenderOptions(run);
    return d;
}

render::RenderOptions effectiveRenderOptions(const RunSettings& run) {
    render::RenderOptions o = run.render;
    if (run.quality.energyPreserving) {
        const RunSettings ref = referenceSettings(run, run.quality.reference);
        o.alphaScale = static_cast<float>(static_cast<double>(ref.params.particles) /
                                          static_cast<double>(std::max(1u, run.params.particles)));
    }
    return o;
}

bool pathValued(const std::string& name) { return name == "texture"; }  // the only file-valued setting

std::vector<std::string> splitValues(const std::string& name, const std::string& text) {
    // Free text, a set of metrics and paths: their commas and dots are not lists or ranges (several
    // paths are a TOML array in [sweep], one path per element).
    if (name == "label" || name == "quality-metrics" || pathValued(name)) return {text};
    const char sep = commaValued(name) ? ';' : ',';
    std::vector<std::string> items;
    size_t start = 0;
    for (;;) {
        const auto pos = text.find(sep, start);
        std::string item = text.substr(start, pos == std::string::npos ? std::string::npos : pos - start);
        item.erase(0, item.find_first_not_of(" \t"));
        item.erase(item.find_last_not_of(" \t") + 1);
        if (item.empty()) throw Error(ErrorCode::BadValue, "--" + name + " '" + text + "': empty list item");
        items.push_back(item);
        if (pos == std::string::npos) break;
        start = pos + 1;
    }
    std::vector<std::string> out;
    for (const auto& item : items) {
        if (name == "strategy" && item == "all") {
            for (const auto& info : render::strategies()) out.emplace_back(info.name);
            continue;
        }
        const auto dots = item.find("..");
        if (dots == std::string::npos || commaValued(name) || name == "reference") {  // a spec may hold a path
            out.push_back(item);
            continue;
        }
        // Range: FROM..TOxFACTOR or FROM..TO+STEP.
        const std::string flag = "--" + name;
        const auto opPos = item.find_first_of("x+", dots + 2);
        if (opPos == std::string::npos)
            throw Error(ErrorCode::BadValue, flag + " '" + item + "': a range is FROM..TOxFACTOR or FROM..TO+STEP");
        const double from = parseBound(flag, item.substr(0, dots));
        const double to = parseBound(flag, item.substr(dots + 2, opPos - dots - 2));
        const double by = parseBound(flag, item.substr(opPos + 1));
        const bool geometric = item[opPos] == 'x';
        if (geometric ? (by <= 1.0 || from <= 0.0) : by <= 0.0)
            throw Error(ErrorCode::BadValue, flag + " '" + item + "': the factor must be > 1 (and FROM > 0), the step > 0");
        if (to < from) throw Error(ErrorCode::BadValue, flag + " '" + item + "': TO must not be below FROM");
        size_t count = 0;
        for (double v = from; v <= to * (1.0 + 1e-9); v = geometric ? v * by : v + by) {
            if (++count > 10000) throw Error(ErrorCode::BadValue, flag + " '" + item + "': more than 10000 values");
            out.push_back(fmt(std::round(v * 1e6) / 1e6));
        }
    }
    // A value listed twice would be the same run twice, under one run key: keep the first.
    std::vector<std::string> unique;
    for (auto& v : out)
        if (std::find(unique.begin(), unique.end(), v) == unique.end()) unique.push_back(std::move(v));
    return unique;
}

void Experiment::override(const std::string& setting, const std::string& text) {
    auto values = splitValues(setting, text);
    if (values.size() > 1 && sweepWide(setting))
        throw Error(ErrorCode::BadValue, "--" + setting + " '" + text +
                                             "': one value for the whole sweep (it is not a sweep axis)");
    axes.erase(std::remove_if(axes.begin(), axes.end(), [&](const Axis& a) { return a.name == setting; }), axes.end());
    if (values.size() == 1) {
        fixed.push_back({setting, values[0], ""});
        return;
    }
    axes.push_back({setting, std::move(values), ""});
    std::stable_sort(axes.begin(), axes.end(), [](const Axis& a, const Axis& b) { return axisRank(a.name) < axisRank(b.name); });
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
        e.fixed.push_back({it->second, tomlValueText(node, line + ": [quality] " + k), line});
    }
}
}  // namespace

Experiment loadExperiment(const std::filesystem::path& file) {
    const toml::table t = parseTomlFile(file);
    const std::string f = file.string();
    Experiment e;
    e.name = file.stem().string();
    auto known = [&](const std::string& key, const toml::node& node) {
        const auto names = allSettingNames();
        if (std::find(names.begin(), names.end(), key) == names.end())
            throw Error(ErrorCode::UnknownName, f + ":" + std::to_string(node.source().begin.line) + ": '" + key +
                                                    "' is not a firelab setting (see firelab run --help)");
    };
    for (const auto& [key, node] : t) {
        const std::string k(key.str());
        if (k != "experiment" && k != "run" && k != "model" && k != "sweep" && k != "quality")
            throw Error(ErrorCode::BadFile, f + ":" + std::to_string(node.source().begin.line) + ": unknown table [" + k +
                                                "]; expected [experiment], [run], [model], [quality] and [sweep]");
        if (!node.is_table())
            throw Error(ErrorCode::BadFile, f + ": '" + k + "' must be a table ([" + k + "])");
    }
    if (const auto* ex = t["experiment"].as_table()) {
        if (auto n = (*ex)["name"].value<std::string>()) {
            // The name becomes a folder under results/: letters, digits, '.', '_' and '-' only.
            const bool ok = !n->empty() && *n != "." && *n != ".." &&
                            n->find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-") ==
                                std::string::npos;
            if (!ok)
                throw Error(ErrorCode::BadValue, f + ": [experiment] name '" + *n +
                                                     "': use letters, digits, '.', '_' and '-' (it names the results folder)");
            e.name = *n;
        }
        if (auto d = (*ex)["description"].value<std::string>()) e.description = *d;
        if (auto b = (*ex)["baseline"].value<std::string>()) e.baseline = *b;
    }
    for (const char* table : {"run", "model"})
        if (const auto* tb = t[table].as_table())
            for (const auto& [key, node] : *tb) {
                const std::string k(key.str());
                known(k, node);
                const std::string line = f + ":" + std::to_string(node.source().begin.line);
                e.fixed.push_back({k, tomlValueText(node, line + ": [" + table + "] " + k), line});
            }
    if (const auto* q = t["quality"].as_table()) loadQualityTable(*q, f, e);
    if (const auto* sw = t["sweep"].as_table())
        for (const auto& [key, node] : *sw) {
            const std::string k(key.str());
            known(k, node);
            const std::string line = f + ":" + std::to_string(node.source().begin.line);
            const std::string where = line + ": [sweep] " + k;
            if (sweepWide(k))
                throw Error(ErrorCode::BadValue, where + ": one value for the whole sweep, not an axis; set it in [run]");
            Axis axis{k, {}, line};
            if (const auto* arr = node.as_array()) {
                for (const auto& el : *arr) {
                    auto vals = splitValues(k, tomlValueText(el, where));
                    axis.values.insert(axis.values.end(), vals.begin(), vals.end());
                }
            } else {
                axis.values = splitValues(k, tomlValueText(node, where));
            }
            if (axis.values.empty()) throw Error(ErrorCode::BadValue, where + ": an empty list");
            e.axes.push_back(std::move(axis));
        }
    std::stable_sort(e.axes.begin(), e.axes.end(), [](const Axis& a, const Axis& b) { return axisRank(a.name) < axisRank(b.name); });
    return e;
}

namespace {
// The reference must be drawable: its strategy takes its options, and its supersampled size fits.
void checkReference(const RunSettings& run) {
    const ReferenceSpec& spec = run.quality.reference;
    const RunSettings ref = referenceSettings(run, spec);
    const std::string flag = "--reference '" + referenceText(spec) + "'";
    try {
        sim::validate(ref.params);
        render::checkOptions(ref.strategy, ref.render);
    } catch (const Error& e) {
        throw Error(e.code(), flag + ": " + e.what());
    }
    if (static_cast<long>(run.width) * spec.supersample > 16384 || static_cast<long>(run.height) * spec.supersample > 16384)
        throw Error(ErrorCode::BadValue, flag + ": supersample " + std::to_string(spec.supersample) + " at " +
                                             std::to_string(run.width) + "x" + std::to_string(run.height) +
                                             " exceeds 16384 pixels a side");
}
}  // namespace

namespace {
// The fixed settings applied in order to the defaults.
RunSettings baseSettings(const Experiment& e, const std::string& prefix) {
    RunSettings base;
    for (const auto& f : e.fixed) {
        try {
            applySetting(base, f.name, f.value);
        } catch (const Error& err) {
            throw Error(err.code(), (f.where.empty() ? prefix : f.where + ": ") + err.what());
        }
    }
    return base;
}

// Each axis with its values as settingText writes them, so that a run key is a value, not a spelling
// (500, 5e2, 500.0 and 0500 are all particles=500); a value spelled twice is kept once.
std::vector<Axis> canonicalAxes(const Experiment& e, const RunSettings& base, const std::string& prefix) {
    std::vector<Axis> out;
    for (const auto& a : e.axes) {
        Axis c{a.name, {}, a.where};
        for (const auto& v : a.values) {
            RunSettings probe = base;
            try {
                applySetting(probe, a.name, v);
            } catch (const Error& err) {
                throw Error(err.code(), (a.where.empty() ? prefix : a.where + ": ") + err.what());
            }
            std::string text = settingText(probe, a.name);
            if (std::find(c.values.begin(), c.values.end(), text) == c.values.end()) c.values.push_back(std::move(text));
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
    for (auto& a : canonicalAxes(e, base, prefix)) c.axes.emplace_back(a.name, std::move(a.values));
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
    return out;
}

namespace {
// The odometer over the axes' values: the last axis turns fastest.
void advance(std::vector<size_t>& idx, const std::vector<Axis>& axes) {
    for (size_t a = axes.size(); a-- > 0;) {
        if (++idx[a] < axes[a].values.size()) break;
        idx[a] = 0;
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

std::vector<PlannedRun> expand(const Experiment& e, const std::string& source, std::vector<std::string>* leftOut) {
    const std::string prefix = source.empty() ? "" : source + ": ";
    const RunSettings base = baseSettings(e, prefix);
    const std::vector<Axis> axes = canonicalAxes(e, base, prefix);
    const bool strategiesSwept =
        std::any_of(axes.begin(), axes.end(), [](const Axis& a) { return a.name == "strategy" && a.values.size() > 1; });
    size_t total = 1;
    for (const auto& a : axes) {
        total *= a.values.size();
        if (total > 1'000'000) throw Error(ErrorCode::BadValue, prefix + "the sweep has more than 1,000,000 runs");
    }
    std::vector<PlannedRun> runs;
    runs.reserve(total);
    std::vector<size_t> idx(axes.size(), 0);
    for (size_t r = 0; r < total; ++r) {
        PlannedRun run{r, {}, base};
        try {
            for (size_t a = 0; a < axes.size(); ++a) {
                const auto& axis = axes[a];
                try {
                    applySetting(run.settings, axis.name, axis.values[idx[a]]);
                } catch (const Error& err) {
                    if (axis.where.empty()) throw;
                    throw Error(err.code(), axis.where + ": " + err.what());
                }
                run.key += (run.key.empty() ? "" : ";") + axis.name + "=" + axis.values[idx[a]];
            }
            sim::validate(run.settings.params);
            if (!strategyTakes(run, leftOut && strategiesSwept ? leftOut : nullptr)) {
                advance(idx, axes);
                continue;
            }
            if (run.settings.quality.enabled) checkReference(run.settings);
            // Each run first simulates one longest lifetime to reach steady state, in steps of --dt.
            const auto& m = run.settings.params;
            const double prewarmSteps = sim::FireSystem::prewarmSecondsFor(m) / static_cast<double>(run.settings.dt);
            if (prewarmSteps > 1e6) {
                char msg[200];
                std::snprintf(msg, sizeof msg,
                              "--dt %g with --lifetime %g: reaching steady state would take %.0f steps (at most "
                              "1,000,000); use a larger --dt",
                              static_cast<double>(run.settings.dt), static_cast<double>(m.lifetimeMean), prewarmSteps);
                throw Error(ErrorCode::BadValue, msg);
            }
        } catch (const Error& err) {
            const std::string msg = err.what();  // axis errors already name the file and line
            throw Error(err.code(), (!source.empty() && msg.rfind(source, 0) == 0 ? "" : prefix) + msg +
                                        (run.key.empty() ? "" : " (run " + run.key + ")"));
        }
        if (run.key.empty()) run.key = "single";
        runs.push_back(std::move(run));
        advance(idx, axes);
    }
    if (runs.empty() && total > 0)
        throw Error(ErrorCode::BadValue, prefix + "no strategy of the sweep can draw any of its combinations: " +
                                             (leftOut && !leftOut->empty() ? leftOut->front() : std::string()));
    return runs;
}

std::string tomlSettingValue(const std::string& name, const std::string& text) {
    auto isNumber = [](const std::string& t) {
        if (t.empty()) return false;
        char* end = nullptr;
        std::strtod(t.c_str(), &end);
        return end == t.c_str() + t.size() && t.find_first_of("nN") == std::string::npos;  // no nan/inf
    };
    if (name == "gradient") {
        std::string out = "[";
        size_t start = 0;
        for (;;) {
            const auto comma = text.find(',', start);
            std::string key = text.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
            std::replace(key.begin(), key.end(), ':', ',');
            out += (out.size() > 1 ? ", [" : "[") + key + "]";
            if (comma == std::string::npos) break;
            start = comma + 1;
        }
        return out + "]";
    }
    if (commaValued(name)) return "[" + text + "]";
    if (const auto* o = findRenderOption(name); o && o->kind == RenderOptionInfo::Kind::Flag) return text;  // a TOML boolean
    // TOML integers are signed 64-bit: a larger seed is written as a string (setParam reads either).
    const bool bigSeed = name == "seed" && text.size() >= 19 && std::strtoull(text.c_str(), nullptr, 10) > 9223372036854775807ULL;
    if (isNumber(text) && name != "label" && name != "texture" && name != "effect" && !bigSeed) return text;
    std::string q = "\"";
    for (char c : text) {
        if (c == '"' || c == '\\') q += '\\';
        q += c;
    }
    return q + "\"";
}

std::string runSettingsToml(const RunSettings& s) {
    std::string out = "# firelab settings: firelab run --config FILE (flags override it)\n[run]\n";
    for (const auto& n : runSettingNames()) out += n + " = " + tomlSettingValue(n, settingText(s, n)) + "\n";
    out += "\n[model]\n";
    for (const auto& n : sim::paramNames()) out += n + " = " + tomlSettingValue(n, settingText(s, n)) + "\n";
    return out;
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

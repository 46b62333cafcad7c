#include "harness/settings/run_settings.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <initializer_list>
#include <map>
#include <optional>
#include <sstream>
#include <type_traits>

#include <glm/vec2.hpp>
#include <glm/vec3.hpp>

#include "core/error.h"
#include "core/text.h"
#include "render/strategies/strategy.h"

namespace firelab::harness {
namespace {
// An integer in the setting's own range [lo, hi], named in every refusal (not the parser's [0, 1.8e19]).
int parseInt(const std::string& name, const std::string& text, int lo, int hi) {
    const std::string range = "must be an integer in [" + std::to_string(lo) + ", " + std::to_string(hi) + "]";
    uint64_t v = 0;
    try {
        v = core::parseCount("--" + name, text);
    } catch (const Error&) {
        throw Error(ErrorCode::BadValue, "--" + name + " '" + text + "': not an integer; " + range);
    }
    if (v < static_cast<uint64_t>(lo) || v > static_cast<uint64_t>(hi))
        throw Error(ErrorCode::BadValue, "--" + name + " " + text + ": " + range);
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

// Whether a number's range excludes 0 (lo is 0 and not core::kClosedRange).
bool openAtZero(double lo, unsigned attrs) { return lo == 0.0 && !(attrs & core::kClosedRange); }
// A visitRunSettings number's range as text: (lo, hi) with core::kOpenRange, (0, hi] when lo is 0 (unless
// core::kClosedRange), [lo, hi] otherwise.
std::string numberRange(double lo, double hi, unsigned attrs) {
    if (attrs & core::kOpenRange) return "(" + fmt(lo) + ", " + fmt(hi) + ")";
    return (openAtZero(lo, attrs) ? "(" : "[") + fmt(lo) + ", " + fmt(hi) + "]";
}
bool inNumberRange(double x, double lo, double hi, unsigned attrs) {
    if (!std::isfinite(x)) return false;
    if (attrs & core::kOpenRange) return x > lo && x < hi;
    return (openAtZero(lo, attrs) ? x > lo : x >= lo) && x <= hi;
}

// N comma-separated numbers, each in [lo, hi]: a vector's text. Throws Error(BadValue) naming --name.
template <int N>
glm::vec<N, float> parseVector(const std::string& name, const std::string& text, float lo, float hi, const char* form) {
    const auto parts = core::split(text, ',');
    if (parts.size() != static_cast<size_t>(N))
        throw Error(ErrorCode::BadValue, "--" + name + " '" + text + "': expected " + form);
    glm::vec<N, float> v;
    for (int i = 0; i < N; ++i) v[i] = parseFloatIn(name, core::trim(parts[static_cast<size_t>(i)]), lo, hi);
    return v;
}
template <int N>
std::string vectorText(const glm::vec<N, float>& v) {
    std::string out;
    for (int i = 0; i < N; ++i) out += (i ? "," : "") + core::formatFloat(v[i]);
    return out;
}

// A grid's cells, "NXxNYxNZ" or one number for a cube, each in [lo, hi]. Throws Error(BadValue) naming --name.
glm::ivec3 parseGrid(const std::string& name, const std::string& text, int lo, int hi) {
    const auto parts = core::split(text, 'x');
    if (parts.size() != 1 && parts.size() != 3)
        throw Error(ErrorCode::BadValue, "--" + name + " '" + text + "': expected NXxNYxNZ (e.g. 64x128x64) or N");
    glm::ivec3 g;
    for (int i = 0; i < 3; ++i) {
        const std::string item = core::trim(parts[parts.size() == 1 ? 0 : static_cast<size_t>(i)]);
        try {
            g[i] = parseInt(name, item, lo, hi);
        } catch (const Error&) {
            throw Error(ErrorCode::BadValue, "--" + name + " " + text + ": each axis must be an integer in [" +
                                                 std::to_string(lo) + ", " + std::to_string(hi) + "] (NXxNYxNZ)");
        }
    }
    return g;
}
// A flipbook's layout: "RxC", each in [1, kMaxFlipbookSide], or off (false, 0, off); true is the first atlas's
// 4x4. Throws Error(BadValue) naming --name and what is allowed.
render::FlipbookLayout parseLayout(const std::string& name, const std::string& text) {
    const std::string t = core::trim(text);
    if (t == "off" || t == "false" || t == "0") return {};
    if (t == "true" || t == "on") return render::kFlameAtlasLayout;
    const auto parts = core::split(t, 'x');
    const std::string allowed =
        "RxC (rows x columns, e.g. 8x8), each in [1, " + std::to_string(render::kMaxFlipbookSide) + "], or off";
    if (parts.size() != 2) throw Error(ErrorCode::BadValue, "--" + name + " '" + text + "': expected " + allowed);
    render::FlipbookLayout f;
    try {
        f.rows = parseInt(name, core::trim(parts[0]), 1, render::kMaxFlipbookSide);
        f.cols = parseInt(name, core::trim(parts[1]), 1, render::kMaxFlipbookSide);
    } catch (const Error&) {
        throw Error(ErrorCode::BadValue, "--" + name + " '" + text +
                                             "': a layout with no rows or columns, or too "
                                             "many; expected " +
                                             allowed);
    }
    return f;
}

std::string gridText(const glm::ivec3& g) {
    return std::to_string(g.x) + "x" + std::to_string(g.y) + "x" + std::to_string(g.z);
}

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
    void integer(std::string_view n, I& v, long lo, long hi, std::string_view, unsigned = 0) {
        if (is(n)) v = static_cast<I>(parseInt(target, value, static_cast<int>(lo), static_cast<int>(hi)));
    }
    template <class F>
    void number(std::string_view n, F& v, double lo, double hi, std::string_view, unsigned attrs = 0) {
        if (!is(n)) return;
        // A double setting keeps the digits given (a float would write 6.4 back as 6.4000001).
        const double x = std::is_same_v<F, double> ? core::parseDouble("--" + target, value)
                                                   : core::parseFloat("--" + target, value);
        if (!inNumberRange(x, lo, hi, attrs))
            throw Error(ErrorCode::BadValue,
                        "--" + target + " " + value + ": must be in " + numberRange(lo, hi, attrs));
        v = static_cast<F>(x);
    }
    void vec3(std::string_view n, glm::vec3& v, float lo, float hi, std::string_view, unsigned = 0) {
        if (is(n)) v = parseVector<3>(target, value, lo, hi, "x,y,z");
    }
    void grid(std::string_view n, glm::ivec3& v, int lo, int hi, std::string_view, unsigned = 0) {
        if (is(n)) v = parseGrid(target, value, lo, hi);
    }
    void layout(std::string_view n, render::FlipbookLayout& v, std::string_view, unsigned = 0) {
        if (is(n)) v = parseLayout(target, value);
    }
    void interval(std::string_view n, glm::vec2& v, float lo, float hi, std::string_view, unsigned = 0) {
        if (!is(n)) return;
        const glm::vec2 x = parseVector<2>(target, value, lo, hi, "A,B (A below B), or 0,0 for off");
        if (x.x >= x.y && !(x.x == 0.0f && x.y == 0.0f))
            throw Error(ErrorCode::BadValue, "--" + target + " '" + value + "': the first number (" +
                                                 core::formatFloat(x.x) + ") must be below the second (" +
                                                 core::formatFloat(x.y) + "); 0,0 is off");
        v = x;
    }
    template <class E, size_t N>
    void choice(std::string_view n, E& v, const std::array<std::string_view, N>& names, std::string_view,
                unsigned = 0) {
        if (is(n)) v = static_cast<E>(core::parseChoice("--" + target, value, names));
    }
    void flag(std::string_view n, bool& v, std::string_view, unsigned = 0) {
        if (is(n)) v = parseBool(target, value);
    }
    void scalar(std::string_view n, float& v, float lo, float hi, std::string_view, unsigned = 0) {
        if (is(n)) v = parseFloatIn(target, value, lo, hi);
    }
    void text(std::string_view n, std::string& v, std::string_view, unsigned = 0) {
        if (is(n)) v = utf8(n, printable(n, value));
    }
    // Text (a label) is UTF-8, as runs.csv, meta.json and the report are: other bytes would break their encoding
    // and --resume's reading of the file.
    static const std::string& utf8(std::string_view n, const std::string& text) {
        if (const size_t at = core::invalidUtf8At(text); at != std::string::npos) {
            char byte[8];
            std::snprintf(byte, sizeof byte, "0x%02x", static_cast<unsigned>(static_cast<unsigned char>(text[at])));
            throw Error(ErrorCode::BadValue, "--" + std::string(n) + " '" + text + "': not UTF-8 text (byte " + byte +
                                                 " at " + std::to_string(at) + "); write it in UTF-8");
        }
        return text;
    }
    void path(std::string_view n, std::string& v, std::string_view, unsigned = 0) {
        if (is(n)) v = printable(n, value);
    }
    // A label or a path is written into text files (runs.csv, meta.json, TOML): no NUL, which ends a C string
    // and corrupts a text file. (Other control characters are quoted or escaped where they are written, and
    // messages show them as \xNN.)
    static const std::string& printable(std::string_view n, const std::string& text) {
        if (text.find('\0') != std::string::npos)
            throw Error(ErrorCode::BadValue, "--" + std::string(n) + " '" + text + "': holds a NUL character");
        return text;
    }
    void reference(std::string_view n, ReferenceSpec& v, std::string_view) {
        if (is(n)) v = parseReference(value);
    }
    void metrics(std::string_view n, QualitySettings& q, std::string_view) {
        if (is(n)) q.metrics = parseMetricSet("--" + target, value);
    }
};

// Every run-level setting's value as the text that sets it, in visitor order.
struct RunSettingTexts {
    std::vector<std::pair<std::string, std::string>> out;

    void strategy(std::string_view n, const std::string& v, std::string_view) { out.emplace_back(n, v); }
    template <class I>
    void integer(std::string_view n, const I& v, long, long, std::string_view, unsigned = 0) {
        out.emplace_back(n, std::to_string(v));
    }
    template <class F>
    void number(std::string_view n, const F& v, double, double, std::string_view, unsigned = 0) {
        if constexpr (std::is_same_v<F, float>)
            out.emplace_back(n, core::formatFloat(v));
        else
            out.emplace_back(n, fmt(v));
    }
    template <class E, size_t N>
    void choice(std::string_view n, const E& v, const std::array<std::string_view, N>& names, std::string_view,
                unsigned = 0) {
        out.emplace_back(n, names[static_cast<size_t>(v)]);
    }
    void flag(std::string_view n, const bool& v, std::string_view, unsigned = 0) {
        out.emplace_back(n, v ? "true" : "false");
    }
    void scalar(std::string_view n, const float& v, float, float, std::string_view, unsigned = 0) {
        out.emplace_back(n, core::formatFloat(v));
    }
    void vec3(std::string_view n, const glm::vec3& v, float, float, std::string_view, unsigned = 0) {
        out.emplace_back(n, vectorText(v));
    }
    void grid(std::string_view n, const glm::ivec3& v, int, int, std::string_view, unsigned = 0) {
        out.emplace_back(n, gridText(v));
    }
    void layout(std::string_view n, const render::FlipbookLayout& v, std::string_view, unsigned = 0) {
        out.emplace_back(n, render::flipbookText(v));
    }
    void interval(std::string_view n, const glm::vec2& v, float, float, std::string_view, unsigned = 0) {
        out.emplace_back(n, vectorText(v));
    }
    void text(std::string_view n, const std::string& v, std::string_view, unsigned = 0) { out.emplace_back(n, v); }
    void path(std::string_view n, const std::string& v, std::string_view, unsigned = 0) { out.emplace_back(n, v); }
    void reference(std::string_view n, const ReferenceSpec& v, std::string_view) {
        out.emplace_back(n, referenceText(v));
    }
    void metrics(std::string_view n, const QualitySettings& q, std::string_view) {
        out.emplace_back(n, metricSetText(q.metrics));
    }
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

// Each setting's name, help, kind, allowed values and attributes: the run-level ones (visitRunSettings,
// render options marked as such) and the model's (sim::visitParams).
struct SettingLister {
    std::vector<SettingInfo> out;
    bool model = false;  // listing sim::visitParams

    SettingInfo& add(std::string_view n, std::string_view help, SettingInfo::Kind kind, unsigned attrs) {
        out.push_back({std::string(n), std::string(help), kind, {}, 0.0, 0.0, {}, attrs, false, model});
        return out.back();
    }
    SettingInfo& ranged(std::string_view n, std::string_view help, SettingInfo::Kind kind, double lo, double hi,
                        unsigned attrs) {
        auto& o = add(n, help, kind, attrs);
        o.lo = lo, o.hi = hi;
        return o;
    }
    void strategy(std::string_view n, const std::string&, std::string_view help) {
        auto& o = add(n, help, SettingInfo::Kind::Choice, core::kColumn);
        o.choices = render::strategyNames();
    }
    template <class I>
    void integer(std::string_view n, const I&, long lo, long hi, std::string_view help, unsigned attrs = 0) {
        ranged(n, help, SettingInfo::Kind::Integer, static_cast<double>(lo), static_cast<double>(hi), attrs);
    }
    template <class F>
    void number(std::string_view n, const F&, double lo, double hi, std::string_view help, unsigned attrs = 0) {
        ranged(n, help, SettingInfo::Kind::Scalar, lo, hi, attrs);
    }
    template <class E, size_t N>
    void choice(std::string_view n, const E&, const std::array<std::string_view, N>& names, std::string_view help,
                unsigned attrs = 0) {
        add(n, help, SettingInfo::Kind::Choice, attrs).choices.assign(names.begin(), names.end());
    }
    void flag(std::string_view n, const bool&, std::string_view help, unsigned attrs = 0) {
        add(n, help, SettingInfo::Kind::Flag, attrs);
    }
    void scalar(std::string_view n, const float&, float lo, float hi, std::string_view help, unsigned attrs = 0) {
        ranged(n, help, SettingInfo::Kind::Scalar, static_cast<double>(lo), static_cast<double>(hi), attrs);
    }
    void text(std::string_view n, const std::string&, std::string_view help, unsigned attrs = 0) {
        add(n, help, SettingInfo::Kind::Text, attrs);
    }
    void path(std::string_view n, const std::string&, std::string_view help, unsigned attrs = 0) {
        add(n, help, SettingInfo::Kind::Path, attrs);
    }
    void reference(std::string_view n, const ReferenceSpec&, std::string_view help) {
        add(n, std::string(help) + "; keys: " + referenceKeyList(), SettingInfo::Kind::Reference, 0);
    }
    void metrics(std::string_view n, const QualitySettings&, std::string_view help) {
        add(n, help, SettingInfo::Kind::Metrics, 0);
    }
    // The model's kinds (sim::visitParams).
    void count(std::string_view n, const uint32_t&, uint32_t lo, uint32_t hi, std::string_view help,
               unsigned attrs = 0) {
        ranged(n, help, SettingInfo::Kind::Integer, lo, hi, attrs);
    }
    void seed(std::string_view n, const uint64_t&, std::string_view help, unsigned attrs = 0) {
        ranged(n, help, SettingInfo::Kind::Integer, 0.0, 18446744073709551615.0, attrs);
    }
    void vec3(std::string_view n, const glm::vec3&, float lo, float hi, std::string_view help, unsigned attrs = 0) {
        ranged(n, help, SettingInfo::Kind::Vector, static_cast<double>(lo), static_cast<double>(hi), attrs);
    }
    void grid(std::string_view n, const glm::ivec3&, int lo, int hi, std::string_view help, unsigned attrs = 0) {
        ranged(n, help, SettingInfo::Kind::Grid, lo, hi, attrs);
    }
    void layout(std::string_view n, const render::FlipbookLayout&, std::string_view help, unsigned attrs = 0) {
        ranged(n, help, SettingInfo::Kind::Layout, 1, render::kMaxFlipbookSide, attrs);
    }
    void interval(std::string_view n, const glm::vec2&, float lo, float hi, std::string_view help, unsigned attrs = 0) {
        ranged(n, help, SettingInfo::Kind::Vector, static_cast<double>(lo), static_cast<double>(hi), attrs);
    }
    void gradient(std::string_view n, const std::vector<sim::ColorKey>&, std::string_view help, unsigned attrs = 0) {
        add(n, help, SettingInfo::Kind::Gradient, attrs);
    }
    void span(std::string_view n, const glm::vec2&, float lo, float hi, std::string_view help, unsigned attrs = 0) {
        ranged(n, help, SettingInfo::Kind::Span, static_cast<double>(lo), static_cast<double>(hi), attrs);
    }
};

// `before`, every render option's name, then `after`.
std::vector<std::string> aroundRenderOptions(std::initializer_list<const char*> before,
                                             std::initializer_list<const char*> after) {
    std::vector<std::string> names(before.begin(), before.end());
    names.insert(names.end(), renderOptionNames().begin(), renderOptionNames().end());
    names.insert(names.end(), after.begin(), after.end());
    return names;
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
        SettingLister l;
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

const std::vector<SettingInfo>& allSettings() {
    static const std::vector<SettingInfo> infos = [] {
        std::vector<SettingInfo> all = runSettings();
        const sim::FireParams defaults;
        SettingLister model{{}, true};
        sim::visitParams(defaults, model);
        for (auto& o : model.out) {
            o.defaultText = sim::getParam(defaults, o.name);
            o.attrs |= core::kColumn;  // a column of runs.csv each: a swept model parameter is read by name there
            all.push_back(std::move(o));
        }
        return all;
    }();
    return infos;
}

const SettingInfo* findSetting(std::string_view name) {
    for (const auto& o : allSettings())
        if (o.name == name) return &o;
    return nullptr;
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

namespace {
// The names of the settings `visit(lister)` declares, in its order.
template <class Visit>
std::vector<std::string> namesDeclaredBy(Visit visit) {
    SettingLister l;
    visit(l);
    std::vector<std::string> n;
    for (const auto& o : l.out) n.push_back(o.name);
    return n;
}
}  // namespace

const std::vector<std::string>& renderOptionNames() {
    // Straight from the visitor (not from runSettings(), whose reference help lists them).
    static const std::vector<std::string> names = namesDeclaredBy([](SettingLister& l) {
        const render::RenderOptions defaults;
        render::visitRenderOptions(defaults, l);
    });
    return names;
}

std::string settingHelp(const SettingInfo& o) {
    std::string help = o.help;
    if (o.kind == SettingInfo::Kind::Scalar && o.renderOption)
        help += " (" + fmt(o.lo) + " to " + fmt(o.hi) + ")";
    else if (o.kind == SettingInfo::Kind::Scalar)
        help += " " + numberRange(o.lo, o.hi, o.attrs);
    else if (o.kind == SettingInfo::Kind::Integer)
        help += " [" + fmt(o.lo) + ", " + fmt(o.hi) + "]";
    else if (o.kind == SettingInfo::Kind::Span)
        help += ", each in (" + fmt(o.lo) + ", " + fmt(o.hi) + "]";
    else if (o.kind == SettingInfo::Kind::Grid)
        help += ", each axis in [" + fmt(o.lo) + ", " + fmt(o.hi) + "]";
    else if (o.kind == SettingInfo::Kind::Layout)
        help += "; rows and columns each in [" + fmt(o.lo) + ", " + fmt(o.hi) + "]";
    if (o.attrs & core::kSweepWide) help += "; one value for the whole sweep";
    if (o.kind == SettingInfo::Kind::Path) help += "; one path, never a list (several: a TOML array in [sweep])";
    return help + (o.defaultText.empty() ? "" : " [default: " + o.defaultText + "]");
}

std::string fluidParamsText(const fluid::FluidParams& p) {
    RunSettingTexts t;
    fluid::visitFluidParams(p, t);
    std::string out;
    for (const auto& [name, text] : t.out) out += (out.empty() ? "" : ";") + name + "=" + text;
    return out;
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

const std::vector<std::string>& cameraSettingNames() {
    static const std::vector<std::string> names = namesDeclaredBy([](SettingLister& l) {
        const render::CameraSettings defaults;
        visitCameraSettings(defaults, l);
    });
    return names;
}

const std::vector<std::string>& fluidSettingNames() {
    static const std::vector<std::string> names = namesDeclaredBy([](SettingLister& l) {
        const fluid::FluidParams defaults;
        fluid::visitFluidParams(defaults, l);
    });
    return names;
}

const std::vector<std::string>& settingColumns() {
    static const std::vector<std::string> names = [] {
        std::vector<std::string> n;
        for (const auto& o : allSettings())
            if (o.attrs & core::kColumn) n.push_back(o.name);
        return n;
    }();
    return names;
}

bool hasAttrs(std::string_view name, unsigned attrs) {
    const SettingInfo* o = findSetting(name);
    return o && (o->attrs & attrs) == attrs;
}

bool pathValued(const std::string& name) {
    const SettingInfo* o = findSetting(name);
    return o && o->kind == SettingInfo::Kind::Path;
}

const std::vector<std::string>& layerKeys() {
    static const std::vector<std::string> keys = [] {
        std::vector<std::string> k;
        for (const auto& o : renderOptions())
            if (o.attrs & core::kLayer) k.push_back(o.name);
        for (const auto& n : sim::paramNames()) k.push_back(n);
        return k;
    }();
    return keys;
}

const std::vector<std::string>& referenceKeys() {
    static const std::vector<std::string> keys =
        aroundRenderOptions({"strategy"}, {"particles", "seed", "motion", "medium", "effect", "supersample", "seeds"});
    return keys;
}

std::string referenceKeyList() { return core::join(referenceKeys()); }

std::vector<std::string> allSettingNames() {
    auto names = runSettingNames();
    for (const auto& n : sim::paramNames()) names.push_back(n);
    return names;
}

void applySetting(RunSettings& s, const std::string& name, const std::string& value) {
    RunSettingSetter setter{name, value};
    visitRunSettings(s, setter);
    if (!setter.found) sim::setParam(s.params, name, value);  // UnknownName lists the model parameters
}

std::string settingText(const RunSettings& s, const std::string& name) {
    for (auto& [setting, text] : runSettingTexts(s))
        if (setting == name) return std::move(text);
    return sim::getParam(s.params, name);
}

namespace {
const char* const kReferenceExample = "e.g. strategy=billboards-cpu;sort=back-to-front";

// A spec that is a bare strategy name: the strategy replaced, nothing else.
ReferenceSpec strategySpec(const std::string& flag, const std::string& text) {
    const std::string name = core::trim(text);
    ReferenceSpec spec;
    try {
        spec.overrides = {{"strategy", std::string(render::strategyInfo(name).name)}};
    } catch (const Error& e) {
        throw Error(e.code(), flag + ": '" + name + "' is not a strategy; give one of " +
                                  core::join(render::strategyNames()) + ", or key=value;... (" + kReferenceExample +
                                  ")");
    }
    return spec;
}

// "key=value;..." as a map, each key one of referenceKeys() and named once (empty items skipped).
std::map<std::string, std::string> specItems(const std::string& flag, const std::string& text) {
    std::map<std::string, std::string> given;
    for (const std::string& item : core::trimmed(core::split(text, ';'))) {
        if (item.empty()) continue;
        const auto eq = item.find('=');
        if (eq == std::string::npos) throw Error(ErrorCode::BadValue, flag + ": '" + item + "' is not key=value");
        const std::string key = core::trim(item.substr(0, eq)), value = core::trim(item.substr(eq + 1));
        if (std::find(referenceKeys().begin(), referenceKeys().end(), key) == referenceKeys().end())
            throw Error(ErrorCode::UnknownName,
                        flag + ": '" + key + "' cannot be set for a reference; valid keys are " + referenceKeyList());
        if (!given.emplace(key, value).second)
            throw Error(ErrorCode::BadValue, flag + ": '" + key + "' is given twice");
    }
    if (given.empty()) throw Error(ErrorCode::BadValue, flag + ": empty; " + kReferenceExample);
    return given;
}

// The spec's own keys, which are not settings: supersample (1 to 8) and seeds (1 to 64). False for a setting.
bool setSpecOwnKey(ReferenceSpec& spec, const std::string& key, const std::string& value) {
    if (key != "supersample" && key != "seeds") return false;
    const bool ss = key == "supersample";
    const int hi = ss ? 8 : 64;
    try {
        (ss ? spec.supersample : spec.seeds) = parseInt(key, value, 1, hi);
    } catch (const Error&) {
        throw Error(ErrorCode::BadValue,
                    key + " '" + value + "': must be an integer in [1, " + std::to_string(hi) + "]");
    }
    return true;
}
}  // namespace

ReferenceSpec parseReference(const std::string& text) {
    const std::string flag = "--reference '" + text + "'";
    if (text.find('=') == std::string::npos) return strategySpec(flag, text);
    const auto given = specItems(flag, text);
    ReferenceSpec spec;
    spec.overrides.clear();
    RunSettings probe;  // each value checked (and canonicalised) as its flag would be, in referenceKeys() order
    for (const std::string& key : referenceKeys()) {
        const auto it = given.find(key);
        if (it == given.end()) continue;
        try {
            if (setSpecOwnKey(spec, key, it->second)) continue;
            applySetting(probe, key, it->second);
        } catch (const Error& e) {
            throw Error(e.code(), flag + ": " + e.what());
        }
        spec.overrides.emplace_back(key, settingText(probe, key));
    }
    return spec;
}

std::string referenceText(const ReferenceSpec& spec) {
    std::string out;
    for (const auto& [key, value] : spec.overrides) out += key + "=" + value + ";";
    out += "supersample=" + std::to_string(spec.supersample);
    return spec.seeds > 1 ? out + ";seeds=" + std::to_string(spec.seeds) : out;
}


namespace {
constexpr size_t kMostRangeValues = 10000;

// A whole number's text as an unsigned 64-bit value; nothing when it is not one (a sign, a fraction, beyond).
std::optional<uint64_t> wholeNumber(std::string text) {
    text = core::trim(text);
    uint64_t v = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
    if (ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
    return v;
}

// An integer setting's range in exact integers (a seed near 2^64 is beyond a double's steps of 1).
std::optional<std::vector<std::string>> expandWholeRange(const std::string& flag, const std::string& item,
                                                         const std::string& fromText, const std::string& toText,
                                                         const std::string& byText, bool geometric) {
    const auto from = wholeNumber(fromText), to = wholeNumber(toText), by = wholeNumber(byText);
    if (!from || !to || !by) return std::nullopt;
    if (geometric ? (*by <= 1 || *from == 0) : *by == 0)
        throw Error(ErrorCode::BadValue, flag + " '" + item + "': the factor must be > 1 (and FROM > 0), the step > 0");
    if (*to < *from) throw Error(ErrorCode::BadValue, flag + " '" + item + "': TO must not be below FROM");
    std::vector<std::string> out;
    for (uint64_t v = *from;;) {
        if (out.size() >= kMostRangeValues)
            throw Error(ErrorCode::BadValue,
                        flag + " '" + item + "': more than " + std::to_string(kMostRangeValues) + " values");
        out.push_back(std::to_string(v));
        // The next value, unless it passes TO (or 2^64).
        if (geometric ? v > *to / *by : *to - v < *by) break;
        v = geometric ? v * *by : v + *by;
    }
    return out;
}

// A range item, FROM..TOxFACTOR (geometric) or FROM..TO+STEP (arithmetic), as its values (at most 10000).
// Each value is computed from FROM (FROM + i STEP, FROM FACTOR^i: no rounding error accumulates) and written
// to 12 significant digits (0.1..0.3+0.1 gives 0.3, and 4e-07..6e-07+1e-07 keeps its values); an integer
// setting's range is counted in exact integers. `dots` is where ".." is. Throws Error(BadValue) naming `flag`.
std::vector<std::string> expandRange(const std::string& flag, const std::string& item, size_t dots, bool integer) {
    const auto opPos = item.find_first_of("x+", dots + 2);
    if (opPos == std::string::npos)
        throw Error(ErrorCode::BadValue, flag + " '" + item + "': a range is FROM..TOxFACTOR or FROM..TO+STEP");
    const std::string fromText = item.substr(0, dots), toText = item.substr(dots + 2, opPos - dots - 2),
                      byText = item.substr(opPos + 1);
    const bool geometric = item[opPos] == 'x';
    if (integer)
        if (auto whole = expandWholeRange(flag, item, fromText, toText, byText, geometric)) return *whole;
    const double from = parseBound(flag, fromText), to = parseBound(flag, toText), by = parseBound(flag, byText);
    if (geometric ? (by <= 1.0 || from <= 0.0) : by <= 0.0)
        throw Error(ErrorCode::BadValue, flag + " '" + item + "': the factor must be > 1 (and FROM > 0), the step > 0");
    if (to < from) throw Error(ErrorCode::BadValue, flag + " '" + item + "': TO must not be below FROM");
    std::vector<std::string> out;
    for (size_t i = 0;; ++i) {
        const double v = geometric ? from * std::pow(by, static_cast<double>(i)) : from + static_cast<double>(i) * by;
        if (geometric ? v > to * (1.0 + 1e-9) : v > to + 1e-9 * by) break;
        if (out.size() >= kMostRangeValues)
            throw Error(ErrorCode::BadValue,
                        flag + " '" + item + "': more than " + std::to_string(kMostRangeValues) + " values");
        std::ostringstream o;
        o.precision(12);
        o << v;
        out.push_back(o.str());
    }
    return out;
}

// `values` without repeats, the first kept: a value listed twice would be the same run twice, under one key.
std::vector<std::string> firstOfEach(std::vector<std::string> values) {
    std::vector<std::string> unique;
    for (auto& v : values)
        if (std::find(unique.begin(), unique.end(), v) == unique.end()) unique.push_back(std::move(v));
    return unique;
}
}  // namespace

std::vector<std::string> splitValues(const std::string& name, const std::string& text) {
    // Free text, a set of metrics and paths: their commas and dots are not lists or ranges (several
    // paths are a TOML array in [sweep], one path per element). Vectors and gradients hold commas: ';'.
    using Kind = SettingInfo::Kind;
    const SettingInfo* info = findSetting(name);
    const Kind kind = info ? info->kind : Kind::Text;
    if (kind == Kind::Text || kind == Kind::Path || kind == Kind::Metrics) return {text};
    const bool commaValued = kind == Kind::Vector || kind == Kind::Gradient;
    const std::vector<std::string> items = core::trimmed(core::split(text, commaValued ? ';' : ','));
    std::vector<std::string> out;
    for (const auto& item : items) {
        if (item.empty()) throw Error(ErrorCode::BadValue, "--" + name + " '" + text + "': empty list item");
        const auto dots = item.find("..");
        if (name == "strategy" && item == "all") {
            // every timed strategy: not the reference renderers (StrategyInfo::referenceOnly)
            for (auto& n : render::strategyNames([](const render::StrategyInfo& s) { return !s.referenceOnly; }))
                out.push_back(std::move(n));
        } else if (dots == std::string::npos || commaValued || kind == Kind::Reference || kind == Kind::Grid ||
                   kind == Kind::Layout) {
            // a spec may hold a path; a grid has no range (its '..' is refused as it is parsed)
            out.push_back(item);
        } else {
            for (auto& v : expandRange("--" + name, item, dots, kind == Kind::Integer)) out.push_back(std::move(v));
        }
    }
    return firstOfEach(std::move(out));
}

std::string tomlSettingValue(const std::string& name, const std::string& text) {
    using Kind = SettingInfo::Kind;
    const SettingInfo* info = findSetting(name);
    const Kind kind = info ? info->kind : Kind::Text;
    auto isNumber = [](const std::string& t) {
        if (t.empty()) return false;
        char* end = nullptr;
        std::strtod(t.c_str(), &end);
        return end == t.c_str() + t.size() && t.find_first_of("nN") == std::string::npos;  // no nan/inf
    };
    if (kind == Kind::Gradient) {  // t:r:g:b:a,... as arrays of [t, r, g, b, a]
        std::string out;
        for (std::string key : core::split(text, ',')) {
            std::replace(key.begin(), key.end(), ':', ',');
            out += (out.empty() ? "[" : ", [") + key + "]";
        }
        return "[" + out + "]";
    }
    if (kind == Kind::Vector) return "[" + text + "]";
    if (kind == Kind::Flag && (text == "true" || text == "false")) return text;  // a TOML boolean
    // TOML integers are signed 64-bit: a larger seed is written as a string (setParam reads either).
    const bool bigSeed =
        name == "seed" && text.size() >= 19 && std::strtoull(text.c_str(), nullptr, 10) > 9223372036854775807ULL;
    const bool numeric = kind == Kind::Scalar || kind == Kind::Integer || kind == Kind::Choice;
    if (numeric && isNumber(text) && !bigSeed) return text;
    return tomlString(text);
}

std::string tomlString(const std::string& text) {
    // Quotes and backslashes escaped, and every control character as \uXXXX (TOML takes none raw; a tab or a
    // newline in a label would make a file that does not read back).
    std::string q = "\"";
    for (const char c : text) {
        const auto u = static_cast<unsigned char>(c);
        if (c == '"' || c == '\\') {
            q += '\\';
            q += c;
        } else if (u < 0x20 || u == 0x7f) {
            char escaped[8];
            std::snprintf(escaped, sizeof escaped, "\\u%04X", u);
            q += escaped;
        } else {
            q += c;
        }
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
}  // namespace firelab::harness

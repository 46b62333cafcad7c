#include "sim/params.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <sstream>

#include "core/error.h"

namespace firelab::sim {
using core::formatFloat, core::joinNames, core::parseChoice, core::parseCount, core::parseFloat, core::trim;
namespace {

std::string quote(std::string_view s) { return "'" + std::string(s) + "'"; }

}  // namespace


namespace {


// `s` split on `sep`, each item trimmed.
std::vector<std::string> split(std::string_view s, char sep) { return core::trimmed(core::split(s, sep)); }

[[noreturn]] void badRange(std::string_view name, const std::string& value, float lo, float hi) {
    throw Error(ErrorCode::BadValue, "--" + std::string(name) + " " + value +
                                         ": out of range; must be a finite number in [" + formatFloat(lo) + ", " +
                                         formatFloat(hi) + "]");
}

void checkScalar(std::string_view name, float v, float lo, float hi) {
    if (!std::isfinite(v) || v < lo || v > hi) badRange(name, formatFloat(v), lo, hi);
}

std::vector<ColorKey> gradientPreset(std::string_view name) {
    if (name == kGradientPresetNames[0]) return FireParams{}.gradient;
    if (name != kGradientPresetNames[1]) return {};
    std::vector<ColorKey> keys;
    for (int i = 0; i < kNvidiaGradientKeys; ++i) {
        const float t = static_cast<float>(i) / static_cast<float>(kNvidiaGradientKeys - 1);
        keys.push_back({t, {1.0f, (1.0f - t) * (1.0f - t), 0.0f, 1.0f - t}});
    }
    return keys;
}

void checkGradient(std::string_view name, const std::vector<ColorKey>& keys) {
    const std::string flag = "--" + std::string(name);
    if (keys.size() < 2) throw Error(ErrorCode::BadValue, flag + ": needs at least two keys (t:r:g:b:a,...)");
    float prev = -1.0f;
    for (const auto& k : keys) {
        if (!std::isfinite(k.t) || k.t < 0.0f || k.t > 1.0f || k.t < prev)
            throw Error(ErrorCode::BadValue,
                        flag + ": key times must be in [0, 1] and non-decreasing, got " + formatFloat(k.t));
        for (int c = 0; c < 4; ++c)
            if (!std::isfinite(k.rgba[c]) || k.rgba[c] < 0.0f || k.rgba[c] > 1.0f)
                throw Error(ErrorCode::BadValue,
                            flag + ": colour components must be in [0, 1], got " + formatFloat(k.rgba[c]));
        prev = k.t;
    }
}

// A span's two numbers, each in (lo, hi].
void checkSpan(std::string_view name, const std::string& value, const glm::vec2& v, float lo, float hi) {
    for (int i = 0; i < 2; ++i)
        if (!std::isfinite(v[i]) || v[i] <= lo || v[i] > hi)
            throw Error(ErrorCode::BadValue, "--" + std::string(name) + " " + value +
                                                 ": out of range; START and END must each be a finite number in (" +
                                                 formatFloat(lo) + ", " + formatFloat(hi) + "]");
}
std::string spanText(const glm::vec2& v) { return formatFloat(v.x) + ":" + formatFloat(v.y); }

// Out-of-range counts; for particle counts the message says what the memory would have been.
[[noreturn]] void countOutOfRange(std::string_view n, const std::string& value, uint64_t v, uint32_t lo, uint32_t hi) {
    std::string msg = "--" + std::string(n) + " " + value + ": must be an integer in [" + std::to_string(lo) + ", " +
                      std::to_string(hi) + "]";
    if (v > hi && (n == "particles" || n == "burst")) {
        char est[160];
        std::snprintf(est, sizeof est, "; %s particles would need about %.1f GiB (%d B each in the pool, %d B to draw)",
                      value.c_str(), static_cast<double>(v) * (52.0 + 32.0) / (1024.0 * 1024.0 * 1024.0), 52, 32);
        msg += est;
    }
    throw Error(v > hi ? ErrorCode::TooLarge : ErrorCode::BadValue, msg);
}

// Checks every field against the bounds declared in visitParams.
struct Validator {
    void scalar(std::string_view n, const float& v, float lo, float hi, std::string_view, unsigned = 0) {
        checkScalar(n, v, lo, hi);
    }
    void count(std::string_view n, const uint32_t& v, uint32_t lo, uint32_t hi, std::string_view, unsigned = 0) {
        if (v < lo || v > hi) countOutOfRange(n, std::to_string(v), v, lo, hi);
    }
    void seed(std::string_view, const uint64_t&, std::string_view, unsigned = 0) {}
    void vec3(std::string_view n, const glm::vec3& v, float lo, float hi, std::string_view, unsigned = 0) {
        for (int i = 0; i < 3; ++i)
            if (!std::isfinite(v[i]) || v[i] < lo || v[i] > hi)
                badRange(n, formatFloat(v.x) + "," + formatFloat(v.y) + "," + formatFloat(v.z), lo, hi);
    }
    template <class E, size_t N>
    void choice(std::string_view n, const E& v, const std::array<std::string_view, N>&, std::string_view,
                unsigned = 0) {
        if (static_cast<size_t>(v) >= N)
            throw Error(ErrorCode::UnknownName, "--" + std::string(n) + ": invalid choice");
    }
    void gradient(std::string_view n, const std::vector<ColorKey>& k, std::string_view, unsigned = 0) {
        checkGradient(n, k);
    }
    void span(std::string_view n, const glm::vec2& v, float lo, float hi, std::string_view, unsigned = 0) {
        checkSpan(n, spanText(v), v, lo, hi);
    }
};

// Sets the one field called `target` from text, checking it against its bounds.
struct Setter {
    std::string_view target;
    std::string_view text;
    bool found = false;

    bool is(std::string_view n) {
        if (n != target) return false;
        found = true;
        return true;
    }
    // A number beyond a float is out of the setting's range: say the range, not only the float's.
    float parseIn(std::string_view n, std::string_view t, float lo, float hi) const {
        try {
            return parseFloat("--" + std::string(n), t);
        } catch (const Error&) {
            const std::string s = trim(t);
            double d = 0.0;
            const auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), d);
            const bool parsed = ec == std::errc() || ec == std::errc::result_out_of_range;
            if (!s.empty() && parsed && ptr == s.data() + s.size() &&
                (d < static_cast<double>(lo) || d > static_cast<double>(hi)))
                badRange(n, s, lo, hi);
            throw;
        }
    }
    void scalar(std::string_view n, float& v, float lo, float hi, std::string_view, unsigned = 0) {
        if (!is(n)) return;
        const float x = parseIn(n, text, lo, hi);
        checkScalar(n, x, lo, hi);
        v = x;
    }
    void count(std::string_view n, uint32_t& v, uint32_t lo, uint32_t hi, std::string_view h, unsigned = 0) {
        if (!is(n)) return;
        const uint64_t x = parseCount("--" + std::string(n), text);
        if (x > hi) countOutOfRange(n, trim(text), x, lo, hi);
        const auto x32 = static_cast<uint32_t>(x);
        Validator{}.count(n, x32, lo, hi, h);
        v = x32;
    }
    void seed(std::string_view n, uint64_t& v, std::string_view, unsigned = 0) {
        if (is(n)) v = parseCount("--" + std::string(n), text);
    }
    void vec3(std::string_view n, glm::vec3& v, float lo, float hi, std::string_view h, unsigned = 0) {
        if (!is(n)) return;
        const auto parts = split(text, ',');
        const std::string flag = "--" + std::string(n);
        if (parts.size() != 1 && parts.size() != 3)
            throw Error(ErrorCode::BadValue, flag + " " + quote(text) + ": expected x,y,z or one number");
        glm::vec3 x;
        for (int i = 0; i < 3; ++i) x[i] = parseIn(n, parts[parts.size() == 1 ? 0 : static_cast<size_t>(i)], lo, hi);
        Validator{}.vec3(n, x, lo, hi, h);
        v = x;
    }
    template <class E, size_t N>
    void choice(std::string_view n, E& v, const std::array<std::string_view, N>& names, std::string_view,
                unsigned = 0) {
        if (is(n)) v = static_cast<E>(parseChoice("--" + std::string(n), trim(text), names));
    }
    void gradient(std::string_view n, std::vector<ColorKey>& keys, std::string_view, unsigned = 0) {
        if (!is(n)) return;
        const std::string flag = "--" + std::string(n);
        if (auto preset = gradientPreset(trim(text)); !preset.empty()) {
            keys = std::move(preset);
            return;
        }
        std::vector<ColorKey> out;
        for (const auto& key : split(text, ',')) {
            const auto c = split(key, ':');
            if (c.size() != 5)
                throw Error(ErrorCode::BadValue,
                            flag + " " + quote(key) + ": expected t:r:g:b:a,... or a preset (" +
                                core::join({kGradientPresetNames.begin(), kGradientPresetNames.end()}) + ")");
            ColorKey k;
            k.t = parseFloat(flag, c[0]);
            for (int i = 0; i < 4; ++i) k.rgba[i] = parseFloat(flag, c[static_cast<size_t>(i) + 1]);
            out.push_back(k);
        }
        checkGradient(n, out);
        keys = std::move(out);
    }
    void span(std::string_view n, glm::vec2& v, float lo, float hi, std::string_view, unsigned = 0) {
        if (!is(n)) return;
        const auto parts = split(text, ':');
        if (parts.size() != 2)
            throw Error(ErrorCode::BadValue,
                        "--" + std::string(n) + " " + quote(text) + ": expected START:END (two numbers)");
        const glm::vec2 x(parseIn(n, parts[0], lo, hi), parseIn(n, parts[1], lo, hi));
        checkSpan(n, trim(text), x, lo, hi);
        v = x;
    }
};

// Formats the field called `target` as text that Setter accepts.
struct Getter {
    std::string_view target;
    std::string out;
    void scalar(std::string_view n, const float& v, float, float, std::string_view, unsigned = 0) {
        if (n == target) out = formatFloat(v);
    }
    void count(std::string_view n, const uint32_t& v, uint32_t, uint32_t, std::string_view, unsigned = 0) {
        if (n == target) out = std::to_string(v);
    }
    void seed(std::string_view n, const uint64_t& v, std::string_view, unsigned = 0) {
        if (n == target) out = std::to_string(v);
    }
    void vec3(std::string_view n, const glm::vec3& v, float, float, std::string_view, unsigned = 0) {
        if (n == target) out = formatFloat(v.x) + "," + formatFloat(v.y) + "," + formatFloat(v.z);
    }
    template <class E, size_t N>
    void choice(std::string_view n, const E& v, const std::array<std::string_view, N>& names, std::string_view,
                unsigned = 0) {
        if (n == target) out = std::string(names[static_cast<size_t>(v)]);
    }
    void gradient(std::string_view n, const std::vector<ColorKey>& keys, std::string_view, unsigned = 0) {
        if (n != target) return;
        for (size_t i = 0; i < keys.size(); ++i) {
            if (i) out += ",";
            out += formatFloat(keys[i].t);
            for (int c = 0; c < 4; ++c) out += ":" + formatFloat(keys[i].rgba[c]);
        }
    }
    void span(std::string_view n, const glm::vec2& v, float, float, std::string_view, unsigned = 0) {
        if (n == target) out = spanText(v);
    }
};

// Every parameter's name, and the sections they are visited in.
struct NameLister {
    std::vector<std::string> names;
    std::vector<ParamSection> sections;
    void section(std::string_view title) { sections.push_back({std::string(title), {}}); }
    void add(std::string_view n) {
        names.emplace_back(n);
        if (sections.empty()) section("");  // a parameter before any section: in one without a title
        sections.back().names.emplace_back(n);
    }
    void scalar(std::string_view n, const float&, float, float, std::string_view, unsigned = 0) { add(n); }
    void count(std::string_view n, const uint32_t&, uint32_t, uint32_t, std::string_view, unsigned = 0) { add(n); }
    void seed(std::string_view n, const uint64_t&, std::string_view, unsigned = 0) { add(n); }
    void vec3(std::string_view n, const glm::vec3&, float, float, std::string_view, unsigned = 0) { add(n); }
    template <class E, size_t N>
    void choice(std::string_view n, const E&, const std::array<std::string_view, N>&, std::string_view, unsigned = 0) {
        add(n);
    }
    void gradient(std::string_view n, const std::vector<ColorKey>&, std::string_view, unsigned = 0) { add(n); }
    void span(std::string_view n, const glm::vec2&, float, float, std::string_view, unsigned = 0) { add(n); }
};

}  // namespace


void validate(const FireParams& p) {
    visitParams(p, Validator{});
    if (p.shape == EmitterShape::Rect && (p.extent.x <= 0.0f || p.extent.z <= 0.0f))
        throw Error(ErrorCode::BadValue, "--extent: rect needs positive x and z half-sizes");
    if (p.shape != EmitterShape::Rect && p.extent.x <= 0.0f)
        throw Error(ErrorCode::BadValue, "--extent: circle and sphere need a positive radius in x");
    // One burst per step at most: a period under 10 ms (shorter than any step firelab takes) would only
    // mean every step, and its bursts-alive bound would overflow.
    if (p.burstPeriod > 0.0f && p.burstPeriod < 0.01f)
        throw Error(ErrorCode::BadValue,
                    "--burst-period " + formatFloat(p.burstPeriod) + ": 0 (the burst once) or at least 0.01 s");
    if (p.temperatureVar > 0.0f && p.temperatureVar >= std::min(p.temperature.x, p.temperature.y))
        throw Error(ErrorCode::BadValue, "--temperature-var " + formatFloat(p.temperatureVar) +
                                             ": must be below the cooler end of --temperature " +
                                             spanText(p.temperature) + " so every temperature stays above 0 K");
    if (p.lifetimeVar >= p.lifetimeMean)
        throw Error(ErrorCode::BadValue, "--lifetime-var " + formatFloat(p.lifetimeVar) +
                                             ": must be smaller than --lifetime " + formatFloat(p.lifetimeMean) +
                                             " so every lifetime is positive");
}

void setParam(FireParams& p, std::string_view name, std::string_view value) {
    Setter s{name, value};
    visitParams(p, s);
    if (!s.found) {
        throw Error(ErrorCode::UnknownName,
                    quote(name) + ": not a model parameter; valid ones are " + core::join(paramNames()));
    }
}

std::string getParam(const FireParams& p, std::string_view name) {
    Getter g{name, {}};
    visitParams(p, g);
    return g.out;
}

std::vector<std::string> paramNames() {
    NameLister l;
    const FireParams defaults;
    visitParams(defaults, l);
    return l.names;
}

const std::vector<ParamSection>& paramSections() {
    static const std::vector<ParamSection> sections = [] {
        NameLister l;
        const FireParams defaults;
        visitParams(defaults, l);
        return l.sections;
    }();
    return sections;
}

}  // namespace firelab::sim

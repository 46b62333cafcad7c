// docs/settings.md: every setting from the visitors that declare it (harness::allSettings(): visitRunSettings
// with the render options and the view in place, then sim::visitParams), section by section, each with its
// kind, default, valid values, help line, attributes, the tables of an experiment file that take it and the
// commands whose flag it is (found in the command line itself, not listed here).
#include <algorithm>
#include <map>
#include <sstream>

#include "app/reference/markdown.h"
#include "app/reference/reference_pages.h"
#include "core/text.h"
#include "harness/results/schema.h"
#include "sim/params.h"

namespace firelab::app {
namespace {
namespace md = markdown;
using Kind = harness::SettingInfo::Kind;

constexpr QualityKey kQualityTableKeys[] = {{"enabled", "quality"},
                                            {"frames", "quality-frames"},
                                            {"reference", "reference"},
                                            {"energy-preserving", "energy-preserving"},
                                            {"metrics", "quality-metrics"}};

const QualityKey* qualityKeyOf(std::string_view setting) {
    for (const QualityKey& k : kQualityTableKeys)
        if (k.setting == setting) return &k;
    return nullptr;
}

// The viewer's panel (core::section) of each model parameter.
struct ModelSections {
    std::map<std::string, std::string> of;
    std::string current;

    void section(std::string_view title) { current = title; }
    void note(std::string_view name) { of[std::string(name)] = current; }
    template <class... A>
    void scalar(std::string_view n, A&&...) {
        note(n);
    }
    template <class... A>
    void count(std::string_view n, A&&...) {
        note(n);
    }
    template <class... A>
    void seed(std::string_view n, A&&...) {
        note(n);
    }
    template <class... A>
    void vec3(std::string_view n, A&&...) {
        note(n);
    }
    template <class... A>
    void choice(std::string_view n, A&&...) {
        note(n);
    }
    template <class... A>
    void gradient(std::string_view n, A&&...) {
        note(n);
    }
    template <class... A>
    void span(std::string_view n, A&&...) {
        note(n);
    }
};

// A page section: a heading, where its settings are declared, and which settings it holds.
struct Section {
    std::string title, declaredBy;
    std::vector<const harness::SettingInfo*> settings;
};

std::vector<Section> sections() {
    std::vector<Section> out{
        {"Run settings", "`harness::visitRunSettings` (src/harness/settings/run_settings.h)", {}},
        {"Render options", "`render::visitRenderOptions` (src/render/options.h), in place in `visitRunSettings`", {}},
        {"The view",
         "`harness::visitCameraSettings` (src/harness/settings/run_settings.h), in place in "
         "`visitRunSettings`",
         {}},
        {"Quality",
         "`harness::visitRunSettings` (src/harness/settings/run_settings.h); an experiment's "
         "`[quality]` table sets them by the keys their rows name",
         {}},
        {"The fire model and the grid fluid",
         "`fluid::visitFluidParams` (src/fluid/fluid_params.h), in place in `visitRunSettings`",
         {}}};
    const auto& camera = harness::cameraSettingNames();
    const auto& fluid = harness::fluidSettingNames();
    ModelSections panels;
    const sim::FireParams defaults;
    sim::visitParams(defaults, panels);
    for (const harness::SettingInfo& s : harness::allSettings()) {
        size_t at = 0;  // Run settings
        if (s.modelParam) {
            const std::string title = "Model parameters: " + panels.of.at(s.name);
            auto it = std::find_if(out.begin(), out.end(), [&](const Section& x) { return x.title == title; });
            if (it == out.end())
                it = out.insert(out.end(), {title,
                                            "`sim::visitParams` (src/sim/params.h), the viewer's " +
                                                panels.of.at(s.name) + " panel",
                                            {}});
            it->settings.push_back(&s);
            continue;
        }
        if (s.renderOption)
            at = 1;
        else if (std::find(camera.begin(), camera.end(), s.name) != camera.end())
            at = 2;
        else if (qualityKeyOf(s.name) != nullptr)
            at = 3;
        else if (std::find(fluid.begin(), fluid.end(), s.name) != fluid.end())
            at = 4;
        out[at].settings.push_back(&s);
    }
    return out;
}

std::string kindText(const harness::SettingInfo& s) {
    switch (s.kind) {
    case Kind::Choice: return "choice";
    case Kind::Flag: return "switch";
    case Kind::Scalar: return "number";
    case Kind::Integer: return "integer";
    case Kind::Text: return "text";
    case Kind::Path: return "path";
    case Kind::Vector:
        return std::to_string(std::count(s.defaultText.begin(), s.defaultText.end(), ',') + 1) + " numbers";
    case Kind::Gradient: return "gradient t:r:g:b:a,...";
    case Kind::Reference: return "reference key=value;...";
    case Kind::Metrics: return "metric set";
    case Kind::Span: return "START:END";
    case Kind::Grid: return "grid NXxNYxNZ";
    case Kind::Layout: return "layout RxC";
    }
    return "";
}

// Whether `o`, a command's option of the setting's name, is the setting's flag (declared from its help) or an
// option of the command's own (capture's --width, the image's).
bool isSettingsFlag(const CLI::Option& o, const harness::SettingInfo& s) {
    if (s.modelParam) return o.get_description().starts_with(s.help + " [default: ");
    return o.get_description() == harness::settingHelp(s);
}

std::string flagsOf(const harness::SettingInfo& s, const std::vector<CommandApp>& apps) {
    std::vector<std::string> own, other;
    for (const CommandApp& c : apps)
        if (const CLI::Option* o = c.app->get_option_no_throw("--" + s.name))
            (isSettingsFlag(*o, s) ? own : other).push_back(c.entry->name.empty() ? "firelab (no command)" : c.title);
    std::string text = own.empty() ? "none" : md::sentenceList(own);
    if (!other.empty())
        text += " (" + md::sentenceList(other) + (other.size() > 1 ? " have" : " has") + " a `--" + s.name + "` of " +
                (other.size() > 1 ? "their" : "its") + " own)";
    return text;
}

std::string filesText(const harness::SettingInfo& s) {
    const auto& layer = harness::layerKeys();
    std::vector<std::string> where{s.modelParam ? "`[model]`" : "`[run]`"};
    if (const QualityKey* q = qualityKeyOf(s.name)) where.push_back("`[quality] " + std::string(q->key) + "`");
    if (!(s.attrs & core::kSweepWide)) where.push_back(s.kind == Kind::Path ? "`[sweep]` (an array)" : "`[sweep]`");
    if (std::find(layer.begin(), layer.end(), s.name) != layer.end()) where.push_back("`[[layer]]`");
    std::string text;
    for (const auto& w : where) text += (text.empty() ? "" : ", ") + w;
    return text;
}

std::string attributesText(const harness::SettingInfo& s) {
    const auto& reference = harness::referenceKeys();
    std::vector<std::string> attrs;
    if (s.attrs & core::kColumn) attrs.push_back("column " + md::code(harness::csvColumn(s.name)));
    if (s.attrs & core::kSweepWide) attrs.push_back("one value per sweep");
    if (s.attrs & core::kApproximation) attrs.push_back("approximation");
    if (std::find(reference.begin(), reference.end(), s.name) != reference.end()) attrs.push_back("reference key");
    std::string text;
    for (const auto& a : attrs) text += (text.empty() ? "" : ", ") + a;
    return text;
}

}  // namespace

std::span<const QualityKey> qualityTableKeys() { return kQualityTableKeys; }

std::string rangeText(const harness::SettingInfo& s) {
    // The bounds as declared: a model parameter's, a render option's and any vector's or span's are floats (0.01f
    // is written 0.01), a run setting's number as its help writes it.
    const bool floats = s.modelParam || s.renderOption || s.kind == Kind::Vector || s.kind == Kind::Span;
    const auto bound = [floats](double v) { return floats ? core::formatFloat(static_cast<float>(v)) : md::number(v); };
    const std::string lo = bound(s.lo), hi = bound(s.hi);
    switch (s.kind) {
    case Kind::Choice: {
        std::string text;
        for (const auto& c : s.choices) text += (text.empty() ? "" : ", ") + c;
        return text;
    }
    case Kind::Flag: return "true, false";
    case Kind::Integer: return s.hi >= 1.8e19 ? "[0, 2^64 - 1]" : "[" + lo + ", " + hi + "]";
    case Kind::Scalar:
        // A model parameter's or a render option's range includes both ends; a run setting's number says
        // which ends it includes (core::kOpenRange, core::kClosedRange; 0 excluded unless closed).
        if (s.modelParam || s.renderOption) return "[" + lo + ", " + hi + "]";
        if (s.attrs & core::kOpenRange) return "(" + lo + ", " + hi + ")";
        return (s.lo == 0.0 && !(s.attrs & core::kClosedRange) ? "(" : "[") + lo + ", " + hi + "]";
    case Kind::Vector: return "each in [" + lo + ", " + hi + "]";
    case Kind::Span: return "each in (" + lo + ", " + hi + "]";
    case Kind::Grid: return "each axis in [" + lo + ", " + hi + "]";
    case Kind::Layout: return "off, or rows and columns each in [" + lo + ", " + hi + "]";
    case Kind::Metrics: return "a subset of " + harness::metricNameList();
    case Kind::Text:
    case Kind::Path:
    case Kind::Gradient:
    case Kind::Reference: return "";
    }
    return "";
}

std::string settingsPage(const CLI::App& cli) {
    const std::vector<CommandApp> apps = commandApps(cli);
    std::ostringstream out;
    out << "# Settings\n\n"
        << "<!-- Generated by `" << kRewritePagesCommand
        << "` from the setting visitors; do not edit by hand:\n"
           "     tests/app/docs_test.cpp fails when this page differs from what firelab writes. -->\n\n"
        << "Every setting of a run, from the visitors that declare each one once: `harness::visitRunSettings` "
           "(src/harness/settings/run_settings.h: the run, the view and quality, with the render options of "
           "`render::visitRenderOptions`, src/render/options.h, in place) and `sim::visitParams` "
           "(src/sim/params.h: the model). A setting has one name, wherever it is given:\n\n"
           "- a flag, `--NAME`, of the commands its section or its row names ([cli.md](cli.md)); a switch is on "
           "alone (`--hdr`) and off as `--hdr=false`;\n"
           "- a key of an experiment file or a `--config` file: `NAME = value` in `[run]` or `[model]` (either table "
           "takes any setting; the run's are written in `[run]`, the model's in `[model]`), the quality settings "
           "also as keys of `[quality]`;\n"
           "- a sweep axis: `[sweep] NAME = [a, b]` or a range string, or a list on the command line of `run` and "
           "`sweep`: `a,b,c`, `1e3..1e6x10` (geometric), `1000..5000+1000` (arithmetic). A vector's or a "
           "gradient's list separates its items with `;`; text, a path and a metric set are one value each "
           "(several paths: a TOML array in `[sweep]`); a setting of *one value per sweep* is never an axis;\n"
           "- a key of an effect's `[[layer]]` table, where the row says so: the layer's value wins over the run's "
           "unless `--override-layers` names the setting.\n\n"
           "Attributes: *column*, runs.csv has a column for it ([csv.md](csv.md)); *one value per sweep*; "
           "*approximation*, a fill-rate approximation, which a quality reference returns to its default unless "
           "the reference names it; *reference key*, a `--reference` spec may set it.\n";
    for (const Section& section : sections()) {
        if (section.settings.empty()) continue;
        std::vector<std::string> flags;
        for (const auto* s : section.settings) flags.push_back(flagsOf(*s, apps));
        const bool oneFlagText = std::all_of(flags.begin(), flags.end(), [&](const auto& f) { return f == flags[0]; });
        out << "\n## " << section.title << "\n\n"
            << "Declared by " << section.declaredBy << "." << (oneFlagText ? " Flags of " + flags[0] + "." : "")
            << "\n\n"
            << "| setting | kind | default | valid values | help | in files | attributes |"
            << (oneFlagText ? "" : " flag of |") << "\n|---|---|---|---|---|---|---|" << (oneFlagText ? "" : "---|")
            << "\n";
        for (size_t i = 0; i < section.settings.size(); ++i) {
            const harness::SettingInfo& s = *section.settings[i];
            out << "| " << md::code(s.name) << " | " << md::cell(kindText(s)) << " | "
                << (s.defaultText.empty() ? std::string("empty") : md::code(s.defaultText)) << " | "
                << md::cell(rangeText(s)) << " | " << md::cell(s.help) << " | " << filesText(s) << " | "
                << attributesText(s) << " |" << (oneFlagText ? "" : " " + flags[i] + " |") << "\n";
        }
    }
    return out.str();
}

}  // namespace firelab::app

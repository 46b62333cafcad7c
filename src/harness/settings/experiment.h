// Experiments as data. A run is described by RunSettings; every setting has a name shared by the
// command line (--name), experiment files ([run], [model], [sweep]) and the CSV. An Experiment holds
// fixed settings and swept axes; expand() makes the cross product, validating every run before any runs.
//
// Lists: "a,b,c"; numeric ranges "1e3..1e6x10" (geometric) and "1000..5000+1000" (arithmetic).
// Settings whose single value holds commas (vectors such as speed, the gradient) separate list items
// with ';' instead: --speed "0,1,0;0,2,0".
#pragma once
#include <array>
#include <filesystem>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "render/options.h"
#include "sim/params.h"

namespace firelab::harness {

// What a run's picture is scored against (--reference): the run's own settings with some replaced
// (strategy, any render option, particle count, seed), a supersampling factor and a number of seeds
// whose images are averaged. Written "key=value;...",
// e.g. "strategy=billboards-cpu;sort=back-to-front;particles=20000;supersample=2"; a bare strategy
// name replaces only the strategy. Settings it does not name follow the run's (model, seed, blend,
// tone mapping, camera, time).
struct ReferenceSpec {
    std::vector<std::pair<std::string, std::string>> overrides{{"strategy", "billboards-cpu"},
                                                               {"sort", "back-to-front"}};
    int supersample = 1;  // drawn at supersample x the run's size, box-filtered down
    int seeds = 1;        // the mean image of this many seeds (seed, seed + 1, ...): less sampling noise
};
// The keys a spec may set: strategy, every render option, particles, seed, supersample and seeds.
const std::vector<std::string>& referenceKeys();
// referenceKeys() as "strategy, blend, ..., seeds", for messages and help.
std::string referenceKeyList();

// --quality: scoring the run's picture against its reference, outside the timed frames.
struct QualitySettings {
    bool enabled = false;
    int frames = 4;  // scored frames, spread over the measured ones
    ReferenceSpec reference;
    bool energyPreserving = false;  // scale the run's alpha by reference count / run count
    bool psnr = true, ssim = true, flip = true;  // which image metrics (fragments are always counted)
};

// How frames are timed. Latency: a fence after every frame, each frame's time its own (firelab's
// historical timing). Throughput: up to 3 frames in flight, as an application with a swap chain runs; a
// frame waits only on the fence of the frame 3 back, and its time is the interval between frame starts.
enum class Timing { Latency, Throughput };
inline constexpr std::array<std::string_view, 2> kTimingNames{"latency", "throughput"};

struct RunSettings {
    std::string strategy = "billboards-instanced";
    std::string effect;  // an effect file (harness/settings/effect.h): its layers; empty: the single flame
    sim::FireParams params;
    render::RenderOptions render;
    int width = 1280, height = 720;
    int warmup = 30, frames = 120;
    double maxSeconds = 60.0;  // per run, warm-up included; measuring stops early when it runs out
    float dt = 1.0f / 60.0f;
    unsigned threads = 2;
    Timing timing = Timing::Latency;
    int repetitions = 1;  // rounds of the whole sweep, each in its own shuffled order (one value per sweep)
    std::string label;
    QualitySettings quality;
    int fireLight = 8;  // point lights fitted to the flame layers' light each frame (0: the static glow)
    // Applied to every layer of the effect after the layer's own settings (referenceSettings: the
    // reference's look wins over a layer's); not a setting of its own, never in the CSV.
    std::vector<std::pair<std::string, std::string>> layerForce;
};
// The most fire lights the scene shades.
inline constexpr int kMaxFireLights = 16;

// Every run-level setting once, with its name (the flag without "--", the TOML key in [run]), help line,
// range or choices, and how it is used, in the order help and config files list them. The render
// options are visited in place (render::visitRenderOptions), the model's parameters separately
// (sim::visitParams). Help text, defaults, TOML keys, parsing and range checks, the settings' CSV
// columns and run keys all derive from it (experiment.cpp), as does each front end's flag list.
//
// A visitor takes: strategy(name, std::string&, help); integer(name, I&, lo, hi, help, use);
// number(name, F&, lo, hi, help, use), whose range is (lo, hi] when lo is 0 and [lo, hi] otherwise;
// choice(name, E&, names, help[, use]); flag(name, bool&, help[, use]); text(name, std::string&, help[, use]);
// scalar(name, float&, lo, hi, help) for render options; reference(name, ReferenceSpec&, help) and
// metrics(name, QualitySettings&, help).
enum SettingUse : unsigned {
    kNoColumn = 0,
    kColumn = 1,     // the setting has a runs.csv column of its own (csvColumn(name))
    kSweepWide = 2,  // one value for the whole sweep: never an axis, never in a run key (repetitions)
};

template <class S, class V>
void visitRunSettings(S& s, V& v) {
    v.strategy("strategy", s.strategy, "rendering strategies: a list or all (firelab list)");
    v.text("effect", s.effect,
           "an effect file of [[layer]] tables (effects/*.toml, or a name there: campfire); empty: the single flame",
           kColumn);
    render::visitRenderOptions(s.render, v);
    v.integer("fire-light", s.fireLight, 0, kMaxFireLights,
              "point lights fitted each frame to the additive layers' emitted light, lighting the scene; 0: a static glow",
              kColumn);
    v.integer("width", s.width, 1, 16384, "framebuffer width", kColumn);
    v.integer("height", s.height, 1, 16384, "framebuffer height", kColumn);
    v.integer("warmup", s.warmup, 0, 1'000'000, "frames run and discarded before measuring", kColumn);
    v.integer("frames", s.frames, 1, 1'000'000, "measured frames per round", kNoColumn);
    v.number("max-seconds", s.maxSeconds, 0.0, 86400.0,
             "time limit per run and round, warm-up included; fewer frames are measured when it runs out", kNoColumn);
    v.number("dt", s.dt, 0.0f, 1.0f, "fixed simulation step, s", kColumn);
    v.integer("threads", s.threads, 1, 256, "simulation threads", kColumn);
    v.choice("timing", s.timing, kTimingNames,
             "latency (a fence after every frame) | throughput (up to 3 frames in flight, as with a swap chain)",
             kColumn);
    v.integer("repetitions", s.repetitions, 1, 1000,
              "rounds of the whole sweep, each configuration once per round in an order shuffled from the seed; "
              "runs.csv gets the median of the rounds' medians with a bootstrap 95% interval, rounds.csv every round",
              kSweepWide);
    v.text("label", s.label, "free text copied into the CSV's label column", kColumn);
    v.flag("quality", s.quality.enabled,
           "score each run's picture against its reference, outside the timed frames (--quality=false: off)", kNoColumn);
    v.integer("quality-frames", s.quality.frames, 1, 1000, "frames scored per run, spread over the measured ones", kNoColumn);
    v.reference("reference", s.quality.reference, "what quality is scored against: key=value;... (settings not named follow the run's)");
    v.flag("energy-preserving", s.quality.energyPreserving,
           "scale each particle's alpha by reference particles / run particles", kNoColumn);
    v.metrics("quality-metrics", s.quality, "image metrics to compute: a subset of psnr,ssim,flip");
}

// One run-level setting as the front ends list it: its name, help line, kind and what values it takes.
struct SettingInfo {
    enum class Kind { Choice, Flag, Scalar, Integer, Text };
    std::string name, help;
    Kind kind = Kind::Text;
    std::vector<std::string> choices;  // Choice: the valid values
    double lo = 0.0, hi = 0.0;         // Scalar and Integer: the valid range
    std::string defaultText;           // the default value, as settingText writes it
    unsigned use = kNoColumn;          // SettingUse bits
    bool renderOption = false;         // one of render::visitRenderOptions'
};
using RenderOptionInfo = SettingInfo;
// Every run-level setting, in visitRunSettings order.
const std::vector<SettingInfo>& runSettings();
// The run-level setting called `name`, or null.
const SettingInfo* findRunSetting(const std::string& name);
// Every render option, in visitRenderOptions order.
const std::vector<SettingInfo>& renderOptions();
const std::vector<std::string>& renderOptionNames();
// The setting's help line: the visitor's help, a range or the choices, and the default.
std::string settingHelp(const SettingInfo& o);
inline std::string renderOptionHelp(const SettingInfo& o) { return settingHelp(o); }
// "name=value;..." of every render option: equal exactly when the options are.
std::string renderOptionsText(const render::RenderOptions& o);
// The settings a runs.csv row records in columns of their own: the run-level ones marked kColumn and
// the model's emitter, distribution, particles and seed.
const std::vector<std::string>& settingColumns();
// Whether a setting takes one value for the whole sweep (kSweepWide).
bool sweepWide(const std::string& name);


// Parses a --reference SPEC. Throws Error(BadValue / UnknownName) naming --reference, the key and
// what is allowed.
ReferenceSpec parseReference(const std::string& text);
// The canonical text of a spec: its keys in referenceKeys() order, supersample always given, seeds when
// more than one.
std::string referenceText(const ReferenceSpec& spec);
// The reference's settings: the run's with the spec's overrides (quality off). The run's fill-rate
// approximations (particle-scale, upsample, edge-fixup, hull, filter) return to their full-quality
// defaults unless the spec names them; its look (blend, texture, facing, soft, hdr, tonemap, exposure) stays.
RunSettings referenceSettings(const RunSettings& run, const ReferenceSpec& spec);
// The run's render options as drawn: with --energy-preserving, alpha scaled by the reference's
// particle count over the run's.
render::RenderOptions effectiveRenderOptions(const RunSettings& run);
// The run's settings as its frames are drawn: render = effectiveRenderOptions(run).
RunSettings drawnSettings(const RunSettings& run);

// The run-level setting names (model parameters come from sim::paramNames()).
const std::vector<std::string>& runSettingNames();
// Every name: run-level then model parameters.
std::vector<std::string> allSettingNames();
// Sets one setting by name from text. Throws firelab::Error (UnknownName / BadValue) naming --name.
void applySetting(RunSettings& s, const std::string& name, const std::string& value);
// The setting's current value as text (what the CSV and run keys record).
std::string settingText(const RunSettings& s, const std::string& name);

// Splits a possibly list-valued flag into its values (ranges expanded). Throws Error(BadValue).
// Path-valued settings (texture) are one value whatever they hold: several paths are a TOML array in
// [sweep], one path per element.
std::vector<std::string> splitValues(const std::string& name, const std::string& text);
// Whether a setting names a file (never list- or range-parsed).
bool pathValued(const std::string& name);

struct Axis {
    std::string name;
    std::vector<std::string> values;
    std::string where;  // "file:line" when it came from a file, for messages
};

struct FixedSetting {
    std::string name, value;
    std::string where;  // "file:line" when it came from a file, for messages
};

struct Experiment {
    std::string name = "adhoc";
    std::string description;
    // [experiment] baseline = "KEY=VALUE" (e.g. "strategy=points"): after the sweep, every configuration's
    // paired ratio to it goes to ratios.csv (harness/results/compare.h). KEY must be swept and take VALUE.
    std::string baseline;
    std::vector<FixedSetting> fixed;  // applied in order
    std::vector<Axis> axes;                                  // cross product, in canonical order

    // A setting given on the command line: one value replaces any axis of that name; a list makes
    // (or replaces) an axis.
    void override(const std::string& setting, const std::string& text);
};

// Reads an experiment file: [experiment] name/description/baseline, [run] and [model] single values, [sweep]
// arrays (or range strings). Errors name the file, the line and the setting. Throws firelab::Error.
Experiment loadExperiment(const std::filesystem::path& file);

struct PlannedRun {
    size_t index = 0;  // position in the full cross product (for --shard)
    std::string key;   // name=value;... of the swept values, canonical (settingText): the --resume key
    RunSettings settings;
};

// The whole configuration of a sweep in canonical text (settingText): every setting that is not swept
// with its value, and every axis with its values in order. meta.json records it; --resume and merge
// refuse to continue or join results whose configuration differs.
struct ExperimentConfig {
    std::string experiment;
    std::vector<std::pair<std::string, std::string>> settings;
    std::vector<std::pair<std::string, std::vector<std::string>>> axes;
};
// Throws firelab::Error as expand() does for a bad value.
ExperimentConfig describe(const Experiment& e, const std::string& source = "");
// One line per difference ("lifetime: '1.5' there, '2' here"); empty when they are the same.
std::vector<std::string> configDifferences(const ExperimentConfig& there, const ExperimentConfig& here);

// The cross product, each run validated (model, strategy, options). Throws firelab::Error naming the
// setting and, for files, the file. Given `leftOut`, a sweep over several strategies leaves out the
// combinations a strategy cannot draw (a trimmed hull for GL_POINTS, sorting for gpu-stateless...) and
// lists them there as "run key: why"; without it, or when every combination is refused, that is an error.
std::vector<PlannedRun> expand(const Experiment& e, const std::string& source = "",
                               std::vector<std::string>* leftOut = nullptr);

// A setting's text as a TOML value: numbers stay numbers, vectors arrays, gradient keys arrays of
// arrays, everything else a string.
std::string tomlSettingValue(const std::string& name, const std::string& text);

// A config file that `firelab run --config` accepts, holding every run-level setting in [run] and every
// model parameter in [model] (what the viewer saves).
std::string runSettingsToml(const RunSettings& s);
// The settings of a config or experiment file (its first run, if it sweeps). Throws firelab::Error.
RunSettings loadRunSettings(const std::filesystem::path& file);

// "K/N" with 1 <= K <= N. Throws Error(BadValue) naming --shard.
std::pair<size_t, size_t> parseShard(const std::string& text);

}  // namespace firelab::harness

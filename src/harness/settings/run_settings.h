// A run's settings: RunSettings, declared once by visitRunSettings (with the render options' and the model's
// own visitors), and everything the front ends derive from those declarations: each setting's name (the
// flag without "--", the TOML key, the CSV column with '_' for '-'), help, kind, range or choices, default
// and attributes (core::SettingAttr); setting one from text and writing it back; list and range syntax.
//
// Lists: "a,b,c"; numeric ranges "1e3..1e6x10" (geometric) and "1000..5000+1000" (arithmetic). A vector
// or a gradient holds commas itself, so its lists use ';' (--speed "0,1,0;0,2,0"); free text, a path and a
// set of metrics are one value each (several paths are a TOML array in [sweep]).
#pragma once
#include <array>
#include <cmath>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/setting.h"
#include "fluid/fluid_params.h"
#include "harness/quality/metrics.h"
#include "render/camera.h"
#include "render/options.h"
#include "sim/params.h"

namespace firelab::harness {

// What a run's picture is scored against (--reference): the run's own settings with some replaced
// (strategy, any render option, particle count, seed), a supersampling factor and a number of seeds
// whose images are averaged. Written "key=value;...",
// e.g. "strategy=billboards-cpu;sort=back-to-front;particles=20000;supersample=2"; a bare strategy
// name replaces only the strategy. Settings it does not name follow the run's (model, seed, blend,
// tone mapping, camera, time). reference.h derives the reference's settings from the run's.
struct ReferenceSpec {
    std::vector<std::pair<std::string, std::string>> overrides{{"strategy", "billboards-cpu"},
                                                               {"sort", "back-to-front"}};
    int supersample = 1;  // drawn at supersample x the run's size, box-filtered down
    int seeds = 1;        // the mean image of this many seeds (seed, seed + 1, ...): less sampling noise
};

// --quality: scoring the run's picture against its reference, outside the timed frames.
struct QualitySettings {
    bool enabled = false;
    int frames = 4;  // scored frames, spread over the measured ones
    ReferenceSpec reference;
    bool energyPreserving = false;  // scale the run's alpha by reference count / run count
    MetricSet metrics;              // which image metrics (harness/quality/metrics.h); fragments are always counted
};

// How frames are timed. Latency: a fence after every frame, each frame's time its own (firelab's
// historical timing). Throughput: up to 3 frames in flight, as an application with a swap chain runs; a
// frame waits only on the fence of the frame 3 back, and its time is the interval between frame starts.
enum class Timing { Latency, Throughput, Count };
inline constexpr auto kTimingNames = std::to_array<std::string_view>({"latency", "throughput"});
static_assert(core::namesEveryValue<Timing>(kTimingNames));

// How configurations that are compared (a group around a baseline) are measured: in alternation, frame by
// frame, in one process (frames.csv; a ratio per pair of frames), or each alone, a whole run at a time
// (a ratio per round): the way before issue #37, and the fallback for a group that cannot share a process.
enum class PairBy { Frames, Rounds, Count };
inline constexpr auto kPairByNames = std::to_array<std::string_view>({"frames", "rounds"});
static_assert(core::namesEveryValue<PairBy>(kPairByNames));

struct RunSettings {
    std::string strategy = "billboards-instanced";
    std::string effect;          // an effect file (harness/settings/effect.h): its layers; empty: the single flame
    std::string overrideLayers;  // layer settings ("lit,sort") whose run values win over each layer's own
    // A physically parameterised flame (physics/physical_fire.h): both 0, the model's own parameters.
    double fireDiameter = 0.0, heatRelease = 0.0;  // m, kW
    sim::FireParams params;
    fluid::FluidParams fluid;  // --model, --motion and the grid fluid's
    render::RenderOptions render;
    int width = 1280, height = 720;
    render::CameraSettings camera;  // the view: the orbit, a fixed eye or a keyframed path
    int warmup = 30, frames = 120;
    double maxSeconds = 60.0;  // per run, warm-up included; measuring stops early when it runs out
    double startTime = 0.0;    // simulated s at which the warm-up frames begin; 0: at the prewarm's steady state
    float dt = 1.0f / 60.0f;
    unsigned threads = 2;
    Timing timing = Timing::Latency;
    int repetitions = 1;              // rounds of the whole sweep, each in its own shuffled order (one value per sweep)
    PairBy pairing = PairBy::Frames;  // how a baseline's group is measured (one value per sweep)
    int processes = 1;                // processes the rounds are repeated in (one value per sweep)
    std::string label;
    QualitySettings quality;
    int fireLight = 8;  // point lights fitted to the flame layers' light each frame (0: the static glow)
    // Applied to every layer of the effect after the layer's own settings (referenceSettings: the
    // reference's look wins over a layer's); not a setting of its own, never in the CSV.
    std::vector<std::pair<std::string, std::string>> layerForce;
};
// The simulation steps that reach --start-time (the nearest whole number of --dt); 0 without one.
inline long startSteps(const RunSettings& s) {
    return s.startTime > 0.0 ? std::lround(s.startTime / static_cast<double>(s.dt)) : 0;
}
// The most fire lights the scene shades.
inline constexpr int kMaxFireLights = 16;

// The view's settings (render::CameraSettings), visited in place by visitRunSettings: the camera is an
// experiment axis like any other setting.
template <class C, class V>
void visitCameraSettings(C& c, V& v) {
    using namespace core;  // the attributes
    v.choice("camera", c.mode, render::kCameraModeNames,
             "the view: orbit (the eye turns around the target) | fixed (the orbit's eye at time 0, still) | path "
             "(the keyframes of --camera-path)",
             kColumn);
    constexpr float far = render::kMaxViewCoordinate;
    v.number("camera-distance", c.distance, 0.0f, far,
             "orbit and fixed: the eye's horizontal distance from the target, m", kColumn);
    v.number("camera-height", c.height, -far, far, "orbit and fixed: the eye's height above the ground, m", kColumn);
    v.number("camera-yaw", c.yawDeg, -360.0f, 360.0f,
             "orbit and fixed: the eye's angle around the target at time 0, degrees from +x towards +z", kColumn);
    v.vec3("camera-target", c.target, -far, far, "orbit and fixed: the point looked at, x,y,z in m", kColumn);
    v.number("fov", c.fovDeg, render::kFovLimitsDeg[0], render::kFovLimitsDeg[1],
             "orbit and fixed: the vertical field of view, degrees", kColumn | kOpenRange);
    v.number("orbit-period", c.orbitPeriod, -1e6f, 1e6f,
             "orbit: seconds of simulated time per turn (negative: the other way; 0 stands still)", kColumn);
    v.path("camera-path", c.path,
           "path: a keyframe file of [[key]] tables (time, eye, target, fov), followed through a smooth spline "
           "(experiments/cameras/*.toml, or a name there)",
           kColumn);
}

// Every run-level setting once, with its name, help line, range or choices and attributes, in the order
// help and config files list them. The render options are visited in place (render::visitRenderOptions),
// the model's parameters separately (sim::visitParams). Help text, defaults, TOML keys, parsing and range
// checks, the settings' CSV columns and run keys all derive from it (run_settings.cpp), as does each front
// end's flag list.
//
// A visitor takes (attrs: core::SettingAttr bits, last, defaulting to 0): strategy(name, std::string&, help);
// path(name, std::string&, help, attrs); integer(name, I&, lo, hi, help, attrs); number(name, F&, lo, hi,
// help, attrs), whose range is (lo, hi] when lo is 0 and [lo, hi] otherwise; choice(name, E&, names, help,
// attrs); flag(name, bool&, help, attrs); text(name, std::string&, help, attrs); grid(name, glm::ivec3&, lo, hi,
// help, attrs), cells NXxNYxNZ each in [lo, hi]; and the render options' own
// (scalar, path...); reference(name, ReferenceSpec&, help) and metrics(name, QualitySettings&, help).
template <class S, class V>
void visitRunSettings(S& s, V& v) {
    using namespace core;  // the attributes
    v.strategy("strategy", s.strategy, "rendering strategies: a list or all (firelab list)");
    v.path("effect", s.effect,
           "an effect file of [[layer]] tables (effects/*.toml, or a name there: campfire); empty: the single flame",
           kColumn);
    v.text(
        "override-layers", s.overrideLayers,
        "layer settings, by name (lit,sort), whose run values win over what each layer of the effect sets: "
        "--effect campfire --lit none --override-layers lit draws its smoke unlit; empty: a layer's own settings win",
        kColumn);
    v.number("fire-diameter", s.fireDiameter, 0.0, 1000.0,
             "a physically parameterised flame's pool diameter, m (with --heat-release; docs/physics.md lists the "
             "parameters it sets from fire science's correlations); 0: the model's own parameters",
             kColumn | kClosedRange);
    v.number("heat-release", s.heatRelease, 0.0, 1e9,
             "a physically parameterised flame's heat release rate, kW (with --fire-diameter); 0: none",
             kColumn | kClosedRange);
    fluid::visitFluidParams(s.fluid, v);
    render::visitRenderOptions(s.render, v);
    v.integer(
        "fire-light", s.fireLight, 0, kMaxFireLights,
        "point lights fitted each frame to the additive layers' emitted light, lighting the scene; 0: a static glow",
        kColumn);
    v.integer("width", s.width, 1, 16384, "framebuffer width", kColumn);
    v.integer("height", s.height, 1, 16384, "framebuffer height", kColumn);
    visitCameraSettings(s.camera, v);
    v.number("start-time", s.startTime, 0.0, 86400.0,
             "simulated seconds at which the warm-up frames begin: 0, at the steady state the prewarm reaches (the "
             "longest life of any layer); later, a moment of a bursting effect's cycle (the explosion bursts every "
             "3 s); earlier than the prewarm is refused",
             kColumn | kClosedRange);
    v.integer("warmup", s.warmup, 0, 1'000'000, "frames run and discarded before measuring");
    v.integer("frames", s.frames, 1, 1'000'000, "measured frames per round");
    v.number("max-seconds", s.maxSeconds, 0.0, 86400.0,
             "time limit per run and round, warm-up included; fewer frames are measured when it runs out", kColumn);
    v.number("dt", s.dt, 0.0f, 1.0f, "fixed simulation step, s", kColumn);
    v.integer("threads", s.threads, 1, 256, "simulation threads", kColumn);
    v.choice("timing", s.timing, kTimingNames,
             "latency (a fence after every frame) | throughput (up to 3 frames in flight, as with a swap chain)",
             kColumn);
    v.integer("repetitions", s.repetitions, 1, 1000,
              "rounds of the whole sweep, each configuration once per round in an order shuffled from the seed; "
              "runs.csv gets the median of the rounds' medians with a bootstrap 95% interval, rounds.csv every round",
              kSweepWide);
    v.choice("pairing", s.pairing, kPairByNames,
             "with a baseline: frames (the configurations compared with it drawn in alternation in one process, "
             "frame by frame; ratios per pair of frames, frames.csv) | rounds (each run alone; ratios per round)",
             kSweepWide);
    v.integer("processes", s.processes, 1, 64,
              "processes the sweep's rounds are repeated in: each of K processes (firelab started again) measures "
              "--repetitions rounds; rounds.csv records the process, intervals are over processes, then rounds",
              kSweepWide);
    v.text("label", s.label, "free text copied into the CSV's label column", kColumn);
    v.flag("quality", s.quality.enabled,
           "score each run's picture against its reference, outside the timed frames (--quality=false: off)");
    v.integer("quality-frames", s.quality.frames, 1, 1000, "frames scored per run, spread over the measured ones");
    v.reference("reference", s.quality.reference,
                "what quality is scored against: key=value;... (settings not named follow the run's)");
    v.flag("energy-preserving", s.quality.energyPreserving,
           "scale each particle's alpha by reference particles / run particles");
    static const std::string metricsHelp = "image metrics to compute: a subset of " + metricNameList();
    v.metrics("quality-metrics", s.quality, metricsHelp);
}

// One setting as the front ends list it: its name, help line, kind, values and attributes.
struct SettingInfo {
    // The kind of value, from the visitor method that declares it. Vector and Gradient hold commas (their
    // lists use ';'); Text, Path and Metrics are one value each, never a list or a range; a Span is
    // START:END (a TOML string), listed with commas like a number.
    // A Grid is NXxNYxNZ (one number: a cube), listed with commas like a number, never a range; a Layout is
    // RxC or off (render::FlipbookLayout), listed the same way.
    enum class Kind {
        Choice,
        Flag,
        Scalar,
        Integer,
        Text,
        Path,
        Vector,
        Gradient,
        Reference,
        Metrics,
        Span,
        Grid,
        Layout
    };
    std::string name, help;
    Kind kind = Kind::Text;
    std::vector<std::string> choices;  // Choice: the valid values
    double lo = 0.0, hi = 0.0;         // Scalar, Integer and Span: the valid range
    std::string defaultText;           // the default value, as settingText writes it
    unsigned attrs = core::kNoAttr;    // core::SettingAttr bits
    bool renderOption = false;         // one of render::visitRenderOptions'
    bool modelParam = false;           // one of sim::visitParams'
};
using RenderOptionInfo = SettingInfo;
// Every setting: the run-level ones in visitRunSettings order (render options in place), then the model's.
const std::vector<SettingInfo>& allSettings();
// The setting called `name`, or null.
const SettingInfo* findSetting(std::string_view name);
// The run-level settings (render options included), in visitRunSettings order.
const std::vector<SettingInfo>& runSettings();
const SettingInfo* findRunSetting(const std::string& name);
// Every render option, in visitRenderOptions order.
const std::vector<SettingInfo>& renderOptions();
const std::vector<std::string>& renderOptionNames();
// The setting's help line: the visitor's help, a range or the choices, and the default.
std::string settingHelp(const SettingInfo& o);
inline std::string renderOptionHelp(const SettingInfo& o) { return settingHelp(o); }
// "name=value;..." of every render option: equal exactly when the options are.
std::string renderOptionsText(const render::RenderOptions& o);
// The same of the fire model's and the grid fluid's settings.
std::string fluidParamsText(const fluid::FluidParams& p);
// The settings a runs.csv row records in columns of their own (core::kColumn), in allSettings() order.
const std::vector<std::string>& settingColumns();
// Whether the setting called `name` has every bit of `attrs` (false for a name that is not a setting).
bool hasAttrs(std::string_view name, unsigned attrs);
// Whether a setting takes one value for the whole sweep (core::kSweepWide).
inline bool sweepWide(const std::string& name) { return hasAttrs(name, core::kSweepWide); }
// Whether a setting names a file (its kind is Path): one value, never list- or range-parsed.
bool pathValued(const std::string& name);
// The keys a layer of an effect may set: the render options with core::kLayer, then every model parameter.
const std::vector<std::string>& layerKeys();
// Whether a render option is a layer's (core::kLayer); the others are the frame's.
inline bool isLayerRenderOption(const std::string& name) { return hasAttrs(name, core::kLayer); }

// The keys a reference spec may set: strategy, every render option, particles, seed, supersample and seeds.
const std::vector<std::string>& referenceKeys();
// referenceKeys() as "strategy, blend, ..., seeds", for messages and help.
std::string referenceKeyList();
// Parses a --reference SPEC. Throws Error(BadValue / UnknownName) naming --reference, the key and
// what is allowed.
ReferenceSpec parseReference(const std::string& text);
// The canonical text of a spec: its keys in referenceKeys() order, supersample always given, seeds when
// more than one.
std::string referenceText(const ReferenceSpec& spec);

// The names of the view's settings (visitCameraSettings), in its order.
const std::vector<std::string>& cameraSettingNames();
// The names of the fire model's and the grid fluid's settings (fluid::visitFluidParams), in its order.
const std::vector<std::string>& fluidSettingNames();
// The run-level setting names (model parameters come from sim::paramNames()).
const std::vector<std::string>& runSettingNames();
// Every name: run-level then model parameters.
std::vector<std::string> allSettingNames();
// Sets one setting by name from text. Throws firelab::Error (UnknownName / BadValue) naming --name. A path
// is taken as given: its file is read where it is used (an effect: checkEffectFile, effect.h).
void applySetting(RunSettings& s, const std::string& name, const std::string& value);
// The setting's current value as text (what the CSV and run keys record).
std::string settingText(const RunSettings& s, const std::string& name);

// Splits a possibly list-valued flag into its values (ranges expanded), as its kind says (see the top of
// this file). Throws Error(BadValue).
std::vector<std::string> splitValues(const std::string& name, const std::string& text);

// A setting's text as a TOML value: numbers stay numbers, vectors arrays, gradient keys arrays of
// arrays, flags booleans, everything else a string.
std::string tomlSettingValue(const std::string& name, const std::string& text);
// `text` as a TOML basic string, quoted and escaped.
std::string tomlString(const std::string& text);
// A config file that `firelab run --config` accepts, holding every run-level setting in [run] and every
// model parameter in [model] (what the viewer saves).
std::string runSettingsToml(const RunSettings& s);

}  // namespace firelab::harness

// Experiments as data. A run is described by RunSettings; every setting has a name shared by the
// command line (--name), experiment files ([run], [model], [sweep]) and the CSV. An Experiment holds
// fixed settings and swept axes; expand() makes the cross product, validating every run before any runs.
//
// Lists: "a,b,c"; numeric ranges "1e3..1e6x10" (geometric) and "1000..5000+1000" (arithmetic).
// Settings whose single value holds commas (vectors such as speed, the gradient) separate list items
// with ';' instead: --speed "0,1,0;0,2,0".
// Experiments as data: fixed settings and swept axes (run_settings.h says what a setting is), read from an
// experiment file or the command line; expand() makes the cross product, validating every run before any
// runs, and describe() the whole configuration that meta.json records.
//
//   [experiment] name, description, question, baseline   [run] [model] single values   [quality]
//   [sweep] arrays (or range strings): the axes, canonical order (comparisons outermost, particles innermost)
#pragma once
#include <filesystem>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "harness/settings/reference.h"
#include "harness/settings/run_settings.h"

namespace firelab::harness {

struct Axis {
    std::string name;
    std::vector<std::string> values;
    std::string where;  // "file:line" when it came from a file, for messages
    // The values as the user wrote them ("1e3..1e5x10"): a refusal of a value they generated names it too.
    std::string written;
    // Zipped ([sweep] zip = [["a", "b"]]): the axis it advances with, the first of its group; its k-th value
    // goes with that axis's k-th, so the pair is one axis of the cross product. Empty: crossed with the others.
    std::string follows;
};

struct FixedSetting {
    std::string name, value;
    std::string where;  // "file:line" when it came from a file, for messages
};

struct Experiment {
    std::string name = "adhoc";
    std::string description;
    // The question the experiment answers (report.html opens with it): "which strategy draws the default
    // fire cheapest at equal quality?". Empty: the description stands for it.
    std::string question;
    // [experiment] baseline = "KEY=VALUE" (e.g. "strategy=points"): after the sweep, every configuration's
    // paired ratio to it goes to ratios.csv (harness/results/compare.h). KEY must be swept and take VALUE.
    std::string baseline;
    // [experiment] leave-out = true: combinations the run's strategy cannot draw or whose options refuse each
    // other (an order-independent --sort with --layer-order depth-slices: any BadValue of the strategy and
    // effect checks) are left out of the sweep and listed, as when strategies are compared, instead of refusing
    // the whole sweep. Other errors (a typo in --override-layers, a --start-time too early) still refuse it.
    bool leaveOut = false;
    std::vector<FixedSetting> fixed;  // applied in order
    std::vector<Axis> axes;           // cross product, in canonical order (a zipped axis follows its group's first)

    // A setting given on the command line: one value replaces any axis of that name; a list makes
    // (or replaces) an axis.
    void override(const std::string& setting, const std::string& text);
};

// Reads an experiment file: [experiment] name/description/question/baseline, [run] and [model] single values, [sweep]
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
    // The files the runs read, each name with its content's fingerprint (harness/results/inputs.h); empty
    // where none were recorded (describe() leaves them to the sweep; an older meta.json has none).
    std::vector<std::pair<std::string, std::string>> inputs;
};
// Throws firelab::Error as expand() does for a bad value.
ExperimentConfig describe(const Experiment& e, const std::string& source = "");
// One line per difference ("lifetime: '1.5' there, '2' here"; "input effects/x.toml: its content changed");
// empty when they are the same. Inputs are compared when both sides recorded them.
std::vector<std::string> configDifferences(const ExperimentConfig& there, const ExperimentConfig& here);

// The cross product, each run validated (model, strategy, options). Throws firelab::Error naming the
// setting and, for files, the file. Given `leftOut`, a sweep over several strategies leaves out the
// combinations a strategy cannot draw (a trimmed hull for GL_POINTS, sorting for gpu-stateless...) and
// lists them there as "run key: why"; without it, or when every combination is refused, that is an error.
std::vector<PlannedRun> expand(const Experiment& e, const std::string& source = "",
                               std::vector<std::string>* leftOut = nullptr);

// The settings of a config or experiment file (its first run, if it sweeps). Throws firelab::Error.
RunSettings loadRunSettings(const std::filesystem::path& file);

// A value as a run_key writes it: ';' (which separates the key's parts) as %3B and '%' as %25, so that no two
// configurations share a key whatever their values hold (a label "a;texture=b"); and back.
std::string runKeyValue(std::string_view value);
std::string runKeyValueText(std::string_view escaped);

// "K/N" with 1 <= K <= N. Throws Error(BadValue) naming --shard.
std::pair<size_t, size_t> parseShard(const std::string& text);

}  // namespace firelab::harness

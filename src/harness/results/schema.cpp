#include "harness/results/schema.h"

#include <algorithm>
#include <array>

#include "core/error.h"
#include "core/setting.h"
#include "harness/quality/metrics.h"
#include "harness/settings/run_settings.h"
#include "fluid/fluid_sim.h"
#include "render/gl/pass_timer.h"

namespace firelab::harness {
namespace {
using G = ColumnGroup;
using R = SummaryRule;

struct Spec {
    const char* name;
    R rule;
};

// What the timed frames measure (harness/measure/runner.cpp fills them), in order; the GPU's passes follow
// gpu_ms_median. A MedianInterval column is followed by its interval's two columns. warmup and frames are
// the frames run: fewer than --warmup and --frames asked when --max-seconds ran out.
constexpr Spec kTimingBeforePasses[] = {
    {"alive_mean", R::Mean},
    {"warmup", R::First},
    {"frames", R::Sum},
    {"outlier_frames", R::Sum},
    {"frame_ms_median", R::MedianInterval},
    {"frame_ms_mean", R::Median},
    {"frame_ms_p5", R::Median},
    {"frame_ms_p95", R::Median},
    {"frame_ms_p99", R::Median},
    {"frame_ms_stddev", R::Median},
    {"frame_ms_min", R::Median},
    {"frame_ms_max", R::Median},
    {"fps", R::Fps},
    {"sim_ms_median", R::Median},
    {"upload_ms_median", R::Median},
    {"draw_ms_median", R::MedianInterval},
    {"cpu_ms_median", R::MedianInterval},
    {"cpu_utilisation", R::Median},
    {"gpu_ms_median", R::Median},
};
// How the machine was while the frames ran (harness/measure/canary.h): the canary's parts, medians over the
// samples taken beside the run's frames; canary_off, 1 in a round whose canary was off the sweep's median by
// more than kCanaryMargin (written when the sweep ends), in runs.csv the rounds so flagged.
constexpr Spec kMachineState[] = {{"canary_cpu_ms", R::Median}, {"canary_gl_ms", R::Median}, {"canary_off", R::Sum}};
// --model fluid: the grid fluid's step, per pass (fluid::kPassNames: CPU wall clock, medians over the measured
// frames), then the pressure solver's iterations and its residual (the rms divergence after the projection over the
// rms before), the most sub-steps a frame took and the grid's memory.
constexpr Spec kFluidAfterPasses[] = {{"fluid_iterations_median", R::Median},
                                      {"fluid_residual_median", R::Median},
                                      {"fluid_substeps_max", R::Median},
                                      {"fluid_mib", R::First},
                                      {"fluid_device_used", R::First}};
constexpr Spec kTimingAfterPasses[] = {
    {"light_fit_ms_median", R::Median}, {"light_shade_ms_median", R::Median}, {"harness_ms_mean", R::Median}};
// What the view makes of the fire at the last measured frame (harness/measure/runner.cpp, render::ViewCensus),
// beside the timing it explains: the fire's projected size, the particles behind the camera, the points
// clamped to the implementation's largest (GL_POINTS strategies; empty for the others); the order-independent
// structure's memory and what the abuffer held.
constexpr Spec kView[] = {
    {"fire_px", R::Median}, {"behind_camera_fraction", R::Median}, {"points_clamped_fraction", R::Median},
    {"oit_mib", R::First},  {"abuffer_fragments", R::Median},      {"abuffer_longest_list", R::Median}};

// What scoring the picture records (harness/draw/scorer.h) around the metrics' own columns.
constexpr const char* kQualityBeforeMetrics[] = {"reference", "energy_scale", "quality_frames"};
constexpr const char* kQualityAfterMetrics[] = {"flicker_ratio",    "fragments_shaded", "fragments_visible",
                                                "covered_fraction", "frame_png",        "reference_png",
                                                "quality_seconds"};

struct Builder {
    std::vector<Column> out;

    void add(std::string name, G group, R rule, std::string setting = "") {
        out.push_back({std::move(name), group, rule, std::move(setting)});
        if (rule != R::MedianInterval) return;
        const std::string stem = out.back().name.substr(0, out.back().name.rfind("_median"));
        out.push_back({stem + "_ci_low", group, R::IntervalLow, ""});
        out.push_back({stem + "_ci_high", group, R::IntervalHigh, ""});
    }
    template <size_t N>
    void add(const Spec (&specs)[N], G group) {
        for (const Spec& s : specs) add(s.name, group, s.rule);
    }
};

std::vector<Column> buildColumns() {
    Builder b;
    b.add("experiment", G::Identity, R::First);
    b.add("run_key", G::Identity, R::First);
    for (const auto& setting : settingColumns()) b.add(csvColumn(setting), G::Setting, R::First, setting);
    b.add("round", G::Record, R::RoundNumber);
    b.add("rounds", G::Record, R::OkRounds);
    // --processes: the process a round ran in (1 to K), and in runs.csv how many its rounds ran in.
    b.add("process", G::Record, R::RoundNumber);
    b.add("processes", G::Record, R::Processes);
    // How the round was measured against the configurations it is compared with: "frames" (drawn in
    // alternation with its group, frame by frame, frames.csv), or "rounds: WHY" (alone, paired by round).
    b.add("paired_by", G::Record, R::First);
    b.add(kTimingBeforePasses, G::Timing);
    for (const auto pass : render::kPassNames) b.add("gpu_" + std::string(pass) + "_ms_median", G::Timing, R::Median);
    for (const auto pass : fluid::kPassNames) b.add("fluid_" + std::string(pass) + "_ms_median", G::Timing, R::Median);
    b.add(kFluidAfterPasses, G::Timing);
    b.add(kTimingAfterPasses, G::Timing);
    b.add(kView, G::Timing);
    b.add(kMachineState, G::Timing);
    for (const char* name : kQualityBeforeMetrics) b.add(name, G::Quality, R::Scored);
    for (const auto& m : metrics()) b.add(std::string(m.frameColumn), G::Quality, R::Scored);
    for (const auto& m : metrics()) b.add(std::string(m.fireColumn), G::Quality, R::Scored);
    for (const char* name : kQualityAfterMetrics) b.add(name, G::Quality, R::Scored);
    for (const char* name : {"gl_renderer", "gl_version", "started"}) b.add(name, G::Record, R::First);
    b.add("seconds", G::Record, R::Sum);
    b.add("status", G::Record, R::First);
    return b.out;
}

constexpr auto kGroupNames = std::to_array<std::string_view>({"identity", "setting", "timing", "quality", "record"});
static_assert(core::namesEveryValue<ColumnGroup>(kGroupNames));
constexpr auto kRuleNames =
    std::to_array<std::string_view>({"first", "median_interval", "interval_low", "interval_high", "median", "mean",
                                     "sum", "ok_rounds", "round_number", "scored", "fps", "processes"});
static_assert(core::namesEveryValue<SummaryRule>(kRuleNames));

}  // namespace

const std::vector<Column>& runColumns() {
    static const std::vector<Column> columns = buildColumns();
    return columns;
}

const Column* findColumn(std::string_view name) {
    const auto& columns = runColumns();
    const auto it = std::find_if(columns.begin(), columns.end(), [&](const Column& c) { return c.name == name; });
    return it == columns.end() ? nullptr : &*it;
}

std::string_view groupName(ColumnGroup g) { return kGroupNames[static_cast<size_t>(g)]; }

std::string_view ruleName(SummaryRule r) { return kRuleNames[static_cast<size_t>(r)]; }

std::string csvColumn(std::string_view setting) {
    std::string column(setting);
    std::replace(column.begin(), column.end(), '-', '_');
    return column;
}

void setField(Row& row, const std::string& name, std::string value) {
    if (!findColumn(name))
        throw Error(ErrorCode::Internal, "runs.csv has no column '" + name +
                                             "': declare it in src/harness/results/schema.cpp (docs/extending.md)");
    row[name] = std::move(value);
}

void checkColumns(const Row& row) {
    for (const auto& [name, value] : row)
        if (!findColumn(name))
            throw Error(ErrorCode::Internal, "runs.csv has no column '" + name +
                                                 "': declare it in src/harness/results/schema.cpp (docs/extending.md)");
}

}  // namespace firelab::harness

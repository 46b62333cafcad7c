// `firelab physics --out DIR`: measure a fire as a fire experiment would, from its particles or, with --model
// fluid, from the grid fluid's gas (no GL, no picture). Simulate it to steady state, record a window at the fixed step, probe a column up its axis
// (physics/fire_probe.h), and write physics.csv (a row per height: intermittency, emission, the centreline's
// temperature rise and velocity), spectrum.csv (the flame tip's and the emitted power's spectra) and meta.json
// (the window, the step, the seeds, the probes and the summary: flame height, puffing peaks). A command of its own,
// not a run option: it needs no context, no window and no renderer, and it records the model rather than frames.
// With --plot, scripts/physics.py draws physics.png beside them.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <optional>

#include "app/command.h"
#include "app/flags/flag_checks.h"
#include "app/flags/model_flags.h"
#include "app/flags/scene_flags.h"
#include "app/flags/sim_flags.h"
#include "core/atomic_file.h"
#include "core/error.h"
#include "core/text.h"
#include "fluid/fluid_sim.h"
#include "harness/platform/data_dir.h"
#include "harness/platform/process.h"
#include "harness/results/meta.h"
#include "harness/results/plots.h"
#include "harness/settings/effect.h"
#include "harness/settings/experiment.h"
#include "physics/fire_probe.h"
#include "physics/record.h"
#include "sim/fire_system.h"

namespace firelab::app {
namespace {
namespace fs = std::filesystem;

class Physics : public Command {
public:
    void addTo(CLI::App& cmd) override {
        model_.addTo(cmd);
        effect_.addTo(cmd, false);
        fluid_.addTo(cmd);
        sim_.time = 20.0f;
        sim_.addTo(cmd, "the window: seconds of steady-state record after the prewarm, sampled every --dt");
        outFlag_ =
            cmd.add_option("--out", out_, "the record's folder (physics.csv, spectrum.csv, meta.json)")->required();
        struct AddFlag {
            CLI::App& cmd;
            void scalar(std::string_view name, float& v, float, float, std::string_view help) const {
                cmd.add_option("--" + std::string(name), v, std::string(help))->capture_default_str();
            }
        };
        physics::visitProbeSettings(probe_, AddFlag{cmd});
        cmd.add_option("--experiment", experiment_,
                       "an experiment file: each run of its sweep (fire-diameter, heat-release, any model setting) "
                       "measured in turn, into DIR/run-NNN/, with DIR/summary.csv a row per run");
        cmd.add_flag("--plot", plot_, "draw physics.png beside the CSVs (scripts/physics.py, Debian's python3)");
    }

    int run(const CommandContext& context) override {
        checkNotEmpty(outFlag_, out_, "the record's folder");
        const float dt = checkedDt(sim_.dt);
        const long frames = steps(sim_.time, dt);
        physics::validate(probe_, static_cast<double>(frames) * dt);
        if (!experiment_.empty()) return runExperiment(context, dt, frames);

        harness::RunSettings settings = model_.settings();
        effect_.applyTo(settings);
        fluid_.applyTo(settings);
        harness::resolveLayers(settings);  // a bad effect or fire size fails before the folder is touched
        checkBinAgainstCell(settings, "");
        prepareFolder();
        const Measured m = measure(settings, dt, frames);
        writeRecord(context, out_, m, dt, "");
        report(m.record);
        return plot_ ? drawPlot(context, out_) : 0;
    }

private:
    // A fire's record: its layers, its fires as the window left them, and its statistics beside the correlations.
    struct Measured {
        std::vector<harness::Layer> layers;
        std::vector<sim::FireSystem> fires;
        physics::Record record;
        std::optional<fluid::FluidParams> fluid;  // --model fluid: the grid's settings (the gas it measured)
    };

    Measured measure(const harness::RunSettings& settings, float dt, long frames) const {
        Measured m;
        m.layers = harness::resolveLayers(settings);
        m.fires = steadyFires(m.layers, dt);
        const std::unique_ptr<fluid::FluidSim> grid = steadyFluid(settings, m.layers.front().params, dt);
        physics::FireProbe probe(probe_, m.layers.front().params.center);
        double released = 0.0;  // kW, summed over the frames: the grid's combustion
        for (long f = 0; f < frames; ++f) {
            probe.beginFrame();
            if (grid) {  // the grid's gas, not particles
                grid->step(dt);
                released += grid->lastStep().heatReleaseKw;
                probe.add(*grid, m.layers.front().params);
            }
            for (sim::FireSystem& fire : m.fires) {
                fire.step(dt);
                if (!grid) probe.add(fire);
            }
        }
        if (grid) m.fluid = grid->params();  // stepped on the CPU (steadyFluid)
        const physics::FireStatistics stats = probe.finish(dt, probe_.minFrequency);
        physics::FireSize size{settings.fireDiameter, settings.heatRelease};
        if (grid) size = {settings.fireDiameter, released / static_cast<double>(frames), kFluidPowerFrom};
        m.record = {stats, physics::compare(stats, m.layers.front().params, size)};
        return m;
    }

    // --experiment FILE: every run of its sweep (the model and effect flags given override it, as sweep's do)
    // measured in turn, each record in run-NNN/, and summary.csv a row per run.
    int runExperiment(const CommandContext& context, float dt, long frames) const {
        if (!model_.config.empty())
            throw Error(ErrorCode::BadValue, "--config " + model_.config + " with --experiment " + experiment_ +
                                                 ": the experiment file holds the settings; give one or the other");
        harness::Experiment e = harness::loadExperiment(experiment_);
        for (const auto& [name, text] : model_.given()) e.override(name, text);
        for (const auto& [name, text] : givenFlags(effect_.flags)) e.override(name, text);
        for (const auto& [name, text] : givenFlags(fluid_.flags)) e.override(name, text);
        std::vector<std::string> leftOut;
        const std::vector<harness::PlannedRun> runs = harness::expand(e, experiment_, e.leaveOut ? &leftOut : nullptr);
        for (const std::string& why : leftOut) std::fprintf(stderr, "left out: %s\n", why.c_str());
        for (const harness::PlannedRun& run : runs) checkBinAgainstCell(run.settings, run.key);
        prepareFolder();
        std::vector<std::pair<std::string, physics::Record>> records;
        physics::RecordInfo sweep = provenance(context);  // once: the experiment's start, its commit
        writeSummary(sweep, records, leftOut);            // first: an interrupted experiment's folder is still a record
        int rc = 0;
        for (const harness::PlannedRun& run : runs) {
            char name[32];
            std::snprintf(name, sizeof name, "run-%03zu", run.index);
            const fs::path folder = fs::path(out_) / name;
            fs::create_directories(folder);
            std::fprintf(stderr, "%s: %s\n", name, run.key.c_str());
            const Measured m = measure(run.settings, dt, frames);
            writeRecord(context, folder, m, dt, run.key);
            report(m.record);
            records.emplace_back(run.key, m.record);
            if (plot_ && rc == 0) rc = drawPlot(context, folder.string());
        }
        writeSummary(sweep, records, leftOut);
        return rc;
    }

    void writeSummary(const physics::RecordInfo& sweep,
                      const std::vector<std::pair<std::string, physics::Record>>& runs,
                      const std::vector<std::string>& leftOut) const {
        core::AtomicFile summary(fs::path(out_) / "summary.csv");
        physics::writeSummaryCsv(runs, summary.stream());
        summary.commit();
        physics::writeExperimentMetaJson(fs::path(out_) / "meta.json", sweep, experiment_, runs, leftOut);
    }

    // Who made a record, when and from which commit (git is asked once per command, not per record).
    physics::RecordInfo provenance(const CommandContext& context) const {
        physics::RecordInfo info;
        info.commandLine = context.commandLine;
        info.started = harness::utcTimestamp();
        info.firelabVersion = FIRELAB_VERSION;
        if (gitCommit_.empty()) gitCommit_ = harness::gitCommit(harness::findDataDir(context.dataDir));
        info.gitCommit = gitCommit_;
        return info;
    }

    // The folder is new, empty, or an earlier record of this command: never a sweep's or anyone else's.
    void prepareFolder() const {
        std::error_code ec;
        if (fs::exists(out_, ec) && !fs::is_directory(out_, ec))
            throw Error(ErrorCode::BadFile, "--out " + out_ + ": a file, not a folder; name a folder for the record");
        if (fs::is_directory(out_, ec) && !fs::is_empty(out_, ec) && !physics::holdsPhysicsRecord(out_))
            throw Error(ErrorCode::BadFile, "--out " + out_ +
                                                ": a folder that holds something other than a physics record (its "
                                                "meta.json does not say \"record\": \"physics\"); name a new folder");
        fs::create_directories(out_, ec);
        if (ec) throw Error(ErrorCode::Io, "--out " + out_ + ": cannot create the folder: " + ec.message());
        // An earlier record is replaced whole: an experiment's runs and summary, a single fire's files.
        for (const fs::directory_entry& entry : fs::directory_iterator(out_, ec)) {
            const std::string name = entry.path().filename().string();
            if (name.starts_with("run-") && entry.is_directory(ec) && physics::holdsPhysicsRecord(entry.path()))
                fs::remove_all(entry.path(), ec);
        }
        for (const char* name : {"summary.csv", "physics.csv", "spectrum.csv", "physics.png"})
            fs::remove(fs::path(out_) / name, ec);
    }

    // --model fluid: the probe's height bins at least a cell tall. The grid's gas is binned by each cell's centre, so
    // a finer bin would leave the bins between centres empty and the flame's height and tip meaningless; refused
    // (exit 2) naming both flags, and the run of an experiment that asks for it, before anything is written.
    void checkBinAgainstCell(const harness::RunSettings& s, const std::string& runKey) const {
        if (s.fluid.model != fluid::Model::Fluid || probe_.binSize >= s.fluid.cell * (1.0f - 1e-6f)) return;
        throw Error(ErrorCode::BadValue,
                    "--bin " + core::formatFloat(probe_.binSize) + " with --cell " + core::formatFloat(s.fluid.cell) +
                        (runKey.empty() ? "" : " (run " + runKey + ")") +
                        ": the grid fluid's gas is binned by each cell's centre, so a bin finer than a cell leaves "
                        "bins empty; use a --bin of at least --cell");
    }

    // --model fluid: the grid fluid fed by the flame's emitter, stepped for kFluidPrewarmSeconds (its plume rises
    // through the column and sheds its first puffs); null for the paper's model. On the CPU whatever
    // --fluid-device says (the GPU's oracle: this command makes no GL context), and its record says so.
    static constexpr double kFluidPrewarmSeconds = 4.0;
    static constexpr const char* kFluidPowerFrom = "the grid fluid's combustion: its mean heat release over the window";
    std::unique_ptr<fluid::FluidSim> steadyFluid(const harness::RunSettings& s, const sim::FireParams& source,
                                                 float dt) const {
        if (s.fluid.model != fluid::Model::Fluid) return nullptr;
        fluid::FluidParams params = s.fluid;
        params.device = fluid::Device::Cpu;
        fluid::validate(params, source, dt);
        auto grid = std::make_unique<fluid::FluidSim>(params, source, checkedThreads(sim_.threads));
        while (grid->time() + 0.5 * dt < kFluidPrewarmSeconds) grid->step(dt);
        return grid;
    }

    // Every layer's fire, each stepped to the steady state of the layer that takes longest.
    std::vector<sim::FireSystem> steadyFires(const std::vector<harness::Layer>& layers, float dt) const {
        double prewarm = 0.0;
        for (const harness::Layer& l : layers)
            prewarm = std::max(prewarm, sim::FireSystem::prewarmSecondsFor(l.params));
        std::vector<sim::FireSystem> fires;
        fires.reserve(layers.size());
        for (const harness::Layer& l : layers) {
            sim::FireSystem& fire = fires.emplace_back(l.params, checkedThreads(sim_.threads));
            while (fire.time() + 0.5 * dt < prewarm) fire.step(dt);
        }
        return fires;
    }

    void writeRecord(const CommandContext& context, const fs::path& folder, const Measured& m, float dt,
                     const std::string& runKey) const {
        const std::vector<harness::Layer>& layers = m.layers;
        const std::vector<sim::FireSystem>& fires = m.fires;
        const physics::Record& record = m.record;
        const physics::FireStatistics& stats = record.stats;
        physics::RecordInfo info = provenance(context);
        info.windowSeconds = static_cast<double>(stats.frames) * dt;
        info.dt = dt;
        info.prewarmSeconds = fires.front().time() - info.windowSeconds;
        info.base = layers.front().params.center;
        info.probe = probe_;
        info.runKey = runKey;
        for (const harness::Layer& l : layers) {
            physics::RecordInfo::Layer& layer = info.layers.emplace_back();
            layer.name = l.name;
            for (const std::string& name : sim::paramNames())
                layer.params.emplace_back(name, sim::getParam(l.params, name));
        }
        if (m.fluid) {  // what was measured: the grid's gas, fed by the first layer's emitter
            physics::RecordInfo::Layer& layer = info.layers.emplace_back();
            layer.name = "grid fluid (measured)";
            harness::RunSettings s;
            s.fluid = *m.fluid;
            for (const std::string& name : harness::fluidSettingNames())
                layer.params.emplace_back(name, harness::settingText(s, name));
        }
        core::AtomicFile heights(folder / "physics.csv");
        physics::writeHeightCsv(record, heights.stream());
        core::AtomicFile spectrum(folder / "spectrum.csv");
        physics::writeSpectrumCsv(record, spectrum.stream());
        heights.commit();
        spectrum.commit();
        physics::writeMetaJson(folder / "meta.json", info, record);  // last: the folder is a record once it is there
    }

    static void report(const physics::Record& record) {
        const physics::FireStatistics& s = record.stats;
        const physics::Comparison& c = record.against;
        const auto m = [](double v) { return std::isfinite(v) ? core::formatFloat(static_cast<float>(v)) : "none"; };
        std::fprintf(stderr,
                     "%zu frames: flame height (intermittency 0.5) %s m, mean attached tip %s m; puffing: the tip's "
                     "spectrum peaks at %s Hz, the emitted power's at %s Hz (resolution %s Hz)\n",
                     s.frames, m(s.flameHeight).c_str(), m(s.meanTip).c_str(), m(s.tipSpectrum.peakHz).c_str(),
                     m(s.powerSpectrum.peakHz).c_str(), m(s.tipSpectrum.resolutionHz).c_str());
        if (std::isnan(s.flameHeight))
            std::fprintf(stderr, "no flame height: %s\n",
                         s.rows.empty() || s.rows.front().intermittency < 0.5
                             ? "the lowest bin holds the flame in fewer than half the frames"
                             : "the intermittency never falls below 0.5 in the column; raise --top");
        const auto pct = [](double e) {
            return std::isfinite(e) ? core::formatFloat(static_cast<float>(100.0 * e)) + " %" : "-";
        };
        if (c.powerGiven)
            std::fprintf(stderr, "against a %s m, %s kW pool: Heskestad's flame height %s m (error %s); ",
                         m(c.diameter).c_str(), m(c.heatRelease).c_str(), m(c.flameHeight).c_str(),
                         pct(c.flameHeightError).c_str());
        else
            std::fprintf(stderr, "it flames like a %s m pool of %s kW (Heskestad's inverse); ", m(c.diameter).c_str(),
                         m(c.heatRelease).c_str());
        std::fprintf(stderr, "Cetegen & Ahmed's puffing %s Hz (the tip's error %s, the power's %s)\n",
                     m(c.puffing).c_str(), pct(c.tipPeakError).c_str(), pct(c.emissionPeakError).c_str());
        if (std::isfinite(s.heatReleaseHeight99))
            std::fprintf(stderr,
                         "the heat release: 95 %% of it below %s m, 99 %% below %s m (against Heskestad's: %s, %s)\n",
                         m(s.heatReleaseHeight95).c_str(), m(s.heatReleaseHeight99).c_str(),
                         pct(s.heatReleaseHeight95 / c.flameHeight - 1.0).c_str(),
                         pct(s.heatReleaseHeight99 / c.flameHeight - 1.0).c_str());
    }

    int drawPlot(const CommandContext& context, const std::string& folder) const {
        std::vector<std::string> argv = harness::scriptCommand(harness::findDataDir(context.dataDir), "physics.py");
        argv.push_back(folder);
        std::string out;
        const int rc = harness::runProcess(argv, &out);
        std::fputs(out.c_str(), stderr);
        return rc < 0 ? 130 : rc;
    }

    ModelFlags model_;
    EffectFlags effect_;
    FluidFlags fluid_;
    SimFlags sim_;
    physics::ProbeSettings probe_;
    std::string out_, experiment_;
    mutable std::string gitCommit_;  // asked of git once, on the first record
    bool plot_ = false;
    const CLI::Option* outFlag_ = nullptr;
};

}  // namespace

extern constexpr CommandEntry kPhysicsCommand{
    "physics",
    "measure a fire as fire science does: flame height by intermittency, centreline temperature and velocity, "
    "puffing spectrum",
    []() -> std::unique_ptr<Command> { return std::make_unique<Physics>(); }};

}  // namespace firelab::app

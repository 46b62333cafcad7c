// firelab: the command line. Subcommands: list (strategies and render options), info (the GL context),
// snapshot (particle state as CSV), capture (each strategy's picture of the same state), view (the viewer),
// run, sweep, merge and compare (harness_commands.h), and the summary that runs with no subcommand. Exit codes: 0 success, 2 bad usage or input, 1 runtime failure, 130
// interrupted (SIGINT or SIGTERM at any time from the first line of main: harness/platform/interrupt.h).
#include <SDL.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>

#include <CLI/CLI.hpp>

#include "app/flag_checks.h"
#include "app/harness_commands.h"
#include "app/model_flags.h"
#include "app/render_flags.h"
#include "app/viewer.h"
#include "core/atomic_file.h"
#include "harness/draw/capture.h"
#include "harness/platform/data_dir.h"
#include "harness/settings/camera_path.h"
#include "harness/settings/effect.h"
#include "harness/settings/experiment.h"
#include "harness/platform/interrupt.h"
#include "render/gl/gl_context.h"
#include "render/particles/particle_material.h"
#include "render/particles/view_census.h"
#include "render/strategies/strategy.h"
#include "core/error.h"
#include "sim/fire_system.h"
#include "sim/snapshot.h"

namespace firelab::app {
namespace {

float checkedDt(float dt) {
    if (!std::isfinite(dt) || dt <= 0.0f || dt > 1.0f)
        throw Error(ErrorCode::BadValue, "--dt " + std::to_string(dt) + ": must be in (0, 1] seconds");
    return dt;
}

long steps(float time, float dt) {
    if (!std::isfinite(time) || time < 0.0f || time > 3600.0f)
        throw Error(ErrorCode::BadValue, "--time " + std::to_string(time) + ": must be in [0, 3600] seconds");
    const double n = std::round(static_cast<double>(time) / static_cast<double>(dt));
    if (n > 1e7)
        throw Error(ErrorCode::BadValue, "--time " + std::to_string(time) + " / --dt " + std::to_string(dt) +
                                             ": more than 10,000,000 steps; use a larger --dt or a shorter --time");
    return static_cast<long>(n);
}

unsigned checkedThreads(int threads) {
    if (threads < 1 || threads > 256)
        throw Error(ErrorCode::BadValue, "--threads " + std::to_string(threads) + ": must be in [1, 256]");
    return static_cast<unsigned>(threads);
}

// --effect and --fire-light for capture and view (run and sweep take every run setting): applied on
// top of --config, checked as the run's are.
struct EffectFlags {
    Flags flags;  // --effect, --override-layers and (unless left out) --fire-light

    void addTo(CLI::App& cmd, bool withFireLight = true) {
        for (const char* name : {"effect", "override-layers", "fire-light"}) {
            if (!withFireLight && std::string(name) == "fire-light") continue;
            auto& [text, opt] = flags[name];
            opt = cmd.add_option(std::string("--") + name, text, harness::settingHelp(*harness::findRunSetting(name)));
        }
    }
    void applyTo(harness::RunSettings& s) const {
        for (const auto& [name, text] : givenFlags(flags)) {
            harness::applySetting(s, name, text);
            if (name == "effect") harness::checkEffectFile(text);  // a bad file fails here, naming it
        }
    }
};

// capture and view: the view's settings (harness::visitCameraSettings), on top of --config; a path file is
// read here, so a bad one fails before anything is drawn, naming the file, the line and the key.
struct CameraFlags {
    Flags flags;

    void addTo(CLI::App& cmd) {
        for (const auto& name : harness::cameraSettingNames()) {
            auto& [text, opt] = flags[name];
            opt = cmd.add_option("--" + name, text, harness::settingHelp(*harness::findRunSetting(name)));
            opt->group("Camera");
        }
    }
    void applyTo(harness::RunSettings& s) const {
        for (const auto& [name, text] : givenFlags(flags)) harness::applySetting(s, name, text);
        harness::checkCamera(s);
    }
};

// capture and view: a given --config must be a TOML file, a given path flag must not be empty.
struct SimOptions {
    float time = 2.0f;
    float dt = 1.0f / 60.0f;
    int threads = 1;

    void addTo(CLI::App& cmd, const char* timeHelp) {
        cmd.add_option("--time", time, timeHelp)->capture_default_str();
        cmd.add_option("--dt", dt, "fixed simulation step, s")->capture_default_str();
        cmd.add_option("--threads", threads, "simulation threads (results do not depend on it)")->capture_default_str();
    }
};

// snapshot: simulate from an empty system and write every live particle as CSV.
struct SnapshotCommand {
    ModelFlags model;
    EffectFlags effect;
    CameraFlags camera;
    SimOptions sim;
    std::string out;
    bool view = false;
    int width = 1280, height = 720;
    const CLI::Option* outFlag = nullptr;
    const CLI::Option* widthFlag = nullptr;
    const CLI::Option* heightFlag = nullptr;

    void addTo(CLI::App& cmd) {
        model.addTo(cmd);
        effect.addTo(cmd, false);
        camera.addTo(cmd);
        sim.addTo(cmd, "seconds to simulate; 0 writes N freshly emitted particles");
        outFlag = cmd.add_option("--out", out, "output CSV file")->required();
        cmd.add_flag(
            "--view", view,
            std::string("append each particle as the camera (--camera ...) sees it at the snapshot's time in a "
                        "--width x --height frame: ") +
                render::kViewColumns);
        widthFlag = cmd.add_option("--width", width, "--view's frame width")->capture_default_str();
        heightFlag = cmd.add_option("--height", height, "--view's frame height")->capture_default_str();
    }

    // An existing --out is replaced only when it is a snapshot already (its header firelab's): never an
    // experiment's TOML or any other file given by mistake.
    void refuseToReplaceOtherFiles() const {
        std::error_code ec;
        if (!std::filesystem::is_regular_file(out, ec)) return;  // new, or not a file: AtomicFile says why
        std::ifstream in(out);
        std::string first;
        std::getline(in, first);
        const std::string_view header = sim::kSnapshotHeader;
        if (first.starts_with(header) || first.starts_with("layer," + std::string(header))) return;
        throw Error(ErrorCode::BadFile, "--out " + out +
                                            ": an existing file that is not a firelab snapshot (its first line "
                                            "is not the snapshot header); give a new file name, or remove it first");
    }

    // --view's columns of one layer's particles, seen by the run's camera at the fire's time.
    sim::SnapshotExtra viewColumns(const harness::RunSettings& s, const sim::FireSystem& fire,
                                   const render::RenderOptions& options) const {
        const render::Camera cam = harness::RunCamera(s).at(fire.time(), s.width, s.height);
        return {render::kViewColumns,
                [&fire, cam, options](size_t i) { return render::viewFields(fire, i, cam, options); }};
    }

    int run() const {
        checkNotEmpty(outFlag, out, "the CSV file to write");
        harness::RunSettings settings = model.settings();
        effect.applyTo(settings);
        camera.applyTo(settings);
        // Given, they replace --config's (with the range checks of run's --width and --height).
        if (widthFlag->count() > 0) harness::applySetting(settings, "width", std::to_string(width));
        if (heightFlag->count() > 0) harness::applySetting(settings, "height", std::to_string(height));
        const float dt = checkedDt(sim.dt);
        const long n = steps(sim.time, dt);
        // With --effect, every layer's particles, a "layer" column first; without, the model's as always.
        std::vector<harness::Layer> layers = harness::resolveLayers(settings);
        const bool named = !settings.effect.empty();
        refuseToReplaceOtherFiles();
        core::AtomicFile file(out);  // fails before simulating if the output cannot be written
        size_t written = 0;
        double time = 0.0;
        for (size_t l = 0; l < layers.size(); ++l) {
            sim::FireSystem fire(layers[l].params, checkedThreads(sim.threads));
            if (n == 0)
                fire.emit(layers[l].params.particles);  // the emitter's initial distributions, for inspection
            else
                for (long i = 0; i < n; ++i) fire.step(dt);
            const sim::SnapshotExtra extra =
                view ? viewColumns(settings, fire, layers[l].render) : sim::SnapshotExtra{};
            sim::writeSnapshotCsv(fire, file.stream(), named ? layers[l].name : std::string_view{}, l == 0,
                                  view ? &extra : nullptr);
            written += fire.pool().alive(), time = fire.time();
        }
        file.commit();
        std::fprintf(stderr, "wrote %zu particles at t=%.3f s to %s\n", written, time, out.c_str());
        return 0;
    }
};

// No subcommand: simulate --time seconds and summarise the pool and the step's cost.
struct SummaryCommand {
    ModelFlags model;
    SimOptions sim;

    void addTo(CLI::App& cli) {
        model.addTo(cli);
        sim.addTo(cli, "seconds to simulate");
    }

    int run() const {
        const sim::FireParams params = model.resolve();
        const float dt = checkedDt(sim.dt);
        const long n = steps(sim.time, dt);
        sim::FireSystem fire(params, checkedThreads(sim.threads));
        const auto t0 = std::chrono::steady_clock::now();
        for (long i = 0; i < n; ++i) fire.step(dt);
        const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
        std::printf("firelab: simulated %.2f s of fire (%ld steps of %.4f s) on %u thread(s)\n", fire.time(), n,
                    double(dt), fire.threads());
        std::printf(
            "  emitter %s, %s positions, target %u particles, alive %zu (pool of %zu: %.1f B per live particle)\n",
            sim::getParam(params, "emitter").c_str(), sim::getParam(params, "distribution").c_str(), params.particles,
            fire.pool().alive(), fire.pool().capacity(),
            fire.pool().alive() ? static_cast<double>(fire.pool().bytes()) / static_cast<double>(fire.pool().alive())
                                : 0.0);
        std::printf("  %.3f ms per step\n", n ? ms / static_cast<double>(n) : 0.0);
        return 0;
    }
};

int runList() {
    for (const auto& s : render::strategies())
        std::printf("%-22s %s%s\n", std::string(s.name).c_str(), std::string(s.summary).c_str(),
                    s.simulatesOnGpu ? " [GPU-simulated]" : "");
    std::printf("\nrender options (--NAME for run, sweep, capture and view; the same keys in experiment files):\n");
    for (const auto& o : harness::renderOptions())
        std::printf("  %-16s %s\n", o.name.c_str(), harness::renderOptionHelp(o).c_str());
    return 0;
}

int runInfo() {
    gl::Context context;
    const auto& i = context.info();
    std::printf("GL_VENDOR    %s\nGL_RENDERER  %s\nGL_VERSION   %s\nGLSL         %s\n", i.vendor.c_str(),
                i.renderer.c_str(), i.version.c_str(), i.glsl.c_str());
    std::printf("timer queries %s\n",
                i.timerQueriesMeaningful ? "measure GPU time" : "do not measure GPU work here (software renderer)");
    std::printf(
        "point sizes  %g to %g px (GL_POINT_SIZE_RANGE: points and point-sprites clamp their size to it; "
        "runs count the particles clamped in points_clamped_fraction)\n",
        static_cast<double>(i.pointSizeMin), static_cast<double>(i.pointSizeMax));
    return 0;
}

struct CaptureCommand {
    ModelFlags model;
    RenderFlags render;
    EffectFlags effect;
    CameraFlags camera;
    SimOptions sim;
    std::string strategies = "all";
    int width = 640, height = 480;
    std::string out;

    void addTo(CLI::App& cmd) {
        model.addTo(cmd);
        render.addTo(cmd);
        effect.addTo(cmd);
        camera.addTo(cmd);
        sim.addTo(cmd, "simulated time of the captured state, s");
        cmd.add_option("--strategy", strategies, "comma-separated strategies, or all")->capture_default_str();
        cmd.add_option("--width", width, "image width")->capture_default_str();
        cmd.add_option("--height", height, "image height")->capture_default_str();
        outFlag = cmd.add_option("--out", out, "output folder")->required();
        cmd.add_option("--reference", reference,
                       "what compare.csv measures against: key=value;... of " + harness::referenceKeyList() +
                           " (settings not named follow the capture's)")
            ->capture_default_str();
    }
    std::string reference = "strategy=billboards-cpu;sort=back-to-front";
    CLI::Option* outFlag = nullptr;

    int run(const std::string& dataDir) const {
        checkNotEmpty(outFlag, out, "the output folder");
        if (!model.config.empty()) checkTomlPath(model.config, "--config");
        harness::CaptureSettings s;
        s.strategies = harness::parseStrategyList(strategies);
        harness::RunSettings base = model.settings();
        render.applyTo(base);
        effect.applyTo(base);
        camera.applyTo(base);
        s.params = base.params;
        s.camera = base.camera;
        s.render = base.render;
        s.effect = base.effect;
        s.overrideLayers = base.overrideLayers;
        s.fireLight = base.fireLight;
        s.dt = checkedDt(sim.dt);
        s.time = static_cast<float>(steps(sim.time, s.dt)) * s.dt;
        s.threads = checkedThreads(sim.threads);
        if (width < 1 || width > 16384 || height < 1 || height > 16384)
            throw Error(ErrorCode::BadValue, "--width/--height " + std::to_string(width) + "x" +
                                                 std::to_string(height) + ": each must be in [1, 16384]");
        s.width = width, s.height = height;
        s.outDir = out;
        s.reference = reference;
        s.dataDir = harness::findDataDir(dataDir);
        const auto results = harness::runCapture(s);
        for (const auto& r : results)
            std::fprintf(stderr, "%-22s %zu particles -> %s/%s.png\n", r.strategy.c_str(), r.drawn, out.c_str(),
                         r.strategy.c_str());
        std::fprintf(stderr, "contact sheet -> %s/contact-sheet.png\n", out.c_str());
        return 0;
    }
};

struct ViewCommand {
    ModelFlags model;
    RenderFlags render;
    EffectFlags effect;
    CameraFlags camera;
    std::string strategy = "billboards-instanced", compare = "points", screenshot;
    bool split = false, noVsync = false;
    int width = 1280, height = 720, quitAfter = 0;
    CLI::Option* strategyFlag = nullptr;
    CLI::Option* screenshotFlag = nullptr;
    CLI::Option* quitAfterFlag = nullptr;

    void addTo(CLI::App& cmd) {
        model.addTo(cmd);
        render.addTo(cmd);
        effect.addTo(cmd);
        camera.addTo(cmd);
        strategyFlag = cmd.add_option("--strategy", strategy, "strategy on side A (left)")->capture_default_str();
        cmd.add_option("--compare", compare, "strategy on side B (right) of the A/B split")->capture_default_str();
        cmd.add_flag("--split", split, "start with the A/B split on");
        cmd.add_flag("--no-vsync", noVsync, "do not wait for vertical sync");
        cmd.add_option("--width", width, "window width")->capture_default_str();
        cmd.add_option("--height", height, "window height")->capture_default_str();
        quitAfterFlag = cmd.add_option("--quit-after", quitAfter,
                                       "quit after this many frames (automation; 0: once set up, drawing nothing)");
        screenshotFlag = cmd.add_option("--screenshot", screenshot, "PNG written when --quit-after ends the viewer");
    }

    int run(const std::string& dataDir) const {
        checkNotEmpty(screenshotFlag, screenshot, "the PNG file to write");
        ViewerOptions o;
        o.a = sideA();
        checkCompare();
        o.strategyB = compare;
        o.renderB = o.a.render;
        o.split = split;
        o.vsync = !noVsync;
        checkWindowFlags();
        const bool quits = quitAfterFlag->count() > 0;
        o.width = width, o.height = height, o.quitAfter = quits ? quitAfter : -1, o.screenshot = screenshot;
        o.dataDir = harness::findDataDir(dataDir);
        checkFiles(o);
        return runViewer(o);
    }

    // Side A's run, and the model: --config first ([run] and [model]), then the flags given.
    harness::RunSettings sideA() const {
        if (!model.config.empty()) checkTomlPath(model.config, "--config");
        harness::RunSettings a = model.settings();
        render.applyTo(a);
        effect.applyTo(a);
        camera.applyTo(a);
        if (strategyFlag->count() > 0) harness::applySetting(a, "strategy", strategy);
        return a;
    }

    void checkCompare() const {
        harness::RunSettings b;
        try {
            harness::applySetting(b, "strategy", compare);
        } catch (const Error& e) {  // the message would name --strategy: name the flag given
            std::string msg = e.what();
            if (msg.rfind("--strategy", 0) == 0) msg.replace(0, 10, "--compare");
            throw Error(e.code(), msg);
        }
    }

    // The window's size, and --screenshot only where --quit-after (1 or more) ends the viewer.
    void checkWindowFlags() const {
        if (width < 64 || width > 16384 || height < 64 || height > 16384)
            throw Error(ErrorCode::BadValue, "--width/--height " + std::to_string(width) + "x" +
                                                 std::to_string(height) + ": each must be in [64, 16384]");
        if (quitAfter < 0)
            throw Error(ErrorCode::BadValue, "--quit-after " + std::to_string(quitAfter) + ": must be >= 0");
        if (!screenshot.empty() && quitAfterFlag->count() == 0)
            throw Error(ErrorCode::BadValue, "--screenshot " + screenshot +
                                                 ": written when --quit-after N ends the viewer; give --quit-after too "
                                                 "(or press S in the viewer)");
        if (!screenshot.empty() && quitAfter == 0)
            throw Error(ErrorCode::BadValue, "--screenshot " + screenshot +
                                                 " with --quit-after 0: no frame is drawn; "
                                                 "give --quit-after 1 or more");
    }

    // Files are checked before the window opens, as the other commands do: a missing or unreadable
    // texture exits 2, a screenshot that cannot be written 1 (2 if it names a device, FIFO or folder).
    static void checkFiles(const ViewerOptions& o) {
        render::checkSprite(o.dataDir, o.a.render);
        if (!o.screenshot.empty()) {
            core::AtomicFile probe(core::checkedOutputPath(o.screenshot, "--screenshot"));  // abandoned: nothing kept
        }
    }
};

// The command line: every subcommand with the flags it fills, added in the order --help lists them.
class CommandLine {
public:
    explicit CommandLine(const std::string& commandLine) {
        cli_.set_version_flag("--version", FIRELAB_VERSION);
        cli_.require_subcommand(0, 1);
        cli_.fallthrough();  // options of the top level (--data-dir) may follow the subcommand
        summary_.addTo(cli_);
        snapshotCmd_ =
            cli_.add_subcommand("snapshot", "simulate from an empty system and write every live particle as CSV");
        snapshot_.addTo(*snapshotCmd_);
        dataDirOption_ = cli_.add_option("--data-dir", dataDir_, "folder holding shaders/, textures/ and experiments/")
                             ->group("Files");
        list_ = cli_.add_subcommand("list", "list the rendering strategies and the render options");
        info_ = cli_.add_subcommand("info", "create a GL context and print what it is");
        captureCmd_ = cli_.add_subcommand("capture", "draw the same state with each strategy into DIR/<strategy>.png");
        capture_.addTo(*captureCmd_);
        harness_.emplace(cli_, dataDir_, commandLine);
        viewCmd_ = cli_.add_subcommand("view", "interactive viewer: live parameters, A/B split of two strategies");
        view_.addTo(*viewCmd_);
    }

    // Parses argv and runs the command it names (the summary when none); throws what either throws.
    int run(int argc, char** argv) {
        cli_.parse(argc, argv);
        refuseStrayOptions();
        refuseRepeatedFlags();
        if (!dataDir_.empty()) harness::findDataDir(dataDir_);  // a bad --data-dir fails first, naming the flag
        harness::setDefaultDataDir(dataDir_);                   // and effect names are looked up there
        if (snapshotCmd_->parsed()) return snapshot_.run();
        if (list_->parsed()) return runList();
        if (info_->parsed()) return runInfo();
        if (captureCmd_->parsed()) return capture_.run(dataDir_);
        if (const int rc = harness_->runIfParsed(); rc >= 0) return rc;
        if (viewCmd_->parsed()) return view_.run(dataDir_);
        return summary_.run();
    }

    // The top level's options (the summary's, when no command is named) given with a command: before its name,
    // or after it where the command does not take them (they fall through to the top level). Either way the
    // command would run without them: refused, naming the option and where it belongs. --data-dir is every
    // command's.
    void refuseStrayOptions() const {
        const auto commands = cli_.get_subcommands();
        if (commands.empty()) return;
        const CLI::App& command = *commands.front();
        for (const CLI::Option* o : cli_.get_options()) {
            if (o->count() == 0 || o == dataDirOption_) continue;
            const std::string flag = o->get_name(), name = command.get_name();
            if (command.get_option_no_throw(flag) != nullptr)
                throw Error(ErrorCode::UnknownName,
                            flag + " is given before the command '" + name +
                                "', where it would be ignored: write it after the command (firelab " + name + " " +
                                flag + " ...)");
            throw Error(ErrorCode::UnknownName, "'" + name + "' does not take " + flag +
                                                    " (it would be ignored); firelab " + name +
                                                    " --help lists what it takes");
        }
    }

    // A switch given twice (--hdr=false --hdr) would be decided by whichever came last: refused, as a value given
    // twice is (CLI11 refuses those itself, and exit() words it).
    void refuseRepeatedFlags() const {
        for (const CLI::App* command : cli_.get_subcommands())
            for (const CLI::Option* o : command->get_options())
                if (!o->get_positional() && o->get_expected_min() == 0 && o->count() > 1)  // a switch
                    throw Error(ErrorCode::BadValue, repeatedMessage(o->get_name(), std::to_string(o->count())));
    }

    // "--x is given N times: give it once", with a word on lists where the option is a setting run and sweep
    // take several values of.
    static std::string repeatedMessage(const std::string& flag, const std::string& times) {
        const bool setting = harness::findSetting(flag.substr(flag.find_first_not_of('-'))) != nullptr;
        return flag + " is given " + times + " times: give it once" +
               (setting ? " (run and sweep take a comma-separated list of values)" : "");
    }

    // Prints a parse error's message (or the --help, --version text) and returns the exit code.
    int exit(const CLI::ParseError& e) {
        // A flag given twice, in firelab's words rather than CLI11's ("--x: At Most 1 required but received 2").
        const std::string what = e.what();
        const std::string twice = ": At Most 1 required but received ";
        if (const size_t at = what.find(twice); e.get_name() == "ArgumentMismatch" && at != std::string::npos) {
            std::fprintf(stderr, "firelab: error: %s\n",
                         repeatedMessage(what.substr(0, at), what.substr(at + twice.size())).c_str());
            return 2;
        }
        return cli_.exit(e) == 0 ? 0 : 2;
    }

private:
    CLI::App cli_{"firelab: a testbed for real-time fire rendering research"};
    std::string dataDir_;
    SummaryCommand summary_;
    SnapshotCommand snapshot_;
    CaptureCommand capture_;
    ViewCommand view_;
    CLI::Option* dataDirOption_ = nullptr;
    CLI::App *snapshotCmd_ = nullptr, *list_ = nullptr, *info_ = nullptr, *captureCmd_ = nullptr, *viewCmd_ = nullptr;
    std::optional<HarnessCommands> harness_;
};

std::string commandLineOf(int argc, char** argv) {
    std::string commandLine;
    for (int i = 0; i < argc; ++i) commandLine += (i ? " " : "") + std::string(argv[i]);
    return commandLine;
}

}  // namespace

// Every failure ends here: its message on stderr and its exit code.
int main(int argc, char** argv) {
    CommandLine cli(commandLineOf(argc, argv));
    try {
        return cli.run(argc, argv);
    } catch (const CLI::ParseError& e) {
        return cli.exit(e);
    } catch (const Error& e) {
        std::fprintf(stderr, "firelab: error: %s\n", e.what());
        return exitCodeFor(e.code());
    } catch (const std::bad_alloc&) {
        std::fprintf(stderr, "firelab: error: out of memory; try fewer --particles\n");
        return 1;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "firelab: error: %s\n", e.what());
        return 1;
    }
}

}  // namespace firelab::app

int main(int argc, char** argv) {
    // First, before SDL or a GL driver can install theirs (SDL's turns a signal into an event nobody reads).
    firelab::harness::installStopHandlers();
    SDL_SetHint(SDL_HINT_NO_SIGNAL_HANDLERS, "1");
    const int rc = firelab::app::main(argc, argv);
    // A signal that a command noticed but did not end on (it finished its last step) still means 130.
    if (firelab::harness::stopRequested() && rc != firelab::harness::kInterruptedExitCode) {
        std::fprintf(stderr, "firelab: interrupted\n");
        return firelab::harness::kInterruptedExitCode;
    }
    return rc;
}

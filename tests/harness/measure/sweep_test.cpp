// What `firelab sweep` and `firelab run` check before their first run, in process (the command line through
// firelab_cli, the sweep through harness::runSweep): bad experiments, shards, quality settings and views exit 2
// naming the problem, and nothing is written; a folder with results is refused without --resume; --resume refuses
// a folder of another configuration, fewer rounds or a changed input, naming each difference; `run --csv` names
// that would share a rounds file and rounds already held are refused. And how settings become runs: overrides of
// an experiment file, vectors and paths as one value. What needs a measured run is in sweep_e2etest.cpp.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include <CLI/CLI.hpp>

#include "app/flags/setting_flags.h"
#include "core/error.h"
#include "harness/measure/sweep.h"
#include "harness/results/csv.h"
#include "harness/results/rounds.h"
#include "harness/settings/experiment.h"
#include "support/cli_in_process.h"
#include "support/error_of.h"
#include "support/sweep_folder.h"

namespace firelab::testing {
namespace {

using harness::readRunsCsv;

// A runs.csv of one whole row of experiment `name` (key particles=200), as text.
std::string oneRowCsv(const std::string& name) {
    harness::Row row;
    row["experiment"] = name, row["run_key"] = "particles=200", row["status"] = "ok";
    return harness::runsHeaderLine() + harness::csvLine(harness::rowFields(row));
}

// --- refused before any run -------------------------------------------------------------------------------

class SweepChecks : public Cli {};

TEST_F(SweepChecks, BadExperimentsExitTwoAndNameTheProblem) {
    struct Case {
        const char* name;
        std::string toml;
        Strings mustMention;
    };
    const std::vector<Case> cases{
        {"unknown_setting",
         tinyToml("u", "particles = [200]\nteapots = [1, 2]\n"),
         {"unknown_setting.toml:12", "teapots"}},
        {"bad_run_value",
         tinyToml("b", "particles = [200]\n", "max-seconds = 0\n"),
         {"bad_run_value.toml", "--max-seconds"}},
        {"bad_sweep_value", tinyToml("v", "lifetime = [1, 0]\n"), {"bad_sweep_value.toml", "--lifetime"}},
        {"malformed", "[experiment]\nname = \"m\"\n[run\nwidth = 64\n", {"malformed.toml:3"}},
        {"unknown_table",
         "[experiment]\nname = \"t\"\n\n[sweeps]\nparticles = [1]\n",
         {"unknown_table.toml:4", "sweeps"}},
        {"bad_range", tinyToml("r", "particles = \"1e4..1e3x10\"\n"), {"--particles"}},
    };
    for (const auto& c : cases) {
        SCOPED_TRACE(c.name);
        const fs::path file = write(std::string(c.name) + ".toml", c.toml);
        const fs::path out = dir_ / (std::string(c.name) + "_out");
        const Outcome r = runArgs({"sweep", file.string(), "--out", out.string(), "--no-plots"});
        EXPECT_EQ(r.code, 2) << r.err;
        for (const auto& m : c.mustMention) EXPECT_TRUE(contains(r.err, m)) << m << " not in: " << r.err;
        EXPECT_FALSE(fs::exists(out / "runs.csv")) << "nothing may run before the input is checked";
    }
    // A missing file and a bad flag value.
    Outcome r = runArgs({"sweep", (dir_ / "nope.toml").string(), "--out", (dir_ / "o").string()});
    EXPECT_EQ(r.code, 2) << r.err;
    const fs::path ok = write("ok.toml", tinyToml("ok", "particles = [200]\n"));
    r = runArgs({"sweep", ok.string(), "--particles", "lots", "--out", (dir_ / "o").string()});
    EXPECT_EQ(r.code, 2) << r.err;
    EXPECT_TRUE(contains(r.err, "--particles")) << r.err;
    r = runArgs({"sweep", ok.string(), "--strategy", "teapot", "--out", (dir_ / "o").string()});
    EXPECT_EQ(r.code, 2) << r.err;
    EXPECT_FALSE(fs::exists(dir_ / "o" / "runs.csv"));
}

TEST_F(SweepChecks, BadShardExitsTwo) {
    const fs::path file = write("s.toml", tinyToml("s", "particles = [200, 300]\n"));
    for (const char* shard : {"0/3", "4/3", "3", "a/b", "1/0"}) {
        SCOPED_TRACE(shard);
        const fs::path out = dir_ / "out";
        const Outcome r = runArgs({"sweep", file.string(), "--shard", shard, "--out", out.string(), "--no-plots"});
        EXPECT_EQ(r.code, 2) << r.err;
        EXPECT_TRUE(contains(r.err, "--shard")) << r.err;
        EXPECT_FALSE(fs::exists(out / "runs.csv"));
    }
}

TEST_F(SweepChecks, ExistingResultsAreRefusedWithoutResume) {
    const fs::path file = write("x.toml", tinyToml("x", "particles = [200, 300]\n"));
    const fs::path out = dir_ / "out";
    fs::create_directories(out);
    const std::string before = oneRowCsv("x");
    writeFile(out / "runs.csv", before);
    const auto mtime = fs::last_write_time(out / "runs.csv");
    const Outcome r = runArgs({"sweep", file.string(), "--out", out.string(), "--no-plots"});
    EXPECT_EQ(r.code, 2) << r.err;
    EXPECT_TRUE(contains(r.err, "--resume")) << "the message says how to go on: " << r.err;
    EXPECT_EQ(readFile(out / "runs.csv"), before) << "runs.csv was changed";
    EXPECT_EQ(fs::last_write_time(out / "runs.csv"), mtime);
    EXPECT_FALSE(fs::exists(out / "meta.json"));

    // A file that is not a firelab runs.csv is not touched even with --resume.
    const std::string foreign = "x,y\n1,2\n";
    writeFile(out / "runs.csv", foreign);
    const Outcome f = runArgs({"sweep", file.string(), "--out", out.string(), "--no-plots", "--resume"});
    EXPECT_EQ(f.code, 2) << f.err;
    EXPECT_EQ(readFile(out / "runs.csv"), foreign);
}

// The same refusal through the library, by identity.
TEST_F(SweepChecks, TheLibraryRefusesExistingResultsAndBadSettingsBeforeAnyRun) {
    harness::SweepOptions o;
    o.experiment.name = "lib";
    o.experiment.override("particles", "200,300");
    o.csv = dir_ / "runs.csv";
    o.refuseExisting = true;
    const std::string before = oneRowCsv("lib");
    writeFile(o.csv, before);
    EXPECT_EQ(errorOf([&] { harness::runSweep(o); }).code(), ErrorCode::BadValue);
    EXPECT_EQ(readFile(o.csv), before);
    o.experiment.override("frames", "0");
    o.refuseExisting = false;
    EXPECT_EQ(errorOf([&] { harness::runSweep(o); }).code(), ErrorCode::BadValue);
    EXPECT_EQ(readFile(o.csv), before);
}

TEST_F(SweepChecks, BadQualitySettingsExitTwoNamingTheFlag) {
    const fs::path csv = dir_ / "runs.csv";
    const std::vector<std::pair<Strings, std::string>> cases{
        {{"--quality", "--reference", "strategy=quads"}, "--reference"},
        {{"--quality", "--reference", "strategy=points;height=3"}, "'height'"},
        {{"--quality", "--reference", "supersample=0"}, "supersample"},
        {{"--quality-frames", "0"}, "--quality-frames"},
        {{"--quality-metrics", "psnr,vmaf"}, "vmaf"},
        {{"--quality=maybe"}, "--quality"},
        {{"--quality", "--reference", "seeds=0"}, "seeds"},
        {{"--quality", "--reference", "texture=nope.png"}, "nope.png"},  // the reference's sprite, before any run
        {{"--quality", "--save-frames", "/dev/null"}, "not a folder"},
    };
    for (const auto& [extra, named] : cases) {
        SCOPED_TRACE(extra.back());
        Strings args{"run", "--strategy", "points", "--particles", "200", "--csv", csv.string()};
        args.insert(args.end(), extra.begin(), extra.end());
        const Outcome r = runArgs(args);
        EXPECT_EQ(r.code, 2) << r.err;
        EXPECT_TRUE(contains(r.err, named)) << r.err;
        EXPECT_FALSE(fs::exists(csv)) << "a refused run wrote a CSV";
    }
}

// Bad views exit 2 naming the flag, or the file, the line and the key, before anything runs or is written.
TEST_F(SweepChecks, BadViewsExitTwoBeforeAnyRun) {
    const std::string key = "[[key]]\ntime = 0\neye = [3, 1.3, 0]\ntarget = [0, 0.7, 0]\n";
    write("one.toml", key);
    write("same.toml", key + "\n" + key);
    write("nan.toml", key + "\n[[key]]\ntime = 1\neye = [3, nan, 0]\ntarget = [0, 0.7, 0]\n");
    write("text.toml", key + "\n[[key]]\ntime = \"later\"\neye = [3, 1, 0]\ntarget = [0, 0.7, 0]\n");
    write("views.toml", "[experiment]\nname = \"v\"\n[sweep]\ncamera-distance = [1, -2]\n");
    const fs::path csv = dir_ / "r.csv";
    const struct {
        Strings args;
        Strings says;
    } cases[] = {
        {{"--camera-distance", "0"}, {"--camera-distance", "(0, 10000]"}},
        {{"--camera-distance", "-3"}, {"--camera-distance", "-3"}},
        {{"--fov", "170"}, {"--fov", "(1, 170)"}},
        {{"--fov", "1"}, {"--fov", "(1, 170)"}},
        {{"--fov", "x"}, {"--fov", "not a number"}},
        {{"--camera", "path"}, {"--camera path", "--camera-path"}},
        {{"--camera", "path", "--camera-path", (dir_ / "one.toml").string()}, {"one.toml", "at least 2"}},
        {{"--camera", "path", "--camera-path", (dir_ / "same.toml").string()}, {"same.toml:7", "time", "increase"}},
        {{"--camera", "path", "--camera-path", (dir_ / "nan.toml").string()}, {"nan.toml:8", "eye"}},
        {{"--camera", "path", "--camera-path", (dir_ / "text.toml").string()}, {"text.toml:7", "time", "later"}},
        {{"--camera-fade", "3,1"}, {"--camera-fade", "below"}},
    };
    for (const auto& c : cases) {
        Strings args{"run", "--particles", "200", "--frames", "1", "--warmup", "0", "--csv", csv.string()};
        args.insert(args.end(), c.args.begin(), c.args.end());
        const Outcome r = runArgs(args);
        SCOPED_TRACE(c.args[0] + " " + c.args[1]);
        EXPECT_EQ(r.code, 2) << r.err;
        for (const auto& s : c.says) EXPECT_TRUE(contains(r.err, s)) << "stderr lacks '" << s << "': " << r.err;
        EXPECT_FALSE(fs::exists(csv)) << "nothing run";
    }
    const Outcome sweep = runArgs({"sweep", (dir_ / "views.toml").string(), "--out", (dir_ / "sw").string()});
    EXPECT_EQ(sweep.code, 2) << sweep.err;
    EXPECT_TRUE(contains(sweep.err, "views.toml:4")) << sweep.err;
    EXPECT_TRUE(contains(sweep.err, "--camera-distance")) << sweep.err;
    EXPECT_FALSE(fs::exists(dir_ / "sw" / "runs.csv"));
    const Outcome capture = runArgs({"capture", "--camera", "path", "--camera-path", (dir_ / "same.toml").string(),
                                     "--out", (dir_ / "cap").string()});
    EXPECT_EQ(capture.code, 2) << capture.err;
    EXPECT_TRUE(contains(capture.err, "same.toml:7")) << capture.err;
}

// [experiment] baseline names a swept setting and one of its values, or the sweep is refused before any run.
TEST_F(SweepChecks, ABadBaselineIsRefusedBeforeAnyRun) {
    auto toml = [](const std::string& baseline) {
        return "[experiment]\nname = \"base\"\nbaseline = \"" + baseline +
               "\"\n[run]\nwidth = 64\nheight = 48\nwarmup = 1\nframes = 3\nrepetitions = 2\n"
               "[sweep]\nstrategy = [\"points\", \"billboards-cpu\"]\nparticles = [200, 300]\n";
    };
    for (const auto& [baseline, says] : std::vector<std::pair<std::string, std::string>>{
             {"blend=alpha", "blend is not swept; the swept settings are strategy, particles"},
             {"strategy=compute", "strategy is swept over points, billboards-cpu"},
             {"points", "expected KEY=VALUE"}}) {
        SCOPED_TRACE(baseline);
        const fs::path bad = write("bad.toml", toml(baseline)), badOut = dir_ / "bad-out";
        const Outcome b = runArgs({"sweep", bad.string(), "--out", badOut.string(), "--no-plots"});
        EXPECT_EQ(b.code, 2) << b.err;
        EXPECT_TRUE(contains(b.err, says)) << b.err;
        EXPECT_FALSE(fs::exists(badOut / "runs.csv")) << "refused before any run";
    }
}

// `run --csv F.rounds.csv` appended summaries into F.csv's rounds file, and F and F.csv shared one rounds file.
// (That one round may go to any name is a measured run: sweep_e2etest.cpp.)
TEST_F(SweepChecks, RunCsvNamesThatWouldShareARoundsFileAreRefused) {
    for (const auto& [name, repetitions, says] :
         std::vector<std::tuple<std::string, std::string, std::string>>{{"F.rounds.csv", "1", "a rounds file"},
                                                                        {"rounds.csv", "2", "a rounds file"},
                                                                        {"F", "2", "ending in .csv"}}) {
        SCOPED_TRACE(name);
        const Outcome r = runArgs({"run", "--repetitions", repetitions, "--strategy", "points", "--particles", "200",
                                   "--frames", "2", "--csv", (dir_ / name).string()});
        EXPECT_EQ(r.code, 2) << r.err;
        EXPECT_TRUE(contains(r.err, says)) << r.err;
        EXPECT_FALSE(fs::exists(dir_ / name));
    }
}

// `run --repetitions R --csv F` where F's rounds file already holds rounds of the configuration (an earlier or
// interrupted run) would repeat their round numbers: refused, naming the file, before any run; and not as the
// sweep's --resume would be offered, which `run` does not take.
TEST_F(SweepChecks, RunRefusesAConfigurationWhoseRoundsAreAlreadyHeld) {
    const fs::path file =
        write("rep.toml", tinyToml("adhoc", "particles = [200, 300]\n", "strategy = \"points\"\nrepetitions = 2\n"));
    const fs::path held = dir_ / "held";
    writeSweepFolder(held, file);
    fs::copy_file(held / "rounds.csv", dir_ / "mine.rounds.csv");
    const std::string before = readFile(dir_ / "mine.rounds.csv");
    const Outcome again =
        runArgs({"run", "--strategy", "points", "--particles", "300", "--width", "64", "--height", "48", "--warmup",
                 "1", "--frames", "3", "--repetitions", "2", "--csv", (dir_ / "mine.csv").string()});
    EXPECT_EQ(again.code, 2) << again.err;
    EXPECT_TRUE(contains(again.err, "mine.rounds.csv already holds rounds of this configuration")) << again.err;
    EXPECT_FALSE(contains(again.err, "--resume,")) << again.err;
    EXPECT_EQ(readFile(dir_ / "mine.rounds.csv"), before);
    EXPECT_FALSE(fs::exists(dir_ / "mine.csv"));
}

// The explosion's steady state is its smoke's longest life, 2.95 s: an earlier --start-time is refused before
// anything runs, naming the earliest time; a negative one too. (The moments measured: sweep_e2etest.cpp.)
TEST_F(SweepChecks, AStartTimeBeforeTheSteadyStateIsRefused) {
    const Strings base{"run", "--strategy", "billboards-instanced",         "--effect", "explosion", "--frames",
                       "2",   "--csv",      (dir_ / "moments.csv").string()};
    Strings tooEarly = base;
    tooEarly.insert(tooEarly.end(), {"--start-time", "1"});
    const Outcome refused = runArgs(tooEarly);
    EXPECT_EQ(refused.code, 2);
    EXPECT_TRUE(contains(refused.err, "--start-time 1: before the steady state at 2.95 s")) << refused.err;
    EXPECT_TRUE(contains(refused.err, "use 2.95 or later")) << refused.err;
    const Outcome negative = runArgs({"run", "--start-time", "-1"});
    EXPECT_EQ(negative.code, 2);
    EXPECT_TRUE(contains(negative.err, "--start-time")) << negative.err;
    EXPECT_FALSE(fs::exists(dir_ / "moments.csv"));
}

// A list of paths is no list: a path is one value, named whole, never a range.
TEST_F(SweepChecks, ATextureListIsOnePathNamedWhole) {
    const Outcome r = runArgs({"run", "--texture", "a.png,b.png", "--frames", "1", "--csv", (dir_ / "x.csv").string()});
    EXPECT_EQ(r.code, 2) << r.err;
    EXPECT_TRUE(contains(r.err, "a.png,b.png")) << "one path, named whole: " << r.err;
    EXPECT_FALSE(contains(r.err, "range")) << r.err;
    EXPECT_FALSE(fs::exists(dir_ / "x.csv"));
}

// --- what --resume continues -----------------------------------------------------------------------------

class SweepResume : public Cli {
protected:
    Outcome resume(const fs::path& file, const Strings& extra = {}) {
        Strings args{"sweep", file.string(), "--out", (dir_ / "out").string(), "--no-plots", "--resume"};
        args.insert(args.end(), extra.begin(), extra.end());
        return runArgs(args);
    }
};

std::string pointsToml(const std::string& name) {
    return tinyToml(name, "particles = [100, 200, 300]\n", "strategy = \"points\"\n");
}

TEST_F(SweepResume, AnotherConfigurationIsRefusedSayingWhatDiffers) {
    const fs::path file = write("cfg.toml", pointsToml("cfg"));
    const fs::path out = dir_ / "out";
    writeSweepFolder(out, file);
    const std::string csv = readFile(out / "runs.csv"), meta = readFile(out / "meta.json");
    struct Case {
        Strings extra;
        std::string mentions;
    };
    for (const Case& c : std::vector<Case>{{{"--lifetime", "3"}, "lifetime"},
                                           {{"--particles", "100,200"}, "particles"},
                                           {{"--shard", "1/2"}, "shard"},
                                           {{"--strategy", "billboards-cpu"}, "strategy"}}) {
        SCOPED_TRACE(c.mentions);
        const Outcome r = resume(file, c.extra);
        EXPECT_EQ(r.code, 2) << r.err;
        EXPECT_TRUE(contains(r.err, c.mentions)) << r.err;
        EXPECT_TRUE(contains(r.err, "--resume")) << r.err;
    }
    const Outcome r = resume(write("other.toml", pointsToml("other")));
    EXPECT_EQ(r.code, 2) << r.err;
    EXPECT_TRUE(contains(r.err, "experiment: 'cfg' there, 'other' here")) << r.err;
    EXPECT_EQ(readFile(out / "runs.csv"), csv) << "a refused resume changed runs.csv";
    EXPECT_EQ(readFile(out / "meta.json"), meta) << "a refused resume rewrote meta.json";
}

// The configuration a sweep records holds every setting, those not swept too: a change to any is a difference.
TEST_F(SweepResume, TheConfigurationRecordsTheSettingsNotSwept) {
    const fs::path file = write("cfg.toml", pointsToml("cfg"));
    const harness::ExperimentConfig config = harness::describe(harness::loadExperiment(file), file.string());
    bool lifetime = false;
    for (const auto& [name, value] : config.settings) lifetime = lifetime || name == "lifetime";
    EXPECT_TRUE(lifetime) << "a setting that is not swept is recorded";
    ASSERT_EQ(config.axes.size(), 1u);
    EXPECT_EQ(config.axes[0].first, "particles");
}

// Several rounds: more rounds continue the sweep (sweep_e2etest.cpp measures them), another setting is still
// refused, and fewer rounds than the folder holds (meta.json would count fewer than runs.csv summarises) too.
TEST_F(SweepResume, FewerRoundsOrAnotherSettingAreRefused) {
    const fs::path file = write(
        "reps.toml",
        tinyToml("reps", "strategy = [\"points\", \"billboards-cpu\"]\nparticles = [200, 300]\n", "repetitions = 4\n"));
    writeSweepFolder(dir_ / "out", file);
    const std::string rounds = readFile(dir_ / "out" / "rounds.csv");
    const Outcome other = resume(file, {"--frames", "4"});
    EXPECT_EQ(other.code, 2) << other.err;
    EXPECT_TRUE(contains(other.err, "frames")) << other.err;
    const Outcome fewer = resume(file, {"--repetitions", "2"});
    EXPECT_EQ(fewer.code, 2) << fewer.err;
    EXPECT_TRUE(contains(fewer.err, "repetitions: '4' there, '2' here")) << fewer.err;
    EXPECT_EQ(readFile(dir_ / "out" / "rounds.csv"), rounds);
}

// Inputs are recorded by content (meta.json's fingerprints of the experiment, the effect and the sprites): an
// effect edited between a sweep and its --resume is refused, naming it, though its path is the same.
TEST_F(SweepResume, AnInputWhoseContentChangedIsRefusedNamingIt) {
    const fs::path effect =
        write("fx.toml", "[effect]\ndescription = \"a flame\"\n[[layer]]\nname = \"flame\"\nparticles = 200\n");
    const fs::path file = write("fx_sweep.toml", tinyToml("fx", "strategy = [\"points\", \"billboards-instanced\"]\n",
                                                          "effect = \"" + effect.string() + "\"\n"));
    writeSweepFolder(dir_ / "out", file);
    writeFile(effect, readFile(effect) + "size-start = 0.4\n");  // the fire changed, its path did not
    const Outcome changed = resume(file);
    EXPECT_EQ(changed.code, 2) << changed.err;
    EXPECT_TRUE(contains(changed.err, "input " + effect.string() + ": its content changed")) << changed.err;
    EXPECT_EQ(readRunsCsv(dir_ / "out" / "runs.csv").size(), 2u);
}

// --- how settings become runs ----------------------------------------------------------------------------

// The command line over an experiment file, as sweep applies its flags (Experiment::override): a single value
// replaces a swept axis, a list replaces it, a single value overrides [run], a list on a fixed setting makes an
// axis; the runs keep the library's canonical order.
TEST_F(SweepChecks, TheCommandLineOverridesTheExperimentFile) {
    const fs::path file =
        write("ovr.toml", tinyToml("ovr", "strategy = [\"points\", \"billboards-cpu\"]\nparticles = [200, 400]\n"));
    EXPECT_EQ(plannedKeys(file, {{"particles", "300"}}), (Strings{"strategy=points", "strategy=billboards-cpu"}));
    EXPECT_EQ(
        plannedKeys(file, {{"particles", "250,350"}, {"width", "32"}, {"strategy", "points"}, {"height", "24,48"}}),
        (Strings{"height=24;particles=250", "height=24;particles=350", "height=48;particles=250",
                 "height=48;particles=350"}));
    auto e = harness::loadExperiment(file);
    e.override("particles", "300");
    for (const auto& r : harness::expand(e)) {
        EXPECT_EQ(harness::settingText(r.settings, "particles"), "300");
        EXPECT_EQ(harness::settingText(r.settings, "width"), "64") << "the file's [run] value, not the default 1280";
    }
}

// The experiment that `run` and `sweep` make of their setting flags: parsed as both commands declare them
// (app::SettingFlags on a CLI11 command) and applied as they apply them (Experiment::override).
harness::Experiment experimentOfFlags(const Strings& flags) {
    CLI::App command;
    app::SettingFlags settings;
    settings.addTo(command);
    Strings words{"run"};
    words.insert(words.end(), flags.begin(), flags.end());
    std::vector<const char*> argv;
    for (const auto& w : words) argv.push_back(w.c_str());
    command.parse(static_cast<int>(argv.size()), argv.data());
    harness::Experiment e;
    settings.applyTo(e);
    return e;
}

// A vector's commas are its own (its kind says so): --path 0.5,0.1,0.5 is one run; a list of vectors has ';'
// between them, one run each, keyed by the whole vector.
TEST_F(SweepChecks, AVectorValueIsOneRunAndItsListsUseSemicolons) {
    const auto single = harness::expand(experimentOfFlags({"--path", "0.5,0.1,0.5"}));
    ASSERT_EQ(single.size(), 1u) << "--path 0.5,0.1,0.5 is one path, one run";
    EXPECT_EQ(single[0].key, "single");
    EXPECT_EQ(harness::settingText(single[0].settings, "path"), "0.5,0.1,0.5");
    const auto keyed = harness::expand(experimentOfFlags({"--path-freq", "0.5,0.1,0.5;0,0,0"}));
    ASSERT_EQ(keyed.size(), 2u);
    EXPECT_EQ(keyed[0].key, "path-freq=0.5,0.1,0.5");
    EXPECT_EQ(keyed[1].key, "path-freq=0,0,0");
}

// A path is one value whatever it holds: an effect's path through '..' is not a range (it was refused as one);
// the run's effect column holds it as given.
TEST_F(SweepChecks, APathIsOneValueEvenThroughDotDot) {
    const std::string effect = (fs::path(FIRELAB_SOURCE_DIR) / "effects" / ".." / "effects" / "torch.toml").string();
    const auto runs = harness::expand(experimentOfFlags({"--effect", effect}));
    ASSERT_EQ(runs.size(), 1u);
    EXPECT_EQ(runs[0].key, "single");
    EXPECT_EQ(harness::settingText(runs[0].settings, "effect"), effect);
}

}  // namespace
}  // namespace firelab::testing

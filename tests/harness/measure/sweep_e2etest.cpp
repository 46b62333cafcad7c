// The harness end to end through the built binary (FIRELAB_EXE, started with fork + execv so a test can
// signal the exact process): firelab sweep / run / merge / compare measuring tiny runs on whatever GL the
// machine has (headless llvmpipe here). Covers runs.csv contents, meta.json and plots, flags reaching the rows,
// resuming after kill -9, SIGTERM, SIGINT and the other stop signals, rounds, shards joined by merge with its
// plots, quality scoring, one writer across processes, a full disk, and the measurements' own limits. What is
// checked before any run, and what --resume and merge make of a folder, is checked in process (sweep_test.cpp,
// merge_test.cpp, lock_test.cpp). Tests that need a GL context skip, saying why, where none can be made (and
// fail under CI). No test asserts wall-clock speed.
#include <gtest/gtest.h>

#include <fcntl.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <tuple>
#include <utility>
#include <vector>

#include "harness/results/csv.h"
#include "harness/results/merge.h"
#include "harness/results/rounds.h"
#include "harness/results/schema.h"
#include "harness/settings/experiment.h"
#include "harness/draw/scorer.h"
#include "harness/measure/sweep.h"
#include "core/error.h"

#include <nlohmann/json.hpp>

#include "support/scratch_dir.h"
#include "support/sweep_folder.h"

namespace {

namespace fs = std::filesystem;
using namespace std::chrono_literals;
using firelab::harness::readRunsCsv;
using firelab::harness::Row;
using Strings = std::vector<std::string>;
using Clock = std::chrono::steady_clock;

using firelab::testing::countOf;
using firelab::testing::expectComplete;
using firelab::testing::expectWholeRows;
using firelab::testing::keysOf;
using firelab::testing::plannedKeys;
using firelab::testing::readFile;
using firelab::testing::tinyToml;
const auto& slurp = readFile;
std::string headerLine() { return firelab::harness::runsHeaderLine(); }

void writeText(const fs::path& p, const std::string& text) { std::ofstream(p, std::ios::binary) << text; }

bool contains(const std::string& text, const std::string& what) { return text.find(what) != std::string::npos; }

// Starts firelab with `args`, stdin from /dev/null, stdout and stderr into files. Returns the child's pid.
pid_t spawnFirelab(const Strings& args, const fs::path& outFile, const fs::path& errFile) {
    Strings all{FIRELAB_EXE};
    all.insert(all.end(), args.begin(), args.end());
    std::vector<char*> argv;
    for (auto& a : all) argv.push_back(a.data());
    argv.push_back(nullptr);
    const std::string out = outFile.string(), err = errFile.string();
    const pid_t pid = ::fork();
    if (pid == 0) {  // the child: only async-signal-safe calls until execv
        const int in = ::open("/dev/null", O_RDONLY);
        const int o = ::open(out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
        const int e = ::open(err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (in < 0 || o < 0 || e < 0) ::_exit(126);
        ::dup2(in, 0), ::dup2(o, 1), ::dup2(e, 2);
        ::execv(argv[0], argv.data());
        ::_exit(127);
    }
    return pid;
}

struct Outcome {
    bool exited = false;  // normal exit (code) rather than killed by a signal (signal)
    int code = -1;
    int signal = 0;
    std::string out, err;
};

// Waits for `pid`; past `limit` it is killed and the test fails (a hung sweep must not hang the tests).
Outcome waitFor(pid_t pid, std::chrono::seconds limit) {
    Outcome r;
    int status = 0;
    const auto deadline = Clock::now() + limit;
    for (;;) {
        const pid_t w = ::waitpid(pid, &status, WNOHANG);
        if (w == pid) break;
        if (w < 0) {
            ADD_FAILURE() << "waitpid failed";
            return r;
        }
        if (Clock::now() > deadline) {
            ADD_FAILURE() << "firelab did not finish within " << limit.count() << " s; killed";
            ::kill(pid, SIGKILL);
            ::waitpid(pid, &status, 0);
            break;
        }
        std::this_thread::sleep_for(5ms);
    }
    if (WIFEXITED(status)) r.exited = true, r.code = WEXITSTATUS(status);
    if (WIFSIGNALED(status)) r.signal = WTERMSIG(status);
    return r;
}

// Why no GL context can be made here, or "" if one can (asked once per process: `firelab info`).
const std::string& glProblem() {
    static const std::string problem = [] {
        const fs::path base = fs::temp_directory_path() / ("firelab_sweep_glcheck_" + std::to_string(::getpid()));
        const fs::path out = base.string() + ".out", err = base.string() + ".err";
        const Outcome r = waitFor(spawnFirelab({"info"}, out, err), 60s);
        std::string why;
        if (!r.exited || r.code != 0) why = "no GL context (firelab info failed: " + slurp(err) + ")";
        std::error_code ec;
        fs::remove(out, ec), fs::remove(err, ec);
        return why;
    }();
    return problem;
}

// Without a context the test skips, except under CI (CI=true), where that is a failure: CI must prove it.
#define REQUIRE_GL()                                                          \
    do {                                                                      \
        if (!glProblem().empty() && std::getenv("CI")) FAIL() << glProblem(); \
        if (!glProblem().empty()) GTEST_SKIP() << glProblem();                \
    } while (0)

bool matplotlibAvailable() { return std::system("/usr/bin/python3 -c 'import matplotlib' >/dev/null 2>&1") == 0; }

// A column as a number: the whole field must parse, and be finite.
double number(const Row& row, const std::string& column) {
    const std::string& t = row.at(column);
    size_t used = 0;
    double v = std::nan("");
    try {
        v = std::stod(t, &used);
    } catch (const std::exception&) {}
    EXPECT_EQ(used, t.size()) << column << " = '" << t << "' is not a number";
    EXPECT_TRUE(std::isfinite(v)) << column << " = '" << t << "'";
    return v;
}

// Runs that last ~0.15 s each whatever the machine (the frame count is capped by max-seconds), so a
// signal can land in the middle of a sweep: 3 strategies x 4 counts = 12 runs.
std::string slowToml(const std::string& name) {
    return "[experiment]\nname = \"" + name +
           "\"\n\n[run]\nwidth = 160\nheight = 120\nwarmup = 1\nframes = 100000\nmax-seconds = 0.15\n\n[sweep]\n"
           "strategy = [\"points\", \"billboards-instanced\", \"billboards-cpu\"]\nparticles = [200, 300, 400, 500]\n";
}

class HarnessSweep : public firelab::testing::ScratchDirTest {
protected:
    pid_t start(const Strings& args) {
        ++calls_;
        return spawnFirelab(args, outFile(), errFile());
    }
    Outcome finish(pid_t pid, std::chrono::seconds limit = 60s) const {
        Outcome r = waitFor(pid, limit);
        r.out = slurp(outFile());
        r.err = slurp(errFile());
        return r;
    }
    Outcome run(const Strings& args, std::chrono::seconds limit = 60s) { return finish(start(args), limit); }

    // Polls until `csv` holds at least `rows` whole rows, the child ends, or 30 s pass.
    static size_t waitForRows(const fs::path& csv, size_t rows, pid_t pid) {
        const auto deadline = Clock::now() + 30s;
        size_t n = 0;
        while (Clock::now() < deadline) {
            n = readRunsCsv(csv).size();
            if (n >= rows) break;
            siginfo_t info{};
            if (::waitid(P_PID, static_cast<id_t>(pid), &info, WEXITED | WNOHANG | WNOWAIT) == 0 && info.si_pid == pid)
                break;  // ended (not reaped: finish() collects it)
            std::this_thread::sleep_for(2ms);
        }
        return n;
    }

    // SIGTERM or SIGINT mid-sweep: the run in progress is discarded, whole rows stay, exit 130; then
    // (if `resume`) --resume completes the sweep.
    void interruptAndResume(const fs::path& file, int signal, bool resume) {
        const Strings planned = plannedKeys(file);
        ASSERT_EQ(planned.size(), 12u);
        const fs::path out = dir_ / "out", csv = out / "runs.csv";
        const pid_t pid = start({"sweep", file.string(), "--out", out.string(), "--no-plots"});
        const size_t seen = waitForRows(csv, 1, pid);
        ASSERT_EQ(::kill(pid, signal), 0);
        const Outcome stopped = finish(pid);
        ASSERT_TRUE(stopped.exited) << "killed by signal " << stopped.signal << " instead of stopping cleanly";
        EXPECT_EQ(stopped.code, 130) << seen << " rows seen; " << stopped.err;
        EXPECT_TRUE(contains(stopped.err, "interrupted")) << stopped.err;
        expectWholeRows(csv);
        const auto rows = readRunsCsv(csv);
        ASSERT_GE(rows.size(), 1u);
        ASSERT_LT(rows.size(), planned.size());
        for (const auto& row : rows) EXPECT_EQ(row.at("status"), "ok") << "an interrupted run was written";
        const std::string meta = slurp(out / "meta.json");
        EXPECT_TRUE(contains(meta, "\"finished\": \"\"")) << "an interrupted sweep is not finished: " << meta;
        if (!resume) return;

        const Outcome resumed = run({"sweep", file.string(), "--out", out.string(), "--no-plots", "--resume"});
        ASSERT_TRUE(resumed.exited);
        ASSERT_EQ(resumed.code, 0) << resumed.err;
        EXPECT_TRUE(contains(resumed.err, std::to_string(rows.size()) + " already present")) << resumed.err;
        expectComplete(csv, planned);
        EXPECT_FALSE(contains(slurp(out / "meta.json"), "\"finished\": \"\""));
    }

    fs::path outFile() const { return dir_ / ("stdout." + std::to_string(calls_)); }
    fs::path errFile() const { return dir_ / ("stderr." + std::to_string(calls_)); }

    int calls_ = 0;
};

// --- end to end -------------------------------------------------------------------------------------

TEST_F(HarnessSweep, EndToEndSweepWritesRunsMetaAndPlots) {
    REQUIRE_GL();
    const fs::path file = write(
        "e2e.toml", tinyToml("e2e", "strategy = [\"points\", \"billboards-instanced\"]\nparticles = [200, 400]\n"));
    const fs::path out = dir_ / "out";
    const Outcome r = run({"sweep", file.string(), "--out", out.string()});
    ASSERT_TRUE(r.exited);
    ASSERT_EQ(r.code, 0) << r.err;

    const fs::path csv = out / "runs.csv";
    expectComplete(csv, plannedKeys(file));
    const auto rows = readRunsCsv(csv);
    ASSERT_EQ(rows.size(), 4u);
    EXPECT_EQ(keysOf(rows),
              (Strings{"strategy=points;particles=200", "strategy=points;particles=400",
                       "strategy=billboards-instanced;particles=200", "strategy=billboards-instanced;particles=400"}));
    for (const auto& row : rows) {
        SCOPED_TRACE(row.at("run_key"));
        EXPECT_EQ(row.at("experiment"), "e2e");
        for (const char* c : {"particles",
                              "alive_mean",
                              "width",
                              "height",
                              "seed",
                              "dt",
                              "warmup",
                              "frames",
                              "frame_ms_median",
                              "frame_ms_mean",
                              "frame_ms_p5",
                              "frame_ms_p95",
                              "frame_ms_p99",
                              "frame_ms_stddev",
                              "frame_ms_min",
                              "frame_ms_max",
                              "fps",
                              "sim_ms_median",
                              "upload_ms_median",
                              "draw_ms_median",
                              "cpu_ms_median",
                              "cpu_utilisation",
                              "harness_ms_mean",
                              "threads",
                              "seconds"})
            number(row, c);
        if (!row.at("gpu_ms_median").empty()) number(row, "gpu_ms_median");  // empty when no query came back
        EXPECT_EQ(row.at("width"), "64");
        EXPECT_EQ(row.at("height"), "48");
        EXPECT_EQ(row.at("frames"), "3");
        EXPECT_EQ(row.at("warmup"), "1");
        const double median = number(row, "frame_ms_median");
        EXPECT_GT(median, 0.0);
        // fps = 1000 / median, both printed to 6 significant digits.
        EXPECT_NEAR(number(row, "fps"), 1000.0 / median, 1e-4 * 1000.0 / median);
        EXPECT_LE(number(row, "frame_ms_min"), number(row, "frame_ms_p5"));
        EXPECT_LE(number(row, "frame_ms_p5"), median);
        EXPECT_LE(median, number(row, "frame_ms_p95"));
        EXPECT_LE(number(row, "frame_ms_p95"), number(row, "frame_ms_p99"));
        EXPECT_LE(number(row, "frame_ms_p99"), number(row, "frame_ms_max"));
        EXPECT_GE(number(row, "frame_ms_stddev"), 0.0);
        // CPU-simulated strategies start at steady state: the live count is near the requested one.
        const double particles = number(row, "particles");
        EXPECT_NEAR(number(row, "alive_mean"), particles, 0.15 * particles);
        // The harness's own cost per frame is measured (its size is not asserted: no speed thresholds).
        EXPECT_FALSE(row.at("harness_ms_mean").empty());
        EXPECT_GE(number(row, "harness_ms_mean"), -1e-3);
        EXPECT_FALSE(row.at("gl_renderer").empty());
        EXPECT_FALSE(row.at("gl_version").empty());
        EXPECT_EQ(row.at("started").size(), 20u);  // 2026-01-01T00:00:00Z
        EXPECT_EQ(row.at("started").back(), 'Z');
    }

    const std::string meta = slurp(out / "meta.json");
    ASSERT_FALSE(meta.empty()) << "no meta.json";
    for (const char* key : {"\"gl\"", "\"git_commit\"", "\"command_line\"", "\"timer_queries_meaningful\"",
                            "\"experiment\": \"e2e\"", "\"machine\"", "\"config\""})
        EXPECT_TRUE(contains(meta, key)) << key << " missing from meta.json";
    EXPECT_TRUE(contains(meta, "\"planned\": 4")) << meta;
    EXPECT_TRUE(contains(meta, "\"done\": 4")) << meta;
    EXPECT_TRUE(contains(meta, file.string())) << "the command line is recorded";

    if (matplotlibAvailable()) {
        for (const char* png : {"frame_time.png", "fps.png", "split.png"}) {
            EXPECT_TRUE(fs::exists(out / png)) << png << "\n" << r.err;
            if (fs::exists(out / png)) {
                EXPECT_GT(fs::file_size(out / png), 1000u) << png;
            }
        }
    } else {
        EXPECT_TRUE(contains(r.err, "warning")) << "no plots and no warning:\n" << r.err;
    }
}

TEST_F(HarnessSweep, NoPlotsWritesNoPictures) {
    REQUIRE_GL();
    const fs::path file = write("np.toml", tinyToml("np", "particles = [200]\n", "strategy = \"points\"\n"));
    const Outcome r = run({"sweep", file.string(), "--out", (dir_ / "out").string(), "--no-plots"});
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_TRUE(fs::exists(dir_ / "out" / "meta.json"));
    EXPECT_FALSE(fs::exists(dir_ / "out" / "fps.png"));
    expectComplete(dir_ / "out" / "runs.csv", {"particles=200"});
}

TEST_F(HarnessSweep, RunCsvAppendsWithOneHeader) {
    REQUIRE_GL();
    const fs::path csv = dir_ / "adhoc.csv";
    const Strings tiny{"--particles", "200", "--width",  "64", "--height", "48",
                       "--warmup",    "1",   "--frames", "3",  "--csv",    csv.string()};
    Strings first{"run", "--strategy", "points"};
    first.insert(first.end(), tiny.begin(), tiny.end());
    Outcome r = run(first);
    ASSERT_EQ(r.code, 0) << r.err;
    Strings second{"run", "--strategy", "billboards-cpu", "--label", "second, \"quoted\""};
    second.insert(second.end(), tiny.begin(), tiny.end());
    r = run(second);
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_TRUE(contains(r.out, "billboards-cpu")) << r.out;  // one line per run on stdout

    expectWholeRows(csv);
    const auto rows = readRunsCsv(csv);
    ASSERT_EQ(rows.size(), 2u);
    EXPECT_EQ(rows[0].at("experiment"), "adhoc");
    EXPECT_EQ(rows[0].at("run_key"), "single");
    EXPECT_EQ(rows[0].at("strategy"), "points");
    EXPECT_EQ(rows[1].at("strategy"), "billboards-cpu");
    EXPECT_EQ(rows[1].at("label"), "second, \"quoted\"");
    for (const auto& row : rows) EXPECT_EQ(row.at("status"), "ok");

    // A list on `run` makes a sweep axis, appended to the same file.
    Strings third{"run", "--strategy", "points,point-sprites"};
    third.insert(third.end(), tiny.begin(), tiny.end());
    r = run(third);
    ASSERT_EQ(r.code, 0) << r.err;
    expectWholeRows(csv);
    const auto all = readRunsCsv(csv);
    ASSERT_EQ(all.size(), 4u);
    EXPECT_EQ(all[2].at("run_key"), "strategy=points");
    EXPECT_EQ(all[3].at("run_key"), "strategy=point-sprites");
}

// Flags set every render option and runs.csv records each in its column; a sweep over hull is two runs
// with two keys; a --config file's options stay unless a flag given overrides them.
TEST_F(HarnessSweep, RunsCsvRecordsEveryRenderOption) {
    REQUIRE_GL();
    const fs::path csv = dir_ / "options.csv";
    const Strings tiny{"run",      "--particles", "200",      "--width", "64",    "--height",  "48",
                       "--warmup", "1",           "--frames", "2",       "--csv", csv.string()};
    Strings flags = tiny;
    flags.insert(flags.end(),
                 {"--particle-scale", "0.25", "--upsample", "bilinear", "--edge-fixup", "--hull", "quad,8", "--filter",
                  "nearest", "--hdr", "--tonemap", "reinhard", "--exposure", "2.5", "--soft", "0.3"});
    Outcome r = run(flags);
    ASSERT_EQ(r.code, 0) << r.err;
    expectWholeRows(csv);
    auto rows = readRunsCsv(csv);
    ASSERT_EQ(rows.size(), 2u);
    EXPECT_EQ(keysOf(rows), (Strings{"hull=quad", "hull=8"}));
    EXPECT_EQ(rows[0].at("hull"), "quad");
    EXPECT_EQ(rows[1].at("hull"), "8");
    const std::map<std::string, std::string> expected{
        {"particle_scale", "0.25"}, {"upsample", "bilinear"}, {"edge_fixup", "true"},
        {"filter", "nearest"},      {"hdr", "true"},          {"tonemap", "reinhard"},
        {"exposure", "2.5"},        {"soft", "0.3"}};
    for (const auto& row : rows) {
        EXPECT_EQ(row.at("status"), "ok");
        for (const auto& [column, value] : expected) EXPECT_EQ(row.at(column), value) << column;
    }

    // Only the flags given override the file: --hdr=false turns hdr off, the file's hull and exposure stay.
    writeText(dir_ / "cfg.toml", "[run]\nhdr = true\nhull = 8\nexposure = 4\n");
    Strings withConfig = tiny;
    withConfig.insert(withConfig.end(), {"--config", (dir_ / "cfg.toml").string(), "--hdr=false"});
    r = run(withConfig);
    ASSERT_EQ(r.code, 0) << r.err;
    rows = readRunsCsv(csv);
    ASSERT_EQ(rows.size(), 3u);
    EXPECT_EQ(rows[2].at("hdr"), "false");
    EXPECT_EQ(rows[2].at("hull"), "8");
    EXPECT_EQ(rows[2].at("exposure"), "4");
    EXPECT_EQ(rows[2].at("tonemap"), "aces");  // the default
}

// --- overrides --------------------------------------------------------------------------------------

TEST_F(HarnessSweep, CommandLineOverridesTheExperimentFile) {
    REQUIRE_GL();
    const fs::path file =
        write("ovr.toml", tinyToml("ovr", "strategy = [\"points\", \"billboards-cpu\"]\nparticles = [200, 400]\n"));

    // A single value replaces the swept axis.
    Outcome r = run({"sweep", file.string(), "--particles", "300", "--out", (dir_ / "single").string(), "--no-plots"});
    ASSERT_EQ(r.code, 0) << r.err;
    const Strings singleKeys = plannedKeys(file, {{"particles", "300"}});
    EXPECT_EQ(singleKeys, (Strings{"strategy=points", "strategy=billboards-cpu"}));
    expectComplete(dir_ / "single" / "runs.csv", singleKeys);
    for (const auto& row : readRunsCsv(dir_ / "single" / "runs.csv")) {
        EXPECT_EQ(row.at("particles"), "300");
        EXPECT_EQ(row.at("width"), "64");  // the file's [run] value, not the default 1280
    }

    // A list replaces the axis; a single value overrides [run]; a list on a fixed setting makes an axis.
    r = run({"sweep", file.string(), "--particles", "250,350", "--width", "32", "--strategy", "points", "--height",
             "24,48", "--out", (dir_ / "list").string(), "--no-plots"});
    ASSERT_EQ(r.code, 0) << r.err;
    const Strings listKeys =
        plannedKeys(file, {{"particles", "250,350"}, {"width", "32"}, {"strategy", "points"}, {"height", "24,48"}});
    EXPECT_EQ(listKeys, (Strings{"height=24;particles=250", "height=24;particles=350", "height=48;particles=250",
                                 "height=48;particles=350"}));
    expectComplete(dir_ / "list" / "runs.csv", listKeys);
    const auto rows = readRunsCsv(dir_ / "list" / "runs.csv");
    ASSERT_EQ(rows.size(), 4u);
    EXPECT_EQ(keysOf(rows), listKeys);  // the CLI runs them in the library's order
    for (const auto& row : rows) {
        EXPECT_EQ(row.at("width"), "32");
        EXPECT_EQ(row.at("strategy"), "points");
    }
    EXPECT_EQ(rows[3].at("height"), "48");
    EXPECT_EQ(rows[3].at("particles"), "350");
}


// --- interruption and resume ------------------------------------------------------------------------

TEST_F(HarnessSweep, ResumeAfterKill9CompletesEveryRunExactlyOnce) {
    REQUIRE_GL();
    const fs::path file = write("slow.toml", slowToml("slow"));
    const Strings planned = plannedKeys(file);
    ASSERT_EQ(planned.size(), 12u);
    const fs::path out = dir_ / "out", csv = out / "runs.csv";
    const Strings args{"sweep", file.string(), "--out", out.string(), "--no-plots"};

    const pid_t pid = start(args);
    const size_t seen = waitForRows(csv, 2, pid);
    ASSERT_EQ(::kill(pid, SIGKILL), 0);
    const Outcome killed = finish(pid);
    ASSERT_FALSE(killed.exited) << "the sweep ended before it could be killed (" << seen << " rows): " << killed.err;
    EXPECT_EQ(killed.signal, SIGKILL);
    const auto before = readRunsCsv(csv);
    ASSERT_GE(before.size(), 2u);
    ASSERT_LT(before.size(), planned.size());

    // A kill in the middle of a write leaves a torn last line; make one (unless the kill did), naming a
    // run still to do.
    std::string text = slurp(csv);
    const std::string wholeRows = text.substr(0, text.rfind('\n') + 1);
    const std::string torn = "slow,,strategy=billboards-cpu;particles=500,billboards-cpu,circle,norm";
    if (text == wholeRows) writeText(csv, text + torn);
    EXPECT_EQ(readRunsCsv(csv).size(), before.size()) << "the torn line counts as a row";

    const Outcome resumed = run({"sweep", file.string(), "--out", out.string(), "--no-plots", "--resume"});
    ASSERT_TRUE(resumed.exited);
    ASSERT_EQ(resumed.code, 0) << resumed.err;
    EXPECT_TRUE(contains(resumed.err, std::to_string(before.size()) + " already present")) << resumed.err;
    expectComplete(csv, planned);
    text = slurp(csv);
    // The rows written before the kill are kept as they were, in their places, every figure the same; only
    // canary_off is set again once the whole sweep's canary median is known (sweep.cpp flagCanary).
    const auto after = readRunsCsv(csv);
    ASSERT_GE(after.size(), before.size());
    for (size_t i = 0; i < before.size(); ++i) {
        SCOPED_TRACE(before[i].at("run_key"));
        Row kept = after[i], was = before[i];
        kept.erase("canary_off"), was.erase("canary_off");
        EXPECT_EQ(kept, was) << "a row written before the kill was changed";
    }
    EXPECT_FALSE(contains(text, torn + "\n")) << "the torn line was kept";
    EXPECT_FALSE(contains(text, "norm\n"));
    EXPECT_TRUE(fs::exists(out / "meta.json"));
}

// --repetitions: every configuration once per round in rounds.csv, runs.csv one summary per configuration;
// --resume continues at round granularity (only the rounds missing run again).
TEST_F(HarnessSweep, RepetitionsWriteRoundsAndResumeContinuesByRound) {
    REQUIRE_GL();
    const fs::path file = write(
        "reps.toml",
        tinyToml("reps", "strategy = [\"points\", \"billboards-cpu\"]\nparticles = [200, 300]\n", "repetitions = 3\n"));
    const fs::path out = dir_ / "out";
    const Strings args{"sweep", file.string(), "--out", out.string(), "--no-plots"};
    const Outcome first = run(args);
    ASSERT_TRUE(first.exited);
    ASSERT_EQ(first.code, 0) << first.err;
    auto rounds = readRunsCsv(out / "rounds.csv");
    ASSERT_EQ(rounds.size(), 12u);
    std::map<std::string, std::set<std::string>> roundsOf;
    for (const auto& r : rounds) {
        EXPECT_EQ(r.at("rounds"), "1");
        EXPECT_EQ(r.at("frame_ms_ci_low"), r.at("frame_ms_median"));
        roundsOf[r.at("run_key")].insert(r.at("round"));
    }
    ASSERT_EQ(roundsOf.size(), 4u);
    for (const auto& [key, set] : roundsOf) EXPECT_EQ(set, (std::set<std::string>{"1", "2", "3"})) << key;
    // Round 1 in the experiment's order would be points first; the rounds are shuffled, not all alike.
    std::set<std::string> orders;
    for (size_t r = 0; r < 3; ++r) {
        std::string order;
        for (size_t i = 0; i < 4; ++i) order += rounds[r * 4 + i].at("run_key") + "|";
        orders.insert(order);
    }
    EXPECT_GT(orders.size(), 1u) << "every round ran in the same order";
    const auto summary = readRunsCsv(out / "runs.csv");
    ASSERT_EQ(summary.size(), 4u);
    for (const auto& r : summary) {
        EXPECT_EQ(r.at("rounds"), "3");
        EXPECT_EQ(r.at("round"), "");
        const double lo = std::stod(r.at("frame_ms_ci_low")), med = std::stod(r.at("frame_ms_median")),
                     hi = std::stod(r.at("frame_ms_ci_high"));
        EXPECT_LE(lo, med);
        EXPECT_LE(med, hi);
        EXPECT_EQ(r.at("frames"), "9");
    }
    // Lose the last round's last two rows (as if interrupted there): --resume measures exactly those.
    std::string text = slurp(out / "rounds.csv");
    for (int i = 0; i < 2; ++i) text = text.substr(0, text.rfind('\n', text.size() - 2) + 1);
    writeText(out / "rounds.csv", text);
    ASSERT_EQ(readRunsCsv(out / "rounds.csv").size(), 10u);
    const Outcome resumed = run({"sweep", file.string(), "--out", out.string(), "--no-plots", "--resume"});
    ASSERT_TRUE(resumed.exited);
    ASSERT_EQ(resumed.code, 0) << resumed.err;
    EXPECT_TRUE(contains(resumed.err, "2 run(s) measured")) << resumed.err;
    EXPECT_TRUE(contains(resumed.err, "10 already present")) << resumed.err;
    EXPECT_EQ(readRunsCsv(out / "rounds.csv").size(), 12u);
    for (const auto& r : readRunsCsv(out / "runs.csv")) EXPECT_EQ(r.at("rounds"), "3");
    // More rounds continue the same sweep (another configuration, or fewer rounds, is refused: sweep_test.cpp).
    const Outcome more =
        run({"sweep", file.string(), "--out", out.string(), "--no-plots", "--resume", "--repetitions", "4"});
    ASSERT_EQ(more.code, 0) << more.err;
    EXPECT_EQ(readRunsCsv(out / "rounds.csv").size(), 16u);
    for (const auto& r : readRunsCsv(out / "runs.csv")) EXPECT_EQ(r.at("rounds"), "4");
}

// meta.json records each input file's content hash (the experiment, the effect, the sprites), and --resume goes
// on when nothing changed. (That it refuses a changed one, naming it: sweep_test.cpp.)
TEST_F(HarnessSweep, MetaJsonFingerprintsEachInputAndAnUnchangedOneResumes) {
    REQUIRE_GL();
    const fs::path effect =
        write("fx.toml", "[effect]\ndescription = \"a flame\"\n[[layer]]\nname = \"flame\"\nparticles = 200\n");
    const fs::path file = write("fx_sweep.toml", tinyToml("fx", "strategy = [\"points\", \"billboards-instanced\"]\n",
                                                          "effect = \"" + effect.string() + "\"\n"));
    const fs::path out = dir_ / "out";
    const Strings args{"sweep", file.string(), "--out", out.string(), "--no-plots"};
    ASSERT_EQ(run(args).code, 0);
    const std::string meta = slurp(out / "meta.json");
    for (const std::string& input : Strings{file.string(), effect.string(), "textures/flame.png"})
        EXPECT_TRUE(contains(meta, "\"" + input + "\": \"fnv1a64:")) << input << " in " << meta;
    Strings resume = args;
    resume.push_back("--resume");
    const Outcome same = run(resume);
    EXPECT_EQ(same.code, 0) << same.err;
    EXPECT_TRUE(contains(same.err, "2 already present")) << same.err;
}

// [experiment] baseline: the sweep writes ratios.csv against it, the CPU time's ratio beside the wall time's,
// listed by compare --metric cpu. (A baseline that is not swept is refused before any run: sweep_test.cpp.)
TEST_F(HarnessSweep, AnExperimentsBaselineGivesRatiosOfTheWallAndTheCpuTime) {
    REQUIRE_GL();
    auto toml = [](const std::string& baseline) {
        return "[experiment]\nname = \"base\"\nbaseline = \"" + baseline +
               "\"\n[run]\nwidth = 64\nheight = 48\nwarmup = 1\nframes = 3\nrepetitions = 2\n"
               "[sweep]\nstrategy = [\"points\", \"billboards-cpu\"]\nparticles = [200, 300]\n";
    };
    const fs::path good = write("good.toml", toml("strategy=points")), out = dir_ / "out";
    const Outcome r = run({"sweep", good.string(), "--out", out.string(), "--no-plots"});
    ASSERT_EQ(r.code, 0) << r.err;
    const std::string ratios = slurp(out / "ratios.csv");
    EXPECT_TRUE(contains(ratios, "strategy=billboards-cpu;particles=200")) << ratios;
    EXPECT_EQ(countOf(ratios, "\n"), 3u) << "a header and one row per non-baseline configuration: " << ratios;
    EXPECT_TRUE(contains(ratios, "cpu_ratio_median")) << ratios;
    const Outcome cpu =
        run({"compare", out.string(), "--baseline", "strategy=points", "--metric", "cpu", "--no-plots"});
    EXPECT_EQ(cpu.code, 0) << cpu.err;
    EXPECT_TRUE(contains(cpu.out, "cpu ratio [95% interval]")) << cpu.out;
    EXPECT_FALSE(contains(cpu.out, "(none recorded)")) << cpu.out;
    EXPECT_EQ(run({"compare", out.string(), "--baseline", "strategy=points", "--metric", "wall"}).code, 2);
}

// firelab run with --repetitions: rounds beside the CSV, one summary row per configuration appended.
TEST_F(HarnessSweep, RunWithRepetitionsAppendsSummariesAndKeepsRoundsBeside) {
    REQUIRE_GL();
    const fs::path csv = dir_ / "mine.csv";
    const Outcome r = run({"run", "--strategy", "points", "--particles", "200,300", "--width", "64", "--height", "48",
                           "--warmup", "1", "--frames", "3", "--repetitions", "2", "--csv", csv.string()});
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_EQ(readRunsCsv(dir_ / "mine.rounds.csv").size(), 4u);
    const auto rows = readRunsCsv(csv);
    ASSERT_EQ(rows.size(), 2u);
    for (const auto& row : rows) EXPECT_EQ(row.at("rounds"), "2");
    // Another count is a new configuration (the same one again is refused: sweep_test.cpp).
    const Outcome other = run({"run", "--strategy", "points", "--particles", "400", "--width", "64", "--height", "48",
                               "--warmup", "1", "--frames", "3", "--repetitions", "2", "--csv", csv.string()});
    EXPECT_EQ(other.code, 0) << other.err;
    EXPECT_EQ(readRunsCsv(dir_ / "mine.rounds.csv").size(), 6u);
}

TEST_F(HarnessSweep, SigtermStopsWith130AndResumeCompletes) {
    REQUIRE_GL();
    interruptAndResume(write("term.toml", slowToml("term")), SIGTERM, true);
}

TEST_F(HarnessSweep, SigintStopsWith130) {
    REQUIRE_GL();
    interruptAndResume(write("int.toml", slowToml("int")), SIGINT, false);
}

// Issue 23: SIGHUP (a closed terminal), SIGPIPE, SIGALRM and SIGUSR1/2 ended the process at once, skipping
// the graceful stop. Each now stops the sweep as SIGTERM does: whole rows, exit 130, resumable.
TEST_F(HarnessSweep, OtherEndingSignalsStopGracefully) {
    REQUIRE_GL();
    for (const int signal : {SIGHUP, SIGPIPE, SIGALRM, SIGUSR1}) {
        SCOPED_TRACE(signal);
        const std::string name = "sig" + std::to_string(signal);
        interruptAndResume(write(name + ".toml", slowToml(name)), signal, signal == SIGHUP);
        fs::remove_all(dir_ / "out");
    }
}

// --- shards and merge -------------------------------------------------------------------------------

TEST_F(HarnessSweep, ShardsAreDisjointAndMergeJoinsThem) {
    REQUIRE_GL();
    const fs::path file = write("sh.toml", tinyToml("sh", "particles = \"100..700+100\"\n", "strategy = \"points\"\n"));
    const Strings planned = plannedKeys(file);
    ASSERT_EQ(planned.size(), 7u);
    std::vector<fs::path> shards;
    std::set<std::string> unionKeys;
    for (size_t k = 1; k <= 3; ++k) {
        SCOPED_TRACE("shard " + std::to_string(k));
        const fs::path out = dir_ / ("shard" + std::to_string(k));
        const std::string spec = std::to_string(k) + "/3";
        const Outcome r = run({"sweep", file.string(), "--shard", spec, "--out", out.string(), "--no-plots"});
        ASSERT_EQ(r.code, 0) << r.err;
        shards.push_back(out);
        // Shard K of N runs the runs whose index in the full cross product is K-1 modulo N.
        Strings expected;
        for (size_t i = k - 1; i < planned.size(); i += 3) expected.push_back(planned[i]);
        expectComplete(out / "runs.csv", expected);
        EXPECT_EQ(keysOf(readRunsCsv(out / "runs.csv")), expected);
        for (const auto& key : expected) EXPECT_TRUE(unionKeys.insert(key).second) << key << " is in two shards";
        const std::string meta = slurp(out / "meta.json");
        EXPECT_TRUE(contains(meta, "\"shard\": \"" + spec + "\"")) << meta;
        EXPECT_TRUE(contains(meta, "\"planned\": 7")) << meta;
    }
    EXPECT_EQ(unionKeys, std::set<std::string>(planned.begin(), planned.end()));

    const fs::path merged = dir_ / "merged";
    Strings args{"merge"};
    for (const auto& s : shards) args.push_back(s.string());
    args.insert(args.end(), {"--out", merged.string()});
    const Outcome m = run(args);
    ASSERT_EQ(m.code, 0) << m.err;
    expectComplete(merged / "runs.csv", planned);
    const std::string meta = slurp(merged / "meta.json");
    ASSERT_FALSE(meta.empty()) << "merge wrote no meta.json";
    EXPECT_TRUE(contains(meta, "\"shards\"")) << meta;
    EXPECT_TRUE(contains(meta, "\"runs\": 7")) << meta;
    for (const char* spec : {"1/3", "2/3", "3/3"}) EXPECT_TRUE(contains(meta, spec)) << spec;
    if (matplotlibAvailable()) {
        EXPECT_TRUE(fs::exists(merged / "frame_time.png")) << m.err;
    }
}

// With a baseline a shard takes whole groups: a count's points and point-sprites (the pair its ratio is made of)
// are measured in the same shard, dealt by the group's first index (issue #36: a merged sweep paired runs from
// different machines).
TEST_F(HarnessSweep, ShardsKeepABaselinesGroupTogether) {
    REQUIRE_GL();
    const fs::path file = write("pair.toml",
                                "[experiment]\nname = \"pair\"\nbaseline = \"strategy=points\"\n"
                                "[run]\nwidth = 32\nheight = 32\nwarmup = 0\nframes = 2\n"
                                "[sweep]\nstrategy = [\"points\", \"point-sprites\"]\n"
                                "particles = [100, 200, 300]\n");
    const Strings planned = plannedKeys(file);
    ASSERT_EQ(planned.size(), 6u);
    std::set<std::string> unionKeys;
    for (size_t k = 1; k <= 2; ++k) {
        SCOPED_TRACE("shard " + std::to_string(k));
        const fs::path out = dir_ / ("pair" + std::to_string(k));
        const Outcome r =
            run({"sweep", file.string(), "--shard", std::to_string(k) + "/2", "--out", out.string(), "--no-plots"});
        ASSERT_EQ(r.code, 0) << r.err;
        std::map<std::string, std::set<std::string>> strategiesByCount;
        for (const auto& key : keysOf(readRunsCsv(out / "runs.csv"))) {
            EXPECT_TRUE(unionKeys.insert(key).second) << key << " is in two shards";
            const size_t p = key.find("particles=");
            ASSERT_NE(p, std::string::npos) << key;
            strategiesByCount[key.substr(p, key.find(';', p) - p)].insert(key.substr(0, p));
        }
        // Shard 1: the groups of 100 and 300 particles (first indices 0 and 2); shard 2: 200 (index 1).
        EXPECT_EQ(strategiesByCount.size(), k == 1 ? 2u : 1u);
        for (const auto& [count, strategies] : strategiesByCount) EXPECT_EQ(strategies.size(), 2u) << count;
    }
    EXPECT_EQ(unionKeys, std::set<std::string>(planned.begin(), planned.end()));

    // merge writes what the whole sweep writes: ratios.csv too, a ratio per compared configuration.
    const fs::path merged = dir_ / "pair-merged";
    const Outcome m = run({"merge", (dir_ / "pair1").string(), (dir_ / "pair2").string(), "--out", merged.string()});
    ASSERT_EQ(m.code, 0) << m.err;
    const std::string ratios = slurp(merged / "ratios.csv");
    for (const char* count : {"particles=100", "particles=200", "particles=300"})
        EXPECT_TRUE(contains(ratios, std::string("strategy=point-sprites;") + count)) << ratios;
    EXPECT_TRUE(contains(slurp(merged / "meta.json"), "\"baseline\": \"strategy=points\"")) << m.err;

    // Shards that split a pair, as run-by-run dealing did before issue #36: the same sweep without its baseline
    // (each run its own group, dealt by index), its shards then said to have had one. Refused, naming both runs.
    std::string text = slurp(file);
    text.replace(text.find("baseline = "), std::string("baseline = \"strategy=points\"\n").size(), "");
    const fs::path unpaired = write("pair-unpaired.toml", text);
    Strings split{"merge"};
    for (size_t k = 1; k <= 2; ++k) {
        const fs::path out = dir_ / ("split" + std::to_string(k));
        ASSERT_EQ(
            run({"sweep", unpaired.string(), "--shard", std::to_string(k) + "/2", "--out", out.string(), "--no-plots"})
                .code,
            0);
        std::string meta = slurp(out / "meta.json");
        const size_t at = meta.find("\"baseline\": \"\"");
        ASSERT_NE(at, std::string::npos) << meta;
        meta.replace(at, std::string("\"baseline\": \"\"").size(), "\"baseline\": \"strategy=points\"");
        std::ofstream(out / "meta.json") << meta;
        split.push_back(out.string());
    }
    split.insert(split.end(), {"--out", (dir_ / "split-merged").string()});
    const Outcome refused = run(split);
    EXPECT_EQ(refused.code, 2) << refused.err;
    EXPECT_TRUE(contains(refused.err, "measured in different shards")) << refused.err;
    EXPECT_FALSE(fs::exists(dir_ / "split-merged" / "runs.csv"));
}

}  // namespace

namespace {

// --- quality (--quality, [quality], --save-frames) ------------------------------------------------

TEST_F(HarnessSweep, QualitySweepScoresEveryRunAndWritesFramesParetoAndReport) {
    REQUIRE_GL();
    const fs::path file =
        write("q.toml",
              tinyToml("q", "strategy = [\"points\", \"billboards-instanced\"]\n",
                       "particles = 400\n[quality]\nframes = 2\nreference = \"strategy=billboards-cpu;particles=800\"\n"
                       "energy-preserving = true\n"));
    const fs::path out = dir_ / "out", saved = dir_ / "saved";
    const Outcome r = run({"sweep", file.string(), "--out", out.string(), "--save-frames", saved.string()}, 120s);
    ASSERT_TRUE(r.exited);
    ASSERT_EQ(r.code, 0) << r.err;
    const auto rows = readRunsCsv(out / "runs.csv");
    ASSERT_EQ(rows.size(), 2u);
    for (const auto& row : rows) {
        SCOPED_TRACE(row.at("run_key"));
        EXPECT_EQ(row.at("reference"), "strategy=billboards-cpu;particles=800;supersample=1");
        EXPECT_EQ(row.at("quality_frames"), "2");
        EXPECT_DOUBLE_EQ(number(row, "energy_scale"), 2.0);
        for (const char* c : {"psnr_db", "ssim", "flip", "psnr_fire_db", "ssim_fire", "flip_fire", "flicker_ratio",
                              "fragments_shaded", "fragments_visible", "covered_fraction", "quality_seconds"})
            number(row, c);
        EXPECT_GT(number(row, "ssim"), 0.0);
        EXPECT_LE(number(row, "ssim"), 1.0);
        EXPECT_GE(number(row, "fragments_shaded"), number(row, "fragments_visible"));
        for (const char* png : {"frame_png", "reference_png"}) {
            ASSERT_FALSE(row.at(png).empty()) << png;
            EXPECT_TRUE(fs::exists(out / row.at(png))) << row.at(png);
        }
        // --save-frames: every scored frame and its reference, per run, under the experiment's name (issue 23:
        // two experiments' runs of one key overwrote each other's frames).
        // The report's frame of the row is in the folder of its saved frames' name (one per run).
        const std::string slug = fs::path(row.at("frame_png")).stem().string();
        const fs::path runDir = saved / "q" / slug;
        ASSERT_TRUE(fs::is_directory(runDir)) << runDir;
        size_t pngs = 0;
        for (const auto& e : fs::directory_iterator(runDir)) pngs += e.path().extension() == ".png";
        EXPECT_EQ(pngs, 4u);  // two scored frames and two reference frames
    }
    size_t runDirs = 0;
    for ([[maybe_unused]] const auto& e : fs::directory_iterator(saved / "q")) ++runDirs;
    EXPECT_EQ(runDirs, rows.size()) << "a folder of frames per run";
    if (matplotlibAvailable()) {
        EXPECT_TRUE(fs::exists(out / "pareto.png")) << r.err;
        EXPECT_TRUE(fs::exists(out / "report.html")) << r.err;
    }
}

TEST_F(HarnessSweep, RunWithoutQualityLeavesTheQualityColumnsEmpty) {
    REQUIRE_GL();
    const fs::path csv = dir_ / "runs.csv";
    const Outcome r = run({"run", "--strategy", "points", "--particles", "200", "--width", "64", "--height", "48",
                           "--warmup", "1", "--frames", "2", "--csv", csv.string()});
    ASSERT_EQ(r.code, 0) << r.err;
    const auto rows = readRunsCsv(csv);
    ASSERT_EQ(rows.size(), 1u);
    for (const char* c : {"reference", "psnr_db", "ssim_fire", "flip_fire", "fragments_shaded", "frame_png"})
        EXPECT_EQ(rows[0].at(c), "") << c;
}


}  // namespace

namespace {

// --- what --resume continues -----------------------------------------------------------------------------

std::string pointsToml(const std::string& name) {
    return tinyToml(name, "particles = [100, 200, 300]\n", "strategy = \"points\"\n");
}

TEST_F(HarnessSweep, ResumeSpelledDifferentlyFindsTheRunsAlreadyMeasured) {
    REQUIRE_GL();
    const fs::path file = write("spell.toml", pointsToml("spell"));
    const fs::path out = dir_ / "out";
    ASSERT_EQ(run({"sweep", file.string(), "--out", out.string(), "--no-plots"}).code, 0);
    const std::string before = slurp(out / "runs.csv");
    const Outcome r = run({"sweep", file.string(), "--out", out.string(), "--no-plots", "--resume", "--particles",
                           "1e2,2.0e2,0300,300.0"});
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_TRUE(contains(r.err, "0 run(s) measured")) << r.err;
    EXPECT_TRUE(contains(r.err, "3 already present")) << r.err;
    EXPECT_EQ(slurp(out / "runs.csv"), before);
}


TEST_F(HarnessSweep, ResumeReportsAndKeepsAsideMalformedRows) {
    REQUIRE_GL();
    const fs::path file = write("bad.toml", pointsToml("bad"));
    const fs::path out = dir_ / "out", csv = out / "runs.csv";
    ASSERT_EQ(run({"sweep", file.string(), "--out", out.string(), "--no-plots", "--shard", "1/1"}).code, 0);
    // Damage the file: a short row in the middle and a stray header after it.
    std::string text = slurp(csv);
    const size_t second = text.find('\n', text.find('\n') + 1) + 1;  // after the first row: line 3 starts here
    text.insert(second, "bad,,particles=200,points\n" + headerLine());
    writeText(csv, text);
    const Outcome r = run({"sweep", file.string(), "--out", out.string(), "--no-plots", "--resume", "--shard", "1/1"});
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_TRUE(contains(r.err, csv.string() + ":3")) << r.err;
    EXPECT_TRUE(contains(r.err, csv.string() + ":4")) << r.err;
    const std::string aside = slurp(out / "runs.rejected.csv");
    EXPECT_TRUE(contains(aside, "bad,,particles=200,points")) << aside;
    EXPECT_EQ(countOf(aside, "\n"), 3u) << "a header and the two records: " << aside;
    expectComplete(csv, plannedKeys(file));
}

TEST_F(HarnessSweep, FailedRunsResumedLeaveEachConfigurationOnceWithItsLatestOutcome) {
    REQUIRE_GL();
    const fs::path file = write("fail.toml", pointsToml("fail"));
    const fs::path out = dir_ / "out", csv = out / "runs.csv";
    const char* driver = std::getenv("SDL_VIDEODRIVER");
    const std::string saved = driver ? driver : "";
    ::setenv("SDL_VIDEODRIVER", "dummy", 1);  // no OpenGL: every run fails with an error row
    const Outcome failed = run({"sweep", file.string(), "--out", out.string(), "--no-plots"});
    if (driver)
        ::setenv("SDL_VIDEODRIVER", saved.c_str(), 1);
    else
        ::unsetenv("SDL_VIDEODRIVER");
    ASSERT_EQ(failed.code, 1) << failed.err;
    ASSERT_EQ(readRunsCsv(csv).size(), 3u);
    const Outcome resumed = run({"sweep", file.string(), "--out", out.string(), "--no-plots", "--resume"});
    ASSERT_EQ(resumed.code, 0) << resumed.err;
    expectComplete(csv, plannedKeys(file));  // each key once, ok
    const auto history = readRunsCsv(out / "runs.history.csv");
    ASSERT_EQ(history.size(), 3u) << "the failed rows are kept as history";
    for (const auto& row : history) EXPECT_EQ(row.at("status").rfind("error", 0), 0u) << row.at("status");
}


// The adversarial pass: an effect edited while a sweep ran was read in two versions by its runs (each reads its
// inputs afresh), and meta.json kept the first version's hash. The inputs are read again after the last run: a
// change is an error naming the file, and meta.json lists it.
TEST_F(HarnessSweep, AnInputEditedDuringTheSweepIsAnErrorNamingIt) {
    REQUIRE_GL();
    writeText(dir_ / "mine.toml", "[[layer]]\nname = \"flame\"\n");
    const fs::path file = write("edit.toml",
                                "[experiment]\nname = \"edit\"\n\n[run]\nstrategy = \"points\"\n"
                                "width = 64\nheight = 48\nwarmup = 1\nframes = 100000\nmax-seconds = 0.3\n"
                                "effect = \"" +
                                    (dir_ / "mine.toml").string() +
                                    "\"\n\n[sweep]\n"
                                    "particles = [100, 200, 300, 400, 500, 600]\n");
    const fs::path out = dir_ / "out";
    const pid_t pid = start({"sweep", file.string(), "--out", out.string(), "--no-plots"});
    waitForRows(out / "runs.csv", 1, pid);
    writeText(dir_ / "mine.toml", "[[layer]]\nname = \"flame\"\nparticles = 50\n");
    const Outcome r = finish(pid);
    EXPECT_EQ(r.code, 1) << r.err;
    EXPECT_TRUE(contains(r.err, "changed while the sweep ran")) << r.err;
    EXPECT_TRUE(contains(r.err, "mine.toml")) << r.err;
    EXPECT_TRUE(contains(slurp(out / "meta.json"), "inputs_changed_during_sweep"));
    const Outcome resumed = run({"sweep", file.string(), "--out", out.string(), "--no-plots", "--resume"});
    EXPECT_EQ(resumed.code, 2) << "a folder of two versions of the effect is not resumed:\n" << resumed.err;
}


// A path with dots is one path, not a range: the run draws with it. (A list of paths, refused naming it whole:
// sweep_test.cpp.)
TEST_F(HarnessSweep, APathWithDotsIsOnePathNotARange) {
    REQUIRE_GL();
    const fs::path csv = dir_ / "r.csv";
    const Outcome r =
        run({"run", "--strategy", "point-sprites", "--texture", "../textures/flame.png", "--particles", "100",
             "--width", "32", "--height", "32", "--warmup", "0", "--frames", "1", "--csv", csv.string()});
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_EQ(readRunsCsv(csv).size(), 1u);
}

}  // namespace

namespace {

// --- one writer, early signals, a full disk, the prewarm under --max-seconds --------------------------------

// As spawnFirelab, with SIGINT and SIGTERM blocked in the child until firelab's main unblocks them (so a
// signal sent at once is held until main's first line, never lost to the default action before it), and
// optionally a file size limit (the soft RLIMIT_FSIZE, SIGXFSZ ignored): writes past it fail as on a full
// disk. Both are set here around the fork and inherited through exec; this process gets its own back.
pid_t spawnHeld(const Strings& args, const fs::path& outFile, const fs::path& errFile,
                rlim_t fileLimit = RLIM_INFINITY) {
    sigset_t held, mask;
    sigemptyset(&held);
    sigaddset(&held, SIGINT);
    sigaddset(&held, SIGTERM);
    ::pthread_sigmask(SIG_BLOCK, &held, &mask);
    rlimit limit{};
    ::getrlimit(RLIMIT_FSIZE, &limit);
    const rlimit ours = limit;
    auto xfsz = ::signal(SIGXFSZ, fileLimit == RLIM_INFINITY ? SIG_DFL : SIG_IGN);
    limit.rlim_cur = fileLimit;
    if (fileLimit != RLIM_INFINITY) {
        EXPECT_EQ(::setrlimit(RLIMIT_FSIZE, &limit), 0);
    }
    const pid_t pid = spawnFirelab(args, outFile, errFile);
    ::setrlimit(RLIMIT_FSIZE, &ours);
    ::signal(SIGXFSZ, xfsz);
    ::pthread_sigmask(SIG_SETMASK, &mask, nullptr);
    return pid;
}

// The pid of a child of `parent` whose command line holds `what`, or 0.
pid_t childRunning(pid_t parent, const std::string& what) {
    for (const auto& e : fs::directory_iterator("/proc")) {
        const std::string name = e.path().filename().string();
        if (name.find_first_not_of("0123456789") != std::string::npos) continue;
        std::istringstream stat(slurp(e.path() / "stat"));
        std::string pid, comm, state;
        pid_t ppid = 0;
        stat >> pid >> comm >> state >> ppid;  // (comm has no spaces for the processes we look for)
        if (ppid == parent && contains(slurp(e.path() / "cmdline"), what)) return static_cast<pid_t>(std::stol(name));
    }
    return 0;
}

// A sweep whose child holds SIGINT and SIGTERM until firelab's main, and may have a file size limit.
class HeldSweep : public HarnessSweep {
protected:
    pid_t startHeld(const Strings& args, rlim_t fileLimit = RLIM_INFINITY) {
        ++calls_;
        return spawnHeld(args, outFile(), errFile(), fileLimit);
    }
};

// One writer per folder and per runs.csv, across processes: the holder is named by its pid.
using SweepWriters = HarnessSweep;
// Stop signals at every moment: from main's first line, while the plots are drawn, during a reference's replay.
using SweepSignals = HeldSweep;
// A full disk (a file size limit): whole rows, a meta.json that counts them, a folder a rerun accepts.
using SweepFullDisk = HeldSweep;
// What a measured run leaves out or refuses by its own limits: a stopped frame, a prewarm past --max-seconds.
using MeasuredRunLimits = HarnessSweep;

TEST_F(SweepWriters, ASecondWriterIsRefusedNamingTheFirstAndAddsNothing) {
    REQUIRE_GL();
    const fs::path file = write("two.toml", slowToml("two"));
    const fs::path out = dir_ / "out", csv = out / "runs.csv";
    const pid_t first = start({"sweep", file.string(), "--out", out.string(), "--no-plots"});
    ASSERT_GE(waitForRows(csv, 1, first), 1u) << "the first sweep wrote no row";
    // A second sweep with --resume, a second sweep without, and a run into the same CSV: each stops at
    // once (exit 1) naming the process that holds the folder or the file.
    const std::vector<Strings> others{
        {"sweep", file.string(), "--out", out.string(), "--no-plots", "--resume"},
        {"sweep", file.string(), "--out", out.string(), "--no-plots"},
        {"run", "--strategy", "points", "--particles", "200", "--frames", "1", "--warmup", "0", "--csv", csv.string()},
    };
    for (const auto& args : others) {
        SCOPED_TRACE(args[0] + " " + args.back());
        const Outcome second = run(args);
        ASSERT_TRUE(second.exited);
        EXPECT_EQ(second.code, 1) << second.err;
        EXPECT_TRUE(contains(second.err, "being written by process " + std::to_string(first))) << second.err;
    }
    ASSERT_EQ(::kill(first, SIGTERM), 0);
    const Outcome stopped = finish(first);
    EXPECT_EQ(stopped.code, 130) << stopped.err;
    expectWholeRows(csv);
    std::map<std::string, int> seen;
    for (const auto& row : readRunsCsv(csv)) EXPECT_EQ(++seen[row.at("run_key")], 1) << row.at("run_key") << " twice";
    // The lock goes with its holder: no lock file is left, and --resume may now complete the sweep.
    std::set<std::string> names;
    for (const auto& e : fs::directory_iterator(out)) names.insert(e.path().filename().string());
    EXPECT_EQ(names, (std::set<std::string>{"frames.csv", "meta.json", "runs.csv"}));
    const Outcome resumed = run({"sweep", file.string(), "--out", out.string(), "--no-plots", "--resume"});
    EXPECT_EQ(resumed.code, 0) << resumed.err;
    expectComplete(csv, plannedKeys(file));
}

TEST_F(SweepSignals, ASignalFromTheFirstLineOfMainEndsWith130AndNoRow) {
    REQUIRE_GL();
    // 0 ms: held until main's first line; later ones land in start-up, GL context creation or the run.
    for (const int delayMs : {0, 5, 20, 60, 150}) {
        for (const int sig : {SIGTERM, SIGINT}) {
            SCOPED_TRACE("signal " + std::to_string(sig) + " after " + std::to_string(delayMs) + " ms");
            const fs::path csv = dir_ / ("r" + std::to_string(delayMs) + "-" + std::to_string(sig) + ".csv");
            const pid_t pid =
                startHeld({"run", "--strategy", "points", "--particles", "200", "--width", "64", "--height", "48",
                           "--warmup", "1", "--frames", "100000", "--max-seconds", "20", "--csv", csv.string()});
            std::this_thread::sleep_for(std::chrono::milliseconds(delayMs));
            ASSERT_EQ(::kill(pid, sig), 0);
            const Outcome r = finish(pid);
            ASSERT_TRUE(r.exited) << "killed by signal " << r.signal;
            EXPECT_EQ(r.code, 130) << r.err;
            EXPECT_TRUE(readRunsCsv(csv).empty()) << "an interrupted run added a row";
        }
    }
    const Outcome snap = [&] {
        const pid_t pid = startHeld({"snapshot", "--time", "0", "--out", (dir_ / "s.csv").string()});
        ::kill(pid, SIGTERM);
        return finish(pid);
    }();
    EXPECT_EQ(snap.code, 130) << snap.err;
    EXPECT_FALSE(fs::exists(dir_ / "s.csv")) << "an interrupted snapshot wrote its file";
}

// A sweep of 200 000 seeds is planned in linear time, and a signal while it is planned stops it (issue 36: the
// seeds were deduplicated in quadratic time with SIGINT and SIGTERM held, and only SIGKILL ended it).
TEST_F(SweepSignals, ASignalWhileAHugeSweepIsPlannedEndsIt) {
    std::string seeds;
    for (int i = 1; i <= 200000; ++i) seeds += (i > 1 ? "," : "") + std::to_string(i);
    const fs::path file = write("seeds.toml", tinyToml("seeds", "seed = [" + seeds + "]\n", "strategy = \"points\"\n"));
    for (const int sig : {SIGINT, SIGTERM}) {
        SCOPED_TRACE("signal " + std::to_string(sig));
        const fs::path out = dir_ / ("out-" + std::to_string(sig));
        const pid_t pid = startHeld({"sweep", file.string(), "--out", out.string(), "--no-plots"});
        std::this_thread::sleep_for(std::chrono::milliseconds(1500));  // reading the file and planning its runs
        ASSERT_EQ(::kill(pid, sig), 0);
        const Outcome r = finish(pid, 20s);
        ASSERT_TRUE(r.exited) << "still planning 20 s after the signal (killed)";
        EXPECT_EQ(r.code, 130) << r.err;
        EXPECT_TRUE(readRunsCsv(out / "runs.csv").empty()) << "a run was measured after the signal";
    }
}

TEST_F(SweepSignals, ASignalWhileThePlotsAreDrawnEndsThemWith130) {
    REQUIRE_GL();
    if (!matplotlibAvailable()) GTEST_SKIP() << "python3-matplotlib is not installed: no plots are drawn";
    const fs::path file = write("p.toml", tinyToml("p", "particles = [100, 200]\n", "strategy = \"points\"\n"));
    const fs::path out = dir_ / "out";
    const pid_t pid = start({"sweep", file.string(), "--out", out.string()});
    pid_t plot = 0;
    for (const auto deadline = Clock::now() + 60s; !plot && Clock::now() < deadline;) {
        plot = childRunning(pid, "plot.py");
        siginfo_t info{};
        if (!plot && ::waitid(P_PID, static_cast<id_t>(pid), &info, WEXITED | WNOHANG | WNOWAIT) == 0 &&
            info.si_pid == pid)
            break;
        std::this_thread::sleep_for(1ms);
    }
    ASSERT_NE(plot, 0) << "never saw the plot script run";
    ASSERT_EQ(::kill(pid, SIGTERM), 0);
    const Outcome r = finish(pid);
    ASSERT_TRUE(r.exited);
    EXPECT_EQ(r.code, 130) << r.err;
    EXPECT_EQ(readRunsCsv(out / "runs.csv").size(), 2u) << "the runs were whole before the plots";
    EXPECT_FALSE(fs::exists("/proc/" + std::to_string(plot) + "/cmdline") &&
                 contains(slurp("/proc/" + std::to_string(plot) + "/cmdline"), "plot.py"))
        << "the plot script was left running";
}

TEST_F(SweepFullDisk, AFullDiskLeavesWholeRowsAndAMetaJsonThatCountsThem) {
    REQUIRE_GL();
    // Rows about 11 KB long (a long label), a 48000-byte file limit: the header and a few rows fit and a later
    // one is cut by the limit part-way, as by a full disk. meta.json (about 37.5 KB with the label, every setting
    // and column listed) still fits, with room for the settings to come.
    const std::string label(10000, 'x');
    const fs::path file = write("full.toml", tinyToml("full", "particles = [100, 200, 300, 400, 500, 600]\n",
                                                      "strategy = \"points\"\nlabel = \"" + label + "\"\n"));
    const fs::path out = dir_ / "out", csv = out / "runs.csv";
    const Outcome r = finish(startHeld({"sweep", file.string(), "--out", out.string(), "--no-plots"}, 48000));
    ASSERT_TRUE(r.exited) << "killed by signal " << r.signal;
    EXPECT_EQ(r.code, 1) << r.err;
    EXPECT_TRUE(contains(r.err, "runs.csv")) << r.err;
    EXPECT_TRUE(contains(r.err, "--resume")) << r.err;
    expectWholeRows(csv);
    const auto rows = readRunsCsv(csv);
    ASSERT_GE(rows.size(), 1u);
    ASSERT_LT(rows.size(), 6u) << "the limit did not bite";
    const std::string meta = slurp(out / "meta.json");
    EXPECT_TRUE(contains(meta, "\"done\": " + std::to_string(rows.size()) + ",")) << meta;
    EXPECT_TRUE(contains(meta, "\"finished\": \"\"")) << meta;
    EXPECT_FALSE(fs::exists(out / ".meta.json.reserve"));

    const Outcome resumed = run({"sweep", file.string(), "--out", out.string(), "--no-plots", "--resume"});
    ASSERT_EQ(resumed.code, 0) << resumed.err;
    expectComplete(csv, plannedKeys(file));
    EXPECT_TRUE(contains(slurp(out / "meta.json"), "\"done\": 6,"));
}

// Issue 23: a disk that filled at the first meta.json write left a folder that neither a rerun nor --resume
// accepted, and "writing meta.json failed" gave no reason. The failure says why, and the folder (a runs.csv
// with its header and no row) is taken as empty by the next sweep.
TEST_F(SweepFullDisk, ADiskFullAtTheFirstMetaJsonLeavesAFolderARerunAccepts) {
    REQUIRE_GL();
    // A 6000-character label makes meta.json (which records it) larger than the 9000-byte file limit, while
    // runs.csv's header fits.
    const std::string label(6000, 'y');
    const fs::path file = write("first.toml", tinyToml("first", "particles = [100, 200]\n",
                                                       "strategy = \"points\"\nlabel = \"" + label + "\"\n"));
    const fs::path out = dir_ / "out";
    const Outcome r = finish(startHeld({"sweep", file.string(), "--out", out.string(), "--no-plots"}, 9000));
    ASSERT_TRUE(r.exited) << "killed by signal " << r.signal;
    EXPECT_EQ(r.code, 1) << r.err;
    EXPECT_TRUE(contains(r.err, "meta.json failed: ")) << "the reason is given: " << r.err;
    EXPECT_TRUE(!fs::exists(out / "runs.csv") || readRunsCsv(out / "runs.csv").empty());
    const Outcome again = run({"sweep", file.string(), "--out", out.string(), "--no-plots"});
    ASSERT_EQ(again.code, 0) << again.err;
    expectComplete(out / "runs.csv", plannedKeys(file));
}

// Issue 23: Ctrl-C was ignored while a large reference was simulated (47.6 s at 5M particles). The replay
// polls the stop request at each step: the run ends with 130 and adds no row, well within the 30 s given.
TEST_F(SweepSignals, AStopEndsAReferencesLongReplay) {
    REQUIRE_GL();
    const fs::path csv = dir_ / "r.csv";
    const pid_t pid =
        start({"run", "--strategy", "points", "--particles", "1000", "--width", "64", "--height", "48", "--warmup", "0",
               "--frames", "2", "--quality", "--reference", "particles=5000000", "--csv", csv.string()});
    std::this_thread::sleep_for(3s);  // the timed frames are done; the reference is being simulated
    ASSERT_EQ(::kill(pid, SIGINT), 0);
    const Outcome r = finish(pid, 30s);
    ASSERT_TRUE(r.exited) << "still running 30 s after SIGINT (killed by signal " << r.signal << ")";
    EXPECT_EQ(r.code, 130) << r.err;
    EXPECT_TRUE(!fs::exists(csv) || readRunsCsv(csv).empty()) << "an interrupted run was written";
}

// Issue 23: a process stopped (SIGSTOP) for seconds inside a measured frame was kept in an ok round with no
// note. Such a frame is left out of the figures by rule (over 10 times the median), counted in
// outlier_frames and warned of; the run's median stays a frame's.
TEST_F(MeasuredRunLimits, AStoppedFrameIsAnOutlierCountedAndLeftOut) {
    REQUIRE_GL();
    const fs::path csv = dir_ / "r.csv";
    const pid_t pid = start({"run", "--strategy", "points", "--particles", "2000", "--width", "160", "--height", "120",
                             "--warmup", "0", "--frames", "100000", "--max-seconds", "4", "--csv", csv.string()});
    std::this_thread::sleep_for(1500ms);  // measuring (the prewarm of 2000 particles takes a fraction of that)
    ASSERT_EQ(::kill(pid, SIGSTOP), 0);
    std::this_thread::sleep_for(2s);
    ASSERT_EQ(::kill(pid, SIGCONT), 0);
    const Outcome r = finish(pid, 60s);
    ASSERT_EQ(r.code, 0) << r.err;
    const auto rows = readRunsCsv(csv);
    ASSERT_EQ(rows.size(), 1u);
    EXPECT_GE(std::stoi(rows[0].at("outlier_frames")), 1) << r.err;
    EXPECT_LT(std::stod(rows[0].at("frame_ms_max")), 1000.0) << "the stopped frame is in the figures";
    EXPECT_TRUE(contains(r.err, "left out of the figures")) << r.err;
}

TEST_F(MeasuredRunLimits, MaxSecondsBoundsThePrewarmAndSaysWhatItWouldTake) {
    REQUIRE_GL();
    const fs::path csv = dir_ / "r.csv";
    const Outcome r = run({"run", "--strategy", "points", "--particles", "300000", "--width", "64", "--height", "48",
                           "--warmup", "1", "--frames", "5", "--max-seconds", "0.01", "--csv", csv.string()});
    ASSERT_TRUE(r.exited);
    EXPECT_EQ(r.code, 1) << r.err;
    const auto rows = readRunsCsv(csv);
    ASSERT_EQ(rows.size(), 1u);
    const std::string& status = rows[0].at("status");
    EXPECT_EQ(status.rfind("error: --max-seconds 0.01: reaching steady state", 0), 0u) << status;
    EXPECT_TRUE(contains(status, "would take at least")) << status;
    EXPECT_EQ(rows[0].at("frames"), "0");
}

// Issue 22: a frame whose alpha fragments do not fit --abuffer-mib is refused (the run's status says how many
// and what would hold them), never a crash; within it, the row records the fragments stored.
TEST_F(HarnessSweep, AnAbufferThatOverflowsIsReportedNeverACrash) {
    REQUIRE_GL();
    const fs::path csv = dir_ / "oit.csv";
    const Strings base{"run",
                       "--strategy",
                       "billboards-instanced",
                       "--blend",
                       "alpha",
                       "--sort",
                       "abuffer",
                       "--particles",
                       "3000",
                       "--width",
                       "320",
                       "--height",
                       "240",
                       "--warmup",
                       "1",
                       "--frames",
                       "3"};
    Strings small = base;
    small.insert(small.end(), {"--abuffer-mib", "1", "--csv", csv.string()});
    const Outcome r = run(small);
    EXPECT_EQ(r.code, 1) << r.err;
    auto rows = readRunsCsv(csv);
    ASSERT_EQ(rows.size(), 1u);
    EXPECT_TRUE(contains(rows[0].at("status"), "raise --abuffer-mib")) << rows[0].at("status");
    EXPECT_TRUE(contains(rows[0].at("status"), "more than fit")) << rows[0].at("status");
    Strings enough = base;
    enough.insert(enough.end(), {"--abuffer-mib", "64", "--csv", csv.string()});
    const Outcome ok = run(enough);
    ASSERT_EQ(ok.code, 0) << ok.err;
    rows = readRunsCsv(csv);
    ASSERT_EQ(rows.size(), 2u);
    EXPECT_GT(std::stod(rows[1].at("abuffer_fragments")), 65536.0) << "what 1 MiB could not hold";
    EXPECT_GT(std::stod(rows[1].at("abuffer_longest_list")), 1.0);
    EXPECT_EQ(rows[1].at("sort"), "abuffer");
}

// Issue 22: --start-time measures a bursting effect at a moment of its cycle. The explosion's fireball bursts
// every 3 s and lives about 1.1 s: 0.25 s after a burst its particles are alive, 2.5 s after they are gone;
// (a time before the steady state, its smoke's longest life, is refused before anything runs: sweep_test.cpp).
TEST_F(HarnessSweep, StartTimeMeasuresABurstAtAMomentOfItsCycle) {
    REQUIRE_GL();
    const fs::path csv = dir_ / "moments.csv";
    const Strings base{"run",      "--strategy", "billboards-instanced",
                       "--effect", "explosion",  "--width",
                       "160",      "--height",   "120",
                       "--warmup", "0",          "--frames",
                       "2",        "--csv",      csv.string()};
    Strings moments = base;
    moments.insert(moments.end(), {"--start-time", "6.25,8.5"});
    const Outcome r = run(moments, 120s);
    ASSERT_EQ(r.code, 0) << r.err;
    const auto rows = readRunsCsv(csv);
    ASSERT_EQ(rows.size(), 2u);
    EXPECT_EQ(rows[0].at("start_time"), "6.25");
    const double early = std::stod(rows[0].at("alive_mean")), late = std::stod(rows[1].at("alive_mean"));
    EXPECT_GT(early, late + 1500.0)
        << "the fireball's 2000 are not alive 0.25 s after its burst, or still are 2.5 s after";
}

// Issue 22: one motionless particle at a time (a burst that repeats each life) through the flipbook, scored
// against the blended flipbook: the cut pops (flicker_ratio, the RMS frame-to-frame change's ratio, well over
// 1); the blend is the reference's picture (1).
TEST_F(HarnessSweep, FlickerRatioShowsTheFlipbooksCutAndNotItsBlend) {
    REQUIRE_GL();
    const fs::path csv = dir_ / "flipbook.csv";
    Strings args{"run",
                 "--strategy",
                 "billboards-instanced",
                 "--flipbook",
                 "4x4",
                 "--flipbook-blend",
                 "none,linear",
                 "--emitter",
                 "rect",
                 "--extent",
                 "0.000001",
                 "--cone",
                 "0",
                 "--speed",
                 "0",
                 "--speed-var",
                 "0",
                 "--accel",
                 "0",
                 "--accel-var",
                 "0",
                 "--turbulence",
                 "0",
                 "--size-var",
                 "0",
                 "--size-start",
                 "1",
                 "--size-end",
                 "1",
                 "--lifetime",
                 "0.9",
                 "--lifetime-var",
                 "0",
                 "--particles",
                 "2",
                 "--rate",
                 "0.000001",
                 "--burst",
                 "1",
                 "--burst-period",
                 "0.9",
                 "--gradient",
                 "0:1:0.8:0.5:1,1:1:0.8:0.5:1",
                 "--width",
                 "160",
                 "--height",
                 "120",
                 "--warmup",
                 "1",
                 "--frames",
                 "72",
                 "--quality",
                 "--quality-frames",
                 "48",
                 "--quality-metrics",
                 "psnr",
                 "--reference",
                 "flipbook-blend=linear",
                 "--csv",
                 csv.string()};
    const Outcome r = run(args, 120s);
    ASSERT_EQ(r.code, 0) << r.err;
    const auto rows = readRunsCsv(csv);
    ASSERT_EQ(rows.size(), 2u);
    std::map<std::string, double> flicker;
    for (const auto& row : rows) flicker[row.at("flipbook_blend")] = std::stod(row.at("flicker_ratio"));
    // 1.31 here: each rebirth (frame 15 to frame 0) is a cut in both, which keeps it from sqrt(3.4), a cut every
    // 3.4 steps against the blend's even move.
    EXPECT_GT(flicker.at("none"), 1.15) << "a frame held, then cut: the cuts pop";
    EXPECT_NEAR(flicker.at("linear"), 1.0, 0.02);
}

// Issue 23: a sweep samples what else the machine does before its first run and after its last, warns
// when another process is busy, and meta.json keeps the figures and the renderer's environment.
TEST_F(HarnessSweep, ABusyMachineIsReportedAndRecordedInMetaJson) {
    REQUIRE_GL();
    const pid_t busy = ::fork();
    ASSERT_GE(busy, 0);
    if (busy == 0) {
        volatile unsigned long spin = 0;
        for (;;) spin = spin + 1UL;
    }
    const fs::path file = write("busy.toml", tinyToml("busy", "particles = [200]\n", "strategy = \"points\"\n"));
    const fs::path out = dir_ / "out";
    ::setenv("LP_NUM_THREADS", "1", 1);
    const Outcome r = run({"sweep", file.string(), "--out", out.string(), "--no-plots"});
    ::unsetenv("LP_NUM_THREADS");
    ::kill(busy, SIGKILL);
    ::waitpid(busy, nullptr, 0);
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_TRUE(contains(r.err, "warning: the machine is not quiet before the first run")) << r.err;
    const auto meta = nlohmann::json::parse(slurp(out / "meta.json"));
    for (const char* when : {"load_before", "load_after"}) {
        SCOPED_TRACE(when);
        ASSERT_TRUE(meta.contains(when) && meta[when].is_object()) << meta.dump(2);
        EXPECT_GE(meta[when]["other_busy_cores"].get<double>(), 0.5) << "a process spinning on a core";
        EXPECT_FALSE(meta[when]["quiet"].get<bool>());
        EXPECT_GT(meta[when]["seconds"].get<double>(), 0.0);
    }
    EXPECT_EQ(meta["environment"]["LP_NUM_THREADS"], "1") << "the renderer's thread count is recorded";
}

// `firelab run FLAGS` of a tiny frame of points into `csv`.
Strings tinyRun(const Strings& flags, const fs::path& csv) {
    Strings args{"run"};
    args.insert(args.end(), flags.begin(), flags.end());
    for (const char* a : {"--strategy", "points", "--particles", "200", "--width", "64", "--height", "48", "--warmup",
                          "1", "--frames", "2", "--csv"})
        args.emplace_back(a);
    args.push_back(csv.string());
    return args;
}

// One round of `run` writes no rounds file, so its --csv may have any name (the names that would share one are
// refused with several rounds: sweep_test.cpp).
TEST_F(HarnessSweep, RunCsvOfOneRoundMayHaveAnyName) {
    REQUIRE_GL();
    EXPECT_EQ(run(tinyRun({"--repetitions", "1"}, dir_ / "F")).code, 0) << "one round: no rounds file to share";
    EXPECT_EQ(readRunsCsv(dir_ / "F").size(), 1u);
    EXPECT_FALSE(fs::exists(dir_ / "F.rounds.csv"));
}


// runs.csv's summary of a repeated run follows each column's rule: every timing column summarised as a
// median is the median of the rounds.csv rows (light_fit_ms_median and light_shade_ms_median were round
// 1's).
TEST_F(HarnessSweep, RepeatedRunsSummariseEveryMedianColumnAsTheRoundsMedian) {
    REQUIRE_GL();
    const fs::path csv = dir_ / "rep.csv";
    const Outcome r =
        run({"run", "--strategy", "billboards-instanced", "--particles", "300", "--width", "64", "--height", "48",
             "--warmup", "1", "--frames", "6", "--repetitions", "3", "--csv", csv.string()});
    ASSERT_EQ(r.code, 0) << r.err;
    const auto summary = readRunsCsv(csv);
    const auto rounds = readRunsCsv(firelab::harness::roundsCsvFor(csv));
    ASSERT_EQ(summary.size(), 1u);
    ASSERT_EQ(rounds.size(), 3u);
    EXPECT_EQ(summary[0].at("rounds"), "3");
    size_t checked = 0;
    for (const auto& column : firelab::harness::runColumns()) {
        if (column.rule != firelab::harness::SummaryRule::Median) continue;
        std::vector<double> values;
        for (const auto& row : rounds)
            if (!row.at(column.name).empty()) values.push_back(std::stod(row.at(column.name)));
        if (values.size() != 3) continue;  // a pass this frame does not have
        std::sort(values.begin(), values.end());
        SCOPED_TRACE(column.name);
        EXPECT_EQ(summary[0].at(column.name), firelab::harness::csvNumber(values[1]));
        ++checked;
    }
    EXPECT_GE(checked, 12u);
    for (const char* name : {"light_fit_ms_median", "light_shade_ms_median"})
        EXPECT_NE(std::string(summary[0].at(name)), "") << name;
}

}  // namespace

// Issue #21: the view through the binary. Points larger on screen than GL_POINT_SIZE_RANGE allows are
// counted (points_clamped_fraction) and warned of; the default view clamps none.
TEST_F(HarnessSweep, PointsClampedUpCloseAreCountedAndWarnedOf) {
    REQUIRE_GL();
    auto points = [&](const Strings& view, const fs::path& csv) {
        Strings args{"run", "--strategy", "points", "--particles", "300", "--width", "640",       "--height",
                     "360", "--warmup",   "0",      "--frames",    "1",   "--csv",   csv.string()};
        args.insert(args.end(), view.begin(), view.end());
        return run(args);
    };
    const Outcome far = points({}, dir_ / "far.csv");
    ASSERT_EQ(far.code, 0) << far.err;
    EXPECT_FALSE(contains(far.err, "clamped")) << far.err;
    const Row atDefault = readRunsCsv(dir_ / "far.csv").at(0);
    EXPECT_EQ(atDefault.at("points_clamped_fraction"), "0");
    EXPECT_EQ(atDefault.at("behind_camera_fraction"), "0");
    EXPECT_GT(std::stod(atDefault.at("fire_px")), 0.0);
    // 2 m sprites from about 1 m at 360 px: some 870 px each, clamped where the largest point is smaller
    // (llvmpipe's is 255 px; `firelab info` says this GL's).
    const Outcome info = run(Strings{"info"});
    ASSERT_EQ(info.code, 0) << info.err;
    const size_t at = info.out.find("point sizes");
    ASSERT_NE(at, std::string::npos) << info.out;
    const double largest = std::stod(info.out.substr(info.out.find(" to ", at) + 4));
    const Outcome near = points({"--size-start", "2", "--size-end", "2", "--camera", "fixed", "--camera-distance", "1"},
                                dir_ / "near.csv");
    ASSERT_EQ(near.code, 0) << near.err;
    const Row close = readRunsCsv(dir_ / "near.csv").at(0);
    const double clamped = std::stod(close.at("points_clamped_fraction"));
    if (largest < 500.0) {
        EXPECT_GT(clamped, 0.5);
        EXPECT_TRUE(contains(near.err, "warning")) << near.err;
        EXPECT_TRUE(contains(near.err, "GL_POINT_SIZE_RANGE")) << near.err;
    }
    EXPECT_EQ(clamped > 0.01, contains(near.err, "clamped")) << "a warning exactly when above 1 %: " << near.err;
    EXPECT_GT(std::stod(close.at("fire_px")), std::stod(atDefault.at("fire_px")));
    // A quad strategy records no clamp: its column stays empty.
    const Outcome quads =
        run(Strings{"run", "--strategy", "billboards-instanced", "--particles", "300", "--width", "64", "--height",
                    "48", "--warmup", "0", "--frames", "1", "--csv", (dir_ / "q.csv").string()});
    ASSERT_EQ(quads.code, 0) << quads.err;
    EXPECT_EQ(readRunsCsv(dir_ / "q.csv").at(0).at("points_clamped_fraction"), "");
}

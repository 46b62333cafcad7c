// The firelab command line in process (support/cli_in_process.h): exit codes (0 success, 2 bad usage or input,
// 1 runtime failure), error messages, the snapshot CSV it writes, the summary, list and --help.
#include <gtest/gtest.h>

#include <sys/wait.h>
#include <unistd.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "support/cli_in_process.h"
#include "harness/settings/experiment.h"

namespace {

using firelab::testing::Cli;
// `firelab snapshot`: the model's particles as CSV. The summary (no command), list, --help and --version.
class SnapshotCommand : public Cli {};
class SummaryCommand : public Cli {};
class CommandHelp : public Cli {};
using firelab::testing::contains;
using firelab::testing::Outcome;
using firelab::testing::readCsv;
using firelab::testing::readFile;
using firelab::testing::splitOn;
using firelab::testing::Table;
using firelab::testing::writeFile;
namespace fs = std::filesystem;

TEST_F(SnapshotCommand, AtTimeZeroWritesOneRowPerParticle) {
    const Outcome r = run("snapshot --time 0 --particles 500 --out " + path("s.csv"));
    ASSERT_EQ(r.code, 0) << r.err;
    const std::string text = readFile(dir_ / "s.csv");
    EXPECT_EQ(splitOn(text, '\n').size(), 501u);
    EXPECT_EQ(text.rfind("x,y,z,vx,vy,vz,", 0), 0u) << "header";
    EXPECT_TRUE(contains(r.err, "500")) << r.err;
    EXPECT_TRUE(leftovers("s.csv").empty()) << "temporary left behind";
}

TEST_F(SnapshotCommand, AfterSimulatingWritesTheLiveParticles) {
    const Outcome r = run("snapshot --time 0.5 --particles 2000 --out " + path("s.csv"));
    ASSERT_EQ(r.code, 0) << r.err;
    size_t rows = 0;
    const Table t = readCsv(dir_ / "s.csv", &rows);
    // 0.5 s of a 2000-particle, 1.2 s fire: about 2000 * 0.5 / 1.2 = 833 born, none dead yet.
    EXPECT_NEAR(static_cast<double>(rows), 833.0, 20.0);
    for (size_t i = 0; i < rows; ++i) ASSERT_LT(t.at("age")[i], t.at("lifetime")[i]);
}

// snapshot follows the camera: --view appends each particle as the run's camera sees it.
TEST_F(SnapshotCommand, ViewPlacesEveryParticleOnTheCamerasScreen) {
    const Outcome r = run("snapshot --time 1 --particles 2000 --view --width 320 --height 180 --out " + path("s.csv"));
    ASSERT_EQ(r.code, 0) << r.err;
    size_t rows = 0;
    const Table t = readCsv(dir_ / "s.csv", &rows);
    ASSERT_GT(rows, 100u);
    size_t onScreen = 0;
    for (size_t i = 0; i < rows; ++i) {
        ASSERT_GT(t.at("view_depth")[i], 2.0) << "the default orbit looks from 3.2 m";
        EXPECT_EQ(t.at("behind")[i], 0.0);
        EXPECT_GE(t.at("screen_px")[i], 1.0);
        const double x = t.at("screen_x")[i], y = t.at("screen_y")[i];
        onScreen += x >= 0 && x <= 320 && y >= 0 && y <= 180;
    }
    EXPECT_EQ(onScreen, rows) << "the whole flame is in view";
    // From inside the flame some particles lie behind the eye: no place on the screen, behind = 1.
    const Outcome in =
        run("snapshot --time 1 --particles 2000 --view --camera fixed --camera-distance 0.2 "
            "--camera-height 0.8 --out " +
            path("in.csv"));
    ASSERT_EQ(in.code, 0) << in.err;
    size_t behind = 0;
    const auto lines = splitOn(readFile(dir_ / "in.csv"), '\n');
    ASSERT_TRUE(contains(lines.at(0), ",view_depth,screen_x,screen_y,screen_px,behind")) << lines.at(0);
    for (size_t i = 1; i < lines.size(); ++i)
        behind += lines[i].size() > 2 && lines[i].substr(lines[i].size() - 2) == ",1";
    EXPECT_GT(behind, 0u);
    EXPECT_LT(behind, lines.size() - 1);
    // Without --view, the model's columns alone, as always.
    ASSERT_EQ(run("snapshot --time 1 --particles 200 --out " + path("plain.csv")).code, 0);
    EXPECT_FALSE(contains(readFile(dir_ / "plain.csv"), "view_depth"));
}

TEST_F(SnapshotCommand, SphereEmitterFillsABall) {
    const Outcome r = run("snapshot --time 0 --particles 1000 --emitter sphere --extent 0.5 --out " + path("s.csv"));
    ASSERT_EQ(r.code, 0) << r.err;
    size_t rows = 0;
    const Table t = readCsv(dir_ / "s.csv", &rows);
    ASSERT_EQ(rows, 1000u);
    size_t offPlane = 0;
    for (size_t i = 0; i < rows; ++i) {
        const double x = t.at("x")[i], y = t.at("y")[i], z = t.at("z")[i];
        ASSERT_LE(std::sqrt(x * x + y * y + z * z), 0.5 + 1e-5);
        offPlane += std::fabs(y) > 0.05 ? 1 : 0;
    }
    EXPECT_GT(offPlane, rows / 2) << "not a sphere: particles stay in the y = 0 plane";
}

TEST_F(SnapshotCommand, UnknownEmitterExitsTwoAndListsTheValidNames) {
    const Outcome r = run("snapshot --time 0 --emitter cube --out " + path("s.csv"));
    EXPECT_EQ(r.code, 2);
    EXPECT_TRUE(contains(r.err, "--emitter")) << r.err;
    EXPECT_TRUE(contains(r.err, "cube")) << r.err;
    EXPECT_TRUE(contains(r.err, "rect, circle, sphere")) << r.err;
    EXPECT_FALSE(fs::exists(dir_ / "s.csv"));
    EXPECT_TRUE(leftovers().empty());
}

TEST_F(SnapshotCommand, BadCountsExitTwo) {
    for (const char* value : {"-3", "0", "1e12", "lots"}) {
        const Outcome r = run(std::string("snapshot --time 0 --particles ") + value + " --out " + path("s.csv"));
        EXPECT_EQ(r.code, 2) << value << ": " << r.err;
        EXPECT_TRUE(contains(r.err, "--particles")) << value << ": " << r.err;
        EXPECT_FALSE(fs::exists(dir_ / "s.csv")) << value;
    }
}

TEST_F(SnapshotCommand, BadLifetimesExitTwo) {
    for (const char* args : {"--lifetime nan", "--lifetime 0", "--lifetime -1", "--lifetime 1 --lifetime-var 1"}) {
        const Outcome r = run(std::string("snapshot --time 0 ") + args + " --out " + path("s.csv"));
        EXPECT_EQ(r.code, 2) << args << ": " << r.err;
        EXPECT_TRUE(contains(r.err, "--lifetime")) << args << ": " << r.err;
    }
}

TEST_F(SnapshotCommand, OtherBadInputExitsTwo) {
    for (const char* args :
         {"--center 1,2", "--distribution gaussian", "--dt 0", "--time -1", "--bogus-flag 1", "--gradient 0:1:1:1:1"}) {
        const Outcome r = run(std::string("snapshot ") + args + " --out " + path("s.csv"));
        EXPECT_EQ(r.code, 2) << args << ": " << r.err;
        EXPECT_FALSE(r.err.empty()) << args;
    }
    EXPECT_EQ(run("snapshot --time 0").code, 2) << "--out is required";
}

TEST_F(SnapshotCommand, UnwritableOutputFailsCleanly) {
    const Outcome r = run("snapshot --time 0 --particles 100 --out /nonexistent/dir/x.csv");
    EXPECT_NE(r.code, 0);
    EXPECT_LT(r.code, 128) << "crashed";
    EXPECT_EQ(r.code, 1) << "an I/O failure is a runtime failure";
    EXPECT_TRUE(contains(r.err, "/nonexistent/dir/x.csv")) << r.err;
}

TEST_F(SnapshotCommand, FailedRunLeavesAnExistingOutputUntouched) {
    writeFile(dir_ / "s.csv", "precious\n");
    // Rejected while validating the model, and after the output was opened (the thread count).
    for (const char* args : {"--particles -3", "--emitter cube", "--threads 0", "--lifetime nan"}) {
        const Outcome r = run(std::string("snapshot --time 0 ") + args + " --out " + path("s.csv"));
        EXPECT_EQ(r.code, 2) << args << ": " << r.err;
        EXPECT_EQ(readFile(dir_ / "s.csv"), "precious\n") << args;
        EXPECT_TRUE(leftovers("s.csv").empty()) << args << ": temporary left behind";
    }
}

TEST_F(SnapshotCommand, ResultsDoNotDependOnTheThreadCount) {
    ASSERT_EQ(run("snapshot --time 1 --particles 30000 --threads 1 --out " + path("one.csv")).code, 0);
    ASSERT_EQ(run("snapshot --time 1 --particles 30000 --threads 3 --out " + path("three.csv")).code, 0);
    const std::string one = readFile(dir_ / "one.csv");
    EXPECT_GT(one.size(), 1000000u);
    EXPECT_TRUE(one == readFile(dir_ / "three.csv"));
}

TEST_F(SnapshotCommand, ConfigFileSetsTheModelAndFlagsOverrideIt) {
    writeFile(dir_ / "model.toml",
              "# a rect fire with long lives\n[model]\nlifetime = 2.0\nemitter = \"rect\"\nparticles = 2000\n");
    const Outcome r = run("snapshot --time 0 --config " + path("model.toml") + " --out " + path("s.csv"));
    ASSERT_EQ(r.code, 0) << r.err;
    size_t rows = 0;
    Table t = readCsv(dir_ / "s.csv", &rows);
    ASSERT_EQ(rows, 2000u) << "particles from the config";
    double sum = 0.0;
    size_t corners = 0;
    for (size_t i = 0; i < rows; ++i) {
        const double life = t.at("lifetime")[i];
        ASSERT_GE(life, 2.0 - 0.4 - 1e-6);  // the default lifetime-var is 0.4
        ASSERT_LE(life, 2.0 + 0.4 + 1e-6);
        sum += life;
        const double x = t.at("x")[i], z = t.at("z")[i];
        ASSERT_LE(std::fabs(x), 0.35 + 1e-6);
        ASSERT_LE(std::fabs(z), 0.35 + 1e-6);
        ASSERT_EQ(t.at("y")[i], 0.0);
        corners += std::sqrt(x * x + z * z) > 0.35 ? 1 : 0;  // outside the inscribed circle: only a rect
    }
    EXPECT_NEAR(sum / static_cast<double>(rows), 2.0, 0.03);  // SE = 0.4 / sqrt(3 * 2000) = 0.005
    EXPECT_GT(corners, 0u) << "emitter = \"rect\" was not applied";

    // A flag overrides the file; the rest of the file still applies.
    const Outcome o = run("snapshot --time 0 --config " + path("model.toml") + " --lifetime 3 --emitter circle --out " +
                          path("s.csv"));
    ASSERT_EQ(o.code, 0) << o.err;
    t = readCsv(dir_ / "s.csv", &rows);
    ASSERT_EQ(rows, 2000u);
    for (size_t i = 0; i < rows; ++i) {
        ASSERT_GE(t.at("lifetime")[i], 3.0 - 0.4 - 1e-6);
        ASSERT_LE(t.at("lifetime")[i], 3.0 + 0.4 + 1e-6);
        ASSERT_LE(std::hypot(t.at("x")[i], t.at("z")[i]), 0.35 + 1e-6) << "--emitter circle was not applied";
    }
}

TEST_F(SnapshotCommand, MalformedConfigNamesTheFileAndLine) {
    writeFile(dir_ / "broken.toml", "[model]\nlifetime = 2.0\nemitter = \n");
    const Outcome r = run("snapshot --time 0 --config " + path("broken.toml") + " --out " + path("s.csv"));
    EXPECT_EQ(r.code, 2);
    EXPECT_TRUE(contains(r.err, "broken.toml:3")) << r.err;
    EXPECT_FALSE(fs::exists(dir_ / "s.csv"));
}

TEST_F(SnapshotCommand, BadValueInConfigNamesTheFileLineAndParameter) {
    writeFile(dir_ / "bad.toml", "[model]\nemitter = \"rect\"\nlifetime = -1.0\n");
    Outcome r = run("snapshot --time 0 --config " + path("bad.toml") + " --out " + path("s.csv"));
    EXPECT_EQ(r.code, 2);
    EXPECT_TRUE(contains(r.err, "bad.toml:3")) << r.err;
    EXPECT_TRUE(contains(r.err, "lifetime")) << r.err;

    writeFile(dir_ / "bad.toml", "[model]\nemitter = \"cube\"\n");
    r = run("snapshot --time 0 --config " + path("bad.toml") + " --out " + path("s.csv"));
    EXPECT_EQ(r.code, 2);
    EXPECT_TRUE(contains(r.err, "bad.toml:2")) << r.err;
    EXPECT_TRUE(contains(r.err, "rect, circle, sphere")) << r.err;

    writeFile(dir_ / "bad.toml", "[model]\nlifetim = 2.0\n");
    r = run("snapshot --time 0 --config " + path("bad.toml") + " --out " + path("s.csv"));
    EXPECT_EQ(r.code, 2);
    EXPECT_TRUE(contains(r.err, "lifetim")) << r.err;
}

TEST_F(SnapshotCommand, MissingConfigExitsTwo) {
    const Outcome r = run("snapshot --time 0 --config " + path("nope.toml") + " --out " + path("s.csv"));
    EXPECT_EQ(r.code, 2);
    EXPECT_TRUE(contains(r.err, "nope.toml")) << r.err;
}

TEST_F(SummaryCommand, RunsWithoutASubcommand) {
    const Outcome r = run("--time 0.5 --particles 1000");
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_TRUE(contains(r.out, "alive")) << r.out;
    EXPECT_TRUE(contains(r.out, "circle")) << r.out;
    EXPECT_EQ(run("--particles -3").code, 2);
}

// Each render option has one help line, the same in `firelab list` and every command's --help.
TEST_F(CommandHelp, ListAndHelpShowEveryRenderOptionWithItsOneHelpLine) {
    const Outcome list = run("list");
    ASSERT_EQ(list.code, 0) << list.err;
    EXPECT_TRUE(contains(list.out, "billboards-instanced")) << list.out;
    for (const char* command : {"run", "sweep", "capture", "view"}) {
        const Outcome help = run(std::string(command) + " --help");
        ASSERT_EQ(help.code, 0) << command;
        for (const auto& o : firelab::harness::renderOptions()) {
            const std::string line = firelab::harness::renderOptionHelp(o);
            EXPECT_TRUE(contains(list.out, o.name + " ") && contains(list.out, line)) << o.name << "\n" << list.out;
            EXPECT_TRUE(contains(help.out, "--" + o.name) && contains(help.out, line)) << command << " " << o.name;
        }
    }
    EXPECT_TRUE(contains(list.out, "quad | 4 | 8")) << list.out;
}

TEST_F(CommandHelp, HelpAndVersionExitZero) {
    const Outcome h = run("snapshot --help");
    EXPECT_EQ(h.code, 0);
    EXPECT_TRUE(contains(h.out, "--emitter")) << h.out;
    EXPECT_EQ(run("--version").code, 0);
}

}  // namespace

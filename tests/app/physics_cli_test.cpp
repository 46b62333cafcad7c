// firelab physics through the command line in process: the record's three files with their declared columns, a
// second run replacing its own record and never another folder's files, and bad input refused with exit 2 naming
// the flag, the value and what is allowed.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>

#include <nlohmann/json.hpp>

#include "core/text.h"
#include "physics/record.h"
#include "support/cli_in_process.h"

namespace firelab::testing {
namespace {

class PhysicsCli : public Cli {
protected:
    // A small fire over a short window: 2000 particles, 4 s at 1/30 s, peaks sought from 1 Hz.
    std::string small(const std::string& out) const {
        return "physics --particles 2000 --time 4 --dt 0.0333333 --min-frequency 1 --top 2 --bin 0.1 --out " + out;
    }
    static std::vector<std::string> lines(const fs::path& p) { return splitOn(readFile(p), '\n'); }
    template <size_t N>
    static std::string header(const std::array<physics::Column, N>& columns) {
        std::string h;
        for (const auto& c : columns) h += (h.empty() ? "" : ",") + std::string(c.name);
        return h;
    }
};

TEST_F(PhysicsCli, WritesTheRecordWithItsDeclaredColumns) {
    const Outcome r = run(small(path("rec")) + " --color blackbody");
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_TRUE(contains(r.err, "120 frames")) << r.err;
    const auto heights = lines(dir_ / "rec" / "physics.csv");
    ASSERT_EQ(heights.size(), 21u);  // the header and 2 m / 0.1 m bins
    EXPECT_EQ(heights[0], header(physics::kHeightColumns));
    // The lowest bin always holds the flame; z / Q^(2/5) at Q inferred from the flame height.
    EXPECT_TRUE(heights[1].starts_with("0.05,0.") && contains(heights[1], ",1,")) << heights[1];
    const auto spectrum = lines(dir_ / "rec" / "spectrum.csv");
    EXPECT_EQ(spectrum[0], header(physics::kSpectrumColumns));
    EXPECT_EQ(spectrum.size(), 1u + 61u);  // 120 samples: frequencies 0 .. 60 / 4 s
    std::ifstream in(dir_ / "rec" / "meta.json");
    const nlohmann::json meta = nlohmann::json::parse(in);
    EXPECT_EQ(meta["record"], "physics");
    EXPECT_EQ(meta["frames"], 120);
    EXPECT_NEAR(meta["window_s"].get<double>(), 4.0, 1e-3);
    EXPECT_TRUE(meta["has_temperature"].get<bool>());
    EXPECT_EQ(meta["layers"][0]["params"]["seed"], "1");
    EXPECT_NEAR(meta["summary"]["tip_spectrum"]["resolution_hz"].get<double>(), 0.25, 1e-3);
    EXPECT_GT(meta["summary"]["flame_height_m"].get<double>(), 0.1);
    EXPECT_GE(meta["summary"]["tip_spectrum"]["peak_hz"].get<double>(), 1.0);  // at or above --min-frequency
}

// A parameterised fire: the record says its size and power, and the correlations' values beside the measured.
TEST_F(PhysicsCli, SetsAParameterisedFireBesideItsCorrelations) {
    const Outcome r = run(small(path("rec")) + " --fire-diameter 0.3 --heat-release 30");
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_TRUE(contains(r.err, "against a 0.3 m, 30 kW pool")) << r.err;
    std::ifstream in(dir_ / "rec" / "meta.json");
    const nlohmann::json meta = nlohmann::json::parse(in);
    const nlohmann::json& c = meta["correlations"];
    EXPECT_EQ(c["heat_release_from"], "--heat-release");
    EXPECT_NEAR(c["heskestad_flame_height_m"].get<double>(), 0.235 * std::pow(30.0, 0.4) - 1.02 * 0.3, 1e-6);
    EXPECT_NEAR(c["cetegen_ahmed_puffing_hz"].get<double>(), 1.5 / std::sqrt(0.3), 1e-6);
    EXPECT_TRUE(c["flame_height_error"].is_number());
    EXPECT_EQ(meta["layers"][0]["params"]["color"], "blackbody");
    const auto heights = lines(dir_ / "rec" / "physics.csv");
    // z / Q^(2/5) of the lowest bin, and McCaffrey's continuous flame there (800 K).
    EXPECT_TRUE(heights[1].starts_with("0.05," +
                                       core::formatFloat(static_cast<float>(0.05 / std::pow(30.0, 0.4))).substr(0, 6)))
        << heights[1];
    EXPECT_TRUE(contains(heights[1], ",800,")) << heights[1];
}

// --experiment: each run of the sweep its own record, a summary row each, the combinations out of range left out.
TEST_F(PhysicsCli, MeasuresEachRunOfAnExperiment) {
    const fs::path file = dir_ / "pools.toml";
    std::ofstream(file) << "[experiment]\nname = \"pools\"\nleave-out = true\n[model]\nparticles = 1500\n"
                           "[sweep]\nfire-diameter = [0.3, 3]\nheat-release = [30, 3000]\n";
    const std::string args = "physics --experiment " + file.string() +
                             " --time 4 --dt 0.0333333 --min-frequency 1 --top 6 --bin 0.1 --out " + path("sweep");
    const Outcome r = run(args);
    ASSERT_EQ(r.code, 0) << r.err;
    // 3 m at 30 kW: Q^(2/5)/D = 1.3, below Heskestad's 7.
    EXPECT_TRUE(contains(r.err, "left out: fire-diameter=3;heat-release=30")) << r.err;
    const auto summary = lines(dir_ / "sweep" / "summary.csv");
    ASSERT_EQ(summary.size(), 4u) << readFile(dir_ / "sweep" / "summary.csv");
    EXPECT_TRUE(summary[0].starts_with("run_key,diameter_m,heat_release_kw,flame_height_m,heskestad_flame_height_m"));
    EXPECT_TRUE(summary[1].starts_with("\"fire-diameter=0.3;heat-release=30\",0.3,30,")) << summary[1];
    EXPECT_TRUE(summary[3].starts_with("\"fire-diameter=3;heat-release=3000\",3,3000,")) << summary[3];
    std::ifstream in(dir_ / "sweep" / "run-003" / "meta.json");
    const nlohmann::json meta = nlohmann::json::parse(in);
    EXPECT_EQ(meta["run_key"], "fire-diameter=3;heat-release=3000");
    EXPECT_EQ(meta["layers"][0]["params"]["particles"], "1500");
    EXPECT_FALSE(fs::exists(dir_ / "sweep" / "run-002"));  // the one left out

    // The folder's meta.json lists the runs. It is written before the first run too, so an interrupted
    // experiment's folder is still a record that a rerun may replace.
    {
        std::ifstream top(dir_ / "sweep" / "meta.json");
        EXPECT_EQ(nlohmann::json::parse(top)["runs"].size(), 3u);
    }
    // Run again with one value: the earlier runs go with the record they belonged to.
    ASSERT_EQ(run(args + " --heat-release 3000 --fire-diameter 0.3").code, 0);
    EXPECT_EQ(lines(dir_ / "sweep" / "summary.csv").size(), 2u);
    EXPECT_FALSE(fs::exists(dir_ / "sweep" / "run-003"));
    // A single fire in its place: the experiment's summary and runs go.
    ASSERT_EQ(run(small(path("sweep"))).code, 0);
    EXPECT_FALSE(fs::exists(dir_ / "sweep" / "summary.csv"));
    EXPECT_FALSE(fs::exists(dir_ / "sweep" / "run-000"));

    const Outcome both = run(args + " --config " + file.string());
    EXPECT_EQ(both.code, 2);
    EXPECT_TRUE(contains(both.err, "--config") && contains(both.err, "--experiment")) << both.err;
}

TEST_F(PhysicsCli, ReplacesItsOwnRecordAndNoOtherFolder) {
    ASSERT_EQ(run(small(path("rec"))).code, 0);
    EXPECT_EQ(run(small(path("rec")) + " --seed 2").code, 0);
    std::ifstream in(dir_ / "rec" / "meta.json");
    EXPECT_EQ(nlohmann::json::parse(in)["layers"][0]["params"]["seed"], "2");

    fs::create_directories(dir_ / "sweep");
    { std::ofstream(dir_ / "sweep" / "runs.csv") << "strategy\npoints\n"; }
    const Outcome r = run(small(path("sweep")));
    EXPECT_EQ(r.code, 2);
    EXPECT_TRUE(contains(r.err, "--out")) << r.err;
    EXPECT_EQ(readFile(dir_ / "sweep" / "runs.csv"), "strategy\npoints\n");
    EXPECT_FALSE(fs::exists(dir_ / "sweep" / "physics.csv"));
}

TEST_F(PhysicsCli, BadInputNamesTheFlagAndWhatIsAllowed) {
    const std::string out = " --out " + path("rec");
    const struct {
        std::string args;
        std::vector<std::string> mentions;
    } cases[] = {
        {"physics --bin 0 --time 4 --min-frequency 1" + out, {"--bin 0", "(0, 10]"}},
        {"physics --top -1 --time 4 --min-frequency 1" + out, {"--top -1", "(0, 1000]"}},
        {"physics --flame-threshold 1.5 --time 4 --min-frequency 1" + out, {"--flame-threshold 1.5", "(0, 1]"}},
        {"physics --centreline-radius 0 --time 4 --min-frequency 1" + out, {"--centreline-radius 0"}},
        {"physics --time 4 --min-frequency 0.5" + out, {"--time 4", "--min-frequency 0.5", "at least 8 s"}},
        {"physics --top 1000 --bin 0.001 --time 4 --min-frequency 1" + out, {"--top", "--bin", "100000 bins"}},
        {"physics --bin 10 --time 4 --min-frequency 1" + out, {"--bin 10 with --top 3", "fewer than 2 bins"}},
        {"physics --time 4 --min-frequency 1 --dt 0" + out, {"--dt"}},
        {"physics --time 4 --min-frequency 1 --particles 0" + out, {"particles"}},
        {"physics --time 4 --min-frequency 1 --fire-diameter 1" + out, {"--fire-diameter 1 needs --heat-release"}},
        {"physics --time 4 --min-frequency 1 --fire-diameter 0.01 --heat-release 1" + out,
         {"--fire-diameter 0.01", "0.03 to 50 m"}},
        {"physics --time 4 --min-frequency 1 --fire-diameter 1 --heat-release 1" + out,
         {"--heat-release 1", "7 to 700"}},
        {"physics --time 4 --min-frequency 1 --fire-diameter -1 --heat-release 100" + out, {"--fire-diameter"}},
        {"physics --time 4 --min-frequency 1 --fire-diameter 1 --heat-release 500 --effect campfire" + out,
         {"--effect campfire", "--fire-diameter"}},
    };
    for (const auto& c : cases) {
        SCOPED_TRACE(c.args);
        const Outcome r = run(c.args);
        EXPECT_EQ(r.code, 2) << r.err;
        for (const auto& m : c.mentions) EXPECT_TRUE(contains(r.err, m)) << r.err;
        EXPECT_FALSE(fs::exists(dir_ / "rec" / "meta.json"));  // refused before anything is written
    }
}

}  // namespace
}  // namespace firelab::testing

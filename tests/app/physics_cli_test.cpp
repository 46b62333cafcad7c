// firelab physics through the command line in process: the record's three files with their declared columns, a
// second run replacing its own record and never another folder's files, and bad input refused with exit 2 naming
// the flag, the value and what is allowed.
#include <gtest/gtest.h>

#include <fstream>

#include <nlohmann/json.hpp>

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
    EXPECT_TRUE(heights[1].starts_with("0.05,1,")) << heights[1];  // the lowest bin always holds the flame
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
        {"physics --time 4 --min-frequency 1 --dt 0" + out, {"--dt"}},
        {"physics --time 4 --min-frequency 1 --particles 0" + out, {"particles"}},
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

// scripts/cfd_reduce.py, the CFD reference's reducer, on the small probe record committed with the tests
// (tests/physics/data/cfd_probes, written by make_cfd_probes.py: a flame whose tip moves as 0.55 + 0.3 sin(2 pi
// 2.5 t) m): it gives the committed CSVs, with firelab's own columns, finds the flame's height and its puffing,
// and refuses a run that stops early or a window too short for the frequency asked.
#include <cmath>
#include <fstream>
#include <numbers>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "harness/platform/process.h"
#include "physics/estimators.h"
#include "physics/record.h"
#include "support/command_fixture.h"

namespace firelab::testing {
namespace {

const std::string kSource = FIRELAB_SOURCE_DIR;
const std::string kProbes = kSource + "/tests/physics/data/cfd_probes";

class CfdReduce : public CommandTest {
protected:
    // The reducer's exit status; its stdout and stderr in *said.
    int reduce(const std::string& args, std::string* said) const {
        const std::string line = "/usr/bin/python3 " + kSource + "/scripts/cfd_reduce.py " + kProbes + " --out " +
                                 (dir_ / "out").string() + " " + args + " 2>&1";
        return harness::runProcess({"/bin/sh", "-c", line}, said);
    }
    static std::string text(const fs::path& p) {
        std::ifstream in(p);
        std::stringstream s;
        s << in.rdbuf();
        return s.str();
    }
    template <class Columns>
    static std::string header(const Columns& columns) {
        std::string h;
        for (const auto& c : columns) h += (h.empty() ? "" : ",") + std::string(c.name);
        return h + "\n";
    }
    const std::string kWindow = "--start 0.2 --end 4.2 --dt 0.02 --min-frequency 1";
};

TEST_F(CfdReduce, GivesTheCommittedCsvsInFirelabsColumns) {
    std::string said;
    ASSERT_EQ(reduce(kWindow + " --diameter 0.1 --heat-release 10 --case synthetic", &said), 0) << said;
    const std::string expected = kSource + "/tests/physics/data/cfd_expected/";
    const std::string physics = text(dir_ / "out" / "physics.csv"), spectrum = text(dir_ / "out" / "spectrum.csv");
    EXPECT_EQ(physics, text(expected + "physics.csv"));
    EXPECT_EQ(spectrum, text(expected + "spectrum.csv"));
    EXPECT_TRUE(physics.starts_with(header(physics::kHeightColumns))) << physics.substr(0, 200);
    EXPECT_TRUE(spectrum.starts_with(header(physics::kSpectrumColumns))) << spectrum.substr(0, 80);
}

TEST_F(CfdReduce, FindsTheFlamesHeightAndPuffing) {
    std::string said;
    ASSERT_EQ(reduce(kWindow, &said), 0) << said;
    std::ifstream in(dir_ / "out" / "meta.json");
    const nlohmann::json meta = nlohmann::json::parse(in);
    EXPECT_EQ(meta["record"], "physics");
    EXPECT_EQ(meta["frames"], 200);
    const nlohmann::json& s = meta["summary"];
    EXPECT_NEAR(s["flame_height_m"].get<double>(), 0.55, 0.05);  // where the tip is half the time
    EXPECT_NEAR(s["mean_tip_m"].get<double>(), 0.55, 0.1);
    const double resolution = s["tip_spectrum"]["resolution_hz"].get<double>();
    EXPECT_DOUBLE_EQ(resolution, 0.25);  // 1 / 4 s
    EXPECT_NEAR(s["tip_spectrum"]["peak_hz"].get<double>(), 2.5, resolution);
    EXPECT_NEAR(s["emission_spectrum"]["peak_hz"].get<double>(), 2.5, resolution);
}

// The reducer's estimators are numpy's, firelab's are FFTW's: on the same tip series they agree.
TEST_F(CfdReduce, ItsSpectrumIsFirelabsOnTheSameSeries) {
    std::string said;
    ASSERT_EQ(reduce(kWindow, &said), 0) << said;
    // The synthetic flame's attached tip, as the reducer reads it: the top of the run of heights below h(t).
    const double heights[] = {0.1, 0.3, 0.5, 0.7, 0.9};
    std::vector<double> tip;
    for (int k = 0; k < 200; ++k) {
        const double t = 0.2 + 0.02 * k, h = 0.55 + 0.3 * std::sin(2.0 * std::numbers::pi * 2.5 * t);
        double top = 0.0;
        for (double z : heights) {
            if (!(z < h)) break;
            top = z + 0.1;
        }
        tip.push_back(top);
    }
    const physics::Spectrum ours = physics::powerSpectrum(tip, 0.02, 1.0);
    std::istringstream csv(text(dir_ / "out" / "spectrum.csv"));
    std::string line;
    std::getline(csv, line);
    size_t k = 0;
    for (; std::getline(csv, line); ++k) {
        ASSERT_LT(k, ours.power.size());
        const double frequency = std::stod(line.substr(0, line.find(',')));
        const double power = std::stod(line.substr(line.find(',') + 1));
        EXPECT_NEAR(frequency, ours.frequency[k], 1e-9);
        EXPECT_NEAR(power, ours.power[k], 1e-5 * ours.peakPower + 1e-5 * std::abs(ours.power[k])) << "at " << frequency;
    }
    EXPECT_EQ(k, ours.power.size());
}

TEST_F(CfdReduce, RefusesARunThatStoppedEarlyAndAWindowTooShort) {
    std::string said;
    EXPECT_EQ(reduce("--start 0.2 --end 6 --min-frequency 1", &said), 1);
    EXPECT_NE(said.find("did not converge"), std::string::npos) << said;
    EXPECT_FALSE(fs::exists(dir_ / "out" / "physics.csv"));
    EXPECT_EQ(reduce("--start 0.2 --end 1.2 --min-frequency 1", &said), 2);
    EXPECT_NE(said.find("under four periods of --min-frequency 1 Hz"), std::string::npos) << said;
    EXPECT_EQ(reduce("--start 0.2 --end 4.2 --flame-threshold 2", &said), 2);
    EXPECT_NE(said.find("--flame-threshold 2"), std::string::npos) << said;
}

// scripts/cfd_reference.sh refuses bad options before it installs or runs anything.
TEST_F(CfdReduce, TheReferenceScriptRefusesAProbeOutsideTheDomain) {
    const auto script = [&](const std::string& args, std::string* said) {
        return harness::runProcess({"/bin/sh", "-c", "bash " + kSource + "/scripts/cfd_reference.sh " + args + " 2>&1"},
                                   said);
    };
    std::string said;
    // Every call names scratch folders: a regression that got past the checks must not touch the committed ones.
    const std::string scratch = " --work " + (dir_ / "w").string() + " --out " + (dir_ / "o").string();
    EXPECT_EQ(script("--probe-top 1.5" + scratch, &said), 2);
    EXPECT_NE(said.find("--probe-top '1.5': the probes must lie inside the case's domain"), std::string::npos) << said;
    EXPECT_EQ(script("--end-time x" + scratch, &said), 2);
    EXPECT_NE(said.find("--end-time 'x': a number of seconds > 0"), std::string::npos) << said;
    EXPECT_EQ(script("--start 9 --end-time 4" + scratch, &said), 2);
    EXPECT_NE(said.find("--start 9 must be below --end-time 4"), std::string::npos) << said;
    EXPECT_EQ(script("--frobnicate" + scratch, &said), 2);
    EXPECT_EQ(script(scratch + " --work", &said), 2);
    EXPECT_NE(said.find("--work needs a value"), std::string::npos) << said;
    EXPECT_FALSE(fs::exists(dir_ / "w"));
    EXPECT_FALSE(fs::exists(dir_ / "o"));
}

}  // namespace
}  // namespace firelab::testing

// What `firelab sweep --processes K` and `--pairing` refuse before any run: the command line in process
// (support/cli_in_process.h). The processes themselves, their rounds and a resume after a kill:
// processes_e2etest.cpp.
#include <gtest/gtest.h>

#include <fstream>
#include <string>

#include "support/cli_in_process.h"

namespace firelab::testing {
namespace {

class ProcessArguments : public Cli {};

// --processes and --pairing are refused before any run, naming the flag and what is allowed.
TEST_F(ProcessArguments, BadCountsAndPairingsAreRefused) {
    const std::string experiment =
        "[experiment]\nname = \"procs\"\nbaseline = \"strategy=points\"\n"
        "[run]\nwidth = 96\nheight = 64\nwarmup = 2\nframes = 12\nthreads = 1\n[model]\nparticles = 800\n"
        "[sweep]\nstrategy = [\"points\", \"billboards-cpu\"]\n";
    std::ofstream(dir_ / "procs.toml") << experiment;
    Outcome o = run("sweep " + path("procs.toml") + " --out " + path("out") + " --processes 0");
    EXPECT_EQ(o.code, 2) << o.err;
    EXPECT_TRUE(contains(o.err, "--processes")) << o.err;
    EXPECT_TRUE(contains(o.err, "64")) << o.err;  // what is allowed
    EXPECT_FALSE(fs::exists(dir_ / "out" / "runs.csv"));
    o = run("run --strategy points --processes 2 --csv " + path("runs.csv"));
    EXPECT_EQ(o.code, 2) << o.err;
    EXPECT_TRUE(contains(o.err, "--processes 2")) << o.err;
    o = run("sweep " + path("procs.toml") + " --out " + path("out") + " --pairing sideways");
    EXPECT_EQ(o.code, 2) << o.err;
    EXPECT_TRUE(contains(o.err, "--pairing")) << o.err;
    EXPECT_TRUE(contains(o.err, "frames")) << o.err;
    // A pairing that names a configuration the sweep does not have.
    std::string other = experiment;
    other.replace(other.find("strategy=points"), std::string("strategy=points").size(), "strategy=compute");
    std::ofstream(dir_ / "other.toml") << other;
    o = run("sweep " + path("other.toml") + " --out " + path("out2"));
    EXPECT_EQ(o.code, 2) << o.err;
    EXPECT_TRUE(contains(o.err, "baseline")) << o.err;
    EXPECT_TRUE(contains(o.err, "points, billboards-cpu")) << o.err;  // the values it sweeps
}

}  // namespace
}  // namespace firelab::testing

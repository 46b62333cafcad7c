// `firelab sweep --processes K` (issue #37): the rounds repeated in K processes, firelab started again for each
// (`--process k`), each process's rounds in rounds.csv with its number, the summaries' intervals over
// processes then rounds; after a kill, --resume starts only the processes whose rounds are not all done and
// repeats no round. What it refuses before any run is checked in process: processes_test.cpp.
#include <gtest/gtest.h>

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <map>
#include <set>
#include <thread>

#include "harness/results/csv.h"
#include "harness/results/frame_pairs.h"
#include "support/firelab_process.h"

namespace firelab::testing {
namespace {

class Processes : public FirelabProcess {
protected:
    // Two strategies against points, small and short: a round is a second or so on llvmpipe.
    fs::path experiment(int frames = 12) const {
        return write("procs.toml",
                     "[experiment]\nname = \"procs\"\nbaseline = \"strategy=points\"\n"
                     "[run]\nwidth = 96\nheight = 64\nwarmup = 2\nframes = " +
                         std::to_string(frames) +
                         "\nthreads = 1\n[model]\nparticles = 800\n"
                         "[sweep]\nstrategy = [\"points\", \"billboards-cpu\"]\n");
    }
    static std::string key(const harness::Row& r) { return r.at("run_key") + "#" + r.at("round"); }
};

TEST_F(Processes, ThreeProcessesWriteTheirRounds) {
    const Outcome o = run("sweep " + quoted(experiment().string()) + " --out " + path("out") +
                          " --processes 3 --repetitions 2 --no-plots");
    ASSERT_EQ(o.code, 0) << o.err;
    const auto rounds = harness::readRunsCsv(dir_ / "out" / "rounds.csv");
    ASSERT_EQ(rounds.size(), 12u);  // 2 configurations x 3 processes x 2 rounds
    std::map<std::string, std::string> processOf;
    for (const auto& r : rounds) {
        EXPECT_EQ(r.at("status"), "ok");
        EXPECT_EQ(r.at("paired_by"), "frames");
        processOf[key(r)] = r.at("process");
    }
    for (int round = 1; round <= 6; ++round)
        for (const char* k : {"strategy=points", "strategy=billboards-cpu"})
            EXPECT_EQ(processOf[std::string(k) + "#" + std::to_string(round)], std::to_string((round + 1) / 2))
                << k << " round " << round;
    for (const auto& r : harness::readRunsCsv(dir_ / "out" / "runs.csv")) {
        EXPECT_EQ(r.at("processes"), "3");
        EXPECT_EQ(r.at("rounds"), "6");
        EXPECT_LE(std::stod(r.at("frame_ms_ci_low")), std::stod(r.at("frame_ms_median")));
    }
    EXPECT_TRUE(contains(o.err, "process 3 of 3")) << o.err;
    // Every frame is recorded with the process its round ran in: the ratios' intervals resample processes.
    const auto frames = harness::readFrameRecords(dir_ / "out" / "frames.csv");
    ASSERT_FALSE(frames.empty());
    std::set<long> processes;
    for (const auto& f : frames) {
        EXPECT_EQ(f.process, (f.round + 1) / 2) << f.runKey << " round " << f.round;
        processes.insert(f.process);
    }
    EXPECT_EQ(processes, (std::set<long>{1, 2, 3}));
    EXPECT_TRUE(fs::exists(dir_ / "out" / "ratios.csv"));
}

// Killed while its second process measures: the rounds written stay whole; --resume leaves the first
// process's rounds as they are, finishes the second's and measures the third's, each (run, round) once.
TEST_F(Processes, ResumeAfterAKillRepeatsNoRound) {
    const std::string args = "sweep " + quoted(experiment(40).string()) + " --out " + path("out") +
                             " --processes 3 --repetitions 2 --no-plots";
    const pid_t pid = fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
        const std::string cmd = "exec " + quoted(FIRELAB_EXE) + " " + args + " >" + path("first.txt") + " 2>&1";
        ::execl("/bin/sh", "sh", "-c", cmd.c_str(), static_cast<char*>(nullptr));
        ::_exit(127);
    }
    // Wait for the first round of process 2 (round 3), then kill firelab: its process ends with it.
    const fs::path record = dir_ / "out" / "rounds.csv";
    bool reached = false;
    for (int i = 0; i < 3000 && !reached; ++i) {
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
        std::error_code ec;
        if (!fs::exists(record, ec)) continue;
        for (const auto& r : harness::readRunsCsv(record)) reached = reached || r.at("process") == "2";
    }
    ::kill(pid, SIGKILL);
    int status = 0;
    ::waitpid(pid, &status, 0);
    ASSERT_TRUE(reached) << readFile(dir_ / "first.txt");
    std::this_thread::sleep_for(std::chrono::milliseconds(500));  // the process it started stops on its own
    std::map<std::string, std::string> started;                   // the first process's rounds, as measured
    const auto before = harness::readRunsCsv(record);
    for (const auto& r : before)
        if (r.at("process") == "1") started[key(r)] = r.at("started");
    ASSERT_EQ(started.size(), 4u);
    EXPECT_LT(before.size(), 12u);

    const Outcome o = run(args + " --resume");
    ASSERT_EQ(o.code, 0) << o.err;
    EXPECT_FALSE(contains(o.err, "process 1 of 3")) << o.err;  // done: not started again
    EXPECT_TRUE(contains(o.err, "process 3 of 3")) << o.err;
    const auto after = harness::readRunsCsv(record);
    std::set<std::string> seen;
    for (const auto& r : after) {
        EXPECT_TRUE(seen.insert(key(r)).second) << key(r) << " twice";
        EXPECT_EQ(r.at("status"), "ok");
        if (r.at("process") == "1") {
            EXPECT_EQ(r.at("started"), started[key(r)]) << key(r);
        }
    }
    EXPECT_EQ(after.size(), 12u);
}

}  // namespace
}  // namespace firelab::testing

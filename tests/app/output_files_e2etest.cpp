// `firelab run` appending its rows through a symlinked --csv, into the link's target (measured runs: the binary).
// The other outputs that are not regular files are checked in process: output_files_test.cpp.
#include <gtest/gtest.h>

#include "harness/results/csv.h"
#include "support/firelab_process.h"

namespace firelab::testing {
namespace {

class OutputFiles : public FirelabProcess {};

TEST_F(OutputFiles, RunAppendsThroughASymlinkedCsv) {
    fs::create_symlink("real.csv", dir_ / "link.csv");  // dangling until the run creates its target
    const std::string args =
        "run --strategy points --particles 100 --frames 1 --warmup 0 --width 64 --height 48 --csv ";
    ASSERT_EQ(run(args + path("link.csv")).code, 0);
    const Outcome r = run(args + path("link.csv"));
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_TRUE(fs::is_symlink(dir_ / "link.csv"));
    size_t lines = 0;
    for (char c : readFile(dir_ / "real.csv")) lines += c == '\n';
    EXPECT_EQ(lines, 3u) << "a header and two rows, in the link's target";
}

// Each run's line names the settings it was swept over beyond strategy and particles, and a swept model
// parameter has its own column in the CSV (issue 36: both were only inside run_key).
TEST_F(OutputFiles, EachRunsLineAndColumnsShowItsSweptSettings) {
    const Outcome r =
        run("run --strategy points --particles 100 --size-start 0.1,0.2 --frames 1 "
            "--warmup 0 --width 64 --height 48 --csv " +
            path("r.csv"));
    ASSERT_EQ(r.code, 0) << r.err;
    for (const char* swept : {"size-start=0.1", "size-start=0.2"})
        EXPECT_NE(r.out.find(swept), std::string::npos) << r.out;
    const auto rows = harness::readRunsCsv(dir_ / "r.csv");
    ASSERT_EQ(rows.size(), 2u);
    EXPECT_EQ(rows[0].at("size_start"), "0.1");
    EXPECT_EQ(rows[1].at("size_start"), "0.2");
}

// A run that exceeds the process's memory limit says so in its status, naming the limit (issue 36: it read
// "error: std::bad_alloc", as if another cause), and the sweep goes on (exit 1: a failed run); a limit too tight
// for a GL context is refused as such.
TEST_F(OutputFiles, AMemoryLimitIsNamedInTheRunsStatus) {
    // 1.5 GB: room for the context and its shaders (under about 600 MB Mesa's compiler itself may crash; two
    // llvmpipe threads and malloc arenas, so that a many-core machine needs no more), not for
    // 18 million particles' pool (56 bytes each, within the 3/4 of the limit the pool may take) and buffers.
    const Outcome r =
        run("run --strategy points --particles 18000000 --frames 1 --warmup 0 --width 64 --height 48 "
            "--csv " +
                path("m.csv"),
            "ulimit -v 1500000; LP_NUM_THREADS=2 MALLOC_ARENA_MAX=2 ");
    EXPECT_EQ(r.code, 1) << r.err;
    const auto rows = harness::readRunsCsv(dir_ / "m.csv");
    ASSERT_EQ(rows.size(), 1u) << r.err;
    EXPECT_NE(rows[0].at("status").find("out of memory"), std::string::npos) << rows[0].at("status");
    EXPECT_NE(rows[0].at("status").find("1464 MiB (ulimit -v)"), std::string::npos) << rows[0].at("status");
    // Too little for the context itself: refused before the driver, whose shader compiler crashed (SIGSEGV).
    const Outcome tight = run("capture --strategy points --out " + path("cap"), "ulimit -v 400000; LP_NUM_THREADS=2 ");
    EXPECT_EQ(tight.code, 1) << tight.err;
    EXPECT_NE(tight.err.find("address-space limit of 390 MiB (ulimit -v) is below the 640 MiB"), std::string::npos)
        << tight.err;
}

}  // namespace
}  // namespace firelab::testing

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

}  // namespace
}  // namespace firelab::testing

// `firelab compare` through the binary, where it needs a process: ratios.png, drawn by scripts/plot.py. Its
// table and exit codes are checked in process: compare_test.cpp.
#include <gtest/gtest.h>

#include "support/compare_folder.h"
#include "support/firelab_process.h"

namespace firelab::testing {
namespace {

class CompareCommand : public FirelabProcess {
protected:
    std::string folder() const { return quoted(dir_.string()); }
    void writeFiveRounds() const { firelab::testing::writeFiveRounds(dir_); }
};

TEST_F(CompareCommand, DrawsRatiosPngWithThePlotScript) {
    writeFiveRounds();
    const auto r = run("compare " + folder() + " --baseline strategy=points");
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_TRUE(fs::exists(dir_ / "ratios.png")) << r.err;
}

// The plots follow --metric (issue 36: `--metric cpu` changed the table, not ratios.png): these rounds recorded
// no CPU time, so plot.py says it has no CPU ratio to draw, and the report's headline, drawn by the same call,
// lists the CPU time's ratio.
TEST_F(CompareCommand, ThePlotsFollowTheMetric) {
    writeFiveRounds();
    const auto r = run("compare " + folder() + " --baseline strategy=points --metric cpu");
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_NE(r.err.find("no cpu ratio to plot: ratios.png not written"), std::string::npos) << r.err;
    const std::string html = readFile(dir_ / "report.html");
    EXPECT_NE(html.find("strategy=points, CPU time"), std::string::npos) << r.err;
    EXPECT_EQ(html.find("strategy=points, frame time"), std::string::npos);
}

}  // namespace
}  // namespace firelab::testing

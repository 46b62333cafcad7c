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

}  // namespace
}  // namespace firelab::testing

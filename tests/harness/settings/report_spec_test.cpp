// An experiment file's [report] table (the finding's tables and plots, docs/report.md) is the findings
// module's to read: loadExperiment accepts it and runs nothing of it, and still refuses any other table.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "core/error.h"
#include "harness/settings/experiment.h"

#include "support/error_of.h"
#include "support/scratch_dir.h"

namespace {

namespace fs = std::filesystem;
using firelab::ErrorCode;
using firelab::harness::expand;
using firelab::harness::loadExperiment;
using firelab::testing::errorOf;

class ReportSpec : public firelab::testing::ScratchDirTest {};

const std::string kSweep =
    "[experiment]\nname = \"r\"\n[run]\nwidth = 64\nheight = 36\n[sweep]\nstrategy = [\"points\", \"point-sprites\"]\n";

TEST_F(ReportSpec, AReportTableIsAcceptedAndChangesNoRun) {
    const fs::path plain = write("plain.toml", kSweep);
    const fs::path reported = write("reported.toml", kSweep +
                                                         "[report]\nsources = [\".\"]\n"
                                                         "[[report.table]]\nkind = \"configurations\"\n"
                                                         "columns = [\"frame_ms_median [interval]\"]\n"
                                                         "floor = { flip_fire = 0.1 }\n"
                                                         "[[report.plot]]\nkind = \"scatter\"\nfile = \"p.png\"\n"
                                                         "metrics = [\"flip_fire\"]\n");
    const auto a = expand(loadExperiment(plain), plain.string());
    const auto b = expand(loadExperiment(reported), reported.string());
    ASSERT_EQ(a.size(), 2u);
    ASSERT_EQ(b.size(), a.size());
    for (size_t i = 0; i < a.size(); ++i) EXPECT_EQ(a[i].key, b[i].key);
    EXPECT_EQ(loadExperiment(reported).name, "r");
}

TEST_F(ReportSpec, OtherUnknownTablesAreStillRefusedAndTheMessageListsReport) {
    const fs::path f = write("reports.toml", kSweep + "[reports]\nsources = [\".\"]\n");
    const auto e = errorOf([&] { loadExperiment(f); });
    EXPECT_EQ(e.code(), ErrorCode::BadFile);
    const std::string what = e.what();
    EXPECT_NE(what.find("[reports]"), std::string::npos) << what;
    EXPECT_NE(what.find("[report]"), std::string::npos) << what;  // among the tables it expects
}

TEST_F(ReportSpec, AReportThatIsNotATableIsABadFile) {
    const fs::path f = write("not_table.toml", "report = \"tables.md\"\n" + kSweep);
    EXPECT_EQ(errorOf([&] { loadExperiment(f); }).code(), ErrorCode::BadFile);
}

}  // namespace

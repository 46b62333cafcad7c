// harness::compareToBaseline on small sweep folders written here (rounds.csv, runs.csv, meta.json): ratios
// paired by round, their median and bootstrap interval, configurations without a baseline, the errors
// with their identities, folders from before repetitions; and `firelab compare` in process: its table and its
// exit codes (compare_fixture.h writes the folders; ratios.png, drawn by the plot script: compare_e2etest.cpp).
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "support/cli_in_process.h"
#include "support/compare_folder.h"
#include "harness/results/compare.h"
#include "harness/results/csv.h"
#include "harness/results/stats.h"
#include "support/error_of.h"

namespace {

namespace fs = std::filesystem;
using firelab::Error;
using firelab::ErrorCode;
using firelab::harness::compareToBaseline;
using firelab::harness::KeyParts;
using firelab::harness::Row;
using firelab::harness::splitRunKey;
using firelab::testing::errorOf;
using firelab::testing::readRatios;
using firelab::testing::roundRow;

class Compare : public firelab::testing::Cli {
protected:
    std::string folder() const { return firelab::testing::quoted(dir_.string()); }
    void writeMeta(const std::string& axes) const { firelab::testing::writeCompareMeta(dir_, axes); }
    void writeSweep(const std::vector<Row>& rounds, const std::vector<Row>& runs) const {
        firelab::testing::writeCompareSweep(dir_, rounds, runs);
    }
    void writeFiveRounds() const { firelab::testing::writeFiveRounds(dir_); }
};
// `firelab compare` in process: its table on stdout, its warnings and errors on stderr, its exit codes.
using CompareCommand = Compare;

// Issue 23: the CPU time's paired ratio beside the wall time's: where another process stretched one round's
// wall time, the CPU ratio stays the frame's cost; rounds without a CPU time (an older firelab) give none.
TEST_F(Compare, CpuTimeHasItsOwnPairedRatio) {
    std::vector<Row> rounds;
    for (int round = 1; round <= 4; ++round) {
        Row mine = roundRow("billboards-instanced", "1000", round, round == 2 ? 30 : 6);  // round 2 slowed 5x
        Row base = roundRow("points", "1000", round, 3);
        mine["cpu_ms_median"] = "9", base["cpu_ms_median"] = "4.5";
        rounds.push_back(mine);
        rounds.push_back(base);
        rounds.push_back(roundRow("billboards-instanced", "10000", round, 8));  // no CPU time recorded
        rounds.push_back(roundRow("points", "10000", round, 4));
    }
    std::vector<Row> runs;
    for (const auto* key : {"points", "billboards-instanced"})
        for (const auto* n : {"1000", "10000"}) runs.push_back(roundRow(key, n, 1, 1));
    writeSweep(rounds, runs);
    const auto c = compareToBaseline(dir_, "strategy=points");
    ASSERT_EQ(c.rows.size(), 2u);
    ASSERT_TRUE(c.rows[0].cpuRatio.has_value());
    EXPECT_DOUBLE_EQ(c.rows[0].cpuRatio->median, 2.0);
    EXPECT_DOUBLE_EQ(c.rows[0].cpuRatio->low, 2.0);
    EXPECT_DOUBLE_EQ(c.rows[0].cpuRatio->high, 2.0);
    EXPECT_GT(c.rows[0].frameRatio.high, c.rows[0].frameRatio.low);  // the wall time's spread
    EXPECT_FALSE(c.rows[1].cpuRatio.has_value());
    const auto file = readRatios(dir_ / "ratios.csv");
    EXPECT_EQ(file[0].at("cpu_ratio_median"), "2");
    EXPECT_EQ(file[1].at("cpu_ratio_median"), "");
}

TEST_F(Compare, RatiosArePairedByRoundAndARoundWhoseBaselineFailedIsSkipped) {
    writeFiveRounds();
    const auto c = compareToBaseline(dir_, "strategy=points");
    EXPECT_EQ(c.baseline, "strategy=points");
    ASSERT_EQ(c.rows.size(), 2u);  // the baseline's own configurations are left out
    const auto& r = c.rows[0];
    EXPECT_EQ(r.runKey, "strategy=billboards-instanced;particles=1000");
    EXPECT_EQ(r.baselineKey, "strategy=points;particles=1000");
    EXPECT_EQ(r.rounds, 4u);
    // Paired: the median of 3, 2, 1.5, 2.5. (Unpaired medians would give 4 / 1.5; round 3 kept, 2.5.)
    EXPECT_DOUBLE_EQ(r.frameRatio.median, 2.25);
    const auto expected = firelab::harness::bootstrapMedian({3, 2, 1.5, 2.5}, firelab::harness::fnv1a(r.runKey));
    EXPECT_DOUBLE_EQ(r.frameRatio.low, expected.low);
    EXPECT_DOUBLE_EQ(r.frameRatio.high, expected.high);
    EXPECT_LT(r.frameRatio.low, r.frameRatio.median);
    EXPECT_GT(r.frameRatio.high, r.frameRatio.median);
    EXPECT_GE(r.frameRatio.low, 1.5);
    EXPECT_LE(r.frameRatio.high, 3.0);
    ASSERT_TRUE(r.drawRatio.has_value());
    EXPECT_DOUBLE_EQ(r.drawRatio->median, 4.5);
    EXPECT_DOUBLE_EQ(r.frameMs, 3.5);          // median of 3, 4, 1.5, 5
    EXPECT_DOUBLE_EQ(r.baselineFrameMs, 1.5);  // median of 1, 2, 1, 2
    EXPECT_EQ(r.series, "strategy=billboards-instanced");
    EXPECT_EQ(r.innerAxis, "particles");
    EXPECT_EQ(r.innerValue, "1000");
    EXPECT_TRUE(r.note.empty());

    const auto rows = readRatios(c.file);
    ASSERT_EQ(rows.size(), 2u);
    EXPECT_EQ(rows[0].at("frame_ratio_median"), "2.25");
    EXPECT_EQ(rows[0].at("draw_ratio_median"), "4.5");
    EXPECT_EQ(rows[0].at("rounds"), "4");
    EXPECT_EQ(rows[0].at("baseline"), "strategy=points");
    EXPECT_EQ(rows[0].at("baseline_frame_ms"), "1.5");
    EXPECT_EQ(rows[0].at("strategy"), "billboards-instanced");
    EXPECT_EQ(rows[0].at("particles"), "1000");
}

TEST_F(Compare, TheFileHasTheFixedHeaderAndIsTheSameEachTime) {
    writeFiveRounds();
    const auto file = compareToBaseline(dir_, "strategy=points").file;
    const std::string first = firelab::testing::readFile(file);
    const auto header = firelab::harness::parseCsv(first).at(0);
    EXPECT_EQ(header,
              std::vector<std::string>(firelab::harness::kRatioColumns.begin(), firelab::harness::kRatioColumns.end()));
    compareToBaseline(dir_, "strategy=points");
    EXPECT_EQ(firelab::testing::readFile(file), first);
    for (const auto& e : fs::directory_iterator(dir_))  // written atomically: no temporary left behind
        EXPECT_EQ(e.path().filename().string().find(".tmp"), std::string::npos) << e.path();
}

TEST_F(Compare, AConfigurationWhoseBaselineNeverRanOkHasARowWithoutFiguresAndAWarning) {
    writeFiveRounds();
    const auto c = compareToBaseline(dir_, "strategy=points");
    const auto& r = c.rows.at(1);
    EXPECT_EQ(r.runKey, "strategy=billboards-instanced;particles=10000");
    EXPECT_EQ(r.rounds, 0u);
    EXPECT_EQ(r.note, "baseline strategy=points;particles=10000 never ran ok");
    ASSERT_EQ(c.warnings.size(), 1u);
    EXPECT_NE(c.warnings[0].find("strategy=billboards-instanced;particles=10000"), std::string::npos);
    const auto row = readRatios(c.file).at(1);
    EXPECT_EQ(row.at("rounds"), "0");
    for (const auto* col : {"frame_ms", "baseline_frame_ms", "frame_ratio_median", "frame_ratio_ci_low",
                            "frame_ratio_ci_high", "draw_ratio_median"})
        EXPECT_EQ(row.at(col), "") << col;
    EXPECT_EQ(row.at("note"), r.note);
}

TEST_F(Compare, RoundsInWhichOnlyOneOfThePairRanOkGiveNoRatio) {
    writeSweep({roundRow("points", "1000", 1, 2), roundRow("billboards-instanced", "1000", 1, 0),
                roundRow("points", "1000", 2, 0), roundRow("billboards-instanced", "1000", 2, 3)},
               {});
    const auto c = compareToBaseline(dir_, "strategy=points");
    ASSERT_EQ(c.rows.size(), 1u);
    EXPECT_EQ(c.rows[0].rounds, 0u);
    EXPECT_EQ(c.rows[0].note, "no round in which both it and its baseline ran ok");
}

TEST_F(Compare, AFolderWithoutRoundsCsvIsOneRound) {
    std::vector<Row> runs{roundRow("points", "1000", 1, 2, 1), roundRow("billboards-instanced", "1000", 1, 5, 4)};
    for (auto& r : runs) r["round"] = "";                     // as written before repetitions: no round column filled
    firelab::harness::writeRunsCsv(dir_ / "runs.csv", runs);  // and no meta.json: axes from the keys
    const auto c = compareToBaseline(dir_, "strategy=points");
    ASSERT_EQ(c.rows.size(), 1u);
    EXPECT_EQ(c.rows[0].rounds, 1u);
    EXPECT_DOUBLE_EQ(c.rows[0].frameRatio.median, 2.5);
    EXPECT_DOUBLE_EQ(c.rows[0].frameRatio.low, 2.5);
    EXPECT_DOUBLE_EQ(c.rows[0].frameRatio.high, 2.5);
    EXPECT_DOUBLE_EQ(c.rows[0].drawRatio->median, 4.0);
}

TEST_F(Compare, TheBaselineMayBeAnyAxisAndANumberMayBeSpelledOtherwise) {
    writeFiveRounds();
    const auto c = compareToBaseline(dir_, "particles=1e3");
    EXPECT_EQ(c.baseline, "particles=1000");
    ASSERT_EQ(c.rows.size(), 2u);
    EXPECT_EQ(c.rows[1].runKey, "strategy=billboards-instanced;particles=10000");
    EXPECT_EQ(c.rows[1].baselineKey, "strategy=billboards-instanced;particles=1000");
    EXPECT_EQ(c.rows[0].rounds, 0u);  // points at 10000 never ran ok
    EXPECT_EQ(c.rows[1].rounds, 5u);
    // (20 + round) over 3, 4, 100, 1.5, 5 ms: 7, 5.5, 0.23, 16, 5.
    EXPECT_DOUBLE_EQ(c.rows[1].frameRatio.median, 5.5);
    EXPECT_EQ(c.rows[1].innerAxis, "strategy");  // the innermost axis other than the baseline's
    EXPECT_EQ(c.rows[1].series, "particles=10000");
}

// A value holding ';' is escaped in the key as firelab writes it (%3B, harness::runKeyValue); the baseline
// is named by the value as given.
TEST_F(Compare, ValuesHoldingSemicolonsAreSplitByMetaJsonsAxes) {
    Row a = roundRow("points", "1000", 1, 2), b = roundRow("points", "1000", 1, 3);
    a["run_key"] = "strategy=points;label=x%3By=z;particles=1000";
    b["run_key"] = "strategy=points;label=plain;particles=1000";
    firelab::harness::writeRunsCsv(dir_ / "runs.csv", {a, b});
    writeMeta(R"({"strategy": ["points"], "label": ["x;y=z", "plain"], "particles": ["1000"]})");
    const auto c = compareToBaseline(dir_, "label=x;y=z");
    ASSERT_EQ(c.rows.size(), 1u);
    EXPECT_EQ(c.rows[0].baselineKey, a["run_key"]);
    EXPECT_DOUBLE_EQ(c.rows[0].frameRatio.median, 1.5);
}

TEST(SplitRunKey, UsesTheAxisNamesWhenGivenAndGuessesOtherwise) {
    EXPECT_EQ(splitRunKey("strategy=points;label=a;b=c;particles=10", {"strategy", "label", "particles"}),
              (KeyParts{{"strategy", "points"}, {"label", "a;b=c"}, {"particles", "10"}}));
    EXPECT_EQ(splitRunKey("texture=a;b.png;speed=0,1,0"), (KeyParts{{"texture", "a;b.png"}, {"speed", "0,1,0"}}));
    EXPECT_EQ(splitRunKey("single"), KeyParts{});
    EXPECT_EQ(errorOf([] {
                  splitRunKey("particles=10;strategy=points", {"strategy", "particles"});
              }).code(),
              ErrorCode::BadFile);
    EXPECT_EQ(errorOf([] { splitRunKey("strategy=points", {"strategy", "particles"}); }).code(), ErrorCode::BadFile);
    EXPECT_EQ(errorOf([] { splitRunKey("points"); }).code(), ErrorCode::BadFile);
}

TEST_F(Compare, EachBadInputIsRefusedWithItsIdentityAndWhatIsAllowed) {
    const auto missing = errorOf([&] { compareToBaseline(dir_ / "nothing", "strategy=points"); });
    EXPECT_EQ(missing.code(), ErrorCode::MissingFile);
    EXPECT_TRUE(firelab::testing::contains(missing.what(), "no such folder"));
    const auto noRuns = errorOf([&] { compareToBaseline(dir_, "strategy=points"); });
    EXPECT_EQ(noRuns.code(), ErrorCode::MissingFile);
    EXPECT_TRUE(firelab::testing::contains(noRuns.what(), "no runs.csv"));

    writeFiveRounds();
    for (const auto* bad : {"strategy", "=points", "strategy=", ""}) {
        const auto e = errorOf([&] { compareToBaseline(dir_, bad); });
        EXPECT_EQ(e.code(), ErrorCode::BadValue) << bad;
        EXPECT_TRUE(firelab::testing::contains(e.what(), "not KEY=VALUE")) << e.what();
        EXPECT_TRUE(firelab::testing::contains(e.what(), "strategy, particles")) << e.what();
    }
    const auto notSwept = errorOf([&] { compareToBaseline(dir_, "blend=alpha"); });
    EXPECT_EQ(notSwept.code(), ErrorCode::UnknownName);
    EXPECT_TRUE(firelab::testing::contains(notSwept.what(), "'blend' is not a swept setting")) << notSwept.what();
    EXPECT_TRUE(firelab::testing::contains(notSwept.what(), "strategy, particles")) << notSwept.what();
    const auto notAValue = errorOf([&] { compareToBaseline(dir_, "strategy=compute"); });
    EXPECT_EQ(notAValue.code(), ErrorCode::BadValue);
    EXPECT_TRUE(firelab::testing::contains(notAValue.what(),
                                           "'compute' is not among strategy's swept values "
                                           "(points, billboards-instanced)"))
        << notAValue.what();
    EXPECT_FALSE(fs::exists(dir_ / "ratios.csv"));  // nothing is written for bad input
}

TEST_F(CompareCommand, PrintsATableAndExitsTwoForBadInput) {
    writeFiveRounds();
    const auto ok = run("compare " + folder() + " --baseline strategy=points --no-plots");
    ASSERT_EQ(ok.code, 0) << ok.err;
    EXPECT_TRUE(firelab::testing::contains(ok.out, "against strategy=points")) << ok.out;
    EXPECT_TRUE(firelab::testing::contains(ok.out, "strategy=billboards-instanced;particles=1000")) << ok.out;
    EXPECT_TRUE(firelab::testing::contains(ok.out, "2.250 [")) << ok.out;
    EXPECT_TRUE(firelab::testing::contains(ok.err, "warning: strategy=billboards-instanced;particles=10000")) << ok.err;
    EXPECT_TRUE(fs::exists(dir_ / "ratios.csv"));
    EXPECT_FALSE(fs::exists(dir_ / "ratios.png"));

    const auto bad = run("compare " + folder() + " --baseline strategy=compute --no-plots");
    EXPECT_EQ(bad.code, 2);
    EXPECT_TRUE(firelab::testing::contains(bad.err, "--baseline 'strategy=compute'")) << bad.err;
    EXPECT_EQ(run("compare " + folder() + " --baseline points").code, 2);
    EXPECT_EQ(run("compare " + path("nothing") + " --baseline strategy=points").code, 2);
    EXPECT_EQ(run("compare " + folder()).code, 2);  // --baseline is required
}

}  // namespace

namespace {
// A torn or garbage row of runs.csv or rounds.csv, and a rounds.csv that lost rounds, are said (file and line, or
// the run and the counts) and left out, never skipped without a word (issue 36).
TEST_F(Compare, MalformedRowsAndLostRoundsAreSaid) {
    writeFiveRounds();
    const std::string rounds = firelab::testing::readFile(dir_ / "rounds.csv");
    std::ofstream(dir_ / "rounds.csv", std::ios::app) << "sweep,garbage,row\n";
    std::ofstream(dir_ / "runs.csv", std::ios::app) << "sweep,strategy=points;particles=1000,torn";
    auto c = compareToBaseline(dir_, "strategy=points");
    const auto said = [&](const std::string& what) {
        return std::any_of(c.warnings.begin(), c.warnings.end(),
                           [&](const std::string& w) { return w.find(what) != std::string::npos; });
    };
    EXPECT_TRUE(said((dir_ / "rounds.csv").string() + ":22: malformed row")) << c.warnings.front();
    EXPECT_TRUE(said((dir_ / "runs.csv").string() + ":6: malformed row (a torn last line"));
    // rounds.csv cut after its first 10 records: runs summarise 5 rounds each, the file holds fewer.
    std::string cut;
    size_t lines = 0;
    for (const char ch : rounds) {
        cut += ch;
        if (ch == '\n' && ++lines == 11) break;
    }
    std::ofstream(dir_ / "rounds.csv", std::ios::trunc) << cut;
    c = compareToBaseline(dir_, "strategy=points");
    EXPECT_TRUE(said("round(s) of run strategy=points;particles=1000, but runs.csv summarises 5"));
}
}  // namespace

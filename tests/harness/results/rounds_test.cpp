// Repetitions without GL: each round's order, and runs.csv's summary of a configuration's rounds
// (median of the rounds' medians, its bootstrap interval, the scored round's quality columns).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <set>
#include <string>
#include <vector>

#include "harness/results/csv.h"
#include "harness/results/rounds.h"
#include "harness/results/stats.h"

namespace {

namespace h = firelab::harness;
using h::Row;

Row roundRow(int round, double frameMs, double drawMs, const std::string& status = "ok") {
    Row r;
    r["experiment"] = "x";
    r["run_key"] = "strategy=points;particles=1000";
    r["round"] = std::to_string(round);
    r["rounds"] = "1";
    r["status"] = status;
    r["frame_ms_median"] = std::to_string(frameMs);
    r["draw_ms_median"] = std::to_string(drawMs);
    r["sim_ms_median"] = "1";
    r["frames"] = "100";
    r["seconds"] = "2";
    r["alive_mean"] = "1000";
    return r;
}

double num(const Row& r, const std::string& c) { return std::strtod(r.at(c).c_str(), nullptr); }

TEST(Rounds, OneRoundKeepsTheExperimentsOrder) {
    EXPECT_EQ(h::roundOrder(4, 1, 1, 42), (std::vector<size_t>{0, 1, 2, 3}));
}

TEST(Rounds, EachRoundIsAPermutationFromTheSeedTheSameEveryTime) {
    std::set<std::vector<size_t>> orders;
    for (int round = 1; round <= 5; ++round) {
        auto order = h::roundOrder(24, round, 5, 42);
        EXPECT_EQ(order, h::roundOrder(24, round, 5, 42)) << "resume must see the same order";
        orders.insert(order);
        std::sort(order.begin(), order.end());
        for (size_t i = 0; i < order.size(); ++i) EXPECT_EQ(order[i], i);
    }
    EXPECT_EQ(orders.size(), 5u) << "every round has its own order";
    EXPECT_NE(h::roundOrder(24, 1, 5, 42), h::roundOrder(24, 1, 5, 43)) << "the seed chooses the orders";
}

TEST(Rounds, SummaryIsTheMedianOfTheRoundsMediansWithAnIntervalThatHoldsIt) {
    const std::vector<Row> rows{roundRow(1, 10, 5), roundRow(2, 12, 6), roundRow(3, 11, 7), roundRow(4, 30, 5.5),
                                roundRow(5, 10.5, 6.5)};
    const Row s = h::summariseRounds(rows);
    EXPECT_EQ(s.at("rounds"), "5");
    EXPECT_EQ(s.at("round"), "");
    EXPECT_DOUBLE_EQ(num(s, "frame_ms_median"), 11.0);  // the slow round (30 ms) does not move it
    EXPECT_DOUBLE_EQ(num(s, "draw_ms_median"), 6.0);
    EXPECT_LE(num(s, "frame_ms_ci_low"), 11.0);
    EXPECT_GE(num(s, "frame_ms_ci_high"), 11.0);
    EXPECT_GE(num(s, "frame_ms_ci_low"), 10.0);
    EXPECT_LE(num(s, "frame_ms_ci_high"), 30.0);
    EXPECT_LT(num(s, "frame_ms_ci_low"), num(s, "frame_ms_ci_high"));
    EXPECT_NEAR(num(s, "fps"), 1000.0 / 11.0, 1e-3);
    EXPECT_EQ(s.at("frames"), "500");
    EXPECT_DOUBLE_EQ(num(s, "seconds"), 10.0);
    // The same rounds in any order give the same row.
    std::vector<Row> shuffled{rows[3], rows[0], rows[4], rows[2], rows[1]};
    EXPECT_EQ(h::summariseRounds(shuffled), s);
}

TEST(Rounds, FailedRoundsAreLeftOutAndAllFailedSaysWhy) {
    std::vector<Row> rows{roundRow(1, 10, 5), roundRow(2, 99, 99, "error: lost the context"), roundRow(3, 12, 6)};
    const Row s = h::summariseRounds(rows);
    EXPECT_EQ(s.at("rounds"), "2");
    EXPECT_EQ(s.at("status"), "ok");
    EXPECT_DOUBLE_EQ(num(s, "frame_ms_median"), 11.0);
    const Row none = h::summariseRounds({roundRow(1, 1, 1, "error: no GL context")});
    EXPECT_EQ(none.at("rounds"), "0");
    EXPECT_EQ(none.at("status"), "error: no GL context");
}

TEST(Rounds, QualityColumnsComeFromTheScoredRound) {
    std::vector<Row> rows{roundRow(2, 10, 5), roundRow(1, 11, 5), roundRow(3, 12, 5)};
    rows[1]["quality_frames"] = "4";
    rows[1]["ssim_fire"] = "0.987";
    const Row s = h::summariseRounds(rows);
    EXPECT_EQ(s.at("quality_frames"), "4");
    EXPECT_EQ(s.at("ssim_fire"), "0.987");
}

TEST(Rounds, BootstrapIntervalOfOneValueIsThatValueAndIsReproducible) {
    EXPECT_DOUBLE_EQ(h::bootstrapMedian({7.0}, 1).low, 7.0);
    EXPECT_DOUBLE_EQ(h::bootstrapMedian({7.0}, 1).high, 7.0);
    const std::vector<double> v{3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5};
    const auto a = h::bootstrapMedian(v, 9), b = h::bootstrapMedian(v, 9);
    EXPECT_EQ(a.low, b.low);
    EXPECT_EQ(a.high, b.high);
    EXPECT_DOUBLE_EQ(a.median, 4.0);
    EXPECT_LT(a.low, a.high);
    // A wider confidence never narrows the interval.
    const auto wide = h::bootstrapMedian(v, 9, 0.99), narrow = h::bootstrapMedian(v, 9, 0.5);
    EXPECT_LE(wide.low, narrow.low);
    EXPECT_GE(wide.high, narrow.high);
}

TEST(Rounds, RoundsCsvSitsBesideRunsCsv) {
    EXPECT_EQ(h::roundsCsvFor("out/runs.csv"), std::filesystem::path("out/rounds.csv"));
    EXPECT_EQ(h::roundsCsvFor("my.csv"), std::filesystem::path("my.rounds.csv"));
}

}  // namespace

namespace {
// With a baseline, each round keeps a group together with its baseline in the middle, groups and members
// shuffled per round.
TEST(Rounds, GroupsStayTogetherWithTheirBaselineInTheMiddle) {
    // Three groups (particle counts) of four strategies; member 0 of each group is the baseline.
    std::vector<size_t> group;
    std::vector<bool> baseline;
    for (size_t g = 0; g < 3; ++g)
        for (size_t m = 0; m < 4; ++m) group.push_back(g), baseline.push_back(m == 0);
    std::set<std::vector<size_t>> orders;
    for (int round = 1; round <= 4; ++round) {
        const auto order = h::groupedRoundOrder(group, baseline, round, 4, 7);
        ASSERT_EQ(order.size(), 12u);
        orders.insert(order);
        std::vector<size_t> sorted = order;
        std::sort(sorted.begin(), sorted.end());
        for (size_t i = 0; i < sorted.size(); ++i) EXPECT_EQ(sorted[i], i);
        for (size_t block = 0; block < 3; ++block) {
            std::set<size_t> groups;
            for (size_t j = 0; j < 4; ++j) groups.insert(group[order[block * 4 + j]]);
            EXPECT_EQ(groups.size(), 1u) << "a group is split in round " << round;
            EXPECT_TRUE(baseline[order[block * 4 + 2]]) << "the baseline is not in its group's middle";
        }
        EXPECT_EQ(order, h::groupedRoundOrder(group, baseline, round, 4, 7));
    }
    EXPECT_GT(orders.size(), 1u);
    EXPECT_EQ(h::groupedRoundOrder(group, baseline, 1, 1, 7), h::roundOrder(12, 1, 1, 7));
}
}  // namespace

// The column schema (harness/results/schema.h): runs.csv's columns come from their declarations, each
// summarised over rounds by its rule, and a row can hold no column the schema lacks.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <set>
#include <string>

#include "core/error.h"
#include "harness/quality/metrics.h"
#include "harness/results/csv.h"
#include "harness/results/rounds.h"
#include "harness/results/schema.h"
#include "harness/settings/run_settings.h"
#include "render/gl/pass_timer.h"
#include "support/error_of.h"

namespace firelab::testing {
namespace {
namespace h = firelab::harness;
using h::ColumnGroup;
using h::SummaryRule;

TEST(Schema, ColumnsAreUniqueAndEachIntervalFollowsItsMedian) {
    const auto& columns = h::runColumns();
    std::set<std::string> names;
    for (size_t i = 0; i < columns.size(); ++i) {
        const auto& c = columns[i];
        EXPECT_TRUE(names.insert(c.name).second) << c.name << " twice";
        EXPECT_EQ(h::findColumn(c.name), &c);
        if (c.rule != SummaryRule::MedianInterval) continue;
        ASSERT_LT(i + 2, columns.size());
        const std::string stem = c.name.substr(0, c.name.rfind("_median"));
        EXPECT_EQ(columns[i + 1].name, stem + "_ci_low");
        EXPECT_EQ(columns[i + 1].rule, SummaryRule::IntervalLow);
        EXPECT_EQ(columns[i + 2].name, stem + "_ci_high");
        EXPECT_EQ(columns[i + 2].rule, SummaryRule::IntervalHigh);
    }
    EXPECT_EQ(h::findColumn("no_such_column"), nullptr);
}

// Each source of columns is in the schema: the settings marked kColumn, every pass, every metric.
TEST(Schema, ColumnsComeFromSettingsPassesAndMetrics) {
    std::vector<std::string> settingColumns;
    for (const auto& c : h::runColumns())
        if (c.group == ColumnGroup::Setting) {
            settingColumns.push_back(c.setting);
            EXPECT_EQ(c.name, h::csvColumn(c.setting));
            EXPECT_TRUE(h::hasAttrs(c.setting, core::kColumn)) << c.setting;
        }
    EXPECT_EQ(settingColumns, h::settingColumns());  // the same settings, in visitor order
    for (const auto pass : render::kPassNames) {
        const h::Column* c = h::findColumn("gpu_" + std::string(pass) + "_ms_median");
        ASSERT_NE(c, nullptr) << pass;
        EXPECT_EQ(c->rule, SummaryRule::Median);
    }
    for (const auto& m : h::metrics())
        for (const auto column : {m.frameColumn, m.fireColumn}) {
            const h::Column* c = h::findColumn(column);
            ASSERT_NE(c, nullptr) << column;
            EXPECT_EQ(c->group, ColumnGroup::Quality);
            EXPECT_EQ(c->rule, SummaryRule::Scored);
        }
    for (const char* name : {"light_fit_ms_median", "light_shade_ms_median"})
        EXPECT_EQ(h::findColumn(name)->rule, SummaryRule::Median) << name;
}

TEST(Schema, ARowCannotHoldAColumnTheSchemaLacks) {
    h::Row row;
    h::setField(row, "frame_ms_median", "2.5");
    EXPECT_EQ(row["frame_ms_median"], "2.5");
    EXPECT_EQ(errorOf([&] { h::setField(row, "frame_ms_medain", "2.5"); }).code(), ErrorCode::Internal);
    row["frame_ms_medain"] = "2.5";  // written around the check
    const Error e = errorOf([&] { h::rowFields(row); });
    EXPECT_EQ(e.code(), ErrorCode::Internal);
    EXPECT_NE(std::string(e.what()).find("frame_ms_medain"), std::string::npos) << e.what();
    EXPECT_EQ(errorOf([&] { h::summariseRounds({row}); }).code(), ErrorCode::Internal);
}

// Three ok rounds with a different number in every column: each column of the summary is what its rule
// says. (A timing column left out of the rules would keep round 1's value: the bug this schema ended,
// light_fit_ms_median.)
TEST(Schema, SummariseRoundsFollowsEveryColumnsRule) {
    const auto& columns = h::runColumns();
    std::vector<h::Row> rounds(3);
    const double base[3] = {30.0, 10.0, 20.0};  // round 1's values are the largest
    for (size_t r = 0; r < 3; ++r) {
        for (size_t c = 0; c < columns.size(); ++c)
            rounds[r][columns[c].name] = h::csvNumber(base[r] + static_cast<double>(c) / 100.0);
        rounds[r]["experiment"] = "e";
        rounds[r]["run_key"] = "particles=1000";
        rounds[r]["status"] = "ok";
        rounds[r]["round"] = std::to_string(r + 1);
        if (r > 0) rounds[r]["quality_frames"] = "";  // only the first round scores the picture
    }
    std::swap(rounds[0], rounds[2]);  // any order
    const h::Row out = h::summariseRounds(rounds);
    const auto value = [&](const std::string& name) { return std::strtod(out.at(name).c_str(), nullptr); };
    for (size_t c = 0; c < columns.size(); ++c) {
        const auto& col = columns[c];
        if (col.name == "experiment" || col.name == "run_key" || col.name == "status" || col.name == "round") continue;
        SCOPED_TRACE(col.name);
        const double offset = static_cast<double>(c) / 100.0;
        switch (col.rule) {
        case SummaryRule::First:
        case SummaryRule::Scored: EXPECT_NEAR(value(col.name), 30.0 + offset, 1e-4); break;  // round 1's
        case SummaryRule::Median:
        case SummaryRule::MedianInterval: EXPECT_NEAR(value(col.name), 20.0 + offset, 1e-4); break;
        case SummaryRule::IntervalLow: EXPECT_LE(value(col.name), value(columns[c - 1].name)); break;
        case SummaryRule::IntervalHigh: EXPECT_GE(value(col.name), value(columns[c - 2].name)); break;
        case SummaryRule::Mean: EXPECT_NEAR(value(col.name), 20.0 + offset, 1e-4); break;
        case SummaryRule::Sum: EXPECT_NEAR(value(col.name), 60.0 + 3 * offset, 0.6); break;  // frames: rounded
        case SummaryRule::OkRounds: EXPECT_EQ(out.at(col.name), "3"); break;
        case SummaryRule::RoundNumber: EXPECT_EQ(out.at(col.name), ""); break;
        case SummaryRule::Fps: EXPECT_NEAR(value(col.name), 1000.0 / value("frame_ms_median"), 1e-3); break;
        case SummaryRule::Processes: EXPECT_EQ(out.at(col.name), "3"); break;  // `process` differs in every round
        case SummaryRule::Count: ADD_FAILURE() << "not a rule"; break;
        }
    }
}

TEST(Schema, GroupAndRuleNamesAreMetaJsonsWords) {
    EXPECT_EQ(h::groupName(ColumnGroup::Timing), "timing");
    EXPECT_EQ(h::ruleName(SummaryRule::MedianInterval), "median_interval");
    EXPECT_EQ(h::findColumn("particle_scale")->setting, "particle-scale");
}

}  // namespace
}  // namespace firelab::testing

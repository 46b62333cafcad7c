// harness::Runner::runGroup (issue #37): configurations compared with each other drawn in alternation, frame
// by frame, in one process. Every member draws the same number of warm-up and measured frames, from the same
// simulated states (the same seed and steps: the same live particles at each frame), one frame each per cycle
// in an order that varies from cycle to cycle; frames.csv's records hold every measured frame; a member that
// cannot be drawn fails alone; the canary is measured beside them.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "harness/measure/runner.h"
#include "support/gl_fixture.h"

namespace firelab::testing {
namespace {

using harness::GroupResult;
using harness::GroupRun;
using harness::PlannedRun;
using harness::RunSettings;

class Alternation : public GlTest {
protected:
    void SetUp() override {
        GlTest::SetUp();
        if (IsSkipped() || HasFatalFailure()) return;
        runner_ = std::make_unique<harness::Runner>(FIRELAB_SOURCE_DIR, true);
    }
    void TearDown() override {
        runner_.reset();
        GlTest::TearDown();
    }

    static PlannedRun member(const std::string& strategy, const std::string& key) {
        RunSettings s;
        s.strategy = strategy;
        s.params.particles = 1500;
        s.width = 160, s.height = 96;
        s.warmup = 3, s.frames = 12;
        s.threads = 1;
        return {0, key, s};
    }
    GroupResult runGroup(const std::vector<PlannedRun>& planned, uint64_t seed = 5) {
        std::vector<const PlannedRun*> group;
        for (const auto& p : planned) group.push_back(&p);
        return runner_->runGroup(group, GroupRun{"test", planned.front().key, 2, 1, seed});
    }

    std::unique_ptr<harness::Runner> runner_;
};

TEST_F(Alternation, EveryMemberDrawsTheSameFramesFromTheSameStates) {
    const std::vector<PlannedRun> planned{member("points", "strategy=points"),
                                          member("billboards-instanced", "strategy=billboards-instanced"),
                                          member("billboards-cpu", "strategy=billboards-cpu")};
    const GroupResult r = runGroup(planned);
    ASSERT_EQ(r.rows.size(), 3u);
    for (const auto& row : r.rows) {
        SCOPED_TRACE(row.at("run_key"));
        ASSERT_EQ(row.at("status"), "ok");
        EXPECT_EQ(row.at("frames"), "12");
        EXPECT_EQ(row.at("warmup"), "3");
        EXPECT_EQ(row.at("paired_by"), "frames");
        EXPECT_EQ(row.at("alive_mean"), r.rows[0].at("alive_mean"));  // the same simulated states
        EXPECT_GT(std::stod(row.at("canary_cpu_ms")), 0.0);
        EXPECT_GT(std::stod(row.at("canary_gl_ms")), 0.0);
    }
    ASSERT_EQ(r.frames.size(), 36u);
    std::map<long, std::vector<int>> slotsOf;  // cycle -> the members' places in it
    std::map<std::string, int> framesOf;
    for (const auto& f : r.frames) {
        EXPECT_EQ(f.groupKey, "strategy=points");
        EXPECT_EQ(f.round, 2);
        EXPECT_GT(f.frameMs, 0.0);
        slotsOf[f.cycle].push_back(f.slot);
        ++framesOf[f.runKey];
    }
    for (const auto& [key, n] : framesOf) EXPECT_EQ(n, 12) << key;
    ASSERT_EQ(slotsOf.size(), 12u);
    std::set<std::vector<int>> orders;
    for (auto& [cycle, slots] : slotsOf) {
        std::vector<int> sorted = slots;
        std::sort(sorted.begin(), sorted.end());
        EXPECT_EQ(sorted, (std::vector<int>{0, 1, 2})) << "cycle " << cycle;  // each member once
        orders.insert(slots);
    }
    EXPECT_GT(orders.size(), 1u);  // the order changes from cycle to cycle
}

// --max-seconds bounds the group by its members' sum; when it runs out every member stops at the same cycle.
TEST_F(Alternation, ATimeLimitEndsEveryMemberAtTheSameCycle) {
    std::vector<PlannedRun> planned{member("points", "a"), member("billboards-cpu", "b")};
    for (auto& p : planned) p.settings.frames = 100000, p.settings.maxSeconds = 0.2;
    const GroupResult r = runGroup(planned);
    ASSERT_EQ(r.rows.size(), 2u);
    EXPECT_EQ(r.rows[0].at("status"), "ok");
    EXPECT_EQ(r.rows[0].at("frames"), r.rows[1].at("frames"));
    EXPECT_LT(std::stol(r.rows[0].at("frames")), 100000);
    EXPECT_EQ(r.frames.size(), 2 * std::stoul(r.rows[0].at("frames")));
}

// A member whose strategy cannot draw its options fails alone, saying why; the others are measured.
TEST_F(Alternation, AMemberThatCannotBeDrawnFailsAlone) {
    std::vector<PlannedRun> planned{member("points", "a"), member("billboards-instanced", "b")};
    planned[0].settings.render.hull = render::Hull::Eight;  // GL_POINTS take no trimmed hull
    const GroupResult r = runGroup(planned);
    ASSERT_EQ(r.rows.size(), 2u);
    EXPECT_EQ(r.rows[0].at("status").rfind("error: ", 0), 0u) << r.rows[0].at("status");
    EXPECT_EQ(r.rows[1].at("status"), "ok");
    EXPECT_EQ(r.rows[1].at("frames"), "12");
    for (const auto& f : r.frames) EXPECT_EQ(f.runKey, "b");
}

}  // namespace
}  // namespace firelab::testing

// A frame's pass times from its timestamps (render/gl/pass_timer.h), without GL: a pass drawn twice sums its
// spans, a pass the frame did not have stays empty, a span that runs backwards counts as nothing.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "render/gl/pass_timer.h"

namespace firelab::render {
namespace {

size_t index(Pass p) { return static_cast<size_t>(p); }

void expectPass(const PassTimes& t, Pass p, double ms) {
    const auto& v = t.passMs[index(p)];
    ASSERT_TRUE(v) << kPassNames[index(p)] << " missing";
    EXPECT_DOUBLE_EQ(*v, ms) << kPassNames[index(p)];
}

TEST(PassTimes, SumsAPassDrawnTwiceAndLeavesAbsentPassesEmpty) {
    // ns: frame start, scene 1..3 ms, particles 3..4 ms, composite 4..4.5 ms, particles 5..7 ms, frame end 10 ms.
    const std::vector<uint64_t> stamps{0,         1'000'000, 3'000'000, 3'000'000, 4'000'000,
                                       4'000'000, 4'500'000, 5'000'000, 7'000'000, 10'000'000};
    const std::vector<PassSpan> spans{
        {Pass::Scene, 1, 2}, {Pass::Particles, 3, 4}, {Pass::Composite, 5, 6}, {Pass::Particles, 7, 8}};
    const PassTimes t = passTimes(stamps, 9, spans);
    EXPECT_DOUBLE_EQ(t.frameMs, 10.0);
    expectPass(t, Pass::Scene, 2.0);
    expectPass(t, Pass::Particles, 3.0);
    expectPass(t, Pass::Composite, 0.5);
    for (Pass p : {Pass::Simulate, Pass::Sort, Pass::Depth, Pass::Tonemap})
        EXPECT_FALSE(t.passMs[index(p)]) << kPassNames[index(p)];
}

TEST(PassTimes, AnEmptySpanIsPresentAndABackwardOneCountsZero) {
    const std::vector<uint64_t> stamps{100, 500, 500, 900, 300, 1'000'100};
    const std::vector<PassSpan> spans{{Pass::Scene, 1, 2}, {Pass::Tonemap, 3, 4}};
    const PassTimes t = passTimes(stamps, 5, spans);
    EXPECT_DOUBLE_EQ(t.frameMs, 1.0);
    expectPass(t, Pass::Scene, 0.0);
    expectPass(t, Pass::Tonemap, 0.0);
}

}  // namespace
}  // namespace firelab::render

// Which model features each strategy draws (render::checkModel, GL-free): a strategy that would draw
// another fire than the CPU model's refuses the run with a message naming the parameter; every other
// strategy accepts it.
#include <gtest/gtest.h>

#include <string>

#include "core/error.h"
#include "render/strategies/strategy.h"

namespace firelab::testing {
namespace {

::testing::AssertionResult refuses(std::string_view strategy, const sim::FireParams& p, const std::string& flag) {
    try {
        render::checkModel(strategy, p);
    } catch (const Error& e) {
        const std::string what = e.what();
        if (e.code() != ErrorCode::BadValue) return ::testing::AssertionFailure() << "not BadValue: " << what;
        if (what.find(flag) == std::string::npos || what.find(strategy) == std::string::npos)
            return ::testing::AssertionFailure() << "the message lacks " << flag << " or the strategy: " << what;
        return ::testing::AssertionSuccess();
    }
    return ::testing::AssertionFailure() << strategy << " accepted it";
}

TEST(ModelSupport, DefaultsAreDrawnByEveryStrategy) {
    for (const auto& info : render::strategies()) EXPECT_NO_THROW(render::checkModel(info.name, sim::FireParams{})) << info.name;
}

// --ground bounce: every strategy draws it, the closed form too (gpu_stateless.vert bounces each
// particle's turbulence-free path in closed form).
TEST(ModelSupport, EveryStrategyDrawsGroundBounce) {
    sim::FireParams p;
    p.ground = sim::Ground::Bounce;
    for (const auto& info : render::strategies()) EXPECT_NO_THROW(render::checkModel(info.name, p)) << info.name;
}

// gpu-stateless reuses its slots every particles / rate seconds: it refuses a rate whose longest lives
// (lifetime + lifetime-var) would not fit in that period, and says how many particles would do.
TEST(ModelSupport, ClosedFormRefusesARateThatWouldCutLivesShort) {
    sim::FireParams p;
    p.particles = 3000;
    p.rate = 2000.0f;  // lives up to 1.6 s: 3200 slots needed
    EXPECT_TRUE(refuses("gpu-stateless", p, "--rate 2000"));
    EXPECT_TRUE(refuses("gpu-stateless", p, "--particles 3200"));
    EXPECT_NO_THROW(render::checkModel("compute", p));  // the CPU model and compute drop the extra births
    p.particles = 3200;
    EXPECT_NO_THROW(render::checkModel("gpu-stateless", p));
    p.burst = 100;  // the burst's slots come on top of the steady ones
    EXPECT_TRUE(refuses("gpu-stateless", p, "--particles 3300"));
}

// compute-splat splats unturned screen-aligned squares: it refuses any sprite turn; the rasterising
// strategies turn sprites.
TEST(ModelSupport, SplatsRefuseTurnedSprites) {
    for (const auto set : {+[](sim::FireParams& p) { p.rotationVarDeg = 30.0f; },
                           +[](sim::FireParams& p) { p.spinDeg = -45.0f; },
                           +[](sim::FireParams& p) { p.spinVarDeg = 10.0f; }}) {
        sim::FireParams p;
        set(p);
        EXPECT_TRUE(refuses("compute-splat", p, "--spin"));
        for (const char* s : {"billboards-cpu", "billboards-instanced", "compute", "gpu-stateless", "point-sprites"})
            EXPECT_NO_THROW(render::checkModel(s, p)) << s;
    }
}

}  // namespace
}  // namespace firelab::testing

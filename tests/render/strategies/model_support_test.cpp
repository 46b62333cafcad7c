// Which model features each strategy draws (render::checkModel, GL-free): a strategy that would draw
// another fire than the CPU model's refuses the run with a message naming the parameter; every other
// strategy accepts it.
#include <gtest/gtest.h>

#include <functional>
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
    for (const auto& info : render::strategies())
        EXPECT_NO_THROW(render::checkModel(info.name, sim::FireParams{})) << info.name;
}

// --ground bounce: every strategy draws it, the closed form too (gpu_stateless.vert bounces each
// particle's turbulence-free path in closed form).
TEST(ModelSupport, EveryStrategyDrawsGroundBounce) {
    sim::FireParams p;
    p.ground = sim::Ground::Bounce;
    for (const auto& info : render::strategies()) EXPECT_NO_THROW(render::checkModel(info.name, p)) << info.name;
}

// A closed form (gpu-stateless) reuses its slots every particles / rate seconds: it refuses a rate whose
// longest lives (lifetime + lifetime-var) would not fit in that period, and says how many particles would do.
// The others, like the CPU model, drop the births beyond --particles.
TEST(ModelSupport, ClosedFormRefusesARateThatWouldCutLivesShort) {
    const auto closedForm = [](const render::StrategyInfo& s) { return s.closedForm; };
    for (const auto& name : render::strategyNames(closedForm)) {
        sim::FireParams p;
        p.particles = 3000;
        p.rate = 2000.0f;  // lives up to 1.6 s: 3200 slots needed
        EXPECT_TRUE(refuses(name, p, "--rate 2000"));
        EXPECT_TRUE(refuses(name, p, "--particles 3200"));
        p.particles = 3200;
        EXPECT_NO_THROW(render::checkModel(name, p)) << name;
        p.burst = 100;  // the burst's slots come on top of the steady ones
        EXPECT_TRUE(refuses(name, p, "--particles 3300"));
    }
    sim::FireParams p;
    p.particles = 3000;
    p.rate = 2000.0f;
    for (const auto& name : render::strategyNames(std::not_fn(closedForm)))
        EXPECT_NO_THROW(render::checkModel(name, p)) << name;
}

// The viewPlaneOnly strategies (compute-splat) splat unturned screen-aligned squares: they refuse any sprite
// turn; the rasterising strategies turn sprites.
TEST(ModelSupport, SplatsRefuseTurnedSprites) {
    const auto viewPlaneOnly = [](const render::StrategyInfo& s) { return s.viewPlaneOnly; };
    for (const auto set :
         {+[](sim::FireParams& p) { p.rotationVarDeg = 30.0f; }, +[](sim::FireParams& p) { p.spinDeg = -45.0f; },
          +[](sim::FireParams& p) { p.spinVarDeg = 10.0f; }}) {
        sim::FireParams p;
        set(p);
        for (const auto& name : render::strategyNames(viewPlaneOnly)) EXPECT_TRUE(refuses(name, p, "--spin"));
        for (const auto& name : render::strategyNames(std::not_fn(viewPlaneOnly)))
            EXPECT_NO_THROW(render::checkModel(name, p)) << name;
    }
}

}  // namespace
}  // namespace firelab::testing

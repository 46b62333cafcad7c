// Every strategy draws the particles' looks: tints (--color-var) and turned sprites (--rotation-var,
// --spin, --spin-var): each one's picture changes with them, and the strategies that draw the same
// particles agree as closely with them as without.
#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <map>
#include <string>

#include "support/gl_fixture.h"
#include "harness/quality/image_metrics.h"
#include "render/strategies/strategy.h"

namespace firelab::testing {
namespace {

class Looks : public GlTest {
protected:
    // The default fire, 600 particles at 1.5 s, 192x144, additive, every strategy (or those given), with
    // `look` applied to the model.
    static std::map<std::string, image::Image> drawAll(const std::function<void(sim::FireParams&)>& look,
                                                        std::vector<std::string> strategies = {}) {
        if (strategies.empty()) strategies = render::strategyNames();
        auto settings = smallCapture(strategies, 600);
        look(settings.params);
        settings.overdraw = false;
        std::map<std::string, image::Image> out;
        for (auto& r : harness::renderStrategies(settings)) out.emplace(r.strategy, std::move(r.image));
        return out;
    }
};

// Seed 1, 600 particles (few enough that tints do not average out in a pixel), color-var 0.8. Every
// strategy's picture moves with the tints (measured 37.6-38.5 dB against its own untinted picture); the
// strategies that draw billboards-cpu's particles agree with its tinted picture as they do untinted
// (measured: 100 dB for the other billboard paths and compute, whose shaders hash the tints from rnd as
// sim does, 61 compute-splat, 78 point-sprites), so they draw the same tints, not merely some tint. A closed
// form (gpu-stateless) draws particles of its own, an untextured strategy (points) a shape of its own.
TEST_F(Looks, EveryStrategyTintsItsParticlesAsTheCpuModelDoes) {
    const auto plain = drawAll([](sim::FireParams&) {});
    const auto tinted = drawAll([](sim::FireParams& p) { p.colorVar = 0.8f; });
    const std::string ref = "billboards-cpu";
    for (const auto& [name, image] : tinted) {
        SCOPED_TRACE(name);
        EXPECT_LT(harness::psnr(image, plain.at(name)), 42.0);
        const render::StrategyInfo& info = render::strategyInfo(name);
        if (name == ref || info.closedForm || !info.textured) continue;  // their own particles, or shapes
        const double agree = harness::psnr(image, tinted.at(ref));
        EXPECT_GE(agree, 45.0);
        EXPECT_GE(agree, harness::psnr(plain.at(name), plain.at(ref)) - 2.0);
    }
}

// Sprites turned (--rotation-var 180 --spin 90 --spin-var 60; the viewPlaneOnly strategies, compute-splat,
// refuse, render::checkModel): every textured strategy's picture moves with the turns (measured 34 dB against
// unturned), and the ones drawing billboards-cpu's particles (not a closed form) agree with its turned picture
// (measured 92.5-100 dB for the other billboard paths and compute, 74.8 for point-sprites, whose points'
// squares cut off the turned sprites' corners), so they turn the same particles by the same angles. The
// untextured (points, round) look the same.
TEST_F(Looks, SpritesTurnAsTheCpuModelTurnsThem) {
    const auto all = render::strategyNames([](const render::StrategyInfo& s) { return !s.viewPlaneOnly; });
    const auto plain = drawAll([](sim::FireParams&) {}, all);
    const auto turned = drawAll(
        [](sim::FireParams& p) { p.rotationVarDeg = 180.0f, p.spinDeg = 90.0f, p.spinVarDeg = 60.0f; }, all);
    const std::string ref = "billboards-cpu";
    for (const auto& [name, image] : turned) {
        SCOPED_TRACE(name);
        const render::StrategyInfo& info = render::strategyInfo(name);
        if (!info.textured) {
            EXPECT_GE(harness::psnr(image, plain.at(name)), 90.0);
            continue;
        }
        EXPECT_LT(harness::psnr(image, plain.at(name)), 38.0);
        if (name == ref || info.closedForm) continue;  // its own particles
        const double agree = harness::psnr(image, turned.at(ref));
        EXPECT_GE(agree, 45.0);
        EXPECT_GE(agree, std::min(harness::psnr(plain.at(name), plain.at(ref)), 90.0) - 6.0);  // 90 dB: the same
    }
}

}  // namespace
}  // namespace firelab::testing

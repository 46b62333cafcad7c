// Every strategy draws the particles' looks: tints (--color-var), turned sprites (--rotation-var,
// --spin, --spin-var) and blackbody colours (--color blackbody, --temperature-var): each one's picture
// changes with them, and the strategies that draw the same particles agree as closely with them as without.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
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
    using Pictures = std::map<std::string, image::Image>;
    // Strategy `name`'s pictures in `a` and `b` agree with billboards-cpu's (dB): at least 45, and within 6 of the
    // agreement of the `plain` pictures (what the strategy's own rasterisation allows). Not asked of billboards-cpu
    // itself, a closed form (its own particles) or an untextured strategy (shapes of its own).
    static void expectAgreement(const std::string& name, const Pictures& a, const Pictures& b, const Pictures& plain,
                                const char* plainName) {
        const std::string ref = "billboards-cpu";
        const render::StrategyInfo& info = render::strategyInfo(name);
        if (name == ref || info.closedForm || !info.textured) {
            std::printf("\n");
            return;
        }
        const double base = std::min(harness::psnr(plain.at(name), plain.at(ref)), 90.0);
        const double first = harness::psnr(a.at(name), a.at(ref)), second = harness::psnr(b.at(name), b.at(ref));
        std::printf(", agree %.1f / %.1f dB (%s %.1f)\n", first, second, plainName, base);
        EXPECT_GE(first, 45.0);
        EXPECT_GE(second, 45.0);
        EXPECT_GE(first, base - 6.0);
        EXPECT_GE(second, base - 6.0);
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
    const auto turned =
        drawAll([](sim::FireParams& p) { p.rotationVarDeg = 180.0f, p.spinDeg = 90.0f, p.spinVarDeg = 60.0f; }, all);
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

// --color blackbody at 2400:1200 K, without and with --temperature-var 300 K. Every strategy's picture moves
// with the colour model (measured 22.6-25.7 dB against its gradient picture) and again with the variance
// (35.1-37.5 dB against its blackbody picture without it). The strategies that draw billboards-cpu's particles
// agree with its pictures (whose colours sim computes: the blackbody table over t, and with the variance each
// particle's own colour streamed as its look) as closely as in gradient mode (measured 100 dB for the other billboard paths and compute, 62 compute-splat,
// 81-84 point-sprites; 61-90 in gradient mode), so the
// GPU-simulated compute, which takes each particle's colour from the temperature texture in
// shaders/particle_look.glsl, draws the CPU's colours.
TEST_F(Looks, EveryStrategyDrawsTheCpuModelsBlackbodyColours) {
    const auto plain = drawAll([](sim::FireParams&) {});
    auto blackbody = [](float var) {
        return [var](sim::FireParams& p) {
            p.color = sim::ColorModel::Blackbody;
            p.temperature = {2400.0f, 1200.0f};
            p.temperatureVar = var;
        };
    };
    const auto hot = drawAll(blackbody(0.0f));
    const auto varied = drawAll(blackbody(300.0f));
    for (const auto& [name, image] : hot) {
        SCOPED_TRACE(name);
        std::printf("[ measured ] %s: vs gradient %.1f dB, vs no variance %.1f dB", name.c_str(),
                    harness::psnr(image, plain.at(name)), harness::psnr(varied.at(name), image));
        EXPECT_LT(harness::psnr(image, plain.at(name)), 32.0);
        EXPECT_LT(harness::psnr(varied.at(name), image), 44.0);
        expectAgreement(name, hot, varied, plain, "gradient");
    }
}

// The paper's colour by place in the flame (--color-position 1: white at the core, red at the flame's edge and top;
// and 0.7 with blackbody colours that vary per particle, whose temperature is then taken at the place too): every
// strategy's picture moves with it, and the strategies that draw billboards-cpu's particles agree with its picture as
// closely as they do by age (the CPU-streamed ones take the colour coordinate from their instances' centres in
// particle_common.glsl, billboards-cpu from its vertices, compute from its particles, the media from sim). Measured
// on llvmpipe: every picture 24.7-28.7 dB from its picture by age; agreement 97-100 dB for the other billboard paths
// and compute, 61-64 compute-splat, 83-86 point-sprites (by age: 90, 61, 80); gpu-stateless, whose particles are its
// own, 33.5 dB from billboards-cpu's picture by place against 26.7 from its picture by age.
TEST_F(Looks, EveryStrategyColoursByPlaceInTheFlameAsTheCpuModelDoes) {
    const auto plain = drawAll([](sim::FireParams&) {});
    const auto placed = drawAll([](sim::FireParams& p) { p.colorPosition = 1.0f; });
    const auto hot = drawAll([](sim::FireParams& p) {
        p.color = sim::ColorModel::Blackbody;
        p.temperature = {2400.0f, 1200.0f};
        p.temperatureVar = 300.0f;
    });
    const auto hotPlaced = drawAll([](sim::FireParams& p) {
        p.color = sim::ColorModel::Blackbody;
        p.temperature = {2400.0f, 1200.0f};
        p.temperatureVar = 300.0f;
        p.colorPosition = 0.7f;
    });
    const std::string ref = "billboards-cpu";
    for (const auto& [name, image] : placed) {
        SCOPED_TRACE(name);
        const double moved = harness::psnr(image, plain.at(name)),
                     hotMoved = harness::psnr(hotPlaced.at(name), hot.at(name));
        std::printf("[ measured ] %s: by place vs by age %.1f dB (blackbody %.1f dB)", name.c_str(), moved, hotMoved);
        EXPECT_LT(moved, 40.0);
        EXPECT_LT(hotMoved, 40.0);
        if (render::strategyInfo(name).closedForm) {  // its own particles: nearer billboards-cpu's by place than by age
            const double near = harness::psnr(image, placed.at(ref)), far = harness::psnr(image, plain.at(ref));
            std::printf(", to billboards-cpu's by place %.1f dB, by age %.1f dB\n", near, far);
            EXPECT_GT(near, far + 2.0);
            continue;
        }
        expectAgreement(name, placed, hotPlaced, plain, "by age");
    }
}

}  // namespace
}  // namespace firelab::testing

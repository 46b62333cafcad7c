// Every strategy draws the particles' tints (--color-var): each one's picture changes with it, and the
// strategies that draw the same particles agree as closely with it as without it.
#include <gtest/gtest.h>

#include <map>
#include <string>

#include "gl_fixture.h"
#include "harness/image_metrics.h"
#include "render/strategy.h"

namespace firelab::testing {
namespace {

class Looks : public GlTest {
protected:
    // The default fire, 3000 particles at 1.5 s, 192x144, additive, every strategy; colour variation cv.
    static std::map<std::string, render::Image> drawAll(float cv) {
        std::vector<std::string> all;
        for (const auto& s : render::strategies()) all.emplace_back(s.name);
        auto settings = smallCapture(all, 600);
        settings.params.colorVar = cv;
        settings.overdraw = false;
        std::map<std::string, render::Image> out;
        for (auto& r : harness::renderStrategies(settings)) out.emplace(r.strategy, std::move(r.image));
        return out;
    }
};

// Seed 1, 600 particles (few enough that tints do not average out in a pixel), color-var 0.8. Every
// strategy's picture moves with the tints (measured 37.6-38.5 dB against its own untinted picture); the
// strategies that draw billboards-cpu's particles agree with its tinted picture as they do untinted
// (measured: 100 dB for the other billboard paths and compute, whose shaders hash the tints from rnd as
// sim does, 61 compute-splat, 78 point-sprites), so they draw the same tints, not merely some tint.
TEST_F(Looks, EveryStrategyTintsItsParticlesAsTheCpuModelDoes) {
    const auto plain = drawAll(0.0f), tinted = drawAll(0.8f);
    const std::string ref = "billboards-cpu";
    for (const auto& [name, image] : tinted) {
        SCOPED_TRACE(name);
        EXPECT_LT(harness::psnr(image, plain.at(name)), 42.0);
        if (name == ref || name == "points" || name == "gpu-stateless") continue;  // their own particles or shapes
        const double agree = harness::psnr(image, tinted.at(ref));
        EXPECT_GE(agree, 45.0);
        EXPECT_GE(agree, harness::psnr(plain.at(name), plain.at(ref)) - 2.0);
    }
}

}  // namespace
}  // namespace firelab::testing

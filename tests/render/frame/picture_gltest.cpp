// The picture does not drift: each strategy's frame for a few option sets against golden frames an
// earlier revision drew (tests/render/frame/golden/<case>/<strategy>.png, with the fragment counts in
// counts.csv). Over the fire's pixels the frame must score >= 50 dB PSNR against its golden frame (or
// equal it), and the counting passes must count the same fragments (to 1e-4: a fragment whose alpha is
// at the discard threshold may round either way). Regenerate on purpose only, from the revision whose
// picture is right: FIRELAB_UPDATE_GOLDEN=1 build/tests/firelab_gl_tests --gtest_filter='Picture.*'.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "support/gl_fixture.h"
#include "harness/quality/image_metrics.h"
#include "image/image.h"
#include "render/strategies/strategy.h"

namespace firelab::testing {
namespace {

namespace fs = std::filesystem;
constexpr double kMinPsnr = 50.0;

const fs::path kGolden = fs::path(FIRELAB_SOURCE_DIR) / "tests/render/frame/golden";

struct Case {
    std::string name;
    std::vector<std::string> strategies;
    void (*options)(render::RenderOptions&);
};

// Between them the cases take every shader variant's define: facing, blend, flipbook, soft particles,
// and both counting modes (every case counts). compute only blends additively here: it appends its draw
// list with atomics, so its unsorted draw order, which other blend modes depend on, varies between runs.
const std::vector<Case>& cases() {
    static const std::vector<Case> all{
        {"default",
         {"points", "point-sprites", "billboards-cpu", "billboards-instanced", "billboards-geometry", "gpu-stateless",
          "compute"},
         [](render::RenderOptions&) {}},
        {"flipbook",
         {"point-sprites", "billboards-cpu", "billboards-instanced", "billboards-geometry", "gpu-stateless", "compute"},
         [](render::RenderOptions& o) { o.flipbook = true; }},
        {"alpha-velocity-soft",
         {"points", "point-sprites", "billboards-cpu", "billboards-instanced", "billboards-geometry", "gpu-stateless"},
         [](render::RenderOptions& o) {
             o.blend = render::Blend::Alpha, o.facing = render::Facing::Velocity, o.soft = 0.5f;
         }},
        {"premultiplied-viewpoint-flipbook",
         {"billboards-cpu", "billboards-instanced", "billboards-geometry"},
         [](render::RenderOptions& o) {
             o.blend = render::Blend::Premultiplied, o.facing = render::Facing::Viewpoint, o.flipbook = true;
         }},
    };
    return all;
}

struct Counts {
    double shaded = 0, visible = 0;
};

// counts.csv: case,strategy,fragments_shaded,fragments_visible
std::map<std::string, Counts> readCounts() {
    std::map<std::string, Counts> counts;
    std::ifstream in(kGolden / "counts.csv");
    std::string line;
    std::getline(in, line);  // header
    while (std::getline(in, line)) {
        std::istringstream row(line);
        std::string c, s, shaded, visible;
        std::getline(row, c, ','), std::getline(row, s, ','), std::getline(row, shaded, ','), std::getline(row, visible);
        counts[c + "/" + s] = {std::stod(shaded), std::stod(visible)};
    }
    return counts;
}

class Picture : public GlTest {
protected:
    // The case's options; alpha blending sorted back to front where the strategy can sort.
    static harness::CaptureSettings settingsFor(const Case& c, const std::string& strategy) {
        auto s = smallCapture({strategy});
        c.options(s.render);
        if (render::strategyInfo(strategy).canSort && s.render.blend == render::Blend::Alpha)
            s.render.sort = render::Sort::BackToFront;
        return s;
    }
};

// The fire's pixels: where the frame or its golden frame has any particle fragment.
std::vector<bool> firePixels(const harness::CaptureResult& r) {
    std::vector<bool> mask(r.overdraw.counts.size());
    for (size_t i = 0; i < mask.size(); ++i) mask[i] = r.overdraw.counts[i] > 0.0f;
    return mask;
}

TEST_F(Picture, EveryStrategyDrawsItsGoldenFrame) {
    const bool update = std::getenv("FIRELAB_UPDATE_GOLDEN") != nullptr;
    std::ostringstream countsCsv;
    countsCsv << "case,strategy,fragments_shaded,fragments_visible\n";
    const auto golden = update ? std::map<std::string, Counts>{} : readCounts();
    for (const Case& c : cases()) {
        for (const auto& name : c.strategies) {
            SCOPED_TRACE(c.name + "/" + name);
            const auto r = harness::renderStrategies(settingsFor(c, name)).at(0);
            const fs::path png = kGolden / c.name / (name + ".png");
            if (update) {
                fs::create_directories(png.parent_path());
                image::writePng(png, r.image);
                countsCsv << c.name << ',' << name << ',' << r.fragmentsShaded << ',' << r.overdraw.total << '\n';
                continue;
            }
            const image::Image expected = image::readPng(png);
            const double db = harness::psnr(r.image, expected, firePixels(r));
            EXPECT_GE(db, kMinPsnr);
            const auto it = golden.find(c.name + "/" + name);
            ASSERT_NE(it, golden.end()) << "no row in counts.csv";
            EXPECT_EQ(r.fragmentsShaded, it->second.shaded);
            EXPECT_NEAR(r.overdraw.total, it->second.visible, 1e-4 * it->second.visible);
        }
    }
    if (update) std::ofstream(kGolden / "counts.csv") << countsCsv.str();
}

// The threshold catches a small change: the same fire one simulation step later (1/60 s) is another
// picture by this measure, and so is the flipbook's frame where the plain sprite was expected.
TEST_F(Picture, TheComparisonSeparatesASmallChange) {
    const Case& plain = cases()[0];
    auto later = settingsFor(plain, "billboards-instanced");
    later.time += later.dt;
    const auto r = harness::renderStrategies(later).at(0);
    const auto golden = image::readPng(kGolden / plain.name / "billboards-instanced.png");
    EXPECT_LT(harness::psnr(r.image, golden, firePixels(r)), kMinPsnr);

    auto flipbook = settingsFor(plain, "billboards-instanced");
    flipbook.render.flipbook = true;
    const auto f = harness::renderStrategies(flipbook).at(0);
    EXPECT_LT(harness::psnr(f.image, golden, firePixels(f)), kMinPsnr);
}

}  // namespace
}  // namespace firelab::testing

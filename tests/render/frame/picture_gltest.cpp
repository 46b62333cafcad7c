// The picture does not drift: each strategy's frame for a few option sets against golden frames an
// earlier revision drew (tests/render/frame/golden/<case>/<strategy>.png, with the fragment counts in
// counts.csv). Over the fire's pixels the frame must score >= 50 dB PSNR against its golden frame (or
// equal it), and the counting passes must count the same fragments (to 1e-4: a fragment whose alpha is
// at the discard threshold may round either way). Every registered strategy is a test of its own
// (GoldenFrame.MatchesInEveryCase/<strategy>, - as _) over the cases it takes; one without a golden frame
// fails, saying how to make it. Make them on purpose only, from the revision whose picture is right:
//   FIRELAB_UPDATE_GOLDEN=missing build/tests/firelab_gl_tests --gtest_filter='*GoldenFrame*'  the absent ones
//   FIRELAB_UPDATE_GOLDEN=1 ... --gtest_filter='*GoldenFrame*/billboards_cpu'  all of the filter's, redrawn
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <map>
#include <sstream>
#include <string_view>

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
    void (*options)(render::RenderOptions&);
};

// Between them the cases take every shader variant's define: facing, blend, flipbook, soft particles,
// and both counting modes (every case counts).
const std::vector<Case>& cases() {
    static const std::vector<Case> all{
        {"default", [](render::RenderOptions&) {}},
        {"flipbook", [](render::RenderOptions& o) { o.flipbook = render::kFlameAtlasLayout; }},
        {"alpha-velocity-soft",
         [](render::RenderOptions& o) {
             o.blend = render::Blend::Alpha, o.facing = render::Facing::Velocity, o.soft = 0.5f;
         }},
        {"premultiplied-viewpoint-flipbook",
         [](render::RenderOptions& o) {
             o.blend = render::Blend::Premultiplied, o.facing = render::Facing::Viewpoint,
             o.flipbook = render::kFlameAtlasLayout;
         }},
    };
    return all;
}

// counts.csv: case,strategy,fragments_shaded,fragments_visible; the rows kept as text, by "case/strategy".
constexpr const char* kCountsHeader = "case,strategy,fragments_shaded,fragments_visible";

std::map<std::string, std::string> readCountRows() {
    std::map<std::string, std::string> rows;
    std::ifstream in(kGolden / "counts.csv");
    std::string line;
    std::getline(in, line);  // header
    while (std::getline(in, line)) {
        const size_t a = line.find(','), b = line.find(',', a + 1);
        rows[line.substr(0, a) + "/" + line.substr(a + 1, b - a - 1)] = line;
    }
    return rows;
}

struct Counts {
    double shaded = 0, visible = 0;
};

Counts parseCounts(const std::string& row) {
    std::istringstream in(row);
    std::string c, s, shaded, visible;
    std::getline(in, c, ','), std::getline(in, s, ','), std::getline(in, shaded, ','), std::getline(in, visible);
    return {std::stod(shaded), std::stod(visible)};
}

// Writes the rows in case order, then registry order: a strategy's new rows leave the others' lines as they were.
void writeCountRows(const std::map<std::string, std::string>& rows) {
    std::ofstream out(kGolden / "counts.csv");
    out << kCountsHeader << '\n';
    for (const Case& c : cases())
        for (const auto& info : render::strategies())
            if (const auto it = rows.find(c.name + "/" + std::string(info.name)); it != rows.end())
                out << it->second << '\n';
}

// The fire's pixels: where the frame or its golden frame has any particle fragment.
std::vector<bool> firePixels(const harness::CaptureResult& r) {
    std::vector<bool> mask(r.overdraw.counts.size());
    for (size_t i = 0; i < mask.size(); ++i) mask[i] = r.overdraw.counts[i] > 0.0f;
    return mask;
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

    // Whether the strategy draws the case: it takes the case's options (checkOptions), and its draw order,
    // which blending other than additive depends on, is the same from run to run. A GPU simulation that is
    // not a closed form (compute) appends its draw list with atomics, in an order that varies between runs.
    static bool draws(const Case& c, const std::string& strategy) {
        const auto settings = settingsFor(c, strategy);
        const render::StrategyInfo& info = render::strategyInfo(strategy);
        if (settings.render.blend != render::Blend::Additive && info.simulatesOnGpu && !info.closedForm) return false;
        try {
            render::checkOptions(strategy, settings.render);
            return true;
        } catch (const Error&) {
            return false;
        }
    }
};

// A strategy's test name: its name with _ for - (GoogleTest's names take no dash).
std::string testName(std::string strategy) {
    std::replace(strategy.begin(), strategy.end(), '-', '_');
    return strategy;
}

class GoldenFrame : public Picture, public ::testing::WithParamInterface<std::string> {};

TEST_P(GoldenFrame, MatchesInEveryCase) {
    const std::string& name = GetParam();
    const char* update = std::getenv("FIRELAB_UPDATE_GOLDEN");
    const bool onlyMissing = update != nullptr && std::string_view(update) == "missing";
    auto rows = readCountRows();
    int drawn = 0;
    for (const Case& c : cases()) {
        if (!draws(c, name)) continue;
        ++drawn;
        SCOPED_TRACE(c.name + "/" + name);
        const auto r = harness::renderStrategies(settingsFor(c, name)).at(0);
        const fs::path png = kGolden / c.name / (name + ".png");
        const std::string key = c.name + "/" + name;
        const bool have = fs::exists(png) && rows.contains(key);
        if (update != nullptr && !(onlyMissing && have)) {
            fs::create_directories(png.parent_path());
            image::writePng(png, r.image);
            std::ostringstream row;
            row << std::setprecision(12) << c.name << ',' << name << ',' << r.fragmentsShaded << ','
                << r.overdraw.total;
            rows[key] = row.str();
            continue;
        }
        if (!have) {
            ADD_FAILURE()
                << "no golden frame for " << name << " in case " << c.name << " (" << png.string()
                << ", and its row in counts.csv). Check the strategy's picture (firelab capture --strategy " << name
                << "), then draw its missing golden frames from this revision and commit them:\n"
                << "  FIRELAB_UPDATE_GOLDEN=missing build/tests/firelab_gl_tests --gtest_filter='*GoldenFrame*/"
                << testName(name) << "'";
            continue;
        }
        const image::Image expected = image::readPng(png);
        const double db = harness::psnr(r.image, expected, firePixels(r));
        EXPECT_GE(db, kMinPsnr);
        const Counts golden = parseCounts(rows.at(key));
        EXPECT_EQ(r.fragmentsShaded, golden.shaded);
        EXPECT_NEAR(r.overdraw.total, golden.visible, 1e-4 * golden.visible);
    }
    EXPECT_GT(drawn, 0) << name << " takes none of the cases' options";
    if (update != nullptr) writeCountRows(rows);
}

INSTANTIATE_TEST_SUITE_P(Strategies, GoldenFrame, ::testing::ValuesIn(render::strategyNames()),
                         [](const ::testing::TestParamInfo<std::string>& param) { return testName(param.param); });

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
    flipbook.render.flipbook = render::kFlameAtlasLayout;
    const auto f = harness::renderStrategies(flipbook).at(0);
    EXPECT_LT(harness::psnr(f.image, golden, firePixels(f)), kMinPsnr);
}

}  // namespace
}  // namespace firelab::testing

// firelab capture's outputs, and the overdraw counting pass against a hand-built case.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>

#include "support/gl_fixture.h"
#include "harness/draw/capture.h"
#include "harness/results/csv.h"
#include "harness/draw/overdraw.h"
#include "render/camera.h"
#include "render/strategies/strategy.h"
#include "support/still_particles.h"

namespace firelab::testing {
namespace {
namespace fs = std::filesystem;

class Capture : public GlTest {};

// Three particles at the same place with the same size, an opaque white sprite, no scene: every
// covered pixel is drawn exactly three times, and the covered area is the quad's.
TEST_F(Capture, OverdrawCountsThreeStackedQuads) {
    const fs::path dir = fs::temp_directory_path() / ("firelab-od-" + std::to_string(::getpid()));
    fs::create_directories(dir);
    writeWhiteSprite(dir / "white.png");
    const sim::FireParams p = stillParticles({0.0f, 3.0f, 0.0f}, 0.5f, 3);  // above the logs: nothing occludes
    sim::FireSystem fire(p, 1);
    fire.step(1.0f / 60.0f);
    ASSERT_EQ(fire.pool().alive(), 3u);

    render::StrategyContext sc;
    sc.dataDir = FIRELAB_SOURCE_DIR;
    sc.options.texture = (dir / "white.png").string();
    sc.params = p;
    auto strategy = render::makeStrategy("billboards-instanced", sc);
    const int w = 200, h = 200;
    const float distance = 4.0f;
    const auto camera = render::lookAtCamera({0, 3, distance}, {0, 3, 0}, 45.0f, w, h);
    strategy->upload(fire, camera);
    render::FramePipeline pipeline(FIRELAB_SOURCE_DIR, sc.options, w, h);
    const render::Scene scene(FIRELAB_SOURCE_DIR);
    const auto od = harness::measureOverdraw(pipeline, scene, *strategy, camera);
    EXPECT_DOUBLE_EQ(od.mean, 3.0);
    EXPECT_DOUBLE_EQ(od.max, 3.0);
    // Quad edge in pixels: size * proj[1][1] * h/2 / distance.
    const double edge = 0.5 * camera.proj[1][1] * h / 2.0 / distance;
    EXPECT_NEAR(od.coveredFraction, edge * edge / (w * h), 0.05 * edge * edge / (w * h));
    fs::remove_all(dir);
}

TEST_F(Capture, WritesImagesContactSheetAndCompareCsv) {
    const fs::path out = fs::temp_directory_path() / ("firelab-cap-" + std::to_string(::getpid()));
    auto s = smallCapture({"points", "billboards-instanced"}, 1500);
    s.outDir = out;
    s.reference = "strategy=billboards-cpu;sort=back-to-front";
    const auto results = harness::runCapture(s);  // in a context of its own, as the CLI does
    context().makeCurrent();
    ASSERT_EQ(results.size(), 2u);
    for (const char* f : {"points.png", "billboards-instanced.png", "reference.png", "contact-sheet.png",
                          "overdraw-points.png", "compare.csv"})
        EXPECT_TRUE(fs::exists(out / f)) << f;
    std::ifstream in(out / "compare.csv");
    std::stringstream text;
    text << in.rdbuf();
    const auto rows = harness::parseCsv(text.str());
    ASSERT_EQ(rows.size(), 3u);
    ASSERT_EQ(rows[0], harness::compareColumns());
    for (size_t r = 1; r < rows.size(); ++r) {
        std::map<std::string, std::string> row;
        for (size_t c = 0; c < rows[0].size(); ++c) row[rows[0][c]] = rows[r][c];
        const auto v = [&](const char* col) { return std::stod(row.at(col)); };
        EXPECT_EQ(row["reference"], "strategy=billboards-cpu;sort=back-to-front;supersample=1");
        EXPECT_GT(v("overdraw_mean"), 1.0);  // a flame overlaps itself
        EXPECT_GT(v("fragments_shaded"), v("fragments_visible"));
        EXPECT_LE(v("ssim_fire"), v("ssim"));  // the background agrees: the fire's region is stricter
        EXPECT_GE(v("flip_fire"), v("flip"));
        if (row["strategy"] == "billboards-instanced") {
            EXPECT_GE(v("psnr_db"), 35.0);  // the same quads as the reference (additive: order-free)
            EXPECT_GT(v("ssim_fire"), 0.98);
        } else {
            EXPECT_LT(v("psnr_db"), 35.0);  // points draw another picture
            EXPECT_GT(v("flip_fire"), 0.02);
        }
    }
    const auto sheet = image::readPng(out / "contact-sheet.png");
    EXPECT_GT(sheet.width, s.width);
    fs::remove_all(out);
}

}  // namespace
}  // namespace firelab::testing

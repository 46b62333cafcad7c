// --ground bounce drawn by gpu-stateless, which bounces each particle in closed form (gpu_stateless.vert:
// the turbulence-free path cut at its contacts with the plane, at most 4 bounces, then resting), against
// billboards-cpu, whose model bounces step by step (sim/ground.h). Seen edge-on: the camera's eye on the
// plane, looking horizontally, so the plane is the horizon line between rows kH / 2 - 1 and kH / 2 and a
// particle below it is drawn below that line.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "support/gl_fixture.h"
#include "render/camera.h"
#include "render/gl/frame_target.h"
#include "image/image.h"
#include "render/strategies/strategy.h"
#include "sim/fire_system.h"
#include "support/frame_step.h"

namespace firelab::testing {
namespace {

constexpr int kW = 320, kH = 240;

// Light per row (r + g + b over the row), row 0 at the top.
struct Rows {
    std::vector<double> light;
    double total() const {
        double t = 0.0;
        for (double l : light) t += l;
        return t;
    }
    // The fraction of the light in rows [begin, end).
    double fraction(int begin, int end) const {
        double t = 0.0;
        for (int r = std::max(begin, 0); r < std::min(end, kH); ++r) t += light[static_cast<size_t>(r)];
        return t / total();
    }
    // The light-weighted mean height in rows above the horizon line.
    double meanRowsAbove() const {
        double m = 0.0;
        for (int r = 0; r < kH; ++r) m += light[static_cast<size_t>(r)] * (kH / 2 - r - 0.5);
        return m / total();
    }
};

class GroundBounce : public GlTest {
protected:
    // Embers that fly up, fall and bounce: the setting of SamePicture.ComputeBouncesAsBillboardsCpu.
    static sim::FireParams embers() {
        sim::FireParams p = bouncingEmbers();
        p.particles = 3000;
        return p;
    }

    // The fire at t = 1.5 s drawn alone (no scene) on black, from 3 m away with the eye on the plane.
    static Rows draw(const std::string& strategy, const sim::FireParams& p, int steps = 90) {
        sim::FireSystem fire(p, 1);
        for (int i = 0; i < steps; ++i) fire.step(kDt);
        render::StrategyContext sc;
        sc.dataDir = FIRELAB_SOURCE_DIR;
        sc.params = p;
        auto s = render::makeStrategy(strategy, sc);
        const glm::vec3 eye(0.0f, p.groundHeight, 3.0f);
        const render::Camera camera = render::lookAtCamera(eye, eye - glm::vec3(0.0f, 0.0f, 1.0f), 60.0f, kW, kH);
        s->upload(fire, camera);
        const render::FrameTarget target(kW, kH);
        target.bind();
        glClearColor(0.0f, 0.0f, 0.0f, 0.0f);
        glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
        s->draw({camera});
        glFinish();
        const image::Image image = target.read();
        Rows rows{std::vector<double>(kH, 0.0)};
        for (int y = 0; y < kH; ++y)
            for (int x = 0; x < kW; ++x) {
                const uint8_t* px = image.at(x, y);
                rows.light[static_cast<size_t>(y)] += px[0] + px[1] + px[2];
            }
        return rows;
    }

    // The share of the light in bands of rows above the horizon line: 0-3 (with what reaches under it), 3-8, 8-20
    // and 20+, at t = 4 s.
    static std::array<double, 4> bands(const std::string& strategy, const sim::FireParams& p) {
        const Rows r = draw(strategy, p, 240);
        const int h = kH / 2;
        return {r.fraction(h - 3, kH), r.fraction(h - 8, h - 3), r.fraction(h - 20, h - 8), r.fraction(0, h - 20)};
    }
    static double farthest(const std::array<double, 4>& a, const std::array<double, 4>& b) {
        double d = 0.0;
        for (size_t i = 0; i < a.size(); ++i) d = std::max(d, std::abs(a[i] - b[i]));
        return d;
    }
    // Embers that live 2.5 to 3.5 s in 3 cm sprites: at t = 4 s most have landed, bounced and come to rest.
    static sim::FireParams landedEmbers() {
        sim::FireParams p = embers();
        p.lifetimeMean = 3.0f;
        p.lifetimeVar = 0.5f;
        p.sizeStart = p.sizeEnd = 0.03f;
        p.sizeVar = 0.0f;
        return p;
    }
};

// With sprites 2 cm wide (under 1.4 px at 3 m, turned or not, so under a pixel and a half from their
// centre), no light falls 2 rows or more below the horizon: no particle is below the plane, nor more
// than a few millimetres (the pixel's slack); billboards-cpu's, bounced step by step, neither. Without the
// bounce, most of gpu-stateless's light falls below (the test sees particles under the plane). And the
// plane holds particles: a good share of the light is within 4 rows (6 cm) above the line, where the
// fallen embers rest and hop.
TEST_F(GroundBounce, GpuStatelessDrawsNoParticleBelowThePlane) {
    sim::FireParams p = embers();
    p.sizeStart = p.sizeEnd = 0.02f;
    p.sizeVar = 0.0f;
    for (const char* strategy : {"gpu-stateless", "billboards-cpu"}) {
        const Rows rows = draw(strategy, p);
        const double below = rows.fraction(kH / 2 + 2, kH), near = rows.fraction(kH / 2 - 4, kH / 2 + 2);
        std::printf("[ measured ] %s: light below the plane %.4f, within 4 rows above it %.3f, mean %.1f rows up\n",
                    strategy, below, near, rows.meanRowsAbove());
        ASSERT_GT(rows.total(), 0.0) << strategy;
        EXPECT_EQ(below, 0.0) << strategy;
        EXPECT_GT(near, 0.1) << strategy;
    }
    p.ground = sim::Ground::Off;
    const Rows free = draw("gpu-stateless", p);
    std::printf("[ measured ] gpu-stateless without the plane: light below it %.3f\n", free.fraction(kH / 2 + 2, kH));
    EXPECT_GT(free.fraction(kH / 2 + 2, kH), 0.2);
}

// Embers that live 2.5 to 3.5 s, seen at t = 4 s, so that most have landed, bounced and come to rest:
// gpu-stateless's light falls at the heights billboards-cpu's does (not pixel for pixel: its slots are not
// the CPU's births), measured as the share of the light in bands of rows: 0-3 rows above the line (with
// the sprites of the resting that reach under it), 3-8, 8-20 and 20+ (3 cm sprites; a row is 1.4 cm at
// 3 m). Measured on llvmpipe, gpu-stateless's bands to the CPU's at the same restitution: 0.024 at 0.6,
// 0.042 at 0.3 (it rests exactly on the plane where the CPU's resting embers hop a little), 0.012 at 0.8;
// to the CPU's at 0.6 from 0.3 or 0.8: 0.11 or more; without the plane the CPU's bands move by 0.3. The
// bound, 0.06, holds at each restitution and fails a restitution off by 0.2 or more.
TEST_F(GroundBounce, GpuStatelessLightsTheHeightsBillboardsCpuDoes) {
    sim::FireParams p = landedEmbers();
    const auto at = [&](const std::string& strategy, float restitution) {
        p.restitution = restitution;
        return bands(strategy, p);
    };
    const auto cpu = at("billboards-cpu", 0.6f), gpu = at("gpu-stateless", 0.6f);
    std::printf(
        "[ measured ] bands 0-3 (and below), 3-8, 8-20, 20+ rows: billboards-cpu %.3f %.3f %.3f %.3f, "
        "gpu-stateless %.3f %.3f %.3f %.3f\n",
        cpu[0], cpu[1], cpu[2], cpu[3], gpu[0], gpu[1], gpu[2], gpu[3]);
    EXPECT_LT(farthest(gpu, cpu), 0.06);
    for (const float r : {0.3f, 0.8f}) {
        const auto cpuR = at("billboards-cpu", r), gpuR = at("gpu-stateless", r);
        std::printf("[ measured ] restitution %.1f: gpu-stateless to billboards-cpu %.3f, to the CPU at 0.6 %.3f\n", r,
                    farthest(gpuR, cpuR), farthest(gpuR, cpu));
        EXPECT_LT(farthest(gpuR, cpuR), 0.06) << r;
        EXPECT_GT(farthest(gpuR, cpu), 0.09) << r;
    }
}

// --drag-on launch (NVIDIA's shader): the drag slows the launch velocity only, so the embers keep falling faster
// instead of at a terminal speed. gpu-stateless's contacts are then found on a path whose curvature changes sign
// once (cut there into two pieces); its bands match the CPU's stepped launch drag as closely as the velocity drag's
// do, and the CPU's bands under the velocity drag are farther (the variant changes where the light is). Measured on
// llvmpipe: gpu-stateless to the CPU 0.014; the velocity drag's CPU to the launch drag's 0.156.
TEST_F(GroundBounce, GpuStatelessDragsTheLaunchAsBillboardsCpu) {
    sim::FireParams p = landedEmbers();
    p.drag = 2.0f;
    p.speedMean = {0.0f, 4.0f, 0.0f};
    p.dragOn = sim::DragOn::Launch;
    const auto cpu = bands("billboards-cpu", p), gpu = bands("gpu-stateless", p);
    p.dragOn = sim::DragOn::Velocity;
    const auto velocity = bands("billboards-cpu", p);
    std::printf(
        "[ measured ] launch drag, bands: billboards-cpu %.3f %.3f %.3f %.3f, gpu-stateless %.3f %.3f %.3f %.3f; "
        "gpu-stateless to billboards-cpu %.3f, the velocity drag's CPU to the launch's %.3f\n",
        cpu[0], cpu[1], cpu[2], cpu[3], gpu[0], gpu[1], gpu[2], gpu[3], farthest(gpu, cpu), farthest(velocity, cpu));
    EXPECT_LT(farthest(gpu, cpu), 0.06);
    EXPECT_GT(farthest(velocity, cpu), 0.09);
}

// --bounce-fog 3 (NVIDIA's fog by bounce number): each bounce takes a third of a particle's rgb, so the embers
// that have landed and come to rest after bouncing are darker than the same embers unfogged, while the ones still
// on their first flight are not: in every model that bounces (billboards-cpu's stepped CPU model streams the fog in
// its look, compute counts bounces in its particles, gpu-stateless counts its closed form's contacts), by about
// the same share.
TEST_F(GroundBounce, BounceFogDimsTheLandedEmbersInEveryModel) {
    sim::FireParams p = landedEmbers();
    double cpuLanded = -1.0;
    for (const char* strategy : {"billboards-cpu", "compute", "gpu-stateless"}) {
        p.bounceFog = 0.0f;
        const Rows plain = draw(strategy, p, 240);
        p.bounceFog = 3.0f;
        const Rows fogged = draw(strategy, p, 240);
        const int h = kH / 2;
        const double landed = fogged.fraction(h - 3, kH) * fogged.total() / (plain.fraction(h - 3, kH) * plain.total());
        const double all = fogged.total() / plain.total();
        std::printf("[ measured ] %s: --bounce-fog 3 keeps %.3f of the light within 3 rows of the plane, %.3f of all\n",
                    strategy, landed, all);
        EXPECT_LT(landed, 0.3) << strategy;
        EXPECT_GT(all, landed) << strategy;
        if (cpuLanded < 0.0) cpuLanded = landed;
        EXPECT_NEAR(landed, cpuLanded, 0.1) << strategy;  // measured: 0.264 on the CPU and in compute, 0.185 stateless
    }
}

}  // namespace
}  // namespace firelab::testing

#include "harness/capture.h"

#include <epoxy/gl.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "harness/experiment.h"
#include "harness/image_metrics.h"
#include "render/camera.h"
#include "render/particle_common.h"
#include "render/frame_target.h"
#include "render/gl_context.h"
#include "render/scene.h"
#include "render/strategy.h"
#include "sim/error.h"
#include "sim/fire_system.h"
#include "sim/snapshot.h"

namespace firelab::harness {

std::vector<std::string> parseStrategyList(const std::string& text) {
    auto names = splitValues("strategy", text);  // lists and "all", as for firelab run
    for (auto& name : names) name = render::strategyInfo(name).name;  // UnknownName lists the valid ones
    return names;
}

std::vector<CaptureResult> renderCaptures(const CaptureSettings& s) {
    gl::Context context({.debug = s.debugContext});
    return renderStrategies(s);
}

std::vector<CaptureResult> renderStrategies(const CaptureSettings& s) {
    for (const auto& name : s.strategies) render::checkOptions(name, s.render);
    render::Scene scene(s.dataDir);
    render::FrameTarget target(s.width, s.height);
    sim::FireSystem fire(s.params, s.threads);
    const long steps = std::lround(static_cast<double>(s.time) / static_cast<double>(s.dt));
    for (long i = 0; i < steps; ++i) fire.step(s.dt);
    const render::Camera camera = render::orbitCamera(fire.time(), s.width, s.height);
    render::StrategyContext sc{s.dataDir, s.render, s.params, s.dt};
    std::vector<CaptureResult> results;
    for (const auto& name : s.strategies) {
        auto strategy = render::makeStrategy(name, sc);
        strategy->upload(fire, camera);
        target.bind();
        scene.draw(camera);
        strategy->draw(camera);
        glFinish();
        CaptureResult r{name, target.read(), strategy->drawnCount(), {}};
        if (s.overdraw) r.overdraw = measureOverdraw(*strategy, &scene, camera, s.width, s.height);
        results.push_back(std::move(r));
    }
    return results;
}

std::vector<CaptureResult> runCapture(const CaptureSettings& settings) {
    CaptureSettings s = settings;
    render::checkSprite(s.dataDir, s.render);
    // With several strategies, one that refuses the options (gpu-stateless cannot sort) is left out
    // with a note rather than stopping the others; alone, or as the reference, it is an error.
    if (s.strategies.size() > 1) {
        std::vector<std::string> kept;
        for (const auto& name : s.strategies) {
            try {
                render::checkOptions(name, s.render);
                kept.push_back(name);
            } catch (const Error& e) {
                if (name == s.reference) throw;
                std::fprintf(stderr, "firelab: skipping %s: %s\n", name.c_str(), e.what());
            }
        }
        s.strategies = kept;
    }
    if (std::find(s.strategies.begin(), s.strategies.end(), s.reference) == s.strategies.end()) {
        parseStrategyList(s.reference);  // UnknownName for a bad --reference, before any work
        s.strategies.push_back(s.reference);
    }
    std::error_code ec;
    std::filesystem::create_directories(s.outDir, ec);
    if (ec) throw Error(ErrorCode::Io, "--out " + s.outDir.string() + ": cannot create the folder (" + ec.message() + ")");
    auto results = renderCaptures(s);
    const CaptureResult* ref = nullptr;
    for (const auto& r : results)
        if (r.strategy == s.reference) ref = &r;
    std::vector<render::LabelledImage> cells;
    sim::AtomicFile compare(s.outDir / "compare.csv");
    compare.stream() << "strategy,reference,psnr_db,ssim,overdraw_mean,overdraw_max,covered_fraction\n";
    for (const auto& r : results) {
        render::writePng(s.outDir / (r.strategy + ".png"), r.image);
        if (s.overdraw) render::writePng(s.outDir / ("overdraw-" + r.strategy + ".png"), overdrawHeatmap(r.overdraw));
        cells.push_back({r.strategy, &r.image});
        char line[256];
        std::snprintf(line, sizeof line, "%s,%s,%.4f,%.6f,%.4f,%.0f,%.6f\n", r.strategy.c_str(), s.reference.c_str(),
                      psnr(r.image, ref->image), ssim(r.image, ref->image), r.overdraw.mean, r.overdraw.max,
                      r.overdraw.coveredFraction);
        compare.stream() << line;
    }
    compare.commit();
    render::writePng(s.outDir / "contact-sheet.png", render::contactSheet(cells, std::min(s.width, 480)));
    return results;
}

}  // namespace firelab::harness

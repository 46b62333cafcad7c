#include "harness/capture.h"

#include <epoxy/gl.h>

#include <cmath>

#include "render/camera.h"
#include "render/frame_target.h"
#include "render/gl_context.h"
#include "render/scene.h"
#include "render/strategy.h"
#include "sim/error.h"
#include "sim/fire_system.h"

namespace firelab::harness {

std::vector<std::string> parseStrategyList(const std::string& text) {
    std::vector<std::string> out;
    if (text == "all") {
        for (const auto& s : render::strategies()) out.emplace_back(s.name);
        return out;
    }
    size_t start = 0;
    for (;;) {
        const auto comma = text.find(',', start);
        std::string name = text.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
        bool known = false;
        for (const auto& s : render::strategies()) known |= s.name == name;
        if (!known) {
            std::string valid = "all";
            for (const auto& s : render::strategies()) valid += ", " + std::string(s.name);
            throw Error(ErrorCode::UnknownName, "--strategy '" + name + "': unknown; valid values are " + valid);
        }
        out.push_back(name);
        if (comma == std::string::npos) break;
        start = comma + 1;
    }
    return out;
}

std::vector<CaptureResult> renderCaptures(const CaptureSettings& s) {
    for (const auto& name : s.strategies) render::checkOptions(name, s.render);
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
        results.push_back({name, target.read(), strategy->drawnCount()});
    }
    return results;
}

std::vector<CaptureResult> runCapture(const CaptureSettings& s) {
    std::error_code ec;
    std::filesystem::create_directories(s.outDir, ec);
    if (ec) throw Error(ErrorCode::Io, "--out " + s.outDir.string() + ": cannot create the folder (" + ec.message() + ")");
    auto results = renderCaptures(s);
    std::vector<render::LabelledImage> cells;
    for (const auto& r : results) {
        render::writePng(s.outDir / (r.strategy + ".png"), r.image);
        cells.push_back({r.strategy, &r.image});
    }
    render::writePng(s.outDir / "contact-sheet.png", render::contactSheet(cells, std::min(s.width, 480)));
    return results;
}

}  // namespace firelab::harness

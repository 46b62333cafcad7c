#include "harness/draw/capture.h"

#include <epoxy/gl.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "core/atomic_file.h"
#include "harness/results/csv.h"
#include "harness/settings/experiment.h"
#include "harness/draw/scorer.h"
#include "harness/quality/image_metrics.h"
#include "harness/draw/layer_rig.h"
#include "render/camera.h"
#include "render/frame/frame_pipeline.h"
#include "render/particles/particle_material.h"
#include "render/gl/frame_target.h"
#include "render/gl/gl_context.h"
#include "render/frame/scene.h"
#include "render/strategies/strategy.h"
#include "core/error.h"
#include "sim/fire_system.h"
#include "sim/snapshot.h"

namespace firelab::harness {

std::vector<std::string> parseStrategyList(const std::string& text) {
    auto names = splitValues("strategy", text);                       // lists and "all", as for firelab run
    for (auto& name : names) name = render::strategyInfo(name).name;  // UnknownName lists the valid ones
    return names;
}

namespace {
// The capture as a run's settings (what the reference and the layers are resolved from).
RunSettings captureRun(const CaptureSettings& s) {
    RunSettings base;
    base.params = s.params, base.fluid = s.fluid, base.render = s.render, base.dt = s.dt, base.threads = s.threads;
    base.width = s.width, base.height = s.height;
    base.fireDiameter = s.fireDiameter, base.heatRelease = s.heatRelease;
    base.effect = s.effect, base.overrideLayers = s.overrideLayers, base.fireLight = s.fireLight,
    base.camera = s.camera;
    return base;
}
}  // namespace

std::vector<CaptureResult> renderStrategies(const CaptureSettings& s) {
    for (const auto& name : s.strategies) render::checkOptions(name, s.render);
    render::Scene scene(s.dataDir);
    render::FrameTarget target(s.width, s.height);
    const long steps = std::lround(static_cast<double>(s.time) / static_cast<double>(s.dt));
    std::vector<CaptureResult> results;
    for (const auto& name : s.strategies) {
        RunSettings run = captureRun(s);
        run.strategy = name;
        LayerRig rig(run, s.dataDir);  // each strategy's layers, stepped to the same time
        for (const auto& layer : rig.layers())
            if (!layer.note.empty()) std::fprintf(stderr, "firelab: %s: %s\n", name.c_str(), layer.note.c_str());
        for (long i = 0; i < steps; ++i) rig.step(s.dt);
        const render::Camera camera = rig.camera(s.width, s.height);
        render::FramePipeline pipeline(s.dataDir, rig.frameOptions(), s.width, s.height);
        rig.light(scene, camera);
        rig.upload(camera);
        CaptureResult r;
        static_cast<DrawnFrame&>(r) = drawFrame(pipeline, rig.ordered(camera), scene, camera, target, s.overdraw);
        r.strategy = name;
        r.drawn = rig.stack().drawnCount();
        results.push_back(std::move(r));
    }
    return results;
}

namespace {
std::string field(double v, const char* format) {
    if (v < 0) return "";
    char buf[64];
    std::snprintf(buf, sizeof buf, format, v);
    return buf;
}

std::string fixed(double v, int decimals) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
    return buf;
}

// A strategy's row of compare.csv, in compareColumns() order.
std::vector<std::string> compareRow(const CaptureResult& r, const DrawnFrame& reference, const std::string& refText) {
    const MetricScores q = compareFrames(r, reference);
    std::vector<std::string> fields{r.strategy, refText};
    for (const bool fire : {false, true})
        for (size_t i = 0; i < metrics().size(); ++i)
            fields.push_back(q[i] && std::isfinite(fire ? q[i]->fire : q[i]->frame)
                                 ? fixed(fire ? q[i]->fire : q[i]->frame, metrics()[i].decimals)
                                 : "");  // not computed, or no fire in view
    for (const std::string& f :
         {field(r.overdraw.mean, "%.4f"), field(r.overdraw.max, "%.0f"), field(r.overdraw.coveredFraction, "%.6f"),
          field(r.fragmentsShaded, "%.0f"), field(r.overdraw.total, "%.0f")})
        fields.push_back(f);
    return fields;
}
}  // namespace

std::vector<std::string> compareColumns() {
    std::vector<std::string> columns{"strategy", "reference"};
    for (const auto& m : metrics()) columns.emplace_back(m.frameColumn);
    for (const auto& m : metrics()) columns.emplace_back(m.fireColumn);
    for (const char* c : {"overdraw_mean", "overdraw_max", "covered_fraction", "fragments_shaded", "fragments_visible"})
        columns.emplace_back(c);
    return columns;
}

namespace {
// The reference spec, checked with every sprite before any work: the capture's and its layers', and the
// reference's (the capture's settings with the spec's replaced).
ReferenceSpec checkCaptureInputs(const CaptureSettings& s) {
    render::checkSprite(s.dataDir, s.render);
    for (const auto& layer : resolveLayers(captureRun(s))) render::checkSprite(s.dataDir, layer.render);
    const ReferenceSpec spec = parseReference(s.reference);
    const RunSettings ref = referenceSettings(captureRun(s), spec);
    try {
        render::checkOptions(ref.strategy, ref.render);
        render::checkSprite(s.dataDir, ref.render);
    } catch (const Error& e) {
        throw Error(e.code(), "--reference '" + s.reference + "': " + e.what());
    }
    return spec;
}

// With several strategies, one that refuses the options (gpu-stateless cannot sort) is left out with a
// note rather than stopping the others; alone it is an error (renderStrategies says so).
std::vector<std::string> drawableStrategies(const CaptureSettings& s) {
    if (s.strategies.size() <= 1) return s.strategies;
    std::vector<std::string> kept;
    for (const auto& name : s.strategies) {
        try {
            render::checkOptions(name, s.render);
            RunSettings run = captureRun(s);
            run.strategy = name;
            checkEffect(run);
            kept.push_back(name);
        } catch (const Error& e) {
            std::fprintf(stderr, "firelab: skipping %s: %s\n", name.c_str(), e.what());
        }
    }
    return kept;
}

// Each strategy's picture and overdraw map, compare.csv, and the contact sheet with the reference first.
void writeCapture(const CaptureSettings& s, const std::vector<CaptureResult>& results, const DrawnFrame& reference,
                  const std::string& refText) {
    image::writePng(s.outDir / "reference.png", reference.image);
    std::vector<image::LabelledImage> cells{{"reference", &reference.image}};
    core::AtomicFile compare(s.outDir / "compare.csv");
    compare.stream() << csvLine(compareColumns());
    for (const auto& r : results) {
        image::writePng(s.outDir / (r.strategy + ".png"), r.image);
        image::writePng(s.outDir / ("overdraw-" + r.strategy + ".png"), overdrawHeatmap(r.overdraw));
        cells.push_back({r.strategy, &r.image});
        const std::vector<std::string> row = compareRow(r, reference, refText);
        if (r.overdraw.total <= 0.0 && reference.overdraw.total <= 0.0)
            std::fprintf(stderr,
                         "firelab: %s: no fire in view (nor in the reference): compare.csv's *_fire scores are "
                         "left empty\n",
                         r.strategy.c_str());
        compare.stream() << csvLine(row);
    }
    compare.commit();
    image::writePng(s.outDir / "contact-sheet.png", image::contactSheet(cells, std::min(s.width, 480)));
}
}  // namespace

std::vector<CaptureResult> runCapture(const CaptureSettings& settings) {
    CaptureSettings s = settings;
    s.overdraw = true;  // the fire's region is what the overdraw pass covers
    const ReferenceSpec spec = checkCaptureInputs(s);
    s.strategies = drawableStrategies(s);
    core::checkWritableFolder(s.outDir, "--out");  // as sweep and merge: a file in the way is bad usage (2)

    gl::Context context({.debug = s.debugContext});
    const auto results = renderStrategies(s);
    render::Scene scene(s.dataDir);
    RunSettings base = captureRun(s);
    base.quality.reference = spec;
    QualityScorer scorer(s.dataDir, scene);
    const DrawnFrame reference =
        scorer.referenceFrame(base, std::lround(static_cast<double>(s.time) / static_cast<double>(s.dt)));
    writeCapture(s, results, reference, referenceText(spec));
    return results;
}

}  // namespace firelab::harness

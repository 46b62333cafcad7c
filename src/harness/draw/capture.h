// `firelab capture`: the same simulation state at time T drawn by each strategy into DIR/<name>.png,
// a labelled contact sheet DIR/contact-sheet.png, an overdraw heat map DIR/overdraw-<name>.png each,
// the reference (a --reference SPEC, as for `firelab run --quality`) into DIR/reference.png, and
// DIR/compare.csv (compareColumns()): each strategy's image metrics against the reference over the
// whole frame and over the fire's region, its overdraw and its fragment counts.
#pragma once
#include <filesystem>
#include <string>
#include <vector>

#include "harness/draw/overdraw.h"
#include "harness/draw/scorer.h"
#include "image/image.h"
#include "render/camera.h"
#include "render/options.h"
#include "sim/params.h"

namespace firelab::harness {

struct CaptureSettings {
    std::vector<std::string> strategies;
    sim::FireParams params;
    fluid::FluidParams fluid;  // RunSettings::fluid: --model, --motion and the grid fluid's
    render::RenderOptions render;
    std::string effect;          // RunSettings::effect: an effect file, or empty for the single flame
    std::string overrideLayers;  // RunSettings::overrideLayers: the settings whose values win over a layer's
    double fireDiameter = 0.0, heatRelease = 0.0;  // RunSettings': a parameterised flame's pool (m) and power (kW)
    int fireLight = 8;                             // RunSettings::fireLight
    render::CameraSettings camera;                 // RunSettings::camera: the view, at `time`
    float time = 2.0f;
    float dt = 1.0f / 60.0f;
    unsigned threads = 1;
    int width = 640, height = 480;
    std::filesystem::path outDir;
    std::filesystem::path dataDir;
    bool debugContext = false;
    std::string reference = "strategy=billboards-cpu;sort=back-to-front";  // a --reference SPEC (experiment.h)
    bool overdraw = true;                                                  // run the counting pass
};

// A strategy's picture with its fragment counts (when CaptureSettings::overdraw), as quality scores it.
struct CaptureResult : DrawnFrame {
    std::string strategy;
    size_t drawn = 0;  // particles drawn
};

// compare.csv's columns: strategy, reference, every metric's frame column, every metric's fire column
// (harness/quality/metrics.h), then overdraw_mean, overdraw_max, covered_fraction, fragments_shaded and
// fragments_visible.
std::vector<std::string> compareColumns();

// Renders every strategy with the GL context that is current. Throws firelab::Error.
std::vector<CaptureResult> renderStrategies(const CaptureSettings& s);
// Renders the strategies and the reference, then writes the PNGs, compare.csv and the contact sheet.
// Returns the strategies' results.
std::vector<CaptureResult> runCapture(const CaptureSettings& s);

// "all" or a comma-separated list of strategy names, each checked (UnknownName names the bad one).
std::vector<std::string> parseStrategyList(const std::string& text);

}  // namespace firelab::harness

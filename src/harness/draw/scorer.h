// Quality beside cost (--quality): a run's picture scored against a reference, outside the timed frames.
// After the measured frames, the run's simulation is replayed from t = 0 (same seed and steps: the same
// state) and K frames spread over the measured ones are drawn again, each with the frame after it (for
// flicker); the reference is drawn at exactly those simulation times. Metrics are reported over the
// whole frame and over the fire's region: the pixels that particles cover in either image.
//
//   QualityScorer scorer(dataDir, scene);
//   QualityScores q = scorer.score(settings, scoredSteps(prewarm, warmup, measured, 4), output);
#pragma once
#include <filesystem>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "harness/quality/metrics.h"
#include "harness/settings/experiment.h"
#include "harness/draw/overdraw.h"
#include "render/gl/frame_target.h"
#include "image/image.h"
#include "render/frame/scene.h"
#include "render/strategies/strategy.h"

namespace firelab::harness {

// One drawn frame and what scoring needs of it.
struct DrawnFrame {
    image::Image image;
    Overdraw overdraw;            // fragments per pixel that survived the discard; the fire covers count > 0
                                  // (overdraw.total: the fragments that survived, every pass)
    double fragmentsShaded = -1;  // fragments the particle shaders ran on, rasterised and past the depth test
                                  // (-1: not counted)
};

// Draws the frame (the opaque scene and `strategy`, already uploaded) through `pipeline` into `target`;
// with `count`, also its two counting passes (fragments shaded, and fragments per pixel that survive the
// discard).
DrawnFrame drawFrame(render::FramePipeline& pipeline, std::span<render::RenderStrategy* const> layers,
                     const render::Scene& scene, const render::Camera& camera, const render::FrameTarget& target,
                     bool count);
inline DrawnFrame drawFrame(render::FramePipeline& pipeline, render::RenderStrategy& strategy,
                            const render::Scene& scene, const render::Camera& camera, const render::FrameTarget& target,
                            bool count) {
    render::RenderStrategy* one[] = {&strategy};
    return drawFrame(pipeline, one, scene, camera, target, count);
}

// Draws one configuration's frames at chosen simulation steps by replaying its simulation from t = 0.
// With supersample > 1 it draws at that multiple of the size and box-filters down (the image; the
// counts are summed per block).
class FrameReplay {
public:
    FrameReplay(const RunSettings& settings, int supersample, const std::filesystem::path& dataDir,
                render::Scene& scene);
    ~FrameReplay();
    // The frame after `step` simulation steps from t = 0; steps must not decrease between calls.
    // Without `count`, only the image (no counting passes: no coverage, no fragment counts).
    DrawnFrame drawAt(long step, bool count = true);
    long step() const;  // steps simulated so far

private:
    struct State;
    std::unique_ptr<State> state_;
};

// The image metrics (harness/quality/metrics.h) of a run's frame against its reference's frame, over the
// whole frame and over the fire's region: the pixels particles cover in either (both need their counts).
MetricScores compareFrames(const DrawnFrame& run, const DrawnFrame& reference, const MetricSet& which = {});

struct QualityScores {
    std::string reference;     // the spec, canonical
    int frames = 0;            // frames scored
    int fireFrames = 0;        // of which with fire in view: the fire's scores are their means (NaN with none)
    MetricScores mean;         // each computed metric's mean over the scored frames
    double flickerRatio = -1;  // -1: not measurable (one measured frame, or a still reference)
    double fragmentsShaded = 0, fragmentsVisible = 0, coveredFraction = 0;  // per frame, mean
    double energyScale = 1;
    std::filesystem::path framePng, referencePng;  // the first scored frame and its reference, if written
    double seconds = 0;
};

// Where scored frames are written: every scored and reference frame under `saveDir/<run>/` (--save-frames),
// and the first of each under `reportDir/frames/` for the sweep's report. Empty paths: not written.
struct FrameOutput {
    std::filesystem::path saveDir, reportDir;
};

// The absolute step counts of K frames spread evenly over `measured` frames that start after
// `prewarmSteps` steps and `warmup` frames (fewer when there are fewer measured frames).
std::vector<long> scoredSteps(long prewarmSteps, long warmup, long measured, int k);

// Caches reference frames: runs of a sweep that share a reference draw it once.
class QualityScorer {
public:
    QualityScorer(std::filesystem::path dataDir, render::Scene& scene);
    QualityScores score(const RunSettings& run, const std::string& runKey, const std::vector<long>& steps,
                        const FrameOutput& out);
    // The reference frame of `run` (run.quality.reference) after `step` steps; without `count`, the image only.
    const DrawnFrame& referenceFrame(const RunSettings& run, long step, bool count = true);

private:
    FrameReplay& replayFor(const RunSettings& settings, int supersample, long step);
    // Writes a scored frame and its reference where `out` says (the first one for the report, naming it in r).
    static void saveFrames(const RunSettings& run, const std::string& slug, long step, bool first,
                           const image::Image& frame, const image::Image& reference, const FrameOutput& out,
                           QualityScores& r);

    std::filesystem::path dataDir_;
    render::Scene& scene_;  // lit by each replay's fire lights
    static constexpr size_t kCachedFrames = 64;
    std::map<std::string, DrawnFrame> cache_;                      // key: the reference's settings and the step
    std::map<std::string, std::unique_ptr<FrameReplay>> replays_;  // per reference seed, resumed as steps grow
};

// A file name for a run's frames: the key's first kSlugReadable characters made safe (letters, digits, '.', '_',
// '-'), then a hash of the key and `identity` (the run's whole settings), so that two runs never share one: keys
// that differ only in characters made safe ('/' against '_'), or two lone runs (both keyed "single").
constexpr size_t kSlugReadable = 96;
std::string fileSlug(const std::string& key, const std::string& identity = "");

}  // namespace firelab::harness

#include "harness/draw/scorer.h"

#include <epoxy/gl.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <limits>
#include <numeric>

#include "core/hash.h"
#include "harness/quality/image_metrics.h"
#include "harness/draw/layer_rig.h"
#include "harness/draw/overdraw.h"
#include "harness/platform/interrupt.h"
#include "render/camera.h"
#include "render/gl/frame_target.h"
#include "render/strategies/strategy.h"
#include "core/error.h"
#include "sim/fire_system.h"

namespace firelab::harness {
namespace fs = std::filesystem;

namespace {

// Box filter of an RGBA8 image by an integer factor.
image::Image downsample(const image::Image& big, int f) {
    image::Image out(big.width / f, big.height / f);
    const int n = f * f;
    for (int y = 0; y < out.height; ++y)
        for (int x = 0; x < out.width; ++x) {
            int sum[4] = {0, 0, 0, 0};
            for (int j = 0; j < f; ++j)
                for (int i = 0; i < f; ++i) {
                    const uint8_t* p = big.at(x * f + i, y * f + j);
                    for (int c = 0; c < 4; ++c) sum[c] += p[c];
                }
            uint8_t* q = out.at(x, y);
            for (int c = 0; c < 4; ++c) q[c] = static_cast<uint8_t>((sum[c] + n / 2) / n);
        }
    return out;
}

// Fragment counts summed over f x f blocks: a low-resolution pixel is covered when any of its pixels is.
Overdraw downsample(const Overdraw& big, int f) {
    const int w = big.width / f, h = big.height / f;
    std::vector<float> counts(static_cast<size_t>(w) * static_cast<size_t>(h), 0.0f);
    for (int y = 0; y < h * f; ++y)
        for (int x = 0; x < w * f; ++x)
            counts[static_cast<size_t>(y / f) * static_cast<size_t>(w) + static_cast<size_t>(x / f)] +=
                big.counts[static_cast<size_t>(y) * static_cast<size_t>(big.width) + static_cast<size_t>(x)];
    return overdrawStats(w, h, std::move(counts));
}

// A short, stable name for a reference frame that many runs share.
std::string shortHash(const std::string& text) {
    char buf[17];
    std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(core::fnv1a(text)));
    return buf;
}

}  // namespace

struct FrameReplay::State {
    State(const RunSettings& s, int ss, const fs::path& dataDir, render::Scene& sc)
        : settings(s),
          supersample(ss),
          scene(sc),
          rig(s, dataDir),
          pipeline(dataDir, rig.frameOptions(), s.width * ss, s.height * ss),
          target(s.width * ss, s.height * ss) {}

    RunSettings settings;
    int supersample;
    render::Scene& scene;
    LayerRig rig;
    render::FramePipeline pipeline;
    render::FrameTarget target;
    long steps = 0;
};

FrameReplay::FrameReplay(const RunSettings& s, int supersample, const fs::path& dataDir, render::Scene& scene)
    : state_(std::make_unique<State>(s, supersample, dataDir, scene)) {}
FrameReplay::~FrameReplay() = default;

long FrameReplay::step() const { return state_->steps; }

DrawnFrame FrameReplay::drawAt(long step, bool count) {
    State& st = *state_;
    if (step < st.steps) throw Error(ErrorCode::BadValue, "FrameReplay: steps must not decrease");
    // The run's own stepping: GPU-simulated strategies read only the clock and simulate in upload(). A stop
    // signal ends it (a reference of millions of particles takes minutes to reach its step).
    for (; st.steps < step; ++st.steps) {
        if (stopRequested()) throw Error(ErrorCode::Interrupted, "interrupted while replaying the frame to score it");
        st.rig.step(st.settings.dt);
    }
    const render::Camera camera = st.rig.camera(st.target.width(), st.target.height());
    st.rig.light(st.scene, camera);
    st.rig.upload(camera);
    DrawnFrame frame = drawFrame(st.pipeline, st.rig.ordered(camera), st.scene, camera, st.target, count);
    if (const int f = st.supersample; f > 1) {
        frame.image = downsample(frame.image, f);
        if (count) {  // the map per block; the fragments counted stay the passes' own
            const double total = frame.overdraw.total;
            frame.overdraw = downsample(frame.overdraw, f);
            frame.overdraw.total = total;
        }
    }
    return frame;
}

DrawnFrame drawFrame(render::FramePipeline& pipeline, std::span<render::RenderStrategy* const> layers,
                     const render::Scene& scene, const render::Camera& camera, const render::FrameTarget& target,
                     bool count) {
    pipeline.draw(scene, layers, camera, target);
    glFinish();
    // A picture with alpha fragments missing is not the exact one --sort abuffer stands for: refused.
    if (const render::OitStats st = pipeline.oitStats(); st.overflow > 0)
        throw Error(ErrorCode::TooLarge, render::abufferOverflowMessage(st));
    DrawnFrame frame{target.read(), {}, -1};
    if (!count) return frame;
    frame.fragmentsShaded = measureOverdraw(pipeline, scene, layers, camera, render::DrawMode::CountShaded).total;
    frame.overdraw = measureOverdraw(pipeline, scene, layers, camera);
    return frame;
}

MetricScores compareFrames(const DrawnFrame& run, const DrawnFrame& ref, const MetricSet& which) {
    const auto& a = run.overdraw.counts;
    const auto& b = ref.overdraw.counts;
    if (a.size() != b.size() || a.size() != run.image.pixels.size() / 4)
        throw Error(ErrorCode::BadValue, "compareFrames: both frames need their fragment counts, at the image's size");
    std::vector<bool> fire(a.size());
    for (size_t i = 0; i < fire.size(); ++i) fire[i] = a[i] > 0.0f || b[i] > 0.0f;
    return scoreImages(run.image, ref.image, fire, which);
}

std::vector<long> scoredSteps(long prewarmSteps, long warmup, long measured, int k) {
    std::vector<long> steps;
    if (measured <= 0 || k <= 0) return steps;
    // Frame m of the measured ones is drawn after prewarm + warmup + m + 1 steps; each scored frame's
    // successor (for flicker) is replayed whether or not it was measured.
    for (int i = 0; i < k; ++i) {
        const long m = static_cast<long>((static_cast<double>(i) + 0.5) * static_cast<double>(measured) / k);
        const long s = prewarmSteps + warmup + m + 1;
        if (steps.empty() || steps.back() != s) steps.push_back(s);
    }
    return steps;
}

std::string fileSlug(const std::string& key, const std::string& identity) {
    std::string out = key.substr(0, kSlugReadable);
    for (char& c : out) {
        const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' ||
                        c == '_' || c == '-';
        if (!ok) c = '_';
    }
    if (out.empty()) out = "run";
    if (out[0] == '.') out = "_" + out;                   // never "." or "..", never hidden
    return out + "-" + shortHash(key + "\n" + identity);  // keys that read alike ('/' and '_') stay apart
}

QualityScorer::QualityScorer(fs::path dataDir, render::Scene& scene) : dataDir_(std::move(dataDir)), scene_(scene) {}

FrameReplay& QualityScorer::replayFor(const RunSettings& settings, int supersample, long step) {
    const std::string key = runSettingsToml(settings) + "supersample = " + std::to_string(supersample) + "\n";
    auto it = replays_.find(key);
    if (it == replays_.end() || it->second->step() > step) {  // go on from where it is, or start again
        if (replays_.size() >= 16) replays_.clear();
        it = replays_.insert_or_assign(key, std::make_unique<FrameReplay>(settings, supersample, dataDir_, scene_))
                 .first;
    }
    return *it->second;
}

namespace {
// What tells one reference picture from another: its settings and spec, less the sprite's for a strategy that
// draws none (volume-reference, points: a sweep over textures has one such reference, not one per texture).
std::string referenceIdentity(const RunSettings& run) {
    RunSettings ref = referenceSettings(run, run.quality.reference);
    if (!render::strategyInfo(ref.strategy).textured) {
        const render::RenderOptions defaults;
        ref.render.texture = defaults.texture;
        ref.render.flipbook = defaults.flipbook;
    }
    return runSettingsToml(ref) + referenceText(run.quality.reference);
}
}  // namespace

const DrawnFrame& QualityScorer::referenceFrame(const RunSettings& run, long step, bool count) {
    const ReferenceSpec& spec = run.quality.reference;
    const RunSettings ref = referenceSettings(run, spec);
    const std::string frame = referenceIdentity(run) + " step=" + std::to_string(step);
    const std::string key = frame + (count ? " counted" : "");
    // A counted frame serves an uncounted request as well: its picture is the same.
    if (const auto it = cache_.find(frame + " counted"); it != cache_.end()) return it->second;
    if (const auto it = cache_.find(key); it != cache_.end()) return it->second;
    if (cache_.size() >= kCachedFrames) cache_.clear();  // a sweep's few references fit; many do not
    // The mean of `seeds` realisations: the image and the counts averaged (so the coverage is their union).
    DrawnFrame mean;
    std::vector<double> pixels;
    for (int i = 0; i < spec.seeds; ++i) {
        RunSettings one = ref;
        one.params.seed = ref.params.seed + static_cast<uint64_t>(i);
        DrawnFrame f = replayFor(one, spec.supersample, step).drawAt(step, count);
        if (i == 0) {
            pixels.assign(f.image.pixels.begin(), f.image.pixels.end());
            mean = std::move(f);
            continue;
        }
        for (size_t k = 0; k < pixels.size(); ++k) pixels[k] += f.image.pixels[k];
        for (size_t k = 0; k < mean.overdraw.counts.size(); ++k) mean.overdraw.counts[k] += f.overdraw.counts[k];
        mean.overdraw.total += f.overdraw.total;
        mean.fragmentsShaded += f.fragmentsShaded;
    }
    if (spec.seeds > 1) {
        const double n = spec.seeds;
        for (size_t k = 0; k < pixels.size(); ++k)
            mean.image.pixels[k] = static_cast<uint8_t>(std::lround(pixels[k] / n));
        for (float& c : mean.overdraw.counts) c /= static_cast<float>(n);
        const double total = mean.overdraw.total / n;
        mean.overdraw = overdrawStats(mean.overdraw.width, mean.overdraw.height, std::move(mean.overdraw.counts));
        mean.overdraw.total = total;
        mean.fragmentsShaded /= n;
    }
    return cache_.emplace(key, std::move(mean)).first->second;
}

namespace {
// Sums over the scored frames, divided into means at the end.
// The fire's scores are means over the frames with fire in view (scoreImages: NaN in the others), NaN when
// no frame had any.
struct ScoreSums {
    MetricScores metrics;
    double fragmentsShaded = 0, fragmentsVisible = 0, coveredFraction = 0;
    double runChange = 0, referenceChange = 0;  // flicker: squared frame-to-frame change, the run's and the reference's
    int frames = 0, fireFrames = 0;

    void add(MetricScores scores, const DrawnFrame& frame) {
        bool fireInView = false;
        for (size_t i = 0; i < harness::metrics().size(); ++i)
            if (scores[i] && std::isfinite(scores[i]->fire)) fireInView = true;
        for (size_t i = 0; i < harness::metrics().size(); ++i)
            if (scores[i] && !std::isfinite(scores[i]->fire)) scores[i]->fire = 0.0;  // counted out below
        fireFrames += fireInView ? 1 : 0;
        if (frames++ == 0)
            metrics = scores;
        else
            metrics += scores;
        fragmentsShaded += frame.fragmentsShaded;
        fragmentsVisible += frame.overdraw.total;
        coveredFraction += frame.overdraw.coveredFraction;
    }
    void into(QualityScores& r) const {
        r.frames = frames;
        if (frames > 0) {
            const double n = frames;
            r.mean = metrics;
            for (size_t i = 0; i < harness::metrics().size(); ++i)
                if (auto& m = r.mean[i]) {
                    m->frame /= n;
                    m->fire = fireFrames > 0 ? m->fire / fireFrames : std::numeric_limits<double>::quiet_NaN();
                }
            r.fireFrames = fireFrames;
            r.fragmentsShaded = fragmentsShaded / n;
            r.fragmentsVisible = fragmentsVisible / n;
            r.coveredFraction = coveredFraction / n;
        }
        // Of the RMS change; like the fire's scores, none when no scored frame had fire in view.
        if (frames > 0 && fireFrames > 0 && referenceChange > 0)
            r.flickerRatio = std::sqrt(runChange / referenceChange);
    }
};
}  // namespace

void QualityScorer::saveFrames(const RunSettings& run, const std::string& slug, long step, bool first,
                               const image::Image& frame, const image::Image& reference, const FrameOutput& out,
                               QualityScores& r) {
    if (!out.saveDir.empty()) {  // --save-frames: every scored frame and its reference
        fs::create_directories(out.saveDir / slug);
        image::writePng(out.saveDir / slug / ("run-" + std::to_string(step) + ".png"), frame);
        image::writePng(out.saveDir / slug / ("reference-" + std::to_string(step) + ".png"), reference);
    }
    if (!first || out.reportDir.empty()) return;
    // The report's: the first scored frame, and one file per reference frame, shared by the runs scored
    // against it.
    fs::create_directories(out.reportDir / "frames");
    r.framePng = fs::path("frames") / (slug + ".png");
    const std::string refKey = referenceIdentity(run) + std::to_string(step);
    r.referencePng = fs::path("frames") / ("reference-" + shortHash(refKey) + ".png");
    image::writePng(out.reportDir / r.framePng, frame);
    image::writePng(out.reportDir / r.referencePng, reference);
}

QualityScores QualityScorer::score(const RunSettings& run, const std::string& runKey, const std::vector<long>& steps,
                                   const FrameOutput& out) {
    const auto t0 = std::chrono::steady_clock::now();
    QualityScores r;
    r.reference = referenceText(run.quality.reference);
    const RunSettings drawn = drawnSettings(run);
    r.energyScale = drawn.render.alphaScale;
    FrameReplay replay(drawn, 1, dataDir_, scene_);
    // Flicker is measured against one realisation of the reference (its first seed): the mean image of
    // several seeds changes less from frame to frame than any fire does.
    RunSettings single = run;
    single.quality.reference.seeds = 1;
    const std::string slug = fileSlug(runKey, runSettingsToml(run));  // a lone run's key is "single" whatever it is
    ScoreSums sums;
    for (long step : steps) {
        const DrawnFrame a = replay.drawAt(step);
        const DrawnFrame refA = referenceFrame(run, step, true);  // a copy: the cache may be cleared
        const bool first = sums.frames == 0;
        sums.add(compareFrames(a, refA, run.quality.metrics), a);
        saveFrames(run, slug, step, first, a.image, refA.image, out, r);
        // Flicker: the change to the next frame, the run's against the reference's.
        const DrawnFrame b = replay.drawAt(step + 1, false);
        const image::Image refNow = referenceFrame(single, step, false).image;
        const DrawnFrame& refNext = referenceFrame(single, step + 1, false);
        sums.runChange += meanSquaredDifference(a.image, b.image);
        sums.referenceChange += meanSquaredDifference(refNow, refNext.image);
    }
    sums.into(r);
    r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return r;
}

}  // namespace firelab::harness

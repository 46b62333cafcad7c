#include "harness/measure/runner.h"

#include <epoxy/gl.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <ctime>

#include "harness/results/meta.h"
#include "harness/results/stats.h"
#include "render/camera.h"
#include "render/frame/frame_pipeline.h"
#include "render/gl/frame_target.h"
#include "render/gl/pass_timer.h"
#include "render/frame/scene.h"
#include "render/strategies/strategy.h"
#include "core/error.h"
#include "sim/fire_system.h"
#include "harness/draw/layer_rig.h"

namespace firelab::harness {
namespace {

using Clock = std::chrono::steady_clock;
double ms(Clock::time_point a, Clock::time_point b) { return std::chrono::duration<double, std::milli>(b - a).count(); }

// The CPU time the process has used, all its threads (llvmpipe's rasteriser threads are the process's), ms.
double processCpuMs() {
    timespec t{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return static_cast<double>(t.tv_sec) * 1e3 + static_cast<double>(t.tv_nsec) * 1e-6;
}

}  // namespace

Runner::Runner(std::filesystem::path dataDir, bool debugContext) : dataDir_(std::move(dataDir)), debug_(debugContext) {}
Runner::~Runner() = default;

bool Runner::ensureContext() {
    if (context_) return true;
    if (!contextError_.empty()) return false;
    try {
        context_ = std::make_unique<gl::Context>(gl::ContextOptions{.debug = debug_});
        scene_ = std::make_unique<render::Scene>(dataDir_);
        scorer_ = std::make_unique<QualityScorer>(dataDir_, *scene_);
    } catch (const Error& e) {
        contextError_ = e.what();
        context_.reset();
        return false;
    }
    return true;
}

const gl::GlInfo* Runner::glInfo() { return ensureContext() ? &context_->info() : nullptr; }

namespace {
// The quality columns of a scored run (empty when not scored).
void addQualityColumns(Row& row, const QualityScores& q) {
    setField(row, "reference", q.reference);
    setField(row, "quality_frames", std::to_string(q.frames));
    setField(row, "energy_scale", csvNumber(q.energyScale));
    if (q.frames > 0) {
        for (size_t i = 0; i < metrics().size(); ++i)  // the metrics computed (--quality-metrics)
            if (const auto& m = q.mean[i]) {
                setField(row, std::string(metrics()[i].frameColumn), csvNumber(m->frame));
                setField(row, std::string(metrics()[i].fireColumn), std::isfinite(m->fire) ? csvNumber(m->fire) : "");
            }
        setField(row, "covered_fraction", csvNumber(q.coveredFraction));
        setField(row, "fragments_visible", csvNumber(q.fragmentsVisible));
        setField(row, "fragments_shaded", csvNumber(q.fragmentsShaded));
    }
    if (q.flickerRatio >= 0) setField(row, "flicker_ratio", csvNumber(q.flickerRatio));
    setField(row, "frame_png", q.framePng.string());
    setField(row, "reference_png", q.referencePng.string());
    setField(row, "quality_seconds", csvNumber(q.seconds));
}
// The objects one run draws with, made for its settings; the timer marks every pass of the frame.
struct Rig {
    Rig(const RunSettings& s, const std::filesystem::path& dataDir)
        : target(s.width, s.height),
          layers(drawnSettings(s), dataDir),
          pipeline(dataDir, layers.frameOptions(), s.width, s.height) {
        layers.stack().setTimer(&timer);
        pipeline.setTimer(&timer);
    }
    // One simulation step; GPU-simulated strategies simulate in upload(): only the clock moves here.
    void advance(float dt) { layers.step(dt); }

    render::PassTimer timer;
    render::FrameTarget target;
    LayerRig layers;
    render::FramePipeline pipeline;
    bool gpuSim() { return layers.stack().gpuSimulated(); }
};

// Steps the fire to steady state, or to --start-time (a whole number of steps, at or past the steady state:
// expand() refused it otherwise). GPU-simulated strategies catch up to the clock in their first upload, a
// warm-up frame. (expand() has refused step counts that would make this long; a stop request ends it.)
// --max-seconds bounds the prewarm too: past it the run ends, saying how long reaching the start would take
// here (a lower bound: a step costs more as the fire fills up). Returns the steps taken, or sets `why` to the
// status the run ends with.
long prewarm(Rig& rig, const RunSettings& s, const std::atomic<bool>* stop, std::string& why) {
    long steps = 0;
    const double steady = rig.layers.prewarmSeconds() + s.dt;
    const long target = startSteps(s);  // 0: none, the steady state
    auto reached = [&] { return target > 0 ? steps >= target : rig.layers.time() >= steady; };
    const auto start = Clock::now();
    for (; !reached(); ++steps) {
        rig.advance(s.dt);
        if (stop && stop->load()) {
            why = "interrupted";
            return steps;
        }
        const double spent = ms(start, Clock::now()) / 1000.0;
        if (spent > s.maxSeconds && !reached()) {
            const double end = target > 0 ? static_cast<double>(target) * s.dt : steady;
            char text[256];
            std::snprintf(text, sizeof text,
                          "error: --max-seconds %g: reaching %s (%.3g s of simulated time) would take at least %.3g s "
                          "here; raise --max-seconds or lower --particles",
                          double(s.maxSeconds), target > 0 ? "--start-time" : "steady state", end,
                          spent * end / rig.layers.time());
            why = text;
            return steps;
        }
    }
    return steps;
}

// Frames in flight. Latency: each frame waits on its own fence. Throughput: a frame is flushed (as a swap
// flushes) and waits only on the fence of the frame kDepth - 1 back, so at most kDepth frames are queued.
class FramePacer {
public:
    static constexpr long kDepth = 3;
    explicit FramePacer(Timing timing) : lag_(timing == Timing::Throughput ? kDepth - 1 : 0) {}
    ~FramePacer() {
        for (GLsync f : fences_)
            if (f) glDeleteSync(f);
    }
    FramePacer(const FramePacer&) = delete;
    FramePacer& operator=(const FramePacer&) = delete;

    // After frame `frame` is submitted.
    void submitted(long frame) {
        fences_[slot(frame)] = glFenceSync(GL_SYNC_GPU_COMMANDS_COMPLETE, 0);
        if (lag_ > 0) glFlush();
        if (frame >= lag_) wait(frame - lag_);
    }
    // Waits for every frame still in flight.
    void drain(long lastFrame) {
        for (long f = std::max(0L, lastFrame - lag_ + 1); f <= lastFrame; ++f) wait(f);
    }

private:
    static size_t slot(long frame) { return static_cast<size_t>(frame % kDepth); }
    void wait(long frame) {
        GLsync& f = fences_[slot(frame)];
        if (!f) return;
        glClientWaitSync(f, GL_SYNC_FLUSH_COMMANDS_BIT, 60'000'000'000ULL);
        glDeleteSync(f);
        f = nullptr;
    }

    long lag_;
    std::array<GLsync, kDepth> fences_{};
};

// What the timed frames leave.
struct Measurement {
    std::vector<FrameSample> samples;
    std::vector<double> gpuMs;                                   // the whole frame's GPU span
    std::array<std::vector<double>, render::kPassCount> passMs;  // each pass, over the frames that had it
    double aliveSum = 0.0;
    long warmup = 0;  // warm-up frames run (fewer than asked when --max-seconds ran short)
    bool interrupted = false;
    // --sort abuffer, over every frame: the most fragments stored and the longest list; the first frame that
    // overflowed, with its own figures.
    render::OitStats oit;
    long overflowFrame = -1;
    render::OitStats overflowed;

    void addOit(const render::OitStats& st, long frame) {
        oit.fragments = std::max(oit.fragments, st.fragments);
        oit.longestList = std::max(oit.longestList, st.longestList);
        if (st.overflow > 0 && overflowFrame < 0) overflowFrame = frame, overflowed = st;
    }

    void addGpu(const render::PassTimes& t) {
        gpuMs.push_back(t.frameMs);
        for (size_t p = 0; p < render::kPassCount; ++p)
            if (t.passMs[p]) passMs[p].push_back(*t.passMs[p]);
    }
};

// Warm-up and measured frames, timed as s.timing says. Every strategy's GPU span starts before its
// upload: CPU strategies' transfers and GPU strategies' simulation are GPU work of the frame.
// --max-seconds bounds the whole run: warm-up ends early once half of it is spent, measuring once all
// of it is (always at least one measured frame).
Measurement measureFrames(Rig& rig, render::Scene& scene, const RunSettings& s, Clock::time_point runStart,
                          const std::atomic<bool>* stop) {
    Measurement m;
    m.samples.reserve(static_cast<size_t>(s.frames));
    FramePacer pacer(s.timing);
    long warmupEnd = s.warmup, f = 0;
    Clock::time_point frameStart = Clock::now();
    double cpuStart = processCpuMs();
    for (; f < warmupEnd + s.frames; ++f) {
        const auto t0 = frameStart;
        const double cpu0 = cpuStart;
        rig.advance(s.dt);
        const auto t1 = Clock::now();
        const auto camera = rig.layers.camera(s.width, s.height);
        const double lightMs = rig.layers.light(scene);
        const auto t2 = Clock::now();
        rig.timer.beginFrame(f);
        rig.layers.upload(camera);
        const auto t3 = Clock::now();
        rig.pipeline.draw(scene, rig.layers.ordered(camera), camera, rig.target);
        rig.timer.endFrame();
        pacer.submitted(f);
        const auto t4 = Clock::now();
        const double cpu4 = processCpuMs();
        if (s.render.sort == render::Sort::Abuffer) m.addOit(rig.pipeline.oitStats(), f);  // a read-back: harness time
        if (const auto gpu = rig.timer.collect(f); gpu && f - render::PassTimer::kLag >= warmupEnd) m.addGpu(*gpu);
        const bool measured = f >= warmupEnd;
        if (measured && !rig.gpuSim()) m.aliveSum += static_cast<double>(rig.layers.stack().alive());
        // The next frame starts here. Latency: a frame's time runs to its fence; throughput: to the next
        // frame's start. The harness's own time is the rest: camera, queries, bookkeeping, loop.
        const auto frameEnd = Clock::now();
        const double cpuEnd = processCpuMs();
        if (measured) {
            FrameSample fs{0.0, ms(t0, t1), ms(t2, t3), ms(t3, t4), 0.0, lightMs};
            const bool throughput = s.timing == Timing::Throughput;
            fs.frameMs = throughput ? ms(t0, frameEnd) : ms(t0, t4);
            fs.cpuMs = (throughput ? cpuEnd : cpu4) - cpu0;  // over the same span as frameMs
            fs.harnessMs = ms(t0, frameEnd) - fs.simMs - fs.uploadMs - fs.drawMs - fs.lightFitMs;
            m.samples.push_back(fs);
        }
        frameStart = frameEnd;
        cpuStart = cpuEnd;
        if (ms(runStart, frameEnd) > s.maxSeconds * 1000.0 && !m.samples.empty()) {
            ++f;
            break;
        }
        if (!measured && f + 1 < warmupEnd && ms(runStart, frameEnd) > s.maxSeconds * 500.0) warmupEnd = f + 1;
        if (stop && stop->load()) {
            m.interrupted = true;
            return m;
        }
    }
    // Every frame done: the last frames' GPU times are ready now, and quality scoring starts from an idle GPU.
    pacer.drain(f - 1);
    for (long k = f; k < f + render::PassTimer::kLag; ++k)
        if (const auto gpu = rig.timer.collect(k); gpu && k - render::PassTimer::kLag >= warmupEnd) m.addGpu(*gpu);
    if (rig.gpuSim())  // as the strategy reports (a read-back, after the timed frames)
        m.aliveSum = static_cast<double>(rig.layers.stack().drawnCount()) * static_cast<double>(m.samples.size());
    m.warmup = warmupEnd;
    return m;
}

// A debug context's high-severity messages make the run's figures suspect: the status that says so, or
// empty. Clears the messages either way.
std::string debugFailure(gl::Context& context) {
    std::string why;
    for (const auto& msg : context.debugMessages())
        if (msg.severity == GL_DEBUG_SEVERITY_HIGH) {
            why = "error: GL debug message: " + msg.text;
            break;
        }
    context.clearDebugMessages();
    return why;
}

// What shading the scene by the fire lights costs: the scene pass drawn alone, fenced, with this frame's
// lights and with none (the static glow), alternately, kShadeSamples times each, outside the timed
// frames; the difference of the medians. The lights are left as they were.
double lightShadeMs(Rig& rig, render::Scene& scene, const RunSettings& s) {
    constexpr int kShadeSamples = 9;
    const std::span<const sim::PointLight> lights = rig.layers.lights();  // the rig keeps them
    if (lights.empty()) return 0.0;
    const auto camera = rig.layers.camera(s.width, s.height);
    std::vector<double> lit, glow;
    glFinish();
    for (int i = 0; i < kShadeSamples; ++i)
        for (bool on : {true, false}) {
            if (on)
                scene.setFireLights(lights);
            else
                scene.setStaticGlow();
            rig.target.bind();
            const auto t0 = Clock::now();
            scene.draw(camera);
            glFinish();
            (on ? lit : glow).push_back(ms(t0, Clock::now()));
        }
    scene.setFireLights(lights);
    return summarize(lit).median - summarize(glow).median;
}

// Above this fraction of a GL_POINTS run's particles clamped to the largest point, the run says so on stderr.
constexpr double kClampedWarning = 0.01;

// The view's columns (render/particles/view_census.h) at the last measured frame, and the warning when a
// GL_POINTS strategy drew points clamped to the implementation's largest.
void recordView(Row& row, Rig& rig, const RunSettings& s, const std::string& key, float maxPointPixels) {
    const render::Camera camera = rig.layers.camera(s.width, s.height);
    const render::ViewCensus census = rig.layers.census(camera, maxPointPixels);
    setField(row, "fire_px", csvNumber(render::firePixels(census, camera)));
    setField(row, "behind_camera_fraction", csvNumber(census.behindFraction()));
    if (render::strategyInfo(s.strategy).primitive != render::Primitive::Points) return;
    const double clamped = census.clampedFraction();
    setField(row, "points_clamped_fraction", csvNumber(clamped));
    if (clamped > kClampedWarning)
        std::fprintf(stderr,
                     "firelab: %s: warning: %.1f%% of the points are larger on screen than this GL's largest point "
                     "(%g px, GL_POINT_SIZE_RANGE) and are drawn clamped to it, smaller than the quads they stand "
                     "for; points_clamped_fraction records it (docs/experiments.md, Views: points up close)\n",
                     key.c_str(), 100.0 * clamped, static_cast<double>(maxPointPixels));
}

// A frame that took more than this many times the run's median, or no time at all (a clock that jumped), is
// an outlier: a process stopped (SIGSTOP, a suspended VM) or a clock that is not steady, not the frame's work.
constexpr double kOutlierFactor = 10.0;

// The measured frames less the outliers, which are counted (outlier_frames) and said.
std::vector<FrameSample> withoutOutliers(const std::vector<FrameSample>& samples, Row& row, const std::string& key) {
    std::vector<double> all;
    for (const auto& x : samples) all.push_back(x.frameMs);
    const double median = all.empty() ? 0.0 : summarize(all).median;
    std::vector<FrameSample> kept;
    for (const auto& x : samples)
        if (x.frameMs > 0.0 && x.frameMs <= kOutlierFactor * median) kept.push_back(x);
    const size_t outliers = samples.size() - kept.size();
    setField(row, "outlier_frames", std::to_string(outliers));
    if (outliers > 0)
        std::fprintf(stderr,
                     "firelab: %s: warning: %zu of %zu frames left out of the figures: over %g times the "
                     "median frame or not positive (a stopped process, a clock that jumped); outlier_frames "
                     "counts them\n",
                     key.c_str(), outliers, samples.size(), kOutlierFactor);
    return kept.empty() ? samples : kept;
}

// The timing columns, from the measured frames (outliers left out).
void summarise(Row& row, Measurement m, const std::string& key) {
    const size_t measured = m.samples.size();
    m.samples = withoutOutliers(m.samples, row, key);
    std::vector<double> frame, sim, upload, draw, harness, light, cpu, busy;
    for (const auto& x : m.samples) {
        frame.push_back(x.frameMs), sim.push_back(x.simMs), upload.push_back(x.uploadMs), light.push_back(x.lightFitMs);
        draw.push_back(x.drawMs), harness.push_back(x.harnessMs), cpu.push_back(x.cpuMs);
        if (x.frameMs > 0.0) busy.push_back(x.cpuMs / x.frameMs);
    }
    const Summary fr = summarize(frame);
    setField(row, "frames", std::to_string(measured));
    setField(row, "alive_mean", csvNumber(measured == 0 ? 0.0 : m.aliveSum / static_cast<double>(measured)));
    setField(row, "frame_ms_median", csvNumber(fr.median));
    setField(row, "frame_ms_mean", csvNumber(fr.mean));
    setField(row, "frame_ms_p5", csvNumber(fr.p5));
    setField(row, "frame_ms_p95", csvNumber(fr.p95));
    setField(row, "frame_ms_p99", csvNumber(fr.p99));
    setField(row, "frame_ms_stddev", csvNumber(fr.stddev));
    setField(row, "frame_ms_min", csvNumber(fr.min));
    setField(row, "frame_ms_max", csvNumber(fr.max));
    setField(row, "fps", csvNumber(fr.median > 0 ? 1000.0 / fr.median : 0.0));
    setField(row, "sim_ms_median", csvNumber(summarize(sim).median));
    setField(row, "upload_ms_median", csvNumber(summarize(upload).median));
    setField(row, "draw_ms_median", csvNumber(summarize(draw).median));
    setField(row, "cpu_ms_median", csvNumber(summarize(cpu).median));
    setField(row, "cpu_utilisation", busy.empty() ? std::string() : csvNumber(summarize(busy).median));
    auto median = [](const std::vector<double>& v) {
        return v.empty() ? std::string() : csvNumber(summarize(v).median);
    };
    setField(row, "gpu_ms_median", median(m.gpuMs));
    for (size_t p = 0; p < render::kPassCount; ++p)
        setField(row, "gpu_" + std::string(render::kPassNames[p]) + "_ms_median", median(m.passMs[p]));
    setField(row, "harness_ms_mean", csvNumber(summarize(harness).mean));
    setField(row, "light_fit_ms_median", csvNumber(summarize(light).median));
}

}  // namespace

Row Runner::run(const PlannedRun& planned, const std::string& experiment, const std::atomic<bool>* stop,
                const FrameOutput& frames) {
    const RunSettings& s = planned.settings;
    const auto runStart = Clock::now();
    Row row;
    setField(row, "experiment", experiment);
    setField(row, "run_key", planned.key);
    for (const auto& n : settingColumns()) setField(row, csvColumn(n), settingText(s, n));
    setField(row, "started", utcTimestamp());
    setField(row, "frames", "0");
    auto finish = [&](const std::string& status) {
        setField(row, "status", status);
        setField(row, "seconds", csvNumber(ms(runStart, Clock::now()) / 1000.0));
        return row;
    };
    if (!ensureContext()) return finish("error: " + contextError_);
    setField(row, "gl_renderer", context_->info().renderer);
    setField(row, "gl_version", context_->info().version);

    Measurement measured;
    try {
        Rig rig(s, dataDir_);
        for (const auto& layer : rig.layers.layers())  // drawn otherwise than the effect asks: say so
            if (!layer.note.empty()) std::fprintf(stderr, "firelab: %s: %s\n", planned.key.c_str(), layer.note.c_str());
        std::string why;
        const long prewarmSteps = prewarm(rig, s, stop, why);
        if (!why.empty()) return finish(why);
        measured = measureFrames(rig, *scene_, s, runStart, stop);
        if (measured.interrupted) return finish("interrupted");
        setField(row, "warmup", std::to_string(measured.warmup));
        setField(row, "light_shade_ms_median", csvNumber(lightShadeMs(rig, *scene_, s)));
        recordView(row, rig, s, planned.key, context_->info().pointSizeMax);
        if (render::orderIndependent(s.render.sort))
            setField(row, "oit_mib", csvNumber(static_cast<double>(rig.pipeline.oitStats().bytes) / 1048576.0));
        if (s.render.sort == render::Sort::Abuffer) {
            setField(row, "abuffer_fragments", std::to_string(measured.oit.fragments));
            setField(row, "abuffer_longest_list", std::to_string(measured.oit.longestList));
            if (measured.overflowFrame >= 0)  // a frame drawn without some of its fragments: refused
                return finish("error: frame " + std::to_string(measured.overflowFrame) + ": " +
                              render::abufferOverflowMessage(measured.overflowed));
        }
        if (s.quality.enabled) {  // after the timed frames: a replay of the same state
            const auto steps = scoredSteps(prewarmSteps, measured.warmup, static_cast<long>(measured.samples.size()),
                                           s.quality.frames);
            const QualityScores q = scorer_->score(s, planned.key, steps, frames);
            if (q.frames > 0 && q.fireFrames == 0)
                std::fprintf(stderr,
                             "firelab: %s: no fire in view in the scored frames (off screen, behind the camera, "
                             "transparent, or not emitted yet): the *_fire scores are left empty, not perfect\n",
                             planned.key.c_str());
            addQualityColumns(row, q);
        }
        if (const std::string failure = debugFailure(*context_); !failure.empty()) return finish(failure);
    } catch (const Error& e) {
        context_->clearDebugMessages();
        return finish("error: " + std::string(e.what()));
    } catch (const std::exception& e) {  // out of memory, no threads: the sweep goes on
        context_->clearDebugMessages();
        return finish("error: " + std::string(e.what()));
    }
    summarise(row, measured, planned.key);
    return finish("ok");
}

}  // namespace firelab::harness

#include "harness/measure/runner.h"

#include <sys/resource.h>

#include <epoxy/gl.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <new>
#include <random>

#include "fluid/gpu/gpu_fluid.h"
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
// A run's failure as its status says it: out of memory named as such, with the process's address-space limit
// where one is set (ulimit -v: "std::bad_alloc" alone reads as a bug), else the exception's own words.
std::string failureOf(const std::exception& e) {
    if (dynamic_cast<const std::bad_alloc*>(&e) == nullptr) return "error: " + std::string(e.what());
    rlimit limit{};
    std::string why = "the machine's memory";
    if (::getrlimit(RLIMIT_AS, &limit) == 0 && limit.rlim_cur != RLIM_INFINITY)
        why = "the process's address-space limit of " + std::to_string(limit.rlim_cur >> 20) + " MiB (ulimit -v)";
    return "error: out of memory: the run needs more than " + why + "; try fewer --particles, or a larger limit";
}


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
        canary_ = std::make_unique<Canary>(*scene_);
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
            // What makes a step dear: the grid fluid's cells under --model fluid, else the particles.
            const char* lighter = s.fluid.model == fluid::Model::Fluid ? "a smaller --grid" : "fewer --particles";
            char text[320];
            std::snprintf(text, sizeof text,
                          "error: --max-seconds %g: reaching %s (%.3g s of simulated time) would take at least %.3g s "
                          "here; raise --max-seconds or use %s",
                          double(s.maxSeconds), target > 0 ? "--start-time" : "steady state", end,
                          spent * end / rig.layers.time(), lighter);
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

    // --model fluid: the grid fluid's step of each measured frame (CPU wall clock per pass; the solver's work).
    std::array<std::vector<double>, static_cast<size_t>(fluid::Pass::Count)> fluidMs;
    std::vector<double> fluidIterations, fluidResidual;
    int fluidSubsteps = 0;  // the most sub-steps a measured frame took
    double fluidBytes = 0.0;
    std::string fluidDevice;  // where the grid was stepped (--fluid-device auto resolved)
    void addFluid(const fluid::FluidSim& f) {
        const fluid::StepStats& st = f.lastStep();
        for (size_t p = 0; p < fluidMs.size(); ++p) fluidMs[p].push_back(st.ms[p]);
        fluidIterations.push_back(st.iterations);
        if (st.divergenceBefore > 0.0) fluidResidual.push_back(st.divergenceAfter / st.divergenceBefore);
        fluidSubsteps = std::max(fluidSubsteps, st.substeps);
        fluidDevice = std::string(f.device());
        fluidBytes =
            fluidDevice == "gpu" ? fluid::GpuFluid::gpuBytesFor(f.params()) : fluid::FluidSim::bytesFor(f.params());
    }

    void addGpu(const render::PassTimes& t) {
        gpuMs.push_back(t.frameMs);
        for (size_t p = 0; p < render::kPassCount; ++p)
            if (t.passMs[p]) passMs[p].push_back(*t.passMs[p]);
    }
};

// One configuration's frames, drawn one at a time by a driver: alone (measureFrames), or in alternation with
// the configurations it is compared with (Runner::runGroup). Timed as s.timing says. Every strategy's GPU
// span starts before its upload: CPU strategies' transfers and GPU strategies' simulation are GPU work of the
// frame. The driver decides when the warm-up and the run end (--max-seconds).
class FrameLoop {
public:
    FrameLoop(Rig& rig, const RunSettings& s)
        : rig_(rig),
          s_(s),
          pacer_(s.timing),
          warmupEnd_(s.warmup),
          frameStart_(Clock::now()),
          cpuStart_(processCpuMs()) {
        m_.samples.reserve(static_cast<size_t>(s.frames));
    }

    bool done() const { return f_ >= warmupEnd_ + s_.frames; }
    bool measuring() const { return f_ >= warmupEnd_; }  // the next frame is a measured one
    bool measuredAny() const { return !m_.samples.empty(); }
    // Ends the warm-up after the frames drawn so far (--max-seconds half spent).
    void endWarmup() { warmupEnd_ = std::min(warmupEnd_, std::max(f_, 1L)); }
    // Draws the next frame; a measured one adds its sample. The frame's time starts where the last frame of
    // this loop ended, or (`restart`) now: in alternation another configuration's frame came between.
    void frame(render::Scene& scene, bool restart = false);
    // After the last frame: the frames still in flight waited for, their GPU times collected.
    Measurement finish();

private:
    Rig& rig_;
    const RunSettings& s_;
    FramePacer pacer_;
    Measurement m_;
    long warmupEnd_, f_ = 0;
    Clock::time_point frameStart_;
    double cpuStart_;
};

void FrameLoop::frame(render::Scene& scene, bool restart) {
    if (restart) frameStart_ = Clock::now(), cpuStart_ = processCpuMs();
    const auto t0 = frameStart_;
    const double cpu0 = cpuStart_;
    rig_.advance(s_.dt);
    const auto t1 = Clock::now();
    const auto camera = rig_.layers.camera(s_.width, s_.height);
    const double lightMs = rig_.layers.light(scene, camera);
    const auto t2 = Clock::now();
    rig_.timer.beginFrame(f_);
    rig_.layers.upload(camera);
    const auto t3 = Clock::now();
    rig_.pipeline.draw(scene, rig_.layers.ordered(camera), camera, rig_.target);
    rig_.timer.endFrame();
    pacer_.submitted(f_);
    const auto t4 = Clock::now();
    const double cpu4 = processCpuMs();
    if (s_.render.sort == render::Sort::Abuffer) m_.addOit(rig_.pipeline.oitStats(), f_);  // a read-back: harness time
    if (const auto gpu = rig_.timer.collect(f_); gpu && f_ - render::PassTimer::kLag >= warmupEnd_) m_.addGpu(*gpu);
    const bool measured = f_ >= warmupEnd_;
    if (measured && !rig_.gpuSim()) m_.aliveSum += static_cast<double>(rig_.layers.stack().alive());
    if (const fluid::FluidSim* f = rig_.layers.stack().fluid(); measured && f != nullptr) m_.addFluid(*f);
    // The next frame starts here. Latency: a frame's time runs to its fence; throughput: to the next
    // frame's start. The harness's own time is the rest: camera, queries, bookkeeping, loop.
    const auto frameEnd = Clock::now();
    const double cpuEnd = processCpuMs();
    if (measured) {
        FrameSample fs{0.0, ms(t0, t1), ms(t2, t3), ms(t3, t4), 0.0, lightMs};
        const bool throughput = s_.timing == Timing::Throughput;
        fs.frameMs = throughput ? ms(t0, frameEnd) : ms(t0, t4);
        fs.cpuMs = (throughput ? cpuEnd : cpu4) - cpu0;  // over the same span as frameMs
        fs.harnessMs = ms(t0, frameEnd) - fs.simMs - fs.uploadMs - fs.drawMs - fs.lightFitMs;
        m_.samples.push_back(fs);
    }
    frameStart_ = frameEnd;
    cpuStart_ = cpuEnd;
    ++f_;
}

Measurement FrameLoop::finish() {
    // Every frame done: the last frames' GPU times are ready now, and quality scoring starts from an idle GPU.
    pacer_.drain(f_ - 1);
    for (long k = f_; k < f_ + render::PassTimer::kLag; ++k)
        if (const auto gpu = rig_.timer.collect(k); gpu && k - render::PassTimer::kLag >= warmupEnd_) m_.addGpu(*gpu);
    if (rig_.gpuSim())  // as the strategy reports (a read-back, after the timed frames)
        m_.aliveSum = static_cast<double>(rig_.layers.stack().drawnCount()) * static_cast<double>(m_.samples.size());
    m_.warmup = warmupEnd_;
    return std::move(m_);
}

// --max-seconds bounds a run (a group's: its members' together), warm-up included: the warm-up ends early once
// half of it is spent, measuring once all of it is (always at least one measured frame).
struct TimeBudget {
    Clock::time_point start;
    double limitMs;
    bool spent(Clock::time_point now) const { return ms(start, now) > limitMs; }
    bool halfSpent(Clock::time_point now) const { return ms(start, now) > limitMs / 2.0; }
};

// One configuration's warm-up and measured frames, alone.
Measurement measureFrames(Rig& rig, render::Scene& scene, const RunSettings& s, Clock::time_point runStart,
                          const std::atomic<bool>* stop) {
    FrameLoop loop(rig, s);
    const TimeBudget budget{runStart, s.maxSeconds * 1000.0};
    while (!loop.done()) {
        loop.frame(scene);
        const auto now = Clock::now();
        if (budget.spent(now) && loop.measuredAny()) break;
        if (!loop.measuring() && budget.halfSpent(now)) loop.endWarmup();
        if (stop && stop->load()) {
            Measurement m = loop.finish();
            m.interrupted = true;
            return m;
        }
    }
    return loop.finish();
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
    for (size_t p = 0; p < m.fluidMs.size(); ++p)
        setField(row, "fluid_" + std::string(fluid::kPassNames[p]) + "_ms_median", median(m.fluidMs[p]));
    setField(row, "fluid_iterations_median", median(m.fluidIterations));
    setField(row, "fluid_residual_median", median(m.fluidResidual));
    if (m.fluidBytes > 0.0) {
        setField(row, "fluid_substeps_max", std::to_string(m.fluidSubsteps));
        setField(row, "fluid_mib", csvNumber(m.fluidBytes / 1048576.0));
        setField(row, "fluid_device_used", m.fluidDevice);
    }
    setField(row, "harness_ms_mean", csvNumber(summarize(harness).mean));
    setField(row, "light_fit_ms_median", csvNumber(summarize(light).median));
}

}  // namespace

namespace {
// A run's row as it starts: who it is, its settings, when it started.
Row startRow(const PlannedRun& planned, const std::string& experiment) {
    Row row;
    setField(row, "experiment", experiment);
    setField(row, "run_key", planned.key);
    for (const auto& n : settingColumns()) setField(row, csvColumn(n), settingText(planned.settings, n));
    setField(row, "started", utcTimestamp());
    setField(row, "frames", "0");
    return row;
}

Row& endRow(Row& row, const std::string& status, Clock::time_point start) {
    setField(row, "status", status);
    setField(row, "seconds", csvNumber(ms(start, Clock::now()) / 1000.0));
    return row;
}

void addCanary(Row& row, const std::vector<CanarySample>& samples) {
    if (samples.empty()) return;
    const CanarySample c = medianOf(samples);
    setField(row, "canary_cpu_ms", csvNumber(c.cpuMs));
    setField(row, "canary_gl_ms", csvNumber(c.glMs));
}
}  // namespace

// What is measured of a configuration after its timed frames: what shading the fire lights costs, the view,
// the order-independent structure, and (--quality) the picture's scores, from a replay of the same state.
// Returns the status the run ends with when it fails (empty: it stands).
namespace {
std::string afterFrames(Row& row, Rig& rig, render::Scene& scene, QualityScorer& scorer, gl::Context& context,
                        const PlannedRun& planned, long prewarmSteps, const Measurement& measured,
                        const FrameOutput& frames) {
    const RunSettings& s = planned.settings;
    setField(row, "warmup", std::to_string(measured.warmup));
    setField(row, "light_shade_ms_median", csvNumber(lightShadeMs(rig, scene, s)));
    recordView(row, rig, s, planned.key, context.info().pointSizeMax);
    if (render::orderIndependent(s.render.sort))
        setField(row, "oit_mib", csvNumber(static_cast<double>(rig.pipeline.oitStats().bytes) / 1048576.0));
    if (s.render.sort == render::Sort::Abuffer) {
        setField(row, "abuffer_fragments", std::to_string(measured.oit.fragments));
        setField(row, "abuffer_longest_list", std::to_string(measured.oit.longestList));
        if (measured.overflowFrame >= 0)  // a frame drawn without some of its fragments: refused
            return "error: frame " + std::to_string(measured.overflowFrame) + ": " +
                   render::abufferOverflowMessage(measured.overflowed);
    }
    if (s.quality.enabled) {  // after the timed frames: a replay of the same state
        const auto steps =
            scoredSteps(prewarmSteps, measured.warmup, static_cast<long>(measured.samples.size()), s.quality.frames);
        const QualityScores q = scorer.score(s, planned.key, steps, frames);
        if (q.frames > 0 && q.fireFrames == 0)
            std::fprintf(stderr,
                         "firelab: %s: no fire in view in the scored frames (off screen, behind the camera, "
                         "transparent, or not emitted yet): the *_fire scores are left empty, not perfect\n",
                         planned.key.c_str());
        addQualityColumns(row, q);
    }
    return debugFailure(context);
}
}  // namespace

Row Runner::run(const PlannedRun& planned, const std::string& experiment, const std::atomic<bool>* stop,
                const FrameOutput& frames, std::vector<FrameRecord>* records, long round, long process) {
    const RunSettings& s = planned.settings;
    const auto runStart = Clock::now();
    Row row = startRow(planned, experiment);
    auto finish = [&](const std::string& status) { return endRow(row, status, runStart); };
    if (!ensureContext()) return finish("error: " + contextError_);
    setField(row, "gl_renderer", context_->info().renderer);
    setField(row, "gl_version", context_->info().version);
    setField(row, "paired_by", "rounds");

    Measurement measured;
    try {
        Rig rig(s, dataDir_);
        for (const auto& layer : rig.layers.layers())  // drawn otherwise than the effect asks: say so
            if (!layer.note.empty()) std::fprintf(stderr, "firelab: %s: %s\n", planned.key.c_str(), layer.note.c_str());
        std::string why;
        const long prewarmSteps = prewarm(rig, s, stop, why);
        if (!why.empty()) return finish(why);
        std::vector<CanarySample> canary{canary_->sample()};
        measured = measureFrames(rig, *scene_, s, runStart, stop);
        if (measured.interrupted) return finish("interrupted");
        canary.push_back(canary_->sample());
        addCanary(row, canary);
        if (const std::string failure =
                afterFrames(row, rig, *scene_, *scorer_, *context_, planned, prewarmSteps, measured, frames);
            !failure.empty())
            return finish(failure);
    } catch (const Error& e) {
        context_->clearDebugMessages();
        return finish("error: " + std::string(e.what()));
    } catch (const std::exception& e) {  // out of memory, no threads: the sweep goes on
        context_->clearDebugMessages();
        return finish(failureOf(e));
    }
    summarise(row, measured, planned.key);
    if (records)
        for (size_t j = 0; j < measured.samples.size(); ++j) {
            const FrameSample& x = measured.samples[j];
            records->push_back({experiment, planned.key, planned.key, process, round, static_cast<long>(j), 0,
                                x.frameMs, x.cpuMs, x.drawMs});
        }
    return finish("ok");
}

namespace {
// The order of one cycle's frames: a permutation drawn from the run's generator (Fisher-Yates with our own
// draws, the same on every standard library).
std::vector<size_t> cycleOrder(size_t n, std::mt19937_64& rng) {
    std::vector<size_t> order(n);
    for (size_t i = 0; i < n; ++i) order[i] = i;
    for (size_t i = n; i > 1; --i) std::swap(order[i - 1], order[rng() % i]);
    return order;
}

// One member of an alternated group: its row, its rig and frames, where each measured frame came in its
// cycle's order.
struct Member {
    const PlannedRun* planned;
    Row row;
    std::unique_ptr<Rig> rig;
    std::unique_ptr<FrameLoop> loop;
    long prewarmSteps = 0;
    std::vector<int> slots;
    std::string status;  // set once it has ended (an error, or interrupted)
};
}  // namespace

GroupResult Runner::runGroup(const std::vector<const PlannedRun*>& group, const GroupRun& run,
                             const std::atomic<bool>* stop, const FrameOutput& frames) {
    const auto start = Clock::now();
    std::vector<Member> members;
    for (const PlannedRun* p : group) members.push_back({p, startRow(*p, run.experiment), nullptr, nullptr, 0, {}, ""});
    GroupResult out;
    auto finishAll = [&](const std::string& status) {
        for (auto& m : members) out.rows.push_back(endRow(m.row, m.status.empty() ? status : m.status, start));
        return out;
    };
    if (!ensureContext()) return finishAll("error: " + contextError_);
    for (auto& m : members) {
        setField(m.row, "gl_renderer", context_->info().renderer);
        setField(m.row, "gl_version", context_->info().version);
        setField(m.row, "paired_by", "frames");
    }
    std::vector<CanarySample> canary;
    try {
        double budgetMs = 0.0;
        for (auto& m : members) {  // each its own rig, at its own steady state (or --start-time)
            try {
                m.rig = std::make_unique<Rig>(m.planned->settings, dataDir_);
                for (const auto& layer : m.rig->layers.layers())
                    if (!layer.note.empty())
                        std::fprintf(stderr, "firelab: %s: %s\n", m.planned->key.c_str(), layer.note.c_str());
                m.prewarmSteps = prewarm(*m.rig, m.planned->settings, stop, m.status);
            } catch (const Error& e) {
                m.status = "error: " + std::string(e.what());
            }
            if (stop && stop->load()) return finishAll("interrupted");
            if (!m.status.empty()) continue;
            m.loop = std::make_unique<FrameLoop>(*m.rig, m.planned->settings);
            budgetMs += m.planned->settings.maxSeconds * 1000.0;
        }
        std::vector<Member*> live;
        for (auto& m : members)
            if (m.loop) live.push_back(&m);
        const TimeBudget budget{start, budgetMs};
        std::mt19937_64 rng(run.orderSeed);
        canary.push_back(canary_->sample());
        for (long cycle = 0; !live.empty() && !live.front()->loop->done(); ++cycle) {
            const bool measuring = live.front()->loop->measuring();  // every loop is at the same frame
            const auto order = cycleOrder(live.size(), rng);
            for (size_t slot = 0; slot < order.size(); ++slot) {
                Member& m = *live[order[slot]];
                m.loop->frame(*scene_, true);
                if (measuring) m.slots.push_back(static_cast<int>(slot));
                if (stop && stop->load()) return finishAll("interrupted");
            }
            if (measuring && live.front()->slots.size() % static_cast<size_t>(kBlockCycles) == 0)
                canary.push_back(canary_->sample());  // between blocks of cycles
            const auto now = Clock::now();
            if (budget.spent(now) && live.front()->loop->measuredAny()) break;
            if (!live.front()->loop->measuring() && budget.halfSpent(now))
                for (Member* m : live) m->loop->endWarmup();
        }
        canary.push_back(canary_->sample());
        for (Member* m : live) {
            Measurement measured = m->loop->finish();
            try {
                m->status = afterFrames(m->row, *m->rig, *scene_, *scorer_, *context_, *m->planned, m->prewarmSteps,
                                        measured, frames);
            } catch (const Error& e) {
                m->status = "error: " + std::string(e.what());
            }
            addCanary(m->row, canary);
            if (m->status.empty()) summarise(m->row, measured, m->planned->key);
            for (size_t j = 0; j < measured.samples.size(); ++j) {
                const FrameSample& x = measured.samples[j];
                out.frames.push_back({run.experiment, m->planned->key, run.groupKey, run.process, run.round,
                                      static_cast<long>(j), m->slots[j], x.frameMs, x.cpuMs, x.drawMs});
            }
        }
    } catch (const std::exception& e) {  // out of memory, no threads: the sweep goes on
        context_->clearDebugMessages();
        for (auto& m : members)
            if (m.status.empty()) m.status = failureOf(e);
        out.frames.clear();
    }
    return finishAll("ok");
}

}  // namespace firelab::harness

#include "harness/runner.h"

#include <epoxy/gl.h>

#include <array>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <sstream>

#include "harness/meta.h"
#include "harness/stats.h"
#include "render/camera.h"
#include "render/frame_pipeline.h"
#include "render/frame_target.h"
#include "render/gpu_timer.h"
#include "render/scene.h"
#include "render/strategy.h"
#include "core/error.h"
#include "sim/fire_system.h"

namespace firelab::harness {
namespace {

using Clock = std::chrono::steady_clock;
double ms(Clock::time_point a, Clock::time_point b) { return std::chrono::duration<double, std::milli>(b - a).count(); }

std::string num(double v) {
    std::ostringstream o;
    o.precision(6);
    o << v;
    return o.str();
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
    row["reference"] = q.reference;
    row["quality_frames"] = std::to_string(q.frames);
    row["energy_scale"] = num(q.energyScale);
    if (q.frames > 0) {
        const auto& m = q.mean;
        row["psnr_db"] = num(m.psnr), row["psnr_fire_db"] = num(m.psnrFire);
        row["ssim"] = num(m.ssim), row["ssim_fire"] = num(m.ssimFire);
        row["flip"] = num(m.flip), row["flip_fire"] = num(m.flipFire);
        row["covered_fraction"] = num(q.coveredFraction);
        row["fragments_visible"] = num(q.fragmentsVisible);
        row["fragments_shaded"] = num(q.fragmentsShaded);
    }
    if (q.flickerRatio >= 0) row["flicker_ratio"] = num(q.flickerRatio);
    row["frame_png"] = q.framePng.string();
    row["reference_png"] = q.referencePng.string();
    row["quality_seconds"] = num(q.seconds);
}
}  // namespace

Row Runner::run(const PlannedRun& planned, const std::string& experiment, const std::atomic<bool>* stop,
                const FrameOutput& frames) {
    const RunSettings& s = planned.settings;
    const auto runStart = Clock::now();
    Row row;
    row["experiment"] = experiment;
    row["label"] = s.label;
    row["run_key"] = planned.key;
    row["strategy"] = s.strategy;
    for (const auto& n : settingColumns()) row[csvColumn(n)] = settingText(s, n);
    row["started"] = utcTimestamp();
    row["frames"] = "0";
    auto finish = [&](const std::string& status) {
        row["status"] = status;
        row["seconds"] = num(ms(runStart, Clock::now()) / 1000.0);
        return row;
    };
    if (!ensureContext()) return finish("error: " + contextError_);
    row["gl_renderer"] = context_->info().renderer;
    row["gl_version"] = context_->info().version;

    std::vector<FrameSample> samples;
    std::vector<double> gpuMs;
    double aliveSum = 0.0;
    try {
        render::FrameTarget target(s.width, s.height);
        render::StrategyContext sc{dataDir_, effectiveRenderOptions(s), s.params, s.dt};
        auto strategy = render::makeStrategy(s.strategy, sc);
        render::FramePipeline pipeline(dataDir_, sc.options, s.width, s.height);
        sim::FireSystem fire(s.params, s.threads);
        const bool gpuSim = render::strategyInfo(s.strategy).simulatesOnGpu;
        // Start at steady state. GPU-simulated strategies catch up to the clock in their first upload,
        // a warm-up frame.
        // (expand() has refused step counts that would make this long; a stop request ends it.)
        // --max-seconds bounds the prewarm too: past it the run ends, saying how long reaching steady state
        // would take here (a lower bound: a step costs more as the fire fills up).
        long prewarmSteps = 0;
        const double prewarmEnd = fire.prewarmSeconds() + s.dt;
        const auto prewarmStart = Clock::now();
        for (; fire.time() < prewarmEnd; ++prewarmSteps) {
            if (gpuSim)
                fire.advanceClock(s.dt);
            else
                fire.step(s.dt);
            if (stop && stop->load()) return finish("interrupted");
            const double spent = ms(prewarmStart, Clock::now()) / 1000.0;
            if (spent > s.maxSeconds && fire.time() < prewarmEnd) {
                char why[256];
                std::snprintf(why, sizeof why,
                              "error: --max-seconds %g: reaching steady state alone (%.3g s of simulated time) would take "
                              "at least %.3g s here; raise --max-seconds or lower --particles",
                              double(s.maxSeconds), prewarmEnd, spent * prewarmEnd / fire.time());
                return finish(why);
            }
        }
        render::GpuTimer timer;
        samples.reserve(static_cast<size_t>(s.frames));
        // --max-seconds bounds the whole run: warm-up ends early once half of it is spent, measuring
        // once all of it is (always at least one measured frame).
        long warmupEnd = s.warmup;
        Clock::time_point frameStart = Clock::now();
        for (long f = 0; f < warmupEnd + s.frames; ++f) {
            const auto t0 = Clock::now();
            if (gpuSim)
                fire.advanceClock(s.dt);  // the strategy simulates on the GPU: only the clock moves here
            else
                fire.step(s.dt);
            const auto t1 = Clock::now();
            const auto camera = render::orbitCamera(fire.time(), s.width, s.height);
            const auto t2 = Clock::now();
            if (gpuSim) timer.begin(f);  // their upload dispatches the GPU simulation: GPU time too
            strategy->upload(fire, camera);
            const auto t3 = Clock::now();
            if (!gpuSim) timer.begin(f);
            pipeline.draw(*scene_, *strategy, camera, target);
            timer.end();
            GLsync fence = glFenceSync(GL_SYNC_GPU_COMMANDS_COMPLETE, 0);
            glClientWaitSync(fence, GL_SYNC_FLUSH_COMMANDS_BIT, 60'000'000'000ULL);
            glDeleteSync(fence);
            const auto t4 = Clock::now();
            const double gpu = timer.collect(f);
            const bool measured = f >= warmupEnd;
            if (measured) {
                FrameSample fs{0.0, ms(t0, t1), ms(t2, t3), ms(t3, t4), 0.0};
                fs.frameMs = ms(t0, t4);
                samples.push_back(fs);
                if (!gpuSim) aliveSum += static_cast<double>(fire.pool().alive());
            }
            if (gpu >= 0.0 && f - render::GpuTimer::kLag >= warmupEnd) gpuMs.push_back(gpu);
            // The harness's own time this frame: everything from the previous frame's end to this one's
            // end that was not simulation, upload or drawing (camera, queries, bookkeeping, loop).
            const auto frameEnd = Clock::now();
            if (measured)
                samples.back().harnessMs = ms(frameStart, frameEnd) - ms(t0, t1) - ms(t2, t3) - ms(t3, t4);
            frameStart = frameEnd;
            if (ms(runStart, frameEnd) > s.maxSeconds * 1000.0 && !samples.empty()) break;
            if (!measured && f + 1 < warmupEnd && ms(runStart, frameEnd) > s.maxSeconds * 500.0) warmupEnd = f + 1;
            if (stop && stop->load()) return finish("interrupted");
        }
        if (gpuSim) aliveSum = static_cast<double>(strategy->drawnCount()) * static_cast<double>(samples.size());
        row["warmup"] = std::to_string(warmupEnd);
        if (s.quality.enabled) {  // after the timed frames: a replay of the same state
            const auto steps = scoredSteps(prewarmSteps, warmupEnd, static_cast<long>(samples.size()), s.quality.frames);
            addQualityColumns(row, scorer_->score(s, planned.key, steps, frames));
        }
        // A debug context's high-severity messages make the run's figures suspect: say so.
        for (const auto& m : context_->debugMessages())
            if (m.severity == GL_DEBUG_SEVERITY_HIGH) {
                context_->clearDebugMessages();
                return finish("error: GL debug message: " + m.text);
            }
        context_->clearDebugMessages();
    } catch (const Error& e) {
        context_->clearDebugMessages();
        return finish("error: " + std::string(e.what()));
    } catch (const std::exception& e) {  // out of memory, no threads: the sweep goes on
        context_->clearDebugMessages();
        return finish("error: " + std::string(e.what()));
    }
    std::vector<double> frame, sim, upload, draw, harness;
    for (const auto& x : samples) {
        frame.push_back(x.frameMs), sim.push_back(x.simMs), upload.push_back(x.uploadMs);
        draw.push_back(x.drawMs), harness.push_back(x.harnessMs);
    }
    const Summary fr = summarize(frame);
    row["frames"] = std::to_string(samples.size());
    row["alive_mean"] = num(samples.empty() ? 0.0 : aliveSum / static_cast<double>(samples.size()));
    row["frame_ms_median"] = num(fr.median);
    row["frame_ms_mean"] = num(fr.mean);
    row["frame_ms_p5"] = num(fr.p5);
    row["frame_ms_p95"] = num(fr.p95);
    row["frame_ms_p99"] = num(fr.p99);
    row["frame_ms_stddev"] = num(fr.stddev);
    row["frame_ms_min"] = num(fr.min);
    row["frame_ms_max"] = num(fr.max);
    row["fps"] = num(fr.median > 0 ? 1000.0 / fr.median : 0.0);
    row["sim_ms_median"] = num(summarize(sim).median);
    row["upload_ms_median"] = num(summarize(upload).median);
    row["draw_ms_median"] = num(summarize(draw).median);
    row["gpu_ms_median"] = gpuMs.empty() ? "" : num(summarize(gpuMs).median);
    row["harness_ms_mean"] = num(summarize(harness).mean);
    return finish("ok");
}

}  // namespace firelab::harness

// Runs one configuration and measures it: vsync off (offscreen framebuffer, no swaps), warm-up frames
// discarded, a fixed simulation step, and per frame the simulation CPU ms, the upload CPU ms, the
// draw wall ms up to a fence (--timing latency: the frame's own; throughput: the one 2 frames back),
// the GPU ms of the frame and of each pass (render/gl/pass_timer.h, read back 3 frames later, never
// stalling), the whole frame's wall ms, and the harness's own ms. One GL context serves every run.
#pragma once
#include <atomic>
#include <filesystem>
#include <functional>
#include <memory>
#include <string>

#include "harness/measure/canary.h"
#include "harness/results/csv.h"
#include "harness/results/frame_pairs.h"
#include "harness/settings/experiment.h"
#include "harness/draw/scorer.h"
#include "render/gl/gl_context.h"

namespace firelab::render {
class Scene;
}

namespace firelab::harness {

struct FrameSample {
    double frameMs = 0, simMs = 0, uploadMs = 0, drawMs = 0, harnessMs = 0;
    double lightFitMs = 0;  // fitting the fire lights (CPU)
    double cpuMs = 0;       // the process's CPU time (all threads) over the frame's span (CLOCK_PROCESS_CPUTIME_ID)
};

// An alternated run of a group (runGroup): whose it is, which round of which process, and the seed of its
// cycles' orders.
struct GroupRun {
    std::string experiment, groupKey;
    long round = 1, process = 1;
    uint64_t orderSeed = 0;
};

// What an alternated run leaves: a row per member (in the group's order) and every measured frame's record.
struct GroupResult {
    std::vector<Row> rows;
    std::vector<FrameRecord> frames;
};

class Runner {
public:
    explicit Runner(std::filesystem::path dataDir, bool debugContext = false);
    ~Runner();

    // Measures one run; a failure (no GL context, a strategy the driver cannot do...) is reported in
    // the row's status rather than thrown, so a sweep goes on. The row holds columns of the schema (results/schema.h) only.
    // A set `stop` flag ends the run early (the caller discards the row).
    // With --quality, the picture is scored after the timed frames (quality.h) and frames are written
    // to `frames`.
    // With `records`: every measured frame's record (frames.csv), the run its own group (group_key its run_key,
    // slot 0), of `round` and `process`.
    Row run(const PlannedRun& run, const std::string& experiment, const std::atomic<bool>* stop = nullptr,
            const FrameOutput& frames = {}, std::vector<FrameRecord>* records = nullptr, long round = 1,
            long process = 1);

    // Measures the configurations of a group in alternation, frame by frame (issue #37): each its own rig at
    // its own steady state, then cycles in which every member draws one frame, in an order shuffled per cycle
    // from run.orderSeed, warm-up cycles first, so that the frames compared are milliseconds apart, not the
    // seconds between whole runs. The members must agree on the frame counts, the window and latency timing
    // (the sweep checks: canAlternate); --max-seconds bounds the group by its members' sum. A member that fails
    // (its rig, its prewarm, its scoring) fails alone; a stop ends every member's row as interrupted. The
    // canary runs before the first cycle, after every kBlockCycles measured cycles and after the last; every
    // member's row has its median.
    GroupResult runGroup(const std::vector<const PlannedRun*>& group, const GroupRun& run,
                         const std::atomic<bool>* stop = nullptr, const FrameOutput& frames = {});

    // The context's description, or null if none could be made (then contextError() says why).
    const gl::GlInfo* glInfo();
    const std::string& contextError() const { return contextError_; }

private:
    bool ensureContext();

    std::filesystem::path dataDir_;
    bool debug_;
    std::unique_ptr<gl::Context> context_;
    std::unique_ptr<render::Scene> scene_;
    std::unique_ptr<QualityScorer> scorer_;  // keeps reference frames across the runs of a sweep
    std::unique_ptr<Canary> canary_;
    std::string contextError_;
};

}  // namespace firelab::harness

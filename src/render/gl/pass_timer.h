// GPU time per pass of a frame, from GL_TIMESTAMP queries (which, unlike GL_TIME_ELAPSED, can be placed
// anywhere): beginFrame(f), a PassTimer::Scope around each pass, endFrame(); collect(f) reads frame
// f - kLag when its results are available, so reading never waits for the GPU. A null timer costs nothing.
//   timer.beginFrame(f); { PassTimer::Scope s(&timer, Pass::Scene); scene.draw(camera); } timer.endFrame();
//   if (auto t = timer.collect(f)) use(t->frameMs, t->passMs);   // frame f - kLag
// (Meaningless on software renderers: see GlInfo::timerQueriesMeaningful.)
#pragma once
#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "core/setting.h"
#include "render/gl/gl.h"

namespace firelab::render {

// The passes of a frame, in the order it takes them. Simulate and sort: a GPU-simulated strategy's work in
// upload() (gpu-stateless has neither: its vertex shader computes each particle, inside particles). Splat and
// integrate: the volume strategy's froxel grid, filled and integrated in upload() (its composite is particles). Depth:
// the scene depth's copy, downsample and edge mark. Particles: every particle draw (low resolution and
// edge fix-up, compute splatting included).
enum class Pass { Simulate, Sort, Splat, Integrate, Scene, Haze, Depth, Particles, Composite, Tonemap, Count };
inline constexpr size_t kPassCount = static_cast<size_t>(Pass::Count);
inline constexpr auto kPassNames = std::to_array<std::string_view>(
    {"simulate", "sort", "splat", "integrate", "scene", "haze", "depth", "particles", "composite", "tonemap"});
static_assert(core::namesEveryValue<Pass>(kPassNames));

// One frame's GPU times, ms: the whole frame (beginFrame to endFrame) and each pass it had, summed over the
// pass's spans (a pass drawn twice counts twice); a pass the frame did not have is empty.
struct PassTimes {
    double frameMs = 0.0;
    std::array<std::optional<double>, kPassCount> passMs{};
};

// A pass's span: the indices of its begin and end timestamps in its frame.
struct PassSpan {
    Pass pass;
    size_t begin, end;
};
// A frame's times from its timestamps (ns): stamps[0] its start, stamps[frameEnd] its end. A span that
// would run backwards counts as 0.
PassTimes passTimes(std::span<const uint64_t> stampsNs, size_t frameEnd, std::span<const PassSpan> spans);

class PassTimer {
public:
    static constexpr int kLag = 3;

    // Marks a pass from construction to destruction; nothing when the timer is null.
    class Scope {
    public:
        Scope(PassTimer* timer, Pass pass) : timer_(timer) {
            if (timer_) timer_->begin(pass);
        }
        ~Scope() {
            if (timer_) timer_->end();
        }
        Scope(const Scope&) = delete;
        Scope& operator=(const Scope&) = delete;

    private:
        PassTimer* timer_;
    };

    void beginFrame(long frame);
    void endFrame();
    // A pass begun inside another is part of it; one begun outside a frame is not timed.
    void begin(Pass pass);
    void end();
    // Frame `frame - kLag`'s times, if that frame was timed and its queries are ready.
    std::optional<PassTimes> collect(long frame);

private:
    struct Slot {
        long frame = -1;
        std::vector<gl::Query> queries;  // a pool of GL_TIMESTAMP queries: [0] the frame's start
        size_t used = 0;                 // queries stamped this frame
        size_t frameEnd = 0;             // the frame's end stamp; 0 until endFrame
        std::vector<PassSpan> spans;
    };
    size_t stamp(Slot& slot);  // a timestamp query, growing the slot's pool on first need
    Slot& current() { return slots_[static_cast<size_t>(currentFrame_ % (kLag + 1))]; }

    std::array<Slot, kLag + 1> slots_;
    long currentFrame_ = -1;        // the frame between beginFrame and endFrame; -1 outside one
    int depth_ = 0;                 // passes begun and not ended (only the outermost is timed)
    std::vector<uint64_t> stamps_;  // collect()'s read-back
};

}  // namespace firelab::render

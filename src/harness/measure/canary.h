// The machine's state, measured beside the frames: a short fixed workload, the same in every sweep, timed
// between blocks of frames. On a VM the host changes the machine's speed for seconds at a time; the canary
// slows with it, so a round measured in a slow spell shows in its canary, and a round whose canary is off its
// sweep's median by more than kCanaryMargin is flagged (canary_off in rounds.csv). Two parts, since they can
// move apart: a CPU part (arithmetic and a memory pass over 1 MiB, about a millisecond) and a GL part (the
// scene's pass into a small target, fenced: on llvmpipe the rasteriser's threads, on a GPU the GPU).
#pragma once
#include <vector>

#include "render/gl/frame_target.h"

namespace firelab::render {
class Scene;
}

namespace firelab::harness {

struct CanarySample {
    double cpuMs = 0, glMs = 0;
};

// A round's canary is flagged off when either part's median is further than this from the sweep's median of
// that part (relative). Chosen from the canary's own spread on a quiet 2-core VM (results/stability/).
inline constexpr double kCanaryMargin = 0.10;

class Canary {
public:
    explicit Canary(render::Scene& scene);  // needs the scene's GL context current
    // Times each part once (the scene's lights are left as the static glow: the next frame sets its own).
    CanarySample sample();

private:
    render::Scene& scene_;
    render::FrameTarget target_;
    std::vector<float> buffer_;
};

// The medians of each part over the samples (zeros for none).
CanarySample medianOf(const std::vector<CanarySample>& samples);

// Whether a round's canary (its medians) is off the sweep's (the median over every round's): either part
// further than kCanaryMargin from it. A part with no figure (0) is not judged.
bool canaryOff(const CanarySample& round, const CanarySample& sweep);

}  // namespace firelab::harness

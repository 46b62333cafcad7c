// The frame as a small graph of passes, the same for every strategy, every front end and every count:
//
//   scene ─┬─────────────────────────────────────────── particles ─────────────┬─> [tone map] ─> out
//          └─> depth copy ─> [depth downsample] ─> particles at 1/2 or 1/4 ─> composite ─┘
//                                               └─> [edge mark] ─> particles at full size on the edges
//
// - particle-scale 1: particles blend over the scene in place (soft particles and compute rasterisers,
//   StrategyInfo::primitive Splats, read a copy of its depth).
// - particle-scale < 1 (GPU Gems 3 ch. 23): the scene's depth is reduced to the farthest depth of each
//   block, which becomes the low-resolution pass's depth buffer, so the hardware depth test (and early-z)
//   rejects what the scene hides; particles accumulate colour and transmittance in RGBA16F (8 bits cannot
//   hold the product of hundreds of 1 - alpha near 1), and the composite blends frame = scene * T + C,
//   upsampled bilinearly or, with nearest-depth, from the low-resolution neighbour whose depth is nearest
//   the full-resolution pixel's where the neighbours disagree. With edge fix-up, the pixels whose block
//   straddles a depth edge are marked in the stencil and drawn again at full resolution instead.
// - haze (layers drawn --draw-as haze, whose strategies distort()): after the scene, the haze layers add their
//   screen-space offsets into an RG16F target (depth-tested against the scene), and the haze pass redraws the
//   scene seen through them (shaders/refract.frag) before any particle: the fire is drawn over the shimmering
//   background, not refracted itself. Where no offset was written the frame is left bit for bit as it was.
// - hdr: the scene and particles go to an RGBA16F frame that the tone map writes to `out`; clamp at
//   exposure 1 is the 8-bit frame's look.
#pragma once
#include <filesystem>
#include <memory>
#include <span>
#include <vector>

#include "render/camera.h"
#include "render/frame/order_independent.h"
#include "render/gl/frame_target.h"
#include "render/options.h"
#include "render/gl/pass_timer.h"
#include "render/frame/scene.h"
#include "render/gl/shader.h"
#include "render/strategies/strategy.h"

namespace firelab::render {

// The fragments of the particle passes, counted as they are drawn (DrawMode::CountShaded or
// CountVisible), at each pass's own resolution.
struct PassCounts {
    double particles = 0.0;  // the particle pass (at the particle scale)
    double fixup = 0.0;      // the full-resolution redraw of the edge pixels
    double total() const { return particles + fixup; }
    std::vector<float> map;  // the particle pass's counts per pixel (its size), row 0 at the top
    int width = 0, height = 0;
};

class FramePipeline {
public:
    // Throws firelab::Error(ShaderCompile/MissingFile) for its shaders, BadValue for a size GL refuses.
    FramePipeline(const std::filesystem::path& dataDir, const RenderOptions& options, int width, int height);
    ~FramePipeline();

    // Draws the scene and the layers' particles (each strategy uploaded for this frame), in the order
    // given (render/frame/layer_stack.h decides it), into `out`, which must be width x height, marking each
    // pass on the timer (if one is set).
    void draw(const Scene& scene, std::span<RenderStrategy* const> layers, const Camera& camera,
              const FrameTarget& out);
    void draw(const Scene& scene, RenderStrategy& strategy, const Camera& camera, const FrameTarget& out) {
        RenderStrategy* one[] = {&strategy};
        draw(scene, one, camera, out);
    }
    // Where draw() marks its passes (scene, depth, particles, composite, tone map); null: nowhere.
    void setTimer(PassTimer* timer) { timer_ = timer; }
    // Counts the particle passes' fragments (mode CountShaded or CountVisible) as draw() would draw them.
    PassCounts count(const Scene& scene, std::span<RenderStrategy* const> layers, const Camera& camera, DrawMode mode);
    PassCounts count(const Scene& scene, RenderStrategy& strategy, const Camera& camera, DrawMode mode) {
        RenderStrategy* one[] = {&strategy};
        return count(scene, one, camera, mode);
    }

    // --sort abuffer's figures for the last draw (zeros otherwise): fragments stored and dropped.
    OitStats oitStats() const { return oit_ ? oit_->stats() : OitStats{}; }

    int particleWidth() const { return lowWidth_; }
    int particleHeight() const { return lowHeight_; }

private:
    struct Targets;
    struct Programs;
    // The steps, in the order the frame takes them. The particles at full resolution (after the depth copy
    // they read, if any), or at a lower one: depth downsampled, the particles accumulated, the depth edges
    // marked, composited, the edges redrawn at full resolution.
    void drawScene(const Scene& scene, const Camera& camera, const FrameTarget& into) const;
    void drawHaze(std::span<RenderStrategy* const> haze, const Camera& camera, const FrameTarget& frame);
    void drawParticlesFull(std::span<RenderStrategy* const> layers, const Camera& camera, const FrameTarget& frame,
                           bool readDepth);
    void drawParticlesLow(std::span<RenderStrategy* const> layers, const Camera& camera, const FrameTarget& frame,
                          bool readDepth);
    DrawPass fullPass(const Camera& camera, bool readDepth) const;
    void copyDepth(const FrameTarget& from) const;
    void downsampleDepth(const FrameTarget& into) const;
    void markEdges(const FrameTarget& into, const FrameTarget& low) const;
    void drawParticles(std::span<RenderStrategy* const> layers, const DrawPass& pass, const FrameTarget& into,
                       bool onEdges) const;
    void composite(const FrameTarget& into) const;
    void toneMap(const FrameTarget& from, const FrameTarget& out) const;
    void setDepthTerms(const Camera& camera) const;
    static void clearAccumulation(const FrameTarget& target, float alpha);
    DrawPass passAt(const Camera& camera, int width, int height, DrawMode mode) const;
    // Whether the strategy's passes read the scene's depth (soft particles; compute rasterisers, which
    // depth-test it themselves), making the copies they read on first need.
    bool passesReadDepth(std::span<RenderStrategy* const> layers);
    // The low-resolution pass's depth (the scene's, downsampled), copied for the pass to read.
    GLuint lowDepthCopy(const FrameTarget& low) const;
    bool lowResolution() const { return options_.particleScale != ParticleScale::Full; }
    void makeOrderIndependent(const std::filesystem::path& dataDir);

    RenderOptions options_;
    std::filesystem::path shaders_;
    int width_, height_, lowWidth_, lowHeight_;
    std::unique_ptr<Targets> targets_;
    std::unique_ptr<Programs> programs_;
    std::unique_ptr<OrderIndependent> oit_;  // --sort wboit | moment | abuffer: alpha layers blended per fragment
    PassTimer* timer_ = nullptr;
};

}  // namespace firelab::render

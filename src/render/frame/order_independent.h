// Order-independent transparency for the frame's alpha layers (--sort wboit | moment | abuffer): every alpha
// fragment of every layer blended per pixel, not in draw order, so layers interleave fragment by fragment.
//
// - wboit (McGuire & Bavoil, "Weighted Blended Order-Independent Transparency", JCGT 2013): one pass sums
//   each fragment's premultiplied colour and coverage weighted by the paper's depth weight (eq. 7) into
//   RGBA32F and multiplies the revealage (the product of 1 - coverage) into R32F; a resolve lays their
//   average over the frame. Cheap, approximate: the nearer fragments are favoured by weight, not by order.
// - moment (Munstermann, Krumpen, Klein & Peters, "Moment-Based Order-Independent Transparency", 2018): a
//   first pass sums each fragment's absorbance and its first four powers of log-warped depth (R32F and
//   RGBA32F); a second weighs each fragment by the transmittance those moments reconstruct in front of it
//   (shaders/moment_oit.glsl) and sums into RGBA32F; the same resolve as wboit's. Two passes; the weight is
//   an estimate of the true order's, not a guess by distance.
// - abuffer (per-pixel fragment lists, Yang et al. 2010): each fragment is appended to its pixel's linked list
//   in a node pool of --abuffer-mib; the resolve sorts each list by view distance and composites it front to
//   back: the exact order. Fragments that find no room (the pool full, or over 256 in one pixel) are counted:
//   stats() says how many, and the harness refuses such a frame.
//
// Additive layers are drawn after the resolve: with abuffer and moment each additive fragment is dimmed by the
// transmittance in front of it (smoke in front of a fireball hides it in part, as depth-sliced layers do),
// with wboit they are not (its structure keeps no depths).
#pragma once
#include <filesystem>
#include <optional>
#include <span>
#include <string>

#include "render/camera.h"
#include "render/draw_pass.h"
#include "render/gl/frame_target.h"
#include "render/gl/shader.h"
#include "render/options.h"
#include "render/strategies/strategy.h"

namespace firelab::render {

// What the structure held in the last frame (fragments and lists: the abuffer's; memory: every mode's).
struct OitStats {
    size_t bytes = 0;        // the structure's GPU memory: targets, pool, heads
    size_t fragments = 0;    // alpha fragments stored
    size_t overflow = 0;     // alpha fragments that found no room (pool or per-pixel limit)
    size_t longestList = 0;  // the most fragments one pixel had
    size_t capacity = 0;     // the pool's nodes
};

inline constexpr size_t kAbufferNodeBytes = 16;
// The most fragments the resolve sorts in one pixel (a local array of 16-byte nodes); beyond, overflow.
inline constexpr size_t kAbufferMaxPerPixel = 256;

// Why a frame with stats.overflow > 0 could not be drawn exactly, and what would hold it: a pixel over
// kAbufferMaxPerPixel, or the pool (the --abuffer-mib that would hold the frame, with a quarter to spare).
std::string abufferOverflowMessage(const OitStats& stats);

class OrderIndependent {
public:
    // For options.sort wboit, moment or abuffer at width x height. Throws Error(TooLarge) when --abuffer-mib is more
    // than the driver's largest storage buffer.
    OrderIndependent(const std::filesystem::path& dataDir, const RenderOptions& options, int width, int height);
    ~OrderIndependent();

    // Draws `layers` (in any order) over `frame` (the scene drawn, its depth in frame's depth buffer): the alpha
    // layers through the structure, then the additive ones.
    void draw(std::span<RenderStrategy* const> layers, const DrawPass& pass, const FrameTarget& frame);
    // The abuffer's figures for the last draw (read back from the GPU: a small stall); for the others, the memory.
    OitStats stats() const;

private:
    void drawWboit(std::span<RenderStrategy* const> layers, DrawPass pass, const FrameTarget& frame);
    void drawMoment(std::span<RenderStrategy* const> layers, DrawPass pass, const FrameTarget& frame);
    void drawAbuffer(std::span<RenderStrategy* const> layers, DrawPass pass, const FrameTarget& frame);
    void attachDepth(const FrameTarget& frame);
    static void drawLayers(std::span<RenderStrategy* const> layers, const DrawPass& pass);
    void resolve(const gl::Program& program) const;

    Sort mode_;
    int width_, height_;
    gl::VertexArray empty_;
    gl::Program resolve_;
    // wboit and moment: the weighted sums the resolve averages (wboit: with the revealage), the frame's depth
    // attached for the depth test.
    gl::Framebuffer averageFbo_;
    gl::Texture accum_{GL_TEXTURE_2D}, reveal_{GL_TEXTURE_2D};
    GLuint attachedDepth_ = 0;
    // moment: the first pass's sums, b1..b4 and b0.
    gl::Framebuffer momentFbo_;
    gl::Texture moments_{GL_TEXTURE_2D}, momentTotal_{GL_TEXTURE_2D};
    // abuffer: the node pool (a buffer texture), the counters and the heads.
    gl::Buffer pool_, counters_;
    gl::Texture nodes_{GL_TEXTURE_BUFFER};
    gl::Texture heads_{GL_TEXTURE_2D};
    size_t capacity_ = 0;
    size_t bytes_ = 0;
};

}  // namespace firelab::render

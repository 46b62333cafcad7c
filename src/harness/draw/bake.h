// `firelab bake`: a fire baked into a flipbook, as artists bake a simulation for sprites to play (Unreal's SubUV,
// EmberGen's and Houdini's flipbook exports). A looping clip of any fire the run settings make (the paper's, an
// effect, the grid fluid) drawn by volume-reference, the medium integrated per pixel, into an atlas of R x C frames
// of a stated side, with beside it:
// - NAME_motion.png, the motion atlas --flipbook-blend motion reads (render::kMotionRange's encoding): per pixel,
//   the medium's own velocity projected to the frame over one frame's time, averaged over the kernels that
//   cover the pixel weighted by their light there. The medium's velocity is known exactly, so it is used rather
//   than optical flow between frames: a flame's brightness is not conserved from frame to frame (it flickers,
//   grows and fades), which is optical flow's premise, and flow estimated from a flicker would move what stands
//   still.
// - NAME.toml, what the atlas is and how to play it: its layout, frame side, frame rate and loop, the square it
//   frames (centre and size in metres, seen along -z), its light scale, and the fire and seed it came from.
//
// The atlas holds the light L of each pixel (rgb, linear, before tone mapping) and its coverage a (1 - the
// medium's transmittance) as 8-bit straight alpha: alpha = max(a, max(L) / S), rgb = L / (S alpha), S the clip's
// brightest channel, or the least light the run's tone mapping shows white where that is less (light_scale;
// brighter light is clipped to it). A sprite drawn additively adds rgb x alpha = L / S: --sprite-gain S gives back
// L. Looping: the clip is baked loop frames longer, and its first loop frames crossfade from the frames after its
// end to its own, so the last frame runs on into the first.
#pragma once
#include <filesystem>
#include <string>
#include <vector>

#include <glm/vec2.hpp>
#include <glm/vec3.hpp>
#include <glm/vec4.hpp>

#include "harness/settings/run_settings.h"
#include "render/camera.h"
#include "render/options.h"

namespace firelab::harness {

inline constexpr int kMaxAtlasSide = 16384;  // pixels: the largest texture every GL 4.5 driver we met takes
inline constexpr double kBakeBudgetBytes = 4.0 * 1024 * 1024 * 1024;  // the floats a bake may hold at most

struct BakeSettings {
    RunSettings run;  // the fire: its model, effect, fluid, seed and step (drawn by volume-reference)
    render::FlipbookLayout layout{8, 8};
    int cell = 128;             // a frame's side, pixels
    float fps = 30.0f;          // frames per simulated second
    float start = 2.0f;         // simulated seconds before frame 0 (the fire at its steady state)
    int loopFrames = 8;         // frames of the loop's crossfade; 0: the clip does not loop
    std::filesystem::path out;  // the atlas, NAME.png; NAME_motion.png and NAME.toml beside it
    std::filesystem::path dataDir;
    std::string commandLine;  // recorded in NAME.toml
};

// The square a frame shows: `size` metres wide, centred on `center`, seen along -z from kBakeDistancePerSize
// sizes away (a 28-degree view, as a sprite is seen from a few metres; from 40 m, a 2-degree view, llvmpipe's
// volume-reference drew a 3-pixel lattice into the medium, its rays' float precision).
struct BakeView {
    glm::vec3 center{0.0f};
    float size = 1.0f;
};
inline constexpr float kBakeDistancePerSize = 2.0f;  // the camera's distance to the square's centre, in its sizes
render::Camera bakeCamera(const BakeView& view, int cell);

// One frame of the clip as floats, row 0 at the bottom (GL's): light (rgb) and coverage (a), and the motion to
// the next frame in cells (u right, v up).
struct BakedFrame {
    std::vector<glm::vec4> light;
    std::vector<glm::vec2> motion;
};

struct BakeResult {
    BakeView view;
    float lightScale = 1.0f;
    std::vector<double> times;  // each atlas frame's simulated time (s), before the loop's crossfade
};

// The simulated time of frame k: the step nearest start + k / fps (each frame is drawn after whole steps).
double bakeFrameTime(const BakeSettings& s, int k);
// Checks the settings before any work, with exit-2 errors (BadValue) naming the flag and what is allowed: the
// atlas's side (layout x cell) within kMaxAtlasSide, a loop shorter than the clip, and the floats the bake holds
// (every frame's light and motion, the loop's included) within half the memory free and kBakeBudgetBytes.
void checkBake(const BakeSettings& s);
// Bakes the clip with the GL context that is current and writes the three files. Throws firelab::Error.
BakeResult bake(const BakeSettings& s);

// The 8-bit texel of light L and coverage a at light scale S (see above), and back: the light a sprite adds.
glm::vec4 encodeLight(const glm::vec4& light, float scale);
glm::vec3 decodedLight(const uint8_t* rgba, float scale);
// A motion (cells) as the motion atlas's red and green bytes, clamped to render::kMotionRange.
glm::vec2 encodeMotion(const glm::vec2& cells);

}  // namespace firelab::harness

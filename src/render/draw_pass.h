// What a particle pass asks of a strategy, shared by the frame's passes (render/frame) and what strategies
// are built from (render/particles): what a draw writes, the pass's camera and depth, and what a strategy is
// set up with.
#pragma once
#include <filesystem>

#include "render/camera.h"
#include "render/gl/gl.h"
#include "render/options.h"
#include "sim/params.h"

namespace firelab::render {

// What a draw writes: the picture, or fragment counts. While counting, the particle shaders output 1
// per fragment and blending adds them (into a float target), so the target holds fragments per pixel:
// CountVisible counts the fragments that survive the shader's discard (overdraw), CountShaded every
// fragment the shader runs on (rasterised and past the depth test, discarded or not).
enum class DrawMode { Color, CountVisible, CountShaded };

// One particle pass: its camera (whose viewport is the pass's target size), what it writes, and the
// scene's depth at the pass's size as a texture (soft particles and compute rasterisation read it; 0
// when the pass has none: nothing occludes). An accumulating pass draws into a buffer of its own,
// cleared to (0, 0, 0, 1), whose alpha keeps the transmittance (the product of 1 - alpha) that the
// composite multiplies the scene by: frame = scene * alpha + colour, as blending over the scene gives.
// The order-independent modes' passes (render/frame/order_independent.h) and which layers draw in each: the
// alpha layers go into the per-fragment structure, the additive ones are drawn after its resolve (dimmed
// by the alpha fragments in front of them where the structure can say by how much).
enum class OitStage {
    None,              // blended in draw order into the target
    WboitAccumulate,   // alpha layers: weighted colour and revealage (McGuire & Bavoil 2013)
    AbufferInsert,     // alpha layers: each fragment into its pixel's list
    AbufferShade,      // additive layers: each fragment times the transmittance of the list in front of it
    MomentAccumulate,  // alpha layers: absorbance and its moments of warped depth (Munstermann et al. 2018)
    MomentShade,       // every layer: each fragment times the transmittance the moments put in front of it
    Count,
};
enum class LayerFilter { All, Alpha, Additive };

struct DrawPass {
    Camera camera;
    DrawMode mode = DrawMode::Color;
    GLuint sceneDepth = 0;
    bool accumulate = false;
    OitStage oit = OitStage::None;
    LayerFilter layers = LayerFilter::All;  // which layers draw in this pass (by their blend)
    int frameHeight = 0;  // the frame's height in pixels (a low-resolution pass's camera is smaller); 0: the camera's
};

// Everything a strategy needs to set itself up.
struct StrategyContext {
    std::filesystem::path dataDir;  // holds shaders/ and textures/
    RenderOptions options;
    sim::FireParams params;   // the model (GPU-simulated strategies implement it; the others colour by it)
    float dt = 1.0f / 60.0f;  // the fixed simulation step, which GPU-simulated strategies step by too
};

}  // namespace firelab::render

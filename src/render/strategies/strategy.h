// The rendering strategy interface: every way of drawing the fire implements it, in one file each
// (src/render/strategies/*_strategy.cpp), and makeStrategy() creates one by name. Each strategy's file
// defines its StrategyEntry (its name, summary, capabilities and factory); the registry in strategy.cpp
// lists every entry once, in sweep order, and everything else (the command line, the sweeps, the tests)
// iterates strategies() or selects from it by capability.
//
// Per frame: upload(fire, camera) does the strategy's own CPU work and CPU->GPU transfer (GPU-simulated
// strategies advance their GPU state to fire.time() instead, marking their passes on setTimer's timer); draw(pass) issues the draw calls into
// the bound framebuffer, over the opaque scene's depth (depth test on, depth writes off). The frame's
// passes (render/frame/frame_pipeline.h) may call draw() more than once per upload: at another resolution, or
// counting fragments. Calling draw() alone repeats the same draw on data already resident: the
// benchmark's "floor".
#pragma once
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "render/draw_pass.h"
#include "render/gl/gl.h"
#include "render/options.h"
#include "render/gl/pass_timer.h"
#include "render/particles/medium.h"
#include "fluid/fluid_params.h"
#include "sim/fire_system.h"

namespace firelab::render {

// How a strategy puts particles on the screen, which decides the options it can take.
enum class Primitive {
    Points,   // GL_POINTS: the rasteriser's squares (no trimmed hull)
    Sprites,  // a polygon per particle: the quad or its trimmed hull
    Splats,   // rasterised by compute shaders into an accumulation buffer
    Medium,   // each particle a Gaussian blob of glowing (and absorbing) gas, integrated along the view rays
              // (render/particles/medium.h): no sprite, and one medium for all of an effect's layers
};

// A strategy's name and capabilities; tests select the strategies a test applies to by these fields.
struct StrategyInfo {
    std::string_view name;     // lower-case-dashed, as --strategy takes it
    std::string_view summary;  // one line for `firelab list`
    Primitive primitive = Primitive::Sprites;
    bool simulatesOnGpu = false;  // ignores the CPU pool and reproduces the model on the GPU
    bool canSort = true;          // draws back to front on request
    bool additiveOnly = false;    // its accumulation is order-independent only for additive light
    bool viewPlaneOnly = false;   // draws every particle as the screen-aligned square a view-plane quad projects to
    bool closedForm = false;      // computes each particle from the time alone: no state from step to step
    bool textured = true;         // draws the sprite (--texture, --flipbook, turns); false: a shape of its own
    bool referenceOnly =
        false;  // seconds to minutes a frame: a quality reference, capture and viewer only, never timed
};


class RenderStrategy {
public:
    virtual ~RenderStrategy() = default;
    virtual std::string_view name() const = 0;
    virtual void upload(const sim::FireSystem& fire, const Camera& camera) = 0;
    virtual void draw(const DrawPass& pass) = 0;
    // Particles the last draw() drew.
    virtual size_t drawnCount() const = 0;
    // Called by the layer stack after each simulation step of the layer's fire (a trail records its points here, so
    // that a capture's many steps before one upload still leave their trail).
    virtual void stepped(const sim::FireSystem& fire) { (void)fire; }
    // Whether it draws a screen-space offset for the frame's haze pass (--draw-as haze), not the fire's light.
    virtual bool distorts() const { return false; }
    // The pixels its last upload can touch, (x, y, width, height) in the upload camera's viewport, row 0 at the
    // bottom (width 0: none); nullopt: it cannot say (anywhere). The haze pass works inside its layers' rectangles.
    virtual std::optional<glm::ivec4> screenRect() const { return std::nullopt; }
    // Whether its particles collide with the scene's depth buffer (compute with --ground stage): the frame pipeline
    // then hands it the scene's depth after drawing the scene (setCollisionDepth, copied), which its next steps
    // collide with.
    virtual bool collidesWithDepth() const { return false; }
    virtual void setCollisionDepth(GLuint depthTexture, int width, int height, const Camera& camera) {
        (void)depthTexture, (void)width, (void)height, (void)camera;
    }
    // GPU-simulated strategies: the live particles' positions read back (a sync point: tests and checks only);
    // empty for the others, whose particles are the CPU pool's.
    virtual std::vector<glm::vec3> gpuPositions() const { return {}; }

    // Makes the following uploads take only the particles whose view depth is in [nearDepth, farDepth)
    // (the depth-sliced layer order); false when the strategy cannot (its particles are not on the CPU).
    virtual bool setDepthSlice(float nearDepth, float farDepth) {
        (void)nearDepth, (void)farDepth;
        return false;
    }

    // Medium strategies (Primitive::Medium) only: every layer of an effect as one medium, in place of one
    // upload() per layer (render/frame/layer_stack.h uploads and draws only the first layer's strategy).
    virtual void uploadMedium(std::span<const MediumLayer> layers, const Camera& camera) { (void)layers, (void)camera; }

    // Where upload() marks the GPU passes it issues (GPU simulation and sorting); null: none.
    void setTimer(PassTimer* timer) { timer_ = timer; }

protected:
    PassTimer* timer() const { return timer_; }

private:
    PassTimer* timer_ = nullptr;
};

// What a strategy's file registers: its info and its factory. The file defines it as
// `extern constexpr StrategyEntry k<Name>Strategy{...}`, and the registry in strategy.cpp names it once.
struct StrategyEntry {
    StrategyInfo info;
    std::unique_ptr<RenderStrategy> (*make)(const StrategyContext&);
};

// Every registered strategy, in the registry's order: the order `all` sweeps them in.
std::span<const StrategyInfo> strategies();
// The names of the strategies `keep` accepts (all without it), in the registry's order.
std::vector<std::string> strategyNames(const std::function<bool(const StrategyInfo&)>& keep = nullptr);
// The strategy called `name`; firelab::Error(UnknownName) naming it and listing the valid names.
const StrategyInfo& strategyInfo(std::string_view name);
// Throws firelab::Error: UnknownName (listing the valid names), GlUnsupported, ShaderCompile, MissingFile.
std::unique_ptr<RenderStrategy> makeStrategy(std::string_view name, const StrategyContext& context);
// Checks that the options make sense for the strategy (its StrategyInfo's capabilities: sorting, the
// primitive's hull, blend modes, facings); throws firelab::Error(BadValue) saying why not.
void checkOptions(std::string_view name, const RenderOptions& options);
// A reference-only strategy (StrategyInfo::referenceOnly) asked for as a timed one: throws
// firelab::Error(BadValue) naming --strategy and where it can be used.
void checkTimed(std::string_view name);
// The volume strategy's grid at a pass of width x height must fit in kMaxVolumeGridBytes; throws
// firelab::Error(BadValue) naming --volume-cell and --volume-slices. Other strategies: nothing to check.
inline constexpr size_t kMaxVolumeGridBytes = size_t{512} << 20;
size_t volumeGridBytes(int width, int height, const RenderOptions& options);
void checkVolumeGrid(std::string_view name, int width, int height, const RenderOptions& options);
// Checks that the strategy draws the model the CPU simulates, not another: a closed form cannot keep a
// rate longer lives would overrun nor a burst period shorter than a life, splats cannot turn sprites; throws
// firelab::Error(BadValue) naming the parameter and the strategy.
void checkModel(std::string_view name, const sim::FireParams& params);
// Checks that the strategy can draw the fire model (--model, --motion, --medium): particles carried by the fluid
// are the CPU's (not a GPU-simulated strategy's); under --model fluid a strategy that draws particles needs them to
// follow the fluid (--motion fluid); --motion fluid and --medium grid need the grid. Throws firelab::Error(BadValue)
// naming the flag, the strategy and what would do.
void checkFluid(std::string_view name, const fluid::FluidParams& fluid);
// --color grid needs particles the grid fluid carries (--motion fluid): throws BadValue naming both flags.
void checkColor(const sim::FireParams& params, const fluid::FluidParams& fluid);
// Whether a Medium strategy draws the grid (--model fluid with --medium auto or grid) rather than the particles.
bool drawsGrid(const fluid::FluidParams& fluid);
// Under --model fluid without --motion fluid the particles do not follow the grid, so only the grid's medium draws
// the fluid's fire (checkFluid refuses a particle strategy then): what capture's reference and the viewer default to.
bool onlyTheGridDrawsTheFluid(const fluid::FluidParams& fluid);

}  // namespace firelab::render

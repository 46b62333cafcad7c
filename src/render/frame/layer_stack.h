// An effect's layers as one drawable: per layer its own fire (sim::FireSystem, its own seed stream) and
// its own strategy instance (the run's strategy, the layer's look), stepped together, uploaded together
// and handed to the frame's particle pass in draw order.
//
// Draw order (drawOrder()): the opaque scene first (the pipeline's), then the layers that blend with
// alpha (alpha, premultiplied), whole layers back to front by the view depth of each layer's typical
// position (sim::typicalPosition: the same for every strategy), each layer sorted within itself when its
// sort option says so; then the additive layers, in the effect's order (addition commutes). A particle of
// one alpha layer is not interleaved with another layer's: two alpha layers that overlap in depth are
// ordered as wholes. Additive light in front of smoke is not dimmed by it.
//
// With RenderOptions::layerOrder DepthSlices (the reference the layer order is scored against) every
// layer's particles are interleaved by view depth instead: the depth range of all live particles is cut
// into kDepthSlices slices, drawn far to near, and in each slice every layer draws the particles it has
// there (in the order above, each sorted within itself). As the slices thin this tends to one sort of
// all particles together, each blended by its own layer's mode. CPU-simulated strategies only.
//
// A Medium strategy (volume, volume-reference) draws every layer as one medium, in which order does not
// arise: the first layer's strategy takes all the layers' particles (uploadMedium) and is the only one drawn.
//
// Trail and haze layers (RenderOptions::drawAs, render/layers/layer_kinds.h) are drawn by their own drawers, not the
// strategy, and simulated on the CPU whatever the strategy; under a medium or the depth slices they are drawn after
// it, whole.
//
// With --model fluid the stack also runs the grid fluid (fluid/fluid_sim.h), its source the first layer's emitter,
// stepped before the particles; a Medium strategy then draws the grid's medium in place of the first layer's
// particles (--medium auto or grid), and with --motion fluid every layer's particles are carried by its velocity.
#pragma once
#include <filesystem>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "render/camera.h"
#include "render/options.h"
#include "render/particles/medium.h"
#include "render/gl/pass_timer.h"
#include "render/strategies/strategy.h"
#include "fluid/fluid_sim.h"
#include "sim/fire_system.h"

namespace firelab::render {

struct LayerSetup {
    std::string name;
    sim::FireParams params;
    RenderOptions render;
    std::string note;  // how the layer is drawn otherwise than its effect asks (empty: as asked)
};

// The order to draw `layers` in, seen by `camera` at time t: indices into layers (see above).
std::vector<size_t> drawOrder(std::span<const LayerSetup> layers, const Camera& camera, double t);
// Whether the run's strategy draws the layer (not a trail or haze layer, render/layers/layer_kinds.h).
inline bool drawnByStrategy(const LayerSetup& l) { return l.render.drawAs == DrawAs::Strategy; }
// Whether the layer's blending depends on order (alpha, premultiplied).
inline bool blendsInOrder(const RenderOptions& o) { return o.blend != Blend::Additive; }

inline constexpr int kDepthSlices = 48;

// The device --fluid-device names, auto resolved in the current GL context: the GPU when the context is a hardware
// GPU's and its shaders run the solver (jacobi, pcg), else the CPU (on llvmpipe its compute is slower than the CPU's
// own step).
fluid::Device chosenFluidDevice(const fluid::FluidParams& fluid);

class LayerStack {
public:
    // Makes each layer's fire and strategy, and the grid fluid under --model fluid. Throws what FireSystem,
    // FluidSim, checkFluid and makeStrategy throw.
    LayerStack(const std::filesystem::path& dataDir, std::string_view strategy, std::vector<LayerSetup> layers,
               float dt, unsigned threads, const fluid::FluidParams& fluid = {});
    ~LayerStack();

    size_t size() const { return layers_.size(); }
    const LayerSetup& setup(size_t i) const { return layers_[i]; }
    std::span<const LayerSetup> layers() const { return layers_; }
    const sim::FireSystem& fire(size_t i) const { return *fires_[i]; }
    RenderStrategy& strategy(size_t i) { return *strategies_[i]; }
    // The grid fluid (--model fluid), or null.
    const fluid::FluidSim* fluid() const { return fluid_.get(); }
    // Whether the strategy simulates on the GPU (then the fires only keep the clock).
    bool gpuSimulated() const { return gpuSim_; }
    double time() const { return fires_.front()->time(); }
    // The longest of the layers' prewarms: every layer is at steady state after it.
    double prewarmSeconds() const { return prewarmSecondsFor(layers_); }
    static double prewarmSecondsFor(std::span<const LayerSetup> layers);

    // One fixed step of the fluid and then of every layer (on the CPU, or only the clock for GPU-simulated strategies).
    void step(float dt);
    // Each layer's upload for this frame.
    void upload(const Camera& camera);
    // The layers as one medium (a Medium strategy's upload): each layer's fire and look, the first layer's the
    // grid's medium in place of its particles when the strategy draws the grid (--model fluid).
    std::vector<MediumLayer> mediumLayers() const;
    void setTimer(PassTimer* timer);
    // This frame's strategies in draw order.
    std::vector<RenderStrategy*> ordered(const Camera& camera);
    // Whether layer i was left out of this frame: its particles' box outside the view (RenderOptions::cullBox).
    bool culled(size_t i) const { return i < culled_.size() && culled_[i]; }
    // Particles drawn by the last draw, all layers; particles alive on the CPU, all layers.
    size_t drawnCount() const;
    size_t alive() const;

private:
    std::vector<LayerSetup> layers_;
    std::vector<std::unique_ptr<sim::FireSystem>> fires_;
    std::vector<std::unique_ptr<RenderStrategy>> strategies_;
    std::unique_ptr<fluid::FluidSim> fluid_;
    bool gridMedium_ = false;  // a Medium strategy draws the fluid's grid
    bool gpuSim_;
    bool medium_;               // a Medium strategy: the first layer's strategy draws every layer as one medium
    std::vector<char> culled_;  // per layer: left out of this frame by its bounding box (RenderOptions::cullBox)
    bool outsideView(size_t layer, const Camera& camera) const;
    // A Medium strategy's layer: the first the strategy draws, which draws them all as one medium; none otherwise.
    std::optional<size_t> mediumIndex() const;
    class DepthSlices;
    std::unique_ptr<DepthSlices> slices_;  // with LayerOrder::DepthSlices
};

}  // namespace firelab::render

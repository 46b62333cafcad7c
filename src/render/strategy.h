// The rendering strategy interface: every way of drawing the fire implements it, in one file each
// (src/render/*_strategy.cpp), and makeStrategy() creates one by name.
//
// Per frame: upload(fire, camera) does the strategy's own CPU work and CPU->GPU transfer (GPU-simulated
// strategies advance their GPU state to fire.time() instead); draw(camera) issues the draw calls into
// the bound framebuffer, over the opaque scene (depth test on, depth writes off). Calling draw() alone
// repeats the same draw on data already resident: the benchmark's "floor".
#pragma once
#include <filesystem>
#include <memory>
#include <span>
#include <string>
#include <string_view>

#include "render/camera.h"
#include "render/options.h"
#include "sim/fire_system.h"

namespace firelab::render {

struct StrategyInfo {
    std::string_view name;
    std::string_view summary;  // one line for `firelab list`
    bool simulatesOnGpu;       // ignores the CPU pool and reproduces the model on the GPU
};

// Everything a strategy needs to set itself up.
struct StrategyContext {
    std::filesystem::path dataDir;  // holds shaders/ and textures/
    RenderOptions options;
    sim::FireParams params;  // the model (GPU-simulated strategies implement it; the others colour by it)
    float dt = 1.0f / 60.0f;  // the fixed simulation step, which GPU-simulated strategies step by too
};

class RenderStrategy {
public:
    virtual ~RenderStrategy() = default;
    virtual std::string_view name() const = 0;
    virtual void upload(const sim::FireSystem& fire, const Camera& camera) = 0;
    virtual void draw(const Camera& camera) = 0;
    // Particles the last draw() drew.
    virtual size_t drawnCount() const = 0;
};

std::span<const StrategyInfo> strategies();
// The strategy called `name`; firelab::Error(UnknownName) naming it and listing the valid names.
const StrategyInfo& strategyInfo(std::string_view name);
// Throws firelab::Error: UnknownName (listing the valid names), GlUnsupported, ShaderCompile, MissingFile.
std::unique_ptr<RenderStrategy> makeStrategy(std::string_view name, const StrategyContext& context);
// Checks that the options make sense for the strategy (e.g. sorting a GPU-resident simulation);
// throws firelab::Error(BadValue) saying why not.
void checkOptions(std::string_view name, const RenderOptions& options);

}  // namespace firelab::render

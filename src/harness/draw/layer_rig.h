// What a run draws each frame, for every front end that draws a run's settings (the runner, the
// quality replay, capture, the viewer): the effect's layers (render::LayerStack), the fire light and the
// view (the run's camera at the rig's time).
//
// Fire light (--fire-light N): each frame, N point lights are fitted (sim::FireLightFitter) to the light
// of the additive layers (the flame, embers: what glows) and set on the scene. GPU-simulated strategies
// have no CPU pool: for them each glowing layer is also simulated on the CPU by a proxy of at most
// kLightProxyParticles particles (the same model, the count, rate and burst scaled down, its light
// weighted back up), which the lights are fitted to. With N = 0 the scene keeps its static glow.
#pragma once
#include <filesystem>
#include <memory>
#include <vector>

#include "harness/settings/camera_path.h"
#include "harness/settings/effect.h"
#include "harness/settings/experiment.h"
#include "render/frame/layer_stack.h"
#include "render/frame/scene.h"
#include "render/particles/view_census.h"
#include "sim/fire_light.h"

namespace firelab::harness {

inline constexpr uint32_t kLightProxyParticles = 4096;

class LayerRig {
public:
    // Resolves the run's layers and makes them. Throws firelab::Error as resolveLayers and LayerStack do.
    LayerRig(const RunSettings& s, const std::filesystem::path& dataDir);
    // Makes `layers` (resolveLayers' of s, e.g. of an effect in memory) with s's strategy, frame options
    // and fire light. Throws firelab::Error as LayerStack does.
    LayerRig(const RunSettings& s, std::vector<Layer> layers, const std::filesystem::path& dataDir);
    ~LayerRig();

    render::LayerStack& stack() { return *stack_; }
    std::span<const Layer> layers() const { return stack_->layers(); }
    // The frame-level options the run's pipeline takes (harness::frameOptions).
    const render::RenderOptions& frameOptions() const { return frameOptions_; }
    double time() const { return stack_->time(); }
    double prewarmSeconds() const { return stack_->prewarmSeconds(); }

    // The run's view now (--camera, harness/settings/camera_path.h) for a width x height frame.
    render::Camera camera(int width, int height) const { return view_.at(time(), width, height); }

    // One fixed step of every layer (and of the light proxies).
    void step(float dt);
    // What `camera` makes of the layers now (render/particles/view_census.h), against the largest point
    // `maxPointPixels`. GPU-simulated strategies keep no CPU pool: their layers' CPU model is replayed from
    // t = 0 to the rig's time for it (the same model and seeds: the stateless strategy's very births; compute's
    // own state is not read back).
    render::ViewCensus census(const render::Camera& camera, float maxPointPixels) const;
    // Uploads every layer for this frame.
    void upload(const render::Camera& camera) { stack_->upload(camera); }
    // Fits this frame's fire lights, for `camera` (sizes in pixels are its), and sets them on the scene (none with
    // --fire-light 0). Returns the CPU milliseconds the fit took.
    double light(render::Scene& scene, const render::Camera& camera);
    // The strategies in draw order for the camera.
    std::vector<render::RenderStrategy*> ordered(const render::Camera& camera) { return stack_->ordered(camera); }
    // The lights of the last light(), and the glowing layers' emitted light then (rgb).
    std::span<const sim::PointLight> lights() const { return lights_; }
    glm::vec3 emitted() const { return emitted_; }

private:
    render::RenderOptions frameOptions_;
    RunCamera view_;
    float dt_;
    unsigned threads_;
    std::unique_ptr<render::LayerStack> stack_;
    int fireLights_;
    // Per glowing layer: the fire the lights see (the layer's own, or its proxy) and its weight.
    struct Glow {
        size_t layer;
        std::unique_ptr<sim::FireSystem> proxy;  // GPU-simulated strategies only
        float weight = 1.0f;
    };
    std::vector<Glow> glows_;
    sim::FireLightFitter fitter_;
    std::vector<sim::PointLight> lights_;
    glm::vec3 emitted_{0.0f};
};

}  // namespace firelab::harness

#include "harness/draw/layer_rig.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <utility>

#include "render/particles/instance_stream.h"

namespace firelab::harness {

static_assert(kMaxFireLights == render::Scene::kMaxFireLights, "--fire-light's range is what the scene shades");

namespace {
// The layer's model at most kLightProxyParticles strong: count, rate and burst scaled alike.
sim::FireParams proxyParams(const sim::FireParams& p, float& weight) {
    sim::FireParams q = p;
    const uint32_t total = p.particles + p.burst;
    if (total <= kLightProxyParticles) {
        weight = 1.0f;
        return q;
    }
    const double f = static_cast<double>(kLightProxyParticles) / static_cast<double>(total);
    q.particles = std::max<uint32_t>(1, static_cast<uint32_t>(std::lround(p.particles * f)));
    q.burst = static_cast<uint32_t>(std::lround(p.burst * f));
    q.rate = static_cast<float>(p.rate * f);
    weight = static_cast<float>(1.0 / f);
    return q;
}
}  // namespace

LayerRig::LayerRig(const RunSettings& s, const std::filesystem::path& dataDir)
    : LayerRig(s, resolveLayers(s), dataDir) {}

LayerRig::LayerRig(const RunSettings& s, std::vector<Layer> layers, const std::filesystem::path& dataDir)
    : frameOptions_(harness::frameOptions(s, layers)),
      view_(s),
      dt_(s.dt),
      threads_(s.threads),
      fireLights_(s.fireLight) {
    stack_ = std::make_unique<render::LayerStack>(dataDir, s.strategy, std::move(layers), s.dt, s.threads, s.fluid);
    if (fireLights_ == 0) return;
    for (size_t i = 0; i < stack_->size(); ++i) {
        const Layer& layer = stack_->setup(i);
        if (render::blendsInOrder(layer.render)) continue;  // smoke does not glow
        // Haze sends no light; a trail draws the path of particles that another layer (its embers) draws and lights.
        if (!render::drawnByStrategy(layer)) continue;
        // The light a particle sends: its colour times its alpha, which --energy-preserving scales, and
        // --sprite-gain where the strategy draws the sprite (a medium ignores it).
        const float gain = render::strategyInfo(s.strategy).textured ? layer.render.spriteGain : 1.0f;
        Glow g{i, nullptr, layer.render.alphaScale * gain};
        if (stack_->gpuSimulated()) {
            float w = 1.0f;
            g.proxy = std::make_unique<sim::FireSystem>(proxyParams(layer.params, w), 1);
            g.weight *= w;
        }
        glows_.push_back(std::move(g));
    }
}

LayerRig::~LayerRig() = default;

void LayerRig::step(float dt) {
    stack_->step(dt);
    for (auto& g : glows_)
        if (g.proxy) g.proxy->step(dt);
}

render::ViewCensus LayerRig::census(const render::Camera& camera, float maxPointPixels) const {
    render::ViewCensus c;
    for (size_t i = 0; i < stack_->size(); ++i) {
        const Layer& layer = stack_->setup(i);
        if (!stack_->gpuSimulated()) {
            c.add(render::countView(stack_->fire(i), camera, layer.render, maxPointPixels));
            continue;
        }
        sim::FireSystem replay(layer.params, threads_);
        while (replay.time() < time() - 0.5 * static_cast<double>(dt_)) replay.step(dt_);  // to the rig's time
        c.add(render::countView(replay, camera, layer.render, maxPointPixels));
    }
    return c;
}

double LayerRig::light(render::Scene& scene, const render::Camera& camera) {
    const auto t0 = std::chrono::steady_clock::now();
    lights_.clear();
    if (fireLights_ > 0) {
        fitter_.clear();
        const sim::PixelView view = render::pixelView(camera);
        for (const auto& g : glows_) {
            const sim::FireSystem& fire = g.proxy ? *g.proxy : stack_->fire(g.layer);
            fitter_.add(fire.pool(), fire.params(), g.weight, &view);
        }
        const auto fitted = fitter_.fit(fireLights_);
        lights_.assign(fitted.begin(), fitted.end());
        emitted_ = fitter_.emitted();
        scene.setFireLights(lights_);  // none when nothing glows: the moon alone, not the static glow
    } else {
        scene.setStaticGlow();
    }
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace firelab::harness

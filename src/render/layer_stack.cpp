#include "render/layer_stack.h"

#include <algorithm>

#include <glm/geometric.hpp>

#include "sim/emitter.h"

namespace firelab::render {

std::vector<size_t> drawOrder(std::span<const LayerSetup> layers, const Camera& camera, double t) {
    std::vector<size_t> inOrder, additive;
    std::vector<float> depth(layers.size(), 0.0f);
    for (size_t i = 0; i < layers.size(); ++i) {
        if (!blendsInOrder(layers[i].render)) {
            additive.push_back(i);
            continue;
        }
        depth[i] = glm::dot(camera.forward, sim::typicalPosition(layers[i].params, t) - camera.eye);
        inOrder.push_back(i);
    }
    // Back to front: the farthest first; equal depths keep the effect's order.
    std::stable_sort(inOrder.begin(), inOrder.end(), [&](size_t a, size_t b) { return depth[a] > depth[b]; });
    inOrder.insert(inOrder.end(), additive.begin(), additive.end());
    return inOrder;
}

LayerStack::LayerStack(const std::filesystem::path& dataDir, std::string_view strategy, std::vector<LayerSetup> layers,
                       float dt, unsigned threads)
    : layers_(std::move(layers)), gpuSim_(strategyInfo(strategy).simulatesOnGpu) {
    for (const auto& l : layers_) {
        fires_.push_back(std::make_unique<sim::FireSystem>(l.params, threads));
        strategies_.push_back(makeStrategy(strategy, StrategyContext{dataDir, l.render, l.params, dt}));
    }
}

LayerStack::~LayerStack() = default;

double LayerStack::prewarmSeconds() const {
    double s = 0.0;
    for (const auto& f : fires_) s = std::max(s, f->prewarmSeconds());
    return s;
}

void LayerStack::step(float dt) {
    for (auto& f : fires_) {
        if (gpuSim_)
            f->advanceClock(dt);
        else
            f->step(dt);
    }
}

void LayerStack::upload(const Camera& camera) {
    for (size_t i = 0; i < layers_.size(); ++i) strategies_[i]->upload(*fires_[i], camera);
}

void LayerStack::setTimer(PassTimer* timer) {
    for (auto& s : strategies_) s->setTimer(timer);
}

std::vector<RenderStrategy*> LayerStack::ordered(const Camera& camera) {
    std::vector<RenderStrategy*> out;
    for (size_t i : drawOrder(layers_, camera, time())) out.push_back(strategies_[i].get());
    return out;
}

size_t LayerStack::drawnCount() const {
    size_t n = 0;
    for (const auto& s : strategies_) n += s->drawnCount();
    return n;
}

size_t LayerStack::alive() const {
    size_t n = 0;
    for (const auto& f : fires_) n += f->pool().alive();
    return n;
}

}  // namespace firelab::render

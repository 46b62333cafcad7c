#include "render/frame/layer_stack.h"

#include <algorithm>
#include <limits>

#include <glm/geometric.hpp>

#include "fluid/gpu/gpu_fluid.h"
#include "render/gl/gl_context.h"
#include "render/layers/layer_kinds.h"
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

// The depth-sliced order as one strategy for the pipeline: each draw() goes through the slices far to
// near, uploading every layer's particles of the slice and drawing them (the uploads happen here, not in
// LayerStack::upload, which has nothing to do in this order).
class LayerStack::DepthSlices : public RenderStrategy {
public:
    explicit DepthSlices(LayerStack& stack) : stack_(stack) {}
    std::string_view name() const override {
        for (size_t l = 0; l < stack_.size(); ++l)
            if (drawnByStrategy(stack_.setup(l))) return stack_.strategy(l).name();
        return stack_.strategy(0).name();
    }
    void upload(const sim::FireSystem&, const Camera&) override {}
    size_t drawnCount() const override { return drawn_; }

    // This frame's camera and the depth range of every live particle.
    void prepare(const Camera& camera) {
        camera_ = camera;
        lo_ = std::numeric_limits<float>::infinity(), hi_ = -lo_;
        for (size_t l = 0; l < stack_.size(); ++l) {
            const sim::ParticlePool& q = stack_.fire(l).pool();
            for (size_t i = 0; i < q.alive(); ++i) {
                const float d = glm::dot(camera.forward, glm::vec3(q.px[i], q.py[i], q.pz[i]) - camera.eye);
                lo_ = std::min(lo_, d), hi_ = std::max(hi_, d);
            }
        }
        order_ = drawOrder(stack_.layers_, camera, stack_.time());
    }

    void draw(const DrawPass& pass) override {
        constexpr float kInf = std::numeric_limits<float>::infinity();
        const float width = (hi_ - lo_) / static_cast<float>(kDepthSlices);
        drawn_ = 0;
        for (int k = kDepthSlices - 1; k >= 0; --k) {  // far to near; the end slices open to infinity
            const float near = k == 0 ? -kInf : lo_ + width * static_cast<float>(k);
            const float far = k == kDepthSlices - 1 ? kInf : lo_ + width * static_cast<float>(k + 1);
            for (size_t l : order_) {
                if (!drawnByStrategy(stack_.setup(l))) continue;  // trails and haze: drawn once, after the slices
                RenderStrategy& s = stack_.strategy(l);
                s.setDepthSlice(near, far);
                s.upload(stack_.fire(l), camera_);
                s.draw(pass);
                drawn_ += s.drawnCount();
            }
        }
        for (size_t l = 0; l < stack_.size(); ++l) stack_.strategy(l).setDepthSlice(-kInf, kInf);
    }

private:
    LayerStack& stack_;
    Camera camera_;
    float lo_ = 0.0f, hi_ = 0.0f;
    std::vector<size_t> order_;
    size_t drawn_ = 0;  // particles the last draw() drew, every slice and layer
};

fluid::Device chosenFluidDevice(const fluid::FluidParams& fluid) {
    if (fluid.device != fluid::Device::Auto) return fluid.device;
    const auto* renderer = reinterpret_cast<const char*>(glGetString(GL_RENDERER));
    const bool software = gl::isSoftwareRenderer(renderer ? renderer : "");
    const bool gpuSolver = fluid.solver == fluid::Solver::Jacobi || fluid.solver == fluid::Solver::Pcg;
    const bool gpuCombustion = fluid.combustion == fluid::Combustion::Rate;
    return !software && gpuSolver && gpuCombustion ? fluid::Device::Gpu : fluid::Device::Cpu;
}

LayerStack::LayerStack(const std::filesystem::path& dataDir, std::string_view strategy, std::vector<LayerSetup> layers,
                       float dt, unsigned threads, const fluid::FluidParams& fluid)
    : layers_(std::move(layers)),
      gpuSim_(strategyInfo(strategy).simulatesOnGpu),
      medium_(strategyInfo(strategy).primitive == Primitive::Medium) {
    checkFluid(strategy, fluid);
    if (fluid.model == fluid::Model::Fluid && !layers_.empty()) {
        fluid::validate(fluid, layers_.front().params, dt);
        if (chosenFluidDevice(fluid) == fluid::Device::Gpu)
            fluid_ = std::make_unique<fluid::GpuFluid>(dataDir / "shaders", fluid, layers_.front().params);
        else
            fluid_ = std::make_unique<fluid::FluidSim>(fluid, layers_.front().params, threads);
        gridMedium_ = medium_ && drawsGrid(fluid);
    }
    for (const auto& l : layers_) {
        checkColor(l.params, fluid);
        fires_.push_back(std::make_unique<sim::FireSystem>(l.params, threads));
        if (fluid_ && fluid.motion == fluid::Motion::Fluid) fires_.back()->setFlow(fluid_.get());
        strategies_.push_back(makeLayerDrawer(strategy, StrategyContext{dataDir, l.render, l.params, dt}));
    }
    // A medium is one for every layer and has no order: the sorted-together limit the slices approach.
    if (!medium_ && !layers_.empty() && layers_.front().render.layerOrder == LayerOrder::DepthSlices)
        slices_ = std::make_unique<DepthSlices>(*this);
}

LayerStack::~LayerStack() = default;

double LayerStack::prewarmSecondsFor(std::span<const LayerSetup> layers) {
    double s = 0.0;
    for (const auto& l : layers) s = std::max(s, sim::FireSystem::prewarmSecondsFor(l.params));
    return s;
}

void LayerStack::step(float dt) {
    if (fluid_) fluid_->step(dt);
    for (size_t i = 0; i < fires_.size(); ++i) {
        if (gpuSim_ && drawnByStrategy(layers_[i])) {
            fires_[i]->advanceClock(dt);
            continue;
        }
        fires_[i]->step(dt);
        strategies_[i]->stepped(*fires_[i]);
    }
}

void LayerStack::upload(const Camera& camera) {
    culled_.assign(layers_.size(), 0);
    if (slices_) {  // each slice uploads the strategy's particles as it draws; the trails and haze upload here
        for (size_t i = 0; i < layers_.size(); ++i)
            if (!drawnByStrategy(layers_[i])) strategies_[i]->upload(*fires_[i], camera);
        return;
    }
    const std::optional<size_t> medium = mediumIndex();
    if (medium) strategies_[*medium]->uploadMedium(mediumLayers(), camera);  // every layer drawn by the strategy
    for (size_t i = 0; i < layers_.size(); ++i) {
        if (medium && drawnByStrategy(layers_[i])) continue;
        culled_[i] = outsideView(i, camera) ? 1 : 0;
        if (!culled_[i]) strategies_[i]->upload(*fires_[i], camera);
    }
}

bool LayerStack::outsideView(size_t i, const Camera& camera) const {
    const LayerSetup& l = layers_[i];
    // GPU-simulated layers keep no positions here; a velocity-facing sprite stretches without a bound, a trail
    // reaches back along its path (and must record every frame), a sprite sized in pixels grows with its distance.
    if ((gpuSim_ && drawnByStrategy(l)) || !l.render.cullBox || l.render.facing == Facing::Velocity ||
        l.render.drawAs != DrawAs::Strategy || l.params.sizeUnit == sim::SizeUnit::Pixels)
        return false;
    const sim::Bounds b = fires_[i]->bounds();
    if (b.empty()) return false;  // nothing alive: the strategy draws nothing anyway
    const float largest = std::max(l.params.sizeStart, l.params.sizeEnd) * (1.0f + l.params.sizeVar);
    const glm::vec3 reach(0.5f * 1.41421356f * largest);
    return boxOutsideView(camera, b.lo - reach, b.hi + reach);
}

std::vector<MediumLayer> LayerStack::mediumLayers() const {
    std::vector<MediumLayer> all;
    for (size_t i = 0; i < layers_.size(); ++i)
        if (drawnByStrategy(layers_[i])) all.push_back({fires_[i].get(), layers_[i].render});
    if (gridMedium_ && !all.empty()) all.front().grid = fluid_.get();  // the grid in place of the flame's particles
    return all;
}

std::optional<size_t> LayerStack::mediumIndex() const {
    if (!medium_) return std::nullopt;
    for (size_t i = 0; i < layers_.size(); ++i)
        if (drawnByStrategy(layers_[i])) return i;
    return std::nullopt;
}

void LayerStack::setTimer(PassTimer* timer) {
    for (auto& s : strategies_) s->setTimer(timer);
}

std::vector<RenderStrategy*> LayerStack::ordered(const Camera& camera) {
    // Under the depth slices or a medium, the layers the strategy draws are one drawable, and the trails and haze
    // are drawn after it (the haze's pass comes first in the frame whatever the order).
    std::vector<RenderStrategy*> out;
    const std::optional<size_t> medium = mediumIndex();
    if (slices_) slices_->prepare(camera), out.push_back(slices_.get());
    if (medium) out.push_back(strategies_[*medium].get());
    const bool whole = slices_ || medium_;
    for (size_t i : drawOrder(layers_, camera, time()))
        if (!culled(i) && !(whole && drawnByStrategy(layers_[i]))) out.push_back(strategies_[i].get());
    return out;
}

size_t LayerStack::drawnCount() const {
    size_t n = slices_ ? slices_->drawnCount() : 0;
    const std::optional<size_t> medium = mediumIndex();
    if (medium) n += strategies_[*medium]->drawnCount();
    const bool whole = slices_ || medium_;
    for (size_t i = 0; i < strategies_.size(); ++i)
        if (!culled(i) && !(whole && drawnByStrategy(layers_[i]))) n += strategies_[i]->drawnCount();
    return n;
}

size_t LayerStack::alive() const {
    size_t n = 0;
    for (const auto& f : fires_) n += f->pool().alive();
    return n;
}

}  // namespace firelab::render

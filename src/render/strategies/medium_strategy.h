// What volume-reference and volume share: each frame every layer's live particles become Gaussian kernels
// (render/particles/medium.h), built on the CPU and streamed to one storage buffer; a strategy says how it
// integrates them. One upload() draws one fire; uploadMedium() every layer of an effect as one medium.
#pragma once
#include <span>
#include <vector>

#include "render/gl/shader.h"
#include "render/particles/medium.h"
#include "render/strategies/strategy.h"

namespace firelab::render {

class MediumStrategy : public RenderStrategy {
public:
    explicit MediumStrategy(const StrategyContext& context) : context_(context) {}
    void upload(const sim::FireSystem& fire, const Camera& camera) override;
    void uploadMedium(std::span<const MediumLayer> layers, const Camera& camera) override;
    size_t drawnCount() const override { return kernels_.size(); }

protected:
    // After each upload: the kernels are in kernelBuffer() (binding 0 of medium_common.glsl).
    virtual void prepare(const Camera& camera) = 0;

    const StrategyContext& context() const { return context_; }
    std::span<const Kernel> kernels() const { return kernels_; }
    GLuint kernelBuffer() const { return buffer_.id(); }
    bool absorbs() const { return absorbs_; }
    // Sets medium_common.glsl's kernel count and camera uniforms on `program` for a pass of `camera`.
    void setCommonUniforms(const gl::Program& program, const Camera& camera) const;
    // Premultiplied blending of (light, 1 - transmittance) over the target (render::setBlendState), or adding
    // counts; no depth test (the integration stopped at the scene's depth). Restore with endBlend().
    static void beginBlend(const DrawPass& pass);
    static void endBlend();

private:
    StrategyContext context_;
    std::vector<Kernel> kernels_;
    gl::Buffer buffer_;
    size_t capacity_ = 0;
    bool absorbs_ = false;
};

}  // namespace firelab::render

#include "render/strategies/medium_strategy.h"

#include <glm/gtc/type_ptr.hpp>

#include "render/particles/instance_stream.h"
#include "render/particles/particle_material.h"

namespace firelab::render {

void MediumStrategy::upload(const sim::FireSystem& fire, const Camera& camera) {
    const MediumLayer layer{&fire, context_.options};
    uploadMedium({&layer, 1}, camera);
}

void MediumStrategy::uploadMedium(std::span<const MediumLayer> layers, const Camera& camera) {
    kernels_.clear();
    buildKernels(layers, camera, kernels_);
    absorbs_ = false;
    for (const Kernel& k : kernels_) absorbs_ = absorbs_ || k.emissionExtinction.w > 0.0f;
    streamInto(buffer_, capacity_, kernels_.data(), kernels_.size() * sizeof(Kernel));
    prepare(camera);
}

void MediumStrategy::setCommonUniforms(const gl::Program& p, const Camera& camera) const {
    p.set("uKernelCount", static_cast<unsigned>(kernels_.size()));
    p.set("uCamEye", camera.eye);
    p.set("uCamRight", camera.right);
    p.set("uCamUp", camera.up);
    p.set("uCamForward", camera.forward);
    p.set("uTanHalf", glm::vec2(1.0f / camera.proj[0][0], 1.0f / camera.proj[1][1]));
    p.set("uNear", nearDistance(camera));
    p.set("uTarget", glm::ivec2(camera.viewportWidth, camera.viewportHeight));
    p.set("uDepthTerms", depthTerms(camera));
}

void MediumStrategy::beginBlend(const DrawPass& pass) {
    setBlendState(Blend::Premultiplied, pass);  // light plus transmittance times what is behind
    glDisable(GL_DEPTH_TEST);
}

void MediumStrategy::endBlend() {
    glEnable(GL_DEPTH_TEST);
    ParticleMaterial::end();
}

}  // namespace firelab::render

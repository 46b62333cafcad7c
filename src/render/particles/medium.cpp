#include "render/particles/medium.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include <glm/geometric.hpp>

#include "sim/look.h"
#include "sim/snapshot.h"

namespace firelab::render {

Kernel kernelOf(const glm::vec3& center, float size, const glm::vec4& color, Blend blend) {
    const float sigma = size * kKernelSigmaPerSize;
    const glm::vec3 c(color);
    if (blend == Blend::Additive) return {{center, sigma}, {c * color.a, 0.0f}};
    // Opacity a through the centre: optical depth -ln(1 - a) (an opaque blob is capped just short of 1).
    const float tau = -std::log1p(-std::min(color.a, 0.999f));
    return {{center, sigma}, {c * tau, tau}};
}

void buildKernels(std::span<const MediumLayer> layers, const Camera& camera, std::vector<Kernel>& out) {
    const float near = nearDistance(camera);
    for (const MediumLayer& layer : layers) {
        const sim::ParticlePool& q = layer.fire->pool();
        const sim::FireParams& p = layer.fire->params();
        const RenderOptions& o = layer.options;
        const bool fades = fadesNearCamera(o.cameraFade);
        for (size_t i = 0; i < q.alive(); ++i) {
            const float t = q.age[i] / q.life[i];
            const float size = sim::sizeAt(p, t, q.scale[i]);
            const glm::vec3 center(q.px[i], q.py[i], q.pz[i]);
            const float depth = glm::dot(camera.forward, center - camera.eye);
            if (o.cullBehind && depth + kKernelReach * kKernelSigmaPerSize * size < near) continue;  // wholly behind
            float fade = 1.0f;
            if (fades) {
                if (depth <= o.cameraFade.x) continue;  // as the sprite strategies: not drawn at all
                fade = cameraFadeAt(o.cameraFade, depth);
            }
            glm::vec4 color = sim::colorOf(p, t, q.rnd[i]);
            color.a *= o.alphaScale * fade;
            out.push_back(kernelOf(center, size, color, o.blend));
        }
    }
}

glm::vec2 kernelDepthRange(std::span<const Kernel> kernels, const Camera& camera) {
    float lo = std::numeric_limits<float>::infinity(), hi = -lo;
    for (const Kernel& k : kernels) {
        const float depth = glm::dot(camera.forward, glm::vec3(k.centerSigma) - camera.eye);
        const float reach = kKernelReach * k.centerSigma.w;
        lo = std::min(lo, depth - reach), hi = std::max(hi, depth + reach);
    }
    return {std::max(lo, nearDistance(camera)), hi};
}

double kernelLineIntegral(double sigma, double d, double a, double b) {
    const double s = std::sqrt(2.0) * sigma;
    return std::exp(-d * d / (2.0 * sigma * sigma)) * 0.5 * (std::erf(b / s) - std::erf(a / s));
}

double oneKernelLight(double eta, double tau, double sigma, double d) {
    const double g = std::exp(-d * d / (2.0 * sigma * sigma));
    return tau > 0.0 ? eta / tau * (1.0 - std::exp(-tau * g)) : eta * g;
}

}  // namespace firelab::render

#include "render/particles/medium.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include <glm/geometric.hpp>

#include "fluid/grid_light.h"
#include "render/particles/instance_stream.h"
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

void buildKernels(std::span<const MediumLayer> layers, const Camera& camera, std::vector<Kernel>& out,
                  std::vector<glm::vec3>* velocities) {
    const float near = nearDistance(camera);
    for (const MediumLayer& layer : layers) {
        if (layer.grid != nullptr) {
            gridKernels(*layer.grid, layer.fire->params(), out, velocities);
            continue;
        }
        const sim::ParticlePool& q = layer.fire->pool();
        const sim::FireParams& p = layer.fire->params();
        const RenderOptions& o = layer.options;
        const bool fades = fadesNearCamera(o.cameraFade);
        const sim::FlameFrame flame = sim::flameFrame(p);
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
            glm::vec4 color = sim::particleColor(p, flame, q, i, gasKelvinAt(*layer.fire, center));
            color.a *= o.alphaScale * fade;
            out.push_back(kernelOf(center, size, color, o.blend));
            if (velocities) velocities->emplace_back(q.vx[i], q.vy[i], q.vz[i]);
        }
    }
}

void gridKernels(const fluid::FluidSim& grid, const sim::FireParams& look, std::vector<Kernel>& out,
                 std::vector<glm::vec3>* velocities) {
    const fluid::FluidState& g = grid.state();
    const fluid::GridLight light(grid.params(), look);
    const float extinctionPerSoot = grid.params().sootExtinction;
    const float sigma = kGridSigmaPerCell * g.h;
    const float volume = g.h * g.h * g.h / (2.0f * 3.14159265f * sigma * sigma);  // a cell's kernel weight per 1/m
    for (int k = 0; k < g.n.z; ++k)
        for (int j = 0; j < g.n.y; ++j)
            for (int i = 0; i < g.n.x; ++i) {
                if (g.isSolid(i, j, k)) continue;
                const glm::vec3 rgb = light.at(g.temperature.at(i, j, k));
                const float extinction = extinctionPerSoot * std::max(g.soot.at(i, j, k), 0.0f);
                if (std::max({rgb.r, rgb.g, rgb.b}) < kGridCutoff && extinction < kGridCutoff) continue;
                const glm::vec3 center = grid.cellCenter(i, j, k);
                out.push_back({glm::vec4(center, sigma), glm::vec4(rgb * volume, extinction * volume)});
                if (velocities) velocities->push_back(grid.velocityAt(center));
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

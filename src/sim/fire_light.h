// The fire lights the scene: each frame, a few point lights fitted to the light the particles emit, so the
// scene's flicker comes from the simulation itself. GL-free; render::Scene::setFireLights() draws them.
//
// - A particle emits its colour (sim::colorOf, through the renderers' table: gradientLut(params) times
//   sim::lookTint) at age / life, rgb * alpha * size^2 * weight,
//   size as the renderers draw it (sim::sizeAt); the layer's weight scales it (a proxy's count ratio, the
//   render's alphaScale).
// - fit(n) bins the emitted light into n groups of about equal light along its principal axis (the
//   vertical, for an upright flame), then refines them by kFireLightLloydSteps weighted k-means (Lloyd)
//   steps: no random start, so the same particles give the same lights. Groups left without light are
//   dropped, so a fire of few particles gets fewer lights.
// - The lights' intensities sum to kFireLightCalibration * emitted(), per channel.
// - Above kFireLightSamplesPerLayer live particles a layer is sampled with a fixed stride (each sample
//   weighted by the stride) for the fit; emitted() always sums every particle.
//
//   sim::FireLightFitter fitter;
//   fitter.clear();
//   fitter.add(fire.pool(), fire.params());
//   scene.setFireLights(fitter.fit(8));
#pragma once
#include <cmath>
#include <cstddef>
#include <span>
#include <vector>

#include <glm/geometric.hpp>
#include <glm/vec3.hpp>

#include "sim/params.h"
#include "sim/particle_pool.h"

namespace firelab::sim {

struct PointLight {
    glm::vec3 position{0.0f};   // m
    glm::vec3 intensity{0.0f};  // RGB radiant intensity: the irradiance at distance d is intensity * cos / d^2
};

// Light intensity per unit of emitted light (rgb * alpha * m^2), chosen so that the default fire
// (FireParams{}, 20000 particles, prewarmed) fitted by 8 lights lights the ground 0.9-2 m from it as
// brightly, on average, as the static glow scene.frag draws without fire lights
// (tests/render/frame/fire_light_gltest.cpp measures both: fire / glow 0.997 above the moonlight).
inline constexpr float kFireLightCalibration = 0.0112f;
inline constexpr size_t kFireLightSamplesPerLayer = 16384;
inline constexpr int kFireLightLloydSteps = 3;

// Where a frame is seen from, for sizes in pixels (--size-unit px): the eye, its forward direction and the metres a
// pixel spans at view depth 1 (render::spriteWorldSize's).
struct PixelView {
    glm::vec3 eye{0.0f}, forward{0.0f, 0.0f, -1.0f};
    float metresPerPixel = 0.0f;
    float metres(const glm::vec3& p, float pixels) const {
        return pixels * std::fabs(glm::dot(forward, p - eye)) * metresPerPixel;
    }
};

class FireLightFitter {
public:
    void clear();
    // Adds the pool's live particles, a layer of the effect (flame, embers...) that params describe. With
    // --size-unit px its sizes are pixels: `view` turns them into metres at each particle's view depth.
    void add(const ParticlePool& pool, const FireParams& params, float weight = 1.0f, const PixelView* view = nullptr);
    // Fits at most n lights (n >= 1, else throws firelab::Error(BadValue)) to everything added since
    // clear(); none when nothing emits. The span is valid until the next fit() or clear().
    std::span<const PointLight> fit(int n);
    // The total emitted light (rgb) added since clear().
    glm::vec3 emitted() const { return emitted_; }

private:
    // The samples the fit clusters (SoA): position, rgb light and its sum (the clustering weight).
    std::vector<float> x_, y_, z_, r_, g_, b_, w_;
    glm::vec3 emitted_{0.0f};
    glm::vec3 sampled_{0.0f};  // the samples' rgb summed: fit() scales them to emitted_
    // fit()'s scratch, kept between frames.
    std::vector<float> best_;
    std::vector<int> label_;
    std::vector<PointLight> lights_;
};

}  // namespace firelab::sim

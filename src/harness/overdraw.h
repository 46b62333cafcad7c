// Overdraw: fragments per covered pixel for a strategy's draw, counted by a dedicated pass into a
// float target (every surviving particle fragment adds 1; the opaque scene is drawn into depth only,
// so fragments hidden behind it are not counted), and a heat-map picture of it with a legend.
#pragma once
#include <vector>

#include "render/camera.h"
#include "render/image.h"
#include "render/particle_common.h"
#include "render/scene.h"
#include "render/strategy.h"

namespace firelab::harness {

struct Overdraw {
    int width = 0, height = 0;
    std::vector<float> counts;  // fragments per pixel, row 0 at the top
    double mean = 0.0;          // over covered pixels (count > 0)
    double max = 0.0;
    double total = 0.0;         // fragments counted over the whole frame
    double coveredFraction = 0.0;
};

// Statistics of a count image (exposed for tests).
Overdraw overdrawStats(int width, int height, std::vector<float> counts);

// Draws `strategy` (already uploaded) in counting mode: by default the fragments that survive the
// discard (overdraw); with Counting::Shaded every fragment the shader runs on. The scene may be null
// (no occluders).
Overdraw measureOverdraw(render::RenderStrategy& strategy, const render::Scene* scene, const render::Camera& camera,
                         int width, int height,
                         render::ParticleMaterial::Counting mode = render::ParticleMaterial::Counting::Visible);

// Black for 0, then a perceptual ramp (blue, magenta, orange, yellow, white) up to the maximum, with a
// labelled legend bar along the bottom.
render::Image overdrawHeatmap(const Overdraw& o);

}  // namespace firelab::harness

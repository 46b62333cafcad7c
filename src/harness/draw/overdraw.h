// Overdraw: fragments per covered pixel for a strategy's draw, counted by a dedicated pass into a
// float target (every surviving particle fragment adds 1; the opaque scene is drawn into depth only,
// so fragments hidden behind it are not counted), and a heat-map picture of it with a legend.
#pragma once
#include <span>
#include <vector>

#include "render/camera.h"
#include "image/image.h"
#include "render/frame/frame_pipeline.h"
#include "render/frame/scene.h"
#include "render/strategies/strategy.h"

namespace firelab::harness {

struct Overdraw {
    int width = 0, height = 0;
    std::vector<float> counts;  // fragments per pixel, row 0 at the top
    double mean = 0.0;          // over covered pixels (count > 0)
    double max = 0.0;
    double total = 0.0;  // fragments counted over the whole frame
    double coveredFraction = 0.0;
};

// Statistics of a count image (exposed for tests).
Overdraw overdrawStats(int width, int height, std::vector<float> counts);

// Draws `strategy` (already uploaded) through the pipeline's particle passes in counting mode: by default
// the fragments that survive the discard (overdraw); with CountShaded every fragment the shader runs on.
// The map has the frame's size: a low-resolution pass's counts are repeated over the pixels of each of its
// blocks (fragments per pass pixel); `total` is the fragments counted, fix-up pass included.
Overdraw measureOverdraw(render::FramePipeline& pipeline, const render::Scene& scene,
                         std::span<render::RenderStrategy* const> layers, const render::Camera& camera,
                         render::DrawMode mode = render::DrawMode::CountVisible);
inline Overdraw measureOverdraw(render::FramePipeline& pipeline, const render::Scene& scene,
                                render::RenderStrategy& strategy, const render::Camera& camera,
                                render::DrawMode mode = render::DrawMode::CountVisible) {
    render::RenderStrategy* one[] = {&strategy};
    return measureOverdraw(pipeline, scene, one, camera, mode);
}

// Black for 0, then a perceptual ramp (blue, magenta, orange, yellow, white) up to the maximum, with a
// labelled legend bar along the bottom.
image::Image overdrawHeatmap(const Overdraw& o);

}  // namespace firelab::harness

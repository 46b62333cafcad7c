// points: the paper's baseline, point-light particles. GL_POINTS, untextured: the fragment shader
// computes a soft round falloff; the point size is perspective-correct. The reference the other
// strategies differ from.
#include "render/strategies/streamed_strategy.h"

namespace firelab::render {

std::unique_ptr<RenderStrategy> makePoints(const StrategyContext& c) {
    return std::make_unique<StreamedStrategy>(c, "points", std::vector<std::string>{"points.vert", "points.frag"},
                                              StreamedStrategy::Draw::SizedPoints);
}

}  // namespace firelab::render

// points: the paper's baseline, point-light particles. GL_POINTS, untextured: the fragment shader
// computes a soft round falloff; the point size is perspective-correct. The reference the other
// strategies differ from.
#include "render/strategies/streamed_strategy.h"

namespace firelab::render {

extern constexpr StrategyEntry kPointsStrategy{
    {.name = "points",
     .summary = "the paper's point-light particles: GL_POINTS, untextured soft round falloff",
     .primitive = Primitive::Points,
     .textured = false},
    [](const StrategyContext& c) -> std::unique_ptr<RenderStrategy> {
        return std::make_unique<StreamedStrategy>(c, kPointsStrategy.info.name,
                                                  std::vector<std::string>{"points.vert", "points.frag"},
                                                  StreamedStrategy::Draw::SizedPoints);
    }};

}  // namespace firelab::render

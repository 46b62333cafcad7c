// point-sprites: same as points, but the fragment shader samples the flame texture through
// gl_PointCoord (the D3D9 seed's point sprites) instead of computing a round falloff.
#include "render/strategies/streamed_strategy.h"

namespace firelab::render {

extern constexpr StrategyEntry kPointSpritesStrategy{
    {.name = "point-sprites",
     .summary = "GL_POINTS textured with the flame sprite through gl_PointCoord",
     .primitive = Primitive::Points},
    [](const StrategyContext& c) -> std::unique_ptr<RenderStrategy> {
        return std::make_unique<StreamedStrategy>(c, kPointSpritesStrategy.info.name,
                                                  std::vector<std::string>{"points.vert", "point_sprites.frag"},
                                                  StreamedStrategy::Draw::SizedPoints);
    }};

}  // namespace firelab::render

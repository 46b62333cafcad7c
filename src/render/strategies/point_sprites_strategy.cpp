// point-sprites: same as points, but the fragment shader samples the flame texture through
// gl_PointCoord (the D3D9 seed's point sprites) instead of computing a round falloff.
#include "render/strategies/streamed_strategy.h"

namespace firelab::render {

std::unique_ptr<RenderStrategy> makePointSprites(const StrategyContext& c) {
    return std::make_unique<StreamedStrategy>(c, "point-sprites", std::vector<std::string>{"points.vert", "point_sprites.frag"},
                                              StreamedStrategy::Draw::SizedPoints);
}

}  // namespace firelab::render

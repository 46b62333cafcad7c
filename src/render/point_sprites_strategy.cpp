// point-sprites: same as points, but the fragment shader samples the flame texture through
// gl_PointCoord (the D3D9 seed's point sprites) instead of computing a round falloff.
#include "render/points_strategy.h"

namespace firelab::render {

std::unique_ptr<RenderStrategy> makePointSprites(const StrategyContext& c) {
    return std::make_unique<PointsStrategy>(c, "point-sprites", "point_sprites.frag");
}

}  // namespace firelab::render

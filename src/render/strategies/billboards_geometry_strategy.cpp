// billboards-geometry: the same points as `points`, expanded into camera-facing quads by a geometry
// shader (shaders/billboard_geometry.geom) instead of being rasterised as points.
#include "render/strategies/streamed_strategy.h"

namespace firelab::render {

std::unique_ptr<RenderStrategy> makeBillboardsGeometry(const StrategyContext& c) {
    return std::make_unique<StreamedStrategy>(c, "billboards-geometry", std::vector<std::string>{"billboard_geometry.vert", "billboard_geometry.geom", "quad.frag"},
                                              StreamedStrategy::Draw::Points);
}

}  // namespace firelab::render

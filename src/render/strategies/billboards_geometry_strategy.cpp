// billboards-geometry: the same points as `points`, expanded into camera-facing quads by a geometry
// shader (shaders/billboard_geometry.geom) instead of being rasterised as points.
#include "render/strategies/streamed_strategy.h"

namespace firelab::render {

extern constexpr StrategyEntry kBillboardsGeometryStrategy{
    {.name = "billboards-geometry",
     .summary = "points expanded to quads in a geometry shader",
     .primitive = Primitive::Sprites},
    [](const StrategyContext& c) -> std::unique_ptr<RenderStrategy> {
        return std::make_unique<StreamedStrategy>(
            c, kBillboardsGeometryStrategy.info.name,
            std::vector<std::string>{"billboard_geometry.vert", "billboard_geometry.geom", "quad.frag"},
            StreamedStrategy::Draw::Points);
    }};

}  // namespace firelab::render

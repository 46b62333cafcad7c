// billboards-geometry: the same points as `points`, expanded into camera-facing quads by a geometry
// shader (shaders/billboard_geometry.geom) instead of being rasterised as points.
#include "render/streamed_strategy.h"

namespace firelab::render {
namespace {

class BillboardsGeometry : public StreamedStrategy {
public:
    explicit BillboardsGeometry(const StrategyContext& c)
        : StreamedStrategy(c, "billboards-geometry",
                           {"billboard_geometry.vert", "billboard_geometry.geom", "quad.frag"}, Feed::PerVertex) {}

protected:
    void issueDraw(GLsizei count) override { glDrawArrays(GL_POINTS, 0, count); }
};

}  // namespace

std::unique_ptr<RenderStrategy> makeBillboardsGeometry(const StrategyContext& c) {
    return std::make_unique<BillboardsGeometry>(c);
}

}  // namespace firelab::render

// points: the paper's baseline, point-light particles. GL_POINTS, untextured: the fragment shader
// computes a soft round falloff; the point size is perspective-correct. The reference the other
// strategies differ from.
#include "render/streamed_strategy.h"

namespace firelab::render {
namespace {

class Points : public StreamedStrategy {
public:
    explicit Points(const StrategyContext& c) : StreamedStrategy(c, "points", {"points.vert", "points.frag"}, Feed::PerVertex) {}

protected:
    void issueDraw(GLsizei count) override {
        glEnable(GL_PROGRAM_POINT_SIZE);
        glDrawArrays(GL_POINTS, 0, count);
        glDisable(GL_PROGRAM_POINT_SIZE);
    }
};

}  // namespace

std::unique_ptr<RenderStrategy> makePoints(const StrategyContext& c) { return std::make_unique<Points>(c); }

}  // namespace firelab::render

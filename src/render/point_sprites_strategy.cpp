// point-sprites: same as points, but the fragment shader samples the flame texture through
// gl_PointCoord (the D3D9 seed's point sprites) instead of computing a round falloff.
#include "render/streamed_strategy.h"

namespace firelab::render {
namespace {

class PointSprites : public StreamedStrategy {
public:
    explicit PointSprites(const StrategyContext& c)
        : StreamedStrategy(c, "point-sprites", {"points.vert", "point_sprites.frag"}, Feed::PerVertex) {}

protected:
    void issueDraw(GLsizei count) override {
        glEnable(GL_PROGRAM_POINT_SIZE);
        glDrawArrays(GL_POINTS, 0, count);
        glDisable(GL_PROGRAM_POINT_SIZE);
    }
};

}  // namespace

std::unique_ptr<RenderStrategy> makePointSprites(const StrategyContext& c) { return std::make_unique<PointSprites>(c); }

}  // namespace firelab::render

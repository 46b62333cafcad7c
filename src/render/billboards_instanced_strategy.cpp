// billboards-instanced: instead of one point per particle (points), one instanced quad per particle;
// the vertex shader expands the corners (shaders/billboard_instanced.vert) from the same Instance data.
#include "render/streamed_strategy.h"

namespace firelab::render {
namespace {

class BillboardsInstanced : public StreamedStrategy {
public:
    explicit BillboardsInstanced(const StrategyContext& c)
        : StreamedStrategy(c, "billboards-instanced", {"billboard_instanced.vert", "quad.frag"}, Feed::PerInstance) {}

protected:
    void issueDraw(GLsizei count) override { glDrawArraysInstanced(GL_TRIANGLE_STRIP, 0, 4, count); }
};

}  // namespace

std::unique_ptr<RenderStrategy> makeBillboardsInstanced(const StrategyContext& c) {
    return std::make_unique<BillboardsInstanced>(c);
}

}  // namespace firelab::render

// billboards-instanced: instead of one point per particle (points), one instanced quad per particle;
// the vertex shader expands the corners (shaders/billboard_instanced.vert) from the same Instance data.
#include "render/strategies/streamed_strategy.h"

namespace firelab::render {

std::unique_ptr<RenderStrategy> makeBillboardsInstanced(const StrategyContext& c) {
    return std::make_unique<StreamedStrategy>(c, "billboards-instanced", std::vector<std::string>{"billboard_instanced.vert", "quad.frag"},
                                              StreamedStrategy::Draw::InstancedQuads);
}

}  // namespace firelab::render

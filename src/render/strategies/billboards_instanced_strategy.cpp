// billboards-instanced: instead of one point per particle (points), one instanced quad per particle;
// the vertex shader expands the corners (shaders/billboard_instanced.vert) from the same Instance data.
#include "render/strategies/streamed_strategy.h"

namespace firelab::render {

extern constexpr StrategyEntry kBillboardsInstancedStrategy{
    {.name = "billboards-instanced",
     .summary = "one instanced quad per particle, corners expanded in the vertex shader",
     .primitive = Primitive::Sprites},
    [](const StrategyContext& c) -> std::unique_ptr<RenderStrategy> {
        return std::make_unique<StreamedStrategy>(c, kBillboardsInstancedStrategy.info.name,
                                                  std::vector<std::string>{"billboard_instanced.vert", "quad.frag"},
                                                  StreamedStrategy::Draw::InstancedQuads);
    }};

}  // namespace firelab::render

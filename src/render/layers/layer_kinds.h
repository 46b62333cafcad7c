// The layers an effect draws otherwise than by the run's strategy (RenderOptions::drawAs), one file each here:
// trails (trail_layer.cpp: a ribbon through each particle's last positions) and heat haze (haze_layer.cpp: each
// particle a screen-space offset that the frame's haze pass refracts the scene behind the fire by). They take a
// layer's place in render/frame/layer_stack.h as a RenderStrategy does, and are always simulated on the CPU.
#pragma once
#include <memory>

#include "render/strategies/strategy.h"

namespace firelab::render {

std::unique_ptr<RenderStrategy> makeTrailLayer(const StrategyContext& context);
std::unique_ptr<RenderStrategy> makeHazeLayer(const StrategyContext& context);

// The drawer of a layer: the run's strategy `strategy` for DrawAs::Strategy, else the layer kind's.
std::unique_ptr<RenderStrategy> makeLayerDrawer(std::string_view strategy, const StrategyContext& context);

}  // namespace firelab::render
